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
 */
#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "primary.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef LUAFIND_HAVE_LUA
#include "lfcli.h"

#include <lua.h>

/* The Lua state, created by the first -lua or --script. */
static lua_State *get_state(struct lf_cmdline *cmd)
{
	if (!cmd->lua) {
		cmd->lua = lf_lua_new();
	}
	return cmd->lua;
}

static void free_pred(void *data)
{
	lf_lua_pred_free(data);
}

static struct lf_expr *parse_lua(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	lua_State *L = get_state(lf_parser_cmdline(p));
	if (!L) {
		lf_parse_error(p, 0, "cannot create a Lua state: %s", strerror(errno));
		return NULL;
	}
	char err[1024];
	struct lf_lua_pred *pred = lf_lua_pred_compile(L, args[0], err, sizeof(err));
	if (!pred) {
		/* The message already starts with our name. */
		const char *msg = strncmp(err, "luafind: ", 9) == 0 ? err + 9 : err;
		lf_parse_error(p, 1, "%s", msg);
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
	if (r < 0) {
		lf_out_flush(ev->out);
		fprintf(stderr, "%s: -lua: %s\n", lf_progname, err);
		ev->status = 1;
		ev->stop = true;
		return false;
	}
	return r > 0;
}

int lf_cli_run_script(struct lf_cmdline *cmd)
{
	lua_State *L = get_state(cmd);
	if (!L) {
		lf_diag("cannot create a Lua state: %s", strerror(errno));
		return 1;
	}
	return lf_lua_run_script(L, cmd->script, cmd->script_argc, cmd->script_argv);
}

void lf_cli_close_lua(struct lf_cmdline *cmd)
{
	if (cmd->lua) {
		lua_close(cmd->lua);
		cmd->lua = NULL;
	}
}

const struct lf_primary lf_prims_lua[] = {
	{"-lua", LF_PRIM_TEST, 1, parse_lua, eval_lua, false},
	{NULL, 0, 0, NULL, NULL, false},
};

#else /* a build without Lua (-DLUAFIND_WITH_LUA=OFF) */

int lf_cli_run_script(struct lf_cmdline *cmd)
{
	(void)cmd;
	lf_diag("--script: this luafind was built without Lua (LUAFIND_WITH_LUA=OFF)");
	return 1;
}

void lf_cli_close_lua(struct lf_cmdline *cmd)
{
	(void)cmd;
}

const struct lf_primary lf_prims_lua[] = {
	{NULL, 0, 0, NULL, NULL, false},
};

#endif
