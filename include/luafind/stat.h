/**
 * stat.h: the one place luafind asks the kernel for inode metadata.
 *
 * statx(2) is used because it also returns the birth time; kernels or
 * filesystems without it fall back to fstatat(2).  Every call is relative to a
 * directory fd with a single name component (or AT_EMPTY_PATH on an fd), never
 * a full path below the roots.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_STAT_H
#define LUAFIND_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/*
 * C99 without POSIX feature macros (-std=c99) has no struct timespec in
 * <time.h>; glibc's <sched.h> declares it whatever the macros say.
 */
#include <sched.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Stat data, independent of the kernel structure that produced it. */
struct lf_stat {
	uint64_t dev;
	uint64_t ino;
	uint64_t rdev;
	uint64_t nlink;
	int64_t size;
	int64_t blocks; /**< 512-byte blocks, as st_blocks */
	uint32_t mode;  /**< type and permission bits, as st_mode */
	uint32_t uid;
	uint32_t gid;
	uint32_t blksize;
	struct timespec atime;
	struct timespec mtime;
	struct timespec ctime;
	struct timespec btime; /**< valid only if has_btime */
	bool has_btime;
};

/**
 * Stat @name relative to the directory @dirfd.
 *
 * @param dirfd  a directory fd, or AT_FDCWD for a root given on the command line
 * @param name   one path component (or a root path)
 * @param follow whether a symbolic link is followed
 * @param st     filled on success
 * @return 0 on success, -1 with errno set on failure
 */
int lf_stat_at(int dirfd, const char *name, bool follow, struct lf_stat *st);

/**
 * Stat an open file descriptor.
 *
 * @return 0 on success, -1 with errno set on failure
 */
int lf_stat_fd(int fd, struct lf_stat *st);

#ifdef __cplusplus
}
#endif

#endif
