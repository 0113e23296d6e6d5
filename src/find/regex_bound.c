/*
 * regex_bound.c: the expanded size of a GNU regular expression, computed
 * from its text (regex_bound.h).
 *
 * The size of a sequence is the sum of its items'; an item is an atom (a
 * character, an escape, a bracket expression, 1) or a group (its
 * alternatives' sizes added), times the upper bound of the interval that
 * follows it ("{m,n}": n, "{m,}" and "*", "+": 2, as regcomp builds a
 * loop for an unbounded one; "?": 1 more).  Groups nest on a stack
 * bounded by the pattern's length; sizes saturate at the maximum.
 *
 * A UTF-8 sequence is one atom of its length in bytes: in a UTF-8 locale
 * regcomp repeats the whole character ("é{1,255}" is 255 copies of two
 * bytes), in the C locale only its last byte, which this over-estimates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "regex_bound.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* @a * @b, saturated at @max + 1. */
static size_t mul(size_t a, size_t b, size_t max)
{
	if (a && b > (max + 1) / a) {
		return max + 1;
	}
	return a * b;
}

static size_t add(size_t a, size_t b, size_t max)
{
	return a + b > max + 1 || a + b < a ? max + 1 : a + b;
}

/* The bytes of the UTF-8 sequence whose lead byte is at @p, up to 4. */
static size_t utf8_len(const char *p)
{
	unsigned char c = (unsigned char)*p;
	size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	size_t n = 1;
	while (n < want && ((unsigned char)p[n] & 0xc0) == 0x80) {
		n++;
	}
	return n;
}

/* The upper bound of the interval at @p ("{" already passed), and its end. */
static size_t interval(const char *p, const char **end)
{
	size_t lo = 0, hi = 0;
	bool comma = false, digits = false;
	for (; *p && *p != '}' && !(p[0] == '\\' && p[1] == '}'); p++) {
		if (*p == ',') {
			comma = true;
		} else if (*p >= '0' && *p <= '9') {
			size_t *n = comma ? &hi : &lo;
			*n = *n > 100000 ? *n : *n * 10 + (size_t)(*p - '0');
			digits = true;
		}
	}
	*end = *p == '\\' ? p + 2 : *p ? p + 1 : p;
	if (!digits) {
		return 1;
	}
	return comma ? (hi ? hi : 2) : lo;
}

bool lf_regex_bounded(const char *pattern, size_t max_size, const char **why)
{
	size_t n = strlen(pattern);
	/* Per open group: the size of its alternatives so far and of its current one. */
	struct level {
		size_t done, cur;
	} *stack = malloc((n + 2) * sizeof(*stack));
	if (!stack) {
		*why = "out of memory";
		return false;
	}
	size_t depth = 0;
	stack[0].done = stack[0].cur = 0;
	size_t last = 0; /* the size of the item just read, for a repetition after it */
	const char *p = pattern;
	bool ok = true;
	while (*p && ok) {
		bool esc = *p == '\\' && p[1];
		char c = esc ? p[1] : *p;
		const char *next = p + (esc ? 2 : 1);
		if (esc && c >= '1' && c <= '9') {
			*why = "a back-reference";
			ok = false;
			break;
		}
		if (c == '(') {
			stack[++depth].done = 0;
			stack[depth].cur = 0;
			last = 0;
		} else if (c == ')' && depth > 0) {
			last = add(stack[depth].done, stack[depth].cur, max_size);
			last = last ? last : 1;
			depth--;
			stack[depth].cur = add(stack[depth].cur, last, max_size);
		} else if (c == '|') {
			stack[depth].done = add(stack[depth].done, stack[depth].cur, max_size);
			stack[depth].cur = 0;
			last = 0;
		} else if (c == '{' || c == '*' || c == '+' || c == '?') {
			size_t times = c == '{' ? interval(next, &next) : c == '?' ? 1 : 2;
			/* The item is counted once already: add its other copies. */
			size_t more = mul(last, times ? times - 1 : 0, max_size);
			stack[depth].cur = add(stack[depth].cur, more, max_size);
			last = mul(last, times ? times : 1, max_size);
		} else if (c == '[') {
			/* A bracket expression is one atom: skip to its ']'. */
			const char *q = next;
			q += *q == '^';
			q += *q == ']';
			while (*q && *q != ']') {
				if (q[0] == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
					/* "[:alpha:]": to its ']', once; none is regcomp's error.
					 * (Searching again from each '[' was quadratic.) */
					const char *close = strchr(q + 2, ']');
					q = close ? close + 1 : q + strlen(q);
				} else {
					q++;
				}
			}
			next = *q ? q + 1 : q;
			last = 1;
			stack[depth].cur = add(stack[depth].cur, 1, max_size);
		} else {
			/* A character: its other bytes too, if it has some. */
			size_t n = utf8_len(next - 1);
			next += n - 1;
			last = n;
			stack[depth].cur = add(stack[depth].cur, n, max_size);
		}
		p = next;
		/* Only the current level grew: a group's size reaches its parent at ')'. */
		if (stack[depth].cur > max_size || stack[depth].done > max_size) {
			*why = "repetitions that expand too far";
			ok = false;
		}
	}
	free(stack);
	return ok;
}
