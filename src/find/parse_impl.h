/*
 * parse_impl.h: what the files of find's parser share (not installed):
 * parse.c (the grammar), cmdline.c (the command line around it),
 * prim_core.c (the options and core primaries) and optimize.c (the passes
 * over a parsed expression).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PARSE_IMPL_H
#define LF_PARSE_IMPL_H

#include <stdbool.h>

#include "expr.h"
#include "parse.h"
#include "primary.h"

/* A subtree the parser holds: an operand on its stack, or cmd->exclude. */
struct operand {
	struct lf_expr *x;
	/* If x is a chain of -a, -o or ",", its last node (join); if x is "!",
	 * its operand's (negate). */
	struct lf_expr *tail;
	unsigned depth; /* as LF_EXPR_MAX_DEPTH counts (expr.h) */
};

struct lf_parser {
	char **argv;
	int argc;
	int pos;
	int prim_pos;  /* where the primary being parsed starts */
	int consumed;  /* arguments a variadic primary took */
	struct lf_cmdline *cmd;
	bool seen_non_option; /* a test or action came before: warn on options */
	bool explicit_depth;  /* -depth was given, not just implied by -delete */
	bool has_prune;
	bool has_limit;       /* -limit is written, at limit_argi: an action must be too */
	int limit_argi;
	bool breadth;         /* the last -S said bfs, at breadth_argi */
	int breadth_argi;
	bool seen_node;       /* a primary other than -files0-from came before */
	bool registered;      /* look at the primaries added to the context too (lf_parse) */
	bool safe;            /* LF_PARSE_SAFE: refuse the primaries with side effects */
	bool records;         /* LF_PARSE_RECORDS: refuse those that need a walk's directory */
	bool excluding;       /* parsing the operand of -exclude: no actions, no -exclude */
	const char *const *allow; /* ... but these (NULL-terminated, or NULL) */
	struct operand exclude;   /* cmd->exclude, as it is built */
};

/*
 * From p->pos on, the expression; then the checks that need all of it, the
 * implied -print (unless @flags says LF_PARSE_NO_PRINT) and GNU's -O1
 * (parse.c).  @return 0, or -1 after the errors
 */
int lf_parse_expression(struct lf_parser *p, unsigned flags);

/*
 * Add @sub to what is excluded (cmd->exclude), joined by -o to what is
 * there already: the operand of -exclude, or -nohidden's -hidden
 * (parse.c).  @return 0, or -1 after reporting ENOMEM (@sub is freed)
 */
int lf_parse_exclude_add(struct lf_parser *p, struct operand sub);

/* Whether @a is -j, with its number attached or not (prim_core.c). */
bool lf_parse_is_jobs(const char *a);

/*
 * The value of -j, @val, argument @argoff of the option at p->prim_pos
 * (prim_core.c).  @return 0, or -1 after a usage error
 */
int lf_parse_set_threads(struct lf_parser *p, int argoff, const char *val);

/*
 * The value of -S (bfs), @val, argument @argoff of the option at
 * p->prim_pos: "bfs" or "dfs" (prim_core.c).  @return 0, or -1 after a
 * usage error
 */
int lf_parse_set_strategy(struct lf_parser *p, int argoff, const char *val);

/*
 * GNU's -O1 over @x: cheap tests first among pure operands, true ones
 * ahead (optimize.c).  @return 0, or -1 on ENOMEM
 */
int lf_parse_optimize(struct lf_expr *x);

#endif
