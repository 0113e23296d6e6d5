/*
 * walk_impl.h: the walker's private state, and the internal interface of the
 * core's walk files.  Not installed.
 *
 * The calls go one way: walk.c (the public API) calls the engines and
 * walk_common.c; the depth-first engine (walk_dfs.c, with walk_dfs_ioq.c
 * and walk_dfs_spill.c: see walk_dfs.h) and the breadth-first engine
 * (walk_bfs.c) call walk_common.c and never each other;
 * walk_common.c calls neither engine: the one thing it needs from the
 * engine in use, evicting a directory fd, comes through w->evict.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_WALK_IMPL_H
#define LF_WALK_IMPL_H

#include "dir.h"
#include "gitignore.h"
#include "ioq.h"
#include "prefetch.h"
#include "probe.h"
#include "walk.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Frame and node flags. */
enum {
	F_SORTED = 1 << 0,    /* the region is an index array, not raw records */
	F_HAVE_ID = 1 << 1,   /* id_dev/id_ino are valid */
	F_NEED_POST = 1 << 2, /* a post-order visit is owed */
	F_POST_DONE = 1 << 3,
	F_LOST = 1 << 4,      /* could not be reopened: leave the subtree alone */
	F_PINNED = 1 << 5,    /* never evict (breadth-first: the directory being read, a reopen's source) */
	F_VIA_LINK = 1 << 6,  /* reached by following a symbolic link (-L) */
	F_EOF = 1 << 7,       /* its fd has nothing more to read */
	F_SPILL = 1 << 8,     /* records or a read error wait in w->spills */
};

/* The flags under which each directory is read whole before its first entry. */
#define LF_WALK_WHOLE_DIRS (LF_WALK_SORT | LF_WALK_GITIGNORE | LF_WALK_EXCLUDE_CACHES)

/* The current entry, with its private stat cache. */
struct entry_priv {
	struct lf_entry pub; /* first, so a struct lf_entry * converts back */
	struct lf_walk *w;
	enum lf_type raw_type; /* d_type as read; LF_UNKNOWN for roots */
	bool follow_walk;      /* LF_FOLLOW_WALK means follow for this entry */
	int cache_err[2];      /* per follow mode: -1 untried, 0 ok, else errno */
	struct lf_stat cache[2];
	struct lf_pf_window *pf; /* where the stat-ahead thread may have its stat */
	unsigned pf_idx;
	bool record;           /* a host's record (walk_record.h): no directory fd to act in */
};

/*
 * A directory on the depth-first stack: what one level of depth costs, so
 * kept small (56 bytes).  Its records are the arena region from the end of
 * the frame below (0 for the bottom frame) to @end, the next one @left
 * bytes before @end; the directory is read through that region one
 * getdents64 chunk at a time while its fd stays open.  The stat-ahead
 * window and the loop-detection link live in arrays beside the stack,
 * allocated only for the walks that use them.
 */
struct lf_frame {
	size_t end;
	size_t pathlen; /* its path is path[0, pathlen) */
	uint64_t ino;   /* d_ino, reported on the post-order visit */
	uint64_t id_dev, id_ino;
	int fd;
	int depth;
	unsigned flags;
	uint32_t left; /* bytes of its region still to visit */
};

/* A frame's stat-ahead state (w->frame_pf, beside w->frames). */
struct lf_frame_pf {
	struct lf_pf_window *pf; /* its names being stat'ed ahead, or NULL */
	unsigned next;           /* the window's slot of the next child */
	unsigned none;           /* children to visit without a window */
};

/*
 * A frame's subdirectories being read ahead by the I/O queue (w->frame_rq,
 * beside w->frames, under LF_WALK_READ_AHEAD): a ring of jobs in the
 * records' order, each with its record's arena offset.
 */
