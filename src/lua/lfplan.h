/**
 * lfplan.h: -lua expressions evaluated in C (the executable's, not
 * installed).
 *
 * A -lua expression made only of entry fields compared with constants,
 * joined by and, or and not, means the same as a small tree of C tests: a
 * plan.  lfcli.c compiles the expression with Lua as always, then asks for
 * a plan; when there is one, each entry is evaluated by lf_lua_plan_eval()
 * without entering Lua, reading the same fields in the same order (so it
 * makes the same stats), and an entry whose value the plan cannot decide
 * exactly goes to the Lua chunk instead.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LFPLAN_H
#define LF_LFPLAN_H

#include "walk.h"

struct lua_State;
struct lf_lua_plan;

/** What lf_lua_plan_eval() returns for an entry that Lua must evaluate. */
#define LF_LUA_PLAN_LUA (-3)

/**
 * The plan of the -lua expression @expr, which Lua compiled already as
 * `return EXPR`, in an environment whose fields are the names of table
 * @fields (name -> field id) and whose helpers are those of table
 * @helpers (stack indices).  On success it pushes a userdata that owns the
 * plan (keep it referenced while the plan is used) and returns the plan;
 * otherwise (not of the plan's kind, or any error: the expression then
 * runs in Lua as before) it pushes nothing and returns NULL.  Never raises.
 */
struct lf_lua_plan *lf_lua_plan_compile(struct lua_State *L, const char *expr, int fields, int helpers);

/**
 * Evaluate @pl for @e: 1 true, 0 false, -2 when a stat field could not be
 * read (the stat failed, errno set by lf_entry_stat()), or LF_LUA_PLAN_LUA
 * when the Lua chunk must evaluate this entry (a comparison of nil, whose
 * error message is Lua's).
 */
int lf_lua_plan_eval(const struct lf_lua_plan *pl, struct lf_entry *e);

#endif
