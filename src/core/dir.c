/*
 * dir.c: getdents64 without libc's DIR, so the caller owns the buffer.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "dir.h"

#include <sys/syscall.h>
#include <unistd.h>

ssize_t lf_getdents(int fd, void *buf, size_t size)
{
	return syscall(SYS_getdents64, fd, buf, size);
}
