/**
 * prim_lua.h: the executable's Lua parts: the -lua primary, --script and
 * --run, over one Lua state that they share.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PRIM_LUA_H
#define LF_PRIM_LUA_H

#include "ctx.h"
#include "parse.h"

#include <stddef.h>
#include <stdint.h>

/**
 * Register -lua in @ctx, for lf_parse() (a build without Lua registers
 * nothing).
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_prims_lua_add(struct lf_ctx *ctx);

/** --sandbox and its limits, as luafind.h's struct lf_sandbox_limits
 *  (the executable builds without Lua too). */
struct lf_cli_sandbox {
	size_t max_memory;
	uint64_t max_steps;
	unsigned allow; /* 1 delete, 2 link, 4 actions: LF_SANDBOX_ALLOW_* */
	uint64_t max_time_ms;
};

/**
 * Run the Lua script @file ("-": standard input) with arguments
 * @argv[0..@argc-1] in the CLI's Lua state; returns the exit status.
 * With @sandbox (--sandbox), that state is a sandbox with those limits
 * (luafind.h's lf_sandbox_new).
 */
int lf_cli_run_script(struct lf_ctx *ctx, const char *file, int argc, char **argv,
		      const struct lf_cli_sandbox *sandbox);

/**
 * --run NAME [ARG...] and --list-scripts: hand over to the Lua runner
 * (lua/luafind/runner.lua) with the script directories, first match wins:
 * $XDG_DATA_HOME/luafind/scripts (or ~/.local/share/...), beside the
 * executable (../share/luafind/scripts), the source tree, the install prefix.
 * @name NULL lists the scripts.  Returns the exit status.
 */
int lf_cli_run_named(struct lf_ctx *ctx, const char *name, int argc, char **argv);

struct lua_State;

/**
 * The CLI's Lua state (the one -lua and --script use), made on first use
 * with the module and the scripts' progress line preloaded; NULL with
 * errno set (ENOMEM, or ENOSYS in a build without Lua).  luafind-mpi runs
 * its --run scripts in it.
 */
struct lua_State *lf_cli_lua(struct lf_ctx *ctx);

/**
 * Push a list of the directories --run looks for scripts in, in the order
 * of lf_cli_run_named (a build without Lua: an empty list is not pushed,
 * there is no state).
 */
void lf_cli_push_script_dirs(struct lua_State *L);

/**
 * The counters of every walk made in the CLI's Lua state (--script, --run,
 * -lua's lf.walk), for --stats: luafind.core's stats(), entries included.
 * All zero when there is no state, or when it has no luafind.core loaded
 * (then no walk was made in it).
 */
void lf_cli_lua_counters(struct lf_counters *c);

/** Close the Lua state of -lua and --script, after the expression is freed. */
void lf_cli_close_lua(void);

#endif
