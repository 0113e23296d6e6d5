/*
 * walk_dfs_spill.c: the depth-first engine's spills.  When a frame's fd is
 * evicted (the fd budget) before its directory is read to the end, the
 * rest of its records, and the error that ended its reading if any, wait
 * in a spill until the walk comes back to the frame, which takes them into
 * its region a bounded step at a time.  Rare, so kept in a list.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "walk_dfs.h"

#include "dir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct lf_spill *find_spill(struct lf_walk *w, size_t i)
{
	for (size_t k = w->nspills; k-- > 0;) {
		if (w->spills[k].frame == i) {
			return &w->spills[k];
		}
	}
	return NULL;
}

void lf_dfs_drop_spill(struct lf_walk *w, size_t i)
{
	struct lf_spill *s = find_spill(w, i);
	if (s) {
		free(s->buf);
		lf_walk_uncharge(w, s->len);
		*s = w->spills[--w->nspills];
	}
	w->frames[i].flags &= ~(unsigned)F_SPILL;
}

/* A new spill of frame @i holding nothing yet, or NULL (ENOMEM). */
struct lf_spill *lf_dfs_add_spill(struct lf_walk *w, size_t i)
{
	if (w->nspills == w->spillcap) {
		size_t cap = w->spillcap ? w->spillcap * 2 : 8;
		struct lf_spill *sp = lf_walk_realloc(w, w->spills, w->spillcap * sizeof(*sp), cap * sizeof(*sp));
		if (!sp) {
			return NULL;
		}
		w->spills = sp;
		w->spillcap = cap;
	}
	struct lf_spill *s = &w->spills[w->nspills++];
	*s = (struct lf_spill){.frame = i};
	w->frames[i].flags |= F_SPILL;
	return s;
}

/*
 * Read the rest of frame @i's directory, so that its fd can be closed; the
 * records go to a spill, read through the free space above the arena's top
 * so that a directory with nothing left (the usual case) costs no
 * allocation.  A read error is kept in the spill, to be reported after the
 * records.  @return 0, or -1 with errno set (ENOMEM: the records are lost)
 */
int lf_dfs_spill_rest(struct lf_walk *w, size_t i)
{
	size_t len = 0;
	int err = 0;
	for (;;) {
		if (lf_walk_reserve_arena(w, len + LF_DIR_MINBUF * 16) != 0) {
			return -1;
		}
		w->counters.getdents++;
		ssize_t n = lf_getdents(w->frames[i].fd, w->arena + w->arenatop + len, LF_DIR_MINBUF * 16);
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
	}
	w->frames[i].flags |= F_EOF;
	if (!len && !err) {
		return 0;
	}
	char *buf = len ? lf_walk_realloc(w, NULL, 0, len) : NULL;
	struct lf_spill *s = (buf || !len) ? lf_dfs_add_spill(w, i) : NULL;
	if (!s) {
		free(buf);
		lf_walk_uncharge(w, buf ? len : 0);
		errno = ENOMEM;
		return -1;
	}
	if (len) {
		memcpy(buf, w->arena + w->arenatop, len);
	}
	s->buf = buf;
	s->len = len;
	s->err = err;
	return 0;
}
/* Records of the spill to move into the region at once: a bounded step. */
#define SPILL_STEP (256 * 1024)

/*
 * Refill the region of frame @t, emptied by the caller, from its spill
 * (F_SPILL): the next step of its records, else the spill is dropped.
 * @return 1 if records came, 0 at the end, -1 with errno set for the read
 * error kept in the spill (or w->fatal set)
 */
int lf_dfs_unspill(struct lf_walk *w, size_t t)
{
	struct lf_frame *f = &w->frames[t];
	struct lf_spill *s = find_spill(w, t);
	if (s->off < s->len) {
		size_t n = 0;
		while (s->off + n < s->len && n < SPILL_STEP) {
			n += ((struct lf_dirent *)(s->buf + s->off + n))->d_reclen;
		}
		if (lf_walk_reserve_arena(w, n) != 0) {
			return lf_walk_set_fatal(w, errno);
		}
		memcpy(w->arena + w->arenatop, s->buf + s->off, n);
		s->off += n;
		w->arenatop += n;
		f->end = w->arenatop;
		f->left = (uint32_t)n;
		return 1;
	}
	int err = s->err;
	lf_dfs_drop_spill(w, t);
	errno = err;
	return err ? -1 : 0;
}

/* Free every spill (lf_dfs_free()). */
void lf_dfs_free_spills(struct lf_walk *w)
{
	for (size_t k = 0; k < w->nspills; k++) {
		free(w->spills[k].buf);
	}
	free(w->spills);
	w->spills = NULL;
	w->nspills = 0;
}
