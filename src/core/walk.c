/*
 * walk.c: the public API of the traversal core (walk.h).  It opens a walk,
 * hands each lf_walk_next() to the engine of the walk's order (walk_dfs.c:
 * pre-, post- and both orders; walk_bfs.c: breadth-first), and deletes,
 * counts and closes; the machinery both engines use is in walk_common.c.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "walk.h"

#include "walk_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* fds left for the caller (output files, -exec pipes) besides stdio. */
#define FD_RESERVE 8
/* Jobs the I/O queue may have at once (each holds an fd and 16 KiB). */
#define QUEUE_JOBS 256

/*
 * A warm walk shares the queue's jobs while that is faster (ioq.c): slices
 * of SHARE_SLICE_ENTRIES entries, SHARE_PROBE_SLICES of them with and
 * without in turn, then SHARE_RUN_ON slices sharing or SHARE_RUN_OFF not,
 * as the faster way was (probe.h).  Slices of 2,048 entries chose wrongly
 * in about half the runs on an idle machine: the queue takes a few
 * directories to fill when sharing starts, and the jobs left when it stops
 * are the next slice's.  Not sharing when a CPU is idle costs the most, and
 * the threads sometimes start on one CPU and share slowly at first, so a
 * probe that chose not to share is tried again soon.
 */
#define SHARE_SLICE_ENTRIES 16384
#define SHARE_PROBE_SLICES 4
#define SHARE_RUN_ON 32
#define SHARE_RUN_OFF 6
/*
 * Sharing is kept unless going without was faster by a fifth: on an idle
 * machine sharing takes 0.6x the time, and with 1 to 4 busy loops on 2
 * cores 0.77x to 1.05x of -j1, while a probe's slices differ by more than
 * 10% from noise alone (in interleaved campaigns, the timed walk's median
 * was 1.18x that of one always sharing, from slices that chose wrongly).
 */
#define SHARE_SLACK_PCT 20
/* ...under a memory account, which is charged for all of them (50 KiB each). */
#define ACCOUNTED_JOBS 16
/* What a thread of the walk costs an account besides its buffers: the
 * pages of its stack and of its malloc arena it touches. */
#define THREAD_MEMORY (256 * 1024)

/* lf_walk_cancel() is async-signal-safe only if this store takes no lock. */
_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "atomic_bool must be lock-free");

static int default_max_fds(void)
{
	struct rlimit rl;
	long limit = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		limit = rl.rlim_cur > INT_MAX ? INT_MAX : (long)rl.rlim_cur;
	} else if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		limit = 1 << 20;
	}
	limit -= 3 + FD_RESERVE;
	return limit < 3 ? 3 : (int)limit;
}

/* A queue that outlives walks (walk.h): the I/O queue and the fds it holds. */
struct lf_walk_queue {
	struct lf_ioq *ioq;
	int fds;   /* its jobs and rings: each holds one fd at most */
	atomic_bool held; /* by a walk: two opened at once (two threads) cannot both take it */
};

/*
 * The I/O queue of a walk with @threads threads (0: the default) and
 * @max_fds fds: a quarter of them at most, its jobs (QUEUE_JOBS at most,
 * @max_jobs under a memory account) and a ring per worker from those.
 * @return false if there is none (no worker, too few fds)
 */
static bool queue_size(int threads, int max_fds, unsigned flags, int max_jobs, int *workers, int *jobs, int *rings)
{
	threads = threads ? threads : LF_WALK_THREADS_DEFAULT;
	if (threads < 2 || max_fds < 16) {
		return false;
	}
	*jobs = max_fds / 4 < max_jobs ? max_fds / 4 : max_jobs;
	*workers = threads - 1;
	*rings = (flags & LF_WALK_NO_IO_URING) ? 0 : *jobs / 2 < *workers ? *jobs / 2 : *workers;
	*jobs -= *rings;
	return true;
}

struct lf_walk_queue *lf_walk_queue_new(int threads, int max_fds, unsigned flags)
{
	int workers, jobs, rings;
	if (threads < 0 || threads > LF_WALK_THREADS_MAX || max_fds < 0 ||
	    !queue_size(threads, max_fds ? max_fds : default_max_fds(), flags, QUEUE_JOBS, &workers, &jobs, &rings)) {
		errno = EINVAL;
		return NULL;
	}
	struct lf_walk_queue *q = calloc(1, sizeof(*q));
	if (!q) {
		return NULL;
	}
	q->ioq = lf_ioq_new((unsigned)workers, (unsigned)jobs, (unsigned)rings, -1, 0);
	if (!q->ioq) {
		free(q);
		return NULL;
	}
	q->fds = jobs + rings;
	return q;
}

void lf_walk_queue_free(struct lf_walk_queue *q)
{
	if (q) {
		lf_ioq_free(q->ioq);
		free(q);
	}
}

