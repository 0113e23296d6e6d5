/**
 * mounts.h: file system types by device, from /proc/self/mountinfo, for
 * -fstype and -printf %F.  Read on first use, once per context (ctx.h); not
 * safe to share between threads.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_MOUNTS_H
#define LF_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The table; zero-initialize it, free it with lf_mounts_free(). */
struct lf_mounts {
	struct lf_mount *v;
	size_t n;
	bool read; /* the table was read (or could not be) */
	int error; /* why it could not be read in full (errno), or 0 */
};

/**
 * The type of the file system mounted from device @dev ("ext4", "tmpfs"):
 * the last mount of that device listed, as GNU find takes the visible one.
 *
 * @return the type, valid until lf_mounts_free(), or NULL: with errno 0 if
 *         none is known, with errno set if the table could not be read in
 *         full (every call then fails: a partial table would answer
 *         "no such type" for what it lost)
 */
const char *lf_mounts_type(struct lf_mounts *m, uint64_t dev);

/** Free the table; @m may be used again afterwards (it is read again). */
void lf_mounts_free(struct lf_mounts *m);

#endif
