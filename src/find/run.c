/*
 * run.c: the lifecycle of a run (begin, entry, finish: run.h) and the
 * driver of whole walks and of -files0-from.  The words of its messages are
 * GNU find 4.9's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "run.h"

#include "color.h"
#include "diag.h"
#include "hyperlink.h"
#include "idset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lf_run_init(struct lf_run *r, struct lf_cmdline *cmd, struct lf_out *out)
{
	memset(r, 0, sizeof(*r));
	r->cmd = cmd;
	r->ev.out = out;
	r->ev.cmd = cmd;
	r->report_errors = true;
	struct lf_ctx *ctx = cmd->ctx;
	if (out->tty) {
		lf_ctx_settings(ctx); /* names on a terminal are shown in the user's locale */
	}
	if (lf_color_wanted((enum lf_color_mode)cmd->color, out->tty, false)) {
		lf_ctx_settings(ctx);
		out->colors = lf_ctx_colors(ctx);
		if (!out->colors && errno != ENOMEM) {
			lf_diag_warn(ctx, "error parsing $LS_COLORS: %s", strerror(errno));
		}
	}
	/*
	 * -hyperlink: the host name and the working directory, read once for
	 * the run, when a stream may be colored (standard output, or a -fprint
	 * file on a terminal).
	 */
	if (cmd->hyperlink && cmd->color != LF_COLOR_NEVER) {
		if (lf_hyperlink_new(&r->ev.links) != 0) {
			return -1;
		}
		int err = lf_hyperlink_cwd_error(r->ev.links);
		if (err) {
			lf_diag_warn(ctx, "-hyperlink: cannot read the working directory: %s; relative paths are not links",
				     strerror(err));
		}
		out->links = out->colors ? r->ev.links : NULL;
	}
	errno = 0;
	r->enter = lf_expr_enter_list(cmd->expr, &r->nenter);
	if (r->nenter && !r->enter) {
		int err = errno;
		lf_run_free(r);
		errno = err;
		return -1;
	}
	return 0;
}

void lf_run_free(struct lf_run *r)
{
	lf_idset_free(r->ev.seen);
	r->ev.seen = NULL;
	free(r->enter);
	r->enter = NULL;
	r->nenter = 0;
	if (r->ev.out && r->ev.out->links == r->ev.links) {
		r->ev.out->links = NULL;
	}
	lf_hyperlink_free(r->ev.links);
	r->ev.links = NULL;
}

void lf_run_report_entry(struct lf_ctx *ctx, const struct lf_entry *e)
{
	if (e->error == ELOOP && e->loop_pathlen) {
		FILE *fp = lf_diag_begin(ctx);
		fputs("File system loop detected; ", fp);
		lf_diag_quote(fp, e->path, e->pathlen);
		fputs(" is part of the same file system loop as ", fp);
		lf_diag_quote(fp, e->path, e->loop_pathlen);
		fputc('.', fp);
		lf_diag_end(ctx, LF_ERROR_FILE, e->path, e->pathlen, ELOOP);
	} else {
		lf_diag_path(ctx, e->path, e->pathlen, e->error);
	}
}

/*
 * -exclude, before the expression: whether entry @e is evaluated.  An
 * excluded directory is not entered; under -depth (both orders) it is
 * excluded on its first visit, and its second, which comes next, is
 * skipped.  A failure in the exclusion (a stat, a -lua error) excludes,
 * as in bfs: nothing is done to what could not be decided about.
 */
static bool included(struct lf_run *r, struct lf_walk *w, struct lf_entry *e)
{
	const struct lf_cmdline *cmd = r->cmd;
	struct lf_eval *ev = &r->ev;
	if (e->visit == LF_VISIT_POST) {
		if (r->skip_post == r->entries) {
			return false;
		}
	} else {
		bool excluded = lf_expr_eval(cmd->exclude, ev);
		bool failed = ev->entry_failed || ev->stop || ev->stat_err_seq == ev->seq;
		if (excluded || failed) {
			if (e->type == LF_DIR) {
				lf_walk_prune(w);
				r->skip_post = r->entries + 1;
			}
			return false;
		}
		if (cmd->exclude_post && e->type == LF_DIR) {
			return false; /* evaluated on its post visit */
		}
	}
	return e->depth >= cmd->mindepth;
}

