/**
 * lf_glob.h (named so as not to hide the system <glob.h>): shell patterns matched the way find's -name does, with fnmatch(3).
 *
 * A pattern is analysed once: the shapes find queries use most ("*.c",
 * "Makefile", "core*", "*") are matched with a memcmp, everything else with
 * fnmatch(3) and the same flags, so both paths give fnmatch's answer.  As in
 * GNU find's -name, "*" and "?" match a leading "." unless LF_GLOB_PERIOD is
 * given, and "/" unless LF_GLOB_PATHNAME is.
 *
 * Usage:
 *
 *	struct lf_glob *g = lf_glob_compile("*.c", 0);
 *	if (g && lf_glob_match(g, name, strlen(name)))
 *		...
 *	lf_glob_free(g);
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LF_GLOB_H
#define LF_LF_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/** Flags for lf_glob_compile(). */
enum lf_glob_flags {
	LF_GLOB_CASEFOLD = 1 << 0, /**< FNM_CASEFOLD (find -iname) */
	LF_GLOB_PATHNAME = 1 << 1, /**< FNM_PATHNAME: wildcards never match "/" */
	LF_GLOB_PERIOD = 1 << 2,   /**< FNM_PERIOD: a leading "." must be matched literally */
	LF_GLOB_NOESCAPE = 1 << 3, /**< FNM_NOESCAPE: "\" is an ordinary character */
};

struct lf_glob;

/**
 * Compile @pattern (a C string, copied).
 *
 * @param flags enum lf_glob_flags
 * @return the pattern (free it with lf_glob_free()), or NULL with errno set
 *         (EINVAL for unknown flags, ENOMEM)
 */
struct lf_glob *lf_glob_compile(const char *pattern, unsigned flags);

/**
 * Whether @name matches.  @name must be NUL-terminated at name[len]; as with
 * fnmatch(3), a NUL byte inside it ends the comparison there.
 */
bool lf_glob_match(const struct lf_glob *g, const char *name, size_t len);

/** Free @g (NULL is fine). */
void lf_glob_free(struct lf_glob *g);

#endif
