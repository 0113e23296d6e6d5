/*
 * lua_host.c: a C program that creates its own lua_State, registers
 * luafind.core with luaL_requiref(luaopen_luafind_core) from the installed
 * libluafind, and runs a Lua walk.  Built with
 * `pkg-config --cflags --libs luafind` (which brings Lua 5.4) or with
 * find_package(luafind).
 *
 *	lua_host DIR [LUADIR]
 *
 * With LUADIR (the installed share/lua/5.4), require "luafind" loads the
 * installed init.lua on top of the preloaded C module.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <luafind/luafind.h>

#include <stdio.h>

static const char script[] =
	"local dir, luadir = ...\n"
	"local core = require 'luafind.core'\n"
	"local n, files, stats = 0, 0\n"
	"local it, s, c, w = core.walk{dir, sort = true}\n"
	"for e in it, s, c, w do\n"
	"  n = n + 1\n"
	"  if e.type == 'f' then files = files + 1 end\n"
	"end\n"
	"stats = w:stats().stats\n"
	"assert(n == 6 and files == 3 and stats == 1, ('%d %d %d'):format(n, files, stats))\n"
	"local re = core.regex[[\\.c$]]\n"
	"assert(re:test('x.c') and not re:test('x.h'))\n"
	"if luadir then\n"
	"  package.path = luadir .. '/?/init.lua'\n"
	"  local lf = require 'luafind'\n"
	"  assert(lf.core == core and lf.MiB == 1048576)\n"
	"  for e in lf.walk(dir) do if e.name == 'x.c' then assert(e.size == 5) end end\n"
	"end\n"
	"return n\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: lua_host DIR [LUADIR]\n");
		return 2;
	}
	lua_State *L = luaL_newstate();
	if (!L) {
		return 1;
	}
	luaL_openlibs(L);
	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	lua_pop(L, 1);
	int status = luaL_loadbuffer(L, script, sizeof(script) - 1, "=lua_host");
	if (status == LUA_OK) {
		lua_pushstring(L, argv[1]);
		if (argc > 2) {
			lua_pushstring(L, argv[2]);
		} else {
			lua_pushnil(L);
		}
		status = lua_pcall(L, 2, 1, 0);
	}
	if (status != LUA_OK) {
		fprintf(stderr, "lua_host: %s\n", lua_tostring(L, -1));
		lua_close(L);
		return 1;
	}
	printf("lua_host: ok: %d entries\n", (int)lua_tointeger(L, -1));
	lua_close(L);
	return 0;
}
