/*
 * gitignore_impl.h: the internal interface between the files of the
 * ignore rules.  Not installed.
 *
 *   gitignore.c   patterns, scopes and repositories (gitignore.h)
 *   gitindex.c    the paths a repository's index tracks
 *   gitconfig.c   the configuration keys the rules need
 *
 * gitignore.c calls the other two, which call back only for reading a file
 * and for memory charged to the walk's account.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_GITIGNORE_IMPL_H
#define LF_GITIGNORE_IMPL_H

#include "gitignore.h"
#include "mem.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * The paths the index tracks, relative to the top of the repository, in
 * the index's own order (bytewise, as strcmp; git refuses an index out of
 * order): found by binary search, so loading costs a copy and nothing per
 * path.
 */
struct lf_gi_index {
	char *names;  /* NUL-terminated names */
	size_t len, cap;
	size_t *offs; /* where each name starts */
	size_t n, ncap;
	const struct lf_mem *mem; /* the walk's account, charged for both arrays */
};

/* What a configuration file sets (later files override earlier ones). */
struct lf_gi_config {
	char *excludes_file; /* core.excludesFile */
	bool sha256;         /* extensions.objectFormat = sha256 */
};

#pragma GCC visibility push(hidden)

/* Memory charged to the walk's account, and files read (gitignore.c). */
/* realloc(@p, @size) of @old bytes charged to @mem; NULL (ENOMEM) leaves @p. */
void *lf_gi_realloc(const struct lf_mem *mem, void *p, size_t old, size_t size);
/* free(@p), whose @size bytes were charged to @mem. */
void lf_gi_mem_free(const struct lf_mem *mem, void *p, size_t size);
/* The regular file @name relative to @dirfd, NUL-terminated (see gitignore.c). */
char *lf_gi_read_file(const struct lf_mem *mem, int dirfd, const char *name, size_t max, size_t *len,
		      size_t *cap);

/* The index (gitindex.c). */
int lf_gi_index_read(struct lf_gi_index *x, int gitfd, size_t hashsz); /* 0, or -1 (ENOMEM) */
bool lf_gi_index_has(const struct lf_gi_index *x, const char *s, size_t len);
bool lf_gi_index_has_below(const struct lf_gi_index *x, const char *s, size_t len);
void lf_gi_index_free(struct lf_gi_index *x);

/* The configuration (gitconfig.c). */
int lf_gi_config_read(const struct lf_mem *mem, int dirfd, const char *name, struct lf_gi_config *cfg);
int lf_gi_config_global(const struct lf_mem *mem, char **excludes_file);
char *lf_gi_expand_home(const char *path); /* "~/x" with $HOME, or NULL */

#pragma GCC visibility pop

#endif
