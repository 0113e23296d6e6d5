/*
 * ioq.c: the I/O queue's workers.  See ioq.h for the contract.
 *
 * Pending jobs form a stack: the walker submits the subdirectories of the
 * directory it has just entered, deepest last, and needs the deepest first;
 * it pushes a directory's subdirectories last to first, so a worker pops
 * them in the walk's order; a worker that has read a directory pushes its
 * kids on top.  A job's state is written under the lock and read without it
 * by the walker waiting for a busy job.
 *
 * The workers run only while the jobs wait for I/O.  With a warm cache a
 * job is all CPU and as quick as waking a thread for it: measured on the
 * 500k-entry tmpfs tree on 2 cores, one worker left a listing where it was
 * and made -size 1.3x slower (it took the second core from the stat-ahead
 * thread), three made a listing 1.6x slower.  With a cold cache a job
 * spends most of its time blocked in the kernel, and every worker helps:
 * the I/O requests overlap.  So the queue starts dormant: the walker
 * submits only samples (lf_ioq_running() says when) and reads the other
 * directories itself, as it would without the queue; a dormant queue's jobs
 * get no kids.  A job counts its worker's voluntary context switches
 * (getrusage); one that blocked wakes every worker, and a run of
 * UNBLOCKED_RUN jobs that did not puts the queue back to sleep.  Wall time
 * against CPU time cannot tell: a worker preempted on a busy machine looks
 * blocked, and more workers then make it busier still.
 *
 * A warm walk shares its jobs instead, while a core is idle (the walker
 * decides by timing it, lf_ioq_share()): then the workers run every job,
 * as many as the process has CPUs besides the walker's, and the walker,
 * when the directory it needs next is still being read, runs the next
 * pending job itself rather than wait.  Both threads read directories in
 * the walk's order, and none twice.  A worker on the job the walker needs
 * next left both threads idle in turn, and no faster than one alone.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "ioq.h"

#include "dir.h"
#include "ring.h"
#include "spin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A job's buffer of records: a small directory (the usual one) fits whole. */
#define JOB_BUF (16 * 1024)

/* Jobs in a row that did not block before the queue goes dormant. */
#define UNBLOCKED_RUN 256

/*
 * Rings are for stats that wait one by one: one stat in two or more of a
 * directory of SLOW_STATS or more names blocked.  That is a network
 * filesystem's round trip per stat (NFS, FUSE), where a ring keeps dozens
 * in flight: through a FUSE filesystem answering each request in 500 us
 * (bench.sh fuse-size), -size of a 20,001-entry tree took 1.97 s with
 * rings and 7.31 s without.  On a local disk the inode tables are read
 * ahead a block group at a time (ext4), so few stats block, and the
 * threads already keep the disk busy: there a ring only adds the kernel's
 * io-wq hand-offs, and a cold -size of the 200k-entry tree took 1.25x as
 * long with rings.
 */
#define SLOW_STATS 16

/* How long the walker polls a busy job before it sleeps on it, when the jobs
 * are quick (the queue is dormant), and when they wait for I/O. */
#define TAKE_SPIN_NS 30000
#define TAKE_SPIN_IO_NS 3000

/*
 * How long the walker of a shared walk polls a busy job, and for new jobs to
 * run meanwhile, before it sleeps on it.  Sleeping at once let the two
 * threads settle on one CPU in turn (the wakee is woken where the waker
 * ran), as slow as one thread: perf showed both on the same CPU in the slow
 * runs; two runnable threads are spread over the idle CPUs.
 */
#define TAKE_SPIN_SHARE_NS 200000

/*
 * How long an idle worker of a shared walk polls for the next job before it
 * sleeps: the walker submits a few jobs per directory, microseconds apart,
 * and a futex wake per directory costs about as much as reading one.
 */
#define SHARE_IDLE_SPIN_NS 200000

enum {
	JOB_PENDING = 0, /* on the stack, nobody has it */
	JOB_BUSY,        /* a worker is on it */
	JOB_DONE,        /* the worker's results are ready */
	JOB_WITHDRAWN,   /* taken off the stack unstarted: the walker's */
};

