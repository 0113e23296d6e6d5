/*
 * walk_bfs.c: the breadth-first engine.
 *
 * Directories wait in a FIFO queue as small nodes that point to their parent
 * node, so a queued directory costs its name plus a few dozen bytes; the
 * roots come first, as one level.  Open fds form an LRU list; an evicted
 * node records its dev/ino and is reopened downwards from its nearest open
 * ancestor (a root by its path), each step checked against what was
 * recorded.  Only the directory being read has records in the arena,
 * one bounded getdents64 chunk at a time (all of them in sorted mode), its
 * fd pinned open until its end.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "dir.h"
#include "walk_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bnode {
	struct bnode *parent;
	struct bnode *qnext;
	struct bnode *lru_prev, *lru_next;
	uint64_t ino, id_dev, id_ino;
	int fd;
	int depth;
	int stat_err; /* not to be opened: its stat failed (w->pend.stat_err) */
	int refs; /* queued or current (1) plus child nodes */
	size_t root; /* index of its root in opts.roots */
	unsigned flags;
	bool gi_excluded;        /* LF_WALK_GITIGNORE: ignored, but holds tracked files */
	struct lf_gi_scope *gi;  /* queued: the scope it inherits; read: its children's */
	size_t namelen;
	char name[]; /* a root node holds the whole root path */
};

struct bfs_state {
	struct bnode *qhead, *qtail;
	struct bnode *lru_head, *lru_tail; /* head: most recently used */
	struct bnode *cur;                 /* the directory being visited */
	size_t cur_off, end;               /* its records in the arena */
	bool sorted;
	bool eof;                          /* nothing more to read from it */
	size_t dirlen;                     /* length of its path */
	size_t childoff;                   /* where its children's names go */
	struct bnode **chain;              /* scratch for reopening */
	size_t chaincap;
};

static void lru_unlink(struct bfs_state *s, struct bnode *n)
{
	if (n->lru_prev) {
		n->lru_prev->lru_next = n->lru_next;
	} else if (s->lru_head == n) {
		s->lru_head = n->lru_next;
	}
	if (n->lru_next) {
		n->lru_next->lru_prev = n->lru_prev;
	} else if (s->lru_tail == n) {
		s->lru_tail = n->lru_prev;
	}
	n->lru_prev = n->lru_next = NULL;
}

static void lru_touch(struct bfs_state *s, struct bnode *n)
{
	lru_unlink(s, n);
	n->lru_next = s->lru_head;
	if (s->lru_head) {
		s->lru_head->lru_prev = n;
	}
	s->lru_head = n;
	if (!s->lru_tail) {
		s->lru_tail = n;
	}
}

int lf_bfs_evict(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	if (!s) {
		return -1; /* nothing read yet, nothing open to evict */
	}
	for (struct bnode *n = s->lru_tail; n; n = n->lru_prev) {
		if (n->flags & F_PINNED) {
			continue;
		}
		if (!(n->flags & F_HAVE_ID)) {
			if (lf_walk_record_id(w, n->fd, &n->id_dev, &n->id_ino) != 0) {
				continue;
			}
			n->flags |= F_HAVE_ID;
		}
		lru_unlink(s, n);
		lf_walk_close_fd(w, n->fd);
		n->fd = -1;
		return 0;
	}
	return -1;
}

static void release(struct lf_walk *w, struct bnode *n)
{
	while (n && --n->refs == 0) {
		struct bnode *parent = n->parent;
		if (n->fd >= 0) {
			lru_unlink(w->bfs, n);
			lf_walk_close_fd(w, n->fd);
		}
		lf_gi_unref(n->gi);
		lf_walk_uncharge(w, sizeof(*n) + n->namelen + 1);
		free(n);
		n = parent;
	}
}

/* Gather @n and its ancestors, deepest first, stopping after the first
 * with an open fd if @to_open.  Returns the count, or -1. */
