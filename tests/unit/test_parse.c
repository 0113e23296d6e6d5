/*
 * test_parse.c: unit tests of parse.c's walk plumbing: -j N into
 * opts.threads (before the paths and in the expression, and its usage
 * errors), and the rule that decides LF_WALK_READ_AHEAD
 * (lf_cmdline_walk_flags), as lf_parse(), lf_parse_find() and the C query
 * API (lf_query_walk_opts) apply it.  Nothing is walked, but for the deep
 * expressions that lf_query_compile() takes, or refuses, on a thread with a
 * small stack, evaluated for the current directory.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "parse.h"
#include "primary.h"
#include "query.h"

/* Parse a whole command line (NULL-terminated words after argv[0]). */
static int parse_line(struct lf_ctx *ctx, struct lf_cmdline *cmd, struct lf_error_list *errs, ...)
{
	char *argv[16] = {"luafind"};
	int argc = 1;
	va_list ap;
	va_start(ap, errs);
	for (char *w; (w = va_arg(ap, char *));) {
		assert_true(argc < 15);
		argv[argc++] = w;
	}
	va_end(ap);
	argv[argc] = NULL;
	struct lf_diag_collector col;
	lf_diag_collect(ctx, &col, errs);
	int r = lf_parse(ctx, argc, argv, cmd);
	lf_diag_uncollect(ctx, &col);
	return r;
}

/* -j's value, wherever it stands and however it is spelt. */
static void test_jobs_forms(void **state)
{
	(void)state;
	static const struct {
		char *w[4];
		int threads;
	} cases[] = {
		{{"-j3", ".", NULL}, 3},
		{{"-j", "5", ".", NULL}, 5},
		{{".", "-j", "7", NULL}, 7},
		{{".", "-j8", NULL}, 8},
		{{"-j1", NULL}, 1},
		{{"-j", "64", NULL}, 64},
		{{"-j2", "-j4", ".", NULL}, 4}, /* the last one wins, as in bfs */
		{{".", NULL}, 0},               /* LF_WALK_THREADS_DEFAULT */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lf_ctx *ctx = lf_ctx_new();
		assert_non_null(ctx);
		struct lf_cmdline cmd;
		struct lf_error_list errs = {0};
		char *const *w = cases[i].w;
		int r = parse_line(ctx, &cmd, &errs, w[0], w[1], w[2], w[3], (char *)NULL);
		if (r != 0 || errs.n) {
			fail_msg("case %zu (%s ...): rejected: %s", i, w[0], errs.n ? errs.v[0].message : "");
		}
		assert_int_equal(cmd.opts.threads, cases[i].threads);
		assert_true(cmd.nroots == 1 && strcmp(cmd.roots[0], ".") == 0);
		lf_cmdline_free(&cmd);
		lf_error_list_free(&errs);
		lf_ctx_free(ctx);
	}
}

