/*
 * test_delete.c: deletion safety of the core (issue 5).
 *
 * A deletion walk (post-order, lf_entry_delete on every entry, as -delete
 * does) runs over a tree while an attacker swaps a directory inside it for a
 * symbolic link to a directory outside it.  The swap is made deterministic by
 * wrapping openat: it happens exactly when the walker opens (or reopens) the
 * victim.  Nothing outside the tree may be removed, and the swap must be
 * reported as an error entry.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "walk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The name whose next open triggers the swap, and what the swap does. */
static char swap_name[NAME_MAX + 1];
static char swap_dir[PATH_MAX];    /* the victim's full path */
static char swap_target[PATH_MAX]; /* where the link will point, or the move goes */
static bool swap_moves;            /* move swap_dir to swap_target instead */
static int swaps_done;
static bool walk_logical; /* delete_walk as -L -delete walks: LF_LOGICAL, no descent through links */

int __real_openat(int dirfd, const char *path, int flags, ...);

/* Swap the victim for a link right before the walker opens it. */
int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (swap_name[0] && strcmp(path, swap_name) == 0 && !swaps_done) {
		if (swap_moves) {
			assert_int_equal(rename(swap_dir, swap_target), 0);
		} else {
			char moved[PATH_MAX + 8];
			snprintf(moved, sizeof(moved), "%s.moved", swap_dir);
			assert_int_equal(rename(swap_dir, moved), 0);
			assert_int_equal(symlink(swap_target, swap_dir), 0);
		}
		swaps_done++;
	}
	return __real_openat(dirfd, path, flags, mode);
}

static char base[256]; /* a mkdtemp() path: short */

static void make_file(const char *rel)
{
	char p[2 * PATH_MAX + 2];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
}

