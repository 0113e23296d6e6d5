/**
 * dir.h: raw directory reading with getdents64(2).
 *
 * The walker reads a directory's records straight into its name arena and
 * walks them in place, so there is no per-entry copy or allocation.  The
 * record layout is the kernel's struct linux_dirent64.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_DIR_H
#define LF_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** One record as getdents64 returns it. */
struct lf_dirent {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/**
 * Read directory records from @fd into @buf.
 *
 * @param buf  must be 8-byte aligned
 * @param size bytes available in buf (at least LF_DIR_MINBUF)
 * @return the number of bytes read, 0 at the end of the directory, or -1 with
 *         errno set
 */
ssize_t lf_getdents(int fd, void *buf, size_t size);

/** The smallest buffer lf_getdents() is guaranteed to make progress with. */
#define LF_DIR_MINBUF 4096

/** Whether @name is "." or "..", which the walker never reports. */
static inline int lf_dir_is_dot(const char *name)
{
	return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

#endif
