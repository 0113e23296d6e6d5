/*
 * regex.c: luafind.regex() and luafind.glob(), userdata over the core's
 * regex (PCRE2 with JIT) and glob (fnmatch) facades.
 *
 * Compiled objects are cached per pattern and flags in a weak table, so an
 * expression that builds the same regex for every entry (regex"%.c$" in a
 * -lua predicate) compiles it once.  Objects are immutable from Lua, so
 * sharing them is safe: the match data inside is only used during a call.
 *
 * SPDX-License-Identifier: MIT
 */
#include "lbind.h"

#include "lf_glob.h"
#include "lf_regex.h"

#include <errno.h>
#include <string.h>

struct lfb_regex {
	struct lf_regex *re;
};

struct lfb_glob {
	struct lf_glob *g;
};

/* Parse a flags string against @letters; each letter's flag is 1 << index. */
static unsigned check_flags(lua_State *L, int arg, const char *letters)
{
	const char *s = luaL_optstring(L, arg, "");
	unsigned flags = 0;
	for (; *s; s++) {
		const char *p = strchr(letters, *s);
		if (!p) {
			return (unsigned)luaL_argerror(L, arg,
						       lua_pushfstring(L, "invalid flag '%c' (expected some of \"%s\")",
								       *s, letters));
		}
		flags |= 1u << (p - letters);
	}
	return flags;
}

/*
 * Look up (pattern at 1, flags) in the cache at upvalue 1; on a hit the
 * object is pushed and 1 returned.  On a miss the cache's subtable for
 * @flags is left on the stack and 0 returned.
 */
static int cache_get(lua_State *L, unsigned flags)
{
	if (lua_rawgeti(L, lua_upvalueindex(1), flags) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_newtable(L);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_pushvalue(L, -1);
		lua_rawseti(L, lua_upvalueindex(1), flags);
	}
	lua_pushvalue(L, 1);
	if (lua_rawget(L, -2) != LUA_TNIL) {
		return 1;
	}
	lua_pop(L, 1);
	return 0;
}

/* Store the object on top in the subtable below it, under the pattern. */
static void cache_put(lua_State *L)
{
	lua_pushvalue(L, 1);
	lua_pushvalue(L, -2);
	lua_rawset(L, -4);
}

/*
 * Push a new object of class @mt, @size bytes, for the pattern at argument
 * 1.  Its compiled pattern is NULL until the caller compiles it, so __gc is
 * safe if compiling fails; the pattern string is pinned for __tostring.
 */
static void *new_object(lua_State *L, size_t size, const char *mt)
{
	void *obj = lua_newuserdatauv(L, size, 1);
	memset(obj, 0, size);
	luaL_setmetatable(L, mt);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, -2, 1);
	return obj;
}

/* __tostring of both classes (upvalue 1: the class name): "NAME: PATTERN" */
static int object_tostring(lua_State *L)
{
	const char *mt = lua_tostring(L, lua_upvalueindex(1));
	luaL_checkudata(L, 1, mt);
	lua_getiuservalue(L, 1, 1);
	lua_pushfstring(L, "%s: %s", mt, lua_tostring(L, -1));
	return 1;
}

/* ---- regex -------------------------------------------------------------- */

static struct lfb_regex *check_regex(lua_State *L)
{
	struct lfb_regex *r = luaL_checkudata(L, 1, LFB_REGEX);
	if (!r->re) {
		luaL_error(L, "luafind.regex: object is not compiled");
	}
	return r;
}

/*
 * regex(pattern [, flags]) -> a compiled regex; raises on a bad pattern
 * ("luafind.regex: MESSAGE at offset N").  flags: "i" caseless, "x"
 * extended, "s" dot matches newline, "m" multiline, "u" UTF-8 (invalid
 * sequences never match, never fail).  The locale plays no part: Lua's
 * strings are bytes, and a script that wants characters says "u", so a
 * regex means the same under every LC_ALL (find's -regex, which follows
 * the locale as GNU find does, is prim_tests.c's).
 */
static int mod_regex(lua_State *L)
{
	size_t len;
	const char *pat = luaL_checklstring(L, 1, &len);
	/* The letters in the order of enum lf_regex_flags. */
	unsigned flags = check_flags(L, 2, "ixsmu");
	if (cache_get(L, flags)) {
		return 1;
	}
	struct lfb_regex *r = new_object(L, sizeof(*r), LFB_REGEX);
	char msg[256];
	size_t off = 0;
	msg[0] = '\0';
	/* In a sandbox the regex is charged to its memory limit: a refusal
	 * collects the garbage (regexes dropped hold memory until their __gc)
	 * and tries once more before it is the limit's error. */
	const struct lf_mem *mem = lfb_sandbox_mem(L);
	lfb_sandbox_collect(L, false);
	r->re = lf_regex_compile_mem(pat, len, flags, mem, msg, sizeof(msg), &off);
	if (!r->re && errno == ENOMEM && mem) {
		lfb_sandbox_collect(L, true);
		r->re = lf_regex_compile_mem(pat, len, flags, mem, msg, sizeof(msg), &off);
	}
	if (!r->re) {
		if (errno == EINVAL || errno == EILSEQ) {
			return luaL_error(L, "luafind.regex: %s at offset %d", msg, (int)off);
		}
		if (errno == ENOMEM) {
			return lfb_memory_error(L);
		}
		return luaL_error(L, "luafind.regex: %s", strerror(errno));
	}
	cache_put(L);
	return 1;
}

