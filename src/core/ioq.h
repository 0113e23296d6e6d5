/*
 * ioq.h: the I/O queue, worker threads that open and read directories (and
 * stat their entries) ahead of the walk (LF_WALK_READ_AHEAD).  Private to
 * the core, not installed.
 *
 * The walker submits the subdirectories it is going to read; a worker opens
 * one (openat relative to its parent's fd, never following a link), reads
 * its first records into the job's buffer, and with stats asked for, stats
 * the first names of those records in inode order.  Then it submits the
 * first subdirectories among those records as the job's kids, relative to
 * the fd it opened, so the queue runs ahead of the walk by more than one
 * level.  The walker then takes the job over: the fd, the records, the stat
 * data, the kids, and what the worker did, to count it.  A job the walker reaches before any worker has started
 * it is the walker's to do by itself, so waiting on a busy queue never
 * costs more than doing the work.
 *
 * Each job holds its parent's fd by number only: the walker keeps that fd
 * open until it has taken, settled or dropped the job (a kid's parent fd is
 * its parent job's until the walker takes that job).  All functions are
 * for the walker's thread.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_IOQ_H
#define LF_IOQ_H

#include "stat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lf_ioq;
struct lf_ioq_job;

/** Names of a job's records that it stats at most (the first ones). */
#define LF_IOQ_STATS 256

/** Kids a job submits at most, and a batch's size. */
#define LF_IOQ_KIDS 8

/** Live jobs with stats, plus windows of their results the walker holds, at most. */
#define LF_IOQ_STAT_WINDOWS 256

/** What a worker did for a job, handed over by lf_ioq_take(). */
struct lf_ioq_result {
	int fd;             /**< the directory's fd, now the caller's; -1 if the open failed */
	int open_err;       /**< errno of the failed open, else 0 */
	const char *recs;   /**< the records read (getdents64 layout), valid until lf_ioq_done() */
	size_t len;         /**< bytes of records */
	bool eof;           /**< the directory has nothing more to read */
	int read_err;       /**< errno of a failed getdents64 after the records, else 0 */
	unsigned getdents;  /**< getdents64 calls made */
	/**
	 * Stat data (not following links) of the first @nstats names of the
	 * records other than "." and "..", in the order of the records:
	 * stat_err[i] is 0 when st[i] is filled in, else the errno.
	 */
	unsigned nstats;
	unsigned nring; /**< of those, made through io_uring */
	const struct lf_stat *st;
	const int *stat_err;
	/**
	 * The first subdirectories of the records, submitted by the worker:
	 * kids[i]'s record is at recs + kid_recs[i], in the records' order.
	 * They are the caller's now, to take or drop like its own.
	 */
	unsigned nkids;
	struct lf_ioq_job *kids[LF_IOQ_KIDS];
	size_t kid_recs[LF_IOQ_KIDS];
};

/** The syscalls a worker made for a job that was dropped, to count them. */
struct lf_ioq_work {
	uint64_t opens, closes, getdents, stats, ring_stats;
};

/**
 * A queue with @workers threads (started when the first job comes), at most
 * @max_jobs jobs live (each holds one fd once open), whose workers may set
 * up @rings io_uring instances for their stats between them (one fd each;
 * the others stat by themselves), for a walk whose directories deeper than
 * @maxdepth are not read (-1: no limit) and whose entries shallower than
 * @mindepth are not evaluated (their stats unwanted).
 * @return NULL with errno set
 */
struct lf_ioq *lf_ioq_new(unsigned workers, unsigned max_jobs, unsigned rings, int maxdepth, int mindepth);

/**
 * The most memory lf_ioq_new(@workers, @max_jobs, ...) holds (every job
 * live, with stats), for a memory account; the threads' stacks aside.
 */
size_t lf_ioq_memory(unsigned workers, unsigned max_jobs);

/** Stop the workers and free @q (NULL is fine); every job must be freed. */
void lf_ioq_free(struct lf_ioq *q);

/**
 * Ready @q for another walk (a queue that outlives walks, walk.h's
 * lf_walk_queue): its directories deeper than @maxdepth are not read, its
 * entries shallower than @mindepth not evaluated; not shared, no stat
 * window held.  No job may be live.  What the queue learnt of the
 * filesystem carries over: whether its jobs wait for I/O (the workers
 * stay awake), whether stats wait one by one (the workers' rings).
 */
void lf_ioq_begin(struct lf_ioq *q, int maxdepth, int mindepth);

/**
 * Queue the directories @names[0, @n) (copied), at depth @depth, below the
 * open directory @dir_fd, as many of the first ones as the queue has room
 * for; with @stats, their first names are stat'ed too, as long as the stat
 * windows allow (lf_ioq_windows()).
 * @return how many were queued, jobs[0, that) (the others the caller reads
 *         by itself)
 */
unsigned lf_ioq_submit(struct lf_ioq *q, int dir_fd, int depth, const char *const *names, unsigned n,
		       bool stats, struct lf_ioq_job **jobs);

/** One directory in this many is submitted while the queue is dormant. */
#define LF_IOQ_SAMPLE_EVERY 32

/**
 * Share the jobs of a warm walk (@on) or not: while shared, the workers
 * run every job (as many workers as the process has CPUs besides the
 * caller's), and lf_ioq_take() runs the next pending jobs in the caller's
 * thread while the one it takes is still being read.  The walker decides,
 * by timing the walk both ways: it pays only while a core is idle.
 * @return whether the jobs are shared now (never on one CPU)
 */
bool lf_ioq_share(struct lf_ioq *q, bool on);

/**
 * Whether the workers run every job: jobs have been blocking on I/O lately,
 * or the walk shares them.  While not (the queue is dormant), the caller
 * submits only one directory in LF_IOQ_SAMPLE_EVERY, and reads the others
 * by itself, as quickly as a worker would with the cache warm.
 */
bool lf_ioq_running(const struct lf_ioq *q);

/**
 * Tell the queue how many windows of stat results the walker holds: jobs
 * get stats only while those and the live jobs with stats number fewer
 * than LF_IOQ_STAT_WINDOWS.
 */
void lf_ioq_windows(struct lf_ioq *q, unsigned held);

/**
 * Take the job over, waiting if a worker is on it.
 * @return 0 with *@res filled in (the job stays allocated for res->recs
 *         until lf_ioq_done()), or -1 if no worker had started it: then it
 *         never will, and the caller reads the directory by itself
 */
int lf_ioq_take(struct lf_ioq *q, struct lf_ioq_job *job, struct lf_ioq_result *res);

/** Free a job lf_ioq_take() returned (its kids are the caller's). */
void lf_ioq_done(struct lf_ioq *q, struct lf_ioq_job *job);

/**
 * Make sure no worker is using, or will use, the job's parent fd: a job
 * not started is withdrawn (lf_ioq_take() will return -1), a job under way
 * is waited for.  Due before the parent's fd is closed.
 */
void lf_ioq_settle(struct lf_ioq *q, struct lf_ioq_job *job);

/**
 * Give the job up with its kids: settle it, drop its kids, close the fd a
 * worker opened, and free it.  Adds what the workers did for them to *@work.
 */
void lf_ioq_drop(struct lf_ioq *q, struct lf_ioq_job *job, struct lf_ioq_work *work);

#endif
