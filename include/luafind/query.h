/**
 * query.h: find's expression language for C hosts.
 *
 * A host compiles a find expression from an argv, as find(1) takes it after
 * the paths, and evaluates it for the entries of its own walk (walk.h), or
 * lets the library walk given roots.  Nothing is printed for a match unless
 * the expression says so (-print, -printf...) or the host asks for find's
 * implied -print: the host decides what a match means.
 *
 *	struct lf_ctx *ctx = lf_ctx_new();
 *	char *expr[] = {"-name", "*.c", "-size", "+1k"};
 *	struct lf_query *q = lf_query_compile(ctx, 4, expr, 0);
 *	if (!q)
 *		... the errors: lf_ctx_errors(ctx, &n, NULL), or a reporter's ...
 *	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
 *	lf_query_walk_opts(q, &opts);       // -maxdepth, -depth, -L, -xdev...
 *	opts.roots = roots;
 *	opts.nroots = 1;
 *	struct lf_walk *w = lf_walk_open(&opts);
 *	struct lf_entry *e;
 *	while (!lf_query_done(q) && lf_walk_next(w, &e) > 0)
 *		if (lf_query_eval(q, w, e) > 0)  // 0: false, -1: could not tell
 *			puts(e->path);
 *	lf_walk_close(w);
 *	int status = lf_query_finish(q);    // find's exit status
 *	lf_query_free(q);
 *	lf_ctx_free(ctx);
 *
 * A host with files of its own (an index, another program's walk)
 * evaluates the query on each, described as a struct lf_record, with
 * lf_query_eval_record(): no walk of luafind's.
 *
 * Errors are values (error.h), handed to the context's reporter as they
 * happen, or kept for the host to take without one: usage errors while
 * compiling (with the index of the argument in argv), file and run-time
 * errors while evaluating.  The library never prints an error by itself.
 *
 * Threads: a context and everything compiled with it belong to one thread
 * at a time; contexts share nothing, so each thread may have its own.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_QUERY_H
#define LUAFIND_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "walk.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define LF_PUBLIC __attribute__((visibility("default")))
#else
#define LF_PUBLIC
#endif

/** The state of the find library: see ctx.h's comment; opaque to hosts. */
struct lf_ctx;

/**
 * A new context: messages prefixed "luafind"; until a reporter is set, the
 * errors are kept for the host (lf_ctx_errors), never printed.
 * @return the context, or NULL with errno set (ENOMEM)
 */
LF_PUBLIC struct lf_ctx *lf_ctx_new(void);

/** Free @ctx (NULL is fine), after every query compiled with it. */
LF_PUBLIC void lf_ctx_free(struct lf_ctx *ctx);

/** The program name of printed messages ("luafind"); @name is borrowed. */
LF_PUBLIC void lf_ctx_set_progname(struct lf_ctx *ctx, const char *name);

/**
 * Hand the errors of @ctx to @fn (with @arg) from now on; NULL keeps them
 * (lf_ctx_errors).  The reporter in force before is stored in *@prev_fn and
 * *@prev_arg when they are not NULL.  lf_report_stderr, with the context
 * as @arg, prints them as find does.
 */
LF_PUBLIC void lf_ctx_set_reporter(struct lf_ctx *ctx, lf_report_fn *fn, void *arg, lf_report_fn **prev_fn,
				   void **prev_arg);

/**
 * A reporter that prints each error as find does, "PROGNAME: MESSAGE" (or
 * "PROGNAME: warning: MESSAGE") on stderr: @ctx is the context, passed as
 * lf_ctx_set_reporter()'s @arg.
 */
LF_PUBLIC void lf_report_stderr(void *ctx, const struct lf_error *err);

/**
 * The errors @ctx kept while it had no reporter, oldest first: *@n of
 * them, with their own copies of every string, valid until the next call
 * into the library with @ctx.  At most 1000 are kept; *@dropped (when not
 * NULL) counts the errors beyond, or lost for want of memory.
 * lf_ctx_clear_errors() empties the list.
 */
LF_PUBLIC const struct lf_error *lf_ctx_errors(const struct lf_ctx *ctx, size_t *n, size_t *dropped);

/** Forget the errors @ctx kept (lf_ctx_errors). */
LF_PUBLIC void lf_ctx_clear_errors(struct lf_ctx *ctx);

/** A compiled expression. */
struct lf_query;

/** Flags of lf_query_compile(). */
enum lf_query_flags {
	/** Without an action in the expression, -print is implied, as in find. */
	LF_QUERY_PRINT = 1 << 0,
	/**
	 * The safe policy: -delete, -exec, -execdir, -ok, -okdir, -fprint,
	 * -fprint0, -fprintf and -fls are usage errors when compiling
	 * ("-delete: not allowed by the safe policy"), so that an expression
	 * from an untrusted source can only test entries and print to
	 * standard output.  lf_query_compile_allow() permits some of them.
	 */
	LF_QUERY_SAFE = 1 << 1,
	/**
	 * The query is for records (lf_query_eval_record): -delete, -execdir
	 * and -okdir, which act in the directory of a walk, are usage errors
	 * when compiling ("-delete: not available on records: it acts in the
	 * directory of a walk"), with the index of the argument.
	 */
	LF_QUERY_RECORDS = 1 << 2,
};

/**
 * Compile the find expression @argv[0..@argc-1] (which may start with -H,
 * -L or -P; -files0-from is not taken).  The strings are copied.
 *
 * @return the query, or NULL after reporting the errors (errno EINVAL for
 *         a usage error, ENOMEM...)
 */
LF_PUBLIC struct lf_query *lf_query_compile(struct lf_ctx *ctx, int argc, char *const argv[], unsigned flags);

