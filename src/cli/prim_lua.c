/*
 * prim_lua.c: the -lua primary and the Lua state the CLI shares between all
 * -lua expressions and --script.
 *
 * -lua EXPR is compiled once at parse time (a syntax error is a usage error,
 * reported before the walk starts) and evaluated per entry through the
 * binding's lf_lua_pred_eval, which reads entry fields lazily: an expression
 * that reads only name or type costs no stat.  A runtime error stops the
 * walk at once (ev->stop): a failing query must never go on, least of all
 * before a -delete.
 *
 * This file is part of the executable only: the front end (lf_find) has no
 * Lua, and main.c registers -lua in its context (lf_prims_lua_add), so
 * luafind.find, which parses with the same front end, has no -lua.
 *
 * SPDX-License-Identifier: MIT
 */
#include "prim_lua.h"

#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "primary.h"
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef LUAFIND_HAVE_LUA
#include "lfcli.h"
#include "luafind.h"

#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The Lua state of the process, created by the first -lua or --script.
 * The executable's own: the libraries below it keep no global state.
 */
static lua_State *cli_lua;

static int preload_protected(lua_State *L)
{
	lf_cli_status_preload(L); /* the scripts' progress line */
	return 0;
}

/* The state, made on first use; NULL with errno set (ENOMEM) if it cannot be. */
static lua_State *get_state(struct lf_ctx *ctx)
{
	if (!cli_lua) {
		lua_State *L = lf_lua_new(ctx);
		if (!L) {
			return NULL;
		}
		/* Every call into Lua is protected: out of memory is an error, not a panic. */
		lua_pushcfunction(L, preload_protected);
		if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
			lua_close(L);
			errno = ENOMEM;
			return NULL;
		}
		cli_lua = L;
	}
	return cli_lua;
}

/* -lua-errors skip: a runtime error makes its entry false, the walk goes on. */
static bool skip_errors;

static struct lf_expr *parse_lua_errors(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	if (strcmp(args[0], "stop") != 0 && strcmp(args[0], "skip") != 0) {
		lf_parse_error_named(p, 1, "invalid argument `%s' to `%s' (stop or skip)", args[0], prim->name);
		return NULL;
	}
	skip_errors = args[0][1] == 'k';
	return lf_parse_node(p, prim);
}

/* Whether @x deletes or runs commands: then an error always stops. */
static bool acts(const struct lf_expr *x)
{
	static const char *const names[] = {"-delete", "-exec", "-execdir", "-ok", "-okdir"};
	/* Recursing on the left operand only, as expr.c's passes do. */
	for (; x; x = x->rhs) {
		for (size_t i = 0; x->kind == LF_EXPR_PRIMARY && i < sizeof(names) / sizeof(names[0]); i++) {
			if (strcmp(x->name, names[i]) == 0) {
				return true;
			}
		}
		if (acts(x->lhs)) {
			return true;
		}
	}
	return false;
}

static void free_pred(void *data)
{
	lf_lua_pred_free(data);
}

static struct lf_expr *parse_lua(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	lua_State *L = get_state(lf_parser_ctx(p));
	if (!L) {
		lf_parse_error(p, 0, "cannot create a Lua state: %s", strerror(errno));
		return NULL;
	}
	char err[1024];
	struct lf_lua_pred *pred = lf_lua_pred_compile(L, args[0], err, sizeof(err));
	if (!pred) {
		lf_parse_error(p, 1, "%s", err);
		return NULL;
	}
	/*
	 * For the tests that compare the two ways of evaluating: 0 makes
	 * every expression run in Lua, "must" refuses one that would.
	 */
	const char *plan = getenv("LUAFIND_LUA_PLAN");
	if (plan && strcmp(plan, "0") == 0) {
		lf_lua_pred_unplan(pred);
	} else if (plan && strcmp(plan, "must") == 0 && !lf_lua_pred_planned(pred)) {
		lf_parse_error(p, 1, "-lua: not evaluated in C (LUAFIND_LUA_PLAN=must)");
		lf_lua_pred_free(pred);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		lf_lua_pred_free(pred);
		return NULL;
	}
	x->data = pred;
	x->destroy = free_pred;
	x->impure = true; /* Lua code may do anything: never reordered */
	return x;
}

