/*
 * test_query_refuse.c: a C host's deleting query never takes / (issue 20,
 * item 10), whatever its walk: a symbolic link to / as the root under -H
 * and -L, walked in post-order (so that the root's own entry comes last)
 * and without LF_WALK_REFUSE_SLASH, must be refused at its first entry.
 *
 * unlinkat is wrapped: it counts the calls and removes nothing, so a
 * failure of the refusal costs nothing here.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "query.h"

static int unlinks;

int __wrap_unlinkat(int dirfd, const char *path, int flags)
{
	(void)dirfd;
	(void)path;
	(void)flags;
	unlinks++;
	errno = EPERM;
	return -1;
}

static int refusals;

static void report(void *arg, const struct lf_error *err)
{
	(void)arg;
	if (err->length && strstr(err->message, "it is the root directory /")) {
		refusals++;
	}
}

static void run_host(const char *root, const char *mode, bool host_flags_only)
{
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	lf_ctx_set_reporter(ctx, report, NULL, NULL, NULL);
	char *expr[] = {(char *)mode, "-maxdepth", "1", "-delete", NULL};
	struct lf_query *q = lf_query_compile(ctx, 4, expr, 0);
	assert_non_null(q);
	const char *roots[] = {root};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	assert_int_equal(opts.order, LF_ORDER_POST);
	assert_true(opts.flags & LF_WALK_REFUSE_SLASH);
	if (host_flags_only) {
		opts.flags &= ~(unsigned)LF_WALK_REFUSE_SLASH; /* a host with options of its own */
	}
	opts.roots = roots;
	opts.nroots = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct lf_entry *e;
	int matches = 0, evaluated = 0, untold = 0;
	while (!lf_query_done(q) && lf_walk_next(w, &e) > 0) {
		evaluated++;
		int r = lf_query_eval(q, w, e);
		matches += r > 0;
		untold += r < 0;
	}
	lf_walk_close(w);
	assert_int_equal(matches, 0);
	assert_int_equal(untold, 1); /* refused: neither a match nor a non-match */
	assert_int_equal(evaluated, 1); /* done at the first entry */
	assert_int_equal(lf_query_finish(q), 1);
	lf_query_free(q);
	lf_ctx_free(ctx);
}

static void test_link_to_slash(void **state)
{
	(void)state;
	char dir[] = "/tmp/lf_test_query_refuse.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "%s/slash", dir);
	assert_int_equal(symlink("/", link), 0);
	const char *modes[] = {"-H", "-L"};
	for (size_t i = 0; i < 2; i++) {
		for (int host = 0; host < 2; host++) {
			unlinks = refusals = 0;
			run_host(link, modes[i], host);
			assert_int_equal(unlinks, 0);
			assert_int_equal(refusals, 1);
		}
	}
	unlink(link);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_to_slash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
