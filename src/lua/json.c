/*
 * json.c: luafind.json(value | entry [, fields]), JSON text of a Lua value
 * or of an entry, with the string rules of -json (src/find/json.h): valid
 * UTF-8 as it is, other bytes as lone surrogate escapes, so that names
 * survive.
 *
 * Values: nil (at the top), booleans, integers, finite floats (the shortest
 * form that reads back the same, with ".0" for integral ones), strings,
 * entries (the object -json writes, stat'ing as it does; a value that could
 * not be had is null, and its reason is returned after the text) and
 * tables.  A table whose keys are
 * exactly 1..n is an array, any other an object with its keys sorted
 * (integer keys written as decimal strings); an empty table is an array.
 * A metatable field __jsontype = "array" or "object" decides instead.
 * Cycles, functions, other userdata, NaN and infinities, and keys that are
 * neither strings nor integers are errors naming where they are.
 *
 * The text is built in a writer owned by a userdata, so that an error
 * raised half-way leaks nothing (its __gc frees the buffer).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"

#include "ctx.h"
#include "json.h"
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_BUF "luafind.JsonBuffer"
#define MAX_DEPTH 1000

/* Where the encoder is, for messages: the keys from the top value down. */
struct step {
	const char *key; /* NULL: an array index */
	size_t len;
	lua_Integer index;
};

/* The userdata that owns the text being built. */
struct jbuf {
	struct lf_out out;
	bool open;
	int visiting;       /* stack index of the table of tables being encoded */
	int depth;
	int self;           /* its own stack index */
	int err;            /* the errno of the first value that could not be had, or 0 */
	struct step path[MAX_DEPTH];
};

static int jbuf_gc(lua_State *L)
{
	struct jbuf *b = lua_touserdata(L, 1);
	if (b->open) {
		lf_out_close(&b->out);
		b->open = false;
	}
	return 0;
}

/* "lf.json: MESSAGE (at .a.b[3])", a Lua error. */
static int encode_error(lua_State *L, struct jbuf *b, const char *msg)
{
	luaL_Buffer where;
	luaL_buffinit(L, &where);
	int first = 0;
	if (b->depth > 12) {
		first = b->depth - 10;
		luaL_addstring(&where, "...");
	}
	for (int i = first; i < b->depth; i++) {
		const struct step *s = &b->path[i];
		if (!s->key && !s->index) {
			break; /* the table itself, before any of its values */
		} else if (s->key) {
			luaL_addchar(&where, '.');
			luaL_addlstring(&where, s->key, s->len > 40 ? 40 : s->len);
		} else {
			lua_pushfstring(L, "[%I]", (LUAI_UACINT)s->index);
			luaL_addvalue(&where);
		}
	}
	luaL_pushresult(&where);
	const char *at = lua_tostring(L, -1);
	return luaL_error(L, "luafind.json: %s (at %s)", msg, *at ? at : "the top");
}

static void put_raw(struct jbuf *b, const char *s, size_t len)
{
	lf_out_write(&b->out, s, len);
}

static void encode_number(lua_State *L, struct jbuf *b, int idx)
{
	char num[48];
	if (lua_isinteger(L, idx)) {
		int n = snprintf(num, sizeof(num), LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, idx));
		put_raw(b, num, (size_t)n);
		return;
	}
	lua_Number v = lua_tonumber(L, idx);
	if (!isfinite(v)) {
		encode_error(L, b, isnan(v) ? "cannot encode NaN" : "cannot encode an infinite number");
	}
	int n = 0;
	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(num, sizeof(num), "%.*g", prec, (double)v);
		if (strtod(num, NULL) == (double)v) {
			break;
		}
	}
	if (!strpbrk(num, ".e")) {
		memcpy(num + n, ".0", 3); /* still a float when read back */
		n += 2;
	}
	put_raw(b, num, (size_t)n);
}

static void encode_value(lua_State *L, struct jbuf *b, int idx);

/* Whether the table at @idx is written as an array; sets *n to its length. */
static bool is_array(lua_State *L, struct jbuf *b, int idx, lua_Integer *n)
{
	*n = 0;
	if (luaL_getmetafield(L, idx, "__jsontype") != LUA_TNIL) {
		const char *kind = lua_tostring(L, -1);
		bool array = kind && strcmp(kind, "array") == 0;
		if (!array && !(kind && strcmp(kind, "object") == 0)) {
			encode_error(L, b, "__jsontype must be \"array\" or \"object\"");
		}
		lua_pop(L, 1);
		if (array) {
			*n = (lua_Integer)lua_rawlen(L, idx);
		}
		return array;
	}
	lua_Integer count = 0, max = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
			lua_pop(L, 1);
			return false;
		}
		lua_Integer k = lua_tointeger(L, -1);
		max = k > max ? k : max;
		count++;
	}
	*n = count;
	return max == count;
}