static ssize_t collect_chain(struct bfs_state *s, struct bnode *n, bool to_open)
{
	size_t len = 0;
	for (struct bnode *a = n; a; a = a->parent) {
		if (len == s->chaincap) {
			size_t cap = s->chaincap ? s->chaincap * 2 : 16;
			struct bnode **c = realloc(s->chain, cap * sizeof(*c));
			if (!c) {
				return -1;
			}
			s->chain = c;
			s->chaincap = cap;
		}
		s->chain[len++] = a;
		if (to_open && a->fd >= 0) {
			break;
		}
	}
	return (ssize_t)len;
}

/* Make @n's fd usable, reopening evicted ancestors downwards as needed; each
 * reopened directory must match the dev/ino recorded when it was evicted. */
static int node_fd(struct lf_walk *w, struct bnode *n)
{
	struct bfs_state *s = w->bfs;
	ssize_t len = collect_chain(s, n, true);
	if (len < 0) {
		return -1;
	}
	struct bnode *a = s->chain[--len];
	if (a->fd < 0) {
		/* A root evicted since it was read: reopened by its path, it
		 * must still be the directory it was. */
		int fd = lf_walk_open_dir(w, AT_FDCWD, a->name, lf_walk_opens_following(w, true));
		if (fd < 0) {
			return -1;
		}
		w->counters.opens--;
		w->counters.reopens++;
		uint64_t dev, ino;
		if (!(a->flags & F_HAVE_ID) || lf_walk_record_id(w, fd, &dev, &ino) != 0 || dev != a->id_dev ||
		    ino != a->id_ino) {
			lf_walk_close_fd(w, fd);
			errno = ESTALE;
			return -1;
		}
		a->fd = fd;
		lru_touch(s, a);
	}
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY |
		    (lf_walk_opens_following(w, false) ? 0 : O_NOFOLLOW);
	while (len > 0) {
		struct bnode *c = s->chain[--len];
		unsigned pinned = a->flags & F_PINNED;
		a->flags |= F_PINNED; /* the source must survive the eviction */
		if (w->open_fds + 1 > w->max_fds) {
			lf_bfs_evict(w);
		}
		a->flags = (a->flags & ~(unsigned)F_PINNED) | pinned;
		w->counters.reopens++;
		int fd = openat(a->fd, c->name, flags);
		if (fd < 0) {
			return -1;
		}
		uint64_t dev, ino;
		if (lf_walk_record_id(w, fd, &dev, &ino) != 0 || dev != c->id_dev || ino != c->id_ino) {
			close(fd);
			errno = ESTALE; /* replaced underneath us: never follow it */
			return -1;
		}
		c->fd = fd;
		w->open_fds++;
		lru_touch(s, c);
		a = c;
	}
	lru_touch(s, a);
	return a->fd;
}

/* Whether a root's children are joined without a slash ("dir/" + "x"). */
static bool root_ends_in_slash(const struct bnode *root)
{
	return root->name[root->namelen - 1] == '/';
}

/* Write @n's path into the path buffer; returns its length or -1. */
static ssize_t build_path(struct lf_walk *w, struct bnode *n)
{
	ssize_t count = collect_chain(w->bfs, n, false);
	if (count < 0) {
		return -1;
	}
	struct bnode **chain = w->bfs->chain;
	size_t len = 0;
	for (ssize_t i = count - 1; i >= 0; i--) {
		bool slash = i < count - 1 && (i < count - 2 || !root_ends_in_slash(chain[count - 1]));
		if (lf_walk_grow_path(w, len + chain[i]->namelen + 3) != 0) {
			return -1;
		}
		if (slash) {
			w->path[len++] = '/';
		}
		memcpy(w->path + len, chain[i]->name, chain[i]->namelen);
		len += chain[i]->namelen;
	}
	w->path[len] = '\0';
	return (ssize_t)len;
}

