/*
 * walk_record.h: a walker of records (struct lf_record, walk.h), the
 * files a host found by itself.  Not installed: lf_query_eval_record()
 * (query.h) is the public way in.
 *
 * It is a struct lf_walk that never reads a directory: its current entry
 * is the record set last, with the record's stat data already in the
 * entry's stat cache, so that everything that takes a walk and an entry
 * (lf_entry_stat, the find library's evaluation, the Lua binding's entry
 * views) works on a record unchanged.  What the record lacks is stat'ed
 * through its path, relative to the working directory, and counted as a
 * walk's stats are.  Its entries have no directory fd of their own:
 * lf_entry_delete() refuses them (EOPNOTSUPP), since a path may lead
 * somewhere else by the time it is used.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_WALK_RECORD_H
#define LF_WALK_RECORD_H

#include <stdbool.h>

#include "walk.h"

/**
 * A walker of records: @symlinks as the query treats links (-P, -H, -L);
 * lf_walk_root(w, 0) is *@root, the host's slot for the root of the
 * record being evaluated (borrowed for the walker's life).  Close it with
 * lf_walk_close().
 *
 * @return the walker, or NULL with errno set (ENOMEM)
 */
struct lf_walk *lf_record_walk_open(enum lf_symlinks symlinks, const char *const *root);

/**
 * Why @rec cannot be a record, in a few words ("the path is empty"), or
 * NULL when it can: the checks of lf_record_walk_set().
 */
const char *lf_record_invalid(const struct lf_record *rec);

/**
 * Make @rec the current entry of @w: an LF_VISIT_PRE entry whose path is
 * rec->path (borrowed until the next call), of its depth, its type (the
 * stat data's when it has some, and then never stat'ed for it), and
 * following links as rec->flags and the walker's @symlinks say.  Clears
 * the prune request (lf_walk_prune) and counts an entry.  The type is
 * left as the record gives it: lf_record_walk_resolve_type() finds an
 * unknown one.
 *
 * @param ent set to the entry on success
 * @return 0, or -1 with errno EINVAL when lf_record_invalid(@rec) says why
 */
int lf_record_walk_set(struct lf_walk *w, const struct lf_record *rec, struct lf_entry **ent);

/**
 * Find the type of the current record when it is unknown, or a link the
 * walker follows, as a walk does for DT_UNKNOWN: one stat.
 *
 * @return 0, or -1 with errno set when the stat failed
 */
int lf_record_walk_resolve_type(struct lf_walk *w);

/** Whether lf_walk_prune() was called since the current record was set. */
bool lf_record_walk_pruned(const struct lf_walk *w);

#endif
