/*
 * walk.c: one work item's walk, and the deferred post-order phases.
 *
 * An item is a directory D at depth d below root R.  The rank opens a
 * walker on D's path (as plain luafind shows it, so entries' paths are the
 * same), with -maxdepth made relative to D, and before evaluating an entry
 * it makes it look as it would in plain luafind's walk: depth + d (the
 * walker's own -mindepth is 0, ours is applied here), root R (so %H and %P
 * name R), and for D itself the name after its last slash.  The entry is
 * put back as it was before the walker sees it again.
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

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Entries between two polls of the other ranks. */
#define LFM_POLL_EVERY 32

/* A directory of the current walk on the way from D down. */
struct frame {
	int depth; /* the walker's */
	bool defer; /* a directory below went to another rank */
	bool skip_post; /* itself went to another rank, or is a loop */
	uint64_t dev, ino; /* -L */
	size_t pathlen;
};

struct walk_state {
	struct lfm *m;
	struct lfm_item *it;
	struct lf_walk *w;
	struct frame *fr;
	size_t nfr, capfr;
};

/* What the fix-ups changed, to be put back. */
struct saved {
	int depth;
	size_t root, nameoff;
};

static void fix(const struct walk_state *s, struct lf_entry *e, struct saved *sv)
{
	sv->depth = e->depth;
	sv->root = e->root;
	sv->nameoff = e->nameoff;
	if (e->depth == 0 && !s->it->is_root) {
		const char *slash = memrchr(e->path, '/', e->pathlen);
		e->nameoff = slash ? (size_t)(slash - e->path) + 1 : 0;
	}
	e->depth += s->it->depth;
	e->root = s->it->root;
}

static void unfix(struct lf_entry *e, const struct saved *sv)
{
	e->depth = sv->depth;
	e->root = sv->root;
	e->nameoff = sv->nameoff;
}

static void fault(struct lfm *m)
{
	if (m->fault_after && m->entries >= m->fault_after) {
		fflush(stdout);
		raise(SIGKILL); /* the killed-rank test (LUAFIND_MPI_FAULT) */
	}
}

