/*
 * fuzz_lua.c: Lua snippets against luafind.core in a sandbox (32 MiB,
 * 200,000 instructions, nothing allowed beyond reading): the binding's
 * walk, find, regex, glob and entries over a small fixed tree.
 */
#include <luafind/luafind.h>

#include <lauxlib.h>
#include <lua.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char tree[64];

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
	/* Snippets print; libFuzzer's own reports go to standard error. */
	int fd = open("/dev/null", O_WRONLY);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lf_sandbox_limits lim = {.max_memory = 32 << 20, .max_steps = 200000};
	lua_State *L = lf_sandbox_new(&lim);
	if (!L) {
		return 0;
	}
	lua_pushstring(L, tree);
	lua_setglobal(L, "TREE");
	if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK) {
		lf_sandbox_pcall(L, 0, 0, 0);
	}
	lua_close(L);
	return 0;
}
