/*
 * walk_dfs.c: the depth-first engine (pre-, post- and both orders).  It
 * calls walk_common.c for what it shares with the breadth-first engine,
 * walk_dfs_ioq.c for the read-ahead of subdirectories and walk_dfs_spill.c
 * for spills (walk_dfs.h).
 *
 * Each directory on the current path is a frame on an explicit stack.  A
 * frame's records are read with getdents64 straight into a stack-shaped arena
 * and visited in place, one bounded chunk at a time (all at once only in
 * sorted mode), its fd open meanwhile; popping a frame gives its arena region
 * back.  Before a child is pushed, its parent's region is refilled if it is
 * spent, so every frame below the top holds records still to visit or has
 * reached its end.  A frame whose records are all visited and that owes no
 * post-order visit is popped as soon as its last subdirectory is opened
 * ("tail popping"), so a chain costs memory only for the path string.
 * Frames' fds are evicted, shallowest first, when the fd budget is spent: an
 * evicted frame first reads the rest of its directory into a spill (as bfs
 * does when it must close a directory) and records its dev/ino; it is
 * reopened through ".." from an open child or downwards from an open
 * ancestor, and the reopened fd must match what was recorded.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "dir.h"
#include "walk_dfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool wants_post(const struct lf_walk *w)
{
	return w->opts.order == LF_ORDER_POST || w->opts.order == LF_ORDER_BOTH;
}

/* Where frame @i's records start in the arena: where the one below ends. */
static size_t frame_start(const struct lf_walk *w, size_t i)
{
	return i ? w->frames[i - 1].end : 0;
}

/* Where the names of a frame's children start in the path. */
static size_t childoff(const struct lf_walk *w, const struct lf_frame *f)
{
	return f->pathlen + (w->path[f->pathlen - 1] != '/' || f->depth > 0);
}

/* ---- fd budget ---------------------------------------------------------- */

/* Give up frame @i's stat-ahead window; due before its fd is closed. */
static void release_window(struct lf_walk *w, size_t i)
{
	struct lf_frame_pf *p = w->frame_pf ? &w->frame_pf[i] : NULL;
	if (p && p->pf) {
		uint64_t wasted = 0;
		lf_prefetch_release(w->prefetch, p->pf, &wasted);
		w->counters.stats += wasted;
		w->counters.stats_ahead += wasted;
		p->pf = NULL;
		if (w->ioq) {
			lf_ioq_windows(w->ioq, lf_prefetch_adopted(w->prefetch));
		}
	}
}


/*
 * Close the fd of the shallowest unpinned frame below the top, recording its
 * identity first so that a reopen can be checked.  Shallow frames are the
 * least recently used ones in a depth-first walk.
 */
int lf_dfs_evict(struct lf_walk *w)
{
	for (size_t i = w->evict_from; i + 1 < w->nframes; i++) {
		struct lf_frame *f = &w->frames[i];
		if (f->fd < 0 || (f->flags & F_PINNED)) {
			continue;
		}
		if (!(f->flags & F_HAVE_ID)) {
			if (lf_walk_record_id(w, f->fd, &f->id_dev, &f->id_ino) != 0) {
				continue;
			}
			f->flags |= F_HAVE_ID;
		}
		if (!(f->flags & F_EOF) && lf_dfs_spill_rest(w, i) != 0) {
			return lf_walk_set_fatal(w, errno);
		}
		if (w->frame_pf && w->frame_pf[i].pf) {
			/* Keep what the thread has made: the walk comes back for it. */
			lf_prefetch_stop(w->prefetch, w->frame_pf[i].pf);
		}
		if (w->frame_rq) {
			/* Likewise the directories read ahead; the rest go unread. */
			lf_dfs_rq_settle(w, i);
		}
		lf_walk_close_fd(w, f->fd);
		f->fd = -1;
		w->evict_from = i + 1;
		return 0;
	}
	return -1;
}

/* The next record in the frame's region other than "." and "..", or NULL. */
static inline __attribute__((always_inline)) struct lf_dirent *region_record(struct lf_walk *w,
									   struct lf_frame *f)
{
	while (f->left) {
		char *p = w->arena + f->end - f->left;
		if (__builtin_expect(f->flags & F_SORTED, 0)) {
			return (struct lf_dirent *)(w->arena + *(size_t *)p);
		}
		struct lf_dirent *d = (struct lf_dirent *)p;
		if (!lf_dir_is_dot(d->d_name)) {
			return d;
		}
		f->left -= d->d_reclen;
	}
	return NULL;
}

