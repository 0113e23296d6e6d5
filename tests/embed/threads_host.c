/*
 * threads_host.c: two Lua states in two threads of one process, each
 * iterating luafind.find over the same tree with -printf of user, group and
 * file system type: contexts share nothing, so each thread prints what one
 * thread alone prints (and ThreadSanitizer has nothing to say).
 *
 *	threads_host TREE LUADIR N    N threads (1 or 2): the -printf output of
 *	                              every find, then what each thread's Lua
 *	                              read of the entries, on standard output
 */
#include <luafind/luafind.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
	const char *tree, *luadir;
	char *out; /* what the thread's Lua collected */
	int failed;
};

/* Twenty finds over the tree; the fields' values come back to C. */
static const char script[] =
	"local tree = ...\n"
	"local lf = require 'luafind'\n"
	"local lines = {}\n"
	"for round = 1, 20 do\n"
	"  for e in lf.find(tree, '-printf', '%u %g %F %p\\n') do\n"
	"    lines[#lines + 1] = e.path .. ' ' .. tostring(e.user) .. ' ' .. tostring(e.group)\n"
	"  end\n"
	"end\n"
	"table.sort(lines)\n"
	"return table.concat(lines, '\\n')\n";

static void *run(void *arg)
{
	struct job *j = arg;
	lua_State *L = luaL_newstate();
	if (!L) {
		j->failed = 1;
		return NULL;
	}
	luaL_openlibs(L);
	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	lua_pop(L, 1);
	lua_getglobal(L, "package");
	lua_pushfstring(L, "%s/?.lua;%s/?/init.lua", j->luadir, j->luadir);
	lua_setfield(L, -2, "path");
	lua_pop(L, 1);
	if (luaL_loadstring(L, script) != LUA_OK) {
		fprintf(stderr, "threads_host: %s\n", lua_tostring(L, -1));
		j->failed = 1;
	} else {
		lua_pushstring(L, j->tree);
		if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
			fprintf(stderr, "threads_host: %s\n", luaL_tolstring(L, -1, NULL));
			j->failed = 1;
		} else {
			j->out = strdup(lua_tostring(L, -1));
		}
	}
	lua_close(L);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: threads_host TREE LUADIR N\n");
		return 2;
	}
	int n = atoi(argv[3]);
	if (n < 1 || n > 2) {
		return 2;
	}
	struct job jobs[2];
	pthread_t tid[2];
	for (int i = 0; i < n; i++) {
		jobs[i] = (struct job){.tree = argv[1], .luadir = argv[2]};
		if (pthread_create(&tid[i], NULL, run, &jobs[i]) != 0) {
			perror("threads_host: pthread_create");
			return 1;
		}
	}
	int status = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		if (jobs[i].failed || !jobs[i].out) {
			status = 1;
			continue;
		}
		printf("%s\n", jobs[i].out);
		free(jobs[i].out);
	}
	return status;
}
