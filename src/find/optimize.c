/*
 * optimize.c: the passes over a parsed expression: GNU's -O1 reordering
 * (lf_parse_optimize) and the rule that decides whether a query's walk
 * reads ahead (lf_cmdline_walk_flags), both by what the nodes may do.
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

/*
 * The passes below recurse on a node's left operand and loop on its right:
 * a chain's length costs them no stack, only its nesting (expr.h).
 */

/* Whether @x may be reordered: no action, no -lua, nothing with effects. */
static bool is_pure(const struct lf_expr *x)
{
	for (; x; x = x->rhs) {
		if (x->kind == LF_EXPR_PRIMARY) {
			return !x->is_action && x->eval != lf_eval_prune && x->eval != lf_eval_quit && !x->impure;
		}
		if (!is_pure(x->lhs)) {
			return false;
		}
	}
	return true;
}

/*
 * What evaluating @x may cost, the most of its nodes': 0 nothing but the
 * directory entry, 1 a stat (made once, shared by the tests that need it),
 * 2 a system call of a test's own (-xattr, -acl...).
 */
static int subtree_cost(const struct lf_expr *x)
{
	int cost = 0;
	for (; x && cost < 2; x = x->rhs) {
		int c = x->syscall ? 2 : x->needs_stat ? 1 : 0;
		int l = subtree_cost(x->lhs);
		cost = c > cost ? c : cost;
		cost = l > cost ? l : cost;
	}
	return cost;
}

/*
 * GNU's -O1 in a chain of -a: evaluate tests that need no stat before tests
 * that do, so that "-size +1M -name '*.c'" stats only the .c files, and
 * those before tests that make a system call of their own (-xattr, -acl,
 * -capable), so that "-xattr -size +1M" asks only about the large files.
 * Only pure operands move, within each run of them: an action, -prune or
 * -lua stays where it is, and so does everything's order relative to it.
 * The order is otherwise kept.  @ops[0..@n-1] point where the operands
 * hang; @tmp has room for @n.
 */
static void cheap_first(struct lf_expr ***ops, struct lf_expr **tmp, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t end = i;
		while (end < n && is_pure(*ops[end])) {
			end++;
		}
		size_t k = 0;
		for (int cost = 0; cost <= 2; cost++) {
			for (size_t j = i; j < end; j++) {
				if (subtree_cost(*ops[j]) == cost) {
					tmp[k++] = *ops[j];
				}
			}
		}
		for (size_t j = i; j < end; j++) {
			*ops[j] = tmp[j - i];
		}
		i = end + 1; /* past the impure one */
	}
}

/*
 * In a chain of -o, "TEST -o -true" is true without TEST, whose stat may
 * fail: GNU find and bfs do not evaluate it, so the first -true with only
 * pure operands before it goes first.
 */
static void true_first(struct lf_expr ***ops, size_t n)
{
	for (size_t i = 1; i < n && is_pure(*ops[i - 1]); i++) {
		struct lf_expr *t = *ops[i];
		if (t->kind == LF_EXPR_PRIMARY && t->eval == lf_eval_true) {
			for (size_t j = i; j > 0; j--) {
				*ops[j] = *ops[j - 1];
			}
			*ops[0] = t;
			return;
		}
	}
}

/* Reorder the operands of @x, and of the chains in them (cheap_first, true_first); -1 if out of memory. */
int lf_parse_optimize(struct lf_expr *x)
{
	if (!x || x->kind == LF_EXPR_PRIMARY) {
		return 0;
	}
	if (x->kind == LF_EXPR_NOT) {
		return lf_parse_optimize(x->lhs);
	}
	size_t n = 1;
	struct lf_expr *c;
	for (c = x; c->kind == x->kind; c = c->rhs) {
		if (lf_parse_optimize(c->lhs) != 0) {
			return -1;
		}
		n++;
	}
	if (lf_parse_optimize(c) != 0) {
		return -1;
	}
	if (x->kind == LF_EXPR_COMMA) {
		return 0;
	}
	struct lf_expr ***ops = malloc(n * sizeof(*ops));
	struct lf_expr **tmp = malloc(n * sizeof(*tmp));
	if (!ops || !tmp) {
		free(ops);
		free(tmp);
		return -1;
	}
	size_t i = 0;
	for (c = x; c->kind == x->kind; c = c->rhs) {
		ops[i++] = &c->lhs;
		if (c->rhs->kind != x->kind) {
			ops[i++] = &c->rhs;
		}
	}
	if (x->kind == LF_EXPR_AND) {
		cheap_first(ops, tmp, n);
	} else {
		true_first(ops, n);
	}
	free(ops);
	free(tmp);
	return 0;
}

/* Whether @x and its operands only read: no -prune, -quit, -delete, -exec or -ok in any form, no -lua. */
static bool reads_only(const struct lf_expr *x)
{
	static const char changes[][9] = {"-exec", "-execdir", "-ok", "-okdir"};
	for (; x && x->kind != LF_EXPR_PRIMARY; x = x->rhs) {
		if (!reads_only(x->lhs)) {
			return false; /* recursing on the left only, as is_pure */
		}
	}
	if (!x) {
		return true;
	}
	if (x->eval == lf_eval_prune || x->eval == lf_eval_quit || x->eval == lf_eval_delete || x->impure) {
		return false;
	}
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		if (strcmp(x->name, changes[i]) == 0) {
			return false;
		}
	}
	return true;
}

/*
 * The one place that decides whether a query's walk reads directories
 * ahead (walk.h's LF_WALK_READ_AHEAD), for the command line, the C query
 * API (lf_query_walk_opts) and luafind.find alike: when the query reads
 * every directory the walk reaches and changes nothing in the tree.
 * - Skipping directories wastes what was read ahead of them: -prune,
 *   -exclude, and -quit, which ends the walk.
 * - Changing the tree would not be seen in a directory read before the
 *   change: -delete, -exec, -execdir, -ok, -okdir and -lua (Lua code may
 *   do anything).  Writing a file (-fprint, -fls...) is fine.
 * - Where the walk does not use the queue (sorted, breadth-first, -xdev,
 *   -gitignore, -exclude-caches, -L) the flag is left off, so that it says
 *   what the walk does.
 * An explicit -j does not force it: such a query walks with no workers.
 * @return @flags with LF_WALK_READ_AHEAD set or cleared
 */
unsigned lf_cmdline_walk_flags(const struct lf_cmdline *cmd, unsigned flags)
{
	bool ahead = !cmd->exclude && !cmd->delete && cmd->opts.symlinks != LF_LOGICAL &&
		     cmd->opts.order != LF_ORDER_BREADTH &&
		     !(flags & (LF_WALK_SORT | LF_WALK_XDEV | LF_WALK_GITIGNORE | LF_WALK_EXCLUDE_CACHES)) &&
		     reads_only(cmd->expr);
	return ahead ? flags | LF_WALK_READ_AHEAD : flags & ~(unsigned)LF_WALK_READ_AHEAD;
}