/* Report that -delete refuses @path, the root directory /, as a usage error. */
static void report_refusal(struct lf_ctx *ctx, const char *path, size_t len)
{
	FILE *fp = lf_diag_begin(ctx);
	fputs("refusing to delete ", fp);
	lf_diag_quote(fp, path, len);
	fputs(": it is the root directory /", fp);
	lf_diag_end(ctx, LF_ERROR_USAGE, path, len, 0);
}

/* The entry step, inline in the walks below (once per entry: it counts). */
static inline enum lf_run_result run_entry(struct lf_run *r, struct lf_walk *w, struct lf_entry *e)
{
	struct lf_eval *ev = &r->ev;
	r->entries++;
	ev->walk = w;
	ev->seq = r->entries;
	ev->entry = e;
	for (size_t i = 0; i < r->nenter; i++) {
		r->enter[i]->enter(r->enter[i], ev);
	}
	if (e->visit == LF_VISIT_ERROR) {
		if (e->error == ENOENT && r->cmd->ignore_race && e->depth > 0) {
			return LF_RUN_SKIPPED;
		}
		if (e->error == ELOOP && e->loop_pathlen && r->cmd->unique) {
			/* -L's loop leads back to a directory seen already: under
			 * -unique it is left out, as in bfs, not reported. */
			return LF_RUN_SKIPPED;
		}
		if (e->depth == 0 && e->error == EPERM && r->cmd->delete &&
		    lf_path_is_root_dir(e->path, r->cmd->opts.symlinks != LF_PHYSICAL)) {
			/* The walk found / behind the root (LF_WALK_REFUSE_SLASH):
			 * the run stops before anything else is deleted. */
			lf_out_flush(ev->out);
			report_refusal(r->cmd->ctx, e->path, e->pathlen);
			ev->status = 1;
			ev->stop = true;
			return LF_RUN_ERROR;
		}
		lf_eval_walk_error(ev); /* a -depth visit of it then says nothing more */
		if (r->report_errors && !lf_eval_noerror(ev)) {
			lf_out_flush(ev->out);
			lf_run_report_entry(r->cmd->ctx, e);
			ev->status = 1;
		}
		return LF_RUN_ERROR;
	}
	ev->entry = e;
	ev->entry_failed = false;
	if (r->cmd->exclude && !included(r, w, e)) {
		return LF_RUN_FALSE;
	}
	bool match = !r->cmd->expr || lf_expr_eval(r->cmd->expr, ev);
	/* After an error ("! -regex" failing), true is no match: the caller
	 * (luafind.find's loop) must not act on the entry either. */
	return match && !ev->stop && !ev->entry_failed ? LF_RUN_TRUE : LF_RUN_FALSE;
}

enum lf_run_result lf_run_entry(struct lf_run *r, struct lf_walk *w, struct lf_entry *e)
{
	/* The status is the run's: this entry's errors are those that set it
	 * now. */
	struct lf_eval *ev = &r->ev;
	int before = ev->status;
	ev->status = 0;
	ev->quiet_failure = false;
	enum lf_run_result res = run_entry(r, w, e);
	if ((res == LF_RUN_TRUE || res == LF_RUN_FALSE) &&
	    (ev->status || ev->entry_failed || ev->stop || ev->quiet_failure)) {
		res = LF_RUN_FAILED;
	}
	ev->status |= before;
	return res;
}

bool lf_run_must_stop(const struct lf_run *r)
{
	return r->ev.quit || r->ev.stop || r->ev.out->err;
}

bool lf_path_is_root_dir(const char *path, bool follow)
{
	struct stat slash, st;
	int r = follow ? stat(path, &st) : lstat(path, &st);
	return stat("/", &slash) == 0 && r == 0 && st.st_dev == slash.st_dev && st.st_ino == slash.st_ino;
}