#define LF_RQ_AHEAD LF_IOQ_KIDS
struct lf_frame_rq {
	struct lf_ioq_job *jobs[LF_RQ_AHEAD];
	size_t recs[LF_RQ_AHEAD];
	unsigned head, count;
	size_t next; /* arena offset of the next record to consider */
};

/*
 * The rest of a directory whose fd had to be closed before its end was
 * read (the fd budget), or the error that ended its reading; the frame is
 * F_SPILL until the walk has taken it.  Rare, so kept in a list.
 */
struct lf_spill {
	size_t frame; /* index in w->frames */
	char *buf;    /* records still to visit: buf[off, len) */
	size_t off, len;
	int err;      /* errno to report after the records, or 0 */
};

/* The directory whose records an engine visits (lf_walk_visit_record()). */
struct lf_parent {
	size_t pathlen;  /* its path is path[0, pathlen) */
	size_t childoff; /* where its children's names start in the path */
	int fd;
	int depth;
	struct lf_gi_scope *gi; /* its children's ignore scope, or NULL */
};

struct bfs_state;
struct lf_dirent; /* dir.h */

struct lf_walk {
	struct lf_walk_opts opts;
	struct entry_priv ent;
	struct lf_counters counters;

	char *path; /* path of the current entry, grown as needed */
	size_t pathcap;
	char *arena; /* directory records of the frames on the stack */
	size_t arenacap, arenatop;

	struct lf_frame *frames;
	size_t nframes, framecap;
	struct lf_frame_pf *frame_pf; /* beside frames, when there is a prefetcher */
	size_t frame_pfcap;
	int *hnext; /* beside frames under LF_LOGICAL: next frame in the same bucket, or -1 */
	size_t hnextcap;
	struct lf_gi_scope **frame_gi; /* beside frames under LF_WALK_GITIGNORE: their children's scope */
	size_t frame_gicap;
	struct lf_frame_rq *frame_rq; /* beside frames, when there is an I/O queue */
	size_t frame_rqcap;
	struct lf_spill *spills;
	size_t nspills, spillcap;
	size_t evict_from; /* no frame below this index holds an fd */

	int *buckets; /* loop detection under LF_LOGICAL: frame index heads */
	size_t nbuckets;

	size_t next_root, cur_root;
	uint64_t root_dev; /* for LF_WALK_XDEV */

	int open_fds, max_fds;
	/* The engine's eviction: close one unpinned directory fd, recording
	 * what a reopen will check.  0, or -1 if none can go.  Set at open. */
	int (*evict)(struct lf_walk *w);

	/* The directory last returned, waiting to be read on the next call. */
	bool pend_active, pruned;
	struct {
		size_t pathlen;
		size_t rec; /* arena offset of its record (depth-first walks) */
		uint64_t ino, id_dev, id_ino;
		int depth;
		bool have_id, read_it, root, via_link;
		int stat_err; /* its stat failed (-L, at -maxdepth): reported in place of reading it */
		struct lf_gi_scope *gi; /* the scope it inherits (a reference), or NULL */
		bool gi_excluded;       /* ignored, but holds tracked files */
	} pend;

	struct lf_gi *gi;             /* LF_WALK_GITIGNORE's state, or NULL */
	struct lf_gi_scope *cur_gi;   /* the scope of the current entry's directory */
	bool cur_gi_excluded;         /* the current entry is an ignored directory to read */

	struct lf_prefetch *prefetch; /* LF_WALK_STAT_AHEAD, started on first use */
	struct lf_ioq *ioq;           /* LF_WALK_READ_AHEAD's queue, or NULL */
	unsigned ioq_sample;          /* regions until the dormant queue gets a sample */
	struct lf_probe ioq_probe;    /* sharing the queue's jobs while warm, or not */
	bool ioq_share;               /* the queue's jobs are shared now */
	bool ioq_share_probe;         /* choosing by ioq_probe (neither flag says, more than one CPU) */
	bool stat_ahead;              /* the flag applies to this walk */
	bool sort_bytes;              /* LF_WALK_SORT compares bytes (lf_walk_collates_bytes) */
	size_t *root_order;           /* LF_WALK_SORT: the indexes of opts.roots in sorted order */

