/*
 * expr.c: evaluation of find expressions.
 */
#include "expr.h"

#include <errno.h>
#include <stdlib.h>

struct lf_expr *lf_expr_new(lf_eval_fn *eval, enum lf_expr_kind kind, const char *name)
{
	struct lf_expr *x = calloc(1, sizeof(*x));
	if (x) {
		x->eval = eval;
		x->kind = kind;
		x->name = name;
	}
	return x;
}

void lf_expr_free(struct lf_expr *x)
{
	if (x) {
		lf_expr_free(x->lhs);
		lf_expr_free(x->rhs);
		free(x);
	}
}

bool lf_expr_has_action(const struct lf_expr *x)
{
	return x && (x->is_action || lf_expr_has_action(x->lhs) || lf_expr_has_action(x->rhs));
}

bool lf_eval_not(const struct lf_expr *x, struct lf_eval *ev)
{
	return !lf_expr_eval(x->lhs, ev);
}

bool lf_eval_and(const struct lf_expr *x, struct lf_eval *ev)
{
	return lf_expr_eval(x->lhs, ev) && !ev->quit && lf_expr_eval(x->rhs, ev);
}

bool lf_eval_or(const struct lf_expr *x, struct lf_eval *ev)
{
	return lf_expr_eval(x->lhs, ev) || (!ev->quit && lf_expr_eval(x->rhs, ev));
}

bool lf_eval_comma(const struct lf_expr *x, struct lf_eval *ev)
{
	lf_expr_eval(x->lhs, ev);
	return !ev->quit && lf_expr_eval(x->rhs, ev);
}

bool lf_eval_true(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	(void)ev;
	return true;
}

bool lf_eval_false(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	(void)ev;
	return false;
}

bool lf_eval_print(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	lf_out_write(ev->out, ev->entry->path, ev->entry->pathlen);
	lf_out_putc(ev->out, '\n');
	return true;
}

bool lf_eval_print0(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	lf_out_write(ev->out, ev->entry->path, ev->entry->pathlen + 1);
	return true;
}

bool lf_eval_prune(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	if (ev->entry->visit == LF_VISIT_PRE) {
		lf_walk_prune(ev->walk);
	}
	return true;
}

bool lf_eval_quit(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	ev->quit = true;
	return true;
}
