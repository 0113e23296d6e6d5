/**
 * status.h: the status line of the executable (-status, and the progress
 * line of `luafind --run` scripts), after bfs 4's status bar (bar.c).
 *
 * The line is the terminal's last row, in reverse video, kept out of the
 * scrolling region (DECSTBM) so that output and messages scroll above it
 * and need not erase it first.  It is drawn only when standard error is a
 * terminal, on standard error, at most about ten times a second; its width
 * and height come from TIOCGWINSZ (then $COLUMNS and $LINES), re-read on
 * SIGWINCH.  Erasing it restores the whole screen as scrolling region: at
 * the end of the run, at exit(), and on SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE,
 * whose handlers erase it and then die of the signal as before.  One
 * terminal, one line: the state is the executable's own (process-global,
 * which the libraries below must not be), and at most one line is open.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_CLI_STATUS_H
#define LF_CLI_STATUS_H

#include "ctx.h"
#include "run.h"

/**
 * Register -status (a global option, as bfs's) in @ctx.
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_cli_status_add(struct lf_ctx *ctx);

/**
 * Show the status line of -status during @r, if -status was given and
 * standard error is a terminal: it sets r->progress.  Nothing is drawn until
 * the first entry.  Call lf_cli_status_end() after the run.
 */
void lf_cli_status_begin(struct lf_run *r);

/** Erase the line lf_cli_status_begin() showed, if any. */
void lf_cli_status_end(struct lf_run *r);

struct lua_State;

/**
 * Make `require "luafind.status"` give the status line to the scripts of
 * Lua state @L (package.preload); see luafind-scripts(7).
 */
void lf_cli_status_preload(struct lua_State *L);

#endif
