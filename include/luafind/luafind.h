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
 * Build with `cc host.c $(pkg-config --cflags --libs luafind)` (CMake:
 * luafind::lua).  A host of the walk and find expressions alone includes
 * <luafind/walk.h> and <luafind/query.h> and links libluafind-core instead,
 * which needs no Lua (luafind-core.pc, luafind::core): see luafind(3),
 * LINKING.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_H
#define LUAFIND_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

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

/*
 * The sandbox: a Lua state for untrusted predicates and scripts.
 *
 *	struct lf_sandbox_limits lim = {.max_memory = 64 << 20, .max_steps = 10000000};
 *	lua_State *L = lf_sandbox_new(&lim);
 *	if (luaL_loadbufferx(L, code, len, "=untrusted", "t") == LUA_OK)
 *		status = lf_sandbox_pcall(L, 0, 1, 0);
 *	if (status != LUA_OK)
 *		switch (lf_sandbox_error_kind(L, -1)) ...
 *	lua_close(L);
 *
 * Its globals: the base library without dofile, loadfile and binary
 * chunks (load takes text only), with collectgarbage limited to "count"
 * and "collect"; coroutine, string, table, math, utf8; os with time, clock,
 * date and difftime only; no io, no debug, no package.  require returns
 * only those libraries and `luafind`, a read-only table with walk, find,
 * regex, glob, stats, is_root_dir, the units and times of luafind-lua(3)
 * (KiB... weeks, started, now), version; remove_tree and the entries'
 * e:delete only with LF_SANDBOX_ALLOW_DELETE, link only with
 * LF_SANDBOX_ALLOW_LINK; find under the safe policy (LF_QUERY_SAFE) unless
 * LF_SANDBOX_ALLOW_ACTIONS.  e:open needs io: it fails.  rawset refuses
 * `luafind`, whose pairs never hands out the table behind it; the
 * metatables of the binding's objects are hidden (getmetatable returns
 * their name); walks are capped (max_walks, max_threads below).
 *
 * Once a limit is hit, pcall, xpcall, coroutine.resume, coroutine.close
 * and the functions of coroutine.wrap raise its error again rather than
 * return it, and xpcall's message handler is not called for it: the call
 * ends.  setmetatable refuses a metatable with a __gc field (finalizers
 * run with Lua's hooks off, so no limit would stop one, not even in
 * lua_close); a coroutine's to-be-closed variables are closed as soon as
 * an error ends it, not by coroutine.close.
 */

/** What a sandbox may do beyond reading (lf_sandbox_limits.allow). */
enum lf_sandbox_allow {
	LF_SANDBOX_ALLOW_DELETE = 1 << 0,  /**< remove_tree, e:delete, find's -delete */
	LF_SANDBOX_ALLOW_LINK = 1 << 1,    /**< link */
	LF_SANDBOX_ALLOW_ACTIONS = 1 << 2, /**< find without the safe policy */
};

/**
 * The limits of a sandbox.  Zero means no limit for max_memory and
 * max_steps, and the default for max_walks and max_threads.
 */
struct lf_sandbox_limits {
	/**
	 * Bytes the state may hold at once: its allocator's, and what the
	 * binding takes outside it for the state, until the object is
	 * closed or collected: each lf.regex's compiled code, JIT code and
	 * match data, each walk's buffers, queues and .gitignore rules
	 * (lf_walk_opts.mem).  A regex or a walk that would go over runs a
	 * full collection and tries once more; a step of a walk that would
	 * go over ends it: LF_SANDBOX_ERR_MEMORY, and the state stays
	 * usable.  A full collection also runs before a regex or walk is
	 * made once max_memory / 4 was charged since the last one.  Peak RSS
	 * stays under 1.5 * max_memory + 8 MiB (tests/sandbox, memory).  Not
	 * covered: lf.find's -regex primaries, the kernel's memory.
	 */
	size_t max_memory;
	/**
	 * VM instructions per call, every coroutine included.  A call is
	 * what runs from one lf_sandbox_reset() (lf_sandbox_pcall() makes
	 * one first, and so does luafind.sandbox's run) to the next: what a
	 * call leaves is not carried over, and no call runs more than
	 * max_steps instructions.  The budget is paid in advance, by
	 * windows of 100 instructions for a thread's first (the thread the
	 * call starts in, a new coroutine, a coroutine's first resume after
	 * a reset), doubling up to 1000 as it runs; what a thread has not
	 * used of its window counts as used.  Time spent inside C functions
	 * (lf.find over a tree, string.rep...) is not counted.
	 */
	uint64_t max_steps;
	unsigned allow;     /**< LF_SANDBOX_ALLOW_* bits */
	/**
	 * Walkers (luafind.walk, luafind.find) open at once: one more raises
	 * "too many open walks".  0: LF_SANDBOX_MAX_WALKS.
	 */
	unsigned max_walks;
	/**
	 * The most threads one walk may ask for (its threads option, find's
	 * -j), the caller's included: more raises.  0: LF_SANDBOX_MAX_THREADS.
	 */
	unsigned max_threads;
	/**
	 * CPU time per call, in milliseconds, of the thread that runs it,
	 * from one lf_sandbox_reset() to the next: past it, the call ends
	 * with "time limit exceeded" (LF_SANDBOX_ERR_TIME), under the same
	 * rule as the budget.  It bounds what instructions do not count: the
	 * clock is read by the count hook, every 100 to 1000 instructions,
	 * and by the binding's own loops (a walk checks it every 256
	 * entries), and the library functions whose work is not linear in
	 * what they are given are bounded (see luafind-lua(3)).  0 with a
	 * max_steps: 1 us per instruction of the budget, 1 s at least; 0
	 * without: none.
	 */
	uint64_t max_time_ms;
};

