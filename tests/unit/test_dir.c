/*
 * test_dir.c: unit tests of dir.[ch], the raw getdents64 reader.
 *
 * Each test gets a fresh scratch directory (mkdtemp) as its working
 * directory; the records lf_getdents() returns are checked against what the
 * test created and against lstat(2).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dir.h"

#include <dirent.h>

#include "unit_util.h"

/* A buffer with the alignment lf_getdents() requires. */
#define BUFSZ (64 * 1024)
static uint64_t buf64[BUFSZ / sizeof(uint64_t)];

/* One record as the test saw it. */
struct seen {
	char name[256];
	unsigned char type;
	uint64_t ino;
};

/*
 * Read all of @fd with @size-byte reads, checking each buffer's framing,
 * and return the records in a malloc'ed array.  *ncalls counts the calls,
 * including the final one that returned 0.
 */
static struct seen *read_all(int fd, size_t size, size_t *count, size_t *ncalls)
{
	struct seen *v = NULL;
	size_t n = 0, cap = 0;
	*ncalls = 0;
	for (;;) {
		ssize_t got = lf_getdents(fd, buf64, size);
		(*ncalls)++;
		assert_true(got >= 0);
		if (got == 0) {
			break;
		}
		assert_true((size_t)got <= size);
		size_t off = 0;
		while (off < (size_t)got) {
			const struct lf_dirent *d = (const void *)((const char *)buf64 + off);
			/* Records are 8-byte aligned and fit in what was returned. */
			assert_int_equal(d->d_reclen % 8, 0);
			assert_true(d->d_reclen >= offsetof(struct lf_dirent, d_name) + 2);
			assert_true(off + d->d_reclen <= (size_t)got);
			size_t namelen = strnlen(d->d_name, d->d_reclen - offsetof(struct lf_dirent, d_name));
			assert_true(namelen > 0 && namelen < d->d_reclen - offsetof(struct lf_dirent, d_name));
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = realloc(v, cap * sizeof(*v));
				assert_non_null(v);
			}
			memcpy(v[n].name, d->d_name, namelen + 1);
			v[n].type = d->d_type;
			v[n].ino = d->d_ino;
			n++;
			off += d->d_reclen;
		}
		assert_int_equal(off, (size_t)got);
	}
	*count = n;
	return v;
}

static const struct seen *find_seen(const struct seen *v, size_t n, const char *name)
{
	const struct seen *hit = NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].name, name) == 0) {
			assert_null(hit); /* each name exactly once */
			hit = &v[i];
		}
	}
	return hit;
}

/* All records, with "." and "..", correct d_type and d_ino, then 0 at the end
 * (and 0 again if asked once more). */
static void test_records(void **state)
{
	(void)state;
	static const char *const tree[] = {
		"d/", "d/file", "d/sub/", "d/lnk -> file", "d/fifo|", NULL,
	};
	mk_all(NULL, tree);

	int fd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	size_t n, calls;
	struct seen *v = read_all(fd, sizeof(buf64), &n, &calls);
	assert_int_equal(n, 6);
	assert_int_equal(calls, 2); /* one read fits all, then EOF */

	struct {
		const char *name;
		unsigned char type;
	} want[] = {
		{".", DT_DIR}, {"..", DT_DIR}, {"file", DT_REG},
		{"sub", DT_DIR}, {"lnk", DT_LNK}, {"fifo", DT_FIFO},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct seen *s = find_seen(v, n, want[i].name);
		assert_non_null(s);
		assert_int_equal(s->type, want[i].type);
		char path[64];
		snprintf(path, sizeof(path), "d/%s", want[i].name);
		struct stat sb;
		assert_int_equal(lstat(path, &sb), 0);
		assert_int_equal(s->ino, sb.st_ino);
	}

	/* Still at the end: another call returns 0, not an error. */
	assert_int_equal(lf_getdents(fd, buf64, sizeof(buf64)), 0);
	free(v);
	close(fd);
}

/* An empty directory still has "." and "..". */
static void test_empty_dir(void **state)
{
	(void)state;
	mk(NULL, "e/");
	int fd = open("e", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	size_t n, calls;
	struct seen *v = read_all(fd, LF_DIR_MINBUF, &n, &calls);
	assert_int_equal(n, 2);
	assert_non_null(find_seen(v, n, "."));
	assert_non_null(find_seen(v, n, ".."));
	free(v);
	close(fd);
}

/* A directory larger than the smallest buffer takes several calls, each
 * making progress, and returns every name exactly once. */
static void test_many_records_small_buffer(void **state)
{
	(void)state;
	mk(NULL, "big/");
	enum { N = 3000 };
	for (int i = 0; i < N; i++) {
		/* Long names so that LF_DIR_MINBUF holds only a few dozen. */
		mkf(NULL, "big/entry-with-a-rather-long-name-%05d", i);
	}
	int fd = open("big", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	size_t n, calls;
	struct seen *v = read_all(fd, LF_DIR_MINBUF, &n, &calls);
	assert_int_equal(n, N + 2);
	assert_true(calls > 10);
	char *seen = calloc(N, 1);
	assert_non_null(seen);
	for (size_t i = 0; i < n; i++) {
		if (lf_dir_is_dot(v[i].name)) {
			continue;
		}
		int k;
		assert_int_equal(sscanf(v[i].name, "entry-with-a-rather-long-name-%05d", &k), 1);
		assert_true(k >= 0 && k < N);
		assert_int_equal(seen[k], 0);
		seen[k] = 1;
		assert_int_equal(v[i].type, DT_REG);
	}
	free(seen);
	free(v);
	close(fd);
}

static void test_bad_fd(void **state)
{
	(void)state;
	errno = 0;
	assert_int_equal(lf_getdents(-1, buf64, sizeof(buf64)), -1);
	assert_int_equal(errno, EBADF);

	/* A descriptor that was valid once. */
	int fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	errno = 0;
	assert_int_equal(lf_getdents(fd, buf64, sizeof(buf64)), -1);
	assert_int_equal(errno, EBADF);
}

static void test_not_a_directory(void **state)
{
	(void)state;
	mk(NULL, "plain");
	int fd = open("plain", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(lf_getdents(fd, buf64, sizeof(buf64)), -1);
	assert_int_equal(errno, ENOTDIR);
	close(fd);
}

/* A buffer too small for a single record is an error, not a false EOF. */
static void test_buffer_too_small(void **state)
{
	(void)state;
	mk(NULL, "d/");
	int fd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(lf_getdents(fd, buf64, 8), -1);
	assert_int_equal(errno, EINVAL);
	close(fd);
}

static void test_is_dot(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int dot;
	} cases[] = {
		{".", 1}, {"..", 1}, {"...", 0}, {".a", 0}, {"..a", 0},
		{"a", 0}, {"a.", 0}, {"", 0}, {". ", 0}, {".\n", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!!lf_dir_is_dot(cases[i].name) != cases[i].dot) {
			print_error("lf_dir_is_dot(\"%s\") should be %d\n", cases[i].name, cases[i].dot);
			fail();
		}
	}
}

/* Usage: PROGRAM [PATTERN [SKIP]] (unit_filters). */
int main(int argc, char **argv)
{
	unit_filters(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_records, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_empty_dir, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_many_records_small_buffer, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_bad_fd, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_not_a_directory, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_buffer_too_small, scratch_setup, scratch_teardown),
		cmocka_unit_test(test_is_dot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
