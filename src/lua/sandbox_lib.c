/*
 * sandbox_lib.c: the standard library functions whose work is not bounded
 * by what they are given, bounded for the sandbox (lbind.h's
 * lfb_sandbox_bound_libs).
 *
 * The count hook sees VM instructions only: one call of a C function is one
 * instruction, however long it runs, and the sandbox's clock is read only
 * between instructions.  These functions can each run for minutes in one
 * call, so in a sandbox each is wrapped (the original is upvalue 1):
 *
 *  - string.find, match, gmatch, gsub backtrack: the search is first
 *    counted (pattern_cost.c) and refused over PATTERN_STEPS; what it
 *    costs is charged to the instruction budget, a sixteenth of a step
 *    per instruction.  A plain find (or a pattern without magic
 *    characters) is made here with memmem, linear, where Lua's own is not.
 *  - string.rep of an empty string (and an empty separator) returns ""
 *    at once: Lua copies nothing n times, which for n = 2^53 never ends.
 *  - table.move, insert, remove and sort charge the elements they move
 *    (sort: n log2 n comparisons) to the budget before they start.
 *
 * Everything else in the sandbox's libraries is linear in its arguments
 * or its result, and so bounded by the memory cap.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"

#include <string.h>

#include <lauxlib.h>

/* The most one pattern search may cost (about 0.1 s of CPU). */
#define PATTERN_STEPS 20000000u

/* Whether Lua would search @p as a plain string (lstrlib's nospecials). */
static bool plain_pattern(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (strchr("^$*+?.([%-", p[i]) && p[i] != '\0') {
			return false;
		}
	}
	return true;
}

/* The 0-based start of a search from init argument @i (Lua's posrelat). */
static size_t start_of(lua_Integer i, size_t len)
{
	if (i > 0) {
		return (size_t)i - 1;
	}
	if (i == 0 || (lua_Unsigned)-(i + 1) >= len) {
		return 0;
	}
	return len - (size_t)-i;
}

/* Call the original (upvalue 1) with the arguments as they are. */
static int call_original(lua_State *L)
{
	int n = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	return lua_gettop(L);
}

static int search(lua_State *L, enum lfb_pattern_op op, const char *fn)
{
	size_t len, plen;
	const char *s = luaL_checklstring(L, 1, &len);
	const char *p = luaL_checklstring(L, 2, &plen);
	size_t init = op == LFB_PATTERN_GSUB ? 0 : start_of(luaL_optinteger(L, 3, 1), len);
	if (init > len) {
		return call_original(L); /* no search: fail, or nothing to iterate */
	}
	if (op == LFB_PATTERN_FIND && fn[0] == 'f' && (lua_toboolean(L, 4) || plain_pattern(p, plen))) {
		const char *r = plen ? memmem(s + init, len - init, p, plen) : s + init;
		if (!r) {
			luaL_pushfail(L);
			return 1;
		}
		lfb_sandbox_charge(L, (len - init) / 64);
		lua_pushinteger(L, (lua_Integer)(r - s) + 1);
		lua_pushinteger(L, (lua_Integer)(r - s) + (lua_Integer)plen);
		return 2;
	}
	uint64_t steps;
	if (!lfb_pattern_cost(s, len, p, plen, init, op, PATTERN_STEPS, &steps)) {
		return luaL_error(L,
				  "string.%s: pattern too costly for the sandbox (over %d steps of backtracking "
				  "over %I bytes): anchor it, or use fewer repetitions that can match the same "
				  "characters",
				  fn, (int)PATTERN_STEPS, (lua_Integer)len);
	}
	lfb_sandbox_charge(L, steps / 16);
	return call_original(L);
}

static int sb_find(lua_State *L)
{
	return search(L, LFB_PATTERN_FIND, "find");
}

static int sb_match(lua_State *L)
{
	return search(L, LFB_PATTERN_FIND, "match");
}

static int sb_gmatch(lua_State *L)
{
	return search(L, LFB_PATTERN_GMATCH, "gmatch");
}

static int sb_gsub(lua_State *L)
{
	return search(L, LFB_PATTERN_GSUB, "gsub");
}

/* string.rep(s, n [, sep]) */
static int sb_rep(lua_State *L)
{
	size_t l, lsep = 0;
	luaL_checklstring(L, 1, &l);
	luaL_checkinteger(L, 2);
	luaL_optlstring(L, 3, "", &lsep);
	if (l + lsep == 0) {
		lua_pushliteral(L, "");
		return 1;
	}
	return call_original(L);
}

/* table.move(a1, f, e, t [, a2]) */
static int sb_move(lua_State *L)
{
	lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
	if (e >= f) {
		lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)f + 1;
		lfb_sandbox_charge(L, n ? n : UINT64_MAX); /* 0: all of the integers */
	}
	return call_original(L);
}

/* The raw length of the table at 1, for what insert and remove will shift. */
static lua_Unsigned table_len(lua_State *L)
{
	return lua_type(L, 1) == LUA_TTABLE ? (lua_Unsigned)lua_rawlen(L, 1) : 0;
}

/* table.insert(t, [pos,] v), table.remove(t [, pos]) */
static int sb_shift(lua_State *L)
{
	lfb_sandbox_charge(L, table_len(L));
	return call_original(L);
}

/* table.sort(t [, comp]): its comparisons with Lua's own "<" are C work. */
static int sb_sort(lua_State *L)
{
	lua_Unsigned n = table_len(L), log2 = 1;
	while (log2 < 64 && ((lua_Unsigned)1 << log2) < n) {
		log2++;
	}
	lfb_sandbox_charge(L, n > UINT64_MAX / 64 ? UINT64_MAX : n * log2);
	return call_original(L);
}

static void wrap(lua_State *L, int lib, const char *name, lua_CFunction fn)
{
	lua_getfield(L, lib, name);
	lua_pushcclosure(L, fn, 1);
	lua_setfield(L, lib, name);
}

void lfb_sandbox_bound_libs(lua_State *L, int strlib, int tablib)
{
	strlib = lua_absindex(L, strlib);
	tablib = lua_absindex(L, tablib);
	wrap(L, strlib, "find", sb_find);
	wrap(L, strlib, "match", sb_match);
	wrap(L, strlib, "gmatch", sb_gmatch);
	wrap(L, strlib, "gsub", sb_gsub);
	wrap(L, strlib, "rep", sb_rep);
	wrap(L, tablib, "move", sb_move);
	wrap(L, tablib, "insert", sb_shift);
	wrap(L, tablib, "remove", sb_shift);
	wrap(L, tablib, "sort", sb_sort);
}
