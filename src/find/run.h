/**
 * run.h: the one driver of find expressions: what happens to each entry of
 * a walk (enter hooks, error entries, -ignore_readdir_race, evaluation,
 * -quit), the walk of a command line's roots or of -files0-from's names,
 * the refusal of / under -delete, and the end of a run (pending -exec ... +
 * batches).  The command line and the C API run whole walks with
 * lf_run_roots(); the Lua binding's luafind.find pulls entries itself and
 * hands each to lf_run_entry().
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
};

/**
 * Start a run of @cmd writing to @out.
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_run_init(struct lf_run *r, struct lf_cmdline *cmd, struct lf_out *out);

/** What lf_run_entry() made of an entry. */
enum lf_run_result {
	LF_RUN_FALSE = 0, /**< the expression is false for it, or a fatal error (ev.stop) */
	LF_RUN_TRUE,      /**< the expression is true for it */
	LF_RUN_ERROR,     /**< an error entry (reported if r->report_errors) */
	LF_RUN_SKIPPED,   /**< an error entry that -ignore_readdir_race drops */
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
 * The root of @roots that is / (in any spelling: "//", "/tmp/..", and under
 * -H or -L a symbolic link to /, which the walk follows) when @cmd deletes,
 * which must then be refused before anything is done; NULL otherwise.  The
 * walk checks again on the directory it opens (LF_WALK_REFUSE_SLASH), and
 * lf_run_entry() then stops the run with the same refusal.
 */
const char *lf_run_refused_root(const struct lf_cmdline *cmd, const char *const *roots, size_t nroots);

/** Report that standard output could not be written (errno @err), as GNU find. */
void lf_run_report_write_error(struct lf_ctx *ctx, int err);

/** Report that -delete refuses @path, the root directory /, as a usage error. */
void lf_run_report_refusal(struct lf_ctx *ctx, const char *path, size_t len);

/**
 * Whether @path names / (in any spelling: "//", "/tmp/.."), following a
 * final symbolic link only if @follow: -delete, lf.remove_tree and the
 * scripts' --apply refuse it.
 */
bool lf_path_is_root_dir(const char *path, bool follow);

/**
 * Walk @roots (cmd->roots if NULL) to the end, or -files0-from's names when
 * the command line says so, evaluating the expression for every entry;
 * then run the finish hooks (pending -exec ... + batches) unless a fatal
 * error stopped it.  Every problem is reported to the context.
 *
 * @return find's exit status: 0, or 1 if anything failed
 */
int lf_run_roots(struct lf_run *r, const char *const *roots, size_t nroots);

/** Free what lf_run_init() allocated. */
void lf_run_free(struct lf_run *r);

/**
 * Report error entry @e to @ctx as find words it: "'path': reason", or
 * GNU's message for a loop under -L.
 */
void lf_run_report_entry(struct lf_ctx *ctx, const struct lf_entry *e);

#endif