/* Evaluate an entry already fixed up, if deep enough. */
static void eval(struct walk_state *s, struct lf_entry *e)
{
	struct lfm *m = s->m;
	if (e->visit != LF_VISIT_ERROR && e->depth < m->mindepth) {
		return;
	}
	m->entries++;
	lf_run_entry(m->run, s->w, e);
	fault(m);
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

static int defer(struct lfm *m, const struct lf_entry *e)
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
	m->def[m->ndef++] = (struct lfm_deferred){path, e->depth, (uint32_t)e->root};
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

/* Make directory @e (the top frame) an item for whoever is hungry. */
static int share(struct walk_state *s, struct lf_entry *e)
{
	struct lfm *m = s->m;
	struct lfm_item it = {0};
	it.path = strndup(e->path, e->pathlen);
	it.pathlen = e->pathlen;
	it.depth = e->depth;
	it.root = (uint32_t)e->root;
	if (m->logical) {
		/* Its ancestors: D's, then D and those below it, not itself. */
		it.nanc = s->it->nanc + (uint32_t)(s->nfr - 1);
		it.anc = malloc(it.nanc * sizeof(*it.anc) + 1);
		if (it.anc) {
			memcpy(it.anc, s->it->anc, s->it->nanc * sizeof(*it.anc));
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
	return 0;
}

/* A pre-order visit of a directory (walker depth @k), fixed up. */
static void visit_dir(struct walk_state *s, struct lf_entry *e, int k)
{
	struct lfm *m = s->m;
	struct frame f = {k, false, false, 0, 0, e->pathlen};
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
	if (push_frame(s, &f) != 0) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		return;
	}
	if (m->eval_pre && (k > 0 || s->it->is_root)) {
		eval(s, e);
	}
	if (k > 0 && (m->hungry || m->eager) && e->pathlen < LFM_SHIP_PATH_MAX && lf_walk_will_read(s->w) &&
	    !lf_run_must_stop(m->run)) {
		share(s, e);
	}
}

/* A post-order visit (walker depth @k), fixed up. */
static void visit_post(struct walk_state *s, struct lf_entry *e, int k)
{
	while (s->nfr && s->fr[s->nfr - 1].depth > k) {
		s->nfr--;
	}
	if (!s->nfr || s->fr[s->nfr - 1].depth != k) {
		eval(s, e); /* not seen before (a root above -mindepth...) */
		return;
	}
	struct frame f = s->fr[--s->nfr];
	if (f.skip_post) {
		return;
	}
	if (f.defer) {
		if (s->nfr) {
			s->fr[s->nfr - 1].defer = true;
		}
		if (defer(s->m, e) != 0) {
			lfm_mpi_error(s->m, "malloc", MPI_ERR_NO_MEM);
		}
		return;
	}
	eval(s, e);
}

void lfm_walk_item(struct lfm *m, struct lfm_item *it)
{
	struct lf_walk_opts o = m->wopts;
	const char *roots[1] = {it->path};
	o.roots = roots;
	o.nroots = 1;
	o.mindepth = 0;
	o.maxdepth = m->maxdepth >= 0 ? m->maxdepth - it->depth : -1;
	m->items++;
	struct walk_state s = {m, it, NULL, NULL, 0, 0};
	s.w = lf_walk_open(&o);
	if (!s.w) {
		lf_diag_kind(m->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		m->run->ev.status = 1;
		return;
	}
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
				s.nfr--;
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
		if (++m->since_poll >= LFM_POLL_EVERY) {
			m->since_poll = 0;
			lfm_poll(m);
		}
		if (lf_run_must_stop(m->run) || m->failed) {
			break;
		}
	}
	if (n < 0) {
		lf_diag_kind(m->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		m->run->ev.status = 1;
	}
	lf_counters_add(&m->total, lf_walk_counters(s.w));
	lf_walk_close(s.w);
	m->run->ev.walk = NULL;
	m->run->ev.entry = NULL;
	free(s.fr);
}

/* ---- the deferred phases ------------------------------------------------- */

static int by_depth_desc(const void *a, const void *b)
{
	const struct lfm_deferred *x = a, *y = b;
	return (x->depth < y->depth) - (x->depth > y->depth);
}

/* The post-order visit of deferred directory @d: a walk of it alone. */
static void run_deferred(struct lfm *m, const struct lfm_deferred *d)
{
	struct lfm_item it = {.path = d->path, .pathlen = strlen(d->path), .depth = d->depth, .root = d->root,
			      .is_root = d->depth == 0};
	struct lf_walk_opts o = m->wopts;
	const char *roots[1] = {d->path};
	o.roots = roots;
	o.nroots = 1;
	o.order = LF_ORDER_POST; /* the directory once, unread */
	o.mindepth = 0;
	o.maxdepth = 0;
	o.flags &= ~(unsigned)(LF_WALK_READ_AHEAD | LF_WALK_STAT_AHEAD);
	struct walk_state s = {m, &it, NULL, NULL, 0, 0};
	s.w = lf_walk_open(&o);
	if (!s.w) {
		lf_diag_kind(m->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(errno));
		m->run->ev.status = 1;
		return;
	}
	struct lf_entry *e;
	while (lf_walk_next(s.w, &e) > 0) {
		struct saved sv;
		fix(&s, e, &sv);
		eval(&s, e);
		unfix(e, &sv);
	}
	lf_counters_add(&m->total, lf_walk_counters(s.w));
	lf_walk_close(s.w);
	m->run->ev.walk = NULL;
	m->run->ev.entry = NULL;
}

/* A barrier during which rank 0 still writes what arrives. */
static int barrier(struct lfm *m)
{
	MPI_Request req;
	int rc = MPI_Ibarrier(m->comm, &req);
	if (rc != MPI_SUCCESS) {
		return lfm_mpi_error(m, "MPI_Ibarrier", rc);
	}
	for (;;) {
		int done = 0;
		rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) {
			return lfm_mpi_error(m, "MPI_Ibarrier", rc);
		}
		if (done) {
			return 0;
		}
		if (m->rank == 0) {
			lfm_forward_recv(m);
		}
		lfm_pending_test(m, false);
	}
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
	qsort(m->def, m->ndef, sizeof(*m->def), by_depth_desc);
	size_t i = 0;
	for (int d = deepest; d >= 0 && !m->failed; d--) {
		for (; i < m->ndef && m->def[i].depth == d; i++) {
			if (!lf_run_must_stop(m->run)) {
				run_deferred(m, &m->def[i]);
				lfm_forward(m, false);
			}
		}
		if (m->size > 1 && barrier(m) != 0) {
			break;
		}
	}
}
