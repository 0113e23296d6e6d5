/*
 * wildmatch.c: shell patterns as git matches them (its wildmatch.c), for
 * gitignore.c.  fnmatch(3) cannot stand in: it has no "**", and git's
 * brackets also take "^" for negation and never match "/" in a path.
 *
 * The two abort codes keep backtracking linear in practice: once the text
 * is exhausted no later "*" can help (ABORT_ALL), and a single "*" that
 * met a "/" hands back to the nearest "**" (ABORT_TO_STARSTAR).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gitignore.h"

#include <stdbool.h>
#include <string.h>

enum {
	WM_MATCH = 0,
	WM_NOMATCH = 1,
	WM_ABORT_ALL = -1,
	WM_ABORT_TO_STARSTAR = -2,
};

typedef unsigned char uchar;

static bool is_upper(uchar c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_lower(uchar c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_digit(uchar c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(uchar c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_print(uchar c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Whether @c is in the class named s[0, len) ("alpha"...); -1: no such class. */
static int in_class(const uchar *s, size_t len, uchar c)
{
#define CLASS(name) (len == sizeof(name) - 1 && memcmp(s, name, len) == 0)
	bool alpha = is_upper(c) || is_lower(c);
	if (CLASS("alnum")) {
		return alpha || is_digit(c);
	} else if (CLASS("alpha")) {
		return alpha;
	} else if (CLASS("blank")) {
		return c == ' ' || c == '\t';
	} else if (CLASS("cntrl")) {
		return c < 0x20 || c == 0x7f;
	} else if (CLASS("digit")) {
		return is_digit(c);
	} else if (CLASS("graph")) {
		return is_print(c) && c != ' ';
	} else if (CLASS("lower")) {
		return is_lower(c);
	} else if (CLASS("print")) {
		return is_print(c);
	} else if (CLASS("punct")) {
		return is_print(c) && c != ' ' && !alpha && !is_digit(c);
	} else if (CLASS("space")) {
		return is_space(c);
	} else if (CLASS("upper")) {
		return is_upper(c);
	} else if (CLASS("xdigit")) {
		return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
	}
	return -1;
#undef CLASS
}

/*
 * A bracket expression at *pp (just past "["), against @t.  Leaves *pp on
 * its closing "]".  WM_MATCH, WM_NOMATCH or WM_ABORT_ALL (malformed).
 */
static int match_bracket(const uchar **pp, uchar t, bool pathname)
{
	const uchar *p = *pp;
	uchar p_ch = *p;
	if (p_ch == '^') {
		p_ch = '!';
	}
	bool negated = p_ch == '!';
	if (negated) {
		p_ch = *++p;
	}
	uchar prev = 0;
	bool matched = false;
	do {
		if (!p_ch) {
			return WM_ABORT_ALL;
		}
		if (p_ch == '\\') {
			p_ch = *++p;
			if (!p_ch) {
				return WM_ABORT_ALL;
			}
			matched |= t == p_ch;
		} else if (p_ch == '-' && prev && p[1] && p[1] != ']') {
			p_ch = *++p;
			if (p_ch == '\\') {
				p_ch = *++p;
				if (!p_ch) {
					return WM_ABORT_ALL;
				}
			}
			matched |= t <= p_ch && t >= prev;
			p_ch = 0; /* a range does not start another */
		} else if (p_ch == '[' && p[1] == ':') {
			const uchar *s = p += 2;
			while ((p_ch = *p) && p_ch != ']') {
				p++;
			}
			if (!p_ch) {
				return WM_ABORT_ALL;
			}
			if (p - s < 1 || p[-1] != ':') {
				/* No ":]": an ordinary "[" in the set. */
				p = s - 2;
				p_ch = '[';
				matched |= t == p_ch;
				continue;
			}
			int in = in_class(s, (size_t)(p - s - 1), t);
			if (in < 0) {
				return WM_ABORT_ALL;
			}
			matched |= in == 1;
			p_ch = 0;
		} else {
			matched |= t == p_ch;
		}
	} while (prev = p_ch, (p_ch = *++p) != ']');
	*pp = p;
	return matched == negated || (pathname && t == '/') ? WM_NOMATCH : WM_MATCH;
}

static int dowild(const uchar *p, const uchar *text, bool pathname, const uchar *start)
{
	for (uchar p_ch; (p_ch = *p) != '\0'; text++, p++) {
		uchar t_ch = *text;
		if (t_ch == '\0' && p_ch != '*') {
			return WM_ABORT_ALL;
		}
		switch (p_ch) {
		case '\\':
			/* A trailing "\" compares with NUL and fails below. */
			p_ch = *++p;
			if (t_ch != p_ch) {
				return WM_NOMATCH;
			}
			continue;
		case '?':
			if (pathname && t_ch == '/') {
				return WM_NOMATCH;
			}
			continue;
		case '[': {
			p++;
			int r = match_bracket(&p, t_ch, pathname);
			if (r != WM_MATCH) {
				return r;
			}
			continue;
		}
		case '*':
			break;
		default:
			if (t_ch != p_ch) {
				return WM_NOMATCH;
			}
			continue;
		}

		bool match_slash;
		if (*++p == '*') {
			const uchar *prev = p - 2;
			while (*++p == '*') {
			}
			/* "**" as a whole path component matches across slashes. */
			if ((prev < start || *prev == '/') && (*p == '\0' || *p == '/' || (p[0] == '\\' && p[1] == '/'))) {
				if (p[0] == '/' && dowild(p + 1, text, pathname, start) == WM_MATCH) {
					return WM_MATCH; /* "a/<starstar>/b": no directory between */
				}
				match_slash = true;
			} else {
				match_slash = !pathname;
			}
		} else {
			match_slash = !pathname;
		}
		if (*p == '\0') {
			return match_slash || !strchr((const char *)text, '/') ? WM_MATCH : WM_NOMATCH;
		}
		for (;; t_ch = *++text) {
			if (t_ch == '\0') {
				return WM_ABORT_ALL;
			}
			if (*p != '*' && *p != '?' && *p != '[' && *p != '\\') {
				/* A literal next: what comes before its next occurrence
				 * (before the next "/" for a single "*") is the star's. */
				if (match_slash) {
					text = (const uchar *)strchr((const char *)text, *p);
					if (!text) {
						return WM_NOMATCH;
					}
					t_ch = *text;
				} else {
					while ((t_ch = *text) != '\0' && t_ch != '/' && t_ch != *p) {
						text++;
					}
					if (t_ch != *p) {
						return WM_NOMATCH;
					}
				}
			}
			int r = dowild(p, text, pathname, start);
			if (r != WM_NOMATCH) {
				if (!match_slash || r != WM_ABORT_TO_STARSTAR) {
					return r;
				}
			} else if (!match_slash && t_ch == '/') {
				return WM_ABORT_TO_STARSTAR;
			}
		}
	}
	return *text ? WM_NOMATCH : WM_MATCH;
}

bool lf_wildmatch(const char *pattern, const char *text, bool pathname)
{
	const uchar *p = (const uchar *)pattern;
	return dowild(p, (const uchar *)text, pathname, p) == WM_MATCH;
}
