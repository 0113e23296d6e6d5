/**
 * idset.h: a set of file identities (device, inode), for -unique: a file
 * already seen is one whose identity is in the set.  Open addressing, grown
 * as it fills; its memory charged to an account (mem.h) if it has one, so
 * that a sandboxed host's limit covers it.  Not safe to share between
 * threads.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_IDSET_H
#define LF_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

struct lf_idset;

/**
 * An empty set charging @mem (borrowed; NULL: none) for what it takes.
 * @return the set, or NULL with errno set (ENOMEM)
 */
struct lf_idset *lf_idset_new(const struct lf_mem *mem);

/**
 * Add (@dev, @ino).
 * @return 1 if it was added, 0 if it was there already, -1 with errno set
 *         (ENOMEM: malloc failed or the account refused) and the set as it was
 */
int lf_idset_add(struct lf_idset *s, uint64_t dev, uint64_t ino);

/** The identities in the set. */
size_t lf_idset_count(const struct lf_idset *s);

/** Free @s (NULL is fine), giving its memory back to the account. */
void lf_idset_free(struct lf_idset *s);

#endif
