/*
 * luafind.c: luaopen_luafind_core, the only symbol the module exports, and
 * the module-level functions (stats).  The walker, the entry and the regex
 * userdata live in walk.c, entry.c and regex.c; find() in find.c.
 *
 * The module is built as luafind/core.so for stock lua5.4 and linked into
 * the luafind executable and libluafind; it is never linked against liblua,
 * whose symbols come from the host (two Lua VMs in one process would
 * corrupt each other silently).
 *
 * SPDX-License-Identifier: MIT
 */
#include "lbind.h"
#include "luafind.h"

#include "ctx.h"
#include "run.h"

#include <fcntl.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


int lfb_fail(lua_State *L, const char *path, size_t len, int err)
{
	luaL_pushfail(L);
	lua_pushlstring(L, path, len);
	lua_pushfstring(L, ": %s", strerror(err));
	lua_concat(L, 2);
	lua_pushinteger(L, err);
	return 3;
}

/*
 * luafind.link(target, path): a hard link, as link(2) (the duplicates script
 * replaces copies by links).  true, or fail, "NAME: message", errno, where
 * NAME is the path at fault, as ln(1) names it: target when it cannot be
 * reached (ENOENT, EACCES... from lstat), is a directory or not ours to link
 * (EPERM), or has too many links (EMLINK); path otherwise (EEXIST, a missing
 * directory, EXDEV, EROFS...).
 */
static int mod_link(lua_State *L)
{
	unsigned allow;
	if (lfb_sandboxed(L, &allow) && !(allow & LF_SANDBOX_ALLOW_LINK)) {
		return luaL_error(L, "luafind.link: not allowed in the sandbox");
	}
	size_t tlen, len;
	const char *target = luaL_checklstring(L, 1, &tlen);
	const char *path = luaL_checklstring(L, 2, &len);
	if (linkat(AT_FDCWD, target, AT_FDCWD, path, 0) != 0) {
		int err = errno;
		struct stat st;
		if (fstatat(AT_FDCWD, target, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			err = errno;
		} else if (err != EPERM && err != EMLINK) {
			return lfb_fail(L, path, len, err);
		}
		return lfb_fail(L, target, tlen, err);
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* luafind.stats(): the counters of every walk of this module instance. */
/* The registry key of the context box; its address is the key. */
static const char ctx_key = 0;

/* The context of a state, owned (freed with the state) or lent by a host. */
struct ctx_box {
	struct lf_ctx *ctx;
	bool owned;
};

static int ctx_box_gc(lua_State *L)
{
	struct ctx_box *box = lua_touserdata(L, 1);
	if (box->owned) {
		lf_ctx_free(box->ctx);
	}
	box->ctx = NULL;
	return 0;
}

/* Set the box of @L to @ctx; a new owned context if @ctx is NULL. */
static void set_ctx(lua_State *L, struct lf_ctx *ctx)
{
	struct ctx_box *box = lua_newuserdatauv(L, sizeof(*box), 0);
	box->ctx = NULL;
	box->owned = false;
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, ctx_box_gc);
	lua_setfield(L, -2, "__gc");
	lfb_hide_metatable(L, -1, "luafind.Context");
	lua_setmetatable(L, -2);
	if (!ctx) {
		ctx = lf_ctx_new();
		if (!ctx) {
			luaL_error(L, "luafind: %s", strerror(errno));
		}
		/* The binding's messages go to stderr, as luafind(1)'s. */
		lf_ctx_set_reporter(ctx, lf_report_stderr, ctx, NULL, NULL);
		box->owned = true;
	}
	box->ctx = ctx;
	lua_rawsetp(L, LUA_REGISTRYINDEX, &ctx_key);
}

struct lf_ctx *lfb_ctx(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
	struct ctx_box *box = lua_touserdata(L, -1);
	lua_pop(L, 1);
	if (!box || !box->ctx) {
		set_ctx(L, NULL);
		return lfb_ctx(L);
	}
	return box->ctx;
}

void lfb_lend_ctx(lua_State *L, struct lf_ctx *ctx)
{
	set_ctx(L, ctx);
}

void lfb_hide_metatable(lua_State *L, int idx, const char *name)
{
	idx = lua_absindex(L, idx);
	lua_pushstring(L, name);
	lua_setfield(L, idx, "__metatable");
}

/* The registry key of the entry views of C hosts' walks, by walker. */
static const char bridge_key = 0;

/* The views table of @L, created on first use, pushed. */
static int push_bridge_views(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &bridge_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &bridge_key);
	}
	return lua_gettop(L);
}

