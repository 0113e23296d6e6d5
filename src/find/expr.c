/*
 * expr.c: evaluation of find expressions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "expr.h"

#include "diag.h"
#include "idset.h"
#include "parse.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The passes over a tree recurse on a node's left operand and loop on its
 * right, so that a chain costs no stack however long (LF_EXPR_MAX_DEPTH).
 * Only primaries have hooks, so leaves are still met in order.
 */

void lf_expr_free(struct lf_expr *x)
{
	while (x) {
		struct lf_expr *next = x->rhs;
		lf_expr_free(x->lhs);
		if (x->destroy) {
			x->destroy(x->data);
		}
		free(x);
		x = next;
	}
}

static bool collect_enter(struct lf_expr *x, struct lf_expr ***v, size_t *n, size_t *cap)
{
	for (; x; x = x->rhs) {
		if (!collect_enter(x->lhs, v, n, cap)) {
			return false;
		}
		if (!x->enter) {
			continue;
		}
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 4;
			struct lf_expr **nv = realloc(*v, c * sizeof(**v));
			if (!nv) {
				return false;
			}
			*v = nv;
			*cap = c;
		}
		(*v)[(*n)++] = x;
	}
	return true;
}

struct lf_expr **lf_expr_enter_list(struct lf_expr *x, size_t *n)
{
	struct lf_expr **v = NULL;
	size_t cap = 0;
	*n = 0;
	if (!collect_enter(x, &v, n, &cap)) {
		free(v);
		*n = 0;
		return NULL;
	}
	return v;
}

void lf_expr_finish(struct lf_expr *x, struct lf_eval *ev)
{
	for (; x; x = x->rhs) {
		lf_expr_finish(x->lhs, ev);
		if (x->finish) {
			x->finish(x, ev);
		}
	}
}

bool lf_expr_has_action(const struct lf_expr *x)
{
	for (; x; x = x->rhs) {
		if (x->is_action || lf_expr_has_action(x->lhs)) {
			return true;
		}
	}
	return false;
}

void lf_eval_walk_error(struct lf_eval *ev)
{
	ev->walk_err_seq = ev->seq;
	ev->walk_err_pathlen = ev->entry->pathlen;
	ev->walk_err = ev->entry->error;
}

bool lf_eval_noerror(struct lf_eval *ev)
{
	if (!ev->cmd->noerror) {
		return false;
	}
	ev->suppressed++;
	ev->quiet_failure = true;
	ev->status = 1; /* unsaid, but not hidden from the exit status */
	return true;
}

void lf_eval_file_error(struct lf_eval *ev, const char *path, size_t len, int err)
{
	lf_eval_file_error_in(ev, "", path, len, err);
}

void lf_eval_file_error_in(struct lf_eval *ev, const char *before, const char *path, size_t len, int err)
{
	if (lf_eval_noerror(ev)) {
		return;
	}
	lf_out_flush(ev->out);
	lf_diag_file(ev->cmd->ctx, before, path, len, err);
	ev->status = 1;
}

const struct lf_stat *lf_eval_stat(struct lf_eval *ev)
{
	struct lf_entry *e = ev->entry;
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
	if (!st && ev->stat_err_seq != ev->seq) {
		int err = errno;
		ev->stat_err_seq = ev->seq;
		/* -depth: the walk has just reported this directory's open failing. */
		bool reported = e->visit == LF_VISIT_POST && ev->walk_err_seq + 1 == ev->seq &&
				ev->walk_err == err && ev->walk_err_pathlen == e->pathlen;
		if (e->visit == LF_VISIT_PRE && e->type == LF_DIR && ev->walk) {
			lf_walk_prune(ev->walk);
		}
		if (err == ENOENT && ev->cmd->ignore_race && e->depth > 0) {
			/* gone: not an error */
		} else if (!reported) {
			lf_eval_file_error(ev, e->path, e->pathlen, err);
		} else {
			ev->quiet_failure = ev->cmd->noerror; /* counted once, as the walk's */
			ev->status = 1;
		}
		errno = err;
	}
	return st;
}

bool lf_eval_not(const struct lf_expr *x, struct lf_eval *ev)
{
	return !lf_expr_eval(x->lhs, ev);
}

/*
 * Whether evaluation of this entry must end here: -quit, a fatal error
 * (ev->stop), or an error for this entry only (ev->entry_failed).  A test that failed returns false, which "!" turns into true:
 * nothing after it may run, least of all -delete.
 */
static bool must_end(const struct lf_eval *ev)
{
	return ev->quit || ev->stop || ev->entry_failed;
}

/*
 * The operators go down a chain of themselves in a loop (expr.h's shape),
 * and call into anything else: a long chain takes one frame.
 */

bool lf_eval_and(const struct lf_expr *x, struct lf_eval *ev)
{
	for (;;) {
		if (!lf_expr_eval(x->lhs, ev) || must_end(ev)) {
			return false;
		}
		x = x->rhs;
		if (x->eval != lf_eval_and) {
			return lf_expr_eval(x, ev);
		}
	}
}