static int regex_gc(lua_State *L)
{
	struct lfb_regex *r = luaL_checkudata(L, 1, LFB_REGEX);
	lf_regex_free(r->re);
	r->re = NULL;
	return 0;
}

/* string.find's rule for init: 1-based, negative from the end. */
static size_t start_offset(lua_State *L, int arg, size_t len, bool *past_end)
{
	lua_Integer init = luaL_optinteger(L, arg, 1);
	*past_end = false;
	if (init > 0) {
		if ((lua_Unsigned)init - 1 > len) {
			*past_end = true;
			return 0;
		}
		return (size_t)init - 1;
	}
	/* -init computed unsigned: math.mininteger has no positive negation. */
	lua_Unsigned back = (lua_Unsigned)0 - (lua_Unsigned)init;
	if (init == 0 || back > len) {
		return 0; /* before the start: from the start, as string.find */
	}
	return len - (size_t)back;
}

/* Run @r on @s from @start; raises on a matching failure. */
static int exec(lua_State *L, struct lfb_regex *r, const char *s, size_t len, size_t start,
		unsigned flags)
{
	int rc = lf_regex_exec(r->re, s, len, start, flags);
	if (rc < 0) {
		if (errno == ENOMEM && lfb_sandbox_mem(L)) {
			return lfb_memory_error(L);
		}
		return luaL_error(L, "luafind.regex: %s", lf_regex_error(r->re));
	}
	return rc;
}

/* Push the captures of the last match (the whole match if there are none);
 * a group that did not take part is false. */
static int push_captures(lua_State *L, struct lfb_regex *r, const char *s, bool whole_if_none)
{
	const size_t *ov = lf_regex_ovector(r->re);
	size_t n = lf_regex_groups(r->re);
	if (n == 0) {
		if (!whole_if_none) {
			return 0;
		}
		lua_pushlstring(L, s + ov[0], ov[1] > ov[0] ? ov[1] - ov[0] : 0);
		return 1;
	}
	luaL_checkstack(L, (int)n, "too many captures");
	for (size_t i = 1; i <= n; i++) {
		if (ov[2 * i] == LF_REGEX_UNSET) {
			lua_pushboolean(L, 0);
		} else {
			size_t b = ov[2 * i], e = ov[2 * i + 1];
			lua_pushlstring(L, s + b, e > b ? e - b : 0);
		}
	}
	return (int)n;
}

/* The arguments of re:match, re:find, re:test and re:gmatch: (s [, init]). */
struct subject {
	struct lfb_regex *r;
	const char *s;
	size_t len;
	size_t start;
	bool past_end; /* init is beyond the end of s: nothing matches */
};

static void check_subject(lua_State *L, struct subject *sj)
{
	sj->r = check_regex(L);
	sj->s = luaL_checklstring(L, 2, &sj->len);
	sj->start = start_offset(L, 3, sj->len, &sj->past_end);
}

/* Whether the regex matches from the subject's start; raises on a matching failure. */
static bool subject_matches(lua_State *L, const struct subject *sj)
{
	return !sj->past_end && exec(L, sj->r, sj->s, sj->len, sj->start, 0);
}

/* re:match(s [, init]) -> the captures, or the whole match; fail if none */
static int regex_match(lua_State *L)
{
	struct subject sj;
	check_subject(L, &sj);
	if (!subject_matches(L, &sj)) {
		luaL_pushfail(L);
		return 1;
	}
	return push_captures(L, sj.r, sj.s, true);
}

/* re:find(s [, init]) -> start, end, captures...; fail if none */
static int regex_find(lua_State *L)
{
	struct subject sj;
	check_subject(L, &sj);
	if (!subject_matches(L, &sj)) {
		luaL_pushfail(L);
		return 1;
	}
	const size_t *ov = lf_regex_ovector(sj.r->re);
	lua_pushinteger(L, (lua_Integer)ov[0] + 1);
	lua_pushinteger(L, (lua_Integer)(ov[1] > ov[0] ? ov[1] : ov[0]));
	return 2 + push_captures(L, sj.r, sj.s, false);
}

/* re:test(s [, init]) -> whether it matches; creates no string */
static int regex_test(lua_State *L)
{
	struct subject sj;
	check_subject(L, &sj);
	lua_pushboolean(L, subject_matches(L, &sj));
	return 1;
}

/*
 * The gmatch iterator.  Upvalues: the regex, the subject, the next offset,
 * the end of the last match (-1 before the first).  As in Lua 5.4, an empty
 * match right where the previous match ended is not returned.
 */
