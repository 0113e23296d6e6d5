/*
 * walk_dfs_ioq.c: the depth-first engine's read-ahead (LF_WALK_READ_AHEAD):
 * each frame's ring of I/O queue jobs reading its next subdirectories, fed
 * from its region, and a job's records, stat data and kids adopted by the
 * frame pushed for it.  The queue itself is ioq.c; walk_dfs.c decides when.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "walk_dfs.h"

#include "dir.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

/* Give up a job, counting what a worker did for it. */
static void drop_job(struct lf_walk *w, struct lf_ioq_job *job)
{
	struct lf_ioq_work work = {0, 0, 0, 0, 0};
	lf_ioq_drop(w->ioq, job, &work);
	w->counters.opens += work.opens;
	w->counters.closes += work.closes;
	w->counters.getdents += work.getdents;
	w->counters.stats += work.stats;
	w->counters.stats_ahead += work.stats;
	w->counters.stats_ring += work.ring_stats;
	w->counters.dirs_ahead += work.opens;
	w->counters.dirs_ahead_unused += work.opens;
}

/* Drop the kids of a job taken over whose frame will not hold them. */
static void drop_kids(struct lf_walk *w, struct lf_ioq_result *res)
{
	for (unsigned k = 0; k < res->nkids; k++) {
		drop_job(w, res->kids[k]);
	}
	res->nkids = 0;
}

/* The front job of frame @i's ring, taken off it. */
static struct lf_ioq_job *rq_shift(struct lf_frame_rq *r, size_t *rec)
{
	struct lf_ioq_job *job = r->jobs[r->head];
	*rec = r->recs[r->head];
	r->head = (r->head + 1) % LF_RQ_AHEAD;
	r->count--;
	return job;
}

/* Give up every job of frame @i: due before its fd is closed, or its records go. */
void lf_dfs_rq_drop_all(struct lf_walk *w, size_t i)
{
	if (!w->frame_rq) {
		return;
	}
	struct lf_frame_rq *r = &w->frame_rq[i];
	while (r->count) {
		size_t rec;
		drop_job(w, rq_shift(r, &rec));
	}
}

/*
 * Frame @i's fd is about to be evicted: no worker may use it after, so each
 * job is withdrawn or waited for (lf_ioq_settle()); the ring keeps them.
 */
void lf_dfs_rq_settle(struct lf_walk *w, size_t i)
{
	struct lf_frame_rq *r = &w->frame_rq[i];
	for (unsigned k = 0; k < r->count; k++) {
		lf_ioq_settle(w->ioq, r->jobs[(r->head + k) % LF_RQ_AHEAD]);
	}
}

/*
 * The job of frame @i for the record at arena offset @rec, taken off the
 * ring, or NULL; jobs of records before it were pruned or skipped, so they
 * are dropped.
 */
struct lf_ioq_job *lf_dfs_rq_find(struct lf_walk *w, size_t i, size_t rec)
{
	struct lf_frame_rq *r = &w->frame_rq[i];
	while (r->count && r->recs[r->head] <= rec) {
		size_t at;
		struct lf_ioq_job *job = rq_shift(r, &at);
		if (at == rec) {
			return job;
		}
		drop_job(w, job);
	}
	return NULL;
}

/*
 * A region was read: whether the dormant queue is due a sample from it.  The
 * count restarts when lf_dfs_rq_feed() has queued one (a region without
 * subdirectories leaves it due).
 */
static bool sample_region(struct lf_walk *w)
{
	if (w->ioq_sample > 1) {
		w->ioq_sample--;
		return false;
	}
	return true;
}

/* Whether frame @r's ring has a job for the record at arena offset @rec. */
static bool rq_has(const struct lf_frame_rq *r, size_t rec)
{
	for (unsigned k = 0; k < r->count; k++) {
		if (r->recs[(r->head + k) % LF_RQ_AHEAD] == rec) {
			return true;
		}
	}
	return false;
}

/*
 * Put @n jobs for the records @recs (ascending) into the ring, which stays
 * in the records' order: they go before a dormant queue's sample, the only
 * job a ring can hold for a record after them.
 */
static void rq_merge(struct lf_frame_rq *r, struct lf_ioq_job *const *jobs, const size_t *recs, unsigned n)
{
	struct lf_ioq_job *mj[LF_RQ_AHEAD];
	size_t mr[LF_RQ_AHEAD];
	unsigned m = 0, a = 0, b = 0;
	while (a < r->count || b < n) {
		unsigned at = (r->head + a) % LF_RQ_AHEAD;
		if (b == n || (a < r->count && r->recs[at] < recs[b])) {
			mj[m] = r->jobs[at];
			mr[m++] = r->recs[at];
			a++;
		} else {
			mj[m] = jobs[b];
			mr[m++] = recs[b++];
		}
	}
	for (unsigned k = 0; k < m; k++) {
		r->jobs[k] = mj[k];
		r->recs[k] = mr[k];
	}
	r->head = 0;
	r->count = m;
}

/*
 * Queue the next subdirectories in frame @t's region that the walk will
 * read, up to LF_RQ_AHEAD of them in the ring, while the queue has room.
 * A dormant queue gets one, the region's last, and only when @sample says
 * so; the others before it are queued if the queue wakes up while the walk
 * is still in the region (the region of a directory with many
 * subdirectories, the root's often, when the first of them turns out cold).
 */