/* Whether frame @i, below the top, has records left to visit (or an error). */
static bool has_work(struct lf_walk *w, size_t i)
{
	struct lf_frame *f = &w->frames[i];
	return region_record(w, f) || (f->flags & F_SPILL);
}

/* Frame @t's region holds new records: read their subdirectories ahead. */
static void new_region(struct lf_walk *w, size_t t)
{
	if (w->frame_rq) {
		lf_dfs_rq_region(w, t);
	}
}

/*
 * Refill the region of the top frame @t, whose records are spent: from its
 * spill, or with the next chunk from its fd.
 * @return 1 if records came, 0 at the end, -1 with errno set for a read
 * error to report (or w->fatal set)
 */
static int refill_top(struct lf_walk *w, size_t t)
{
	struct lf_frame *f = &w->frames[t];
	w->arenatop = f->end = frame_start(w, t);
	f->left = 0;
	if (f->flags & F_SPILL) {
		int r = lf_dfs_unspill(w, t);
		if (r > 0) {
			new_region(w, t);
		}
		return r;
	}
	if ((f->flags & F_EOF) || f->fd < 0) {
		f->flags |= F_EOF;
		return 0;
	}
	ssize_t n = lf_walk_read_chunk(w, f->fd);
	if (n <= 0) {
		f->flags |= F_EOF;
		return n < 0 ? -1 : 0;
	}
	f->end = w->arenatop;
	f->left = (uint32_t)n;
	new_region(w, t);
	return 1;
}

/* peek_top() once the region is spent: out of the hot path. */
static __attribute__((noinline)) struct lf_dirent *peek_refill(struct lf_walk *w, size_t t, int *err)
{
	for (;;) {
		int r = refill_top(w, t);
		if (r <= 0) {
			*err = r < 0 ? errno : 0;
			return NULL;
		}
		struct lf_dirent *d = region_record(w, &w->frames[t]);
		if (d) {
			return d;
		}
	}
}

/*
 * The top frame's next record other than "." and "..", without consuming
 * it, reading more as needed.  NULL at the end, or with *@err set to the
 * errno of a read error to report (w->fatal set if it ends the walk).
 */
static inline struct lf_dirent *peek_top(struct lf_walk *w, size_t t, int *err)
{
	struct lf_dirent *d = region_record(w, &w->frames[t]);
	return d ? d : peek_refill(w, t, err);
}

/* Move past @d, the record region_record() returned last. */
static inline void consume_record(struct lf_frame *f, const struct lf_dirent *d)
{
	f->left -= (f->flags & F_SORTED) ? sizeof(size_t) : d->d_reclen;
}

size_t lf_dfs_dirs_left(const struct lf_walk *w)
{
	/* What is read of each directory (a streamed one's current chunk). */
	size_t n = 0;
	for (size_t i = 0; i < w->nframes; i++) {
		const struct lf_frame *f = &w->frames[i];
		n += lf_walk_count_dirs(w, f->end - f->left, f->end, f->flags & F_SORTED);
	}
	return n;
}

/* ---- loop detection (LF_LOGICAL) ---------------------------------------- */

static size_t id_hash(uint64_t dev, uint64_t ino, size_t nbuckets)
{
	uint64_t h = (ino * 0x9E3779B97F4A7C15ull) ^ (dev * 0xC2B2AE3D27D4EB4Full);
	return (size_t)(h >> 20) & (nbuckets - 1);
}

static int hash_insert(struct lf_walk *w, size_t idx)
{
	int *hnext = w->hnext;
	if (w->nframes > w->nbuckets) {
		size_t n = w->nbuckets ? w->nbuckets * 4 : 256;
		int *b = lf_walk_realloc(w, w->buckets, w->nbuckets * sizeof(*b), n * sizeof(*b));
		if (!b) {
			return -1;
		}
		w->buckets = b;
		w->nbuckets = n;
		for (size_t i = 0; i < n; i++) {
			b[i] = -1;
		}
		/* Reinserting in index order keeps each bucket's head the deepest. */
		for (size_t i = 0; i < idx; i++) {
			struct lf_frame *f = &w->frames[i];
			if (f->flags & F_HAVE_ID) {
				size_t h = id_hash(f->id_dev, f->id_ino, n);
				hnext[i] = b[h];
				b[h] = (int)i;
			}
		}
	}
	struct lf_frame *f = &w->frames[idx];
	size_t h = id_hash(f->id_dev, f->id_ino, w->nbuckets);
	hnext[idx] = w->buckets[h];
	w->buckets[h] = (int)idx;
	return 0;
}

