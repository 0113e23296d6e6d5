/*
 * ulocale.c: what the user's locale is (ulocale.h).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "ulocale.h"

#include <langinfo.h>
#include <string.h>
#include <strings.h>

bool lf_ulocale_is_utf8(locale_t loc)
{
	return loc && strcmp(nl_langinfo_l(CODESET, loc), "UTF-8") == 0;
}

bool lf_ulocale_is_c_utf8(locale_t loc, int category)
{
	const char *name = nl_langinfo_l(_NL_LOCALE_NAME(category), loc);
	return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strcasecmp(name, "C.UTF-8") == 0 ||
	       strcasecmp(name, "C.utf8") == 0;
}

bool lf_ulocale_ascii(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s >= 0x80) {
			return false;
		}
	}
	return true;
}

bool lf_ulocale_ascii_is_c(locale_t loc)
{
	return !loc || (lf_ulocale_is_c_utf8(loc, LC_CTYPE) && lf_ulocale_is_c_utf8(loc, LC_COLLATE));
}
