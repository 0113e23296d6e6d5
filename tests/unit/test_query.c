/*
 * test_query.c: what a C host gets from the query API as values:
 * lf_query_eval()'s three answers (true, false, could not tell), and the
 * errors a context without a reporter keeps for the host instead of
 * printing them (lf_ctx_errors).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "query.h"

/* stderr goes to a scratch file during a test: the library must print nothing. */
static int saved_stderr = -1;
static FILE *captured;

static void capture_stderr(void)
{
	fflush(stderr);
	captured = tmpfile();
	assert_non_null(captured);
	saved_stderr = dup(STDERR_FILENO);
	assert_true(saved_stderr >= 0);
	assert_int_equal(dup2(fileno(captured), STDERR_FILENO), STDERR_FILENO);
}

/* Restore stderr; the number of bytes written to it meanwhile. */
static long release_stderr(void)
{
	fflush(stderr);
	assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
	close(saved_stderr);
	fseek(captured, 0, SEEK_END);
	long n = ftell(captured);
	fclose(captured);
	return n;
}

static void test_kept_without_reporter(void **state)
{
	(void)state;
	capture_stderr();
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	char *expr[] = {"-type", "f", "-perm", "u=rwz", "-mtime", "x"};
	struct lf_query *q = lf_query_compile(ctx, 6, expr, 0);
	assert_null(q);
	assert_int_equal(errno, EINVAL);
	size_t n, dropped;
	const struct lf_error *v = lf_ctx_errors(ctx, &n, &dropped);
	assert_true(n >= 1);
	assert_int_equal(dropped, 0);
	assert_int_equal(v[0].kind, LF_ERROR_USAGE);
	assert_int_equal(v[0].argi, 3);
	assert_string_equal(v[0].primary, "-perm");
	assert_false(v[0].names_primary);
	assert_memory_equal(v[0].message, "invalid mode 'u=rwz'", v[0].length);
	lf_ctx_clear_errors(ctx);
	lf_ctx_errors(ctx, &n, &dropped);
	assert_int_equal(n, 0);

	/* A message that names its primary says so. */
	char *expr2[] = {"-mtime", "x"};
	assert_null(lf_query_compile(ctx, 2, expr2, 0));
	v = lf_ctx_errors(ctx, &n, NULL);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].primary, "-mtime");
	assert_true(v[0].names_primary);
	lf_ctx_free(ctx);
	assert_int_equal(release_stderr(), 0);
}

/* More errors than a context keeps: the rest are counted, not kept. */
static void test_kept_bounded(void **state)
{
	(void)state;
	capture_stderr();
	struct lf_ctx *ctx = lf_ctx_new();
	char *expr[] = {"-true"};
	struct lf_query *q = lf_query_compile(ctx, 1, expr, 0);
	assert_non_null(q);
	enum { NROOTS = 1005 };
	static const char *roots[NROOTS];
	for (size_t i = 0; i < NROOTS; i++) {
		roots[i] = "/nonexistent/lf_test_query";
	}
	assert_int_equal(lf_query_run(q, roots, NROOTS), 1);
	size_t n, dropped;
	const struct lf_error *v = lf_ctx_errors(ctx, &n, &dropped);
	assert_int_equal(n, 1000);
	assert_int_equal(dropped, NROOTS - 1000);
	assert_int_equal(v[999].kind, LF_ERROR_FILE);
	assert_int_equal(v[999].errnum, ENOENT);
	assert_memory_equal(v[999].path, roots[0], v[999].pathlen);
	lf_query_free(q);
	lf_ctx_free(ctx);
	assert_int_equal(release_stderr(), 0);
}

/* lf_query_eval() of every entry of @root, maxdepth 1, without stat-ahead. */
struct answers {
	int yes, no, untold;
};

static struct answers eval_all(struct lf_query *q, const char *root, const char *remove_before)
{
	struct answers a = {0};
	const char *roots[] = {root};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	opts.flags &= ~(unsigned)LF_WALK_READ_AHEAD; /* the stat must happen inside the test */
	opts.threads = 1;
	opts.maxdepth = 1;
	opts.roots = roots;
	opts.nroots = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct lf_entry *e;
	while (!lf_query_done(q) && lf_walk_next(w, &e) > 0) {
		if (remove_before && e->depth == 1) {
			assert_int_equal(unlink(remove_before), 0); /* gone before its stat */
			remove_before = NULL;
		}
		int r = lf_query_eval(q, w, e);
		a.yes += r > 0;
		a.no += r == 0;
		a.untold += r < 0;
	}
	lf_walk_close(w);
	return a;
}

static void test_three_answers(void **state)
{
	(void)state;
	char dir[] = "/tmp/lf_test_query.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char file[PATH_MAX];
	snprintf(file, sizeof(file), "%s/f", dir);
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);

	struct lf_ctx *ctx = lf_ctx_new();
	char *expr[] = {"-type", "f", "-size", "-1k"}; /* -type from d_type: no stat */
	struct lf_query *q = lf_query_compile(ctx, 4, expr, 0);
	assert_non_null(q);
	struct answers a = eval_all(q, dir, NULL);
	assert_int_equal(a.yes, 1);    /* f, empty */
	assert_int_equal(a.no, 1);     /* the directory */
	assert_int_equal(a.untold, 0);
	assert_int_equal(lf_query_finish(q), 0);

	/* f vanishes between its directory's read and its stat: -size cannot
	 * tell, which is neither a match nor a non-match. */
	a = eval_all(q, dir, file);
	assert_int_equal(a.yes, 0);
	assert_int_equal(a.untold, 1);
	assert_int_equal(lf_query_finish(q), 1);
	size_t n;
	const struct lf_error *v = lf_ctx_errors(ctx, &n, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].errnum, ENOENT);

	/* An error entry (a root that is not there) cannot be told either. */
	a = eval_all(q, "/nonexistent/lf_test_query", NULL);
	assert_int_equal(a.untold, 1);
	assert_int_equal(a.yes + a.no, 0);
	lf_query_free(q);
	lf_ctx_free(ctx);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_without_reporter),
		cmocka_unit_test(test_kept_bounded),
		cmocka_unit_test(test_three_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
