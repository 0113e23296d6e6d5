/**
 * diag.h: messages in find's form ("luafind: 'path': reason").
 *
 * Messages go to stderr, unless a caller below the command line (the Lua
 * binding's luafind.find) captures them into a buffer with
 * lf_diag_capture(), to return them instead of printing them.  The sink is
 * one per process: capture only around code that runs to completion (a
 * parse, the evaluation of one entry), and never across threads.
 */
#ifndef LF_DIAG_H
#define LF_DIAG_H

#include <stddef.h>
#include <stdio.h>

/** The program name used as the prefix of every message. */
extern const char *lf_progname;

/**
 * Write @s (of @len bytes) to @fp quoted as GNU find quotes file names in the
 * C locale: 'name', with backslash escapes for quotes, backslashes, control
 * bytes (\n, \t, ...) and octal escapes for bytes outside printable ASCII.
 */
void lf_diag_quote(FILE *fp, const char *s, size_t len);

/** Where messages go now: stderr, or the stream of a capture. */
FILE *lf_diag_stream(void);

/**
 * Send messages to @fp from now on (NULL: stderr again), for a caller that
 * keeps its own stream (open_memstream) across many short captures.
 * @return the stream in force before (NULL for stderr), to restore
 */
FILE *lf_diag_redirect(FILE *fp);

/**
 * @s quoted as lf_diag_quote() does, in a new string (free it), or NULL on
 * ENOMEM.
 */
char *lf_diag_quoted(const char *s);

/** "luafind: 'path': strerror(err)" */
void lf_diag_path(const char *path, size_t len, int err);

/** "luafind: " followed by a printf-style message and a newline. */
void lf_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** "luafind: warning: " followed by a printf-style message and a newline. */
void lf_diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * A capture of messages: between lf_diag_capture() and lf_diag_release(),
 * everything lf_diag_stream() receives (lf_diag, lf_diag_warn, lf_diag_path,
 * the parser's errors) goes into a buffer instead of stderr.  Captures
 * nest: release restores the sink that was in force.  Code that writes to
 * stderr itself (some actions' runtime messages) is not captured.
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
int lf_diag_capture(struct lf_diag_capture *c);

/**
 * Stop capturing: c->data and c->len hold what was written (c->data may be
 * NULL if the capture could not start or ran out of memory).
 */
void lf_diag_release(struct lf_diag_capture *c);

#endif
