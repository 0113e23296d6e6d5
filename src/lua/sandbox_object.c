/*
 * sandbox_object.c: luafind.sandbox{...}, a sandbox (sandbox.c) as a Lua
 * object: sb:run(code, ...) loads text code in the sandbox and runs it
 * under its limits, with the values that cross between the two states
 * copied (nil, booleans, numbers, strings only); sb:close(), also __close
 * and __gc, closes the sandbox's state.
 *
 * SPDX-License-Identifier: MIT
 */
#include "lbind.h"
#include "luafind.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define SANDBOX "luafind.Sandbox"

struct sandbox_ud {
	lua_State *S; /* NULL once closed */
};

static int sbox_close(lua_State *L)
{
	struct sandbox_ud *u = luaL_checkudata(L, 1, SANDBOX);
	if (u->S) {
		lua_close(u->S);
		u->S = NULL;
	}
	return 0;
}

/* Whether the value at @idx of @from can be copied between states. */
static bool copyable(lua_State *from, int idx)
{
	int t = lua_type(from, idx);
	return t == LUA_TNIL || t == LUA_TNONE || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING;
}

/* Push a copy of the (copyable) value at @idx of @from onto @to. */
static void copy_value(lua_State *from, int idx, lua_State *to)
{
	switch (lua_type(from, idx)) {
	case LUA_TBOOLEAN:
		lua_pushboolean(to, lua_toboolean(from, idx));
		break;
	case LUA_TNUMBER:
		if (lua_isinteger(from, idx)) {
			lua_pushinteger(to, lua_tointeger(from, idx));
		} else {
			lua_pushnumber(to, lua_tonumber(from, idx));
		}
		break;
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(from, idx, &len);
		lua_pushlstring(to, s, len);
		break;
	}
	default:
		lua_pushnil(to);
	}
}

static const char *kind_name(int kind)
{
	return kind == LF_SANDBOX_ERR_MEMORY ? "memory"
	       : kind == LF_SANDBOX_ERR_STEPS ? "steps"
	       : kind == LF_SANDBOX_ERR_TIME  ? "time"
					      : "error";
}

/*
 * In @S, protected (pushing a key may allocate, and raise at the cap): the
 * message field of the error object at 1, a luafind.find error, or nil.
 * Raw, so that no code of the sandbox runs.
 */
static int error_message(lua_State *S)
{
	lua_pushliteral(S, "message");
	lua_rawget(S, 1);
	return 1;
}

/* The values at @first..@last of @from, for push_copies(). */
struct transfer {
	lua_State *from;
	int first, last;
};

/* In the sandbox, protected: push copies of the transfer (light userdata at 1). */
static int push_copies(lua_State *S)
{
	const struct transfer *t = lua_touserdata(S, 1);
	lua_pop(S, 1);
	int n = t->last - t->first + 1;
	luaL_checkstack(S, n, "too many arguments");
	for (int i = t->first; i <= t->last; i++) {
		copy_value(t->from, i, S);
	}
	return n;
}

/* The results of a failed run: false, message, kind; clears @S's stack. */
static int run_failed(lua_State *L, lua_State *S, int kind)
{
	lua_pushboolean(L, 0);
	int t = lua_type(S, -1);
	if (kind != LF_SANDBOX_ERR_LUA) {
		lua_pushstring(L, lf_sandbox_error_message(kind));
	} else if (t == LUA_TSTRING || t == LUA_TNUMBER) {
		copy_value(S, -1, L);
	} else if (t == LUA_TTABLE && lua_checkstack(S, 2) &&
		   (lua_pushcfunction(S, error_message), lua_pushvalue(S, -2), lua_pcall(S, 1, 1, 0)) == LUA_OK &&
		   lua_type(S, -1) == LUA_TSTRING) {
		copy_value(S, -1, L); /* luafind.find's error objects */
	} else {
		lua_pushfstring(L, "(error object is a %s value)", lua_typename(S, t));
	}
	lua_pushstring(L, kind_name(kind));
	lua_settop(S, 0);
	return 3;
}

/*
 * sb:run(code, ...) -> true, results... | false, message, kind: run the
 * text chunk @code in the sandbox with the arguments; kind is "memory",
 * "steps" or "error".  Only nil, booleans, numbers and strings go in and
 * come out.
 */
static int sbox_run(lua_State *L)
{
	struct sandbox_ud *u = luaL_checkudata(L, 1, SANDBOX);
	size_t len;
	const char *code = luaL_checklstring(L, 2, &len);
	if (!u->S) {
		return luaL_error(L, "luafind.sandbox: attempt to use a closed sandbox");
	}
	int top = lua_gettop(L);
	for (int i = 3; i <= top; i++) {
		if (!copyable(L, i)) {
			return luaL_error(L, "luafind.sandbox: argument #%d: a %s cannot enter the sandbox", i - 1,
					  luaL_typename(L, i));
		}
	}
	lua_State *S = u->S;
	lua_settop(S, 0);
	lf_sandbox_reset(S);
	/*
	 * Nothing may allocate in S outside a protected call: at the memory
	 * cap, an unprotected error would abort the process.  Loading is
	 * protected; so is copying the arguments in.
	 */
	int status = luaL_loadbufferx(S, code, len, "=sandbox", "t");
	if (status != LUA_OK) {
		return run_failed(L, S, lf_sandbox_error_kind(S, -1));
	}
	struct transfer args = {L, 3, top};
	lua_pushcfunction(S, push_copies);
	lua_pushlightuserdata(S, &args);
	status = lua_pcall(S, 1, LUA_MULTRET, 0);
	if (status != LUA_OK) {
		return run_failed(L, S, lf_sandbox_error_kind(S, -1));
	}
	status = lua_pcall(S, top - 2, LUA_MULTRET, 0);
	if (status != LUA_OK) {
		return run_failed(L, S, lf_sandbox_error_kind(S, -1));
	}
	int n = lua_gettop(S);
	luaL_checkstack(L, n + 1, "too many results");
	lua_pushboolean(L, 1);
	for (int i = 1; i <= n; i++) {
		if (!copyable(S, i)) {
			lua_settop(L, top);
			lua_pushboolean(L, 0);
			lua_pushfstring(L, "result #%d: a %s cannot leave the sandbox", i, luaL_typename(S, i));
			lua_pushliteral(L, "error");
			lua_settop(S, 0);
			return 3;
		}
		copy_value(S, i, L);
	}
	lua_settop(S, 0);
	return n + 1;
}

