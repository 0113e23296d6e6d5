/*
 * record.c: a run's evaluation of records, the files a host found by
 * itself (record.h).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "record.h"

#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "walk_record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* They act in the directory of a walk: a record has only a path. */
static const char refused_primaries[][9] = {"-delete", "-execdir", "-okdir"};

bool lf_record_refused_primary(const char *name)
{
	for (size_t i = 0; i < sizeof(refused_primaries) / sizeof(refused_primaries[0]); i++) {
		if (strcmp(name, refused_primaries[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* The first primary of @x refused on records, or NULL (left operands recursed on, as expr.c's passes). */
static const char *first_refused(const struct lf_expr *x)
{
	for (; x; x = x->rhs) {
		if (x->kind == LF_EXPR_PRIMARY && lf_record_refused_primary(x->name)) {
			return x->name;
		}
		const char *name = first_refused(x->lhs);
		if (name) {
			return name;
		}
	}
	return NULL;
}

/* The tests and actions that read neither the entry's type nor its stat data. */
static const char type_free_primaries[][12] = {
	"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
	"-hidden", "-print0", "-prune", "-quit", "-limit",
};

static bool type_free(const struct lf_expr *x, bool colors)
{
	if (x->eval == lf_eval_true || x->eval == lf_eval_false) {
		return true; /* and the options (-maxdepth, -regextype...) */
	}
	if (x->eval == lf_eval_print) {
		return !colors; /* a colored name is colored by its type */
	}
	for (size_t i = 0; i < sizeof(type_free_primaries) / sizeof(type_free_primaries[0]); i++) {
		if (strcmp(x->name, type_free_primaries[i]) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * Whether evaluating @x may read an entry's type: then a record of unknown
 * type is stat'ed for it first, as a walk stats a DT_UNKNOWN entry.  The
 * primaries not known to do without are taken to read it.
 */
static bool reads_type(const struct lf_expr *x, bool colors)
{
	for (; x; x = x->rhs) {
		if (x->kind == LF_EXPR_PRIMARY ? !type_free(x, colors) : reads_type(x->lhs, colors)) {
			return true;
		}
	}
	return false;
}

/* The walker of records and what the expression asks of them: on the first record. */
static int start(struct lf_records *rs, const struct lf_run *r)
{
	const struct lf_cmdline *cmd = r->cmd;
	rs->w = lf_record_walk_open(cmd->opts.symlinks, &rs->root);
	if (!rs->w) {
		return -1;
	}
	rs->refused = first_refused(cmd->expr);
	if (!rs->refused) {
		rs->refused = first_refused(cmd->exclude);
	}
	bool colors = r->ev.out && r->ev.out->colors;
	/*
	 * -exclude prunes what it excludes if it is a directory, and -depth
	 * visits a directory after its contents: both need the type.
	 */
	rs->reads_type = reads_type(cmd->expr, colors) || cmd->exclude || cmd->opts.order != LF_ORDER_PRE;
	return 0;
}

/* "-delete: not available on records", once: a usage error naming it. */
static void report_refused(struct lf_records *rs, struct lf_ctx *ctx)
{
	if (rs->refusal_said) {
		return;
	}
	rs->refusal_said = true;
	char msg[128];
	int n = snprintf(msg, sizeof(msg), "%s: not available on records: it acts in the directory of a walk",
			 rs->refused);
	struct lf_error err = {
		.kind = LF_ERROR_USAGE,
		.message = msg,
		.length = n > 0 && (size_t)n < sizeof(msg) ? (size_t)n : strlen(msg),
		.errnum = EINVAL,
		.argi = -1,
		.primary = rs->refused,
		.names_primary = true,
	};
	lf_diag_report(ctx, &err);
}

/* "invalid record 'PATH': WHY", about the record's path if it has one. */
static void report_invalid(struct lf_ctx *ctx, const struct lf_record *rec, const char *why)
{
	const char *path = rec && rec->path && rec->path[0] ? rec->path : NULL;
	size_t len = path ? strlen(path) : 0;
	FILE *fp = lf_diag_begin(ctx);
	fputs("invalid record", fp);
	if (path) {
		fputc(' ', fp);
		lf_diag_quote(fp, path, len);
	}
	fprintf(fp, ": %s", why);
	lf_diag_end(ctx, LF_ERROR_FILE, path, len, EINVAL);
}

/*
 * The root of @rec: its own, or its path without its last depth components
 * and the slashes before them ("/" for what remains of an absolute path,
 * "" when nothing does).  NULL on ENOMEM.
 */
static const char *record_root(struct lf_records *rs, const struct lf_record *rec)
{
	if (rec->root) {
		return rec->root;
	}
	if (rec->depth == 0) {
		return rec->path;
	}
	const char *path = rec->path;
	size_t end = strlen(path);
	/* At most one step per component: a huge depth ends with the path. */
	for (int d = 0; d < rec->depth && end > 0; d++) {
		while (end > 0 && path[end - 1] != '/') {
			end--;
		}
		while (end > 0 && path[end - 1] == '/') {
			end--;
		}
	}
	if (end == 0 && path[0] == '/') {
		end = 1;
	}
	if (end + 1 > rs->rootcap) {
		size_t cap = end + 1 > 2 * rs->rootcap ? end + 1 : 2 * rs->rootcap;
		char *buf = realloc(rs->rootbuf, cap);
		if (!buf) {
			return NULL;
		}
		rs->rootbuf = buf;
		rs->rootcap = cap;
	}
	memcpy(rs->rootbuf, path, end);
	rs->rootbuf[end] = '\0';
	return rs->rootbuf;
}

/* A failure before evaluation: status 1, could not tell. */
static enum lf_run_result failed(struct lf_run *r)
{
	r->ev.status = 1;
	return LF_RUN_FAILED;
}

enum lf_run_result lf_records_eval(struct lf_records *rs, struct lf_run *r, const struct lf_record *rec)
{
	const struct lf_cmdline *cmd = r->cmd;
	struct lf_ctx *ctx = cmd->ctx;
	if (!rs->w && start(rs, r) != 0) {
		lf_diag_kind(ctx, LF_ERROR_RUNTIME, "records: %s", strerror(errno));
		return failed(r);
	}
	if (rs->refused) {
		report_refused(rs, ctx);
		r->ev.stop = true; /* a host that checks lf_query_done() stops */
		return failed(r);
	}
	const char *why = lf_record_invalid(rec);
	if (why) {
		report_invalid(ctx, rec, why);
		return failed(r);
	}
	/* What the walk would not have returned. */
	if (rec->depth < cmd->opts.mindepth || (cmd->opts.maxdepth >= 0 && rec->depth > cmd->opts.maxdepth)) {
		return LF_RUN_FALSE;
	}
	rs->root = record_root(rs, rec);
	if (!rs->root) {
		lf_diag_kind(ctx, LF_ERROR_RUNTIME, "records: %s", strerror(ENOMEM));
		return failed(r);
	}
	struct lf_entry *e;
	if (lf_record_walk_set(rs->w, rec, &e) != 0) {
		return failed(r); /* cannot happen: checked above */
	}
	if (rs->reads_type && lf_record_walk_resolve_type(rs->w) != 0) {
		/* As the walk makes a DT_UNKNOWN entry whose stat failed. */
		e->visit = LF_VISIT_ERROR;
		e->error = errno;
	}
	if (e->visit == LF_VISIT_PRE && e->type == LF_DIR && cmd->opts.order != LF_ORDER_PRE) {
		if (cmd->opts.order == LF_ORDER_BOTH) {
			/* -exclude under -depth: the pre-order visit excludes (then
			 * the post-order one is skipped), the post-order one evaluates. */
			enum lf_run_result res = lf_run_entry(r, rs->w, e);
			if (res != LF_RUN_FALSE || lf_run_must_stop(r)) {
				return res;
			}
		}
		e->visit = LF_VISIT_POST;
	}
	return lf_run_entry(r, rs->w, e);
}

bool lf_records_pruned(const struct lf_records *rs)
{
	return rs->w && lf_record_walk_pruned(rs->w);
}

const struct lf_counters *lf_records_counters(const struct lf_records *rs)
{
	static const struct lf_counters none;
	return rs->w ? lf_walk_counters(rs->w) : &none;
}

void lf_records_free(struct lf_records *rs)
{
	lf_walk_close(rs->w);
	free(rs->rootbuf);
	memset(rs, 0, sizeof(*rs));
}
