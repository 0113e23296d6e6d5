/**
 * luafind.h: the public C API of libluafind.
 *
 * libluafind is the engine of luafind(1), in three parts, all included here
 * (see luafind(3)):
 *
 *   <luafind/walk.h>, <luafind/stat.h>  the traversal core: a pull iterator
 *       over file trees that reads directories with getdents64, takes types
 *       from d_type, stats lazily (at most once per entry and follow mode),
 *       works relative to directory fds at any depth with a bounded number
 *       of them, deletes with unlinkat, and counts its syscalls;
 *   <luafind/query.h>, <luafind/error.h>  find's expression language: a
 *       context (lf_ctx), expressions compiled from an argv and evaluated
 *       per entry, errors as values;
 *   luaopen_luafind_core() below: the Lua binding.
 *
 * The library also holds the Lua binding: luaopen_luafind_core() opens the
 * Lua module "luafind.core" (see luafind-lua(3)) in a host's own lua_State.
 * libluafind is not linked against liblua: the host links Lua 5.4 itself
 * (`pkg-config --libs luafind` adds it), so there is one Lua VM per process.
 *
 *	#include <lua.h>
 *	#include <lauxlib.h>
 *	#include <lualib.h>
 *	#include <luafind/luafind.h>
 *
 *	lua_State *L = luaL_newstate();
 *	luaL_openlibs(L);
 *	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
 *	lua_pop(L, 1);
 *
 * Build with `cc host.c $(pkg-config --cflags --libs luafind)`.
 */
#ifndef LUAFIND_H
#define LUAFIND_H

#ifdef __cplusplus
extern "C" {
#endif

#include "error.h"
#include "query.h"
#include "stat.h"
#include "walk.h"

struct lua_State;

/**
 * Open the Lua module "luafind.core" in @L: push its table and return 1, as
 * a lua_CFunction does.  Call it through luaL_requiref() (or
 * package.preload) so that `require "luafind.core"` returns the same table
 * and `require "luafind"` can load its pure-Lua part on top of it.
 * Raises a Lua error on memory exhaustion.
 */
int luaopen_luafind_core(struct lua_State *L);

/**
 * The bridge: push onto @L the entry @e of a walk @w that C drives, as the
 * same lazy entry object luafind.walk yields (luafind-lua(3)): its fields
 * stat only when one needs it (e.name costs nothing, e.size one stat), and
 * it turns stale (a clear error on use) as soon as the host's walk moves on
 * (lf_walk_next) or another entry of @w is pushed.  luafind.core must be
 * open in @L.  Raises a Lua error on memory exhaustion: call it where a
 * Lua error can be caught (inside lua_pcall), or accept that it aborts.
 */
void lf_lua_push_entry(struct lua_State *L, struct lf_walk *w, struct lf_entry *e);

/**
 * Before lf_walk_close(@w): forget @w in @L, so that its entries still
 * held by Lua are stale rather than pointing into a freed walk.
 */
void lf_lua_walk_done(struct lua_State *L, struct lf_walk *w);

#ifdef __cplusplus
}
#endif

#endif
