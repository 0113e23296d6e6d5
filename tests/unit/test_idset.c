/*
 * test_idset.c: unit tests of idset.[ch], -unique's set of (device, inode)
 * pairs: what is added once is there, inode 0 too, the table grows without
 * losing anything, and a memory account is charged what the set takes,
 * given all of it back, and may refuse (ENOMEM, the set left as it was).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>

#include "idset.h"

static void add_and_find(void **state)
{
	(void)state;
	struct lf_idset *s = lf_idset_new(NULL);
	assert_non_null(s);
	assert_int_equal(lf_idset_add(s, 1, 2), 1);
	assert_int_equal(lf_idset_add(s, 1, 2), 0);
	assert_int_equal(lf_idset_add(s, 2, 1), 1); /* other device, other file */
	assert_int_equal(lf_idset_add(s, 1, 0), 1);
	assert_int_equal(lf_idset_add(s, 1, 0), 0);
	assert_int_equal(lf_idset_add(s, 2, 0), 1);
	assert_int_equal(lf_idset_add(s, UINT64_MAX, UINT64_MAX), 1);
	assert_int_equal(lf_idset_add(s, UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(lf_idset_count(s), 5);
	lf_idset_free(s);
	lf_idset_free(NULL);
}

/* 200,000 inodes, sequential as a file system hands them out, on 3 devices. */
static void grows(void **state)
{
	(void)state;
	struct lf_idset *s = lf_idset_new(NULL);
	assert_non_null(s);
	for (uint64_t i = 1; i <= 200000; i++) {
		assert_int_equal(lf_idset_add(s, i % 3, i), 1);
	}
	for (uint64_t i = 1; i <= 200000; i++) {
		if (lf_idset_add(s, i % 3, i) != 0) {
			fail_msg("(%llu, %llu) lost as the set grew", (unsigned long long)(i % 3), (unsigned long long)i);
		}
	}
	assert_int_equal(lf_idset_count(s), 200000);
	lf_idset_free(s);
}

struct account {
	size_t held, limit;
};

static bool charge(void *data, size_t bytes)
{
	struct account *a = data;
	if (a->held + bytes > a->limit) {
		return false;
	}
	a->held += bytes;
	return true;
}

static void uncharge(void *data, size_t bytes)
{
	struct account *a = data;
	assert_true(bytes <= a->held);
	a->held -= bytes;
}

static void charged(void **state)
{
	(void)state;
	struct account a = {0, 64 * 1024};
	const struct lf_mem mem = {charge, uncharge, &a};
	struct lf_idset *s = lf_idset_new(&mem);
	assert_non_null(s);
	assert_true(a.held > 0);
	uint64_t n = 0;
	int r;
	while ((r = lf_idset_add(s, 7, n + 1)) == 1) {
		n++;
	}
	assert_int_equal(r, -1);
	assert_int_equal(errno, ENOMEM);
	assert_true(n > 1000);
	assert_true(a.held <= a.limit);
	/* Refused, the set is as it was: what it holds is there, the rest not. */
	assert_int_equal(lf_idset_count(s), n);
	assert_int_equal(lf_idset_add(s, 7, 1), 0);
	assert_int_equal(lf_idset_add(s, 7, n), 0);
	assert_int_equal(lf_idset_add(s, 7, n + 1), -1);
	lf_idset_free(s);
	assert_int_equal(a.held, 0);
	a.limit = 0;
	errno = 0;
	assert_null(lf_idset_new(&mem));
	assert_int_equal(errno, ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(add_and_find),
		cmocka_unit_test(grows),
		cmocka_unit_test(charged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