/*
 * LF_WALK_READ_AHEAD: the I/O queue, if it applies to this walk, holding a
 * quarter of the fd budget at most (a budget too small for that goes
 * without): the caller's (opts.queue) or its own.  Its workers start with
 * its first job.
 */
static void start_queue(struct lf_walk *w)
{
	const struct lf_walk_opts *o = &w->opts;
	if (!(o->flags & LF_WALK_READ_AHEAD) || o->order == LF_ORDER_BREADTH || o->symlinks == LF_LOGICAL ||
	    (o->flags & (LF_WALK_WHOLE_DIRS | LF_WALK_XDEV)) || w->max_fds < 16) {
		return;
	}
	int fds;
	if (o->queue) {
		if (o->queue->fds > w->max_fds / 4 || atomic_exchange(&o->queue->held, true)) {
			return;
		}
		w->ioq = o->queue->ioq;
		lf_ioq_begin(w->ioq, o->maxdepth, o->mindepth);
		fds = o->queue->fds;
	} else {
		int workers, jobs, rings;
		if (!queue_size(o->threads, w->max_fds, o->flags, o->mem ? ACCOUNTED_JOBS : QUEUE_JOBS, &workers,
				&jobs, &rings)) {
			return;
		}
		/* Charged its most up front: its workers allocate jobs too. */
		size_t cost = lf_ioq_memory((unsigned)workers, (unsigned)jobs) + (size_t)workers * THREAD_MEMORY;
		if (lf_walk_charge(w, cost) != 0) {
			return; /* the walk goes without */
		}
		w->ioq = lf_ioq_new((unsigned)workers, (unsigned)jobs, (unsigned)rings, o->maxdepth, o->mindepth);
		if (!w->ioq) {
			lf_walk_uncharge(w, cost);
			return;
		}
		w->ioq_charged = cost;
		fds = jobs + rings;
	}
	w->max_fds -= fds;
	w->ioq_sample = 1; /* the first region: a cold walk shows at once */
	if (o->flags & LF_WALK_SHARE_ALWAYS) {
		w->ioq_share = lf_ioq_share(w->ioq, true);
	} else if (!(o->flags & LF_WALK_SHARE_NEVER)) {
		lf_probe_init(&w->ioq_probe, SHARE_SLICE_ENTRIES, SHARE_PROBE_SLICES, SHARE_RUN_ON, SHARE_RUN_OFF);
		lf_probe_slack(&w->ioq_probe, SHARE_SLACK_PCT);
		w->ioq_share_probe = true;
	}
}

/* Stop the walk's own I/O queue, or give the caller's back (no job is live). */
static void stop_queue(struct lf_walk *w)
{
	if (w->opts.queue && w->ioq == w->opts.queue->ioq) {
		lf_ioq_share(w->ioq, false); /* its workers sleep till the next walk */
		atomic_store(&w->opts.queue->held, false);
	} else {
		lf_ioq_free(w->ioq);
	}
	w->ioq = NULL;
}