static int enqueue_pending(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	size_t off = w->pend.root ? 0 : s->childoff;
	size_t namelen = w->pend.pathlen - off;
	struct bnode *n = lf_walk_realloc(w, NULL, 0, sizeof(*n) + namelen + 1);
	if (!n) {
		return -1;
	}
	memcpy(n->name, w->path + off, namelen);
	n->name[namelen] = '\0';
	n->namelen = namelen;
	n->parent = w->pend.root ? NULL : s->cur;
	n->root = w->pend.root ? w->cur_root : s->cur->root;
	n->qnext = NULL;
	n->lru_prev = n->lru_next = NULL;
	n->ino = w->pend.ino;
	n->id_dev = w->pend.id_dev;
	n->id_ino = w->pend.id_ino;
	n->fd = -1;
	n->depth = w->pend.depth;
	n->stat_err = w->pend.stat_err;
	n->refs = 1;
	n->flags = w->pend.have_id ? F_HAVE_ID : 0;
	n->gi = w->pend.gi; /* the pending reference moves here */
	n->gi_excluded = w->pend.gi_excluded;
	w->pend.gi = NULL;
	if (n->parent) {
		n->parent->refs++;
	}
	if (s->qtail) {
		s->qtail->qnext = n;
	} else {
		s->qhead = n;
	}
	s->qtail = n;
	return 0;
}

/* Under -L, whether the entry is the same directory as one of its ancestors. */
static struct bnode *find_loop(struct lf_walk *w)
{
	if (w->opts.symlinks != LF_LOGICAL || !w->pend.have_id) {
		return NULL;
	}
	for (struct bnode *a = w->bfs->cur; a; a = a->parent) {
		if ((a->flags & F_HAVE_ID) && a->id_dev == w->pend.id_dev && a->id_ino == w->pend.id_ino) {
			return a;
		}
	}
	return NULL;
}

static int visit_record(struct lf_walk *w, struct lf_dirent *d)
{
	struct bfs_state *s = w->bfs;
	struct bnode *cur = s->cur;
	size_t off = s->childoff;
	const struct lf_parent dir = {
		.pathlen = s->dirlen,
		.childoff = off,
		.fd = cur->fd,
		.depth = cur->depth,
		.gi = cur->gi,
	};
	int r = lf_walk_visit_record(w, d, &dir, NULL, 0);
	if (r != 0) {
		return r == 2 ? 0 : r;
	}
	struct lf_entry *e = &w->ent.pub;
	if (e->type == LF_DIR) {
		bool unused; /* find_loop() below checks every directory under -L */
		w->pend.read_it = lf_walk_may_descend(w, &unused);
		if (e->visit == LF_VISIT_ERROR) {
			return 1;
		}
		struct bnode *loop = find_loop(w);
		if (loop) {
			e->visit = LF_VISIT_ERROR;
			e->error = ELOOP;
			/* The ancestor's path is a prefix of the entry's: measure it,
			 * then put the entry's path back. */
			ssize_t anc = build_path(w, loop);
			ssize_t curlen = anc < 0 ? -1 : build_path(w, cur);
			if (curlen < 0) {
				return -1;
			}
			if (off > (size_t)curlen) {
				w->path[curlen] = '/';
			}
			memcpy(w->path + off, d->d_name, e->pathlen - off + 1);
			e->path = w->path;
			e->at_name = w->path + off;
			e->loop_pathlen = (size_t)anc;
			w->had_error = true;
			return 1;
		}
		lf_walk_pend_dir(w);
	}
	return e->depth >= w->opts.mindepth;
}

static void finish_current(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	struct bnode *cur = s->cur;
	s->cur = NULL;
	cur->flags &= ~(unsigned)F_PINNED;
	w->arenatop = 0;
	release(w, cur);
}

size_t lf_bfs_dirs_left(const struct lf_walk *w)
{
	const struct bfs_state *s = w->bfs;
	size_t n = 0;
	if (!s) {
		return 0;
	}
	for (const struct bnode *q = s->qhead; q; q = q->qnext) {
		n++;
	}
	if (s->cur) {
		n += lf_walk_count_dirs(w, s->cur_off, s->end, s->sorted);
	}
	return n;
}