struct lf_ioq_job {
	struct lf_ioq_job *up, *down; /* on the stack (under the lock); next free */
	atomic_int state;
	bool stats;
	bool maxdepth_ok; /* its subdirectories are read */
	int dir_fd;
	int depth;
	unsigned ncand, nkids;        /* subdirectories found; of those, submitted */
	size_t kid_recs[LF_IOQ_KIDS]; /* their records' offsets in buf */
	struct lf_ioq_job *kids[LF_IOQ_KIDS];
	int fd, open_err, read_err;
	bool eof;
	unsigned getdents, nstats, nring;
	size_t len;
	struct lf_stat *st; /* LF_IOQ_STATS of them, for jobs with stats */
	int *stat_err;
	char name[NAME_MAX + 1];
	_Alignas(8) char buf[JOB_BUF];
};

struct lf_ioq {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a job came, or stop */
	pthread_cond_t done; /* a job the walker waits for is done */
	pthread_t *threads;
	unsigned nworkers, started;
	unsigned indexed; /* workers that took their index */
	bool stop;
	unsigned sleeping, waiting;
	atomic_bool awake;   /* jobs wait for I/O (written under the lock) */
	atomic_bool share;   /* the walk shares its warm jobs (the walker's call) */
	unsigned share_workers; /* workers that run jobs while shared */
	unsigned unblocked;  /* jobs in a row that did not wait for I/O */
	unsigned recent;     /* whether the last jobs waited for I/O, a bit each, the last lowest */
	struct lf_ioq_job *top; /* of the stack */
	struct lf_ioq_job *free_jobs;
	unsigned live, max_jobs;
	atomic_uint pushed; /* jobs pushed so far, polled by idle workers of a shared walk */
	unsigned stat_jobs;       /* live jobs with stats */
	atomic_uint windows;      /* stat windows the walker holds (lf_ioq_windows) */
	atomic_int rings;         /* io_uring instances the workers may still set up */
	atomic_bool stats_slow;   /* a job's stats waited one by one: the workers use rings */
	int maxdepth, mindepth;
};

/* What a worker keeps from one job to the next. */
struct worker {
	struct lf_ioq *q;
	unsigned index; /* among the workers; the walker's UINT_MAX */
	struct lf_ring *ring; /* for its stats, set up with its first job that has some */
	bool ring_tried;
};

/* Under the lock. */
static void unlink_job(struct lf_ioq *q, struct lf_ioq_job *job)
{
	if (job->up) {
		job->up->down = job->down;
	} else {
		q->top = job->down;
	}
	if (job->down) {
		job->down->up = job->up;
	}
	job->up = job->down = NULL;
}

struct by_ino {
	uint64_t ino;
	unsigned idx; /* among the names, in the records' order */
	const char *name;
};