static void hash_remove(struct lf_walk *w, size_t idx)
{
	struct lf_frame *f = &w->frames[idx];
	size_t h = id_hash(f->id_dev, f->id_ino, w->nbuckets);
	/* Frames leave in LIFO order, so this one heads its bucket. */
	if (w->buckets[h] == (int)idx) {
		w->buckets[h] = w->hnext[idx];
	}
}

static int hash_find(const struct lf_walk *w, uint64_t dev, uint64_t ino)
{
	if (!w->nbuckets) {
		return -1;
	}
	for (int i = w->buckets[id_hash(dev, ino, w->nbuckets)]; i >= 0; i = w->hnext[i]) {
		if (w->frames[i].id_dev == dev && w->frames[i].id_ino == ino) {
			return i;
		}
	}
	return -1;
}

/* ---- the depth-first engine --------------------------------------------- */

/* Open the directory @steps levels above @src_fd through "..". */
static int open_upward(struct lf_walk *w, int src_fd, int steps)
{
	int fd = src_fd;
	for (int k = 0; k < steps; k++) {
		w->counters.reopens++;
		int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
		if (fd != src_fd) {
			close(fd);
		}
		fd = up;
		if (fd < 0) {
			return -1;
		}
	}
	return fd;
}

static bool same_dir(struct lf_walk *w, int fd, const struct lf_frame *f);

/*
 * Open the root (frame 0) again by its path, as it was opened: with a few
 * descriptors its fd is evicted like the others.  The caller checks it.
 */
static int open_root(struct lf_walk *w)
{
	const struct lf_frame *f = &w->frames[0];
	/* Its path ends where the walk may have written a '/' since. */
	char saved = w->path[f->pathlen];
	w->path[f->pathlen] = '\0';
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (lf_walk_opens_following(w, true) ? 0 : O_NOFOLLOW);
	w->counters.reopens++;
	int fd = openat(AT_FDCWD, w->path, flags);
	w->path[f->pathlen] = saved;
	return fd;
}

/*
 * Open frame @i downwards, one name at a time, from its nearest open
 * ancestor, or from the root's path when none is open.
 */
static int open_downward(struct lf_walk *w, size_t i)
{
	const struct lf_frame *f = &w->frames[i];
	size_t j = i;
	while (j > 0 && w->frames[--j].fd < 0) {
	}
	int base = w->frames[j].fd;
	bool own_base = base < 0; /* the root, opened here: closed here too */
	if (own_base) {
		base = open_root(w);
		if (base < 0 || i == 0) {
			return base; /* frame 0 itself: the caller checks it */
		}
		if (!same_dir(w, base, &w->frames[0])) {
			return -1;
		}
	}
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (lf_walk_opens_following(w, false) ? 0 : O_NOFOLLOW);
	size_t pos = childoff(w, &w->frames[j]);
	int fd = base;
	while (pos < f->pathlen) {
		char name[NAME_MAX + 1];
		size_t len = 0;
		/* '\0' may stand where a '/' was: a post-order visit ends the path there. */
		while (pos + len < f->pathlen && w->path[pos + len] != '/' && w->path[pos + len] != '\0') {
			len++;
		}
		if (len > NAME_MAX) {
			if (fd != base || own_base) {
				close(fd);
			}
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(name, w->path + pos, len);
		name[len] = '\0';
		w->counters.reopens++;
		int next = openat(fd, name, flags);
		if (fd != base || own_base) {
			close(fd);
		}
		fd = next;
		if (fd < 0) {
			return -1;
		}
		pos += len + 1;
	}
	return fd;
}

/* Whether @fd is the directory recorded in @f; closes @fd if not. */
static bool same_dir(struct lf_walk *w, int fd, const struct lf_frame *f)
{
	uint64_t dev, ino;
	if (lf_walk_record_id(w, fd, &dev, &ino) == 0 && dev == f->id_dev && ino == f->id_ino) {
		return true;
	}
	close(fd);
	errno = ESTALE; /* replaced underneath us: never follow it */
	return false;
}

/*
 * Where frame @i's own name starts in the path: after the last slash of its
 * path (the frame below may be an ancestor further up, after tail popping).
 */
static size_t frame_nameoff(const struct lf_walk *w, size_t i)
{
	const struct lf_frame *f = &w->frames[i];
	if (f->depth == 0) {
		return 0;
	}
	size_t off = f->pathlen;
	while (off > 0 && w->path[off - 1] != '/' && w->path[off - 1] != '\0') {
		off--;
	}
	return off;
}

/*
 * Make frame @i's fd usable again.  The top frame @src, being left, is a
 * directory below it on the same path: if its fd is open, ".." leads back
 * (as in rm and fts); otherwise the names on the path lead down from the
 * nearest open ancestor, or from the root's path.  Either way the result
 * must match the recorded dev/ino.
 */
static int reopen_frame(struct lf_walk *w, size_t i, size_t src)
{
	struct lf_frame *f = &w->frames[i];
	if (f->fd >= 0) {
		return 0;
	}
	if (!(f->flags & F_HAVE_ID)) {
		errno = ESTALE;
		return -1;
	}
	lf_walk_make_room(w, 2);

	int fd = -1;
	int src_fd = w->frames[src].fd;
	if (src_fd >= 0 && i > 0) {
		fd = open_upward(w, src_fd, w->frames[src].depth - f->depth);
		if (fd >= 0 && !same_dir(w, fd, f)) {
			fd = -1;
		}
		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			/*
			 * Too few descriptors to climb with the source open
			 * (ulimit -n 5): it is being left anyway, so close it
			 * and come down by the names from the root's path.
			 */
			lf_walk_close_fd(w, src_fd);
			w->frames[src].fd = -1;
			src_fd = -1;
		}
	}
	/*
	 * Under -L, ".." leads to the target's parent, not the link's; a root
	 * is reopened by its path, which leads to it whatever was moved below.
	 */
	if (fd < 0 && (src_fd < 0 || lf_walk_is_logical(w) || i == 0)) {
		fd = open_downward(w, i);
		if (fd >= 0 && !same_dir(w, fd, f)) {
			fd = -1;
		}
	}
	if (fd < 0) {
		return -1;
	}
	f->fd = fd;
	w->open_fds++;
	if (i < w->evict_from) {
		w->evict_from = i;
	}
	return 0;
}