/** lf_sandbox_limits.max_walks when 0. */
#define LF_SANDBOX_MAX_WALKS 64
/** lf_sandbox_limits.max_threads when 0. */
#define LF_SANDBOX_MAX_THREADS 2
/**
 * The directory fds one walk in a sandbox may hold (its max_fds option is
 * lowered to it): with LF_SANDBOX_MAX_WALKS walks, 1024 at most.  A walk
 * works with as few, reopening what it had to close.
 */
#define LF_SANDBOX_WALK_FDS 16

/** Why a call in a sandbox failed (lf_sandbox_error_kind). */
enum lf_sandbox_error {
	LF_SANDBOX_ERR_LUA = 1,    /**< an error raised by the code */
	LF_SANDBOX_ERR_MEMORY = 2, /**< "memory limit exceeded" (Lua: "not enough memory") */
	LF_SANDBOX_ERR_STEPS = 3,  /**< "instruction budget exceeded" */
	LF_SANDBOX_ERR_TIME = 4,   /**< "time limit exceeded" */
};

/**
 * A new sandboxed state with the limits @lim (NULL: none, nothing allowed).
 * Its allocator refuses what would take it over max_memory, which Lua
 * raises as a memory error; a count hook raises "instruction budget
 * exceeded" once max_steps instructions ran since the last
 * lf_sandbox_reset().  Close it with lua_close(), which closes every
 * walk still open in it (their fds and threads).
 *
 * @return the state, or NULL with errno set (ENOMEM, also when max_memory
 *         is too small for the libraries)
 */
LF_PUBLIC struct lua_State *lf_sandbox_new(const struct lf_sandbox_limits *lim);

/**
 * Start a new call in @L: a whole instruction budget again, paid from now
 * for @L and the main thread (and for each coroutine at its next resume),
 * and the memory and budget errors forgotten.  Call it on the thread the
 * call runs in, before each call (lf_sandbox_pcall() does).
 */
LF_PUBLIC void lf_sandbox_reset(struct lua_State *L);

/** lf_sandbox_reset(), then lua_pcall(@L, @nargs, @nresults, @msgh). */
LF_PUBLIC int lf_sandbox_pcall(struct lua_State *L, int nargs, int nresults, int msgh);

/**
 * Why the call that just failed in @L failed (its error value at @idx):
 * LF_SANDBOX_ERR_MEMORY when the sandbox refused memory since the last
 * reset (and Lua's emergency collection did not make room),
 * LF_SANDBOX_ERR_TIME or LF_SANDBOX_ERR_STEPS when the time or the
 * instruction budget ran out, LF_SANDBOX_ERR_LUA otherwise (and for a state
 * that is not a sandbox).  It is told by what the sandbox refused, not by
 * the error's text: a limit's error cannot be caught inside the call, so
 * whatever a message handler made of it, the call ended because of it.
 */
LF_PUBLIC int lf_sandbox_error_kind(struct lua_State *L, int idx);

/** The message of an error kind: "memory limit exceeded"... */
LF_PUBLIC const char *lf_sandbox_error_message(int kind);

#ifdef __cplusplus
}
#endif

#endif