struct key {
	const char *s;
	size_t len;
};

static int key_cmp(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static void encode_object(lua_State *L, struct jbuf *b, int idx)
{
	/* The keys as strings (keys[i]), and the values by them (vals). */
	lua_newtable(L);
	int keys = lua_gettop(L);
	lua_newtable(L);
	int vals = keys + 1;
	lua_Integer n = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_type(L, -2) == LUA_TSTRING) {
			lua_pushvalue(L, -2);
		} else if (lua_isinteger(L, -2)) {
			lua_pushfstring(L, "%I", (LUAI_UACINT)lua_tointeger(L, -2));
		} else {
			encode_error(L, b, lua_pushfstring(L, "a key of type %s cannot be a JSON object key",
							   luaL_typename(L, -2)));
		}
		lua_pushvalue(L, -1);
		if (lua_rawget(L, vals) != LUA_TNIL) {
			encode_error(L, b, lua_pushfstring(L, "key \"%s\" appears both as a string and as an integer",
							   lua_tostring(L, -2)));
		}
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_rawseti(L, keys, ++n);
		lua_insert(L, -2); /* key string, value */
		lua_rawset(L, vals);
	}
	struct key *sorted = lua_newuserdatauv(L, (size_t)n * sizeof(*sorted) + 1, 0);
	for (lua_Integer i = 0; i < n; i++) {
		lua_rawgeti(L, keys, i + 1);
		sorted[i].s = lua_tolstring(L, -1, &sorted[i].len); /* anchored in keys */
		lua_pop(L, 1);
	}
	qsort(sorted, (size_t)n, sizeof(*sorted), key_cmp);
	lf_out_putc(&b->out, '{');
	for (lua_Integer i = 0; i < n; i++) {
		if (i) {
			lf_out_putc(&b->out, ',');
		}
		lf_json_write_string(&b->out, sorted[i].s, sorted[i].len);
		lf_out_putc(&b->out, ':');
		lua_pushlstring(L, sorted[i].s, sorted[i].len);
		lua_rawget(L, vals);
		b->path[b->depth - 1] = (struct step){sorted[i].s, sorted[i].len, 0};
		encode_value(L, b, lua_gettop(L));
		lua_pop(L, 1);
	}
	lf_out_putc(&b->out, '}');
	lua_settop(L, keys - 1);
}

static void encode_table(lua_State *L, struct jbuf *b, int idx)
{
	if (b->depth >= MAX_DEPTH) {
		encode_error(L, b, "tables nested too deeply (1000 levels)");
	}
	luaL_checkstack(L, 8, "luafind.json");
	lua_pushvalue(L, idx);
	if (lua_rawget(L, b->visiting) != LUA_TNIL) {
		encode_error(L, b, "a table contains itself");
	}
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	lua_pushboolean(L, 1);
	lua_rawset(L, b->visiting);
	b->path[b->depth++] = (struct step){NULL, 0, 0};
	lua_Integer n;
	if (is_array(L, b, idx, &n)) {
		lf_out_putc(&b->out, '[');
		for (lua_Integer i = 1; i <= n; i++) {
			if (i > 1) {
				lf_out_putc(&b->out, ',');
			}
			b->path[b->depth - 1] = (struct step){NULL, 0, i};
			lua_rawgeti(L, idx, i);
			encode_value(L, b, lua_gettop(L));
			lua_pop(L, 1);
		}
		lf_out_putc(&b->out, ']');
	} else {
		encode_object(L, b, idx);
	}
	b->depth--;
	lua_pushvalue(L, idx);
	lua_pushnil(L);
	lua_rawset(L, b->visiting);
}

/*
 * Note the first value that could not be had (null in the text): its errno,
 * and "path: reason" in the buffer's user value, returned after the text.
 */
static void note_missing(lua_State *L, struct jbuf *b, const struct lf_entry *e, int err)
{
	if (b->err) {
		return;
	}
	b->err = err;
	lua_pushlstring(L, e->path, e->pathlen);
	lua_pushfstring(L, "%s: %s", lua_tostring(L, -1), strerror(err));
	lua_setiuservalue(L, b->self, 1);
	lua_pop(L, 1);
}

/*
 * The object of entry @e with @fields (NULL: the default set), stat'ing
 * (once, cached with the entry) when a field needs it.  What could not be
 * had is null, and noted (note_missing).
 */