/* Make room for one more frame (and its entries in the side arrays). */
static int grow_frames(struct lf_walk *w)
{
	size_t cap = w->framecap ? w->framecap * 2 : 64;
	if (w->nframes < w->framecap) {
		cap = w->framecap;
	}
	if (cap != w->framecap) {
		struct lf_frame *fr = lf_walk_realloc(w, w->frames, w->framecap * sizeof(*fr), cap * sizeof(*fr));
		if (!fr) {
			return -1;
		}
		w->frames = fr;
		w->framecap = cap;
	}
	if (lf_walk_is_logical(w) && (!w->hnext || cap != w->hnextcap)) {
		int *h = lf_walk_realloc(w, w->hnext, w->hnext ? w->hnextcap * sizeof(*h) : 0, cap * sizeof(*h));
		if (!h) {
			return -1;
		}
		w->hnext = h;
		w->hnextcap = cap;
	}
	if (w->prefetch && (!w->frame_pf || cap != w->frame_pfcap)) {
		struct lf_frame_pf *p =
			lf_walk_realloc(w, w->frame_pf, w->frame_pf ? w->frame_pfcap * sizeof(*p) : 0, cap * sizeof(*p));
		if (!p) {
			return -1;
		}
		w->frame_pf = p;
		w->frame_pfcap = cap;
	}
	if (w->ioq && (!w->frame_rq || cap != w->frame_rqcap)) {
		struct lf_frame_rq *r =
			lf_walk_realloc(w, w->frame_rq, w->frame_rq ? w->frame_rqcap * sizeof(*r) : 0, cap * sizeof(*r));
		if (!r) {
			return -1;
		}
		w->frame_rq = r;
		w->frame_rqcap = cap;
	}
	if (w->gi && (!w->frame_gi || cap != w->frame_gicap)) {
		struct lf_gi_scope **g =
			lf_walk_realloc(w, w->frame_gi, w->frame_gi ? w->frame_gicap * sizeof(*g) : 0, cap * sizeof(*g));
		if (!g) {
			return -1;
		}
		w->frame_gi = g;
		w->frame_gicap = cap;
	}
	return 0;
}

/* Drop frame @i's ignore scope (LF_WALK_GITIGNORE). */
static void drop_gi(struct lf_walk *w, size_t i)
{
	if (w->frame_gi) {
		lf_gi_unref(w->frame_gi[i]);
		w->frame_gi[i] = NULL;
	}
}

