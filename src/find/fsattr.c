/*
 * fsattr.c: extended attributes, POSIX ACLs (libacl) and file capabilities
 * (libcap) of an entry, for -xattr, -xattrname, -acl, -capable and the
 * "ca" color (fsattr.h).  What counts as "no" rather than an error is bfs
 * 4.1.4's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "fsattr.h"

#include <acl/libacl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/acl.h>
#include <sys/capability.h>
#include <sys/xattr.h>
#include <unistd.h>

/* Room for "/proc/self/fd/N/" and one component. */
#define PROC_PATH_MAX (sizeof("/proc/self/fd//") + 3 * sizeof(int) + NAME_MAX + 1)

/*
 * The path of @e for a call that takes no directory fd: a root as it was
 * given (relative to the working directory), anything below it through its
 * directory's fd.  NULL with errno set if the name does not fit (it is one
 * component: the kernel would refuse it too).
 */
static const char *entry_path(const struct lf_entry *e, char *buf, size_t size)
{
	if (e->at_fd == AT_FDCWD) {
		return e->at_name;
	}
	int n = snprintf(buf, size, "/proc/self/fd/%d/%s", e->at_fd, e->at_name);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return buf;
}

/*
 * The result of a call that failed with errno: "no" for what bfs calls the
 * absence of the attribute, "yes" for E2BIG (there is something, too large
 * to read), else an error; LF_FSATTR_NOPROC if ENOENT came from a missing
 * /proc/self/fd, which costs one more call only then.
 */
static int failed(const struct lf_entry *e)
{
	int err = errno;
	switch (err) {
	case ENOTSUP: /* EOPNOTSUPP on Linux */
	case ENODATA:
	case EINVAL:
		return 0;
	case E2BIG:
		return 1;
	case ENOENT:
		if (e->at_fd != AT_FDCWD && access("/proc/self/fd", F_OK) != 0) {
			return LF_FSATTR_NOPROC;
		}
		break;
	}
	errno = err;
	return -1;
}

int lf_fsattr_xattrs(const struct lf_entry *e, bool link)
{
	char buf[PROC_PATH_MAX];
	const char *path = entry_path(e, buf, sizeof(buf));
	if (!path) {
		return -1;
	}
	ssize_t n = link ? llistxattr(path, NULL, 0) : listxattr(path, NULL, 0);
	return n > 0 ? 1 : n == 0 ? 0 : failed(e);
}

int lf_fsattr_xattr(const struct lf_entry *e, bool link, const char *name)
{
	char buf[PROC_PATH_MAX];
	const char *path = entry_path(e, buf, sizeof(buf));
	if (!path) {
		return -1;
	}
	ssize_t n = link ? lgetxattr(path, name, NULL, 0) : getxattr(path, name, NULL, 0);
	return n >= 0 ? 1 : failed(e);
}

int lf_fsattr_acl(const struct lf_entry *e, bool link)
{
	if (link) {
		return 0;
	}
	char buf[PROC_PATH_MAX];
	const char *path = entry_path(e, buf, sizeof(buf));
	if (!path) {
		return -1;
	}
	int r = acl_extended_file(path);
	return r >= 0 ? r > 0 : failed(e);
}

int lf_fsattr_capable(const struct lf_entry *e, bool link)
{
	if (link) {
		return 0;
	}
	char buf[PROC_PATH_MAX];
	const char *path = entry_path(e, buf, sizeof(buf));
	if (!path) {
		return -1;
	}
	cap_t caps = cap_get_file(path);
	if (!caps) {
		return failed(e);
	}
	char *text = cap_to_text(caps, NULL);
	int err = errno;
	cap_free(caps);
	if (!text) {
		errno = err;
		return -1;
	}
	int r = text[0] != '\0';
	cap_free(text);
	return r;
}
