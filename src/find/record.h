/**
 * record.h: a run's evaluation of records (struct lf_record, walk.h), the
 * files a host found by itself, in place of a walk's entries: what
 * lf_query_eval_record() (query.h) does, for any run, so that a run
 * parsed with registered primaries (-lua) takes records too.
 *
 * A record is made the current entry of a walker of records (the core's
 * walk_record.h) and handed to lf_run_entry(), as a walk's entry is: the
 * same evaluation, messages and answers.  Around it:
 *   - the primaries that act in the directory of a walk (-delete,
 *     -execdir, -okdir: lf_record_refused_primary) are refused, since a
 *     path a host gives may lead elsewhere by the time they act;
 *   - a record outside -mindepth and -maxdepth is false, not evaluated;
 *   - an unknown type is found by a stat only when the expression may
 *     read types or stat data (not for -name, -path, -regex...);
 *   - under -depth a directory is a post-order visit, and under -exclude
 *     with -depth a pre-order one first, as the walk gives them;
 *   - the root printf's %H shows is the record's, or derived from its
 *     path and depth.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_RECORD_H
#define LF_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"
#include "walk.h"

/** A run's state for records (zero-initialize; lf_records_free). */
struct lf_records {
	struct lf_walk *w;     /**< the walker of records, made by the first record */
	const char *root;      /**< the current record's root: lf_walk_root(w, 0) */
	char *rootbuf;         /**< a derived root */
	size_t rootcap;
	const char *refused;   /**< the first primary refused on records, or NULL */
	bool refusal_said;     /**< ... reported already */
	bool reads_type;       /**< evaluation may read an entry's type */
};

/**
 * Whether @name is a primary refused on records: -delete, -execdir,
 * -okdir (lf_query_compile's LF_QUERY_RECORDS refuses them in the parser).
 */
bool lf_record_refused_primary(const char *name);

/**
 * Evaluate run @r for record @rec.  An invalid record (lf_record_invalid),
 * a refused primary (reported once, then the run stops: lf_run_must_stop)
 * or a lack of memory is reported to the context and makes the status 1:
 * LF_RUN_FAILED.
 *
 * @return lf_run_entry()'s answer, or LF_RUN_FALSE for a record outside
 *         -mindepth and -maxdepth
 */
enum lf_run_result lf_records_eval(struct lf_records *rs, struct lf_run *r, const struct lf_record *rec);

/** Whether the last record evaluated asked not to be descended into (-prune...). */
bool lf_records_pruned(const struct lf_records *rs);

/** The counters of the records evaluated: entries and stats (zeros before the first). */
const struct lf_counters *lf_records_counters(const struct lf_records *rs);

/** Free what @rs holds; it is zeroed. */
void lf_records_free(struct lf_records *rs);

#endif
