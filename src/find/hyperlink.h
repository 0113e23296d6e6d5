/**
 * hyperlink.h: OSC 8 hyperlinks around the names of colored output
 * (-hyperlink), as GNU ls --hyperlink and fd --hyperlink write them:
 *
 *	ESC ] 8 ; ; file://HOST/ABSOLUTE/PATH ESC \   name   ESC ] 8 ; ; ESC \
 *
 * A terminal that knows OSC 8 makes the name a link to the file; one that
 * does not shows the name alone.  The link is built from the entry's path
 * as walked and what was read once at the start of the run: the host name
 * (gethostname) and, for relative paths, the working directory (getcwd).
 * Nothing is asked of the kernel per entry: no stat, readlink or realpath.
 *
 * The path is made absolute by putting the working directory before it;
 * "." components and repeated slashes are dropped, and ".." components at
 * its start take the last component off the working directory (getcwd's
 * has no symbolic link in it, so that is exact); any other ".." stays as
 * it is, since a symbolic link before it would make dropping it wrong.
 * Every byte outside RFC 3986's unreserved set (A-Z a-z 0-9 - . _ ~) and
 * '/' is percent-encoded (%XX, upper case), the host name's too, so a name
 * can neither end the sequence early nor write escapes of its own.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_HYPERLINK_H
#define LF_HYPERLINK_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"

struct lf_hyperlink;

/**
 * Read the host name and the working directory, for the links of one run.
 * A host name that cannot be read is left empty ("file:///path", which
 * means this host); a working directory that cannot be read (removed, or
 * not searchable) leaves relative paths without links, and
 * lf_hyperlink_cwd_error() says why.
 *
 * @return 0 with *@out set, or -1 with errno set (ENOMEM)
 */
int lf_hyperlink_new(struct lf_hyperlink **out);

/** Free @h (NULL is fine). */
void lf_hyperlink_free(struct lf_hyperlink *h);

/** The errno of getcwd() in lf_hyperlink_new(), or 0 if it worked. */
int lf_hyperlink_cwd_error(const struct lf_hyperlink *h);

/**
 * Write the sequence that starts a link to the file @path (@len bytes),
 * relative to the working directory unless it starts with '/'.
 *
 * @return whether it was written: not for a relative path when the
 *         working directory is unknown (then no lf_hyperlink_end either)
 */
bool lf_hyperlink_start(const struct lf_hyperlink *h, struct lf_out *o, const char *path, size_t len);

/** Write the sequence that ends a link (after a true lf_hyperlink_start). */
void lf_hyperlink_end(struct lf_out *o);

/**
 * Percent-encode @len bytes of @s into @dst (3 * @len bytes suffice),
 * keeping RFC 3986's unreserved characters and '/'.
 * @return the bytes written
 */
size_t lf_hyperlink_encode(char *dst, const char *s, size_t len);

#endif
