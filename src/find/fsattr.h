/**
 * fsattr.h: what a file holds beyond its stat data, as bfs's -xattr,
 * -xattrname, -acl and -capable ask it: extended attributes, a POSIX ACL
 * other than the one its mode stands for (libacl), file capabilities
 * (libcap).  Each check is one or two system calls on the entry, made only
 * when it is called; nothing is cached or kept.
 *
 * Linux has no *at() form of these calls that glibc wraps, so an entry below
 * a root is named through its directory's fd, "/proc/self/fd/N/NAME", as
 * bfs does: the kernel resolves a single component, however deep the entry.
 *
 * @link says whether the walk takes the entry for a symbolic link (its
 * e->type is LF_LNK: under -P, or a broken link under -L): the extended
 * attributes are then the link's own (llistxattr, lgetxattr), and a link
 * has no ACL and no capabilities, as in bfs; otherwise the calls follow it,
 * so that under -L and for -H's roots they see the target.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_FSATTR_H
#define LF_FSATTR_H

#include <stdbool.h>

#include "walk.h"

/**
 * Returned when /proc/self/fd is not there to name the entry by (/proc not
 * mounted): a failure of the run, not of the file.
 */
#define LF_FSATTR_NOPROC (-2)

/*
 * Each returns 1 (yes), 0 (no), -1 with errno set (the file could not be
 * examined: EACCES, ENOENT, ENOMEM...) or LF_FSATTR_NOPROC.  A file
 * system that does not support the attributes asked about (ENOTSUP), an
 * attribute that is not there (ENODATA) or a request the file system calls
 * invalid for the file (EINVAL) is a "no", as in bfs; a list or a value too
 * large to read (E2BIG) is a "yes".
 */

/** Whether the file has any extended attribute (listxattr). */
int lf_fsattr_xattrs(const struct lf_entry *e, bool link);

/** Whether the file has the extended attribute @name ("user.mime_type"). */
int lf_fsattr_xattr(const struct lf_entry *e, bool link, const char *name);

/**
 * Whether the file has a POSIX ACL that its mode does not say all of:
 * entries for named users or groups, a mask, or (a directory) a default
 * ACL (libacl's acl_extended_file()).
 */
int lf_fsattr_acl(const struct lf_entry *e, bool link);

/**
 * Whether the file has capabilities (security.capability), as ls colors
 * it "ca" and bfs's -capable sees it: libcap reads them and describes them
 * in a non-empty text, even when every set is empty.
 */
int lf_fsattr_capable(const struct lf_entry *e, bool link);

#endif
