/*
 * glob.c: fnmatch(3) behind a compiled pattern with literal fast paths.
 *
 * The fast paths only apply when the literal part has no wildcard, bracket
 * or backslash and the flags cannot change the answer (no case folding, and
 * with LF_GLOB_PERIOD only when the pattern cannot match a leading "." by a
 * wildcard), so they agree with fnmatch byte for byte.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lf_glob.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

enum shape {
	SHAPE_FNMATCH = 0,
	SHAPE_ANY,     /* "*" */
	SHAPE_EXACT,   /* "lit" */
	SHAPE_SUFFIX,  /* "*lit" */
	SHAPE_PREFIX,  /* "lit*" */
};

struct lf_glob {
	enum shape shape;
	int fnm_flags;
	size_t litlen;
	const char *lit; /* into pattern */
	char pattern[];
};

static bool is_plain(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\') {
			return false;
		}
	}
	return true;
}

struct lf_glob *lf_glob_compile(const char *pattern, unsigned flags)
{
	const unsigned known = LF_GLOB_CASEFOLD | LF_GLOB_PATHNAME | LF_GLOB_PERIOD | LF_GLOB_NOESCAPE;
	if (flags & ~known) {
		errno = EINVAL;
		return NULL;
	}
	size_t len = strlen(pattern);
	struct lf_glob *g = malloc(sizeof(*g) + len + 1);
	if (!g) {
		return NULL;
	}
	memcpy(g->pattern, pattern, len + 1);
	g->fnm_flags = ((flags & LF_GLOB_CASEFOLD) ? FNM_CASEFOLD : 0) |
		       ((flags & LF_GLOB_PATHNAME) ? FNM_PATHNAME : 0) |
		       ((flags & LF_GLOB_PERIOD) ? FNM_PERIOD : 0) |
		       ((flags & LF_GLOB_NOESCAPE) ? FNM_NOESCAPE : 0);
	g->shape = SHAPE_FNMATCH;
	g->lit = g->pattern;
	g->litlen = len;

	/* A leading "*" under FNM_PERIOD or "/" under FNM_PATHNAME needs fnmatch. */
	bool fast = !(flags & (LF_GLOB_CASEFOLD | LF_GLOB_PERIOD | LF_GLOB_PATHNAME));
	if (fast && strcmp(pattern, "*") == 0) {
		g->shape = SHAPE_ANY;
	} else if (fast && is_plain(pattern, len)) {
		g->shape = SHAPE_EXACT;
	} else if (fast && len > 1 && pattern[0] == '*' && is_plain(pattern + 1, len - 1)) {
		g->shape = SHAPE_SUFFIX;
		g->lit = g->pattern + 1;
		g->litlen = len - 1;
	} else if (fast && len > 1 && pattern[len - 1] == '*' && is_plain(pattern, len - 1)) {
		g->shape = SHAPE_PREFIX;
		g->litlen = len - 1;
	}
	return g;
}

bool lf_glob_match(const struct lf_glob *g, const char *name, size_t len)
{
	/* fnmatch sees a C string: so must the fast paths. */
	size_t n = strnlen(name, len);
	switch (g->shape) {
	case SHAPE_ANY:
		return true;
	case SHAPE_EXACT:
		return n == g->litlen && memcmp(name, g->lit, n) == 0;
	case SHAPE_SUFFIX:
		return n >= g->litlen && memcmp(name + n - g->litlen, g->lit, g->litlen) == 0;
	case SHAPE_PREFIX:
		return n >= g->litlen && memcmp(name, g->lit, g->litlen) == 0;
	case SHAPE_FNMATCH:
		break;
	}
	return fnmatch(g->pattern, name, g->fnm_flags) == 0;
}

void lf_glob_free(struct lf_glob *g)
{
	free(g);
}