/* Open and read the next queued directory.  1: error entry ready. */
static int start_next_dir(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	struct bnode *n = s->qhead;
	s->qhead = n->qnext;
	if (!s->qhead) {
		s->qtail = NULL;
	}
	ssize_t len = build_path(w, n);
	if (len < 0) {
		return -1;
	}
	w->cur_root = n->root;
	int at_fd = AT_FDCWD;
	if (n->parent) {
		at_fd = node_fd(w, n->parent);
		if (at_fd >= 0) {
			n->parent->flags |= F_PINNED;
		}
	}
	int fd = -1;
	if (n->stat_err) {
		errno = n->stat_err;
	} else if (at_fd >= 0 || !n->parent) {
		fd = lf_walk_open_dir(w, at_fd, n->name, lf_walk_opens_following(w, !n->parent));
	}
	if (fd >= 0 && !n->parent && lf_walk_root_is_slash(w, fd)) {
		lf_walk_close_fd(w, fd);
		fd = -1;
		errno = EPERM;
	}
	if (n->parent) {
		n->parent->flags &= ~(unsigned)F_PINNED;
	}
	if (fd < 0) {
		lf_walk_error_entry(w, (size_t)len, (size_t)len - n->namelen, n->depth, errno);
		release(w, n);
		return 1;
	}
	n->fd = fd;
	n->flags |= F_PINNED;
	lru_touch(s, n);
	s->cur = n;
	w->arenatop = 0;
	size_t start = 0, end = 0;
	int rerr = 0;
	s->sorted = false;
	s->eof = false;
	if (w->opts.flags & LF_WALK_WHOLE_DIRS) {
		/* The whole directory, once (a streamed one is read as it is
		 * visited): sorted, or for LF_WALK_GITIGNORE and
		 * LF_WALK_EXCLUDE_CACHES, which must know whether .gitignore,
		 * .git or CACHEDIR.TAG are there before the first child. */
		rerr = lf_walk_read_dir(w, fd, &start, &end, &s->sorted);
		if (rerr != 0 && w->fatal) {
			return -1;
		}
		s->eof = true;
	}
	s->dirlen = (size_t)len;
	s->childoff = (size_t)len + (n->parent || w->path[len - 1] != '/');
	w->path[len] = '/';
	if (rerr != 0) {
		s->cur_off = start; /* what was read before the error is visited after it */
		s->end = end;
		lf_walk_error_entry(w, (size_t)len, (size_t)len - n->namelen, n->depth, errno);
		return 1;
	}
	const struct lf_parent dir = {
		.pathlen = (size_t)len,
		.childoff = s->childoff,
		.fd = fd,
		.depth = n->depth,
	};
	if (w->opts.flags & LF_WALK_EXCLUDE_CACHES) {
		int tag = lf_walk_cache_tagged(w, fd, start, end, s->sorted, &dir);
		if (tag < 0) {
			return -1;
		}
		if (tag) {
			start = end; /* nothing below a cache directory */
		}
		if (tag == 1) {
			s->cur_off = s->end = end;
			return 1; /* the tag's error entry */
		}
	}
	s->cur_off = start;
	s->end = end;
	if (w->gi) {
		struct lf_gi_scope *inherited = n->gi;
		n->gi = NULL;
		int r = lf_walk_gi_enter(w, fd, start, end, s->sorted, inherited, n->gi_excluded, &dir, &n->gi);
		lf_gi_unref(inherited);
		return r;
	}
	return 0;
}

static struct lf_dirent *chunk_record(struct lf_walk *w);

/*
 * The current directory's next record other than "." and "..", reading the
 * next chunk when the last one is spent.  NULL at its end, or with *@err
 * set to the errno of a read error (w->fatal set if it ends the walk).
 */
