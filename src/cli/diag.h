/**
 * diag.h: messages on stderr in find's form ("luafind: 'path': reason").
 */
#ifndef LF_DIAG_H
#define LF_DIAG_H

#include <stddef.h>
#include <stdio.h>

/** The program name used as the prefix of every message. */
extern const char *lf_progname;

/**
 * Write @s (of @len bytes) to @fp quoted for a shell, as GNU find quotes file
 * names in messages: 'name', with control bytes, quotes and bytes outside
 * ASCII written as $'\n' escapes.
 */
void lf_diag_quote(FILE *fp, const char *s, size_t len);

/** "luafind: 'path': strerror(err)" */
void lf_diag_path(const char *path, size_t len, int err);

/** "luafind: " followed by a printf-style message and a newline. */
void lf_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** "luafind: warning: " followed by a printf-style message and a newline. */
void lf_diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