/* Bad values are usage errors that name the argument (argi, message). */
static void test_jobs_errors(void **state)
{
	(void)state;
	static const struct {
		char *w[4];
		int argi;         /* in argv, argv[0] being "luafind" */
		const char *says; /* in the message */
	} cases[] = {
		{{"-j0", ".", NULL}, 1, "got '0'"},
		{{"-j", "-1", ".", NULL}, 2, "got '-1'"},
		{{"-j", "65", NULL}, 2, "at most 64"},
		{{"-j99999999999", NULL}, 1, "at most 64"},
		{{"-j", "1.5", NULL}, 2, "got '1.5'"},
		{{"-j", NULL}, 1, "missing argument to `-j'"},
		{{".", "-j", NULL}, 2, "missing argument to `-j'"},
		{{".", "-j", "0", NULL}, 3, "got '0'"},
		{{".", "-j", "x", NULL}, 3, "got 'x'"},
		{{".", "-j+2", NULL}, 2, "got '+2'"},
		{{".", "-j65", NULL}, 2, "at most 64"},
		{{".", "-jx", NULL}, 2, "unknown predicate `-jx'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lf_ctx *ctx = lf_ctx_new();
		assert_non_null(ctx);
		struct lf_cmdline cmd;
		struct lf_error_list errs = {0};
		char *const *w = cases[i].w;
		int r = parse_line(ctx, &cmd, &errs, w[0], w[1], w[2], w[3], (char *)NULL);
		if (r == 0 || errs.n == 0) {
			fail_msg("case %zu (%s %s): accepted", i, w[0], w[1] ? w[1] : "");
		}
		if (!strstr(errs.v[0].message, cases[i].says) || errs.v[0].argi != cases[i].argi) {
			fail_msg("case %zu (%s %s): '%s' at argument %d, expected '%s' at %d", i, w[0],
				 w[1] ? w[1] : "", errs.v[0].message, errs.v[0].argi, cases[i].says, cases[i].argi);
		}
		lf_cmdline_free(&cmd);
		lf_error_list_free(&errs);
		lf_ctx_free(ctx);
	}
}

/* Whether lf_parse_find() of the words in @expr (space-separated) reads ahead. */
static bool reads_ahead(struct lf_ctx *ctx, const char *expr)
{
	char *copy = strdup(expr);
	assert_non_null(copy);
	char *argv[16];
	int argc = 0;
	char *save = NULL;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		assert_true(argc < 15);
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	struct lf_cmdline cmd;
	struct lf_error_list errs = {0};
	struct lf_diag_collector col;
	lf_diag_collect(ctx, &col, &errs);
	int r = lf_parse_find(ctx, NULL, 0, argc, argv, 0, NULL, &cmd);
	lf_diag_uncollect(ctx, &col);
	if (r != 0) {
		fail_msg("'%s': rejected: %s", expr, errs.n ? errs.v[0].message : "");
	}
	bool ahead = (cmd.opts.flags & LF_WALK_READ_AHEAD) != 0;
	/* Sorting (luafind.find's sort option) always turns it off. */
	assert_false(lf_cmdline_walk_flags(&cmd, cmd.opts.flags | LF_WALK_SORT) & LF_WALK_READ_AHEAD);
	lf_cmdline_free(&cmd);
	lf_error_list_free(&errs);
	free(copy);
	return ahead;
}

/* A primary with effects of its own, as -lua is (the CLI registers it). */
static struct lf_expr *parse_impure(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->impure = true;
	}
	return x;
}

/* The rule: every directory read, nothing changed; the walk would use it. */
static void test_read_ahead_rule(void **state)
{
	(void)state;
	static const char *const yes[] = {
		"",
		"-name *.c",
		"-type f -size +16k",
		"-depth",
		"-maxdepth 3 -mindepth 1",
		"-H -print0",
		"-j 8 -name x -o -path y",
		"-printf %p -fprint /dev/null -fls /dev/null -ls",
		"( -name a , -type d ) -print",
		"! -empty -json path",
		"-hidden -o -name x",
		"-noerror -type f",
		"-xattr -o -acl -o -capable -o -xattrname user.x",
		"-since 2001-02-03 -msince 2001-02-03",
	};
	static const char *const no[] = {
		"-prune",
		"-name .git -prune -o -print",
		"-quit",
		"-name x -quit",
		"-print -limit 3",
		"-nohidden",
		"-unique", /* an exclusion: a directory seen before is not read */
		"-exclude -name .git",
		"-delete",
		"-name *.o -delete",
		"-exec true ;",
		"-execdir true {} +",
		"-ok true ;",
		"-okdir true ;",
		"-j 4 -exec true ;", /* -j does not force it */
		"-L -name x",
		"-follow",
		"-xdev",
		"-mount",
		"-gitignore",
		"! ( -name a -o -exec true ; )",
	};
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!reads_ahead(ctx, yes[i])) {
			fail_msg("'%s': no LF_WALK_READ_AHEAD, expected it", yes[i]);
		}
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		if (reads_ahead(ctx, no[i])) {
			fail_msg("'%s': LF_WALK_READ_AHEAD, expected none", no[i]);
		}
	}
	lf_ctx_free(ctx);

	/* A registered primary with effects (-lua), as lf_parse() sees it. */
	ctx = lf_ctx_new();
	assert_non_null(ctx);
	const struct lf_primary row = {"-effects", LF_PRIM_TEST, 0, parse_impure, lf_eval_true, false};
	assert_int_equal(lf_ctx_add_primaries(ctx, &row, 1), 0);
	struct lf_cmdline cmd;
	struct lf_error_list errs = {0};
	assert_int_equal(parse_line(ctx, &cmd, &errs, ".", "-name", "x", (char *)NULL), 0);
	assert_true(cmd.opts.flags & LF_WALK_READ_AHEAD);
	lf_cmdline_free(&cmd);
	assert_int_equal(parse_line(ctx, &cmd, &errs, ".", "-name", "x", "-effects", (char *)NULL), 0);
	assert_false(cmd.opts.flags & LF_WALK_READ_AHEAD);
	lf_cmdline_free(&cmd);
	assert_int_equal(parse_line(ctx, &cmd, &errs, "-j8", ".", "-effects", (char *)NULL), 0);
	assert_false(cmd.opts.flags & LF_WALK_READ_AHEAD);
	assert_int_equal(cmd.opts.threads, 8);
	lf_cmdline_free(&cmd);
	lf_error_list_free(&errs);
	lf_ctx_free(ctx);
}

