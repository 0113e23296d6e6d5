/*
 * test_walk_rootfd.c: unit tests of lf_walk_opts.root_fds, roots the caller
 * opened itself (walk.h).
 *
 * The point of the option is that a root's path may lead elsewhere by the
 * time the walk starts: each test opens "t", then replaces "t" with a link
 * to another tree ("out", holding a canary), and checks that the walk
 * returns the first tree's entries under the path "t" and nothing of
 * "out", in every order and follow mode; that the root is described by
 * the fd (no stat by path); and that the fd is only borrowed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "walk.h"

#include "unit_util.h"

/* The tree "t" (recorded in @want), opened; then "t" made a link to "out". */
static int open_then_swap(struct strvec *want)
{
	mk(want, "t/");
	mk(want, "t/a/");
	mk(want, "t/a/f");
	mk(want, "t/b/");
	mk(NULL, "out/");
	mk(NULL, "out/canary");
	int fd = open("t", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(rename("t", "moved"), 0);
	mk(NULL, "t -> out");
	sv_sort(want);
	return fd;
}

/* Walk root "t" through @fd with @order and @symlinks; the paths, sorted. */
static void walk_fd(int fd, enum lf_order order, enum lf_symlinks symlinks, struct strvec *got,
		    struct lf_counters *c)
{
	const char *roots[] = {"t"};
	int fds[] = {fd};
	struct lf_walk_opts o = LF_WALK_OPTS_INIT;
	o.roots = roots;
	o.nroots = 1;
	o.root_fds = fds;
	o.order = order;
	o.symlinks = symlinks;
	struct lf_walk *w = lf_walk_open(&o);
	assert_non_null(w);
	struct lf_entry *e;
	int r;
	while ((r = lf_walk_next(w, &e)) > 0) {
		assert_int_not_equal(e->visit, LF_VISIT_ERROR);
		if (e->visit == LF_VISIT_PRE || order == LF_ORDER_POST) {
			sv_push(got, e->path);
		}
		if (e->depth == 0) {
			const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
			struct stat sb;
			assert_non_null(st);
			assert_int_equal(fstat(fd, &sb), 0);
			assert_int_equal(st->ino, sb.st_ino); /* the fd's directory, not the link */
			assert_int_equal(e->type, LF_DIR);
		}
	}
	assert_int_equal(r, 0);
	*c = *lf_walk_counters(w);
	assert_int_equal(lf_walk_close(w), 0);
	sv_sort(got);
}

static void test_swapped_root_not_followed(void **state)
{
	(void)state;
	struct strvec want = {0};
	int fd = open_then_swap(&want);
	static const enum lf_order orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH, LF_ORDER_BREADTH};
	static const enum lf_symlinks modes[] = {LF_PHYSICAL, LF_COMFOLLOW, LF_LOGICAL};
	for (size_t i = 0; i < sizeof(orders) / sizeof(*orders); i++) {
		for (size_t j = 0; j < sizeof(modes) / sizeof(*modes); j++) {
			struct strvec got = {0};
			struct lf_counters c;
			walk_fd(fd, orders[i], modes[j], &got, &c);
			sv_assert_equal(&got, &want);
			if (modes[j] != LF_LOGICAL) {
				/* The root by fstat of the fd; below it d_type says all. */
				assert_int_equal(c.stats + c.stats_follow, 0);
			}
			assert_true(c.fd_stats >= 1);
			sv_free(&got);
		}
	}
	/* Borrowed: still open, and the caller's to close. */
	assert_int_not_equal(fcntl(fd, F_GETFD), -1);
	close(fd);
	sv_free(&want);
}

/* -1 in root_fds: that root is opened by its path, as without the option. */
static void test_minus_one_is_by_path(void **state)
{
	(void)state;
	struct strvec want = {0};
	int fd = open_then_swap(&want);
	const char *roots[] = {"t", "t"};
	int fds[] = {fd, -1};
	struct lf_walk_opts o = LF_WALK_OPTS_INIT;
	o.roots = roots;
	o.nroots = 2;
	o.root_fds = fds;
	o.symlinks = LF_COMFOLLOW;
	struct lf_walk *w = lf_walk_open(&o);
	assert_non_null(w);
	struct lf_entry *e;
	bool canary[2] = {false, false};
	while (lf_walk_next(w, &e) > 0) {
		if (strcmp(e->path + e->nameoff, "canary") == 0) {
			canary[e->root] = true;
		}
	}
	assert_int_equal(lf_walk_close(w), 0);
	assert_false(canary[0]);
	assert_true(canary[1]); /* the link, followed under -H */
	close(fd);
	sv_free(&want);
}

/*
 * A root given by fd and removed since: described by the fd, then not read
 * (a removed directory has no "." to open), nor anything by its path.
 */
static void test_fd_of_removed_root(void **state)
{
	(void)state;
	mk(NULL, "t/");
	mk(NULL, "out/");
	mk(NULL, "out/canary");
	int fd = open("t", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(rmdir("t"), 0);
	mk(NULL, "t -> out");
	const char *roots[] = {"t"};
	int fds[] = {fd};
	struct lf_walk_opts o = LF_WALK_OPTS_INIT;
	o.roots = roots;
	o.nroots = 1;
	o.root_fds = fds;
	o.symlinks = LF_LOGICAL;
	struct lf_walk *w = lf_walk_open(&o);
	assert_non_null(w);
	struct lf_entry *e;
	int n = 0;
	while (lf_walk_next(w, &e) > 0) {
		assert_string_equal(e->path, "t");
		assert_int_equal(e->visit, n == 0 ? LF_VISIT_PRE : LF_VISIT_ERROR);
		n++;
	}
	assert_int_equal(n, 2);
	assert_int_equal(lf_walk_close(w), 0);
	close(fd);
}

int main(int argc, char **argv)
{
	unit_filters(argc, argv);
#define T(f) cmocka_unit_test_setup_teardown(f, scratch_setup, scratch_teardown)
	const struct CMUnitTest tests[] = {
		T(test_swapped_root_not_followed),
		T(test_minus_one_is_by_path),
		T(test_fd_of_removed_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
