/*
 * query.c: the C API over the parser and the driver (parse.c, run.c).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "query.h"

#include "ctx.h"
#include "diag.h"
#include "output.h"
#include "parse.h"
#include "record.h"
#include "run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lf_query {
	struct lf_ctx *ctx;
	struct lf_cmdline cmd;
	struct lf_out out;
	struct lf_run run;
	char **words; /* copies of the expression, which points into them */
	int nwords;
	/* The walk and root begun last (-delete: begin_root). */
	const struct lf_walk *begun_walk;
	size_t begun_root;
	struct lf_records records; /* lf_query_eval_record()'s */
};

LF_PUBLIC void lf_ctx_set_progname(struct lf_ctx *ctx, const char *name)
{
	ctx->progname = name;
}

static void free_words(char **words, int n)
{
	for (int i = 0; i < n && words; i++) {
		free(words[i]);
	}
	free(words);
}

/* lf_query_compile(), with the primaries in @allow permitted under LF_QUERY_SAFE. */
static struct lf_query *compile(struct lf_ctx *ctx, int argc, char *const argv[], unsigned flags,
				const char *const allow[])
{
	struct lf_query *q = calloc(1, sizeof(*q));
	if (!q) {
		return NULL;
	}
	q->ctx = ctx;
	q->words = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof(*q->words));
	if (!q->words) {
		free(q);
		return NULL;
	}
	for (; q->nwords < argc; q->nwords++) {
		q->words[q->nwords] = strdup(argv[q->nwords]);
		if (!q->words[q->nwords]) {
			free_words(q->words, q->nwords);
			free(q);
			errno = ENOMEM;
			return NULL;
		}
	}
	unsigned pflags = flags & LF_QUERY_PRINT ? 0 : LF_PARSE_NO_PRINT;
	if (flags & LF_QUERY_SAFE) {
		pflags |= LF_PARSE_SAFE;
	}
	if (flags & LF_QUERY_RECORDS) {
		pflags |= LF_PARSE_RECORDS;
	}
	if (lf_parse_find(ctx, NULL, 0, argc, q->words, pflags, allow, &q->cmd) != 0) {
		lf_cmdline_free(&q->cmd);
		free_words(q->words, q->nwords);
		free(q);
		errno = EINVAL;
		return NULL;
	}
	if (lf_out_init(&q->out, STDOUT_FILENO) != 0 || lf_run_init(&q->run, &q->cmd, &q->out) != 0) {
		int err = errno;
		lf_out_close(&q->out);
		lf_cmdline_free(&q->cmd);
		free_words(q->words, q->nwords);
		free(q);
		errno = err;
		return NULL;
	}
	return q;
}

LF_PUBLIC struct lf_query *lf_query_compile(struct lf_ctx *ctx, int argc, char *const argv[], unsigned flags)
{
	return compile(ctx, argc, argv, flags, NULL);
}

LF_PUBLIC struct lf_query *lf_query_compile_allow(struct lf_ctx *ctx, int argc, char *const argv[],
						  unsigned flags, const char *const allow[])
{
	return compile(ctx, argc, argv, flags | LF_QUERY_SAFE, allow);
}

LF_PUBLIC void lf_query_walk_opts(const struct lf_query *q, struct lf_walk_opts *opts)
{
	opts->symlinks = q->cmd.opts.symlinks;
	opts->order = q->cmd.opts.order;
	opts->mindepth = q->cmd.opts.mindepth;
	opts->maxdepth = q->cmd.opts.maxdepth;
	opts->flags = q->cmd.opts.flags; /* LF_WALK_READ_AHEAD from lf_cmdline_walk_flags() */
	if (q->cmd.opts.threads) {
		opts->threads = q->cmd.opts.threads; /* -j N */
	}
}

/*
 * A host's walk may start anywhere, in any order and without
 * LF_WALK_REFUSE_SLASH: each of its roots begins the run's walk
 * (lf_run_begin) at its first entry, which under -depth is deep inside it:
 * a new walk (its first entry), another walker or another root.
 */
static int begin_root(struct lf_query *q, const struct lf_walk *w, const struct lf_entry *e)
{
	bool first = lf_walk_counters(w)->entries <= 1 || w != q->begun_walk || e->root != q->begun_root;
	q->begun_walk = w;
	q->begun_root = e->root;
	const char *root = first ? lf_walk_root(w, e->root) : NULL;
	return root ? lf_run_begin(&q->run, &root, 1) : 0;
}

/* The C API's three answers. */
static inline int answer(enum lf_run_result res)
{
	switch (res) {
	case LF_RUN_TRUE: return 1;
	case LF_RUN_FALSE: return 0;
	case LF_RUN_SKIPPED: return 0; /* gone before it was read: as find, nothing said */
	case LF_RUN_ERROR:
	case LF_RUN_FAILED: break;
	}
	return -1;
}

LF_PUBLIC int lf_query_eval(struct lf_query *q, struct lf_walk *w, struct lf_entry *e)
{
	if (q->cmd.delete && begin_root(q, w, e) != 0) {
		return -1;
	}
	return answer(lf_run_entry(&q->run, w, e));
}

LF_PUBLIC int lf_query_eval_record(struct lf_query *q, const struct lf_record *rec)
{
	return answer(lf_records_eval(&q->records, &q->run, rec));
}

LF_PUBLIC bool lf_query_record_pruned(const struct lf_query *q)
{
	return lf_records_pruned(&q->records);
}

LF_PUBLIC const struct lf_counters *lf_query_record_counters(const struct lf_query *q)
{
	return lf_records_counters(&q->records);
}

LF_PUBLIC bool lf_query_done(const struct lf_query *q)
{
	return lf_run_must_stop(&q->run);
}

LF_PUBLIC int lf_query_run(struct lf_query *q, const char *const *roots, size_t nroots)
{
	const char *dot[] = {"."};
	if (nroots == 0) {
		roots = dot;
		nroots = 1;
	}
	return lf_run_roots(&q->run, roots, nroots);
}

LF_PUBLIC int lf_query_finish(struct lf_query *q)
{
	return lf_run_finish(&q->run);
}

LF_PUBLIC void lf_query_free(struct lf_query *q)
{
	if (!q) {
		return;
	}
	lf_records_free(&q->records);
	lf_run_free(&q->run);
	lf_out_close(&q->out);
	lf_cmdline_free(&q->cmd);
	free_words(q->words, q->nwords);
	free(q);
}
