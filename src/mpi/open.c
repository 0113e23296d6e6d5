/*
 * open.c: opening a directory that another rank found, by its path,
 * without following what may have been swapped into that path since.
 *
 * A work item (or a deferred directory) travels as a path.  Between the
 * moment rank A read the directory and the moment rank B opens it, any
 * component of the path may have been replaced with a symbolic link; a
 * plain open of the path would follow it, and under -delete rank B would
 * then delete outside the tree.  luafind's own walker never gives the
 * kernel more than one name relative to a directory fd it checked; here
 * the same guarantee comes from:
 *
 *   1. the root, opened as the walker opens roots (following a link only
 *      under -H and -L), once per rank and root, and checked against the
 *      identity (st_dev, st_ino) the walk of the root recorded;
 *   2. the parent, resolved relative to the root's fd with openat2(2)
 *      RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
 *      (before Linux 5.6, one O_NOFOLLOW name at a time);
 *   3. the directory, one name relative to the parent, O_NOFOLLOW, and
 *      checked against the identity the sharing rank recorded: a mismatch
 *      is ESTALE, as the walker reports a directory replaced underneath.
 *
 * Under -L, where links below the roots are followed by design (and never
 * under -delete, whose walk does not descend links), steps 2 and 3 follow
 * links too, and the identity check of step 3 still holds.  The fds are
 * O_PATH: the walker opens the directory for reading itself (walk.h,
 * root_fds), so looking it up costs no open of its own.  The parent's fd
 * is the one through which the directory is removed (unlinkat), never its
 * path.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)

/* Whether the walk follows links below the roots (-L, not deleting). */
static bool follows_below(const struct lfm *m)
{
	return m->logical && !(m->wopts.flags & LF_WALK_NO_DESCEND_LINKS);
}