/* The root of @roots that is / when @cmd deletes, or NULL. */
static const char *refused_root(const struct lf_cmdline *cmd, const char *const *roots, size_t nroots)
{
	/* The walk follows a root that is a link under -H and -L: so does this. */
	bool follow = cmd->opts.symlinks != LF_PHYSICAL;
	for (size_t i = 0; cmd->delete && i < nroots; i++) {
		if (lf_path_is_root_dir(roots[i], follow)) {
			return roots[i];
		}
	}
	return NULL;
}

void lf_run_report_write_error(struct lf_ctx *ctx, int err)
{
	/* GNU find's two lines; the run stops at the first failed write. */
	lf_diag_kind(ctx, LF_ERROR_RUNTIME, "'standard output': %s", strerror(err));
	lf_diag_kind(ctx, LF_ERROR_RUNTIME, "write error");
}

bool lf_run_output_failed(struct lf_run *r)
{
	struct lf_out *out = r->ev.out;
	if (!out || !out->err || r->write_reported) {
		return false;
	}
	r->write_reported = true;
	lf_run_report_write_error(r->cmd->ctx, out->err);
	r->ev.status = 1;
	return true;
}

int lf_run_begin(struct lf_run *r, const char *const *roots, size_t nroots)
{
	const char *slash = refused_root(r->cmd, roots, nroots);
	if (!slash) {
		return 0;
	}
	lf_out_flush(r->ev.out);
	report_refusal(r->cmd->ctx, slash, strlen(slash));
	r->ev.status = 1;
	r->ev.stop = true;
	return -1;
}

void lf_run_cancel(struct lf_run *r)
{
	r->cancelled = true;
}

int lf_run_finish(struct lf_run *r)
{
	bool first = !r->finished;
	if (first && !r->cancelled && !r->ev.stop) {
		lf_expr_finish(r->cmd->expr, &r->ev);
	}
	r->finished = true;
	if (r->ev.out) {
		lf_out_flush(r->ev.out);
		lf_run_output_failed(r);
	}
	if (first && r->ev.suppressed && r->cmd->warn) {
		/* As bfs says it, under -warn only: -noerror asked for quiet. */
		lf_diag_warn(r->cmd->ctx, "-noerror suppressed %llu error%s", r->ev.suppressed,
			     r->ev.suppressed == 1 ? "" : "s");
	}
	return r->ev.status;
}

/*
 * Walk @roots, evaluating the expression for every entry.
 *
 * @return 0 to go on with more roots, -1 when the run must stop (-quit, a
 *         fatal error, a failed write, the walker failing)
 */
