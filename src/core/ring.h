/*
 * ring.h: stats in batches through io_uring (liburing), for the I/O queue's
 * workers.  One io_uring_enter submits the stats of a directory's names and
 * the kernel makes them in parallel on its io-wq threads, where a worker's
 * own statx calls would wait on the disk one at a time.  Private to the
 * core, not installed.
 *
 * A build without liburing (LUAFIND_IO_URING=OFF) has the same functions:
 * lf_ring_new() then always fails, and the workers stat by themselves.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_RING_H
#define LF_RING_H

#include "stat.h"

struct lf_ring;

/**
 * A ring for batches of up to @entries stats, for one thread's use.
 * @return NULL with errno set when there is none to be had: ENOSYS (a build
 *         or kernel without io_uring), EPERM (forbidden by
 *         kernel.io_uring_disabled or a seccomp filter), EOPNOTSUPP (a
 *         kernel without IORING_OP_STATX), EMFILE, ENOMEM
 */
struct lf_ring *lf_ring_new(unsigned entries);

/** Free @r (NULL is fine). */
void lf_ring_free(struct lf_ring *r);

/**
 * Stat @names[k], for k < @n, relative to the directory @dir_fd, not
 * following links (as lf_stat_at(dir_fd, name, false, ...)), submitted in
 * the order given: the result goes to @st[@slots[k]], with @err[@slots[k]]
 * 0, or the errno of that stat.
 * @return 0, or -1 if the ring itself failed: then @err[@slots[k]] is -1
 *         for each name not stat'ed, which the caller stats by itself, and
 *         @r must not be used again but freed
 */
int lf_ring_stat(struct lf_ring *r, int dir_fd, const char *const *names, const unsigned *slots, unsigned n,
		      struct lf_stat *st, int *err);

#endif