void lf_dfs_rq_feed(struct lf_walk *w, size_t t, bool sample)
{
	struct lf_frame *f = &w->frames[t];
	struct lf_frame_rq *r = &w->frame_rq[t];
	bool awake = lf_ioq_running(w->ioq);
	if ((!awake && !sample) || f->fd < 0 || (w->opts.maxdepth >= 0 && f->depth + 1 >= w->opts.maxdepth)) {
		return;
	}
	size_t cur = f->end - f->left;
	if (r->next < cur) {
		r->next = cur;
	}
	size_t recs[LF_RQ_AHEAD];
	const char *names[LF_RQ_AHEAD];
	unsigned n = 0;
	size_t next = r->next;
	while (r->count + n < LF_RQ_AHEAD && next < f->end) {
		struct lf_dirent *d = (struct lf_dirent *)(w->arena + next);
		if (d->d_type == DT_DIR && !lf_dir_is_dot(d->d_name) && !rq_has(r, next)) {
			if (!awake) {
				n = 0; /* a sample: the last one, which leaves a worker the most time */
			}
			recs[n] = next;
			names[n++] = d->d_name;
		}
		next += d->d_reclen;
	}
	if (!n) {
		r->next = next;
		return;
	}
	if (!awake) {
		w->ioq_sample = LF_IOQ_SAMPLE_EVERY;
	}
	/* Stats for its children's entries if they are evaluated at all. */
	bool stats = w->stat_ahead && w->frame_pf;
	struct lf_ioq_job *jobs[LF_RQ_AHEAD];
	unsigned made = lf_ioq_submit(w->ioq, f->fd, f->depth + 1, names, n, stats, jobs);
	rq_merge(r, jobs, recs, made);
	/* The rest waits for room, from the first one not queued (a sample's
	 * region from where it was, for the queue awake). */
	if (awake) {
		r->next = made == n ? next : recs[made];
	}
}

/* Frame @t's region holds new records: read their subdirectories ahead. */
void lf_dfs_rq_region(struct lf_walk *w, size_t t)
{
	lf_dfs_rq_drop_all(w, t); /* their records are gone */
	w->frame_rq[t].next = w->frames[t].end - w->frames[t].left;
	lf_dfs_rq_feed(w, t, sample_region(w));
}

/*
 * Take over the job that read the directory about to be pushed: its fd in
 * *@fd (or its open's errno in *@err).  @return false if the walker must
 * open the directory itself; the job is then freed, else the caller frees
 * it with lf_ioq_done() once the records are copied.
 */
bool lf_dfs_rq_take(struct lf_walk *w, struct lf_ioq_job *job, struct lf_ioq_result *res, int *fd, int *err)
{
	if (lf_ioq_take(w->ioq, job, res) != 0) {
		lf_ioq_done(w->ioq, job);
		if (!lf_ioq_running(w->ioq)) {
			/* A sample no worker got to (a busy machine): the next region offers another. */
			w->ioq_sample = 1;
		}
		return false;
	}
	w->counters.opens++;
	w->counters.dirs_ahead++;
	w->counters.getdents += res->getdents;
	w->counters.stats_ring += res->nring;
	if (res->fd < 0 && (res->open_err == EMFILE || res->open_err == ENFILE)) {
		w->counters.dirs_ahead_unused++;
		lf_ioq_done(w->ioq, job); /* the walker's open makes room */
		return false;
	}
	if (res->fd < 0) {
		*err = res->open_err;
		return true;
	}
	lf_walk_make_room(w, 1);
	w->open_fds++;
	*fd = res->fd;
	return true;
}

/* Free a job taken over, dropping the kids no frame will hold. */
void lf_dfs_rq_abandon(struct lf_walk *w, struct lf_ioq_job *job, struct lf_ioq_result *res)
{
	drop_kids(w, res);
	lf_ioq_done(w->ioq, job);
}

/* Put what a job read in the new top frame's region, stat data and kids included. */
int lf_dfs_rq_adopt(struct lf_walk *w, struct lf_ioq_result *res)
{
	size_t t = w->nframes - 1;
	if (lf_walk_reserve_arena(w, res->len) != 0) {
		drop_kids(w, res);
		return lf_walk_set_fatal(w, errno);
	}
	struct lf_frame *f = &w->frames[t];
	memcpy(w->arena + w->arenatop, res->recs, res->len);
	w->arenatop += res->len;
	f->end = w->arenatop;
	f->left = (uint32_t)res->len;
	if (res->eof) {
		f->flags |= F_EOF;
	}
	if (res->read_err) {
		struct lf_spill *s = lf_dfs_add_spill(w, t);
		if (!s) {
			drop_kids(w, res);
			return lf_walk_set_fatal(w, errno);
		}
		s->err = res->read_err;
	}
	if (res->nstats) {
		struct lf_pf_window *win = NULL;
		if (w->stat_ahead && w->frame_pf) {
			win = lf_prefetch_adopt(w->prefetch, res->nstats, res->st, res->stat_err);
		}
		if (win) {
			w->frame_pf[t] = (struct lf_frame_pf){win, 0, 0};
			lf_ioq_windows(w->ioq, lf_prefetch_adopted(w->prefetch));
		} else {
			w->counters.stats += res->nstats; /* made in vain */
			w->counters.stats_ahead += res->nstats;
		}
	}
	/* The kids the worker queued are this frame's, in the records' order. */
	struct lf_frame_rq *r = &w->frame_rq[t];
	size_t start = f->end - f->left;
	r->next = start;
	for (unsigned k = 0; k < res->nkids; k++) {
		r->jobs[k] = res->kids[k];
		r->recs[k] = start + res->kid_recs[k];
		r->next = r->recs[k] + ((struct lf_dirent *)(w->arena + r->recs[k]))->d_reclen;
	}
	r->head = 0;
	r->count = res->nkids;
	lf_dfs_rq_feed(w, t, sample_region(w));
	return 0;
}