/*
 * pattern_cost.c: what a Lua pattern search will cost, counted before it
 * runs, for the sandbox (lbind.h's lfb_pattern_cost).
 *
 * Lua's string.find, match, gmatch and gsub run in C, where no count hook
 * reaches: a pattern such as ("a*"):rep(12) .. "b" over 2,000 bytes
 * backtracks for hours in one call.  This file walks the pattern over the
 * subject the way Lua's matcher does (backtracking over '*', '+', '-' and
 * '?', captures, back-references, %b, %f; the search from each start, and
 * gmatch's and gsub's iteration), counting a step for every character
 * tested and every item entered, and gives up once the count passes a
 * limit.  It finds the same matches as Lua, so it makes the same attempts:
 * the count is the real function's work, to within a small factor.  It
 * only counts; Lua's own function then does the search and makes its
 * errors (a malformed pattern stops the count where Lua would raise).
 *
 * SPDX-License-Identifier: MIT
 */
#include "lbind.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_CAPTURES 32 /* LUA_MAXCAPTURES */
#define MAX_DEPTH 200   /* Lua's MAXCCALLS: deeper, Lua raises "pattern too complex" */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)

struct matcher {
	const char *s0, *s_end; /* the subject */
	const char *p_end;      /* the pattern's end */
	uint64_t steps, limit;
	bool stop;              /* over the limit, or a malformed pattern */
	int depth;
	int ncap;
	struct {
		const char *at;
		ptrdiff_t len;
	} cap[MAX_CAPTURES];
};

static bool count(struct matcher *m, uint64_t n)
{
	m->steps += n;
	if (m->steps > m->limit) {
		m->stop = true;
	}
	return !m->stop;
}

/* The end of the single-character item at @p (a class, a set, one character). */
static const char *item_end(struct matcher *m, const char *p)
{
	if (*p == '%') {
		if (p + 1 >= m->p_end) {
			m->stop = true; /* "malformed pattern (ends with '%')" */
			return m->p_end;
		}
		return p + 2;
	}
	if (*p == '[') {
		p++;
		if (p < m->p_end && *p == '^') {
			p++;
		}
		do { /* the first character is part of the set, even a ']' */
			if (p >= m->p_end) {
				m->stop = true; /* "malformed pattern (missing ']')" */
				return m->p_end;
			}
			if (*p++ == '%' && p < m->p_end) {
				p++;
			}
		} while (p >= m->p_end || *p != ']');
		return p + 1;
	}
	return p + 1;
}

static bool in_class(unsigned char c, unsigned char cl)
{
	bool r;
	switch (cl | 0x20) {
	case 'a': r = (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; break;
	case 'c': r = c < 32 || c == 127; break;
	case 'd': r = c >= '0' && c <= '9'; break;
	case 'g': r = c > 32 && c < 127; break;
	case 'l': r = c >= 'a' && c <= 'z'; break;
	case 'p': r = c > 32 && c < 127 && !in_class(c, 'w'); break;
	case 's': r = c == ' ' || (c >= '\t' && c <= '\r'); break;
	case 'u': r = c >= 'A' && c <= 'Z'; break;
	case 'w': r = in_class(c, 'a') || in_class(c, 'd'); break;
	case 'x': r = in_class(c, 'd') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); break;
	default: return cl == c;
	}
	return (cl >= 'A' && cl <= 'Z') ? !r : r;
}

/* Whether @c is in the set [@p .. @ep), @ep at its ']'. */
static bool in_set(unsigned char c, const char *p, const char *ep)
{
	bool neg = false;
	if (*++p == '^') {
		neg = true;
		p++;
	}
	while (p < ep) {
		if (*p == '%' && p + 1 < ep) {
			p++;
			if (in_class(c, (unsigned char)*p)) {
				return !neg;
			}
			p++;
		} else if (p + 2 < ep && p[1] == '-') {
			if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) {
				return !neg;
			}
			p += 3;
		} else if ((unsigned char)*p++ == c) {
			return !neg;
		}
	}
	return neg;
}

static bool single(struct matcher *m, const char *s, const char *p, const char *ep)
{
	/* A set is scanned whole by each test: it costs its length. */
	if (s >= m->s_end || !count(m, *p == '[' ? (uint64_t)(ep - p) : 1)) {
		return false;
	}
	unsigned char c = (unsigned char)*s;
	switch (*p) {
	case '.': return true;
	case '%': return in_class(c, (unsigned char)p[1]);
	case '[': return in_set(c, p, ep - 1);
	default: return (unsigned char)*p == c;
	}
}

static const char *match(struct matcher *m, const char *s, const char *p);

static const char *expand_max(struct matcher *m, const char *s, const char *p, const char *ep)
{
	ptrdiff_t i = 0;
	while (single(m, s + i, p, ep)) {
		i++;
	}
	for (; i >= 0 && !m->stop; i--) {
		const char *r = match(m, s + i, ep + 1);
		if (r) {
			return r;
		}
	}
	return NULL;
}

static const char *expand_min(struct matcher *m, const char *s, const char *p, const char *ep)
{
	while (!m->stop) {
		const char *r = match(m, s, ep + 1);
		if (r) {
			return r;
		}
		if (!single(m, s, p, ep)) {
			return NULL;
		}
		s++;
	}
	return NULL;
}

static const char *capture_start(struct matcher *m, const char *s, const char *p, ptrdiff_t what)
{
	if (m->ncap >= MAX_CAPTURES) {
		m->stop = true; /* "too many captures" */
		return NULL;
	}
	m->cap[m->ncap].at = s;
	m->cap[m->ncap].len = what;
	m->ncap++;
	const char *r = match(m, s, p);
	if (!r) {
		m->ncap--;
	}
	return r;
}

