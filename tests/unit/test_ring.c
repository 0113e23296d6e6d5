/*
 * test_ring.c: unit tests of ring.[ch], stats in batches through io_uring.
 *
 * Every result is compared, field by field, with what lf_stat_at() says of
 * the same name, for names given in an order other than their slots', in
 * batches larger than the ring, with names that fail.  Without io_uring
 * (a kernel without it, kernel.io_uring_disabled, a seccomp filter, a
 * build without liburing) the program reports SKIP (77): the I/O queue
 * then never uses a ring, and unit.walk covers its workers' own stats.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ring.h"

#include <sys/syscall.h>

#include "unit_util.h"

static void assert_ts_equal(struct timespec a, struct timespec b)
{
	assert_int_equal(a.tv_sec, b.tv_sec);
	assert_int_equal(a.tv_nsec, b.tv_nsec);
}

static void assert_same(const struct lf_stat *a, const struct lf_stat *b)
{
	assert_int_equal(a->dev, b->dev);
	assert_int_equal(a->ino, b->ino);
	assert_int_equal(a->rdev, b->rdev);
	assert_int_equal(a->nlink, b->nlink);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->blocks, b->blocks);
	assert_int_equal(a->mode, b->mode);
	assert_int_equal(a->uid, b->uid);
	assert_int_equal(a->gid, b->gid);
	assert_int_equal(a->blksize, b->blksize);
	assert_ts_equal(a->mtime, b->mtime);
	assert_ts_equal(a->ctime, b->ctime);
	assert_int_equal(a->has_btime, b->has_btime);
	if (a->has_btime) {
		assert_ts_equal(a->btime, b->btime);
	}
}

#define NAMES 300

/*
 * NAMES names in d/: files of different sizes, a directory, a link (not
 * followed), a broken link and names that do not exist; stat'ed in the
 * reverse of their slots' order, through a ring of @entries.
 */
static void stat_all(unsigned entries)
{
	mk(NULL, "d/");
	mk(NULL, "d/sub/");
	mk(NULL, "d/lnk -> sub");
	mk(NULL, "d/broken -> nowhere");
	static char names[NAMES][32];
	const char *name_of[NAMES];
	unsigned slots[NAMES];
	for (unsigned i = 0; i < NAMES; i++) {
		if (i == 7) {
			snprintf(names[i], sizeof(names[i]), "sub");
		} else if (i == 8) {
			snprintf(names[i], sizeof(names[i]), "lnk");
		} else if (i == 9) {
			snprintf(names[i], sizeof(names[i]), "broken");
		} else if (i % 50 == 11) {
			snprintf(names[i], sizeof(names[i]), "missing%u", i);
		} else {
			snprintf(names[i], sizeof(names[i]), "f%u", i);
			char path[64];
			snprintf(path, sizeof(path), "d/%.31s", names[i]);
			int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600 | (i % 8) << 3);
			assert_true(fd >= 0);
			assert_int_equal(ftruncate(fd, (off_t)i * 100), 0);
			close(fd);
		}
		/* Submitted last slot first. */
		name_of[NAMES - 1 - i] = names[i];
		slots[NAMES - 1 - i] = i;
	}
	int dfd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);

	struct lf_ring *r = lf_ring_new(entries);
	assert_non_null(r);
	static struct lf_stat st[NAMES];
	static int err[NAMES];
	for (int round = 0; round < 2; round++) { /* a ring serves batch after batch */
		memset(st, 0xa5, sizeof(st));
		memset(err, 0x5a, sizeof(err));
		assert_int_equal(lf_ring_stat(r, dfd, name_of, slots, NAMES, st, err), 0);
		for (unsigned i = 0; i < NAMES; i++) {
			struct lf_stat want;
			int want_err = lf_stat_at(dfd, names[i], false, &want) == 0 ? 0 : errno;
			assert_int_equal(err[i], want_err);
			if (!want_err) {
				assert_same(&st[i], &want);
			}
		}
	}
	assert_int_equal(err[11], ENOENT);
	assert_true(S_ISLNK(st[8].mode));
	assert_true(S_ISLNK(st[9].mode));
	assert_true(S_ISDIR(st[7].mode));
	assert_int_equal(st[299].size, 29900);

	/* Nothing to stat is fine too. */
	assert_int_equal(lf_ring_stat(r, dfd, name_of, slots, 0, st, err), 0);
	lf_ring_free(r);
	close(dfd);
}

/* More names than the ring holds: batches. */
static void test_batches(void **state)
{
	(void)state;
	stat_all(8);
}

/* All at once, as the I/O queue's workers use it (a directory's first 256). */
static void test_one_batch(void **state)
{
	(void)state;
	stat_all(512);
}

/* A directory fd that is none: every stat fails, the ring does not. */
static void test_bad_fd(void **state)
{
	(void)state;
	struct lf_ring *r = lf_ring_new(4);
	assert_non_null(r);
	const char *names[] = {"a", "b"};
	unsigned slots[] = {1, 0};
	struct lf_stat st[2];
	int err[2] = {0, 0};
	assert_int_equal(lf_ring_stat(r, -1, names, slots, 2, st, err), 0);
	assert_int_equal(err[0], EBADF);
	assert_int_equal(err[1], EBADF);
	lf_ring_free(r);
	lf_ring_free(NULL);
}

#ifdef LF_HAVE_URING
/* Whether this kernel lets the process set up an io_uring at all. */
static bool kernel_has_io_uring(void)
{
	char params[120] = {0}; /* struct io_uring_params */
	long fd = syscall(SYS_io_uring_setup, 4, params);
	if (fd < 0) {
		return false;
	}
	close((int)fd);
	return true;
}
#endif

int main(int argc, char **argv)
{
	struct lf_ring *probe = lf_ring_new(1);
	if (!probe) {
		int err = errno;
#ifdef LF_HAVE_URING
		if (kernel_has_io_uring() && err != EOPNOTSUPP) {
			printf("FAIL: lf_ring_new: %s, but io_uring_setup works\n", strerror(err));
			return 1;
		}
#endif
		printf("SKIP: no io_uring to stat through: %s\n", strerror(err));
		return 77;
	}
	lf_ring_free(probe);
	unit_filters(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_batches, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_one_batch, scratch_setup, scratch_teardown),
		cmocka_unit_test(test_bad_fd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
