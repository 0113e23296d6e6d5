/*
 * stat.c: statx with an fstatat fallback, converted into struct lf_stat.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "stat.h"
#include "statx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Once statx has failed with ENOSYS it is never tried again. */
static atomic_bool statx_missing;

void lf_stat_from_statx(const struct statx *sx, struct lf_stat *st)
{
	st->dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	st->ino = sx->stx_ino;
	st->rdev = makedev(sx->stx_rdev_major, sx->stx_rdev_minor);
	st->nlink = sx->stx_nlink;
	st->size = (int64_t)sx->stx_size;
	st->blocks = (int64_t)sx->stx_blocks;
	st->mode = sx->stx_mode;
	st->uid = sx->stx_uid;
	st->gid = sx->stx_gid;
	st->blksize = sx->stx_blksize;
	st->atime = (struct timespec){sx->stx_atime.tv_sec, sx->stx_atime.tv_nsec};
	st->mtime = (struct timespec){sx->stx_mtime.tv_sec, sx->stx_mtime.tv_nsec};
	st->ctime = (struct timespec){sx->stx_ctime.tv_sec, sx->stx_ctime.tv_nsec};
	st->has_btime = (sx->stx_mask & STATX_BTIME) != 0;
	if (st->has_btime) {
		st->btime = (struct timespec){sx->stx_btime.tv_sec, sx->stx_btime.tv_nsec};
	} else {
		st->btime = (struct timespec){0, 0};
	}
}

unsigned lf_stat_mask(void)
{
	return STATX_BASIC_STATS | STATX_BTIME;
}

void lf_stat_from_stat(const struct stat *sb, struct lf_stat *st)
{
	st->dev = sb->st_dev;
	st->ino = sb->st_ino;
	st->rdev = sb->st_rdev;
	st->nlink = sb->st_nlink;
	st->size = sb->st_size;
	st->blocks = sb->st_blocks;
	st->mode = sb->st_mode;
	st->uid = sb->st_uid;
	st->gid = sb->st_gid;
	st->blksize = (uint32_t)sb->st_blksize;
	st->atime = sb->st_atim;
	st->mtime = sb->st_mtim;
	st->ctime = sb->st_ctim;
	st->btime = (struct timespec){0, 0};
	st->has_btime = false;
}

static int stat_impl(int dirfd, const char *name, int flags, struct lf_stat *st)
{
	if (!atomic_load_explicit(&statx_missing, memory_order_relaxed)) {
		struct statx sx;
		if (statx(dirfd, name, flags | AT_STATX_SYNC_AS_STAT, lf_stat_mask(), &sx) == 0) {
			lf_stat_from_statx(&sx, st);
			return 0;
		}
		if (errno != ENOSYS) {
			return -1;
		}
		atomic_store_explicit(&statx_missing, true, memory_order_relaxed);
	}

	struct stat sb;
	if (fstatat(dirfd, name, &sb, flags) != 0) {
		return -1;
	}
	lf_stat_from_stat(&sb, st);
	return 0;
}

int lf_stat_at(int dirfd, const char *name, bool follow, struct lf_stat *st)
{
	return stat_impl(dirfd, name, follow ? 0 : AT_SYMLINK_NOFOLLOW, st);
}

int lf_stat_fd(int fd, struct lf_stat *st)
{
	return stat_impl(fd, "", AT_EMPTY_PATH, st);
}
