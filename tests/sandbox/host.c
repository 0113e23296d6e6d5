/*
 * host.c: a C host of the sandbox API (luafind.h's lf_sandbox_*), for the
 * attempts of issue 20 (attacks.sh).
 *
 *	host [--max-steps N] [--max-memory N] [--max-walks N] [--max-threads N]
 *	     [--max-time-ms N] [--runs K] [--count] FILE [ARG...]
 *
 * Makes a sandbox with lf_sandbox_new, loads FILE (text) once and runs it K
 * times (1 by default) with the arguments, each through lf_sandbox_pcall,
 * printing one line per run on stdout: "ok" and its results (strings,
 * numbers, booleans and nil, space-separated), "steps", "time", "memory",
 * or "error: MESSAGE".  Then it closes the state, and prints on stderr the
 * CPU time of the whole process ("cpu 0.012") and its peak resident size
 * in KiB ("maxrss 3456").
 *
 * With --count, it also counts the fds in /proc/self/fd and the threads in
 * /proc/self/task: before lf_sandbox_new, after the last run, and after
 * lua_close; it prints "during: fds +N threads +M" and "after: fds +N
 * threads +M" on stdout, and exits 1 unless the state's close brought both
 * back to where they were.
 */
#include "luafind.h"

#include <dirent.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Entries of a /proc directory, but . and .. (the DIR's own fd included). */
static int count(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		exit(2);
	}
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		n += de->d_name[0] != '.';
	}
	closedir(d);
	return n;
}

static void print_results(lua_State *L, int base)
{
	fputs("ok", stdout);
	for (int i = base + 1; i <= lua_gettop(L); i++) {
		int t = lua_type(L, i);
		if (t == LUA_TSTRING || t == LUA_TNUMBER) {
			printf(" %s", lua_tostring(L, i));
		} else if (t == LUA_TBOOLEAN) {
			fputs(lua_toboolean(L, i) ? " true" : " false", stdout);
		} else {
			printf(" %s", lua_typename(L, t));
		}
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct lf_sandbox_limits lim = {0};
	int runs = 1;
	int counting = 0;
	int i = 1;
	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--count") == 0) {
			counting = 1;
			continue;
		}
		unsigned long long v = strtoull(argv[i + 1], NULL, 0);
		if (strcmp(argv[i], "--max-steps") == 0) {
			lim.max_steps = v;
		} else if (strcmp(argv[i], "--max-memory") == 0) {
			lim.max_memory = (size_t)v;
		} else if (strcmp(argv[i], "--max-walks") == 0) {
			lim.max_walks = (unsigned)v;
		} else if (strcmp(argv[i], "--max-threads") == 0) {
			lim.max_threads = (unsigned)v;
		} else if (strcmp(argv[i], "--max-time-ms") == 0) {
			lim.max_time_ms = v;
		} else if (strcmp(argv[i], "--runs") == 0) {
			runs = (int)v;
		} else {
			fprintf(stderr, "host: unknown option %s\n", argv[i]);
			return 2;
		}
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: host [--max-steps N] [--max-memory N] [--max-walks N] "
				"[--max-threads N] [--max-time-ms N] [--runs K] [--count] FILE [ARG...]\n");
		return 2;
	}
	const char *file = argv[i++];

	int fds0 = counting ? count("/proc/self/fd") : 0;
	int tasks0 = counting ? count("/proc/self/task") : 0;
	lua_State *L = lf_sandbox_new(&lim);
	if (!L) {
		perror("host: lf_sandbox_new");
		return 2;
	}
	FILE *f = fopen(file, "r");
	static char code[1 << 16];
	size_t len = f ? fread(code, 1, sizeof(code), f) : 0;
	if (!f || ferror(f)) {
		perror(file);
		return 2;
	}
	fclose(f);
	if (luaL_loadbufferx(L, code, len, "=attempt", "t") != LUA_OK) {
		printf("error: %s\n", lua_tostring(L, -1));
		lua_close(L);
		return 0;
	}
	int chunk = lua_gettop(L);
	for (int r = 0; r < runs; r++) {
		lua_pushvalue(L, chunk);
		for (int a = i; a < argc; a++) {
			lua_pushstring(L, argv[a]);
		}
		int base = chunk;
		int status = lf_sandbox_pcall(L, argc - i, LUA_MULTRET, 0);
		if (status == LUA_OK) {
			print_results(L, base);
		} else {
			int kind = lf_sandbox_error_kind(L, -1);
			if (kind == LF_SANDBOX_ERR_STEPS) {
				puts("steps");
			} else if (kind == LF_SANDBOX_ERR_TIME) {
				puts("time");
			} else if (kind == LF_SANDBOX_ERR_MEMORY) {
				puts("memory");
			} else {
				if (lua_istable(L, -1)) { /* luafind.find's error objects: their message */
					lua_pushliteral(L, "message");
					lua_rawget(L, -2);
				}
				const char *msg = lua_tostring(L, -1);
				printf("error: %s\n", msg ? msg : lua_typename(L, lua_type(L, -1)));
			}
		}
		fflush(stdout);
		lua_settop(L, chunk);
	}
	int fds1 = counting ? count("/proc/self/fd") : 0;
	int tasks1 = counting ? count("/proc/self/task") : 0;
	lua_close(L);
	int status = 0;
	if (counting) {
		int fds2 = count("/proc/self/fd"), tasks2 = count("/proc/self/task");
		printf("during: fds +%d threads +%d\n", fds1 - fds0, tasks1 - tasks0);
		printf("after: fds +%d threads +%d\n", fds2 - fds0, tasks2 - tasks0);
		status = fds2 != fds0 || tasks2 != tasks0;
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "cpu %.3f\n",
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	fprintf(stderr, "maxrss %ld\n", ru.ru_maxrss);
	return status;
}
