/*
 * walk_common.c: what the depth-first engine (walk_dfs.c) and the
 * breadth-first engine (walk_bfs.c) share, and nothing that knows either
 * engine's state: the path buffer, the record arena and reading a directory
 * into it, the fd budget (an engine's eviction comes in through w->evict),
 * the current entry and its lazy stat cache, type resolution, the checks
 * before descending (xdev, links under -L, identity for loop detection), and
 * the roots' stat.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "dir.h"
#include "walk_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/*
 * The getdents64 buffer of a streamed directory: a directory is read one
 * chunk of this size at a time, its fd kept open meanwhile, so a wide
 * directory costs this much memory, not its size (bfs uses 64 KiB too;
 * 32 and 128 KiB measured no faster on a 1,000,000-entry directory).
 */
#ifndef LF_READ_CHUNK
#define LF_READ_CHUNK (64 * 1024)
#endif
#define READ_CHUNK LF_READ_CHUNK

enum lf_type lf_type_from_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return LF_REG;
	case S_IFDIR: return LF_DIR;
	case S_IFLNK: return LF_LNK;
	case S_IFIFO: return LF_FIFO;
	case S_IFSOCK: return LF_SOCK;
	case S_IFCHR: return LF_CHR;
	case S_IFBLK: return LF_BLK;
	default: return LF_UNKNOWN;
	}
}

enum lf_type lf_type_from_dtype(unsigned char d_type)
{
	switch (d_type) {
	case DT_REG: return LF_REG;
	case DT_DIR: return LF_DIR;
	case DT_LNK: return LF_LNK;
	case DT_FIFO: return LF_FIFO;
	case DT_SOCK: return LF_SOCK;
	case DT_CHR: return LF_CHR;
	case DT_BLK: return LF_BLK;
	default: return LF_UNKNOWN;
	}
}

void *lf_walk_realloc(struct lf_walk *w, void *p, size_t old, size_t size)
{
	if (size > old && lf_walk_charge(w, size - old) != 0) {
		return NULL;
	}
	void *q = realloc(p, size);
	if (!q) {
		lf_walk_uncharge(w, size > old ? size - old : 0);
		errno = ENOMEM;
		return NULL;
	}
	lf_walk_uncharge(w, size < old ? old - size : 0);
	return q;
}

int lf_walk_grow_path(struct lf_walk *w, size_t need)
{
	if (need <= w->pathcap) {
		return 0;
	}
	size_t cap = w->pathcap ? w->pathcap : 256;
	while (cap < need) {
		cap *= 2;
	}
	char *p = lf_walk_realloc(w, w->path, w->pathcap, cap);
	if (!p) {
		return -1;
	}
	w->path = p;
	w->pathcap = cap;
	w->ent.pub.path = p;
	return 0;
}

int lf_walk_reserve_arena(struct lf_walk *w, size_t need)
{
	if (w->arenacap - w->arenatop >= need) {
		return 0;
	}
	size_t cap = w->arenacap ? w->arenacap : 4 * READ_CHUNK;
	while (cap - w->arenatop < need) {
		cap *= 2;
	}
	char *a = lf_walk_realloc(w, w->arena, w->arenacap, cap);
	if (!a) {
		return -1;
	}
	w->arena = a;
	w->arenacap = cap;
	return 0;
}

/* ---- fd budget ---------------------------------------------------------- */

void lf_walk_close_fd(struct lf_walk *w, int fd)
{
	if (fd >= 0) {
		close(fd);
		w->open_fds--;
		w->counters.closes++;
	}
}

int lf_walk_record_id(struct lf_walk *w, int fd, uint64_t *dev, uint64_t *ino)
{
	struct lf_stat st;
	w->counters.fd_stats++;
	if (lf_stat_fd(fd, &st) != 0) {
		return -1;
	}
	*dev = st.dev;
	*ino = st.ino;
	return 0;
}

