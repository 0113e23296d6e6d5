/*
 * prim_core.c: the options (-maxdepth, -depth, -xdev, -j, -s, -S,
 * -files0-from, -color, -warn, -noerror, -nohidden, -exclude-caches,
 * -unique...) and the core tests and actions
 * (-true, -false, -hidden, -print, -print0, -prune, -quit, -limit,
 * -delete) of find's language: how each is parsed into the command line
 * (primary.h's rows); their evaluation is expr.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "parse_impl.h"

#include "color.h"
#include "diag.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static struct lf_expr *parse_simple(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return lf_parse_node(p, prim);
}

/* Options with no effect in luafind (-noleaf): true, as in find. */
static struct lf_expr *parse_option_true(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return lf_parse_node(p, prim);
}

static bool parse_int(const char *s, int *out)
{
	char *end;
	if (*s < '0' || *s > '9') {
		return false;
	}
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno || v > INT_MAX) {
		return false;
	}
	*out = (int)v;
	return true;
}

static struct lf_expr *parse_depth_limit(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	int v;
	if (!parse_int(args[0], &v)) {
		lf_parse_error_named(p, 1, "Expected a positive decimal integer argument to %s, but got '%s'", prim->name,
			       args[0]);
		return NULL;
	}
	if (strcmp(prim->name, "-maxdepth") == 0) {
		p->cmd->opts.maxdepth = v;
	} else {
		p->cmd->opts.mindepth = v;
	}
	return lf_parse_node(p, prim);
}

/*
 * The value of -j (@val, argument @argoff of the option at p->prim_pos):
 * the threads of the walk, the caller's included, as bfs counts them
 * (opts.threads; -j1: no workers).  @return 0, or -1 after a usage error
 */
int lf_parse_set_threads(struct lf_parser *p, int argoff, const char *val)
{
	int v;
	if (!*val || val[strspn(val, "0123456789")] || (parse_int(val, &v) && v == 0)) {
		lf_parse_error(p, argoff, "Expected a positive decimal integer argument to -j, but got '%s'", val);
		return -1;
	}
	if (!parse_int(val, &v) || v > LF_WALK_THREADS_MAX) {
		lf_parse_error_named(p, argoff, "-j: %s threads is too many (at most %d)", val, LF_WALK_THREADS_MAX);
		return -1;
	}
	p->cmd->opts.threads = v;
	return 0;
}

int lf_parse_set_strategy(struct lf_parser *p, int argoff, const char *val)
{
	if (strcmp(val, "bfs") == 0) {
		p->breadth = true;
		p->breadth_argi = p->prim_pos;
	} else if (strcmp(val, "dfs") == 0) {
		p->breadth = false;
	} else if (strcmp(val, "ids") == 0 || strcmp(val, "eds") == 0) {
		lf_parse_error_named(p, argoff, "-S %s: the iterative and exponential deepening searches are bfs's, "
				     "not luafind's; the search strategies are bfs and dfs", val);
		return -1;
	} else {
		lf_parse_error_named(p, argoff, "-S: unrecognized search strategy '%s'; the search strategies are bfs "
				     "(breadth-first) and dfs (depth-first, the default)", val);
		return -1;
	}
	return 0;
}

