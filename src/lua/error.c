/*
 * error.c: the binding's error objects.  An error the library reports
 * (struct lf_error, error.h) reaches Lua as a value with fields, never as
 * text to take apart:
 *
 *	err.message    the whole message, as luafind(1) words it
 *	err.kind       "usage", "unknown-primary", "file", "runtime"...
 *	err.path       the file concerned, or nil
 *	err.errno      the errno value, or nil; err.errname its name ("ENOENT")
 *	err.primary    the primary whose arguments are wrong ("-perm"), or nil
 *	err.argument   the index of the expression argument concerned, or nil
 *	err.errors     every problem, in order, each with the fields above
 *
 * The fields of err itself are those of its first problem that is not a
 * warning; tostring(err) is err.message.
 *
 * SPDX-License-Identifier: MIT
 */
#include "lbind.h"

#include "diag.h"

#include <string.h>

/* The names of enum lf_error_kind in Lua. */
static const char *kind_name(enum lf_error_kind kind)
{
	switch (kind) {
	case LF_ERROR_USAGE: return "usage";
	case LF_ERROR_UNKNOWN_PRIMARY: return "unknown-primary";
	case LF_ERROR_NOTE: return "note";
	case LF_ERROR_WARNING: return "warning";
	case LF_ERROR_FILE: return "file";
	case LF_ERROR_RUNTIME: return "runtime";
	}
	return "error";
}

/*
 * One error as the binding words it: a usage error inside a primary's
 * arguments names the primary, unless its message does already
 * ("-perm: invalid mode 'u=rwz'").
 */
static void add_message(luaL_Buffer *b, const struct lf_error *e)
{
	if (e->primary && (e->kind == LF_ERROR_USAGE || e->kind == LF_ERROR_FILE) && !e->names_primary) {
		luaL_addstring(b, e->primary);
		luaL_addstring(b, ": ");
	}
	luaL_addlstring(b, e->message, e->length);
}

/* The fields of @e but its message, set in the table on top. */
static void set_fields(lua_State *L, const struct lf_error *e)
{
	lua_pushstring(L, kind_name(e->kind));
	lua_setfield(L, -2, "kind");
	if (e->argi >= 0) {
		lua_pushinteger(L, e->argi + 1);
		lua_setfield(L, -2, "argument");
	}
	if (e->primary) {
		lua_pushstring(L, e->primary);
		lua_setfield(L, -2, "primary");
	}
	if (e->path) {
		lua_pushlstring(L, e->path, e->pathlen);
		lua_setfield(L, -2, "path");
	}
	if (e->errnum) {
		lua_pushinteger(L, e->errnum);
		lua_setfield(L, -2, "errno");
		const char *name = lfb_errno_name(e->errnum);
		if (name) {
			lua_pushstring(L, name);
			lua_setfield(L, -2, "errname");
		}
	}
}

static int error_tostring(lua_State *L)
{
	lua_getfield(L, 1, "message");
	return 1;
}

/* Give the table on top the metatable of error objects. */
static void set_error_metatable(lua_State *L)
{
	if (luaL_newmetatable(L, LFB_ERROR)) {
		lua_pushcfunction(L, error_tostring);
		lua_setfield(L, -2, "__tostring");
		lfb_hide_metatable(L, -1, LFB_ERROR);
	}
	lua_setmetatable(L, -2);
}

void lfb_push_errors(lua_State *L, const struct lf_error_list *list, const char *fallback, const char *fn)
{
	lua_createtable(L, 0, 9);
	int obj = lua_gettop(L);
	luaL_Buffer b;
	if (fn) {
		luaL_where(L, 1);
	} else {
		lua_pushliteral(L, "");
	}
	luaL_buffinit(L, &b);
	if (fn) {
		luaL_addstring(&b, fn);
		luaL_addstring(&b, ": ");
	}
	const struct lf_error *first = NULL;
	for (size_t i = 0; i < list->n; i++) {
		if (list->v[i].kind == LF_ERROR_WARNING) {
			continue;
		}
		if (first) {
			luaL_addstring(&b, "; ");
		} else {
			first = &list->v[i];
		}
		add_message(&b, &list->v[i]);
	}
	if (!first) {
		luaL_addstring(&b, fallback);
	}
	luaL_pushresult(&b);
	lua_concat(L, 2);
	lua_setfield(L, obj, "message");
	if (first) {
		set_fields(L, first);
	} else {
		lua_pushstring(L, kind_name(LF_ERROR_RUNTIME));
		lua_setfield(L, obj, "kind");
	}

	lua_createtable(L, (int)list->n, 0);
	for (size_t i = 0; i < list->n; i++) {
		const struct lf_error *e = &list->v[i];
		lua_createtable(L, 0, 7);
		lua_pushlstring(L, e->message, e->length);
		lua_setfield(L, -2, "message");
		set_fields(L, e);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, obj, "errors");
	set_error_metatable(L);
}

void lfb_push_file_error(lua_State *L, const char *path, size_t pathlen, int err)
{
	struct lf_error e = {
		.kind = LF_ERROR_FILE,
		.path = path,
		.pathlen = pathlen,
		.errnum = err,
		.argi = -1,
	};
	/* As lf.walk words it: "path: reason" (luafind(1) quotes the path). */
	lua_pushlstring(L, path, pathlen);
	lua_pushfstring(L, ": %s", strerror(err));
	lua_concat(L, 2);
	size_t len;
	e.message = lua_tolstring(L, -1, &len);
	e.length = len;
	struct lf_error_list one = {.v = &e, .n = 1, .cap = 1};
	lfb_push_errors(L, &one, "", NULL);
	lua_remove(L, -2);
}

const char *lfb_error_text(lua_State *L, int idx)
{
	if (lua_type(L, idx) == LUA_TSTRING) {
		return lua_tostring(L, idx);
	}
	/* Only our own objects: a __tostring of the script's would run its
	 * code here, outside any protected call or budget. */
	if (!lua_getmetatable(L, idx)) {
		return NULL;
	}
	luaL_getmetatable(L, LFB_ERROR);
	bool ours = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	if (!ours) {
		return NULL;
	}
	idx = lua_absindex(L, idx);
	lua_pushliteral(L, "message");
	lua_rawget(L, idx);
	const char *msg = lua_tostring(L, -1);
	lua_pop(L, 1); /* the string stays reachable from the object */
	return msg;
}
