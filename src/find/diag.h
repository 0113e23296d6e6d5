/**
 * diag.h: messages in find's form ("luafind: 'path': reason").
 *
 * Messages go where the context says (ctx.h: stderr unless a host sends
 * them elsewhere), prefixed with the context's program name.  A caller
 * below the command line (the Lua binding's luafind.find) captures them
 * into a buffer with lf_diag_capture(), to return them instead of printing
 * them.  Each context has its own sink, so two contexts in two threads do
 * not see each other's messages.
 */
#ifndef LF_DIAG_H
#define LF_DIAG_H

#include <stddef.h>
#include <stdio.h>

#include "ctx.h"

/**
 * Write @s (of @len bytes) to @fp quoted as GNU find quotes file names in the
 * C locale: 'name', with backslash escapes for quotes, backslashes, control
 * bytes (\n, \t, ...) and octal escapes for bytes outside printable ASCII.
 */
void lf_diag_quote(FILE *fp, const char *s, size_t len);

/** Where messages of @ctx go now: stderr, or the stream of a capture. */
FILE *lf_diag_stream(const struct lf_ctx *ctx);

/**
 * Send messages to @fp from now on (NULL: stderr again), for a caller that
 * keeps its own stream (open_memstream) across many short captures.
 * @return the stream in force before (NULL for stderr), to restore
 */
FILE *lf_diag_redirect(struct lf_ctx *ctx, FILE *fp);

/**
 * @s quoted as lf_diag_quote() does, in a new string (free it), or NULL on
 * ENOMEM.
 */
char *lf_diag_quoted(const char *s);

/** "luafind: 'path': strerror(err)" */
void lf_diag_path(struct lf_ctx *ctx, const char *path, size_t len, int err);

/** "luafind: " followed by a printf-style message and a newline. */
void lf_diag(struct lf_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** "luafind: warning: " followed by a printf-style message and a newline. */
void lf_diag_warn(struct lf_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Start a message of @ctx by hand: writes "luafind: " to the stream of
 * messages and returns that stream, for the caller to finish the line.
 */
FILE *lf_diag_begin(struct lf_ctx *ctx);

/**
 * A capture of messages: between lf_diag_capture() and lf_diag_release(),
 * everything lf_diag_stream() receives (lf_diag, lf_diag_warn, lf_diag_path,
 * the parser's errors) goes into a buffer instead of stderr.  Captures
 * nest: release restores the sink that was in force.  What is not a
 * message (the prompt of -ok, a command's own output) is not captured.
 */
struct lf_diag_capture {
	char *data;  /**< the messages, NUL-terminated, after release; free() it */
	size_t len;
	FILE *fp;    /* private */
	FILE *prev;  /* private */
};

/**
 * Start capturing.
 * @return 0, or -1 with errno set (ENOMEM); messages then still go to the
 *         current sink, and lf_diag_release() is still to be called
 */
int lf_diag_capture(struct lf_ctx *ctx, struct lf_diag_capture *c);

/**
 * Stop capturing: c->data and c->len hold what was written (c->data may be
 * NULL if the capture could not start or ran out of memory).
 */
void lf_diag_release(struct lf_ctx *ctx, struct lf_diag_capture *c);

#endif