static int walk_roots(struct lf_run *r, const char *const *roots, size_t nroots)
{
	struct lf_cmdline *cmd = r->cmd;
	struct lf_ctx *ctx = cmd->ctx;
	struct lf_eval *ev = &r->ev;
	if (lf_run_begin(r, roots, nroots) != 0) {
		return -1;
	}
	struct lf_walk_opts opts = cmd->opts;
	opts.roots = roots;
	opts.nroots = nroots;
	struct lf_walk *w = lf_walk_open(&opts);
	if (!w) {
		lf_diag_kind(ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		ev->status = 1;
		return -1;
	}
	struct lf_entry *e;
	int n;
	while ((n = lf_walk_next(w, &e)) > 0) {
		run_entry(r, w, e);
		if (r->progress && --r->progress_left == 0) {
			r->progress_left = r->progress_every;
			r->progress(r, w, e);
		}
		if (lf_run_must_stop(r)) {
			break;
		}
	}
	if (n < 0) {
		lf_diag_kind(ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		ev->status = 1;
	}
	lf_counters_add(&r->total, lf_walk_counters(w));
	lf_walk_close(w);
	ev->walk = NULL;
	ev->entry = NULL;
	return n < 0 || lf_run_must_stop(r) ? -1 : 0;
}

/* "MESSAGE 'NAME'..." with NAME quoted as find quotes file names. */
static void diag_named(struct lf_ctx *ctx, const char *before, const char *name, const char *after, int err)
{
	FILE *fp = lf_diag_begin(ctx);
	fputs(before, fp);
	lf_diag_quote(fp, name, strlen(name));
	fputs(after, fp);
	if (err) {
		fprintf(fp, ": %s", strerror(err));
	}
	lf_diag_end(ctx, LF_ERROR_FILE, name, strlen(name), err);
}

/*
 * Open -files0-from's FILE ("-": stdin) with GNU find 4.9's checks, in its
 * order: no paths on the command line, and stdin not shared with -ok/-okdir.
 * Sets *@label to the name messages give it.
 *
 * @return the stream, or NULL after the message
 */
static FILE *files0_open(const struct lf_cmdline *cmd, const char **label)
{
	struct lf_ctx *ctx = cmd->ctx;
	if (cmd->first_path) {
		diag_named(ctx, "extra operand ", cmd->first_path, "", 0);
		lf_diag(ctx, "file operands cannot be combined with -files0-from");
		return NULL;
	}
	if (strcmp(cmd->files0_from, "-") == 0) {
		*label = "(standard input)";
		if (cmd->ok_stdin) {
			/* GNU's message ends with an empty line: "%s\n" through error(). */
			lf_diag(ctx, "option -files0-from reading from standard input cannot be combined with -ok, "
				"-okdir\n");
			return NULL;
		}
		return stdin;
	}
	*label = cmd->files0_from;
	FILE *fp = fopen(cmd->files0_from, "re");
	if (!fp) {
		diag_named(ctx, "cannot open ", cmd->files0_from, " for reading", errno);
		return NULL;
	}
	/* /dev/stdin, or FILE given as stdin too ("< FILE"), is stdin again. */
	struct stat a, b;
	if (cmd->ok_stdin && fstat(fileno(fp), &a) == 0 && fstat(STDIN_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		diag_named(ctx, "option -files0-from: standard input must not refer to the same file when combined "
			   "with -ok, -okdir: ",
			   cmd->files0_from, "\n", 0);
		fclose(fp);
		return NULL;
	}
	return fp;
}

/*
 * -files0-from: each NUL-separated name as it is read, as GNU find does (a
 * name is walked before the next is read).  An empty name is an error that
 * skips it; a read error ends the list.
 */
void lf_run_files0(struct lf_run *r, int (*each)(struct lf_run *r, const char *name, void *arg), void *arg)
{
	struct lf_ctx *ctx = r->cmd->ctx;
	struct lf_eval *ev = &r->ev;
	const char *label;
	FILE *fp = files0_open(r->cmd, &label);
	if (!fp) {
		ev->status = 1;
		return;
	}
	char *name = NULL;
	size_t cap = 0;
	unsigned long n = 0;
	bool ok = true;
	ssize_t len;
	while ((len = getdelim(&name, &cap, '\0', fp)) >= 0) {
		n++;
		if (len > 0 && name[len - 1] == '\0') {
			len--;
		}
		if (len == 0) {
			lf_out_flush(ev->out);
			FILE *msg = lf_diag_begin(ctx);
			lf_diag_quote(msg, label, strlen(label));
			fprintf(msg, ":%lu: invalid zero-length file name", n);
			lf_diag_end(ctx, LF_ERROR_USAGE, NULL, 0, 0);
			ev->status = 1;
			ok = false;
			continue;
		}
		if (each(r, name, arg) != 0) {
			ok = false;
			break;
		}
	}
	if (len < 0 && ferror(fp)) {
		int err = errno;
		lf_out_flush(ev->out);
		diag_named(ctx, "", label, ": read error", err);
		ev->status = 1;
		ok = false;
	}
	free(name);
	int closed = fp == stdin ? 0 : fclose(fp);
	if (ok && closed != 0) {
		diag_named(ctx, "error reading ", label, "", 0);
		ev->status = 1;
	}
}

/* lf_run_files0()'s step for lf_run_roots(): walk the name. */
static int walk_name(struct lf_run *r, const char *name, void *arg)
{
	(void)arg;
	const char *roots[] = {name};
	return walk_roots(r, roots, 1);
}

int lf_run_roots(struct lf_run *r, const char *const *roots, size_t nroots)
{
	if (r->cmd->files0_from && !roots) {
		lf_run_files0(r, walk_name, NULL);
	} else if (roots) {
		walk_roots(r, roots, nroots);
	} else {
		walk_roots(r, r->cmd->roots, r->cmd->nroots);
	}
	return lf_run_finish(r);
}