static const char *capture_end(struct matcher *m, const char *s, const char *p)
{
	int l = m->ncap - 1;
	while (l >= 0 && m->cap[l].len != CAP_UNFINISHED) {
		l--;
	}
	if (l < 0) {
		m->stop = true; /* "invalid pattern capture" */
		return NULL;
	}
	m->cap[l].len = s - m->cap[l].at;
	const char *r = match(m, s, p);
	if (!r) {
		m->cap[l].len = CAP_UNFINISHED;
	}
	return r;
}

static const char *balance(struct matcher *m, const char *s, const char *p)
{
	if (p + 1 >= m->p_end) {
		m->stop = true; /* "missing arguments to '%b'" */
		return NULL;
	}
	if (s >= m->s_end || *s != p[0]) {
		count(m, 1);
		return NULL;
	}
	int open = 1;
	while (++s < m->s_end && count(m, 1)) {
		if (*s == p[1]) {
			if (--open == 0) {
				return s + 1;
			}
		} else if (*s == p[0]) {
			open++;
		}
	}
	return NULL;
}

static const char *backref(struct matcher *m, const char *s, int l)
{
	l -= '1';
	if (l < 0 || l >= m->ncap || m->cap[l].len == CAP_UNFINISHED) {
		m->stop = true; /* "invalid capture index" */
		return NULL;
	}
	size_t len = m->cap[l].len == CAP_POSITION ? 0 : (size_t)m->cap[l].len;
	if (!count(m, len + 1)) {
		return NULL;
	}
	if ((size_t)(m->s_end - s) >= len && memcmp(m->cap[l].at, s, len) == 0) {
		return s + len;
	}
	return NULL;
}

static const char *match(struct matcher *m, const char *s, const char *p)
{
	if (++m->depth > MAX_DEPTH) {
		m->stop = true; /* Lua: "pattern too complex" */
		return NULL;
	}
	const char *r = NULL;
	while (!m->stop && count(m, 1)) {
		if (p == m->p_end) {
			r = s;
			break;
		}
		if (*p == '(') {
			r = p + 1 < m->p_end && p[1] == ')' ? capture_start(m, s, p + 2, CAP_POSITION)
							 : capture_start(m, s, p + 1, CAP_UNFINISHED);
			break;
		}
		if (*p == ')') {
			r = capture_end(m, s, p + 1);
			break;
		}
		if (*p == '$' && p + 1 == m->p_end) {
			r = s == m->s_end ? s : NULL;
			break;
		}
		if (*p == '%' && p + 1 < m->p_end && p[1] == 'b') {
			s = balance(m, s, p + 2);
			if (!s) {
				break;
			}
			p += 4;
			continue;
		}
		if (*p == '%' && p + 1 < m->p_end && p[1] == 'f') {
			p += 2;
			if (p >= m->p_end || *p != '[') {
				m->stop = true; /* "missing '[' after '%f' in pattern" */
				break;
			}
			const char *ep = item_end(m, p);
			if (m->stop) {
				break;
			}
			unsigned char prev = s == m->s0 ? '\0' : (unsigned char)s[-1];
			unsigned char cur = s < m->s_end ? (unsigned char)*s : '\0';
			if (!count(m, 2 * (uint64_t)(ep - p)) || in_set(prev, p, ep - 1) || !in_set(cur, p, ep - 1)) {
				break;
			}
			p = ep;
			continue;
		}
		if (*p == '%' && p + 1 < m->p_end && p[1] >= '0' && p[1] <= '9') {
			s = backref(m, s, p[1]);
			if (!s) {
				break;
			}
			p += 2;
			continue;
		}
		const char *ep = item_end(m, p);
		if (m->stop) {
			break;
		}
		char q = ep < m->p_end ? *ep : '\0';
		if (!single(m, s, p, ep)) {
			if (q == '*' || q == '?' || q == '-') {
				p = ep + 1; /* zero of them: go on */
				continue;
			}
			break;
		}
		if (q == '?') {
			r = match(m, s + 1, ep + 1);
			if (r || m->stop) {
				break;
			}
			p = ep + 1;
			continue;
		}
		if (q == '+' || q == '*') {
			r = expand_max(m, q == '+' ? s + 1 : s, p, ep);
			break;
		}
		if (q == '-') {
			r = expand_min(m, s, p, ep);
			break;
		}
		s++;
		p = ep;
	}
	m->depth--;
	return m->stop ? NULL : r;
}

bool lfb_pattern_cost(const char *s, size_t len, const char *p, size_t plen, size_t init, enum lfb_pattern_op op,
		      uint64_t limit, uint64_t *steps)
{
	struct matcher m = {.s0 = s, .s_end = s + len, .limit = limit};
	bool anchor = op != LFB_PATTERN_GMATCH && plen > 0 && *p == '^';
	if (anchor) {
		p++;
		plen--;
	}
	m.p_end = p + plen;
	const char *src = s + (init < len ? init : len);
	const char *last = NULL;
	for (;;) {
		m.ncap = 0;
		m.depth = 0;
		const char *e = match(&m, src, p);
		if (m.stop) {
			break;
		}
		if (e && op == LFB_PATTERN_FIND) {
			break; /* find and match: the first match ends the search */
		}
		if (e && e != last) {
			src = last = e; /* gmatch and gsub go on after it */
		} else if (src < m.s_end) {
			src++;
		} else {
			break;
		}
		if (anchor) {
			break;
		}
	}
	*steps = m.steps;
	return m.steps <= limit;
}