static bool eval_lua(const struct lf_expr *x, struct lf_eval *ev)
{
	char err[1024];
	int r = lf_lua_pred_eval(x->data, ev->walk, ev->entry, err, sizeof(err));
	if (r == -2) {
		/* A stat field that could not be read: -size's error for the entry. */
		if (!lf_eval_stat(ev)) {
			ev->entry_failed = true;
			return false;
		}
		r = -1; /* the stat answered after all: cannot happen, stop safely */
		snprintf(err, sizeof(err), "%s: a stat field could not be read", ev->entry->path);
	}
	if (r < 0) {
		lf_out_flush(ev->out);
		lf_diag_kind(ev->cmd->ctx, LF_ERROR_RUNTIME, "-lua: %s", err);
		ev->status = 1;
		/* Never go on to act on what a failing query would have said. */
		if (!skip_errors || acts(ev->cmd->expr)) {
			ev->stop = true;
		} else {
			ev->entry_failed = true; /* this entry is false, even under "!" */
		}
		return false;
	}
	return r > 0;
}

int lf_cli_run_script(struct lf_ctx *ctx, const char *file, int argc, char **argv,
		      const struct lf_cli_sandbox *sandbox)
{
	if (sandbox && cli_lua) {
		/* Never run a script meant for the sandbox in a state that is not one. */
		lf_diag(ctx, "--sandbox: a Lua state exists already, and it is not confined");
		return 1;
	}
	if (sandbox) {
		struct lf_sandbox_limits lim = {
			.max_memory = sandbox->max_memory,
			.max_steps = sandbox->max_steps,
			.allow = sandbox->allow,
			.max_time_ms = sandbox->max_time_ms,
		};
		cli_lua = lf_lua_new_sandbox(ctx, &lim);
	}
	lua_State *L = get_state(ctx);
	if (!L) {
		lf_diag(ctx, "cannot create a Lua state: %s", strerror(errno));
		return 1;
	}
	return lf_lua_run_script(L, file, argc, argv);
}

/* The message handler of a protected call: the message plus a traceback. */
static int traceback(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
	return 1;
}

lua_State *lf_cli_lua(struct lf_ctx *ctx)
{
	return get_state(ctx);
}

void lf_cli_push_script_dirs(lua_State *L)
{
	lua_newtable(L);
	int n = 0;
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg == '/') {
		lua_pushfstring(L, "%s/luafind/scripts", xdg);
		lua_rawseti(L, -2, ++n);
	} else if (home && *home) {
		lua_pushfstring(L, "%s/.local/share/luafind/scripts", home);
		lua_rawseti(L, -2, ++n);
	}
#ifdef LUAFIND_REL_SCRIPTS
	/* Beside the executable: PREFIX/bin/luafind -> PREFIX/share/luafind/scripts. */
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			lua_pushfstring(L, "%s/" LUAFIND_REL_SCRIPTS, exe);
			lua_rawseti(L, -2, ++n);
		}
	}
#endif
#ifdef LUAFIND_SOURCE_SCRIPTS
	if (lf_lua_in_build_tree()) {
		/* Only the build tree's executable: an installed one never
		 * looks into the directory it was built from. */
		lua_pushstring(L, LUAFIND_SOURCE_SCRIPTS);
		lua_rawseti(L, -2, ++n);
	}
#endif
#ifdef LUAFIND_INSTALL_SCRIPTS
	lua_pushstring(L, LUAFIND_INSTALL_SCRIPTS);
	lua_rawseti(L, -2, ++n);
#endif
}

/* The arguments of run_named_protected. */
struct run_named {
	const char *name;
	int argc;
	char **argv;
};

/*
 * lf_cli_run_named's calls into Lua, protected: returns true and the
 * runner's result, or false and the message saying why the runner could
 * not be loaded; raises what the runner raises.
 */