/* The C query API: the flag and -j reach the host's walk options. */
static void test_query_walk_opts(void **state)
{
	(void)state;
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	char *pure[] = {"-name", "*.c", "-j", "3", NULL};
	struct lf_query *q = lf_query_compile(ctx, 4, pure, 0);
	assert_non_null(q);
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	assert_true(opts.flags & LF_WALK_READ_AHEAD);
	assert_int_equal(opts.threads, 3);
	lf_query_free(q);

	char *prune[] = {"-name", "x", "-prune", NULL};
	q = lf_query_compile(ctx, 3, prune, 0);
	assert_non_null(q);
	opts = (struct lf_walk_opts)LF_WALK_OPTS_INIT;
	opts.threads = 2; /* the host's, kept without -j */
	lf_query_walk_opts(q, &opts);
	assert_false(opts.flags & LF_WALK_READ_AHEAD);
	assert_int_equal(opts.threads, 2);
	lf_query_free(q);
	lf_ctx_free(ctx);
}

/* Words of an expression, some repeated many times. */
struct words {
	char **v;
	int n, cap;
};

static void add(struct words *w, char *word, int times)
{
	for (int i = 0; i < times; i++) {
		if (w->n + 1 >= w->cap) {
			w->cap = w->cap ? 2 * w->cap : 64;
			w->v = realloc(w->v, (size_t)w->cap * sizeof(*w->v));
			assert_non_null(w->v);
		}
		w->v[w->n++] = word;
		w->v[w->n] = NULL;
	}
}

/* "-false -o ( -true -a ( " @pairs times, then the primary, then the ")": 2 * @pairs + 1 levels. */
static void alternating(struct words *w, int pairs)
{
	for (int i = 0; i < pairs; i++) {
		add(w, "-false", 1);
		add(w, "-o", 1);
		add(w, "(", 1);
		add(w, "-true", 1);
		add(w, "-a", 1);
		add(w, "(", 1);
	}
	add(w, "-name", 1);
	add(w, "*", 1);
	add(w, ")", 2 * pairs);
}

/* A query compiled and evaluated for "." on its own thread: cmocka's asserts stay on the main one. */
struct deep_job {
	const struct words *w;
	bool compiled;
	int err;
	bool matched;
	struct lf_error_list errs;
};

static void *deep_run(void *arg)
{
	struct deep_job *job = arg;
	struct lf_ctx *ctx = lf_ctx_new();
	if (!ctx) {
		job->err = errno;
		return NULL;
	}
	struct lf_diag_collector col;
	lf_diag_collect(ctx, &col, &job->errs);
	struct lf_query *q = lf_query_compile(ctx, job->w->n, job->w->v, LF_QUERY_SAFE);
	job->err = q ? 0 : errno;
	job->compiled = q != NULL;
	if (q) {
		const char *dot[] = {"."};
		struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
		lf_query_walk_opts(q, &opts);
		opts.roots = dot;
		opts.nroots = 1;
		opts.maxdepth = 0;
		struct lf_walk *walk = lf_walk_open(&opts);
		struct lf_entry *e;
		if (walk && lf_walk_next(walk, &e) > 0) {
			job->matched = lf_query_eval(q, walk, e) > 0;
		}
		lf_walk_close(walk);
		lf_query_finish(q);
		lf_query_free(q);
	}
	lf_diag_uncollect(ctx, &col);
	lf_ctx_free(ctx);
	return NULL;
}