/* -S bfs|dfs (bfs's search strategy; lf_parse_expression applies it). */
static struct lf_expr *parse_strategy(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	if (lf_parse_set_strategy(p, 1, args[0]) != 0) {
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/* -j N, or -jN as bfs writes it (parse_primary hands that one over too). */
static struct lf_expr *parse_jobs(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	const char *tok = p->argv[p->prim_pos];
	bool attached = tok[2] != '\0';
	if (!attached && p->prim_pos + 1 >= p->argc) {
		lf_parse_error_named(p, 0, "missing argument to `-j'");
		return NULL;
	}
	lf_parser_consume(p, attached ? 0 : 1);
	if (lf_parse_set_threads(p, attached ? 0 : 1, attached ? tok + 2 : p->argv[p->prim_pos + 1]) != 0) {
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/*
 * Whether @a is -j with its number attached or not ("-j4", "-j"); a
 * letter after -j is a typo of another primary (-json), not a number.
 */
bool lf_parse_is_jobs(const char *a)
{
	return strncmp(a, "-j", 2) == 0 && !(a[2] >= 'a' && a[2] <= 'z');
}

static struct lf_expr *parse_depth(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->explicit_depth = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_xdev(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_XDEV;
	return lf_parse_node(p, prim);
}

/* -s (bfs): each directory's entries in sorted order (LF_WALK_SORT). */
static struct lf_expr *parse_sort(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_SORT;
	return lf_parse_node(p, prim);
}

/* -exclude-caches: nothing below a directory tagged by CACHEDIR.TAG. */
static struct lf_expr *parse_exclude_caches(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_EXCLUDE_CACHES;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_gitignore(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_GITIGNORE;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_follow(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.symlinks = LF_LOGICAL;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_warn(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->warn = strcmp(prim->name, "-warn") == 0;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_prune(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->has_prune = true;
	return lf_parse_node(p, prim);
}

/*
 * -files0-from FILE: the roots come from FILE (main.c reads it).  GNU
 * inserts no predicate for it, which only shows in the message for a ")"
 * right after it (seen_node).
 */
static struct lf_expr *parse_files0_from(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	p->cmd->files0_from = args[0];
	return lf_parse_node(p, prim);
}

/*
 * -color, -nocolor (bfs): color standard output and error whether they are
 * terminals or not, or never.  On the command line they also decide the
 * colors of the messages that follow.
 */
static struct lf_expr *parse_color(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct lf_ctx *ctx = p->cmd->ctx;
	bool on = strcmp(prim->name, "-color") == 0;
	p->cmd->color = on ? LF_COLOR_ALWAYS : LF_COLOR_NEVER;
	if (p->registered) {
		ctx->color_stderr = p->cmd->color;
	}
	if (on && !lf_ctx_colors(ctx)) {
		lf_parse_error(p, 0, "error parsing $LS_COLORS: %s", strerror(errno));
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/*
 * -hyperlink, --hyperlink (GNU ls's and fd's --hyperlink): the names that
 * are colored are also OSC 8 links to their files (hyperlink.h), so they
 * follow the colors: on a terminal by default, everywhere under -color,
 * nowhere under -nocolor or NO_COLOR.  No when-argument as ls and fd take:
 * the colors' choice is it, and a pipe never gets escapes it did not ask
 * for.
 */
static struct lf_expr *parse_hyperlink(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->hyperlink = true;
	return lf_parse_node(p, prim);
}

/*
 * -noerror (bfs): the errors about the files walked (a directory that
 * cannot be read, a stat, a deletion, a link that fails; a loop under -L)
 * are counted, not reported, and leave the exit status alone, as in bfs
 * (lf_eval_noerror).  Those of commands, of the output and of the command
 * line are still reported.
 */
static struct lf_expr *parse_noerror(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->noerror = true;
	return lf_parse_node(p, prim);
}

/*
 * -limit N (bfs 3.2): N is a decimal integer from 1 to LLONG_MAX, with an
 * optional '+' ("+3", "03" as bfs takes them; not " 3", "0x3", "1e3").
 * Never reordered (impure) and, like -quit, it ends what the walk would
 * read ahead.  An action must be written too (lf_parse_expression).
 */
static struct lf_expr *parse_limit(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	const char *s = args[0] + (args[0][0] == '+');
	char *end = NULL;
	long long n = 0;
	if (*s >= '0' && *s <= '9') {
		errno = 0;
		n = strtoll(s, &end, 10);
	}
	if (n < 1 || *end || errno) {
		lf_parse_error_named(p, 1, "Expected a positive decimal integer argument to %s, but got '%s'",
				     prim->name, args[0]);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	long long *count = x ? calloc(1, sizeof(*count)) : NULL;
	if (!count) {
		if (x) {
			lf_diag(p->cmd->ctx, "%s", strerror(errno));
		}
		lf_expr_free(x);
		return NULL;
	}
	x->num = n;
	x->data = count;
	x->destroy = free;
	x->impure = true;
	if (!p->has_limit) {
		p->has_limit = true;
		p->limit_argi = p->prim_pos;
	}
	return x;
}

/*
 * -nohidden (bfs): "-exclude -hidden", wherever it is written: hidden files
 * are left out and hidden directories not entered.  True.
 */
static struct lf_expr *parse_nohidden(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct operand hidden = {.x = lf_expr_new(lf_eval_hidden, LF_EXPR_PRIMARY, "-hidden"), .depth = 1};
	if (!hidden.x) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
		return NULL;
	}
	if (lf_parse_exclude_add(p, hidden) != 0) {
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/*
 * -unique (bfs): a file whose device and inode were seen before in the run
 * is left out and, a directory, not entered, before anything else is
 * evaluated for it (its test heads the exclusion: parse.c's unique_first,
 * expr.c's lf_eval_unique).  True; it stats each entry, and only with it.
 */
static struct lf_expr *parse_unique(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->unique = true;
	return lf_parse_node(p, prim);
}

/* -delete implies -depth, as in GNU find. */
static struct lf_expr *parse_delete(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->delete = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return lf_parse_node(p, prim);
}

int lf_prims_core_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"--hyperlink", LF_PRIM_POSITIONAL, 0, parse_hyperlink, lf_eval_true, false},
		{"-color", LF_PRIM_POSITIONAL, 0, parse_color, lf_eval_true, false},
		{"-d", LF_PRIM_OPTION, 0, parse_depth, lf_eval_true, false},
		{"-delete", LF_PRIM_ACTION, 0, parse_delete, lf_eval_delete, false},
		{"-depth", LF_PRIM_OPTION, 0, parse_depth, lf_eval_true, false},
		{"-exclude-caches", LF_PRIM_OPTION, 0, parse_exclude_caches, lf_eval_true, false},
		{"-false", LF_PRIM_TEST, 0, parse_simple, lf_eval_false, false},
		{"-files0-from", LF_PRIM_OPTION, 1, parse_files0_from, lf_eval_true, false},
		{"-follow", LF_PRIM_OPTION, 0, parse_follow, lf_eval_true, false},
		{"-gitignore", LF_PRIM_OPTION, 0, parse_gitignore, lf_eval_true, false},
		{"-hidden", LF_PRIM_TEST, 0, parse_simple, lf_eval_hidden, false},
		{"-hyperlink", LF_PRIM_POSITIONAL, 0, parse_hyperlink, lf_eval_true, false},
		{"-j", LF_PRIM_OPTION, LF_NARGS_VARIADIC, parse_jobs, lf_eval_true, false},
		{"-limit", LF_PRIM_ACTION_PRINTS, 1, parse_limit, lf_eval_limit, false},
		{"-maxdepth", LF_PRIM_OPTION, 1, parse_depth_limit, lf_eval_true, false},
		{"-mindepth", LF_PRIM_OPTION, 1, parse_depth_limit, lf_eval_true, false},
		{"-mount", LF_PRIM_OPTION, 0, parse_xdev, lf_eval_true, false},
		{"-nocolor", LF_PRIM_POSITIONAL, 0, parse_color, lf_eval_true, false},
		{"-noerror", LF_PRIM_OPTION, 0, parse_noerror, lf_eval_true, false},
		{"-nohidden", LF_PRIM_OPTION, 0, parse_nohidden, lf_eval_true, false},
		{"-noleaf", LF_PRIM_OPTION, 0, parse_option_true, lf_eval_true, false},
		{"-nowarn", LF_PRIM_POSITIONAL, 0, parse_warn, lf_eval_true, false},
		{"-print", LF_PRIM_ACTION, 0, parse_simple, lf_eval_print, false},
		{"-print0", LF_PRIM_ACTION, 0, parse_simple, lf_eval_print0, false},
		{"-prune", LF_PRIM_ACTION_PRINTS, 0, parse_prune, lf_eval_prune, false},
		{"-quit", LF_PRIM_ACTION_PRINTS, 0, parse_simple, lf_eval_quit, false},
		{"-S", LF_PRIM_OPTION, 1, parse_strategy, lf_eval_true, false},
		{"-s", LF_PRIM_OPTION, 0, parse_sort, lf_eval_true, false},
		{"-true", LF_PRIM_TEST, 0, parse_simple, lf_eval_true, false},
		{"-unique", LF_PRIM_OPTION, 0, parse_unique, lf_eval_true, false},
		{"-warn", LF_PRIM_POSITIONAL, 0, parse_warn, lf_eval_true, false},
		{"-x", LF_PRIM_OPTION, 0, parse_xdev, lf_eval_true, false},
		{"-xdev", LF_PRIM_OPTION, 0, parse_xdev, lf_eval_true, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}
