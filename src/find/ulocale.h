/*
 * ulocale.h: the user's locale (lf_ctx.user_locale, from the environment)
 * for what find matches or prints in it, while the process itself stays
 * in the C locale: switched to per thread around the call (uselocale), and
 * what a pattern needs of it decided once, when it is parsed.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_ULOCALE_H
#define LF_ULOCALE_H

#include <locale.h>
#include <stdbool.h>

/** Switch this thread to @loc (0: stay where it is); give the result to lf_ulocale_leave(). */
static inline locale_t lf_ulocale_enter(locale_t loc)
{
	return loc ? uselocale(loc) : (locale_t)0;
}

/** Switch this thread back to @old, what lf_ulocale_enter() returned. */
static inline void lf_ulocale_leave(locale_t old)
{
	if (old) {
		uselocale(old);
	}
}

/** Whether @loc (0: none) encodes characters in UTF-8. */
bool lf_ulocale_is_utf8(locale_t loc);

/** Whether @loc's @category (LC_CTYPE, LC_COLLATE) is glibc's C.UTF-8, or C. */
bool lf_ulocale_is_c_utf8(locale_t loc, int category);

/** Whether @s (a C string) is ASCII only. */
bool lf_ulocale_ascii(const char *s);

/**
 * Whether a shell pattern (fnmatch) or a GNU regular expression of ASCII
 * only matches an ASCII subject in the C locale exactly as in @loc: in C
 * and POSIX, and in C.UTF-8, whose classes, cases and collation are C's on
 * ASCII.  Other locales may collate ranges or fold cases their own way.
 */
bool lf_ulocale_ascii_is_c(locale_t loc);

#endif
