/*
 * fuzz_lua.c: Lua snippets against luafind.core in a sandbox (32 MiB,
 * 200,000 instructions, nothing allowed beyond reading): the binding's
 * walk, find, regex, glob and entries over a small fixed tree, with
 * tests/fuzz/dict_lua.txt's hostile constructs.  Besides a crash or a
 * sanitizer report, a snippet is a finding (abort) when its run, lua_close
 * included, takes over 2 s of CPU, or leaves the heap (every allocation,
 * the C side's too) over twice the memory cap above where it started.
 */
#include <luafind/luafind.h>

#include <lauxlib.h>
#include <lua.h>
#include <fcntl.h>
#include <sanitizer/allocator_interface.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char tree[64];

/* The tree goes when libFuzzer exits (with exit(); a crash keeps it). */
static void remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	if (system(cmd) != 0) {
		fprintf(stderr, "%s: could not remove %s\n", __FILE__, tree);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(tree, sizeof(tree), "/tmp/lf-fuzz-lua-%d", (int)getpid());
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s/a/b && echo x > %s/a/f.c && ln -s f.c %s/a/l",
		 tree, tree, tree, tree);
	if (system(cmd) != 0) {
		abort();
	}
	atexit(remove_tree);
	/* Snippets print; libFuzzer's own reports go to standard error. */
	int fd = open("/dev/null", O_WRONLY);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	return 0;
}

#define CAP ((size_t)32 << 20)

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t heap0 = __sanitizer_get_current_allocated_bytes();
	double t0 = cpu_seconds();
	struct lf_sandbox_limits lim = {.max_memory = CAP, .max_steps = 200000};
	lua_State *L = lf_sandbox_new(&lim);
	if (!L) {
		return 0;
	}
	lua_pushstring(L, tree);
	lua_setglobal(L, "TREE");
	if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK) {
		lf_sandbox_pcall(L, 0, 0, 0);
	}
	size_t heap = __sanitizer_get_current_allocated_bytes();
	if (heap > heap0 && heap - heap0 > 2 * CAP) {
		fprintf(stderr, "fuzz_lua: the heap grew by %zu bytes, over twice the cap\n", heap - heap0);
		abort();
	}
	lua_close(L);
	double t = cpu_seconds() - t0;
	if (t > 2) {
		fprintf(stderr, "fuzz_lua: %.2f s of CPU, over 2 s\n", t);
		abort();
	}
	return 0;
}