static int cmp_ino(const void *a, const void *b)
{
	const struct by_ino *x = a, *y = b;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/*
 * The worker's ring, once stats have turned out slow: set up at the first
 * call after that, if the queue has one left for it.
 */
static struct lf_ring *worker_ring(struct worker *wk)
{
	if (!wk->ring_tried && atomic_load_explicit(&wk->q->stats_slow, memory_order_relaxed)) {
		wk->ring_tried = true;
		if (atomic_fetch_sub_explicit(&wk->q->rings, 1, memory_order_relaxed) > 0) {
			wk->ring = lf_ring_new(LF_IOQ_STATS);
		}
	}
	return wk->ring;
}

/*
 * Stat the first names of the records in inode order (seed 003: on a disk,
 * the inode tables are read in one sweep instead of back and forth), the
 * results kept in the records' order: through the worker's io_uring, which
 * has the kernel make them in parallel, or else one by one.
 */
static void stat_names(struct lf_ioq_job *job, struct worker *wk)
{
	struct by_ino order[LF_IOQ_STATS];
	unsigned n = 0;
	for (size_t off = 0; off < job->len && n < LF_IOQ_STATS;) {
		const struct lf_dirent *d = (const struct lf_dirent *)(job->buf + off);
		off += d->d_reclen;
		if (!lf_dir_is_dot(d->d_name)) {
			order[n] = (struct by_ino){d->d_ino, n, d->d_name};
			n++;
		}
	}
	qsort(order, n, sizeof(*order), cmp_ino);
	job->nstats = n;
	struct lf_ring *ring = worker_ring(wk);
	if (ring) {
		const char *names[LF_IOQ_STATS];
		unsigned slots[LF_IOQ_STATS];
		for (unsigned i = 0; i < n; i++) {
			names[i] = order[i].name;
			slots[i] = order[i].idx;
		}
		if (lf_ring_stat(ring, job->fd, names, slots, n, job->st, job->stat_err) == 0) {
			job->nring = n;
			return;
		}
		/* The ring failed: the worker goes on without one. */
		lf_ring_free(ring);
		wk->ring = NULL;
		for (unsigned i = 0; i < n; i++) {
			job->nring += job->stat_err[i] >= 0;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned at = order[i].idx;
		if (!ring || job->stat_err[at] < 0) {
			job->stat_err[at] = lf_stat_at(job->fd, order[i].name, false, &job->st[at]) == 0 ? 0 : errno;
		}
	}
}

/* The calling thread's voluntary context switches so far. */
static long voluntary_switches(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw : 0;
}

/*
 * Do @job.  @with_stats: the stats asked for are worth making here.  With a
 * warm cache they are not: 256 stats make a job slow enough for the walker
 * to wait on it, while the stat-ahead thread (prefetch.c) overlaps them with
 * the walk already; the walker then stats as without the queue.
 * @return whether the job waited for I/O: its worker blocked (a voluntary
 *         context switch) other than waiting for its ring, which always
 *         does (io-wq makes the stats)
 */
static bool run_job(struct lf_ioq_job *job, struct worker *wk, bool with_stats)
{
	long switches = voluntary_switches();
	job->fd = openat(job->dir_fd, job->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (job->fd < 0) {
		job->open_err = errno;
		return voluntary_switches() != switches;
	}
	while (JOB_BUF - job->len >= LF_DIR_MINBUF) {
		job->getdents++;
		ssize_t n = lf_getdents(job->fd, job->buf + job->len, JOB_BUF - job->len);
		if (n <= 0) {
			job->eof = true;
			job->read_err = n < 0 ? errno : 0;
			break;
		}
		job->len += (size_t)n;
	}
	if (job->stats && with_stats) {
		long before_stats = voluntary_switches();
		stat_names(job, wk);
		long stat_switches = voluntary_switches() - before_stats;
		if (job->nring) {
			switches += stat_switches; /* waiting for the ring is not waiting for the disk */
		} else if (job->nstats >= SLOW_STATS && stat_switches * 2 >= job->nstats) {
			atomic_store_explicit(&wk->q->stats_slow, true, memory_order_relaxed);
		}
	}
	/* Its subdirectories the walk will read, to submit as its kids. */
	if (job->maxdepth_ok) {
		for (size_t off = 0; off < job->len && job->ncand < LF_IOQ_KIDS;) {
			const struct lf_dirent *d = (const struct lf_dirent *)(job->buf + off);
			if (d->d_type == DT_DIR && !lf_dir_is_dot(d->d_name)) {
				job->kid_recs[job->ncand++] = off;
			}
			off += d->d_reclen;
		}
	}
	return voluntary_switches() != switches;
}

static unsigned push_locked(struct lf_ioq *q, int dir_fd, int depth, const char *const *names, unsigned n,
			    bool stats, struct lf_ioq_job **jobs);

static int start_workers(struct lf_ioq *q, unsigned n);

/* A job waited for I/O or not: how many workers may run.  Under the lock. */
static void pace(struct lf_ioq *q, bool blocked)
{
	q->recent = q->recent << 1 | blocked;
	/* Shared, four blocked jobs of the last eight: a few page faults on new
	 * jobs' buffers while the other thread maps memory are not a cold
	 * cache, and waking every worker for them made a warm listing 1.6x
	 * slower. */
	if (blocked && (!q->share || __builtin_popcount(q->recent & 0xff) >= 4)) {
		q->unblocked = 0;
		if (!q->awake) {
			q->awake = true;
			if (!q->stop) {
				start_workers(q, q->nworkers); /* all of them, or as many as can be had */
			}
			if (q->top && q->sleeping) {
				pthread_cond_broadcast(&q->work);
			}
		}
	} else if (!blocked && ++q->unblocked >= UNBLOCKED_RUN) {
		q->awake = false;
	}
}

/* Whether the jobs run in the workers: they wait for I/O, or are shared. */
static bool running(const struct lf_ioq *q)
{
	return atomic_load_explicit(&q->awake, memory_order_relaxed) ||
	       atomic_load_explicit(&q->share, memory_order_relaxed);
}

/*
 * Run @job, taken off the stack (BUSY), then publish it: its kids pushed
 * while the workers run every job, its state DONE.  Without the lock.
 */
static void run_published(struct lf_ioq *q, struct lf_ioq_job *job, struct worker *wk)
{
	bool blocked = run_job(job, wk, running(q));
	pthread_mutex_lock(&q->lock);
	pace(q, blocked);
	if (job->ncand && running(q)) {
		const char *names[LF_IOQ_KIDS];
		for (unsigned k = 0; k < job->ncand; k++) {
			names[k] = ((const struct lf_dirent *)(job->buf + job->kid_recs[k]))->d_name;
		}
		job->nkids = push_locked(q, job->fd, job->depth + 1, names, job->ncand, job->stats, job->kids);
		if (job->nkids > 1 && q->sleeping) {
			pthread_cond_signal(&q->work);
		}
	}
	atomic_store_explicit(&job->state, JOB_DONE, memory_order_release);
	if (q->waiting) {
		pthread_cond_broadcast(&q->done);
	}
	pthread_mutex_unlock(&q->lock);
}

/* The top pending job, now BUSY, or NULL.  Under the lock. */
static struct lf_ioq_job *pop_locked(struct lf_ioq *q)
{
	struct lf_ioq_job *job = q->top;
	if (job) {
		unlink_job(q, job);
		atomic_store_explicit(&job->state, JOB_BUSY, memory_order_relaxed);
	}
	return job;
}

/* Whether worker @wk may take jobs now: a shared warm walk keeps to its CPUs.  Under the lock. */
static bool may_run(const struct lf_ioq *q, const struct worker *wk)
{
	return q->awake || !q->share || wk->index < q->share_workers;
}

/*
 * Poll for a job a while without the lock.  Under the lock.
 * @return whether one came
 */
static bool idle_spin(struct lf_ioq *q)
{
	unsigned seen = atomic_load_explicit(&q->pushed, memory_order_relaxed);
	pthread_mutex_unlock(&q->lock);
	uint64_t until = lf_now_ns() + SHARE_IDLE_SPIN_NS;
	bool came = false;
	for (unsigned k = 1; !came; k++) {
		lf_cpu_relax();
		came = atomic_load_explicit(&q->pushed, memory_order_relaxed) != seen;
		if (k % 64 == 0 && lf_now_ns() > until) {
			break;
		}
	}
	pthread_mutex_lock(&q->lock);
	return came || q->top;
}

static void *worker_main(void *arg)
{
	struct lf_ioq *q = arg;
	struct worker wk = {q, 0, NULL, false};
	pthread_mutex_lock(&q->lock);
	wk.index = q->indexed++;
	while (!q->stop) {
		struct lf_ioq_job *job = may_run(q, &wk) ? pop_locked(q) : NULL;
		if (job) {
			pthread_mutex_unlock(&q->lock);
			run_published(q, job, &wk);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (q->share && !q->awake && may_run(q, &wk) && (idle_spin(q) || q->stop)) {
			continue;
		}
		q->sleeping++;
		pthread_cond_wait(&q->work, &q->lock);
		q->sleeping--;
	}
	pthread_mutex_unlock(&q->lock);
	lf_ring_free(wk.ring);
	return NULL;
}

size_t lf_ioq_memory(unsigned workers, unsigned max_jobs)
{
	size_t job = sizeof(struct lf_ioq_job) + LF_IOQ_STATS * (sizeof(struct lf_stat) + sizeof(int));
	return sizeof(struct lf_ioq) + workers * sizeof(pthread_t) + max_jobs * job;
}

struct lf_ioq *lf_ioq_new(unsigned workers, unsigned max_jobs, unsigned rings, int maxdepth, int mindepth)
{
	if (workers == 0 || max_jobs == 0) {
		errno = EINVAL;
		return NULL;
	}
	struct lf_ioq *q = calloc(1, sizeof(*q));
	if (!q || !(q->threads = calloc(workers, sizeof(*q->threads)))) {
		free(q);
		return NULL;
	}
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_cond_init(&q->done, NULL);
	q->nworkers = workers;
	atomic_init(&q->awake, false);
	atomic_init(&q->share, false);
	cpu_set_t cpus;
	int ncpus = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
	q->share_workers = ncpus > 1 ? (unsigned)ncpus - 1 : 0;
	if (q->share_workers > workers) {
		q->share_workers = workers;
	}
	q->max_jobs = max_jobs;
	atomic_init(&q->rings, (int)rings);
	atomic_init(&q->stats_slow, false);
	q->maxdepth = maxdepth;
	q->mindepth = mindepth;
	return q;
}

void lf_ioq_begin(struct lf_ioq *q, int maxdepth, int mindepth)
{
	lf_ioq_share(q, false);
	pthread_mutex_lock(&q->lock);
	q->maxdepth = maxdepth;
	q->mindepth = mindepth;
	atomic_store_explicit(&q->windows, 0, memory_order_relaxed);
	pthread_mutex_unlock(&q->lock);
}

/*
 * Start workers up to @n, with every signal blocked: signals are the
 * walker's.  One runs a dormant queue's samples; the others start when it
 * wakes up, so a walk of a warm cache does not pay for them.
 */
static int start_workers(struct lf_ioq *q, unsigned n)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = 0;
	while (q->started < n) {
		err = pthread_create(&q->threads[q->started], NULL, worker_main, q);
		if (err) {
			break;
		}
		q->started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* Fewer workers than asked still work; none is a failure. */
	return q->started ? 0 : err;
}

void lf_ioq_free(struct lf_ioq *q)
{
	if (!q) {
		return;
	}
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_broadcast(&q->work);
	pthread_mutex_unlock(&q->lock);
	for (unsigned i = 0; i < q->started; i++) {
		pthread_join(q->threads[i], NULL);
	}
	while (q->free_jobs) {
		struct lf_ioq_job *job = q->free_jobs;
		q->free_jobs = job->down;
		free(job->st);
		free(job->stat_err);
		free(job);
	}
	pthread_cond_destroy(&q->done);
	pthread_cond_destroy(&q->work);
	pthread_mutex_destroy(&q->lock);
	free(q->threads);
	free(q);
}

/* A job from the free list or a new one, ready for @stats; NULL if none.  Under the lock. */
static struct lf_ioq_job *get_job(struct lf_ioq *q, bool stats)
{
	struct lf_ioq_job *job = q->free_jobs;
	if (job) {
		q->free_jobs = job->down;
	} else if (!(job = malloc(sizeof(*job)))) {
		return NULL;
	} else {
		job->st = NULL;
		job->stat_err = NULL;
	}
	if (stats && !job->st) {
		job->st = malloc(LF_IOQ_STATS * sizeof(*job->st));
		job->stat_err = malloc(LF_IOQ_STATS * sizeof(*job->stat_err));
		if (!job->st || !job->stat_err) {
			free(job->st);
			free(job->stat_err);
			job->st = NULL;
			job->stat_err = NULL;
			job->down = q->free_jobs;
			q->free_jobs = job;
			return NULL;
		}
	}
	return job;
}

/* Back to the free list.  Under the lock. */
static void put_job(struct lf_ioq *q, struct lf_ioq_job *job)
{
	q->stat_jobs -= job->stats;
	job->down = q->free_jobs;
	q->free_jobs = job;
	q->live--;
}

/*
 * Push jobs for the first of @names (directories at @depth below @dir_fd)
 * that the queue has room for, last to first, so that the first is on top.
 * Under the lock.  @return how many, in jobs[].
 */
static unsigned push_locked(struct lf_ioq *q, int dir_fd, int depth, const char *const *names, unsigned n,
			    bool stats, struct lf_ioq_job **jobs)
{
	unsigned room = q->max_jobs - q->live;
	if (n > room) {
		n = room;
	}
	/* The entries in these directories are at depth + 1. */
	stats = stats && depth + 1 >= q->mindepth &&
		q->stat_jobs + atomic_load_explicit(&q->windows, memory_order_relaxed) + n <= LF_IOQ_STAT_WINDOWS;
	for (unsigned k = 0; k < n; k++) {
		jobs[k] = NULL;
	}
	unsigned made = 0;
	for (unsigned k = 0; k < n; k++) {
		size_t len = strlen(names[k]);
		struct lf_ioq_job *job = len <= NAME_MAX ? get_job(q, stats) : NULL;
		if (!job) {
			break; /* the first ones or none: the walk's order is kept */
		}
		job->stats = stats;
		job->maxdepth_ok = q->maxdepth < 0 || depth + 1 < q->maxdepth;
		job->dir_fd = dir_fd;
		job->depth = depth;
		job->fd = -1;
		job->open_err = job->read_err = 0;
		job->eof = false;
		job->getdents = job->nstats = job->nring = 0;
		job->ncand = job->nkids = 0;
		job->len = 0;
		memcpy(job->name, names[k], len + 1);
		atomic_init(&job->state, JOB_PENDING);
		jobs[k] = job;
		made++;
		q->live++;
		q->stat_jobs += stats;
	}
	if (made) {
		atomic_fetch_add_explicit(&q->pushed, 1, memory_order_relaxed);
	}
	for (unsigned k = made; k-- > 0;) {
		struct lf_ioq_job *job = jobs[k];
		job->up = NULL;
		job->down = q->top;
		if (q->top) {
			q->top->up = job;
		}
		q->top = job;
	}
	return made;
}

unsigned lf_ioq_submit(struct lf_ioq *q, int dir_fd, int depth, const char *const *names, unsigned n,
		       bool stats, struct lf_ioq_job **jobs)
{
	if (n > LF_IOQ_KIDS) {
		n = LF_IOQ_KIDS;
	}
	pthread_mutex_lock(&q->lock);
	if (q->started == 0 && start_workers(q, 1) != 0) {
		pthread_mutex_unlock(&q->lock);
		return 0;
	}
	unsigned made = push_locked(q, dir_fd, depth, names, n, stats, jobs);
	if (made && q->sleeping) {
		pthread_cond_signal(&q->work);
	}
	pthread_mutex_unlock(&q->lock);
	return made;
}

bool lf_ioq_running(const struct lf_ioq *q)
{
	return running(q);
}

bool lf_ioq_share(struct lf_ioq *q, bool on)
{
	if (on && !q->share_workers) {
		return false;
	}
	if (on == atomic_load_explicit(&q->share, memory_order_relaxed)) {
		return on;
	}
	pthread_mutex_lock(&q->lock);
	atomic_store_explicit(&q->share, on, memory_order_relaxed);
	if (on && !q->stop && q->started < q->share_workers) {
		start_workers(q, q->share_workers);
	}
	if (on && q->top && q->sleeping) {
		pthread_cond_broadcast(&q->work);
	}
	pthread_mutex_unlock(&q->lock);
	return on;
}

void lf_ioq_windows(struct lf_ioq *q, unsigned held)
{
	atomic_store_explicit(&q->windows, held, memory_order_relaxed);
}

/*
 * Withdraw the job if no worker has it, else wait until it is done.
 * @return its state afterwards: JOB_WITHDRAWN or JOB_DONE
 */
static int settle(struct lf_ioq *q, struct lf_ioq_job *job, bool help)
{
	int state = atomic_load_explicit(&job->state, memory_order_acquire);
	if (state == JOB_DONE || state == JOB_WITHDRAWN) {
		return state;
	}
	/* Shared: run the next pending jobs meanwhile, which the walk needs soon. */
	if (help && state == JOB_BUSY && atomic_load_explicit(&q->share, memory_order_relaxed)) {
		struct worker wk = {q, UINT_MAX, NULL, true};
		uint64_t until = 0;
		do {
			pthread_mutex_lock(&q->lock);
			struct lf_ioq_job *next = pop_locked(q);
			pthread_mutex_unlock(&q->lock);
			if (next) {
				run_published(q, next, &wk);
				until = 0;
			} else {
				/* Nothing to run: poll for the job, or for new jobs (its kids). */
				unsigned seen = atomic_load_explicit(&q->pushed, memory_order_relaxed);
				uint64_t now = lf_now_ns();
				if (!until) {
					until = now + TAKE_SPIN_SHARE_NS;
				} else if (now > until) {
					break;
				}
				for (unsigned k = 0; k < 64 && state == JOB_BUSY &&
						    atomic_load_explicit(&q->pushed, memory_order_relaxed) == seen;
				     k++) {
					lf_cpu_relax();
					state = atomic_load_explicit(&job->state, memory_order_acquire);
				}
			}
			state = atomic_load_explicit(&job->state, memory_order_acquire);
		} while (state == JOB_BUSY);
	}
	if (state == JOB_BUSY) {
		/* Likely done soon: a small directory read from the cache. */
		uint64_t until = 0;
		for (unsigned k = 1; state == JOB_BUSY; k++) {
			lf_cpu_relax();
			if (k % 64 == 0) {
				uint64_t now = lf_now_ns();
				if (!until) {
					/* A racy read is fine: it only tunes the wait. */
					bool awake = atomic_load_explicit(&q->awake, memory_order_relaxed);
					until = now + (awake ? TAKE_SPIN_IO_NS : TAKE_SPIN_NS);
				} else if (now > until) {
					break;
				}
			}
			state = atomic_load_explicit(&job->state, memory_order_acquire);
		}
		if (state == JOB_DONE) {
			return state;
		}
	}
	pthread_mutex_lock(&q->lock);
	state = atomic_load_explicit(&job->state, memory_order_relaxed);
	if (state == JOB_PENDING) {
		unlink_job(q, job);
		state = JOB_WITHDRAWN;
		atomic_store_explicit(&job->state, state, memory_order_relaxed);
	}
	q->waiting++;
	while (state == JOB_BUSY) {
		pthread_cond_wait(&q->done, &q->lock);
		state = atomic_load_explicit(&job->state, memory_order_relaxed);
	}
	q->waiting--;
	pthread_mutex_unlock(&q->lock);
	return state;
}

void lf_ioq_settle(struct lf_ioq *q, struct lf_ioq_job *job)
{
	settle(q, job, false);
}

int lf_ioq_take(struct lf_ioq *q, struct lf_ioq_job *job, struct lf_ioq_result *res)
{
	if (settle(q, job, true) != JOB_DONE) {
		return -1;
	}
	res->fd = job->fd;
	job->fd = -1;
	res->open_err = job->open_err;
	res->recs = job->buf;
	res->len = job->len;
	res->eof = job->eof;
	res->read_err = job->read_err;
	res->getdents = job->getdents;
	res->nstats = job->nstats;
	res->nring = job->nring;
	res->st = job->st;
	res->stat_err = job->stat_err;
	res->nkids = job->nkids;
	for (unsigned k = 0; k < job->nkids; k++) {
		res->kids[k] = job->kids[k];
		res->kid_recs[k] = job->kid_recs[k];
	}
	job->nkids = 0;
	return 0;
}

void lf_ioq_done(struct lf_ioq *q, struct lf_ioq_job *job)
{
	pthread_mutex_lock(&q->lock);
	put_job(q, job);
	pthread_mutex_unlock(&q->lock);
}

void lf_ioq_drop(struct lf_ioq *q, struct lf_ioq_job *job, struct lf_ioq_work *work)
{
	if (settle(q, job, false) == JOB_DONE) {
		work->opens++;
		work->getdents += job->getdents;
		work->stats += job->nstats;
		work->ring_stats += job->nring;
		/* Before the fd they are relative to goes. */
		for (unsigned k = 0; k < job->nkids; k++) {
			lf_ioq_drop(q, job->kids[k], work);
		}
		job->nkids = 0;
		if (job->fd >= 0) {
			close(job->fd);
			job->fd = -1;
			work->closes++;
		}
	}
	lf_ioq_done(q, job);
}
