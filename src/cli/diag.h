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
 * Write @s (of @len bytes) to @fp quoted as GNU find quotes file names in the
 * C locale: 'name', with backslash escapes for quotes, backslashes, control
 * bytes (\n, \t, ...) and octal escapes for bytes outside printable ASCII.
 */
void lf_diag_quote(FILE *fp, const char *s, size_t len);

/** "luafind: 'path': strerror(err)" */
void lf_diag_path(const char *path, size_t len, int err);

/** "luafind: " followed by a printf-style message and a newline. */
void lf_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** "luafind: warning: " followed by a printf-style message and a newline. */
void lf_diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