/**
 * lf_query_compile() under the safe policy (LF_QUERY_SAFE is implied),
 * permitting the refused primaries named in @allow, a NULL-terminated list
 * such as {"-fprint", NULL} (NULL: none), read during the call only.
 */
LF_PUBLIC struct lf_query *lf_query_compile_allow(struct lf_ctx *ctx, int argc, char *const argv[],
						  unsigned flags, const char *const allow[]);

/**
 * The walk options the expression asks for (-H/-L, -depth or -delete,
 * -mindepth, -maxdepth, -xdev, -j N), set in @opts; its roots are left
 * alone, and so is opts->threads without -j.  The flags include
 * LF_WALK_READ_AHEAD (walk.h) when the expression only reads (no -prune,
 * -quit, -exclude, -delete, -exec or -ok in any form): a host that changes
 * the tree or prunes while it walks clears it.
 */
LF_PUBLIC void lf_query_walk_opts(const struct lf_query *q, struct lf_walk_opts *opts);

/**
 * Evaluate the query for entry @e of walk @w (a walk opened with the
 * options of lf_query_walk_opts).  Actions act (-print writes to standard
 * output, -delete deletes...).  Three answers, as lf_walk_next() gives:
 * test for > 0, since an entry that could not be told about is neither a
 * match nor a non-match.
 *
 * @return 1 if the expression is true for the entry, 0 if it is false,
 *         -1 if it could not be told: an error entry (the walk could not
 *         read it), a test or an action that failed (a stat, a -regex at
 *         run time, -delete), or -delete refusing / (then lf_query_done()
 *         is true); the errors went to the reporter
 */
LF_PUBLIC int lf_query_eval(struct lf_query *q, struct lf_walk *w, struct lf_entry *e);

/**
 * Evaluate the query for @rec, a file the host found by itself (its own
 * walk, an index, a list of paths: struct lf_record, walk.h), with no walk
 * of luafind's.  The same evaluation, messages, answers and safe policy
 * as lf_query_eval(), for a record described as a walk's entry would be:
 *
 *   - A record with stat data is never stat'ed for it; one without is
 *     stat'ed (statx, or fstatat, on its path from the working directory:
 *     the link itself unless it is followed) the first time a test needs
 *     a field, and its unknown type only when the expression may read
 *     types or stat data at all (not for -name, -path, -regex, -prune...).
 *     lf_query_record_counters() counts those stats.
 *   - -mindepth and -maxdepth compare rec->depth: a record outside them is
 *     false, not evaluated.  -xdev, -mount and the walk's options do not
 *     apply: the host walks.  Under -depth, a directory is evaluated as
 *     its post-order visit.
 *   - -print, -print0, -printf, -ls, -json, -exec and -ok act on the path.
 *     -printf's %H is rec->root, or when it is NULL the path without its
 *     last rec->depth components; %P is the path after that root and a
 *     slash (the whole path when the root does not start it).
 *   - -prune asks the host not to descend (lf_query_record_pruned).
 *   - -delete, -execdir and -okdir act in the directory of a walk, through
 *     its fd: on a path that may lead elsewhere by the time they act, they
 *     are refused.  A query holding one reports a usage error naming it
 *     ("-delete: not available on records...") on its first record, then
 *     stops (lf_query_done() is true), and every record is -1.
 *     LF_QUERY_RECORDS refuses them when compiling instead.
 *   - An invalid record (NULL, a NULL or empty path, a negative depth, a
 *     type out of enum lf_type, unknown flags, a path ending in '/' below
 *     its root) is an LF_ERROR_FILE error with errnum EINVAL,
 *     "invalid record 'PATH': why", and -1.
 *
 * Each error makes lf_query_finish() return 1.  Stop when lf_query_done()
 * says so (-quit...), as after lf_query_eval().
 *
 * @return 1 if the expression is true for the record, 0 if it is false
 *         (or the record is outside -mindepth and -maxdepth), -1 if it
 *         could not be told: an invalid record, a stat or a test that
 *         failed, a refused primary; the errors went to the reporter
 */
LF_PUBLIC int lf_query_eval_record(struct lf_query *q, const struct lf_record *rec);

/**
 * Whether the last lf_query_eval_record() of @q asked not to descend into
 * its record: -prune was evaluated on it (not under -depth), or it is a
 * directory whose stat failed.  A host walking its own tree skips the
 * record's contents, as find does.
 */
LF_PUBLIC bool lf_query_record_pruned(const struct lf_query *q);

/**
 * The counters of the records @q evaluated: entries (records evaluated
 * within -mindepth and -maxdepth), stats and stats_follow (the stats made
 * for them, not following and following links); zeros before the first.
 * Valid until lf_query_free().
 */
LF_PUBLIC const struct lf_counters *lf_query_record_counters(const struct lf_query *q);

/** Whether the walk must end now: -quit, a fatal error, a failed write. */
LF_PUBLIC bool lf_query_done(const struct lf_query *q);

/**
 * Walk @roots with the query's options and evaluate it for every entry, as
 * find does (refusing / under -delete), then finish as lf_query_finish().
 *
 * @return find's exit status: 0, or 1 if anything failed
 */
LF_PUBLIC int lf_query_run(struct lf_query *q, const char *const *roots, size_t nroots);

/**
 * End the evaluation: run pending -exec ... + batches, close -fprint
 * files, flush standard output.
 *
 * @return find's exit status: 0, or 1 if anything failed
 */
LF_PUBLIC int lf_query_finish(struct lf_query *q);

/** Free @q (NULL is fine); lf_query_finish() first, unless abandoning it. */
LF_PUBLIC void lf_query_free(struct lf_query *q);

#ifdef __cplusplus
}
#endif

#endif