static struct lf_dirent *next_record(struct lf_walk *w, int *err)
{
	struct bfs_state *s = w->bfs;
	*err = 0;
	for (;;) {
		struct lf_dirent *d = chunk_record(w);
		if (d || s->eof) {
			return d;
		}
		w->arenatop = 0;
		ssize_t n = lf_walk_read_chunk(w, s->cur->fd);
		if (n <= 0) {
			s->eof = true;
			*err = n < 0 ? errno : 0;
			return NULL;
		}
		s->cur_off = 0;
		s->end = (size_t)n;
	}
}

static struct lf_dirent *chunk_record(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	while (s->cur_off < s->end) {
		struct lf_dirent *d;
		if (s->sorted) {
			d = (struct lf_dirent *)(w->arena + *(size_t *)(w->arena + s->cur_off));
			s->cur_off += sizeof(size_t);
			return d;
		}
		d = (struct lf_dirent *)(w->arena + s->cur_off);
		s->cur_off += d->d_reclen;
		if (!lf_dir_is_dot(d->d_name)) {
			return d;
		}
	}
	return NULL;
}

static int bfs_next(struct lf_walk *w)
{
	if (!w->bfs) {
		w->bfs = lf_walk_realloc(w, NULL, 0, sizeof(*w->bfs));
		if (w->bfs) {
			memset(w->bfs, 0, sizeof(*w->bfs));
		} else {
			w->fatal = errno;
			return -1;
		}
	}
	struct bfs_state *s = w->bfs;
	for (;;) {
		if (w->pend_active) {
			w->pend_active = false;
			if (w->pend.read_it && !w->pruned && enqueue_pending(w) != 0) {
				w->fatal = errno;
				return -1;
			}
			lf_gi_unref(w->pend.gi); /* not enqueued */
			w->pend.gi = NULL;
		}
		/*
		 * The roots first, as the first level of one breadth-first
		 * walk (bfs's order): a root directory waits in the queue as
		 * a node that holds its path, with no fd open until its turn.
		 */
		if (w->next_root < w->opts.nroots) {
			int r = lf_walk_stat_root(w);
			if (r != 0) {
				return r;
			}
			if (w->opts.mindepth <= 0) {
				return 1;
			}
			continue;
		}
		if (s->cur) {
			/* Pinned, so its fd and its read position stay. */
			if (s->cur->fd >= 0) {
				int rerr;
				struct lf_dirent *d = next_record(w, &rerr);
				if (rerr) {
					if (w->fatal) {
						return -1;
					}
					struct bnode *c = s->cur;
					lf_walk_error_entry(w, s->dirlen, s->dirlen - c->namelen, c->depth, rerr);
					return 1;
				}
				if (d) {
					int r = visit_record(w, d);
					if (r < 0) {
						w->fatal = errno;
						return -1;
					}
					if (r > 0) {
						return 1;
					}
					continue;
				}
			}
			finish_current(w);
			continue;
		}
		if (s->qhead) {
			int r = start_next_dir(w);
			if (r < 0) {
				if (!w->fatal) {
					w->fatal = errno;
				}
				return -1;
			}
			if (r > 0) {
				return 1;
			}
			continue;
		}
		return 0;
	}
}

/* lf_walk_next() in breadth-first order. */
int lf_bfs_next(struct lf_walk *w, struct lf_entry **ent)
{
	int r = bfs_next(w);
	if (r > 0) {
		*ent = &w->ent.pub;
		w->counters.entries++;
	}
	return r;
}

void lf_bfs_free(struct lf_walk *w)
{
	struct bfs_state *s = w->bfs;
	if (!s) {
		return;
	}
	if (s->cur) {
		finish_current(w);
	}
	while (s->qhead) {
		struct bnode *n = s->qhead;
		s->qhead = n->qnext;
		release(w, n);
	}
	free(s->chain);
	free(s);
	w->bfs = NULL;
}