static int gmatch_step(lua_State *L)
{
	struct lfb_regex *r = lua_touserdata(L, lua_upvalueindex(1));
	size_t len;
	const char *s = lua_tolstring(L, lua_upvalueindex(2), &len);
	lua_Integer pos = lua_tointeger(L, lua_upvalueindex(3));
	lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
	if (!r->re || pos > (lua_Integer)len) {
		return 0;
	}
	unsigned flags = pos == last ? LF_REGEX_NOTEMPTY_ATSTART : 0;
	if (!exec(L, r, s, len, (size_t)pos, flags)) {
		lua_pushinteger(L, (lua_Integer)len + 1);
		lua_replace(L, lua_upvalueindex(3));
		return 0;
	}
	const size_t *ov = lf_regex_ovector(r->re);
	size_t end = ov[1] > ov[0] ? ov[1] : ov[0];
	lua_pushinteger(L, (lua_Integer)end);
	lua_replace(L, lua_upvalueindex(3));
	lua_pushinteger(L, (lua_Integer)end);
	lua_replace(L, lua_upvalueindex(4));
	return push_captures(L, r, s, true);
}

/* re:gmatch(s [, init]) -> an iterator over the matches' captures */
static int regex_gmatch(lua_State *L)
{
	struct subject sj;
	check_subject(L, &sj);
	lua_settop(L, 2);
	lua_pushinteger(L, sj.past_end ? (lua_Integer)sj.len + 1 : (lua_Integer)sj.start);
	lua_pushinteger(L, -1);
	lua_pushcclosure(L, gmatch_step, 4);
	return 1;
}

static const luaL_Reg regex_meth[] = {
	{"match", regex_match},
	{"find", regex_find},
	{"gmatch", regex_gmatch},
	{"test", regex_test},
	{NULL, NULL},
};

static const luaL_Reg regex_metameth[] = {
	{"__index", NULL},
	{"__gc", regex_gc},
	{"__tostring", object_tostring},
	{NULL, NULL},
};

/* ---- glob --------------------------------------------------------------- */

/*
 * glob(pattern [, flags]) -> a compiled shell pattern, matched as find's
 * -name does.  flags: "i" case-insensitive (-iname), "p" wildcards do not
 * match "/", "." a leading "." must be matched explicitly, "e" backslash is
 * an ordinary character.
 */
static int mod_glob(lua_State *L)
{
	size_t len;
	const char *pat = luaL_checklstring(L, 1, &len);
	if (strlen(pat) != len) {
		return luaL_argerror(L, 1, "pattern contains a NUL byte");
	}
	/* The letters in the order of enum lf_glob_flags. */
	unsigned flags = check_flags(L, 2, "ip.e");
	if (cache_get(L, flags)) {
		return 1;
	}
	struct lfb_glob *g = new_object(L, sizeof(*g), LFB_GLOB);
	g->g = lf_glob_compile(pat, flags);
	if (!g->g) {
		return luaL_error(L, "luafind.glob: %s", strerror(errno));
	}
	cache_put(L);
	return 1;
}

static int glob_gc(lua_State *L)
{
	struct lfb_glob *g = luaL_checkudata(L, 1, LFB_GLOB);
	lf_glob_free(g->g);
	g->g = NULL;
	return 0;
}

/* g:match(name) -> whether name matches */
static int glob_match(lua_State *L)
{
	struct lfb_glob *g = luaL_checkudata(L, 1, LFB_GLOB);
	size_t len;
	const char *s = luaL_checklstring(L, 2, &len);
	if (!g->g) {
		return luaL_error(L, "luafind.glob: object is not compiled");
	}
	lua_pushboolean(L, lf_glob_match(g->g, s, len));
	return 1;
}

static const luaL_Reg glob_meth[] = {
	{"match", glob_match},
	{NULL, NULL},
};

static const luaL_Reg glob_metameth[] = {
	{"__index", NULL},
	{"__gc", glob_gc},
	{"__tostring", object_tostring},
	{NULL, NULL},
};

/* ---- registration ------------------------------------------------------- */

/* The metamethods get the class name as their upvalue (object_tostring). */
static void new_class(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *meth)
{
	if (luaL_newmetatable(L, name)) {
		lua_pushstring(L, name);
		luaL_setfuncs(L, meta, 1);
		lua_newtable(L);
		luaL_setfuncs(L, meth, 0);
		lua_setfield(L, -2, "__index");
		lfb_hide_metatable(L, -1, name);
	}
	lua_pop(L, 1);
}

void lfb_open_regex(lua_State *L)
{
	new_class(L, LFB_REGEX, regex_metameth, regex_meth);
	new_class(L, LFB_GLOB, glob_metameth, glob_meth);
	lua_newtable(L);
	lua_pushcclosure(L, mod_regex, 1);
	lua_setfield(L, -2, "regex");
	lua_newtable(L);
	lua_pushcclosure(L, mod_glob, 1);
	lua_setfield(L, -2, "glob");
}
