/**
 * run.h: the one driver of find expressions, and the one lifecycle of a run:
 *
 *	lf_run_init      the run of a parsed command line
 *	lf_run_begin     before each walk: -delete never takes /
 *	lf_run_entry     each entry: enter hooks, error entries,
 *	                 -ignore_readdir_race, evaluation, -quit
 *	lf_run_finish    pending -exec ... + batches, standard output flushed,
 *	                 a failed write reported once; find's exit status
 *	lf_run_free
 *
 * The command line and the C API's lf_query_run() walk a command line's
 * roots or -files0-from's names with lf_run_roots(), which goes through all
 * of it; lf_query_eval() and the Lua binding's luafind.find pull entries
 * from their own walks and call begin, entry and finish themselves.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_RUN_H
#define LF_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "expr.h"
#include "output.h"
#include "parse.h"
#include "walk.h"

/** A run of one parsed command line (zero-initialize, then lf_run_init). */
struct lf_run {
	struct lf_cmdline *cmd;
	struct lf_eval ev;
	struct lf_expr **enter; /* the nodes with an enter hook */
	size_t nenter;
	uint64_t entries;       /**< entries the walks returned */
	struct lf_counters total; /**< of the walks lf_run_roots() made */
	bool report_errors;     /**< report error entries (lf_run_entry) */
	/**
	 * A progress display (the CLI's -status line), or NULL: lf_run_roots()
	 * calls it after every progress_every-th entry, with the entry just
	 * evaluated.  The count is the host's to tune (the call may change
	 * progress_every); a walk without it pays one test per entry.
	 */
	void (*progress)(struct lf_run *r, struct lf_walk *w, const struct lf_entry *e);
	void *progress_arg;
	unsigned progress_every; /**< at least 1 when progress is set */
	unsigned progress_left;  /**< entries until the next call */
	uint64_t skip_post;     /**< the entry that is the post visit of an excluded directory */
	bool finished;          /**< lf_run_finish() ran the finish hooks */
	bool cancelled;         /**< lf_run_cancel(): no finish hooks */
	bool write_reported;    /**< a failed write to standard output was reported */
};

/**
 * Start a run of @cmd writing to @out.
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_run_init(struct lf_run *r, struct lf_cmdline *cmd, struct lf_out *out);

/**
 * Begin a walk of @roots.  When the command line deletes and one of them
 * is / (in any spelling: "//", "/tmp/..", and under -H or -L a symbolic
 * link to /, which the walk follows), -delete refuses it: the refusal is
 * reported as a usage error naming the root, the run stops (status 1) and
 * nothing must be walked.  The walk checks again on the directory it opens
 * (LF_WALK_REFUSE_SLASH), and lf_run_entry() then refuses the same way.
 *
 * @return 0, or -1 when the run must not walk @roots
 */
int lf_run_begin(struct lf_run *r, const char *const *roots, size_t nroots);

/** What lf_run_entry() made of an entry. */
enum lf_run_result {
	LF_RUN_FALSE = 0, /**< the expression is false for it */
	LF_RUN_TRUE,      /**< the expression is true for it */
	LF_RUN_ERROR,     /**< an error entry (reported if r->report_errors) */
	LF_RUN_SKIPPED,   /**< an error entry that -ignore_readdir_race drops */
	/**
	 * An error was reported while evaluating it (a stat inside a test, a
	 * failed action, a fatal error that stops the run): whether the
	 * expression is true for it could not be told, and it must not be
	 * acted on.
	 */
	LF_RUN_FAILED,
};

/**
 * The entry @e of walk @w: the enter hooks, then an error entry is
 * reported (as an LF_ERROR_FILE value, when r->report_errors) and makes the
 * status 1, or the expression is evaluated.
 */
enum lf_run_result lf_run_entry(struct lf_run *r, struct lf_walk *w, struct lf_entry *e);

/** Whether the run must end now: -quit, a fatal error, a failed write. */
bool lf_run_must_stop(const struct lf_run *r);

/**
 * Whether standard output failed: the first call that sees it reports the
 * failure (lf_run_report_write_error), stops the run and makes the status
 * 1, and returns true; every other call returns false.
 */
bool lf_run_output_failed(struct lf_run *r);

/**
 * Report that standard output could not be written (errno @err) in GNU
 * find's words: the run's own output goes through lf_run_output_failed()
 * and lf_run_finish(); the command line reports its other output (Lua's
 * print, --isolate's copy) with it.
 */
void lf_run_report_write_error(struct lf_ctx *ctx, int err);

/**
 * Give up the run: lf_run_finish() will not run the finish hooks (a
 * walker collected without being closed, a loop cancelled).
 */
void lf_run_cancel(struct lf_run *r);

/**
 * End the run: the finish hooks (pending -exec ... + batches, which run
 * after -quit too) once, unless a fatal error stopped the run or it was
 * cancelled; then standard output is flushed, a failed write reported once.
 * Calling it again only flushes.
 *
 * @return find's exit status: 0, or 1 if anything failed
 */
int lf_run_finish(struct lf_run *r);

/**
 * Whether @path names / (in any spelling: "//", "/tmp/.."), following a
 * final symbolic link only if @follow: -delete, lf.remove_tree and the
 * scripts' --apply refuse it.
 */
bool lf_path_is_root_dir(const char *path, bool follow);

/**
 * Walk @roots (cmd->roots if NULL) to the end, or -files0-from's names when
 * the command line says so, each walk begun by lf_run_begin() and each
 * entry handed to lf_run_entry(); then lf_run_finish().  Every problem is
 * reported to the context.
 *
 * @return find's exit status: 0, or 1 if anything failed
 */
int lf_run_roots(struct lf_run *r, const char *const *roots, size_t nroots);

/**
 * -files0-from: call @each(@r, name, @arg) for each NUL-separated name of
 * cmd->files0_from as it is read, with GNU find 4.9's checks and messages
 * (no paths on the command line, an empty name is an error that skips it,
 * a read error ends the list: the status becomes 1).  @each returns 0 to go
 * on, -1 to stop.
 */
void lf_run_files0(struct lf_run *r, int (*each)(struct lf_run *r, const char *name, void *arg), void *arg);

/** Free what lf_run_init() allocated. */
void lf_run_free(struct lf_run *r);

/**
 * Report error entry @e to @ctx as find words it: "'path': reason", or
 * GNU's message for a loop under -L.
 */
void lf_run_report_entry(struct lf_ctx *ctx, const struct lf_entry *e);

#endif