bool lf_eval_or(const struct lf_expr *x, struct lf_eval *ev)
{
	for (;;) {
		if (lf_expr_eval(x->lhs, ev)) {
			return true;
		}
		if (must_end(ev)) {
			return false;
		}
		x = x->rhs;
		if (x->eval != lf_eval_or) {
			return lf_expr_eval(x, ev);
		}
	}
}

bool lf_eval_comma(const struct lf_expr *x, struct lf_eval *ev)
{
	for (;;) {
		lf_expr_eval(x->lhs, ev);
		if (must_end(ev)) {
			return false;
		}
		x = x->rhs;
		if (x->eval != lf_eval_comma) {
			return lf_expr_eval(x, ev);
		}
	}
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
	if (ev->out->colors) {
		lf_out_write_entry_colored(ev->cmd->ctx, ev->out, ev->entry);
	} else if (ev->out->tty) {
		lf_out_write_name_tty(ev->cmd->ctx, ev->out, ev->entry->path, ev->entry->pathlen);
	} else {
		lf_out_write(ev->out, ev->entry->path, ev->entry->pathlen);
	}
	lf_out_putc(ev->out, '\n');
	return true;
}

bool lf_eval_print0(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	lf_out_write(ev->out, ev->entry->path, ev->entry->pathlen + 1);
	return true;
}

/*
 * GNU find's -prune stats the file (but under -depth, where it does
 * nothing) and is false when that fails: after a test whose stat failed
 * ("! -gid 0 -prune" on a file in a directory that is readable but not
 * searchable), it is false, as in GNU find and bfs, so that the implied
 * -print does not print what could not be examined.  It stats nothing of
 * its own, as in bfs.
 */
bool lf_eval_prune(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	const struct lf_cmdline *cmd = ev->cmd;
	if (ev->stat_err_seq == ev->seq && cmd->opts.order != LF_ORDER_POST && !cmd->exclude_post) {
		return false;
	}
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

/*
 * -limit N (bfs): true, and the Nth time it is evaluated the walk ends, as
 * after -quit.  Its count (x->data) is the run's: a command line is run
 * once.
 */
bool lf_eval_limit(const struct lf_expr *x, struct lf_eval *ev)
{
	long long *count = x->data;
	if (++*count >= x->num) {
		ev->quit = true;
	}
	return true;
}

const char *lf_expr_basename(const struct lf_entry *e, char *buf, size_t size)
{
	size_t len;
	const char *name = lf_entry_name(e, &len);
	if (name[len] == '\0') {
		return name;
	}
	/* A root with trailing slashes: the fnmatch subject needs its own NUL. */
	len = len < size - 1 ? len : size - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return buf;
}

bool lf_eval_name(const struct lf_expr *x, struct lf_eval *ev)
{
	char buf[4096];
	return lf_pattern_match(x, ev, lf_expr_basename(ev->entry, buf, sizeof(buf)), 0);
}

/*
 * -hidden (bfs): the name starts with '.', but is not "." or "..", so that
 * "luafind . -nohidden" still walks "."; a root is named as find's tests
 * name it (lf_entry_name: "./" is ".").  No stat.
 */
bool lf_eval_hidden(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	size_t len;
	const char *name = lf_entry_name(ev->entry, &len);
	return name[0] == '.' && len > 1 && !(len == 2 && name[1] == '.');
}

/*
 * -unique (bfs), the first operand of the exclusion (parse.c): true, so
 * that the entry is left out and not entered, for a file whose device and
 * inode the run has seen before, as the walk sees them (under -L a link to
 * a file seen is that file).  It stats the entry; a failed stat is
 * reported and leaves it out, as any failure in the exclusion does
 * (run.c).  The set is made when first needed; if it cannot grow, the run
 * stops: going on would act on files seen already.
 */
bool lf_eval_unique(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st) {
		return false;
	}
	int r = -1;
	if (ev->seen || (ev->seen = lf_idset_new(ev->cmd->ctx->mem))) {
		r = lf_idset_add(ev->seen, st->dev, st->ino);
	}
	if (r < 0) {
		int err = errno;
		lf_out_flush(ev->out);
		lf_diag_kind(ev->cmd->ctx, LF_ERROR_RUNTIME, "-unique: %s", strerror(err));
		ev->status = 1;
		ev->stop = true;
		return true;
	}
	return r == 0;
}

bool lf_eval_type(const struct lf_expr *x, struct lf_eval *ev)
{
	return (x->mask >> ev->entry->type) & 1;
}

/* Whether the last component of a root is "." or "..". */
static bool ends_in_dots(const struct lf_entry *e)
{
	size_t len;
	const char *name = lf_entry_name(e, &len);
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* "cannot delete 'path': reason", after the output so far; status 1 (quiet under -noerror). */
static bool cannot_delete(struct lf_eval *ev, int err)
{
	lf_eval_file_error_in(ev, "cannot delete ", ev->entry->path, ev->entry->pathlen, err);
	return false;
}

bool lf_eval_delete(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	struct lf_entry *e = ev->entry;
	if (e->depth == 0 && ends_in_dots(e)) {
		/* find . -delete empties the directory and keeps it, silently. */
		if (strcmp(e->path, ".") == 0) {
			return true;
		}
		return cannot_delete(ev, EINVAL);
	}
	if (lf_entry_delete(e) != 0) {
		return cannot_delete(ev, errno);
	}
	return true;
}
