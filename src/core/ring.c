/*
 * ring.c: stats in batches through io_uring.  See ring.h.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "ring.h"
#include "statx.h"

#include <errno.h>
#include <stdlib.h>

#ifdef LF_HAVE_URING

#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <sys/stat.h>

struct lf_ring {
	struct io_uring ring;
	unsigned entries;
	bool broken;     /* a call into the ring failed: requests may be in flight */
	struct statx *sx; /* entries of them, written by the kernel */
};

/* The setup flags this kernel takes, from the most useful down. */
static int init_ring(struct io_uring *ring, unsigned entries)
{
	/*
	 * One thread submits and reaps, and it wants its completions only when
	 * it waits for them: no task work interrupting it in between (6.1); a
	 * request failing as it is submitted does not hold up the others (5.18).
	 */
	static const unsigned flags[] = {
		IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, 0};
	int ret = -EINVAL;
	for (size_t i = 0; i < sizeof(flags) / sizeof(*flags) && ret == -EINVAL; i++) {
		ret = io_uring_queue_init(entries, ring, flags[i]);
	}
	return ret;
}

static bool has_statx(struct io_uring *ring)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(ring);
	bool ok = probe && io_uring_opcode_supported(probe, IORING_OP_STATX);
	io_uring_free_probe(probe);
	return ok;
}

struct lf_ring *lf_ring_new(unsigned entries)
{
	struct lf_ring *r = calloc(1, sizeof(*r));
	if (!r || !(r->sx = malloc(entries * sizeof(*r->sx)))) {
		free(r);
		return NULL;
	}
	int ret = init_ring(&r->ring, entries);
	if (ret < 0) {
		free(r->sx);
		free(r);
		errno = -ret;
		return NULL;
	}
	if (!has_statx(&r->ring)) {
		lf_ring_free(r);
		errno = EOPNOTSUPP;
		return NULL;
	}
	r->entries = entries;
	return r;
}

void lf_ring_free(struct lf_ring *r)
{
	if (!r) {
		return;
	}
	io_uring_queue_exit(&r->ring);
	/*
	 * A broken ring may have stats in flight, and the kernel finishes them
	 * after the ring's fd is closed: their buffers must outlive it.
	 */
	if (!r->broken) {
		free(r->sx);
	}
	free(r);
}

/* Reap the completions there are, of the batch from names[@first]: @return how many. */
static unsigned reap(struct lf_ring *r, unsigned first, const unsigned *slots, struct lf_stat *st, int *err)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	io_uring_for_each_cqe(&r->ring, head, cqe)
	{
		unsigned k = (unsigned)io_uring_cqe_get_data64(cqe);
		unsigned slot = slots[k];
		if (cqe->res == 0) {
			lf_stat_from_statx(&r->sx[k - first], &st[slot]);
			err[slot] = 0;
		} else {
			err[slot] = -cqe->res;
		}
		seen++;
	}
	io_uring_cq_advance(&r->ring, seen);
	return seen;
}

int lf_ring_stat(struct lf_ring *r, int dir_fd, const char *const *names, const unsigned *slots, unsigned n,
		 struct lf_stat *st, int *err)
{
	for (unsigned k = 0; k < n; k++) {
		err[slots[k]] = -1;
	}
	if (r->broken) {
		errno = EIO;
		return -1;
	}
	/* Batches of @entries: the statx buffer of names[k] is sx[k - first]. */
	for (unsigned first = 0; first < n; first += r->entries) {
		unsigned count = n - first < r->entries ? n - first : r->entries;
		for (unsigned k = first; k < first + count; k++) {
			/* Never NULL: the ring has @entries SQEs and the last batch is reaped. */
			struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
			io_uring_prep_statx(sqe, dir_fd, names[k], AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT,
					    lf_stat_mask(), &r->sx[k - first]);
			io_uring_sqe_set_data64(sqe, k);
		}
		/*
		 * Each call submits what the kernel has not taken yet (it stops at
		 * a request that fails as it is submitted) and waits for one
		 * completion at least.
		 */
		for (unsigned done = 0; done < count;) {
			int ret = io_uring_submit_and_wait(&r->ring, 1);
			if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
				r->broken = true;
				errno = -ret;
				return -1;
			}
			done += reap(r, first, slots, st, err);
		}
	}
	return 0;
}

#else /* !LF_HAVE_URING */

struct lf_ring {
	int unused;
};

struct lf_ring *lf_ring_new(unsigned entries)
{
	(void)entries;
	errno = ENOSYS;
	return NULL;
}

void lf_ring_free(struct lf_ring *r)
{
	free(r);
}

int lf_ring_stat(struct lf_ring *r, int dir_fd, const char *const *names, const unsigned *slots, unsigned n,
		 struct lf_stat *st, int *err)
{
	(void)r, (void)dir_fd, (void)names, (void)st;
	for (unsigned k = 0; k < n; k++) {
		err[slots[k]] = -1;
	}
	errno = ENOSYS;
	return -1;
}

#endif
