/*
 * walk.c: one work item's walk, and the deferred post-order phases.
 *
 * An item is a directory D at depth d below root R.  The rank opens D
 * from R without following links and checks its identity (open.c), and
 * opens a walker on that fd (lf_walk_opts.root_fds) with D's path as the
 * root's name (as plain luafind shows it, so entries' paths are the same),
 * with -maxdepth made relative to D, and before evaluating an entry
 * it makes it look as it would in plain luafind's walk: depth + d (the
 * walker's own -mindepth is 0, ours is applied here), root R (so %H and %P
 * name R), and for D itself the name after its last slash and its checked
 * parent's fd as at_fd (so -delete and -execdir act through it, not
 * through the path).  The entry is put back as it was before the walker
 * sees it again.
 *
 * D's own pre-order visit was evaluated by the rank that found it; this
 * one evaluates D's post-order visit (-depth) and everything below.  When
 * a rank is hungry (work.c), a directory the walk is about to read
 * (lf_walk_will_read: within -maxdepth, not pruned by -prune or
 * -exclude, on the root's device under -xdev, not a loop) becomes an item
 * instead, and the walk prunes it.  Under -L the item carries the
 * identities of all of its ancestors, and a directory below it that is one
 * of them is reported as the loop it is (as the walker reports a loop
 * among its own ancestors).  Under -xdev nothing more is needed: a
 * directory is only read (and so only shared) on the root's device, and
 * the walker of an item compares with D's device, which is the root's.
 *
 * -depth and -delete: a directory is evaluated after its contents.  When
 * part of its subtree went to other ranks, its post-order visit cannot come
 * at the end of this walk: it is deferred (its path and depth kept).  After
 * the walk has ended everywhere and all ranks agreed that none failed, the
 * deferred directories are evaluated by depth, deepest first, with a
 * barrier between depths, so a directory is deleted only once all ranks
 * are done below it.  Only directories above a shared one are deferred,
 * and shared paths are shorter than LFM_SHIP_PATH_MAX, so a deep chain goes
 * on in one rank's walker, at the walker's own cost.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include "diag.h"
#include "expr.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * A poll of the other ranks every LFM_POLL_US microseconds of walking, the
 * clock looked at every LFM_POLL_CLOCK entries: through a slow filesystem
 * a few entries may take milliseconds, which a hungry rank would spend
 * waiting for its answer; on a fast one, a poll every few dozen entries
 * (as it was) cost more than the walk's own work: every MPI call that
 * finds nothing calls sched_yield() in an oversubscribed job (OpenMPI's
 * yield_when_idle), 43,000 of them in a 4-rank listing of 500k entries.
 */
#define LFM_POLL_CLOCK 4
#define LFM_POLL_US 300

/* Opening an item slower than this on average: its stats are worth a thread. */
#define LFM_SLOW_OPEN_US 50

/* A directory of the current walk on the way from D down. */
struct frame {
	int depth; /* the walker's */
	bool defer; /* a directory below went to another rank */
	bool skip_post; /* itself went to another rank, or is a loop */
	bool hold; /* --run: nothing below goes to another rank (lfm_hold) */
	uint64_t dev, ino; /* -L */
	size_t pathlen;
};

struct walk_state {
	struct lfm *m;
	struct lfm_item *it;
	struct lf_walk *w;
	struct frame *fr;
	size_t nfr, capfr;
	struct lfm_dir dir; /* D, opened by open.c (not for a root's item) */
	struct lfm_ids root_id; /* for the items made here */
	unsigned holds; /* frames with hold set */
};

/* What the fix-ups changed, to be put back. */
struct saved {
	int depth;
	size_t root, nameoff;
	int at_fd;
	const char *at_name;
};

