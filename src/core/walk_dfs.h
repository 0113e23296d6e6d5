/*
 * walk_dfs.h: the internal interface between the depth-first engine's
 * files.  Not installed.
 *
 *   walk_dfs.c        the walk: frames, regions, visits, reopening
 *   walk_dfs_ioq.c    the I/O queue's read-ahead of a frame's subdirectories
 *   walk_dfs_spill.c  spills: the rest of a directory whose fd had to go
 *
 * walk_dfs.c calls the other two; walk_dfs_ioq.c calls walk_dfs_spill.c
 * (a read error a job met waits in a spill); walk_dfs_spill.c calls
 * neither.  Nothing here is called per entry: the per-entry path (a
 * region's next record, its visit) stays in walk_dfs.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_WALK_DFS_H
#define LF_WALK_DFS_H

#include "walk_impl.h"

#include <stdbool.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)

/* The I/O queue (walk_dfs_ioq.c), used only when w->frame_rq is set but
 * for lf_dfs_rq_drop_all(), which checks. */
void lf_dfs_rq_drop_all(struct lf_walk *w, size_t i); /* before frame @i's fd closes or its records go */
struct lf_ioq_job *lf_dfs_rq_find(struct lf_walk *w, size_t i, size_t rec);
void lf_dfs_rq_feed(struct lf_walk *w, size_t t, bool sample);
void lf_dfs_rq_region(struct lf_walk *w, size_t t); /* frame @t's region holds new records */
void lf_dfs_rq_settle(struct lf_walk *w, size_t i); /* before frame @i's fd is evicted */
bool lf_dfs_rq_take(struct lf_walk *w, struct lf_ioq_job *job, struct lf_ioq_result *res, int *fd, int *err);
void lf_dfs_rq_abandon(struct lf_walk *w, struct lf_ioq_job *job, struct lf_ioq_result *res);
int lf_dfs_rq_adopt(struct lf_walk *w, struct lf_ioq_result *res);

/* Spills (walk_dfs_spill.c). */
struct lf_spill *lf_dfs_add_spill(struct lf_walk *w, size_t i); /* empty, or NULL (ENOMEM) */
void lf_dfs_drop_spill(struct lf_walk *w, size_t i);
int lf_dfs_spill_rest(struct lf_walk *w, size_t i);
int lf_dfs_unspill(struct lf_walk *w, size_t t);
void lf_dfs_free_spills(struct lf_walk *w);

#pragma GCC visibility pop

#endif