int lfm_id_at(int at_fd, const char *name, bool follow, uint64_t *dev, uint64_t *ino)
{
	/*
	 * An inode's device and number never change, so the attributes the
	 * kernel holds are good enough (AT_STATX_DONT_SYNC): on a network
	 * filesystem that saves a round trip (a GETATTR) per directory.
	 */
	struct statx sx;
	int flags = AT_STATX_DONT_SYNC | (follow ? 0 : AT_SYMLINK_NOFOLLOW) | (*name ? 0 : AT_EMPTY_PATH);
	if (statx(at_fd, name, flags, STATX_INO, &sx) == 0) {
		*dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
		*ino = sx.stx_ino;
		return 0;
	}
	struct stat st;
	if (errno != ENOSYS || fstatat(at_fd, name, &st, flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) != 0) {
		return -1;
	}
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

/* Whether @fd is the directory (@dev, @ino). */
static int check_id(int fd, uint64_t dev, uint64_t ino)
{
	uint64_t d, i;
	if (lfm_id_at(fd, "", false, &d, &i) != 0) {
		return -1;
	}
	if (d != dev || i != ino) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

/* Root @i's fd, opened and checked the first time this rank needs it. */
static int root_fd(struct lfm *m, uint32_t i, const struct lfm_ids *id)
{
	if (!m->roots) {
		m->roots = malloc(m->cmd->nroots * sizeof(*m->roots) + 1);
		if (!m->roots) {
			return -1;
		}
		m->nroots = m->cmd->nroots;
		for (size_t k = 0; k < m->nroots; k++) {
			m->roots[k] = (struct lfm_root){-1, 0, 0, 0};
		}
	}
	if (i >= m->nroots) {
		errno = EINVAL;
		return -1;
	}
	struct lfm_root *r = &m->roots[i];
	if (r->fd < 0 && !r->err) {
		int flags = DIR_FLAGS | (m->wopts.symlinks == LF_PHYSICAL ? O_NOFOLLOW : 0);
		r->fd = openat(AT_FDCWD, m->cmd->roots[i], flags);
		if (r->fd < 0 || lfm_id_at(r->fd, "", false, &r->dev, &r->ino) != 0) {
			r->err = errno;
			if (r->fd >= 0) {
				close(r->fd);
				r->fd = -1;
			}
		}
	}
	if (r->fd < 0) {
		errno = r->err;
		return -1;
	}
	/* The root the walk saw, or the run goes on without this item. */
	if (r->dev != id->root_dev || r->ino != id->root_ino) {
		errno = ESTALE;
		return -1;
	}
	return r->fd;
}

/* The directory @rel below @base, one O_NOFOLLOW name at a time. */
static int beneath_by_names(int base, const char *rel)
{
	int fd = openat(base, ".", DIR_FLAGS);
	const char *p = rel;
	while (fd >= 0 && *p) {
		size_t len = strcspn(p, "/");
		if (len > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		if (len) {
			char name[NAME_MAX + 1];
			memcpy(name, p, len);
			name[len] = '\0';
			int next = openat(fd, name, DIR_FLAGS | O_NOFOLLOW);
			int err = errno;
			close(fd);
			errno = err;
			fd = next;
		}
		p += len + (p[len] == '/');
	}
	return fd;
}

/* The directory @rel below @base, resolved without leaving @base or following a link. */
static int open_beneath(int base, const char *rel)
{
	struct open_how how = {
		.flags = DIR_FLAGS | O_NOFOLLOW,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, base, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) {
		return beneath_by_names(base, rel); /* Linux before 5.6 */
	}
	if (fd < 0 && errno == EAGAIN) {
		/* A rename raced with the lookup (RESOLVE_BENEATH): once more. */
		fd = (int)syscall(SYS_openat2, base, rel, &how, sizeof(how));
	}
	return fd;
}

/*
 * Directories kept open for the next items: their parents (siblings often
 * come one after the other: a thief gets several, a rank walks the
 * children it shared) and the items themselves (whose children a rank
 * shares with itself): through a filesystem that caches nothing, each
 * component resolved again is a round trip.  Kept, they are no less safe:
 * each was resolved without links (or checked), what is opened in them is
 * checked, and the walker too acts in directories it opened a while ago.
 * Not across the deferred phases, though (lfm_dirs_forget): those come
 * after the whole walk, when a kept directory may have been moved out of
 * the tree and its path lead elsewhere.
 */
static int cache_find(struct lfm *m, uint32_t root, const char *rel, size_t len)
{
	for (size_t i = 0; i < LFM_PARENTS; i++) {
		struct lfm_parent *c = &m->parents[i];
		if (c->fd >= 0 && c->root == root && c->len == len && memcmp(c->rel, rel, len) == 0) {
			return c->fd;
		}
	}
	return -1;
}

/* Keep @fd (taken over) as the directory @rel[0, @len) below root @root. */
static int cache_put(struct lfm *m, uint32_t root, const char *rel, size_t len, int fd)
{
	char *copy = strndup(rel, len);
	if (!copy) {
		close(fd);
		return -1;
	}
	struct lfm_parent *c = &m->parents[m->next_parent];
	m->next_parent = (m->next_parent + 1) % LFM_PARENTS;
	if (c->fd >= 0) {
		close(c->fd);
	}
	free(c->rel);
	*c = (struct lfm_parent){fd, root, copy, len};
	return fd;
}

/* The parent @rel[0, @len) below root @root's fd @base, from the cache or resolved. */
static int parent_fd(struct lfm *m, uint32_t root, int base, const char *rel, size_t len, bool follow)
{
	int fd = cache_find(m, root, rel, len);
	if (fd >= 0) {
		return fd;
	}
	char *prel = strndup(rel, len);
	if (!prel) {
		return -1;
	}
	fd = follow ? openat(base, prel, DIR_FLAGS) : open_beneath(base, prel);
	free(prel);
	return fd < 0 ? -1 : cache_put(m, root, rel, len, fd);
}

void lfm_dir_keep(struct lfm *m, uint32_t root, struct lfm_dir *d)
{
	if (d->own_fd && d->fd >= 0 && cache_find(m, root, d->rel, strlen(d->rel)) < 0) {
		cache_put(m, root, d->rel, strlen(d->rel), d->fd);
		d->own_fd = false;
	}
	lfm_dir_close(d);
}

int lfm_dir_open(struct lfm *m, uint32_t root, const char *path, const struct lfm_ids *id, struct lfm_dir *d)
{
	*d = (struct lfm_dir){-1, AT_FDCWD, path, "", false, false};
	int base = root_fd(m, root, id);
	if (base < 0) {
		return -1;
	}
	/* The path below the root, as the walker built it (childoff in walk_dfs.c). */
	const char *rp = m->cmd->roots[root];
	size_t rlen = strlen(rp);
	if (strncmp(path, rp, rlen) != 0 || (rlen && rp[rlen - 1] != '/' && path[rlen] != '/' && path[rlen])) {
		errno = EINVAL;
		return -1;
	}
	const char *rel = path + rlen;
	rel += rlen && rp[rlen - 1] != '/' && *rel == '/';
	if (!*rel) {
		d->fd = base; /* the root itself: removed by its path, as luafind does */
		return 0;
	}
	const char *slash = strrchr(rel, '/');
	d->name = slash ? slash + 1 : rel;
	d->rel = rel;
	bool follow = follows_below(m);
	d->parent = base;
	if (slash) {
		d->parent = parent_fd(m, root, base, rel, (size_t)(slash - rel), follow);
		if (d->parent < 0) {
			d->parent = AT_FDCWD;
			errno = errno == ENOTDIR ? ESTALE : errno; /* a link or a file in its place */
			return -1;
		}
	}
	d->fd = openat(d->parent, d->name, DIR_FLAGS | (follow ? 0 : O_NOFOLLOW));
	if (d->fd < 0) {
		int err = errno == ENOTDIR ? ESTALE : errno; /* a link or a file in its place */
		lfm_dir_close(d);
		errno = err;
		return -1;
	}
	d->own_fd = true;
	if (check_id(d->fd, id->dev, id->ino) != 0) {
		int err = errno;
		lfm_dir_close(d);
		errno = err;
		return -1;
	}
	return 0;
}

void lfm_dir_close(struct lfm_dir *d)
{
	if (d->own_fd && d->fd >= 0) {
		close(d->fd);
	}
	if (d->own_parent && d->parent >= 0) {
		close(d->parent);
	}
	d->fd = -1;
	d->parent = AT_FDCWD;
	d->own_fd = d->own_parent = false;
}

void lfm_dirs_forget(struct lfm *m)
{
	for (size_t i = 0; i < LFM_PARENTS; i++) {
		if (m->parents[i].fd >= 0) {
			close(m->parents[i].fd);
		}
		free(m->parents[i].rel);
		m->parents[i] = (struct lfm_parent){-1, 0, NULL, 0};
	}
}

void lfm_roots_close(struct lfm *m)
{
	lfm_dirs_forget(m);
	for (size_t i = 0; i < m->nroots; i++) {
		if (m->roots[i].fd >= 0) {
			close(m->roots[i].fd);
		}
	}
	free(m->roots);
	m->roots = NULL;
	m->nroots = 0;
}