static void fix(const struct walk_state *s, struct lf_entry *e, struct saved *sv)
{
	sv->depth = e->depth;
	sv->root = e->root;
	sv->nameoff = e->nameoff;
	sv->at_fd = e->at_fd;
	sv->at_name = e->at_name;
	if (e->depth == 0 && !s->it->is_root) {
		const char *slash = memrchr(e->path, '/', e->pathlen);
		e->nameoff = slash ? (size_t)(slash - e->path) + 1 : 0;
		/* D is acted on (removed, -execdir) through its checked parent,
		 * never by its path, which may lead elsewhere by now. */
		e->at_fd = s->dir.parent;
		e->at_name = s->dir.name;
	}
	e->depth += s->it->depth;
	e->root = s->it->root;
}

static void unfix(struct lf_entry *e, const struct saved *sv)
{
	e->depth = sv->depth;
	e->root = sv->root;
	e->nameoff = sv->nameoff;
	e->at_fd = sv->at_fd;
	e->at_name = sv->at_name;
}

/* A directory that could not be opened safely: an error entry, as the walker reports one. */
static void report(struct lfm *m, const char *path, int depth, int err)
{
	if (err == ENOENT && m->cmd->ignore_race && depth > 0) {
		return;
	}
	if (lf_eval_noerror(&m->run->ev)) {
		return; /* counted, and the status is 1, as the run does for an error entry */
	}
	struct lf_entry e = {.path = path, .pathlen = strlen(path), .depth = depth, .visit = LF_VISIT_ERROR,
			     .at_fd = -1, .error = err};
	lf_out_flush(m->run->ev.out);
	lf_run_report_entry(m->cmd->ctx, &e);
	m->run->ev.status = 1;
}

static void fault(struct lfm *m)
{
	if (m->fault_after && m->entries >= m->fault_after) {
		fflush(stdout);
		raise(SIGKILL); /* the killed-rank test (LUAFIND_MPI_FAULT) */
	}
}

/* Evaluate an entry already fixed up, if deep enough (--run: hand it to the script). */
static void eval(struct walk_state *s, struct lf_entry *e)
{
	struct lfm *m = s->m;
	if (e->visit != LF_VISIT_ERROR && e->depth < m->mindepth) {
		return;
	}
	m->entries++;
	if (m->script) {
		lfm_script_entry(m, s->w, e, LFM_PLAIN, NULL, NULL);
	} else {
		lf_run_entry(m->run, s->w, e);
	}
	fault(m);
}

/* --run: a post-order visit that is not LFM_PLAIN. */
static void eval_post(struct walk_state *s, struct lf_entry *e, enum lfm_how how, struct lfm_deferred *d,
		      int up_rank)
{
	struct lfm *m = s->m;
	struct lfm_target t = {up_rank, (uint32_t)e->root, e->depth - 1, e->path, e->pathlen};
	if (how != LFM_PARTIAL) {
		m->entries++; /* a deferred directory's post-order visit counts once, when joined */
	}
	lfm_script_entry(m, s->w, e, how, d, &t);
	fault(m);
}

/* Drop the deepest frame. */
static void pop(struct walk_state *s)
{
	if (s->fr[--s->nfr].hold) {
		s->holds--;
	}
}

static int push_frame(struct walk_state *s, const struct frame *f)
{
	if (s->nfr == s->capfr) {
		size_t cap = s->capfr ? 2 * s->capfr : 32;
		struct frame *p = realloc(s->fr, cap * sizeof(*p));
		if (!p) {
			return -1;
		}
		s->fr = p;
		s->capfr = cap;
	}
	s->fr[s->nfr++] = *f;
	return 0;
}

static int defer(struct lfm *m, const struct lf_entry *e, const struct lfm_ids *id, int up_rank)
{
	if (m->ndef == m->capdef) {
		size_t cap = m->capdef ? 2 * m->capdef : 64;
		struct lfm_deferred *p = realloc(m->def, cap * sizeof(*p));
		if (!p) {
			return -1;
		}
		m->def = p;
		m->capdef = cap;
	}
	char *path = strndup(e->path, e->pathlen);
	if (!path) {
		return -1;
	}
	m->def[m->ndef++] = (struct lfm_deferred){path, e->depth, (uint32_t)e->root, *id, up_rank, 0, 0};
	return 0;
}