static void make_dir(const char *rel)
{
	char p[2 * PATH_MAX + 2];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static bool exists(const char *rel)
{
	char p[2 * PATH_MAX + 2];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return lstat(p, &st) == 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf_test_delete.XXXXXX");
	assert_non_null(mkdtemp(base));
	make_dir("outside");
	make_dir("outside/keep");
	make_file("outside/precious");
	make_file("outside/keep/precious");
	make_dir("tree");
	swap_name[0] = '\0';
	swap_moves = false;
	swaps_done = 0;
	walk_logical = false;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 32];
	swap_name[0] = '\0';
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* Walk @root in post-order deleting everything, as luafind -delete does.
 * Returns the number of error entries; *swap_reported is set if one names
 * the victim. */
static int delete_walk(const char *root, int max_fds, bool *swap_reported, int *swap_errno)
{
	const char *roots[] = {root};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = roots;
	opts.nroots = 1;
	opts.order = LF_ORDER_POST;
	opts.max_fds = max_fds;
	opts.flags = LF_WALK_SORT; /* a deterministic order: "d" before "keep" */
	if (walk_logical) {
		opts.symlinks = LF_LOGICAL;
		opts.flags |= LF_WALK_NO_DESCEND_LINKS;
	}
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct lf_entry *e;
	int r, errors = 0;
	while ((r = lf_walk_next(w, &e)) > 0) {
		if (e->visit == LF_VISIT_ERROR) {
			errors++;
			if (strstr(e->path, "victim")) {
				*swap_reported = true;
				*swap_errno = e->error;
			}
			continue;
		}
		lf_entry_delete(e); /* failures (the link, non-empty dirs) are expected */
	}
	assert_int_equal(r, 0);
	assert_int_equal(lf_walk_close(w), 0);
	return errors;
}

static void assert_outside_intact(void)
{
	assert_true(exists("outside/precious"));
	assert_true(exists("outside/keep"));
	assert_true(exists("outside/keep/precious"));
}

/* The victim becomes a link between reading its parent and opening it. */
static void test_swap_before_open(void **state)
{
	(void)state;
	make_dir("tree/a");
	make_dir("tree/a/victim");
	make_file("tree/a/victim/f");
	make_file("tree/a/z");
	snprintf(swap_name, sizeof(swap_name), "victim");
	snprintf(swap_dir, sizeof(swap_dir), "%s/tree/a/victim", base);
	snprintf(swap_target, sizeof(swap_target), "%s/outside", base);

	char root[PATH_MAX];
	snprintf(root, sizeof(root), "%s/tree", base);
	bool reported = false;
	int err = 0;
	int errors = delete_walk(root, 0, &reported, &err);
	assert_int_equal(swaps_done, 1);
	assert_outside_intact();
	assert_true(errors >= 1);
	assert_true(reported);
	assert_true(exists("tree/a/victim"));        /* the link was refused (ENOTDIR) */
	assert_true(exists("tree/a/victim.moved/f")); /* its real contents were never reached */
	assert_false(exists("tree/a/z"));            /* everything else went */
}

/*
 * The victim is an ancestor whose fd was evicted (max_fds = 3 on a deep
 * path).  While the walker is deep inside it, the subtree it is in is moved
 * out of the tree, next to files whose names collide with the victim's
 * remaining entries.  Climbing back through ".." now leads outside: the
 * dev/ino check must refuse it, or "keep" and "precious" outside would be
 * deleted in place of the victim's own.
 */
static void swap_evicted_ancestor(bool logical)
{
	walk_logical = logical;
	make_dir("tree/victim");
	char rel[PATH_MAX] = "tree/victim";
	for (int i = 0; i < 8; i++) {
		strcat(rel, "/d");
		make_dir(rel);
	}
	make_dir("tree/victim/keep");
	make_file("tree/victim/keep/precious");
	make_file("tree/victim/precious");
	snprintf(swap_name, sizeof(swap_name), "..");
	snprintf(swap_dir, sizeof(swap_dir), "%s/tree/victim/d", base);
	snprintf(swap_target, sizeof(swap_target), "%s/outside/d", base);
	swap_moves = true;

	char root[PATH_MAX];
	snprintf(root, sizeof(root), "%s/tree", base);
	bool reported = false;
	int err = 0;
	delete_walk(root, 3, &reported, &err);
	assert_int_equal(swaps_done, 1);
	assert_outside_intact();
	if (!logical) {
		assert_true(reported);
		assert_int_equal(err, ESTALE);
		/* The victim's own entries were left alone, as it could not be trusted. */
		assert_true(exists("tree/victim/precious"));
		assert_true(exists("tree/victim/keep/precious"));
	}
}

static void test_swap_evicted_ancestor(void **state)
{
	(void)state;
	swap_evicted_ancestor(false);
}

/*
 * As -L -delete walks (issue 20, item 11): the victim, a real directory
 * when it was read and stat'ed (following links, as -L does), is a link
 * to the outside when it is opened.  Opening it must not follow the link.
 */
static void test_swap_before_open_logical(void **state)
{
	walk_logical = true;
	test_swap_before_open(state);
}

/*
 * Under LF_LOGICAL an evicted ancestor is reopened downwards by name when
 * ".." does not lead back to it: here that finds the victim itself, still
 * in the tree, so its own entries may go; the outside must not.
 */
static void test_swap_evicted_ancestor_logical(void **state)
{
	(void)state;
	swap_evicted_ancestor(true);
}

/*
 * LF_WALK_REFUSE_SLASH: / as a root, spelt as a link under LF_COMFOLLOW
 * and LF_LOGICAL, or as "/tmp/..", is an EPERM error entry and none of its
 * contents is returned (nothing is deleted here: the walk only reads).
 */
static void test_refuse_slash(void **state)
{
	(void)state;
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "%s/slash", base);
	assert_int_equal(symlink("/", link), 0);
	const struct {
		const char *root;
		enum lf_symlinks symlinks;
		enum lf_order order;
	} cases[] = {
		{link, LF_COMFOLLOW, LF_ORDER_POST}, {link, LF_LOGICAL, LF_ORDER_POST},
		{link, LF_COMFOLLOW, LF_ORDER_PRE},  {"/tmp/..", LF_PHYSICAL, LF_ORDER_POST},
		{link, LF_LOGICAL, LF_ORDER_BREADTH},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *roots[] = {cases[i].root};
		struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
		opts.roots = roots;
		opts.nroots = 1;
		opts.symlinks = cases[i].symlinks;
		opts.order = cases[i].order;
		opts.maxdepth = 1;
		opts.flags = LF_WALK_REFUSE_SLASH | LF_WALK_NO_DESCEND_LINKS;
		struct lf_walk *w = lf_walk_open(&opts);
		assert_non_null(w);
		struct lf_entry *e;
		int r, refused = 0;
		while ((r = lf_walk_next(w, &e)) > 0) {
			assert_int_equal(e->depth, 0);
			if (e->visit == LF_VISIT_ERROR) {
				assert_int_equal(e->error, EPERM);
				refused++;
			}
		}
		assert_int_equal(r, 0);
		assert_int_equal(refused, 1);
		assert_int_equal(lf_walk_close(w), 0);
	}
	/* Without the flag, / is read as any directory. */
	const char *roots[] = {link};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = roots;
	opts.nroots = 1;
	opts.symlinks = LF_COMFOLLOW;
	opts.maxdepth = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct lf_entry *e;
	int deeper = 0;
	while (lf_walk_next(w, &e) > 0) {
		deeper += e->depth == 1;
	}
	assert_true(deeper > 0);
	assert_int_equal(lf_walk_close(w), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_swap_before_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_evicted_ancestor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_before_open_logical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_evicted_ancestor_logical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuse_slash, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