static int push_frame(struct lf_walk *w, int fd, bool need_post)
{
	if (grow_frames(w) != 0) {
		lf_walk_close_fd(w, fd);
		return lf_walk_set_fatal(w, errno);
	}
	size_t idx = w->nframes++;
	struct lf_frame *f = &w->frames[idx];
	f->end = w->arenatop;
	f->left = 0;
	f->pathlen = w->pend.pathlen;
	f->ino = w->pend.ino;
	f->id_dev = w->pend.id_dev;
	f->id_ino = w->pend.id_ino;
	f->fd = fd;
	f->depth = w->pend.depth;
	f->flags = (need_post ? F_NEED_POST : 0) | (w->pend.have_id ? F_HAVE_ID : 0) |
		   (w->pend.via_link ? F_VIA_LINK : 0) | (fd < 0 ? F_EOF : 0);
	if (w->hnext) {
		w->hnext[idx] = -1;
	}
	if (w->frame_pf) {
		w->frame_pf[idx] = (struct lf_frame_pf){NULL, 0, 0};
	}
	if (w->frame_gi) {
		w->frame_gi[idx] = NULL;
	}
	if (w->frame_rq) {
		w->frame_rq[idx].head = w->frame_rq[idx].count = 0;
		w->frame_rq[idx].next = f->end;
	}
	if (fd >= 0 && idx < w->evict_from) {
		w->evict_from = idx;
	}
	if (lf_walk_is_logical(w) && w->pend.have_id && hash_insert(w, idx) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	return 0;
}

/* descend() once the directory is to be read or visited after. */
static int descend_read(struct lf_walk *w, bool read_it, bool need_post, struct lf_gi_scope *gi)
{
	bool root = w->pend.root;
	bool pend_excluded = w->pend.gi_excluded;
	size_t t = w->nframes - 1;
	int at_fd = root ? AT_FDCWD : w->frames[t].fd;
	size_t nameoff = root ? 0 : childoff(w, &w->frames[t]);
	bool follow = lf_walk_opens_following(w, root);
	int fd = -1, err = 0;

	w->path[w->pend.pathlen] = '\0';
	if (!root && w->frame_pf && w->frame_pf[t].pf &&
	    w->frame_pf[t].next == lf_pf_window_count(w->frame_pf[t].pf)) {
		/* Spent, and its last entry is no longer current: free it now,
		 * or a deep walk keeps a spent window for every level. */
		release_window(w, t);
	}
	struct lf_ioq_job *job = NULL;
	struct lf_ioq_result res;
	if (read_it && w->pend.stat_err) {
		err = w->pend.stat_err; /* not opened: its stat failed (lf_walk_may_descend) */
	} else if (read_it && !root && w->frame_rq) {
		job = lf_dfs_rq_find(w, t, w->pend.rec);
		if (job && !lf_dfs_rq_take(w, job, &res, &fd, &err)) {
			job = NULL;
		}
		lf_dfs_rq_feed(w, t, false); /* the next sibling in its place */
	}
	if (read_it && !job && !w->pend.stat_err) {
		fd = lf_walk_open_dir(w, at_fd, w->path + nameoff, follow);
		if (fd < 0) {
			err = errno;
		} else if (root && lf_walk_root_is_slash(w, fd)) {
			lf_walk_close_fd(w, fd);
			fd = -1;
			err = EPERM;
		}
	}
	if (!root) {
		/*
		 * The parent's next records, read now if its region is spent, so
		 * that the child's region can go above them, and so that a parent
		 * at its end is known to be one before the child is pushed.
		 */
		int rerr;
		if (!peek_top(w, t, &rerr)) {
			if (w->fatal) {
				if (job) {
					lf_dfs_rq_abandon(w, job, &res);
				}
				lf_walk_close_fd(w, fd);
				return -1;
			}
			if (rerr) {
				/* Reported when the walk is back in the parent. */
				struct lf_spill *s = lf_dfs_add_spill(w, t);
				if (!s) {
					if (job) {
						lf_dfs_rq_abandon(w, job, &res);
					}
					lf_walk_close_fd(w, fd);
					return lf_walk_set_fatal(w, errno);
				}
				s->err = rerr;
			} else if (!need_post && w->frames[t].depth > 0 && !lf_walk_is_logical(w)) {
				/* Spent: the child takes its place and its region. */
				release_window(w, t);
				lf_dfs_rq_drop_all(w, t);
				lf_walk_close_fd(w, w->frames[t].fd);
				drop_gi(w, t);
				w->nframes--;
			}
		}
	}
	if (job && grow_frames(w) != 0) {
		/* Before push_frame() would close the fd the kids are relative to. */
		lf_dfs_rq_abandon(w, job, &res);
		lf_walk_close_fd(w, fd);
		return lf_walk_set_fatal(w, errno);
	}
	if (push_frame(w, fd, need_post) != 0) {
		return -1;
	}
	if (job) {
		int r = fd >= 0 ? lf_dfs_rq_adopt(w, &res) : 0;
		lf_ioq_done(w->ioq, job);
		if (r != 0) {
			return r;
		}
	}
	if (fd >= 0 && (w->opts.flags & LF_WALK_WHOLE_DIRS)) {
		/*
		 * The whole directory, once (a streamed one is read as it is
		 * visited): sorted, or for LF_WALK_GITIGNORE and
		 * LF_WALK_EXCLUDE_CACHES, which must know whether .gitignore,
		 * .git or CACHEDIR.TAG are there before the first child.
		 */
		bool sorted;
		size_t start, end;
		if (lf_walk_read_dir(w, fd, &start, &end, &sorted) != 0) {
			if (w->fatal) {
				return -1;
			}
			err = errno;
		}
		size_t t = w->nframes - 1;
		struct lf_frame *f = &w->frames[t];
		if (end - start > UINT32_MAX) {
			return lf_walk_set_fatal(w, EOVERFLOW);
		}
		const struct lf_parent dir = {
			.pathlen = f->pathlen,
			.childoff = childoff(w, f),
			.fd = fd,
			.depth = f->depth,
		};
		int tag = 0;
		if ((w->opts.flags & LF_WALK_EXCLUDE_CACHES) && !err) {
			tag = lf_walk_cache_tagged(w, fd, start, end, sorted, &dir);
			if (tag < 0) {
				return -1;
			}
			if (tag) {
				start = end; /* nothing below a cache directory */
			}
		}
		f->end = end;
		f->left = (uint32_t)(end - start);
		f->flags |= (sorted ? F_SORTED : 0) | F_EOF;
		if (w->gi && !err && tag != 1) {
			int r = lf_walk_gi_enter(w, fd, start, end, sorted, gi, pend_excluded, &dir, &w->frame_gi[t]);
			if (r != 0) {
				return r;
			}
		}
		if (tag == 1) {
			return 1; /* the tag's error entry */
		}
	}
	if (err) {
		lf_walk_error_entry(w, w->pend.pathlen, nameoff, w->pend.depth, err);
		return 1;
	}
	return 0;
}

/*
 * Open and read the directory returned last, if it was not pruned.
 * @return 1 if an error entry is ready, 0 to go on, -1 on a fatal error
 */
static int descend(struct lf_walk *w)
{
	bool need_post = wants_post(w);
	bool read_it = w->pend.read_it && !w->pruned;
	struct lf_gi_scope *gi = w->pend.gi; /* our reference, dropped below */
	w->pend.gi = NULL;
	w->pend_active = false;
	if (!read_it && !need_post) {
		lf_gi_unref(gi);
		return 0;
	}
	int r = descend_read(w, read_it, need_post, gi);
	lf_gi_unref(gi);
	return r;
}

static int visit_root(struct lf_walk *w)
{
	int r = lf_walk_stat_root(w);
	if (r != 0) {
		return r;
	}
	struct lf_entry *e = &w->ent.pub;
	if (e->type != LF_DIR) {
		return e->depth >= w->opts.mindepth ? 1 : 0;
	}
	return w->opts.order != LF_ORDER_POST && w->opts.mindepth <= 0;
}

/*
 * Hand the names from the top frame's cursor on to the stat-ahead thread,
 * unless fewer than two are left: the walker is about to stat the first.
 */
static void submit_window(struct lf_walk *w, size_t t)
{
	struct lf_frame *top = &w->frames[t];
	struct lf_frame_pf *p = &w->frame_pf[t];
	const char *names[LF_PF_WINDOW];
	unsigned n = 0;
	for (size_t cur = top->end - top->left; cur < top->end && n < LF_PF_WINDOW;) {
		struct lf_dirent *d = lf_walk_next_record(w, &cur, top->flags & F_SORTED);
		if (!lf_dir_is_dot(d->d_name)) {
			names[n++] = d->d_name;
		}
	}
	if (n < 2) {
		return;
	}
	/*
	 * With LF_PF_MAX_WINDOWS live (a deep tree), this directory goes
	 * without: dropping a shallower window would waste stats made for it.
	 */
	p->pf = lf_prefetch_submit(w->prefetch, top->fd, names, n);
	p->next = 0;
	if (!p->pf && errno == EBUSY) {
		p->none = n - 1; /* not again for each of these names */
	} else if (!p->pf) {
		w->stat_ahead = false; /* no thread or no memory: stat as usual */
	}
}

/* The stat-ahead window and slot of the top frame's next child, if any. */
static struct lf_pf_window *window_slot(struct lf_walk *w, size_t t, unsigned *idx)
{
	struct lf_frame_pf *p = &w->frame_pf[t];
	/* Shared, the queue's jobs stat ahead: the thread would only compete. */
	bool wanted = !w->ioq_share && lf_prefetch_tick(w->prefetch);
	if (p->none) {
		p->none--;
		return NULL;
	}
	if (p->pf && p->next == lf_pf_window_count(p->pf)) {
		release_window(w, t);
	}
	if (!p->pf) {
		if (!wanted) {
			return NULL;
		}
		submit_window(w, t);
		if (!p->pf) {
			return NULL;
		}
	}
	*idx = p->next++;
	return p->pf;
}

/*
 * Count an entry for the choice between sharing the queue's jobs and not
 * (probe.h), and switch when the probe says so.
 */
static void share_tick(struct lf_walk *w)
{
	bool on = lf_probe_tick(&w->ioq_probe);
	if (on == w->ioq_share) {
		return;
	}
	w->ioq_share = lf_ioq_share(w->ioq, on);
	if (on && !w->ioq_share) {
		w->ioq_share_probe = false; /* one CPU */
	} else if (!on && w->prefetch) {
		lf_prefetch_restart(w->prefetch); /* its probe missed the shared slices */
	}
}

/* Visit the next record of the top frame.  1: entry ready, 0: go on. */
static int visit_child(struct lf_walk *w, struct lf_dirent *d)
{
	if (w->ioq_share_probe) {
		share_tick(w);
	}
	size_t t = w->nframes - 1;
	struct lf_frame *top = &w->frames[t];
	const struct lf_parent dir = {
		.pathlen = top->pathlen,
		.childoff = childoff(w, top),
		.fd = top->fd,
		.depth = top->depth,
		.gi = w->frame_gi ? w->frame_gi[t] : NULL,
	};
	int depth = top->depth + 1;
	struct lf_pf_window *pf = NULL;
	unsigned pf_idx = 0;

	/* Entries above -mindepth are never evaluated: not worth a stat. */
	if (w->stat_ahead && depth >= w->opts.mindepth && w->frame_pf) {
		pf = window_slot(w, t, &pf_idx);
	}
	consume_record(top, d);
	int r = lf_walk_visit_record(w, d, &dir, pf, pf_idx);
	if (r != 0) {
		return r == 2 ? 0 : r; /* 2: ignored (LF_WALK_GITIGNORE) */
	}
	struct lf_entry *e = &w->ent.pub;
	if (e->type == LF_DIR) {
		bool check_loop;
		w->pend.read_it = lf_walk_may_descend(w, &check_loop);
		if (e->visit == LF_VISIT_ERROR) {
			return 1;
		}
		int loop = check_loop ? hash_find(w, w->pend.id_dev, w->pend.id_ino) : -1;
		if (loop >= 0) {
			e->visit = LF_VISIT_ERROR;
			e->error = ELOOP;
			e->loop_pathlen = w->frames[loop].pathlen;
			w->had_error = true;
			return 1;
		}
		lf_walk_pend_dir(w);
		w->pend.rec = (size_t)((char *)d - w->arena);
		if (w->opts.order == LF_ORDER_POST) {
			return 0;
		}
	}
	return depth >= w->opts.mindepth;
}

/* The post-order visit of the top frame.  1: entry ready, 0: skipped. */
static int visit_post(struct lf_walk *w)
{
	size_t t = w->nframes - 1;
	struct lf_frame *f = &w->frames[t];
	int at_fd = AT_FDCWD;
	size_t nameoff = 0;

	f->flags |= F_POST_DONE;
	if (t > 0) {
		struct lf_frame *parent = &w->frames[t - 1];
		if (parent->flags & F_LOST) {
			return 0;
		}
		if (reopen_frame(w, t - 1, t) != 0) {
			int err = errno;
			parent = &w->frames[t - 1];
			parent->flags |= F_LOST;
			lf_walk_error_entry(w, parent->pathlen, frame_nameoff(w, t - 1), parent->depth, err);
			return 1;
		}
		f = &w->frames[t];
		parent = &w->frames[t - 1];
		at_fd = parent->fd;
		nameoff = childoff(w, parent);
	}
	if (f->depth < w->opts.mindepth) {
		return 0;
	}

	struct lf_entry *e = &w->ent.pub;
	lf_walk_reset_entry(w);
	/* A directory reached through a link (-L) is still a link on its own. */
	w->ent.raw_type = (f->flags & F_VIA_LINK) ? LF_LNK : LF_DIR;
	if (t == 0) {
		w->ent.follow_walk = w->opts.symlinks != LF_PHYSICAL;
		w->ent.raw_type = LF_UNKNOWN;
	}
	w->path[f->pathlen] = '\0';
	e->path = w->path;
	e->pathlen = f->pathlen;
	e->nameoff = nameoff;
	e->depth = f->depth;
	e->type = LF_DIR;
	e->visit = LF_VISIT_POST;
	e->ino = f->ino;
	e->at_fd = at_fd;
	e->at_name = w->path + nameoff;
	return 1;
}

/* Pop the top frame, reopening its parent if the parent still has work. */
static int pop_frame(struct lf_walk *w)
{
	size_t t = w->nframes - 1;
	struct lf_frame *f = &w->frames[t];
	int ret = 0;

	if (t > 0 && !(w->frames[t - 1].flags & F_LOST) && has_work(w, t - 1)) {
		if (reopen_frame(w, t - 1, t) != 0) {
			int err = errno;
			struct lf_frame *parent = &w->frames[t - 1];
			parent->flags |= F_LOST;
			lf_walk_error_entry(w, parent->pathlen, frame_nameoff(w, t - 1), parent->depth, err);
			ret = 1;
		}
		f = &w->frames[t];
	}
	release_window(w, t);
	lf_dfs_rq_drop_all(w, t);
	lf_walk_close_fd(w, f->fd);
	drop_gi(w, t);
	if (f->flags & F_SPILL) {
		lf_dfs_drop_spill(w, t);
	}
	w->arenatop = frame_start(w, t);
	if (lf_walk_is_logical(w) && (f->flags & F_HAVE_ID)) {
		hash_remove(w, t);
	}
	w->nframes--;
	if (w->evict_from > w->nframes) {
		w->evict_from = w->nframes;
	}
	return ret;
}

static int dfs_next(struct lf_walk *w)
{
	for (;;) {
		if (w->pend_active) {
			int r = descend(w);
			if (r != 0) {
				return r;
			}
		}
		if (w->nframes == 0) {
			if (w->next_root == w->opts.nroots) {
				return 0;
			}
			int r = visit_root(w);
			if (r != 0) {
				return r;
			}
			continue;
		}

		size_t t = w->nframes - 1;
		struct lf_frame *top = &w->frames[t];
		if (top->flags & F_LOST) {
			if (top->flags & F_SPILL) {
				lf_dfs_drop_spill(w, t);
			}
			top->left = 0;
			top->flags |= F_POST_DONE | F_EOF;
		}
		int rerr;
		struct lf_dirent *d = peek_top(w, t, &rerr);
		top = &w->frames[t];
		int r;
		if (d) {
			r = visit_child(w, d);
		} else if (rerr) {
			if (w->fatal) {
				return -1;
			}
			lf_walk_error_entry(w, top->pathlen, frame_nameoff(w, t), top->depth, rerr);
			return 1;
		} else if ((top->flags & F_NEED_POST) && !(top->flags & F_POST_DONE)) {
			r = visit_post(w);
		} else {
			r = pop_frame(w);
		}
		if (r != 0) {
			return r;
		}
	}
}

/* lf_walk_next() in the depth-first orders. */
int lf_dfs_next(struct lf_walk *w, struct lf_entry **ent)
{
	int r = dfs_next(w);
	if (r > 0) {
		*ent = &w->ent.pub;
		w->counters.entries++;
	}
	return r;
}

void lf_dfs_free(struct lf_walk *w)
{
	for (size_t i = 0; i < w->nframes; i++) {
		lf_dfs_rq_drop_all(w, i);
		lf_walk_close_fd(w, w->frames[i].fd);
		drop_gi(w, i);
	}
	w->nframes = 0;
	free(w->frames);
	w->frames = NULL;
	free(w->frame_gi);
	w->frame_gi = NULL;
	free(w->frame_pf);
	w->frame_pf = NULL;
	free(w->frame_rq);
	w->frame_rq = NULL;
	free(w->hnext);
	w->hnext = NULL;
	free(w->buckets);
	w->buckets = NULL;
	lf_dfs_free_spills(w);
}
