/*
 * host.c: a host of the installed libluafind (debian/tests/c-host and
 * cmake-host build it): find's language over the library's walk in C, then
 * the same tree walked from Lua through luaopen_luafind_core and the
 * installed luafind/init.lua.  Prints "C n, Lua n": the .c files found.
 *
 * SPDX-License-Identifier: MIT
 */
#include <luafind/luafind.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>

static long c_count(const char *root)
{
	struct lf_ctx *ctx = lf_ctx_new();
	char *expr[] = {"-name", "*.c"};
	struct lf_query *q = ctx ? lf_query_compile(ctx, 2, expr, 0) : NULL;
	if (!q) {
		lf_ctx_free(ctx);
		return -1;
	}
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	const char *roots[] = {root};
	opts.roots = roots;
	opts.nroots = 1;
	long n = -1;
	struct lf_walk *w = lf_walk_open(&opts);
	if (w) {
		struct lf_entry *e;
		n = 0;
		while (!lf_query_done(q) && lf_walk_next(w, &e) > 0) {
			if (lf_query_eval(q, w, e) > 0) {
				n++;
			}
		}
		if (lf_walk_close(w) != 0) {
			n = -1;
		}
	}
	if (lf_query_finish(q) != 0) {
		n = -1;
	}
	lf_query_free(q);
	lf_ctx_free(ctx);
	return n;
}

static long lua_count(const char *root)
{
	lua_State *L = luaL_newstate();
	if (!L) {
		return -1;
	}
	luaL_openlibs(L);
	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	lua_pop(L, 1);
	long n = -1;
	if (luaL_loadstring(L, "local lf = require 'luafind'\n"
			       "local n = 0\n"
			       "for e in lf.find(..., '-name', '*.c') do n = n + 1 end\n"
			       "return n") != LUA_OK) {
		fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
	} else {
		lua_pushstring(L, root);
		if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
			fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
		} else {
			n = (long)lua_tointeger(L, -1);
		}
	}
	lua_close(L);
	return n;
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : ".";
	long c = c_count(root), l = lua_count(root);
	printf("C %ld, Lua %ld\n", c, l);
	return c < 0 || l < 0 || c != l;
}
