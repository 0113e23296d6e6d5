/*
 * walk_record.c: a walker of records, the files a host found by itself
 * (walk_record.h).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "walk_record.h"

#include "statx.h"
#include "walk_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

struct lf_walk *lf_record_walk_open(enum lf_symlinks symlinks, const char *const *root)
{
	/*
	 * A walk that is never advanced: no directory is opened, no thread
	 * started (one thread, no read-ahead), and lf_walk_close() frees it.
	 */
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = root;
	opts.nroots = 1;
	opts.symlinks = symlinks;
	opts.threads = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	if (w) {
		w->ent.record = true;
	}
	return w;
}

const char *lf_record_invalid(const struct lf_record *rec)
{
	if (!rec) {
		return "no record (NULL)";
	}
	if (!rec->path) {
		return "its path is NULL";
	}
	if (!rec->path[0]) {
		return "its path is empty";
	}
	if (rec->depth < 0) {
		return "its depth is negative";
	}
	if ((unsigned)rec->type > LF_BLK) {
		return "its type is no enum lf_type";
	}
	if (rec->flags & ~(unsigned)LF_RECORD_FOLLOW) {
		return "its flags hold unknown bits";
	}
	if (rec->depth > 0 && rec->path[strlen(rec->path) - 1] == '/') {
		/* A name below a root never ends in '/': which name would it be? */
		return "its path ends in '/' below its root (depth > 0)";
	}
	return NULL;
}

int lf_record_walk_set(struct lf_walk *w, const struct lf_record *rec, struct lf_entry **ent)
{
	if (lf_record_invalid(rec)) {
		errno = EINVAL;
		return -1;
	}
	struct entry_priv *p = &w->ent;
	struct lf_entry *e = &p->pub;
	lf_walk_reset_entry(w);
	bool follow = (rec->flags & LF_RECORD_FOLLOW) || w->opts.symlinks == LF_LOGICAL ||
		      (w->opts.symlinks == LF_COMFOLLOW && rec->depth == 0);
	p->follow_walk = follow;

	size_t len = strlen(rec->path);
	const char *slash = strrchr(rec->path, '/');
	e->path = rec->path;
	e->pathlen = len;
	/* A root's name is lf_entry_name()'s to find; below, it follows the last '/'. */
	e->nameoff = slash && rec->depth > 0 ? (size_t)(slash + 1 - rec->path) : 0;
	e->depth = rec->depth;
	e->visit = LF_VISIT_PRE;
	e->at_fd = AT_FDCWD;
	e->at_name = rec->path;
	e->root = 0;

	/*
	 * The host's stat data is what the walk would have fetched in the
	 * record's follow mode: the slot that lf_entry_stat(LF_FOLLOW_WALK)
	 * reads.  Following, the file itself may be a link or not (unknown:
	 * slot 1); not following, its own type picks slot 0.
	 */
	struct lf_stat *st = &p->cache[follow];
	bool have = true;
	if (rec->stx) {
		lf_stat_from_statx(rec->stx, st);
	} else if (rec->st) {
		lf_stat_from_stat(rec->st, st);
	} else {
		have = false;
	}
	enum lf_type type = rec->type;
	if (have) {
		p->cache_err[follow] = 0;
		enum lf_type from_mode = lf_type_from_mode(st->mode);
		type = from_mode != LF_UNKNOWN ? from_mode : type;
	}
	e->type = type;
	e->ino = have ? st->ino : 0;
	p->raw_type = follow ? LF_UNKNOWN : type;
	w->pruned = false;
	w->counters.entries++;
	*ent = e;
	return 0;
}

int lf_record_walk_resolve_type(struct lf_walk *w)
{
	return lf_walk_resolve_type(w);
}

bool lf_record_walk_pruned(const struct lf_walk *w)
{
	return w->pruned;
}
