/**
 * diag.h: how the find library reports problems: as error values (error.h)
 * handed to the context's reporter, with messages worded as GNU find's
 * ("'path': reason").
 *
 * Nothing here prints: a context without a reporter keeps its errors for
 * the host (lf_ctx_errors), and the printing reporter, lf_report_stderr,
 * writes "PROGNAME: MESSAGE" lines on stderr (lf_diag_print), as find does.
 * Each context has its own reporter, so two contexts in two threads never
 * see each other's errors.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_DIAG_H
#define LF_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctx.h"
#include "error.h"

/**
 * Write @s (of @len bytes) to @fp quoted as GNU find quotes file names in the
 * C locale: 'name', with backslash escapes for quotes, backslashes, control
 * bytes (\n, \t, ...) and octal escapes for bytes outside printable ASCII.
 */
void lf_diag_quote(FILE *fp, const char *s, size_t len);

/**
 * @s quoted as lf_diag_quote() does, in a new string (free it), or NULL on
 * ENOMEM.
 */
char *lf_diag_quoted(const char *s);

/** Hand @err to the reporter of @ctx (or keep it, without one: lf_ctx_errors). */
void lf_diag_report(struct lf_ctx *ctx, const struct lf_error *err);

/**
 * Print @err on @fp as find does: "PROGNAME: MESSAGE\n" ("PROGNAME: warning:
 * MESSAGE" for a warning).  The default reporter, and the base of others.
 */
void lf_diag_print(const struct lf_ctx *ctx, FILE *fp, const struct lf_error *err);

/**
 * The colors of messages written to @fp (color.h): the context's table
 * when @fp is stderr and the command line's -color, -nocolor or terminal
 * says so; NULL otherwise.
 */
struct lf_colors;
const struct lf_colors *lf_diag_colors(const struct lf_ctx *ctx, FILE *fp);

/** LF_ERROR_FILE for @path: "'path': strerror(err)". */
void lf_diag_path(struct lf_ctx *ctx, const char *path, size_t len, int err);

/** LF_ERROR_FILE for @path, after @before: "cannot delete 'path': strerror(err)". */
void lf_diag_file(struct lf_ctx *ctx, const char *before, const char *path, size_t len, int err);

/** An error of @kind with a printf-style message. */
void lf_diag_kind(struct lf_ctx *ctx, enum lf_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** LF_ERROR_USAGE with a printf-style message (a usage error, no argument). */
void lf_diag(struct lf_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** LF_ERROR_WARNING with a printf-style message. */
void lf_diag_warn(struct lf_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Build a message by hand (for quoted names inside it): write it to the
 * returned stream, without a final newline, then lf_diag_end() reports it.
 * One message at a time per context.
 */
FILE *lf_diag_begin(struct lf_ctx *ctx);

/**
 * Report the message written since lf_diag_begin() as an error of @kind
 * concerning @path (NULL if none) and @errnum (0 if none).
 */
void lf_diag_end(struct lf_ctx *ctx, enum lf_error_kind kind, const char *path, size_t pathlen, int errnum);

/**
 * Keep the errors of @ctx in @list, from now until lf_diag_uncollect(), instead
 * of reporting them.  Collections nest.
 */
struct lf_diag_collector {
	struct lf_error_list *list;
	lf_report_fn *prev_fn; /* private */
	void *prev_arg;        /* private */
};
void lf_diag_collect(struct lf_ctx *ctx, struct lf_diag_collector *c, struct lf_error_list *list);

/** Stop collecting: the reporter in force before comes back. */
void lf_diag_uncollect(struct lf_ctx *ctx, struct lf_diag_collector *c);

/** Free what @list holds; it is empty and usable again afterwards. */
void lf_error_list_free(struct lf_error_list *list);

#endif
