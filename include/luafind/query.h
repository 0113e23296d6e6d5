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
