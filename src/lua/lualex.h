/*
 * lualex.h: the pieces of Lua 5.4's lexer that the executable's scans of
 * -lua source share (lfcli.c finds the names an expression uses, lfplan.c
 * reads the expressions it evaluates in C): long brackets, whose contents
 * are never code.  Not installed.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LUALEX_H
#define LF_LUALEX_H

/** The level of a long bracket opening at @p ("[[" 0, "[==[" 2), or -1. */
int lf_lualex_long_bracket(const char *p);

/**
 * Past the long string or comment of @level whose bracket opens at @p, or
 * at the end of the string if it is never closed.
 */
const char *lf_lualex_skip_long(const char *p, int level);

#endif
