/**
 * lf_regex.h (named so as not to hide the system <regex.h>): the regular expression facade of the core (PCRE2, 8-bit, with JIT).
 *
 * Only regex.c includes pcre2.h: struct lf_regex is opaque.  A pattern is
 * compiled once, JIT-compiled when the platform allows, and owns one match
 * data block that every lf_regex_exec() call reuses, so matching allocates
 * nothing.  Subjects are bytes: file names need not be UTF-8, and even with
 * LF_REGEX_UTF an invalid sequence simply cannot be part of a match
 * (PCRE2_MATCH_INVALID_UTF), it is never an error.
 *
 * Usage:
 *
 *	char msg[128];
 *	size_t off;
 *	struct lf_regex *re = lf_regex_compile("\\.(c|h)$", 8, 0, msg, sizeof(msg), &off);
 *	if (!re)
 *		... errno is EINVAL (msg and off say why) or ENOMEM ...
 *	if (lf_regex_exec(re, name, strlen(name), 0, 0) > 0)
 *		... lf_regex_ovector(re)[2], [3]: the first group ...
 *	lf_regex_free(re);
 *
 * A struct lf_regex is not thread-safe (the match data is shared).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LF_REGEX_H
#define LF_LF_REGEX_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

/** Compile flags for lf_regex_compile(). */
enum lf_regex_flags {
	LF_REGEX_CASELESS = 1 << 0,  /**< "i": PCRE2_CASELESS */
	LF_REGEX_EXTENDED = 1 << 1,  /**< "x": PCRE2_EXTENDED */
	LF_REGEX_DOTALL = 1 << 2,    /**< "s": PCRE2_DOTALL */
	LF_REGEX_MULTILINE = 1 << 3, /**< "m": PCRE2_MULTILINE */
	/** "u": PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF */
	LF_REGEX_UTF = 1 << 4,
};

/** Match flags for lf_regex_exec(). */
enum lf_regex_match_flags {
	/** An empty match at the start offset does not count (for iteration). */
	LF_REGEX_NOTEMPTY_ATSTART = 1 << 0,
};

/** An offset in lf_regex_ovector() for a group that did not take part. */
#define LF_REGEX_UNSET SIZE_MAX

struct lf_regex;

/**
 * Compile a pattern.
 *
 * @param pattern the pattern, @len bytes (it may contain NUL bytes)
 * @param flags   enum lf_regex_flags
 * @param errmsg  on a pattern error, receives PCRE2's message (may be NULL)
 * @param erroff  on a pattern error, receives the offset in the pattern
 *                where it was detected (may be NULL)
 * @return the compiled pattern (free it with lf_regex_free()), or NULL with
 *         errno set: EINVAL for a bad pattern or flags, EILSEQ when
 *         LF_REGEX_UTF is given and the pattern is not valid UTF-8 (errmsg
 *         and erroff say where, as for EINVAL), ENOMEM
 */
struct lf_regex *lf_regex_compile(const char *pattern, size_t len, unsigned flags,
				  char *errmsg, size_t errlen, size_t *erroff);

/**
 * lf_regex_compile() under the memory account @mem (NULL: none): the
 * compiled code, its JIT code (PCRE2_INFO_JITSIZE), its match data and
 * what matching allocates (the interpreter's heap frames, when JIT is not
 * available) are charged to @mem until lf_regex_free(); a refused charge
 * fails the compile, or the match, with ENOMEM.  @mem is copied; its data
 * must outlive the regex.
 */
struct lf_regex *lf_regex_compile_mem(const char *pattern, size_t len, unsigned flags, const struct lf_mem *mem,
				      char *errmsg, size_t errlen, size_t *erroff);

/** Free @re (NULL is fine). */
void lf_regex_free(struct lf_regex *re);

/** The number of capture groups of @re (not counting the whole match). */
size_t lf_regex_groups(const struct lf_regex *re);

/**
 * Search @subject (@len bytes) for the first match at or after @start.
 *
 * @param flags enum lf_regex_match_flags
 * @return 1 on a match (see lf_regex_ovector()), 0 if there is none, or -1
 *         on a matching failure (a resource limit, an invalid start offset),
 *         with errno set to EINVAL (ENOMEM when memory ran out, or its
 *         account refused it) and lf_regex_error() describing it
 */
int lf_regex_exec(struct lf_regex *re, const char *subject, size_t len, size_t start,
		  unsigned flags);

/**
 * Offsets of the last successful match: element 2*i is where group i starts
 * and 2*i+1 where it ends (group 0 is the whole match), for i from 0 to
 * lf_regex_groups(); both are LF_REGEX_UNSET for a group that did not take
 * part.  Valid until the next lf_regex_exec() or lf_regex_free() on @re.
 */
const size_t *lf_regex_ovector(const struct lf_regex *re);

/**
 * The message for the last failure of lf_regex_exec() on @re, valid until
 * the next call on @re.
 */
const char *lf_regex_error(struct lf_regex *re);

#endif