/* Under -L: the inherited ancestor that @e (a directory) is, or -1. */
static long inherited_loop(const struct walk_state *s, struct lf_entry *e)
{
	if (!s->it->nanc) {
		return -1;
	}
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
	if (!st) {
		return -1;
	}
	for (uint32_t i = 0; i < s->it->nanc; i++) {
		if (s->it->anc[i].dev == st->dev && s->it->anc[i].ino == st->ino) {
			return (long)i;
		}
	}
	return -1;
}

/*
 * The identity of directory @e below the item's top, into @id: the walk's
 * stat if it made one, else what the kernel holds (lfm_id_at).
 */
static int entry_id(const struct walk_state *s, struct lf_entry *e, struct lfm_ids *id)
{
	const struct lf_stat *st = lf_entry_stat_cached(e, LF_FOLLOW_WALK);
	if (st) {
		id->dev = st->dev;
		id->ino = st->ino;
		return 0;
	}
	return lfm_id_at(e->at_fd, e->at_name, s->m->logical, &id->dev, &id->ino);
}

/* Make directory @e (the top frame) an item for whoever is hungry.  @return 1 if it went, 0 if not, -1 */
static int share(struct walk_state *s, struct lf_entry *e)
{
	struct lfm *m = s->m;
	struct lfm_item it = {0};
	/* Its identity, for the rank that opens it: one stat per shared directory. */
	it.id = s->root_id;
	if (entry_id(s, e, &it.id) != 0) {
		return 0; /* the walk reports what went wrong when it opens it */
	}
	it.path = strndup(e->path, e->pathlen);
	it.pathlen = e->pathlen;
	it.depth = e->depth;
	it.root = (uint32_t)e->root;
	it.origin = m->rank;
	if (m->logical) {
		/* Its ancestors: D's, then D and those below it, not itself. */
		it.nanc = s->it->nanc + (uint32_t)(s->nfr - 1);
		it.anc = malloc(it.nanc * sizeof(*it.anc) + 1);
		if (it.anc) {
			if (s->it->nanc) { /* a root's item has none (anc NULL) */
				memcpy(it.anc, s->it->anc, s->it->nanc * sizeof(*it.anc));
			}
			for (size_t i = 0; i + 1 < s->nfr; i++) {
				it.anc[s->it->nanc + i] =
					(struct lfm_anc){s->fr[i].dev, s->fr[i].ino, s->fr[i].pathlen};
			}
		}
	}
	if (!it.path || (m->logical && !it.anc) || lfm_push(m, &it) != 0) {
		lfm_item_free(&it);
		return -1;
	}
	lf_walk_prune(s->w);
	s->fr[s->nfr - 1].skip_post = true;
	if (m->post) {
		for (size_t i = 0; i + 1 < s->nfr; i++) {
			s->fr[i].defer = true;
		}
	}
	if (m->qlen >= m->hungry) {
		m->hungry = 0;
	}
	if (m->qlen >= m->stock) {
		m->restock = false; /* until a thief takes some: no item walked for nothing */
	}
	return 1;
}