/* Compile and evaluate @w on a thread with a 256 KiB stack, what a host may call from. */
static void deep_job_run(struct deep_job *job, const struct words *w)
{
	*job = (struct deep_job){.w = w};
	pthread_attr_t attr;
	pthread_t t;
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
	assert_int_equal(pthread_create(&t, &attr, deep_run, job), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_attr_destroy(&attr);
}

/*
 * Issue 20: "(" and "!" cost the parser no stack, nor do long chains the
 * passes over the tree; what nests deeper than LF_EXPR_MAX_DEPTH levels of
 * operators is a usage error at the operator, whatever the stack.
 */
static void test_deep_expressions(void **state)
{
	(void)state;
	static const struct {
		const char *what;
		char *word;  /* repeated */
		int times;
		char *last;  /* then this */
		char *close; /* then this, as many times, if not NULL */
		bool matched;
	} cases[] = {
		{"30,000 nested (", "(", 30000, "-true", ")", true},
		{"200,001 !", "!", 200001, "-false", NULL, true},
		{"200,000 !", "!", 200000, "-false", NULL, false},
		{"-true -a ( nested 30,000 deep", "-true -a (", 30000, "-true", ")", true},
		{"a chain of 200,000 -o", "-false -o", 200000, "-true", NULL, true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct words w = {0};
		char *split[3] = {NULL};
		char *copy = strdup(cases[i].word);
		assert_non_null(copy);
		int nsplit = 0;
		char *save = NULL;
		for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			split[nsplit++] = t;
		}
		for (int k = 0; k < cases[i].times; k++) {
			for (int j = 0; j < nsplit; j++) {
				add(&w, split[j], 1);
			}
		}
		add(&w, cases[i].last, 1);
		if (cases[i].close) {
			add(&w, cases[i].close, cases[i].times);
		}
		struct deep_job job;
		deep_job_run(&job, &w);
		if (!job.compiled) {
			fail_msg("%s: rejected: %s", cases[i].what, job.errs.n ? job.errs.v[0].message : strerror(job.err));
		}
		if (job.matched != cases[i].matched) {
			fail_msg("%s: %s", cases[i].what, job.matched ? "true" : "false");
		}
		lf_error_list_free(&job.errs);
		free(copy);
		free(w.v);
	}

	/* 999 levels, a -name at the bottom: taken, and true. */
	struct words w = {0};
	alternating(&w, 499);
	struct deep_job job;
	deep_job_run(&job, &w);
	if (!job.compiled || !job.matched) {
		fail_msg("999 levels: %s", job.errs.n ? job.errs.v[0].message : job.compiled ? "false" : "rejected");
	}
	lf_error_list_free(&job.errs);
	free(w.v);

	/* 1003: refused, about an operator. */
	w = (struct words){0};
	alternating(&w, 501);
	deep_job_run(&job, &w);
	assert_false(job.compiled);
	assert_int_equal(job.err, EINVAL);
	assert_true(job.errs.n >= 1);
	assert_int_equal(job.errs.v[0].kind, LF_ERROR_USAGE);
	assert_string_equal(job.errs.v[0].message, "expression nested too deeply (over 1000 levels)");
	int argi = job.errs.v[0].argi;
	assert_true(argi >= 0 && argi < w.n);
	if (strcmp(w.v[argi], "-o") != 0 && strcmp(w.v[argi], "-a") != 0) {
		fail_msg("1003 levels: the error is about argument %d, '%s'", argi, w.v[argi]);
	}
	lf_error_list_free(&job.errs);
	free(w.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_forms),
		cmocka_unit_test(test_jobs_errors),
		cmocka_unit_test(test_read_ahead_rule),
		cmocka_unit_test(test_query_walk_opts),
		cmocka_unit_test(test_deep_expressions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
