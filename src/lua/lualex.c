/*
 * lualex.c: long brackets, as Lua 5.4's lexer reads them.  See lualex.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "lualex.h"

int lf_lualex_long_bracket(const char *p)
{
	if (*p != '[') {
		return -1;
	}
	int level = 0;
	while (p[1 + level] == '=') {
		level++;
	}
	return p[1 + level] == '[' ? level : -1;
}

const char *lf_lualex_skip_long(const char *p, int level)
{
	for (p += level + 2; *p; p++) {
		if (*p == ']') {
			int n = 0;
			while (p[1 + n] == '=') {
				n++;
			}
			if (n == level && p[1 + n] == ']') {
				return p + n + 2;
			}
		}
	}
	return p;
}