/* A pre-order visit of a directory (walker depth @k), fixed up. */
static void visit_dir(struct walk_state *s, struct lf_entry *e, int k)
{
	struct lfm *m = s->m;
	struct frame f = {.depth = k, .pathlen = e->pathlen};
	if (m->logical) {
		long loop = k > 0 ? inherited_loop(s, e) : -1;
		if (loop >= 0) {
			/* As the walker reports a loop among its own frames. */
			lf_walk_prune(s->w);
			f.skip_post = true;
			push_frame(s, &f);
			e->visit = LF_VISIT_ERROR;
			e->error = ELOOP;
			e->loop_pathlen = s->it->anc[loop].pathlen;
			eval(s, e);
			e->visit = LF_VISIT_PRE;
			e->error = 0;
			e->loop_pathlen = 0;
			return;
		}
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (st) {
			f.dev = st->dev;
			f.ino = st->ino;
		}
	}
	if (k == 0 && s->it->is_root) {
		/* The root's identity, stat'ed by the walker, for the items below. */
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (st) {
			s->root_id.root_dev = st->dev;
			s->root_id.root_ino = st->ino;
		}
	}
	if (push_frame(s, &f) != 0) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		return;
	}
	/*
	 * Shared: for a rank that asked (at any depth), and the item's own
	 * subdirectories while the queue is short since a thief took some of
	 * it, so that thieves find shallow directories, big pieces, at the
	 * front of it (and a rank nobody steals from walks on in one walker).
	 */
	bool wanted = m->hungry || m->eager || (k == 1 && m->restock && m->qlen < m->stock);
	bool shareable = k > 0 && wanted && !s->holds && e->pathlen < LFM_SHIP_PATH_MAX;
	if (m->script) {
		/*
		 * A script's directory is all the walking rank's, its pre-order
		 * visit too: shared before the script sees it (what it prunes
		 * there, the rank that walks it prunes), so that one script
		 * state sees the directory's visits and its contents together.
		 */
		if (shareable && lf_walk_will_read(s->w) && share(s, e) > 0) {
			return;
		}
		if (m->eval_pre) {
			eval(s, e);
		}
		return;
	}
	if (m->eval_pre && (k > 0 || s->it->is_root)) {
		eval(s, e);
	}
	if (shareable && lf_walk_will_read(s->w) && !lf_run_must_stop(m->run)) {
		share(s, e);
	}
}

void lfm_hold(struct lfm *m)
{
	struct walk_state *s = m->walk_cur;
	if (s && s->nfr && !s->fr[s->nfr - 1].hold) {
		s->fr[s->nfr - 1].hold = true;
		s->holds++;
	}
}

int lfm_hold_dir(struct lfm *m, const struct lf_entry *e, struct lfm_target *t)
{
	struct walk_state *s = m->walk_cur;
	if (!s || !s->nfr || !m->post || e->visit != LF_VISIT_PRE || e->type == LF_DIR) {
		return -1;
	}
	s->fr[s->nfr - 1].defer = true;
	*t = (struct lfm_target){m->rank, (uint32_t)e->root, e->depth - 1, e->path, e->pathlen};
	return 0;
}

/* A post-order visit (walker depth @k), fixed up. */
static void visit_post(struct walk_state *s, struct lf_entry *e, int k)
{
	while (s->nfr && s->fr[s->nfr - 1].depth > k) {
		pop(s);
	}
	if (!s->nfr || s->fr[s->nfr - 1].depth != k) {
		eval(s, e); /* not seen before (a root above -mindepth...) */
		return;
	}
	struct frame f = s->fr[s->nfr - 1];
	pop(s);
	if (f.skip_post) {
		return;
	}
	/* Where its parent is: in this walk, the rank that shared it, or none (a root). */
	int up_rank = k > 0 ? s->m->rank : s->it->is_root ? -1 : s->it->origin;
	if (f.defer) {
		if (s->nfr) {
			s->fr[s->nfr - 1].defer = true;
		}
		/* Its identity, for the safe open of the deferred phase. */
		struct lfm_ids id = s->root_id;
		if (k == 0 && s->it->is_root) {
			id.dev = id.root_dev;
			id.ino = id.root_ino;
		} else if (k == 0) {
			id = s->it->id;
		} else if (s->m->logical) {
			id.dev = f.dev;
			id.ino = f.ino;
		} else if (entry_id(s, e, &id) != 0) {
			/* Gone or replaced: not deleted later by a path. */
			report(s->m, e->path, e->depth, errno);
			return;
		}
		if (defer(s->m, e, &id, up_rank) != 0) {
			lfm_mpi_error(s->m, "malloc", MPI_ERR_NO_MEM);
		} else if (s->m->script) {
			eval_post(s, e, LFM_PARTIAL, &s->m->def[s->m->ndef - 1], -1);
		}
		return;
	}
	if (s->m->script && k == 0 && !s->it->is_root) {
		eval_post(s, e, LFM_TOP, NULL, up_rank);
		return;
	}
	eval(s, e);
}

/*
 * Open a walker on @it's directory: a root by its path, as luafind opens
 * it; any other through open.c, its walker handed the checked fd.
 * @return the walker, or NULL (reported)
 */
