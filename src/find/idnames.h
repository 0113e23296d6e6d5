/**
 * idnames.h: user and group names by id, looked up once per id.
 *
 * One cache serves -user/-nouser, -ls, -printf %u/%g and the Lua binding's
 * user and group fields, so that they agree and each id costs one
 * getpwuid_r()/getgrgid_r() however often it is asked for.  A cache belongs
 * to one context (ctx.h) and is not safe to share between threads.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_IDNAMES_H
#define LF_IDNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The cache; zero-initialize it, free it with lf_idnames_free(). */
struct lf_idnames {
	struct lf_idname *slots[2]; /* users, groups: open addressing by id */
	size_t count[2], cap[2];
};

/**
 * The name of user (@group false) or group (@group true) @id.
 *
 * @return the name, valid until lf_idnames_free(); or NULL with errno 0
 *         when the id has no name, or with errno set when the look-up
 *         failed (ENOMEM, EIO...: nothing is cached then)
 */
const char *lf_idnames_get(struct lf_idnames *c, bool group, uint32_t id);

/** Free the names; @c may be used again afterwards (empty). */
void lf_idnames_free(struct lf_idnames *c);

/**
 * Look up a user (@group false) or group name, for -user NAME: getpwnam_r /
 * getgrnam_r, not cached.
 *
 * @return 1 with *@id set, 0 when there is no such name, -1 with errno set
 */
int lf_idnames_lookup(bool group, const char *name, uint32_t *id);

#endif