static int run_named_protected(lua_State *L)
{
	const struct run_named *a = lua_touserdata(L, 1);
	lua_settop(L, 0);
	lua_pushboolean(L, true);
	/*
	 * The runner is lua/luafind/runner.lua, found on package.path (beside
	 * the executable when installed): require it here, so that a failure
	 * says which module is missing and where it was looked for, without
	 * the name of a chunk of ours.
	 */
	lua_getglobal(L, "require");
	lua_pushliteral(L, "luafind.runner");
	if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1) ||
	    lua_getfield(L, -1, "main") != LUA_TFUNCTION) {
		const char *msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "it has no main()";
		lua_pushboolean(L, false);
		lua_replace(L, 1);
		lua_pushfstring(L, "%s: cannot load the script runner: %s", a->name ? "--run" : "--list-scripts",
				msg);
		lua_replace(L, 2);
		lua_settop(L, 2);
		return 2;
	}
	lua_remove(L, -2); /* the module */
	lua_pushstring(L, a->name ? "run" : "list");
	lf_cli_push_script_dirs(L);
	lua_pushstring(L, a->name ? a->name : "");
	lua_createtable(L, a->argc, 0);
	for (int i = 0; i < a->argc; i++) {
		lua_pushstring(L, a->argv[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_call(L, 4, 1); /* errors reach lf_cli_run_named's handler */
	return 2;
}

int lf_cli_run_named(struct lf_ctx *ctx, const char *name, int argc, char **argv)
{
	lua_State *L = get_state(ctx);
	if (!L) {
		lf_diag(ctx, "cannot create a Lua state: %s", strerror(errno));
		return 1;
	}
	struct run_named a = {name, argc, argv};
	lua_pushcfunction(L, traceback);
	int handler = lua_gettop(L);
	lua_pushcfunction(L, run_named_protected);
	lua_pushlightuserdata(L, &a);
	if (lua_pcall(L, 1, 2, handler) != LUA_OK) {
		fflush(stdout);
		const char *msg = lua_tostring(L, -1);
		lf_diag(ctx, "%s", msg ? msg : "not enough memory");
		lua_settop(L, 0);
		return 1;
	}
	if (!lua_toboolean(L, -2)) {
		lf_diag(ctx, "%s", lua_tostring(L, -1)); /* the runner could not be loaded */
		lua_settop(L, 0);
		return 1;
	}
	int status = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : lua_toboolean(L, -1) || lua_isnil(L, -1) ? 0 : 1;
	lua_settop(L, 0);
	return status;
}

void lf_cli_lua_counters(struct lf_counters *c)
{
	lf_lua_stats(cli_lua, c);
}

void lf_cli_close_lua(void)
{
	if (cli_lua) {
		lua_close(cli_lua);
		cli_lua = NULL;
	}
}

int lf_prims_lua_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"-lua", LF_PRIM_TEST, 1, parse_lua, eval_lua, false},
		{"-lua-errors", LF_PRIM_OPTION, 1, parse_lua_errors, lf_eval_true, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}

#else /* a build without Lua (-DLUAFIND_WITH_LUA=OFF) */

int lf_cli_run_script(struct lf_ctx *ctx, const char *file, int argc, char **argv,
		      const struct lf_cli_sandbox *sandbox)
{
	(void)sandbox;
	(void)file;
	(void)argc;
	(void)argv;
	lf_diag(ctx, "--script: this luafind was built without Lua (LUAFIND_WITH_LUA=OFF)");
	return 1;
}

int lf_cli_run_named(struct lf_ctx *ctx, const char *name, int argc, char **argv)
{
	(void)name;
	(void)argc;
	(void)argv;
	lf_diag(ctx, "--run: this luafind was built without Lua (LUAFIND_WITH_LUA=OFF)");
	return 1;
}

void lf_cli_lua_counters(struct lf_counters *c)
{
	memset(c, 0, sizeof(*c));
}

struct lua_State *lf_cli_lua(struct lf_ctx *ctx)
{
	(void)ctx;
	errno = ENOSYS;
	return NULL;
}

void lf_cli_push_script_dirs(struct lua_State *L)
{
	(void)L;
}

void lf_cli_close_lua(void)
{
}

int lf_prims_lua_add(struct lf_ctx *ctx)
{
	(void)ctx;
	return 0;
}

#endif