struct lf_walk *lf_walk_open(const struct lf_walk_opts *opts)
{
	if (!opts || (opts->nroots && !opts->roots) || opts->order > LF_ORDER_BREADTH ||
	    opts->symlinks > LF_LOGICAL || opts->threads < 0 || opts->threads > LF_WALK_THREADS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (!lf_mem_charge(opts->mem, sizeof(struct lf_walk))) {
		errno = ENOMEM;
		return NULL;
	}
	struct lf_walk *w = calloc(1, sizeof(*w));
	if (!w) {
		lf_mem_uncharge(opts->mem, sizeof(struct lf_walk));
		return NULL;
	}
	w->opts = *opts;
	w->charged = opts->mem ? sizeof(*w) : 0;
	w->ent.w = w;
	w->sort_bytes = (opts->flags & LF_WALK_SORT) && lf_walk_collates_bytes();
	w->stat_ahead = (opts->flags & LF_WALK_STAT_AHEAD) && opts->order == LF_ORDER_PRE &&
			opts->symlinks != LF_LOGICAL && !(opts->flags & (LF_WALK_GITIGNORE | LF_WALK_EXCLUDE_CACHES));
	if ((opts->flags & LF_WALK_GITIGNORE) && !(w->gi = lf_gi_new(opts->mem))) {
		lf_walk_uncharge(w, w->charged);
		free(w);
		return NULL;
	}
	/* The stat-ahead thread is charged its most up front, or not started. */
	size_t pf_cost = lf_prefetch_memory() + THREAD_MEMORY;
	if (w->stat_ahead && lf_walk_charge(w, pf_cost) != 0) {
		w->stat_ahead = false;
	} else if (w->stat_ahead && !(w->prefetch = lf_prefetch_new())) {
		lf_walk_uncharge(w, pf_cost);
		w->stat_ahead = false; /* one CPU, or no memory: the walk does not need it */
	}
	w->max_fds = opts->max_fds > 0 ? (opts->max_fds < 3 ? 3 : opts->max_fds) : default_max_fds();
	start_queue(w);
	w->evict = opts->order == LF_ORDER_BREADTH ? lf_bfs_evict : lf_dfs_evict;
	if (lf_walk_grow_path(w, 256) != 0) {
		uint64_t none = 0;
		lf_prefetch_free(w->prefetch, &none);
		stop_queue(w);
		lf_gi_free(w->gi);
		lf_walk_uncharge(w, w->charged);
		free(w);
		return NULL;
	}
	return w;
}

/* Close every fd and stop the stat-ahead thread; the struct stays. */
static void release(struct lf_walk *w)
{
	uint64_t wasted = 0;
	lf_prefetch_free(w->prefetch, &wasted); /* before the fds its windows use */
	w->prefetch = NULL;
	w->stat_ahead = false;
	w->counters.stats += wasted;
	w->counters.stats_ahead += wasted;
	lf_dfs_free(w); /* gives its jobs back to the queue */
	lf_bfs_free(w);
	stop_queue(w);
	lf_walk_uncharge(w, w->ioq_charged);
	w->ioq_charged = 0;
	lf_gi_unref(w->pend.gi);
	w->pend.gi = NULL;
}

void lf_walk_cancel(struct lf_walk *w)
{
	/* One lock-free atomic store: async-signal-safe, from any thread. */
	atomic_store_explicit(&w->cancelled, true, memory_order_release);
}

int lf_walk_next(struct lf_walk *w, struct lf_entry **ent)
{
	if (!w->fatal && atomic_load_explicit(&w->cancelled, memory_order_acquire)) {
		release(w);
		w->fatal = ECANCELED;
	}
	if (w->fatal) {
		errno = w->fatal;
		return -1;
	}
	/* A tail call: the engine sets *ent and counts it. */
	return w->opts.order == LF_ORDER_BREADTH ? lf_bfs_next(w, ent) : lf_dfs_next(w, ent);
}

void lf_walk_prune(struct lf_walk *w)
{
	w->pruned = true;
}

const char *lf_entry_name(const struct lf_entry *e, size_t *len)
{
	if (e->depth > 0) {
		*len = e->pathlen - e->nameoff;
		return e->path + e->nameoff;
	}
	size_t end = e->pathlen;
	while (end > 1 && e->path[end - 1] == '/') {
		end--;
	}
	size_t start = end;
	while (start > 0 && e->path[start - 1] != '/') {
		start--;
	}
	if (start == end && end > 0) {
		*len = 1;
		return "/";
	}
	*len = end - start;
	return e->path + start;
}

int lf_entry_delete(struct lf_entry *e)
{
	struct entry_priv *p = (struct entry_priv *)e;
	struct lf_walk *w = p->w;
	if (e->visit == LF_VISIT_ERROR || e->at_fd == -1) {
		errno = EINVAL;
		return -1;
	}
	if (p->record) {
		/* Only a path to go by, which may lead elsewhere by now. */
		errno = EOPNOTSUPP;
		return -1;
	}
	/*
	 * The entry's own type, not the walk's: a link is removed as a link,
	 * never followed, even when the walk described it by its target.
	 */
	enum lf_type type = p->raw_type;
	if (type == LF_UNKNOWN && !p->follow_walk) {
		type = e->type;
	}
	if (type == LF_UNKNOWN) {
		const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
		if (!st) {
			return -1;
		}
		type = lf_type_from_mode(st->mode);
	}
	w->counters.unlinks++;
	if (unlinkat(e->at_fd, e->at_name, type == LF_DIR ? AT_REMOVEDIR : 0) != 0) {
		return -1;
	}
	if (e->visit == LF_VISIT_PRE && e->type == LF_DIR) {
		w->pruned = true;
	}
	return 0;
}

const struct lf_counters *lf_walk_counters(const struct lf_walk *w)
{
	return &w->counters;
}

size_t lf_walk_dirs_left(const struct lf_walk *w)
{
	size_t n = w->pend_active && !w->pruned;
	return n + (w->opts.order == LF_ORDER_BREADTH ? lf_bfs_dirs_left(w) : lf_dfs_dirs_left(w));
}

const char *lf_walk_root(const struct lf_walk *w, size_t i)
{
	return i < w->opts.nroots ? w->opts.roots[i] : NULL;
}

bool lf_walk_had_error(const struct lf_walk *w)
{
	return w->had_error;
}

bool lf_walk_will_read(const struct lf_walk *w)
{
	return w->pend_active && w->pend.read_it && !w->pruned;
}

int lf_walk_close(struct lf_walk *w)
{
	if (!w) {
		return 0;
	}
	release(w);
	int err = w->fatal == ECANCELED ? 0 : w->fatal;
	free(w->arena);
	free(w->path);
	free(w->root_order);
	lf_gi_free(w->gi);
	lf_walk_uncharge(w, w->charged); /* all of it, the stat-ahead thread's too */
	free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
