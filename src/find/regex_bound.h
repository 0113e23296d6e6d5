/**
 * regex_bound.h: what a GNU regular expression costs, judged before
 * regcomp() takes it, for contexts that run strangers' expressions (a
 * sandbox's luafind.find).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_REGEX_BOUND_H
#define LF_REGEX_BOUND_H

#include <stdbool.h>
#include <stddef.h>

/**
 * Whether @pattern, in any of find's GNU regex syntaxes, stays within
 * @max_size once its repetitions are expanded ("(a{1,255}){1,255}" is
 * 65,025 copies of "a": glibc's regcomp builds them all, gigabytes for a
 * few more levels) and has no back-reference (which makes matching
 * exponential).  Both spellings of groups and intervals count, "(" and
 * "\(", "{" and "\{", whatever the syntax: an over-estimate at worst.
 *
 * @param why set to the reason when it does not
 */
bool lf_regex_bounded(const char *pattern, size_t max_size, const char **why);

#endif
