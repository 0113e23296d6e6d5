/*
 * gitignore.h: what git would ignore, for walks under LF_WALK_GITIGNORE.
 * Internal to the core (not installed).
 *
 * A walk keeps a chain of scopes that follows the directories it reads: a
 * scope holds one level's patterns (a .gitignore, $GIT_DIR/info/exclude or
 * core.excludesFile) and points to the next lower-precedence one, so a
 * directory's children are checked against the patterns of the directory
 * and its ancestors, deepest first, as git does.  Scopes are reference
 * counted: a directory waiting to be read (a depth-first frame, a
 * breadth-first queue node) holds the scope its children inherit, and a
 * directory without a .gitignore shares its parent's.  A repository found
 * at a root (by looking upwards from its real path) or at a directory that
 * holds a .git entry (a nested repository or submodule) starts a new chain
 * with its own info/exclude, excludes file and index: files the index
 * tracks are never ignored, as in git, and an ignored directory that holds
 * tracked files is still read, everything untracked below it ignored.
 *
 * Patterns follow gitignore(5) and git's dir.c and wildmatch.c: negation,
 * trailing "/" (directories only), anchoring by a "/" at the start or in
 * the middle, "**", backslash escapes and the trailing-space rule.
 * Matching costs a length check or a memcmp for most patterns.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_GITIGNORE_H
#define LF_GITIGNORE_H

#include <stdbool.h>
#include <stddef.h>

#include "walk.h"

#pragma GCC visibility push(hidden)

/** Per-walk state: the global configuration, read at the first root. */
struct lf_gi;
/** One level of patterns and the chain below it. */
struct lf_gi_scope;

/** What lf_gi_check() decided for an entry. */
enum lf_gi_verdict {
	LF_GI_KEEP = 0,     /**< not ignored */
	LF_GI_SKIP,         /**< ignored: neither returned nor read */
	LF_GI_KEEP_EXCLUDED /**< an ignored directory holding tracked files: read it, ignoring the rest */
};

/**
 * @param mem the walk's memory account (NULL: none), charged for what the
 *            rules, the indexes and the repositories hold, and for files
 *            while they are read
 * @return new per-walk state, or NULL (ENOMEM).
 */
struct lf_gi *lf_gi_new(const struct lf_mem *mem);
void lf_gi_free(struct lf_gi *g);

/** Take or drop a reference to a scope (NULL is fine for both). */
struct lf_gi_scope *lf_gi_ref(struct lf_gi_scope *s);
void lf_gi_unref(struct lf_gi_scope *s);

/**
 * Find the repository that holds the directory @root (a path as given to
 * the walk), stopping at a filesystem boundary as git does.  Files that
 * cannot be read (config, excludes, index) count as empty, as git goes on
 * past them.
 *
 * @param childoff  where the root's children's names start in their paths
 * @param scope     set to the scope the root's children inherit (before
 *                  the root's own .gitignore), NULL outside a repository
 * @param excluded  set when the root itself lies in an ignored directory
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_gi_root(struct lf_gi *g, const char *root, size_t childoff, struct lf_gi_scope **scope, bool *excluded);

/**
 * A directory was read: make the scope its children are checked against.
 *
 * @param inherited  the scope it inherited (borrowed), or NULL
 * @param excluded   the directory is ignored but holds tracked files
 * @param fd         the directory's fd
 * @param gitignore  its listing has a ".gitignore"
 * @param repo       its listing has a ".git" and it is not a root: a nested repository
 * @param childoff   where its children's names start in their paths
 * @param scope      set to the new scope (a reference), or NULL
 * @param err        set to the errno of a .gitignore that could not be read, else 0
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_gi_enter(struct lf_gi *g, struct lf_gi_scope *inherited, bool excluded, int fd, bool gitignore, bool repo,
		size_t childoff, struct lf_gi_scope **scope, int *err);

/**
 * Check an entry below a directory whose scope is @s.
 *
 * @param path     the entry's path, NUL-terminated at path[pathlen]
 * @param nameoff  where its name starts
 * @param isdir    the entry itself is a directory (not a link to one)
 * @return enum lf_gi_verdict, or -1 with errno set (ENOMEM)
 */
int lf_gi_check(struct lf_gi_scope *s, const char *path, size_t pathlen, size_t nameoff, bool isdir);

/**
 * git's wildmatch(): whether @text matches the shell pattern @pattern.
 * With @pathname, "*", "?" and brackets do not match "/", and "**"
 * between slashes (or at either end) matches any number of directories.
 */
bool lf_wildmatch(const char *pattern, const char *text, bool pathname);

#pragma GCC visibility pop

#endif