bool lf_walk_opens_following(const struct lf_walk *w, bool root)
{
	if (root) {
		return w->opts.symlinks != LF_PHYSICAL;
	}
	return lf_walk_is_logical(w) && !(w->opts.flags & LF_WALK_NO_DESCEND_LINKS);
}

bool lf_walk_root_is_slash(struct lf_walk *w, int fd)
{
	if (!(w->opts.flags & LF_WALK_REFUSE_SLASH)) {
		return false;
	}
	struct stat slash;
	uint64_t dev, ino;
	if (stat("/", &slash) != 0 || lf_walk_record_id(w, fd, &dev, &ino) != 0) {
		return true; /* cannot tell: a deleting walk does not go on */
	}
	return dev == (uint64_t)slash.st_dev && ino == (uint64_t)slash.st_ino;
}

void lf_walk_make_room(struct lf_walk *w, int need)
{
	while (w->open_fds + need > w->max_fds && w->evict(w) == 0) {
	}
}

int lf_walk_given_root_fd(const struct lf_walk *w)
{
	return w->opts.root_fds ? w->opts.root_fds[w->cur_root] : -1;
}

int lf_walk_open_dir(struct lf_walk *w, int at_fd, const char *name, bool follow)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW);
	/* Only roots are opened relative to the working directory. */
	int given = at_fd == AT_FDCWD ? lf_walk_given_root_fd(w) : -1;
	lf_walk_make_room(w, 1);
	for (;;) {
		w->counters.opens++;
		/*
		 * A root the caller opened: its path may lead elsewhere by now.
		 * "." in it is itself, and a description of our own, so that
		 * what the caller (or an earlier walk) read does not move ours.
		 */
		int fd = given >= 0 ? openat(given, ".", flags) : openat(at_fd, name, flags);
		if (fd >= 0) {
			w->open_fds++;
			return fd;
		}
		if ((errno != EMFILE && errno != ENFILE) || w->evict(w) != 0) {
			return -1;
		}
		/* The real limit is lower than we thought: remember it. */
		w->max_fds = w->open_fds > 2 ? w->open_fds : 2;
	}
}

/* ---- cache directories ------------------------------------------------- */

/*
 * An error entry for the regular file @name in the directory @dir, which
 * the walk read for itself (a .gitignore, a CACHEDIR.TAG): 1, or -1 on a
 * fatal error.
 */
static int child_file_error(struct lf_walk *w, const struct lf_parent *dir, const char *name, int err)
{
	size_t len = strlen(name);
	if (lf_walk_grow_path(w, dir->childoff + len + 1) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	if (dir->childoff > dir->pathlen) {
		w->path[dir->pathlen] = '/';
	}
	memcpy(w->path + dir->childoff, name, len + 1);
	lf_walk_error_entry(w, dir->childoff + len, dir->childoff, dir->depth + 1, err);
	w->ent.pub.type = LF_REG;
	return 1;
}

/* Whether @fd is open on a file that starts with the tag's signature. */
static int tag_signed(int fd, bool *is_signed)
{
	static const char sig[] = LF_CACHEDIR_TAG_SIGNATURE;
	char buf[sizeof(sig) - 1];
	size_t got = 0;
	struct stat st;
	*is_signed = false;
	if (fstat(fd, &st) != 0) {
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		return 0; /* a FIFO or a device is no tag, and is not read */
	}
	while (got < sizeof(buf)) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return -1;
		}
		if (n == 0) {
			return 0;
		}
		got += (size_t)n;
	}
	*is_signed = memcmp(buf, sig, sizeof(buf)) == 0;
	return 0;
}