	struct bfs_state *bfs;
	size_t charged; /* to opts.mem: given back in full by lf_walk_close() */
	size_t ioq_charged; /* of that, the I/O queue's */
	bool had_error;
	int fatal; /* errno of a failure that ends the walk, or 0 */
	atomic_bool cancelled; /* lf_walk_cancel() was called */
};

static inline bool lf_walk_is_logical(const struct lf_walk *w)
{
	return w->opts.symlinks == LF_LOGICAL;
}

/* Keep @err as the error that ends the walk (the first one wins); -1. */
static inline int lf_walk_set_fatal(struct lf_walk *w, int err)
{
	if (!w->fatal) {
		w->fatal = err;
	}
	errno = w->fatal;
	return -1;
}

/*
 * Memory accounting (opts.mem): charge @n bytes before taking them; 0, or
 * -1 with errno ENOMEM when the account refuses.  Free without an account.
 */
static inline int lf_walk_charge(struct lf_walk *w, size_t n)
{
	if (!w->opts.mem) {
		return 0;
	}
	if (!lf_mem_charge(w->opts.mem, n)) {
		errno = ENOMEM;
		return -1;
	}
	w->charged += n;
	return 0;
}

/* Give back @n bytes charged before. */
static inline void lf_walk_uncharge(struct lf_walk *w, size_t n)
{
	if (w->opts.mem) {
		n = n < w->charged ? n : w->charged;
		w->charged -= n;
		lf_mem_uncharge(w->opts.mem, n);
	}
}

/*
 * Hidden: these are no part of the library's interface, and a call to a
 * hidden function in the same file may be inlined even in PIC code (lf_core
 * is built with -fPIC, where default visibility means "may be interposed").
 */
#pragma GCC visibility push(hidden)

/* Shared machinery (walk_common.c). */
enum lf_type lf_type_from_dtype(unsigned char d_type);
int lf_walk_grow_path(struct lf_walk *w, size_t need);
int lf_walk_reserve_arena(struct lf_walk *w, size_t need);
/*
 * realloc(@p, @size) of a block of @old bytes, charged to the walk's
 * account: NULL with errno ENOMEM if it refuses or realloc fails (@p is
 * left as it was).
 */
void *lf_walk_realloc(struct lf_walk *w, void *p, size_t old, size_t size);
void lf_walk_close_fd(struct lf_walk *w, int fd);
int lf_walk_record_id(struct lf_walk *w, int fd, uint64_t *dev, uint64_t *ino);
void lf_walk_make_room(struct lf_walk *w, int need); /* evict until @need fds fit */
int lf_walk_open_dir(struct lf_walk *w, int at_fd, const char *name, bool follow);
/** The fd opts.root_fds gives for the current root, or -1. */
int lf_walk_given_root_fd(const struct lf_walk *w);
/*
 * Whether the directory the walk opens for an entry follows a final link:
 * roots under LF_COMFOLLOW and LF_LOGICAL, entries below them under
 * LF_LOGICAL unless LF_WALK_NO_DESCEND_LINKS (a deleting walk opens what it
 * examined, never a link swapped in for it since).
 */
bool lf_walk_opens_following(const struct lf_walk *w, bool root);
/*
 * Under LF_WALK_REFUSE_SLASH, whether the root directory @fd is / (one
 * fstat): then the caller closes it and makes the root an EPERM error.
 */
bool lf_walk_root_is_slash(struct lf_walk *w, int fd);
int lf_walk_read_dir(struct lf_walk *w, int fd, size_t *start, size_t *end, bool *sorted);
/*
 * LF_WALK_EXCLUDE_CACHES: whether the directory @fd (@dir), whose records
 * are [@start, @end) of the arena (an index if @sorted), is a cache
 * directory, by its CACHEDIR.TAG (walk_common.c).  @return 0: it is not,
 * 2: it is (skip its records), 1: its tag could not be read, an error entry
 * is ready (skip its records too), -1 on a fatal error
 */