__attribute__((visibility("default"))) void lf_lua_push_entry(lua_State *L, struct lf_walk *w,
							      struct lf_entry *e)
{
	int views = push_bridge_views(L);
	if (lua_rawgetp(L, views, w) != LUA_TUSERDATA) {
		lua_pop(L, 1);
		lfb_entry_view_new(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, views, w);
	}
	struct lfb_walk *lw = lua_touserdata(L, -1);
	lw->w = w;
	lw->cur = e;
	lw->gen++; /* the entry pushed before is stale */
	lw->bridge = true;
	lw->bridge_seq = lf_walk_counters(w)->entries;
	lfb_push_entry(L, -1);
	lua_replace(L, views);
	lua_settop(L, views);
}

__attribute__((visibility("default"))) void lf_lua_walk_done(lua_State *L, struct lf_walk *w)
{
	int views = push_bridge_views(L);
	if (lua_rawgetp(L, views, w) == LUA_TUSERDATA) {
		struct lfb_walk *lw = lua_touserdata(L, -1);
		lw->w = NULL;
		lw->cur = NULL;
		lw->gen++;
		lw->bridge = false;
	}
	lua_pop(L, 1);
	lua_pushnil(L);
	lua_rawsetp(L, views, w);
	lua_pop(L, 1);
}

/* is_root_dir(path): whether path names / (run.c's rule, the one -delete keeps). */
static int mod_is_root_dir(lua_State *L)
{
	lua_pushboolean(L, lf_path_is_root_dir(luaL_checkstring(L, 1), false));
	return 1;
}

static int mod_stats(lua_State *L)
{
	const struct lfb_state *st = lua_touserdata(L, lua_upvalueindex(1));
	struct lf_counters c;
	uint64_t entries;
	lfb_state_totals(st, &c, &entries);
	lfb_push_counters(L, &c, entries);
	return 1;
}

__attribute__((visibility("default"))) int luaopen_luafind_core(lua_State *L)
{
	luaL_checkversion(L);
	/* Before any walker, so that it is finalized after them all. */
	lfb_ctx(L);
	lfb_open_entry(L);

	lua_newtable(L); /* the module */
	int mod = lua_gettop(L);
	struct lfb_state *st = lua_newuserdatauv(L, sizeof(*st), 0);
	memset(st, 0, sizeof(*st));
	int state = lua_gettop(L);

	lua_pushvalue(L, state);
	lua_pushcclosure(L, mod_stats, 1);
	lua_setfield(L, mod, "stats");
	lua_pushcfunction(L, mod_link);
	lua_setfield(L, mod, "link");
	lua_pushcfunction(L, mod_is_root_dir);
	lua_setfield(L, mod, "is_root_dir");
	lfb_push_errno(L);
	lua_setfield(L, mod, "errno");
	lua_pushcfunction(L, lfb_strerror);
	lua_setfield(L, mod, "strerror");
	lua_pushvalue(L, mod);
	lfb_open_walk(L, state);
	lfb_open_find(L, state);
	lfb_open_regex(L);
	lfb_open_json(L);
	lfb_open_sandbox(L);
	lua_pop(L, 1);
	lua_pushliteral(L, LUAFIND_VERSION);
	lua_setfield(L, mod, "version");

	lua_settop(L, mod);
	return 1;
}
