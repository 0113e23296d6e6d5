/**
 * lfcli.h: what the luafind executable needs from Lua: a state with the
 * module preloaded, the --script runner, and the -lua primary.
 *
 * Usage by the CLI:
 *
 *	lua_State *L = lf_lua_new(ctx);
 *	char err[512];
 *	struct lf_lua_pred *p = lf_lua_pred_compile(L, "size > 1*MiB", err, sizeof(err));
 *	if (!p)
 *		... print err, exit 1 before walking ...
 *	while (lf_walk_next(w, &e) > 0) {
 *		int r = lf_lua_pred_eval(p, w, e, err, sizeof(err));
 *		if (r < 0)
 *			... print err, stop the walk at once, exit 1 ...
 *	}
 *	lf_lua_pred_free(p);
 *	lua_close(L);
 *
 * Only this library (lf_lua_cli) links liblua; it is linked into the
 * executable, never into the luafind.core module.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LFCLI_H
#define LF_LFCLI_H

#include <stdbool.h>
#include <stddef.h>

#include "walk.h"

struct lua_State;

/**
 * Create a Lua state with the standard libraries, the C module preloaded as
 * package.loaded["luafind.core"] (luaL_requiref with luaopen_luafind_core),
 * and package.path extended so that `require "luafind"` finds
 * lua/luafind/init.lua: first the source tree's lua/ directory when the
 * executable runs from the build tree, then the installed directory
 * relative to the executable's (../share/lua/5.4 from PREFIX/bin: a moved
 * or DESTDIR-staged install works), then the configured prefix's.  The collector runs in
 * generational mode, which suits the many short-lived strings of a walk.
 *
 * @param ctx the find library's context (ctx.h) that lf.find and the entry
 *            fields use in this state, lent: free it after lua_close(); or
 *            NULL for one of the state's own
 * @return the state (close it with lua_close()), or NULL with errno set
 *         (ENOMEM)
 */
struct lf_ctx;
struct lua_State *lf_lua_new(struct lf_ctx *ctx);

/**
 * Whether the running executable is the one in the build directory it was
 * built in (not an installed copy): then it takes its Lua files and bundled
 * scripts from the source tree, and an installed one never does.
 */
bool lf_lua_in_build_tree(void);

/**
 * A sandboxed state (luafind.h's lf_sandbox_new, with the limits @lim)
 * whose luafind uses @ctx (lent, as for lf_lua_new).  lf_lua_run_script()
 * runs a script in it with the instruction budget reset, loading it as
 * text only.
 *
 * @return the state, or NULL with errno set (ENOMEM)
 */
struct lf_sandbox_limits;
struct lua_State *lf_lua_new_sandbox(struct lf_ctx *ctx, const struct lf_sandbox_limits *lim);

/**
 * Run the script @file ("-" for standard input) as lua.c does: the global
 * `arg` holds arg[0] = @file and arg[1..@argc] = @argv, which are also the
 * chunk's `...`.  It runs under lua_pcall with a traceback message handler.
 * On an error, "luafind: FILE:LINE: message" and the traceback go to
 * stderr; in a sandbox, a refused allocation is reported as "luafind:
 * FILE: memory limit exceeded" and a used-up budget as "luafind: FILE:
 * instruction budget exceeded".  A script calling os.exit() exits the process from there.
 *
 * @return the exit status the script returns (nil or true: 0, an integer
 *         from 0 to 255: itself, anything else: 1), or 1 if it could not
 *         be loaded or raised an error
 */
int lf_lua_run_script(struct lua_State *L, const char *file, int argc, char **argv);

/**
 * The counters of the walks the scripts run in @L made, summed (what
 * luafind.core.stats() returns), into *@c: all zero if @L is NULL or the
 * call fails.
 */
void lf_lua_stats(struct lua_State *L, struct lf_counters *c);

/** A compiled -lua expression. */
struct lf_lua_pred;

/**
 * Compile the -lua expression @expr as `return (EXPR)` once.  Its free
 * variables are, in this order: the current entry's fields (name, path,
 * type, size, mtime... as in luafind-lua(3), each computed when read, so an
 * expression that reads only name, type, path or depth costs no stat), `e`
 * (the entry object, for its methods), the helpers (KiB MiB GiB TiB,
 * minutes hours days weeks, now = the time at compilation, lf = the luafind
 * module, regex, glob), then the globals.  It does not need
 * luafind/init.lua: without it, lf is the C module luafind.core.
 *
 * @param errbuf on failure, receives "-lua: MESSAGE" (the caller adds its name)
 * @return the predicate, or NULL (a syntax error, or no memory)
 */
struct lf_lua_pred *lf_lua_pred_compile(struct lua_State *L, const char *expr, char *errbuf,
					size_t errlen);

/**
 * Evaluate @p for @e, the current entry of @w, which the caller owns: the
 * predicate borrows them for the duration of the call only.  A reference to
 * the entry kept by the expression raises if used afterwards.
 *
 * @param errbuf on a runtime error, receives "PATH: MESSAGE"
 * @return 1 if the value is true, 0 if false or nil, -1 on a runtime error
 *         (the caller must stop the walk: a failing query never goes on),
 *         -2 when the expression read a stat field of @e whose stat failed,
 *         with errno set: an error of this entry only, as a failed stat is
 *         for find's tests (reported, false even under "!", the walk goes on)
 */
int lf_lua_pred_eval(struct lf_lua_pred *p, struct lf_walk *w, struct lf_entry *e, char *errbuf,
		     size_t errlen);

/**
 * Whether @p is evaluated in C (lfplan.h): an expression made only of the
 * entry's name, path, type, visit, depth, ino, root and integer stat fields
 * compared with constants (literals, and numbers with the numeric helpers
 * and arithmetic), joined by and, or, not.  Its results, errors and stats
 * are those of the Lua chunk, which evaluates every other expression.
 */
bool lf_lua_pred_planned(const struct lf_lua_pred *p);

/** Evaluate @p in Lua only, even if it has a plan (for tests). */
void lf_lua_pred_unplan(struct lf_lua_pred *p);

/** Free @p (NULL is fine).  Its Lua state must still be open. */
void lf_lua_pred_free(struct lf_lua_pred *p);

#endif