/* An option of luafind.sandbox{}: a non-negative integer, or 0. */
static lua_Integer opt_size(lua_State *L, const char *name)
{
	lua_pushstring(L, name);
	lua_rawget(L, 1); /* raw: the caller's table answers once, as it holds */
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return 0;
	}
	int isint;
	lua_Integer v = lua_tointegerx(L, -1, &isint);
	if (!isint || v < 0) {
		luaL_error(L, "luafind.sandbox: bad option '%s' (expected a non-negative integer)", name);
	}
	lua_pop(L, 1);
	return v;
}

/*
 * sandbox{max_memory =, max_steps =, max_time = seconds, max_walks =,
 * max_threads =, allow = {"delete", "link", "actions"}}, read raw: a sandbox object with run and
 * close (also its __close and __gc); lf_sandbox_limits' fields.
 */
static int mod_sandbox(lua_State *L)
{
	struct lf_sandbox_limits lim = {0};
	if (!lua_isnoneornil(L, 1)) {
		luaL_checktype(L, 1, LUA_TTABLE);
		lim.max_memory = (size_t)opt_size(L, "max_memory");
		lim.max_steps = (uint64_t)opt_size(L, "max_steps");
		lua_Integer walks = opt_size(L, "max_walks"), threads = opt_size(L, "max_threads");
		if (walks > UINT_MAX || threads > UINT_MAX) {
			return luaL_error(L, "luafind.sandbox: bad option '%s' (too large)",
					  walks > UINT_MAX ? "max_walks" : "max_threads");
		}
		lim.max_walks = (unsigned)walks;
		lim.max_threads = (unsigned)threads;
		lua_pushliteral(L, "max_time");
		if (lua_rawget(L, 1) != LUA_TNIL) {
			lua_Number t = lua_tonumber(L, -1);
			if (lua_type(L, -1) != LUA_TNUMBER || !(t > 0) || t > 1e12) {
				return luaL_error(L, "luafind.sandbox: bad option 'max_time' (expected seconds, "
						  "a positive number)");
			}
			lim.max_time_ms = t * 1000 >= 1 ? (uint64_t)(t * 1000) : 1;
		}
		lua_pop(L, 1);
		lua_pushliteral(L, "allow");
		if (lua_rawget(L, 1) != LUA_TNIL) {
			luaL_checktype(L, -1, LUA_TTABLE);
			lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
			for (lua_Integer i = 1; i <= n; i++) {
				lua_rawgeti(L, -1, i);
				static const char *const names[] = {"delete", "link", "actions", NULL};
				const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
				int k = 0;
				while (names[k] && strcmp(names[k], s) != 0) {
					k++;
				}
				if (!names[k]) {
					return luaL_error(L, "luafind.sandbox: bad option 'allow' (%s is not "
							  "\"delete\", \"link\" or \"actions\")",
							  luaL_tolstring(L, -1, NULL));
				}
				lim.allow |= 1u << k; /* LF_SANDBOX_ALLOW_DELETE, _LINK, _ACTIONS */
				lua_pop(L, 1);
			}
		}
		lua_pop(L, 1);
	}
	struct sandbox_ud *u = lua_newuserdatauv(L, sizeof(*u), 0);
	u->S = NULL;
	luaL_setmetatable(L, SANDBOX);
	u->S = lfb_sandbox_new(&lim, NULL);
	if (!u->S) {
		return luaL_error(L, "luafind.sandbox: %s", strerror(errno));
	}
	return 1;
}

static const luaL_Reg sbox_meth[] = {
	{"run", sbox_run},
	{"close", sbox_close},
	{NULL, NULL},
};

void lfb_open_sandbox(lua_State *L)
{
	int mod = lua_gettop(L);
	if (luaL_newmetatable(L, SANDBOX)) {
		lua_newtable(L);
		luaL_setfuncs(L, sbox_meth, 0);
		lua_setfield(L, -2, "__index");
		lua_pushcfunction(L, sbox_close);
		lua_setfield(L, -2, "__gc");
		lua_pushcfunction(L, sbox_close);
		lua_setfield(L, -2, "__close");
		lfb_hide_metatable(L, -1, SANDBOX);
	}
	lua_pop(L, 1);
	lua_pushcfunction(L, mod_sandbox);
	lua_setfield(L, mod, "sandbox");
}