int lf_walk_cache_tagged(struct lf_walk *w, int fd, size_t start, size_t end, bool sorted,
			 const struct lf_parent *dir);
/*
 * LF_WALK_SORT's order (walk_sort.c): whether the process's LC_COLLATE is
 * byte order (C, POSIX, C.UTF-8), read once at open into w->sort_bytes;
 * and the records [*start, *end) of the arena, "." and ".." left out, as
 * an index of their offsets sorted by name, at the arena's top, which
 * *start and *end then delimit.  0, or -1 after lf_walk_set_fatal().
 */
bool lf_walk_collates_bytes(void);
int lf_walk_sort_records(struct lf_walk *w, size_t *start, size_t *end);
/*
 * Sort the roots as names are sorted, as bfs's -s does, into
 * w->root_order (entries still give their root's index in opts.roots).
 * 0, or -1 after lf_walk_set_fatal().
 */
int lf_walk_sort_roots(struct lf_walk *w);
/*
 * Read the next records of @fd with one getdents64 call of a bounded buffer,
 * to the arena's top (the caller puts the top where they belong), and move
 * the top past them.  Returns the bytes read, 0 at the end of the
 * directory, or -1 with errno set (and w->fatal, if the arena cannot grow).
 */
ssize_t lf_walk_read_chunk(struct lf_walk *w, int fd);
void lf_walk_reset_entry(struct lf_walk *w);
int lf_walk_resolve_type(struct lf_walk *w);
void lf_walk_error_entry(struct lf_walk *w, size_t pathlen, size_t nameoff, int depth, int err);
int lf_walk_visit_record(struct lf_walk *w, const struct lf_dirent *d, const struct lf_parent *dir,
			 struct lf_pf_window *pf, unsigned pf_idx);
bool lf_walk_may_descend(struct lf_walk *w, bool *check_loop);
void lf_walk_pend_dir(struct lf_walk *w);
/* LF_WALK_GITIGNORE: the scope of a directory just read (see walk_common.c). */
int lf_walk_gi_enter(struct lf_walk *w, int fd, size_t start, size_t end, bool sorted, struct lf_gi_scope *inherited,
		     bool excluded, const struct lf_parent *dir, struct lf_gi_scope **scope);
size_t lf_walk_count_dirs(const struct lf_walk *w, size_t cur, size_t end, bool sorted);

/*
 * The record at *@off of the arena, moving *@off past it: a region's
 * records follow each other, or, sorted, *@off walks an index of offsets.
 */
static inline struct lf_dirent *lf_walk_next_record(const struct lf_walk *w, size_t *off, bool sorted)
{
	if (sorted) {
		size_t at = *(const size_t *)(w->arena + *off);
		*off += sizeof(size_t);
		return (struct lf_dirent *)(w->arena + at);
	}
	struct lf_dirent *d = (struct lf_dirent *)(w->arena + *off);
	*off += d->d_reclen;
	return d;
}
int lf_walk_stat_root(struct lf_walk *w);

/* Depth-first engine (walk_dfs.c). */
int lf_dfs_next(struct lf_walk *w, struct lf_entry **ent); /* as lf_walk_next() */
int lf_dfs_evict(struct lf_walk *w);
size_t lf_dfs_dirs_left(const struct lf_walk *w);
void lf_dfs_free(struct lf_walk *w); /* closes its frames' fds */

/* Breadth-first engine (walk_bfs.c). */
int lf_bfs_next(struct lf_walk *w, struct lf_entry **ent); /* as lf_walk_next() */
int lf_bfs_evict(struct lf_walk *w);
size_t lf_bfs_dirs_left(const struct lf_walk *w);
void lf_bfs_free(struct lf_walk *w);

#pragma GCC visibility pop

#endif
