/*
 * statx.h: how stat.c asks statx(2), for the core's other callers of it
 * (ring.c makes the call through io_uring), and its conversions of the
 * kernel's structures (walk_record.c converts a host's).  Private to the
 * core, not installed: stat.h is public.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_STATX_H
#define LF_STATX_H

#include "stat.h"

struct statx;

/**
 * What statx(2) returns, as struct lf_stat, for a call made with the mask
 * lf_stat_mask() gives and AT_STATX_SYNC_AS_STAT.
 */
void lf_stat_from_statx(const struct statx *sx, struct lf_stat *st);

struct stat;

/** What fstatat(2) returns, as struct lf_stat (no birth time). */
void lf_stat_from_stat(const struct stat *sb, struct lf_stat *st);

/** The statx(2) mask luafind asks for: the basic stats and the birth time. */
unsigned lf_stat_mask(void);

#endif