static void encode_entry(lua_State *L, struct jbuf *b, struct lf_entry *e, const struct lf_json_fields *f)
{
	if (e->visit == LF_VISIT_ERROR) {
		encode_error(L, b, "an error entry has no JSON form");
	}
	const struct lf_stat *st = NULL;
	if (!f || f->n == 0 || f->needs_stat) {
		st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (!st) {
			note_missing(L, b, e, errno);
		}
	}
	size_t start = b->out.len;
	int err = lf_json_write_entry(&b->out, e, st, f, &lfb_ctx(L)->ids);
	if (b->out.len > start && b->out.buf[b->out.len - 1] == '\n') {
		b->out.len--; /* a value, not a line */
	}
	if (err) {
		note_missing(L, b, e, err);
	}
}

static void encode_value(lua_State *L, struct jbuf *b, int idx)
{
	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		put_raw(b, "null", 4);
		break;
	case LUA_TBOOLEAN:
		if (lua_toboolean(L, idx)) {
			put_raw(b, "true", 4);
		} else {
			put_raw(b, "false", 5);
		}
		break;
	case LUA_TNUMBER:
		encode_number(L, b, idx);
		break;
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);
		lf_json_write_string(&b->out, s, len);
		break;
	}
	case LUA_TTABLE:
		encode_table(L, b, idx);
		break;
	case LUA_TUSERDATA: {
		struct lf_entry *e = lfb_test_entry(L, idx);
		if (e) {
			encode_entry(L, b, e, NULL);
			break;
		}
	}
		/* fall through */
	default:
		encode_error(L, b, lua_pushfstring(L, "cannot encode a %s", luaL_typename(L, idx)));
	}
	if (b->out.err) {
		luaL_error(L, "luafind.json: %s", strerror(b->out.err));
	}
}

/*
 * json(value) or json(entry [, fields]) -> string [, message, errno]: the
 * message and errno of the first value written as null because it could
 * not be had (a stat or a readlink that failed).
 */
static int mod_json(lua_State *L)
{
	struct lf_json_fields fields;
	const struct lf_json_fields *f = NULL;
	struct lf_entry *e = NULL;
	if (!lua_isnoneornil(L, 2)) {
		e = lfb_test_entry(L, 1);
		if (!e) {
			return luaL_argerror(L, 2, "fields are for an entry only");
		}
		const char *list = luaL_checkstring(L, 2);
		size_t bad, badlen;
		if (lf_json_fields_parse(list, &fields, &bad, &badlen) != 0) {
			const char *hint = errno == EEXIST ? NULL : lf_json_field_suggest(list + bad, badlen);
			bool unknown = errno != EEXIST && badlen;
			return luaL_argerror(L, 2, lua_pushfstring(L, "%s field '%s'%s%s%s%s%s",
								   errno == EEXIST ? "repeated" : badlen ? "unknown" : "empty",
								   lua_pushlstring(L, list + bad, badlen),
								   hint ? " (did you mean '" : "", hint ? hint : "",
								   hint ? "'?)" : "", unknown ? "; fields: " : "",
								   unknown ? lf_json_field_names() : ""));
		}
		f = &fields;
	}
	lua_settop(L, 1);
	struct jbuf *b = lua_newuserdatauv(L, sizeof(*b), 1);
	b->open = false;
	b->depth = 0;
	b->self = lua_gettop(L);
	b->err = 0;
	luaL_setmetatable(L, JSON_BUF);
	if (lf_out_init_mem(&b->out) != 0) {
		return luaL_error(L, "luafind.json: %s", strerror(ENOMEM));
	}
	b->open = true;
	lua_newtable(L);
	b->visiting = lua_gettop(L);
	if (f) {
		encode_entry(L, b, e, f);
	} else {
		encode_value(L, b, 1);
	}
	if (b->out.err) {
		return luaL_error(L, "luafind.json: %s", strerror(b->out.err));
	}
	lua_pushlstring(L, b->out.buf, b->out.len);
	lf_out_close(&b->out);
	b->open = false;
	if (!b->err) {
		return 1;
	}
	lua_getiuservalue(L, b->self, 1);
	lua_pushinteger(L, b->err);
	return 3;
}

void lfb_open_json(lua_State *L)
{
	if (luaL_newmetatable(L, JSON_BUF)) {
		lua_pushcfunction(L, jbuf_gc);
		lua_setfield(L, -2, "__gc");
		lfb_hide_metatable(L, -1, JSON_BUF);
	}
	lua_pop(L, 1);
	lua_pushcfunction(L, mod_json);
	lua_setfield(L, -2, "json");
}
