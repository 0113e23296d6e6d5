/**
 * names.h: how find shows names, modes and link targets, for -print, -ls
 * and -printf (names.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_NAMES_H
#define LF_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "walk.h"

/**
 * GNU's qmark_chars(), for names written to a terminal: each byte (or
 * multibyte character of the current locale) that cannot be displayed in
 * @buf becomes '?'.
 * @return the new length (a multibyte character shrinks to one '?')
 */
size_t lf_qmark(char *buf, size_t len);

/** gnulib's strmode(): "drwxr-xr-x " (eleven characters and a NUL). */
void lf_mode_string(uint32_t mode, char str[12]);

/**
 * Edit distance between @a (@la bytes) and @b (@lb bytes), counting an
 * adjacent transposition as one step (optimal string alignment: "szie" is
 * one from "size"), for "did you mean" suggestions.
 * @return the distance, or SIZE_MAX when either is longer than 64 bytes
 */
size_t lf_edit_distance(const char *a, size_t la, const char *b, size_t lb);

/** The target of the symbolic link @e, in a malloc'd string; NULL with errno set. */
char *lf_read_link(const struct lf_entry *e);

#endif