static struct lf_walk *start(struct walk_state *s, struct lf_walk_opts *o, const char **roots)
{
	struct lfm *m = s->m;
	struct lfm_item *it = s->it;
	s->dir = (struct lfm_dir){-1, AT_FDCWD, it->path, "", false, false};
	roots[0] = it->path;
	o->roots = roots;
	o->nroots = 1;
	o->mindepth = 0;
	if (m->delay_ms && !it->is_root) {
		/* The race test's window: a path swapped now must not be followed. */
		struct timespec ts = {m->delay_ms / 1000, (long)(m->delay_ms % 1000) * 1000000};
		nanosleep(&ts, NULL);
	}
	/* A root's own item has no identity yet (ino 0): walked by its path,
	 * as luafind walks it; a deferred root has that walk's. */
	if (!it->is_root || it->id.ino) {
		uint64_t t0 = lfm_now_us();
		if (lfm_dir_open(m, it->root, it->path, &it->id, &s->dir) != 0) {
			report(m, it->path, it->depth, errno);
			return NULL;
		}
		o->root_fds = &s->dir.fd;
		/*
		 * The stat-ahead thread, one per walk, pays where a stat waits
		 * for I/O; where the opens above took no time (the cache, tmpfs),
		 * a thread started for each short walk of an item, spinning
		 * beside the other ranks on the cores, doubled the CPU time of a
		 * -size.  The opens' recent average decides.
		 */
		m->open_us = (7 * m->open_us + (lfm_now_us() - t0)) / 8;
		if (m->open_us < LFM_SLOW_OPEN_US) {
			o->flags &= ~(unsigned)LF_WALK_STAT_AHEAD;
		}
	}
	if (!it->is_root) {
		if (o->symlinks == LF_COMFOLLOW) {
			o->symlinks = LF_PHYSICAL; /* -H follows the roots only, and D is none */
		}
		/* Checked to be the directory found below the root: as luafind's
		 * walker, no check for / below the roots (a stat per item). */
		o->flags &= ~(unsigned)LF_WALK_REFUSE_SLASH;
	}
	struct lf_walk *w = lf_walk_open(o);
	if (!w) {
		lf_diag_kind(m->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		m->run->ev.status = 1;
		lfm_dir_close(&s->dir);
	}
	return w;
}

void lfm_walk_item(struct lfm *m, struct lfm_item *it)
{
	struct lf_walk_opts o = m->wopts;
	const char *roots[1];
	o.maxdepth = m->maxdepth >= 0 ? m->maxdepth - it->depth : -1;
	m->items++;
	struct walk_state s = {.m = m, .it = it, .root_id = it->id}; /* a root's: set on its visit */
	s.w = start(&s, &o, roots);
	if (!s.w) {
		if (m->script && !it->is_root) {
			struct lfm_target t = {it->origin, it->root, it->depth - 1, it->path, it->pathlen};
			lfm_script_lost(m, &t);
		}
		return;
	}
	m->walk_cur = &s;
	struct lf_entry *e;
	int n;
	while ((n = lf_walk_next(s.w, &e)) > 0) {
		int k = e->depth;
		struct saved sv;
		fix(&s, e, &sv);
		if (e->visit == LF_VISIT_POST) {
			visit_post(&s, e, k);
		} else {
			while (s.nfr && s.fr[s.nfr - 1].depth >= k) {
				pop(&s);
			}
			if (e->visit == LF_VISIT_ERROR) {
				eval(&s, e);
			} else if (e->type == LF_DIR) {
				visit_dir(&s, e, k);
			} else if (k > 0 || it->is_root) {
				eval(&s, e);
			}
		}
		unfix(e, &sv);
		if (++m->since_poll >= LFM_POLL_CLOCK) {
			m->since_poll = 0;
			uint64_t now = lfm_now_us();
			if (now - m->last_poll_us >= LFM_POLL_US) {
				m->last_poll_us = now;
				lfm_poll(m);
			}
		}
		if (lf_run_must_stop(m->run) || m->failed) {
			break;
		}
	}
	if (n < 0) {
		lf_diag_kind(m->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		m->run->ev.status = 1;
	}
	m->walk_cur = NULL;
	if (m->script) {
		lfm_script_walk_done(m, s.w);
	}
	lf_counters_add(&m->total, lf_walk_counters(s.w));
	lf_walk_close(s.w);
	lfm_dir_keep(m, it->root, &s.dir); /* the items it shared are below it */
	m->run->ev.walk = NULL;
	m->run->ev.entry = NULL;
	free(s.fr);
}

/* ---- the deferred phases ------------------------------------------------- */

/* The post-order visit of deferred directory @d: a walk of it alone. */
static void run_deferred(struct lfm *m, struct lfm_deferred *d)
{
	struct lfm_item it = {.path = d->path, .pathlen = strlen(d->path), .depth = d->depth, .root = d->root,
			      .is_root = d->depth == 0, .id = d->id};
	struct lf_walk_opts o = m->wopts;
	const char *roots[1];
	o.order = LF_ORDER_POST; /* the directory once, unread */
	o.maxdepth = 0;
	o.flags &= ~(unsigned)(LF_WALK_READ_AHEAD | LF_WALK_STAT_AHEAD);
	struct walk_state s = {.m = m, .it = &it};
	s.w = start(&s, &o, roots);
	if (!s.w) {
		if (m->script) {
			struct lfm_target t = {d->up_rank, d->root, d->depth - 1, d->path, it.pathlen};
			lfm_script_lost(m, &t);
		}
		return;
	}
	struct lf_entry *e;
	while (lf_walk_next(s.w, &e) > 0) {
		struct saved sv;
		fix(&s, e, &sv);
		if (m->script && e->visit == LF_VISIT_POST) {
			eval_post(&s, e, LFM_JOINED, d, d->up_rank);
		} else {
			eval(&s, e);
		}
		unfix(e, &sv);
	}
	if (m->script) {
		lfm_script_walk_done(m, s.w);
	}
	lf_counters_add(&m->total, lf_walk_counters(s.w));
	lf_walk_close(s.w);
	lfm_dir_close(&s.dir);
	m->run->ev.walk = NULL;
	m->run->ev.entry = NULL;
}

void lfm_deferred_run(struct lfm *m)
{
	int mine = -1, deepest = -1;
	for (size_t i = 0; i < m->ndef; i++) {
		mine = m->def[i].depth > mine ? m->def[i].depth : mine;
	}
	int rc = MPI_Allreduce(&mine, &deepest, 1, MPI_INT, MPI_MAX, m->comm);
	if (rc != MPI_SUCCESS) {
		lfm_mpi_error(m, "MPI_Allreduce", rc);
		return;
	}
	if (m->ndef) {
		qsort(m->def, m->ndef, sizeof(*m->def), lfm_deferred_cmp); /* m->def may be NULL */
	}
	/* --run: the claims settled, then before each depth what the one below sent up. */
	if (m->script && lfm_join_claims(m) != 0) {
		return;
	}
	size_t i = 0;
	for (int d = deepest; d >= 0 && !m->failed; d--) {
		if (m->script && lfm_join_exchange(m) != 0) {
			break;
		}
		/*
		 * Each depth resolves its directories' paths from the roots
		 * again, not through the directories kept open since the walk
		 * (or the depth before) read them: one of those may have been
		 * moved out of the tree since, and a link or another directory
		 * put in its place.  Through the kept one, the check of the
		 * deferred directory would pass, and its visit would show, and
		 * hand to -exec, a path that leads elsewhere by now (the swap
		 * group of tests/mpi/diff_mpi.sh: -exec ran in a link's
		 * target).  Resolved again, such a path is ELOOP or ESTALE,
		 * reported, and the directory not visited nor removed.  A few
		 * lookups per depth: only directories above a shared one wait.
		 */
		lfm_dirs_forget(m);
		for (; i < m->ndef && m->def[i].depth == d; i++) {
			if (!lf_run_must_stop(m->run)) {
				run_deferred(m, &m->def[i]);
				lfm_forward(m, false);
			}
		}
		if (m->size > 1 && lfm_barrier(m) != 0) {
			break;
		}
	}
}