int lf_walk_cache_tagged(struct lf_walk *w, int fd, size_t start, size_t end, bool sorted,
			 const struct lf_parent *dir)
{
	static const char name[] = "CACHEDIR.TAG";
	bool present = false;
	for (size_t o = start; o < end && !present;) {
		const struct lf_dirent *d = lf_walk_next_record(w, &o, sorted);
		present = d->d_name[0] == 'C' && strcmp(d->d_name, name) == 0 &&
			  (d->d_type == DT_REG || d->d_type == DT_UNKNOWN);
	}
	if (!present) {
		return 0;
	}
	w->counters.tags++;
	int tfd = openat(fd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	bool is_signed = false;
	int err = 0;
	if (tfd < 0) {
		/* Gone since the listing, or a link where d_type could not tell. */
		err = errno == ENOENT || errno == ELOOP ? 0 : errno;
	} else {
		if (tag_signed(tfd, &is_signed) != 0) {
			err = errno;
		}
		close(tfd);
	}
	if (!err) {
		return is_signed ? 2 : 0;
	}
	return child_file_error(w, dir, name, err);
}

/* ---- reading ------------------------------------------------------------ */

int lf_walk_read_dir(struct lf_walk *w, int fd, size_t *start, size_t *end, bool *sorted)
{
	int err = 0;
	*start = w->arenatop;
	for (;;) {
		if (lf_walk_reserve_arena(w, READ_CHUNK) != 0) {
			return lf_walk_set_fatal(w, errno);
		}
		w->counters.getdents++;
		ssize_t n = lf_getdents(fd, w->arena + w->arenatop, w->arenacap - w->arenatop);
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		w->arenatop += (size_t)n;
	}
	*end = w->arenatop;
	*sorted = false;

	if (w->opts.flags & LF_WALK_SORT) {
		if (lf_walk_sort_records(w, start, end) != 0) {
			return -1;
		}
		*sorted = true;
	}

	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

ssize_t lf_walk_read_chunk(struct lf_walk *w, int fd)
{
	if (lf_walk_reserve_arena(w, READ_CHUNK) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	w->counters.getdents++;
	ssize_t n = lf_getdents(fd, w->arena + w->arenatop, READ_CHUNK);
	if (n > 0) {
		w->arenatop += (size_t)n;
	}
	return n;
}

/* ---- entries and their stat cache --------------------------------------- */

void lf_walk_reset_entry(struct lf_walk *w)
{
	w->ent.cache_err[0] = -1;
	w->ent.cache_err[1] = -1;
	w->ent.pub.error = 0;
	w->ent.pub.loop_pathlen = 0;
	w->ent.pub.root = w->cur_root;
	w->ent.follow_walk = lf_walk_is_logical(w);
	w->ent.pf = NULL;
}

const struct lf_stat *lf_entry_stat(struct lf_entry *e, enum lf_follow how)
{
	struct entry_priv *p = (struct entry_priv *)e;
	struct lf_walk *w = p->w;
	bool walk_mode = how == LF_FOLLOW_WALK;
	bool follow = walk_mode ? p->follow_walk : how == LF_FOLLOW;
	bool maybe_link = p->raw_type == LF_LNK || p->raw_type == LF_UNKNOWN;
	int slot = follow && maybe_link;

	if (!maybe_link && p->cache_err[1] >= 0) {
		slot = 1; /* not a link: a follow result serves both */
	}
	if (p->cache_err[slot] < 0 && slot == 0 && p->pf) {
		int err = lf_pf_take(p->pf, p->pf_idx, &p->cache[0]);
		p->pf = NULL;
		if (err >= 0) {
			w->counters.stats++;
			w->counters.stats_ahead++;
			p->cache_err[0] = err;
		}
	}
	/* A root given by fd, still named as the walk named it: by the fd. */
	int given = e->at_fd == AT_FDCWD && e->at_name == w->path ? lf_walk_given_root_fd(w) : -1;
	if (p->cache_err[slot] < 0 && given >= 0) {
		w->counters.fd_stats++;
		p->cache_err[slot] = lf_stat_fd(given, &p->cache[slot]) == 0 ? 0 : errno;
	}
	if (p->cache_err[slot] < 0) {
		if (slot) {
			w->counters.stats_follow++;
		} else {
			w->counters.stats++;
		}
		int r = lf_stat_at(e->at_fd, e->at_name, slot, &p->cache[slot]);
		p->cache_err[slot] = r == 0 ? 0 : errno;
	}
	if (p->cache_err[slot] == 0) {
		return &p->cache[slot];
	}
	if (slot && walk_mode && (p->cache_err[slot] == ENOENT || p->cache_err[slot] == ENOTDIR)) {
		/*
		 * A broken link under -L is described by the link itself (POSIX:
		 * when the referenced file does not exist), and so is one whose
		 * target path runs through a file ("f/"), as bfs does.
		 */
		return lf_entry_stat(e, LF_NOFOLLOW);
	}
	errno = p->cache_err[slot];
	return NULL;
}

const struct lf_stat *lf_entry_stat_cached(const struct lf_entry *e, enum lf_follow how)
{
	const struct entry_priv *p = (const struct entry_priv *)e;
	bool walk_mode = how == LF_FOLLOW_WALK;
	bool follow = walk_mode ? p->follow_walk : how == LF_FOLLOW;
	bool maybe_link = p->raw_type == LF_LNK || p->raw_type == LF_UNKNOWN;
	int slot = follow && maybe_link;
	if (!maybe_link && p->cache_err[1] >= 0) {
		slot = 1;
	}
	if (p->cache_err[slot] == 0) {
		return &p->cache[slot];
	}
	if (slot && walk_mode && (p->cache_err[slot] == ENOENT || p->cache_err[slot] == ENOTDIR)) {
		return lf_entry_stat_cached(e, LF_NOFOLLOW); /* as lf_entry_stat under -L */
	}
	return NULL;
}

/* Fill in the type when d_type could not, or when a followed link hides it. */
int lf_walk_resolve_type(struct lf_walk *w)
{
	struct lf_entry *e = &w->ent.pub;
	if (e->type == LF_UNKNOWN || (e->type == LF_LNK && w->ent.follow_walk)) {
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (!st) {
			return -1;
		}
		e->type = lf_type_from_mode(st->mode);
		if (w->ent.raw_type == LF_UNKNOWN && !w->ent.follow_walk) {
			w->ent.raw_type = e->type;
		}
	}
	return 0;
}

/*
 * Make the current entry an error entry for the directory path[0, pathlen),
 * its name at @nameoff, that could not be opened, read or reopened.
 */
void lf_walk_error_entry(struct lf_walk *w, size_t pathlen, size_t nameoff, int depth, int err)
{
	struct lf_entry *e = &w->ent.pub;
	lf_walk_reset_entry(w);
	w->path[pathlen] = '\0';
	e->path = w->path;
	e->pathlen = pathlen;
	e->nameoff = nameoff;
	e->depth = depth;
	e->type = LF_DIR;
	e->visit = LF_VISIT_ERROR;
	e->at_fd = -1;
	e->at_name = w->path + nameoff;
	e->error = err;
	w->had_error = true;
}

/* ---- LF_WALK_GITIGNORE -------------------------------------------------- */

/*
 * Set *@scope for the directory @dir (its fd @fd) just read into the arena
 * from @start to @end: its listing says whether it has a .gitignore and
 * whether it starts a repository of its own (a ".git" below the roots).
 * @return 0; 1 when its .gitignore could not be read: an error entry naming
 * it is ready (*@scope is set all the same); -1 on a fatal error (ENOMEM)
 */
int lf_walk_gi_enter(struct lf_walk *w, int fd, size_t start, size_t end, bool sorted, struct lf_gi_scope *inherited,
		     bool excluded, const struct lf_parent *dir, struct lf_gi_scope **scope)
{
	bool has_ignore = false, has_git = false;
	for (size_t o = start; o < end;) {
		const struct lf_dirent *d = lf_walk_next_record(w, &o, sorted);
		if (d->d_name[0] != '.' || d->d_name[1] != 'g') {
			continue;
		}
		if (strcmp(d->d_name, ".gitignore") == 0) {
			/* git reads a .gitignore that is a link no more (2.32) */
			has_ignore = d->d_type == DT_REG || d->d_type == DT_UNKNOWN;
		} else if (strcmp(d->d_name, ".git") == 0) {
			has_git = d->d_type == DT_DIR || d->d_type == DT_REG || d->d_type == DT_UNKNOWN;
		}
	}
	int err;
	if (lf_gi_enter(w->gi, inherited, excluded, fd, has_ignore, has_git && dir->depth > 0, dir->childoff, scope,
			&err) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	if (!err) {
		return 0;
	}
	return child_file_error(w, dir, ".gitignore", err);
}

/*
 * The verdict on the current entry (its name at @off, @namelen long) of
 * the scope of its directory @dir.  0 to keep it, 2 to skip it, -1 on a
 * fatal error.  A directory to read is pended with what it inherits.
 */
static int gi_check(struct lf_walk *w, const struct lf_parent *dir, size_t off, size_t namelen)
{
	struct lf_entry *e = &w->ent.pub;
	w->cur_gi = dir->gi;
	w->cur_gi_excluded = false;
	if (!dir->gi) {
		return 0;
	}
	/* A link is no directory to git, even when the walk follows it. */
	bool isdir = w->ent.raw_type == LF_DIR || (w->ent.raw_type == LF_UNKNOWN && e->type == LF_DIR);
	int v = lf_gi_check(dir->gi, w->path, off + namelen, off, isdir);
	if (v < 0) {
		return lf_walk_set_fatal(w, errno);
	}
	w->cur_gi_excluded = v == LF_GI_KEEP_EXCLUDED;
	return v == LF_GI_SKIP ? 2 : 0;
}

/*
 * Make the current entry the record @d, a child of the directory @dir; @pf
 * and @pf_idx say where the stat-ahead thread may have its stat (pf NULL:
 * nowhere).  Its type is d_type's, or a stat's when d_type cannot tell or a
 * followed link hides it.
 * @return 0 for a pre-order entry, 1 for an error entry (the stat failed),
 * 2 for an entry LF_WALK_GITIGNORE skips, -1 on a fatal error (errno)
 */
int lf_walk_visit_record(struct lf_walk *w, const struct lf_dirent *d, const struct lf_parent *dir,
			 struct lf_pf_window *pf, unsigned pf_idx)
{
	size_t off = dir->childoff;
	size_t namelen = strlen(d->d_name);
	if (w->gi && namelen == 4 && memcmp(d->d_name, ".git", 4) == 0) {
		return 2; /* no part of any work tree */
	}
	if (lf_walk_grow_path(w, off + namelen + 1) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	if (off > dir->pathlen) {
		w->path[dir->pathlen] = '/'; /* an error entry may have ended the path there */
	}
	memcpy(w->path + off, d->d_name, namelen + 1);

	struct lf_entry *e = &w->ent.pub;
	lf_walk_reset_entry(w);
	w->ent.raw_type = lf_type_from_dtype(d->d_type);
	e->path = w->path;
	e->pathlen = off + namelen;
	e->nameoff = off;
	e->depth = dir->depth + 1;
	e->type = w->ent.raw_type;
	e->visit = LF_VISIT_PRE;
	e->ino = d->d_ino;
	e->at_fd = dir->fd;
	e->at_name = w->path + off;
	w->ent.pf = pf;
	w->ent.pf_idx = pf_idx;

	if (lf_walk_resolve_type(w) != 0) {
		e->visit = LF_VISIT_ERROR;
		e->error = errno;
		w->had_error = true;
		return 1;
	}
	return w->gi ? gi_check(w, dir, off, namelen) : 0;
}

/* ---- before descending -------------------------------------------------- */

/*
 * Whether the current entry, below the roots, is a symbolic link of its own
 * (whatever it leads to): from d_type, or one lstat when d_type was unknown.
 */
static bool entry_is_link(struct lf_walk *w)
{
	struct lf_entry *e = &w->ent.pub;
	if (w->ent.raw_type != LF_UNKNOWN || e->depth == 0) {
		return w->ent.raw_type == LF_LNK;
	}
	const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
	return st && lf_type_from_mode(st->mode) == LF_LNK;
}

/*
 * Decide whether the current directory entry is to be read, stat-ing it only
 * when xdev or loop detection needs its identity (then w->pend.have_id).
 * Sets *check_loop when, under LF_LOGICAL, the engine must still look for it
 * among its ancestors (a loop is reported, not read).  A followed link that
 * is not to be read (-maxdepth, LF_WALK_NO_DESCEND_LINKS) is still checked
 * for a loop, as find -L reports one there: its stat is already cached.
 * Under LF_LOGICAL, a directory at maxdepth is stat'ed too, as find -L
 * stats every directory: when that fails (its parent is readable but not
 * searchable), it is "read" all the same, w->pend.stat_err standing for
 * what the open would say, so that it is reported after the entry, as a
 * directory that cannot be opened is.  Under xdev, a directory whose
 * device cannot be read becomes an error entry (as in bfs), not read.
 */
bool lf_walk_may_descend(struct lf_walk *w, bool *check_loop)
{
	struct lf_entry *e = &w->ent.pub;
	*check_loop = false;
	w->pend.have_id = false;
	w->pend.stat_err = 0;
	bool logical = lf_walk_is_logical(w);
	bool at_max = w->opts.maxdepth >= 0 && e->depth >= w->opts.maxdepth;
	bool via_link = logical && e->depth > 0 && entry_is_link(w);
	bool keep_out = at_max || (via_link && (w->opts.flags & LF_WALK_NO_DESCEND_LINKS));
	if (keep_out && !via_link && !(logical && at_max && e->depth > 0)) {
		return false;
	}
	bool xdev = (w->opts.flags & LF_WALK_XDEV) && e->depth > 0;
	if (!xdev && !logical) {
		return true;
	}
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
	if (!st && xdev) {
		/* Its device cannot be read: an error entry, not read (as bfs). */
		e->visit = LF_VISIT_ERROR;
		e->error = errno;
		w->had_error = true;
		return false;
	}
	if (!st) {
		if (keep_out && !via_link) {
			w->pend.stat_err = errno;
			return true;
		}
		return !keep_out; /* opening it will report why */
	}
	w->pend.have_id = true;
	w->pend.id_dev = st->dev;
	w->pend.id_ino = st->ino;
	if (xdev && st->dev != w->root_dev) {
		return false;
	}
	*check_loop = logical && (via_link || !keep_out);
	return !keep_out;
}

/* The directory records among the records [cur, end) of the arena. */
size_t lf_walk_count_dirs(const struct lf_walk *w, size_t cur, size_t end, bool sorted)
{
	size_t n = 0;
	while (cur < end) {
		const struct lf_dirent *d = lf_walk_next_record(w, &cur, sorted);
		n += d->d_type == DT_DIR && !lf_dir_is_dot(d->d_name);
	}
	return n;
}

/*
 * The current entry, a directory, is to be read on the next call unless it
 * is pruned first; w->pend.read_it and w->pend's identity are set already.
 */
void lf_walk_pend_dir(struct lf_walk *w)
{
	const struct lf_entry *e = &w->ent.pub;
	w->pend_active = true;
	w->pruned = false;
	w->pend.root = e->depth == 0;
	w->pend.via_link = e->depth > 0 && w->ent.raw_type == LF_LNK;
	w->pend.pathlen = e->pathlen;
	w->pend.ino = e->ino;
	w->pend.depth = e->depth;
	if (w->gi && e->depth > 0) {
		w->pend.gi = lf_gi_ref(w->cur_gi);
		w->pend.gi_excluded = w->cur_gi_excluded;
	}
}

/* ---- roots -------------------------------------------------------------- */

/*
 * The type and identity of the file open on @fd: what its inode never
 * changes, so what the kernel holds will do (AT_STATX_DONT_SYNC), which on
 * a network filesystem saves the round trip of a full stat.
 */
static int fd_identity(int fd, uint64_t *dev, uint64_t *ino, uint32_t *mode)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO, &sx) == 0) {
		*dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
		*ino = sx.stx_ino;
		*mode = sx.stx_mode;
		return 0;
	}
	struct stat sb;
	if (errno != ENOSYS || fstat(fd, &sb) != 0) {
		return -1;
	}
	*dev = (uint64_t)sb.st_dev;
	*ino = (uint64_t)sb.st_ino;
	*mode = (uint32_t)sb.st_mode;
	return 0;
}

/*
 * The next root: stat it (a handful of stats per run, not per entry).  A
 * directory is then pending (lf_walk_pend_dir()), its identity known.
 * @return 0 for a pre-order entry, 1 for an error entry, -1 on a fatal error
 */
int lf_walk_stat_root(struct lf_walk *w)
{
	if (w->next_root == 0 && (w->opts.flags & LF_WALK_SORT) && w->opts.nroots > 1 && !w->root_order &&
	    lf_walk_sort_roots(w) != 0) {
		return -1;
	}
	w->cur_root = w->root_order ? w->root_order[w->next_root] : w->next_root;
	w->next_root++;
	const char *root = w->opts.roots[w->cur_root];
	size_t len = strlen(root);
	if (lf_walk_grow_path(w, len + 2) != 0) {
		return lf_walk_set_fatal(w, errno);
	}
	memcpy(w->path, root, len + 1);

	struct lf_entry *e = &w->ent.pub;
	lf_walk_reset_entry(w);
	w->ent.follow_walk = w->opts.symlinks != LF_PHYSICAL;
	w->ent.raw_type = LF_UNKNOWN;
	e->path = w->path;
	e->pathlen = len;
	e->nameoff = 0;
	e->depth = 0;
	e->type = LF_UNKNOWN;
	e->visit = LF_VISIT_PRE;
	e->ino = 0;
	e->at_fd = AT_FDCWD;
	e->at_name = w->path;

	uint64_t dev = 0, ino = 0;
	uint32_t mode = 0;
	int given = lf_walk_given_root_fd(w);
	int r;
	if (given >= 0) {
		/* Described by the fd, never by a path: not a link, whatever the mode. */
		w->counters.fd_stats++;
		r = fd_identity(given, &dev, &ino, &mode);
	} else {
		const struct lf_stat *st = len ? lf_entry_stat(e, LF_FOLLOW_WALK) : NULL;
		r = st ? 0 : -1;
		if (st) {
			dev = st->dev;
			ino = st->ino;
			mode = st->mode;
		}
	}
	if (r != 0) {
		e->visit = LF_VISIT_ERROR;
		e->error = len ? errno : ENOENT;
		w->had_error = true;
		return 1;
	}
	e->type = lf_type_from_mode(mode);
	e->ino = ino;
	w->root_dev = dev;
	if (!w->ent.follow_walk || given >= 0) {
		/* The stat did not follow: it is the root's own type, as d_type. */
		w->ent.raw_type = e->type;
	}
	if (e->type == LF_DIR) {
		w->pend.have_id = true;
		w->pend.id_dev = dev;
		w->pend.id_ino = ino;
		w->pend.stat_err = 0;
		w->pend.read_it = w->opts.maxdepth != 0;
		lf_walk_pend_dir(w);
		if (w->gi && w->pend.read_it &&
		    lf_gi_root(w->gi, root, len + (root[len - 1] != '/'), &w->pend.gi, &w->pend.gi_excluded) != 0) {
			return lf_walk_set_fatal(w, errno);
		}
	}
	return 0;
}
