/*
 * test_stat.c: unit tests of stat.[ch], statx with an fstatat fallback.
 *
 * Every field of struct lf_stat is compared with what stat(2)/lstat(2) say
 * about the same file.  The program is linked with -Wl,--wrap=statx so the
 * last test can make statx fail with ENOSYS and check the fstatat fallback
 * (which, once taken, is permanent for the process: keep that test last).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stat.h"

#include "unit_util.h"

/* ---- statx fault injection (-Wl,--wrap=statx) ----------------------------- */

static bool statx_enosys; /* make statx fail with ENOSYS */
static unsigned long statx_calls;

int __real_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf);
int __wrap_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf);

int __wrap_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf)
{
	statx_calls++;
	if (statx_enosys) {
		errno = ENOSYS;
		return -1;
	}
	return __real_statx(dirfd, path, flags, mask, buf);
}

/* ---- fixtures -------------------------------------------------------------- */

static void assert_ts_equal(struct timespec a, struct timespec b)
{
	assert_int_equal(a.tv_sec, b.tv_sec);
	assert_int_equal(a.tv_nsec, b.tv_nsec);
}

/* Every field of @st against @sb. */
static void assert_same(const struct lf_stat *st, const struct stat *sb)
{
	assert_int_equal(st->dev, sb->st_dev);
	assert_int_equal(st->ino, sb->st_ino);
	assert_int_equal(st->rdev, sb->st_rdev);
	assert_int_equal(st->nlink, sb->st_nlink);
	assert_int_equal(st->size, sb->st_size);
	assert_int_equal(st->blocks, sb->st_blocks);
	assert_int_equal(st->mode, sb->st_mode);
	assert_int_equal(st->uid, sb->st_uid);
	assert_int_equal(st->gid, sb->st_gid);
	assert_int_equal(st->blksize, sb->st_blksize);
	assert_ts_equal(st->atime, sb->st_atim);
	assert_ts_equal(st->mtime, sb->st_mtim);
	assert_ts_equal(st->ctime, sb->st_ctim);
	if (st->has_btime) {
		/* Born no later than its last status change. */
		assert_true(st->btime.tv_sec < st->ctime.tv_sec ||
			    (st->btime.tv_sec == st->ctime.tv_sec && st->btime.tv_nsec <= st->ctime.tv_nsec));
	} else {
		assert_int_equal(st->btime.tv_sec, 0);
		assert_int_equal(st->btime.tv_nsec, 0);
	}
}

/* A file with content, odd times and permissions, and a second hard link. */
static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	assert_true(fd >= 0);
	static const char data[12345] = {1};
	assert_int_equal(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	/* Distinct times with nanoseconds, to catch a swapped or truncated field. */
	const struct timespec times[2] = {{1000000001, 123456789}, {1500000002, 987654321}};
	assert_int_equal(futimens(fd, times), 0);
	close(fd);
}

/* A regular file, relative to AT_FDCWD and to a directory fd, either way of
 * following (a regular file is its own target). */
static void test_regular_file(void **state)
{
	(void)state;
	mk(NULL, "d/");
	make_file("d/f");
	assert_int_equal(link("d/f", "d/hard"), 0);

	struct stat sb;
	assert_int_equal(lstat("d/f", &sb), 0);
	assert_int_equal(sb.st_nlink, 2);
	struct lf_stat st;
	memset(&st, 0xa5, sizeof(st));
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/f", false, &st), 0);
	assert_same(&st, &sb);
	assert_int_equal(st.size, 12345);
	assert_int_equal(st.mode & 07777, 0640);
	assert_int_equal(st.mtime.tv_sec, 1500000002);
	assert_int_equal(st.mtime.tv_nsec, 987654321);
	assert_int_equal(st.atime.tv_nsec, 123456789);

	int dfd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	memset(&st, 0x5a, sizeof(st));
	assert_int_equal(lf_stat_at(dfd, "f", true, &st), 0);
	assert_same(&st, &sb);
	memset(&st, 0x5a, sizeof(st));
	assert_int_equal(lf_stat_at(dfd, "hard", false, &st), 0);
	assert_same(&st, &sb);
	close(dfd);
}

static void test_directory(void **state)
{
	(void)state;
	static const char *const tree[] = {"d/", "d/s1/", "d/s2/", "d/f", NULL};
	mk_all(NULL, tree);
	struct stat sb;
	assert_int_equal(stat("d", &sb), 0);
	struct lf_stat st;
	assert_int_equal(lf_stat_at(AT_FDCWD, "d", false, &st), 0);
	assert_same(&st, &sb);
	assert_true(S_ISDIR(st.mode));
	assert_int_equal(st.nlink, 4); /* ".", its entry in the parent, two ".." */
}

/* A symbolic link: the link itself without following, the target with. */
static void test_symlink(void **state)
{
	(void)state;
	mk(NULL, "d/");
	make_file("d/target");
	mk(NULL, "d/lnk -> target");
	mk(NULL, "d/dirlnk -> .");

	int dfd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	struct stat lsb, sb;
	/* Following a link reads it, which may update its atime: stat first. */
	assert_int_equal(stat("d/lnk", &sb), 0);
	assert_int_equal(lstat("d/lnk", &lsb), 0);

	struct lf_stat st;
	assert_int_equal(lf_stat_at(dfd, "lnk", false, &st), 0);
	assert_same(&st, &lsb);
	assert_true(S_ISLNK(st.mode));
	assert_int_equal(st.size, strlen("target"));

	assert_int_equal(lf_stat_at(dfd, "lnk", true, &st), 0);
	assert_same(&st, &sb);
	assert_true(S_ISREG(st.mode));
	assert_int_equal(st.size, 12345);

	/* A link to a directory, followed, is that directory. */
	struct stat dsb;
	assert_int_equal(fstat(dfd, &dsb), 0);
	assert_int_equal(lf_stat_at(dfd, "dirlnk", true, &st), 0);
	assert_int_equal(st.ino, dsb.st_ino);
	assert_int_equal(st.dev, dsb.st_dev);
	assert_true(S_ISDIR(st.mode));
	assert_int_equal(lf_stat_at(dfd, "dirlnk", false, &st), 0);
	assert_true(S_ISLNK(st.mode));
	close(dfd);
}

static void test_broken_symlink(void **state)
{
	(void)state;
	mk(NULL, "broken -> does-not-exist");
	struct stat lsb;
	assert_int_equal(lstat("broken", &lsb), 0);
	struct lf_stat st;
	assert_int_equal(lf_stat_at(AT_FDCWD, "broken", false, &st), 0);
	assert_same(&st, &lsb);
	assert_true(S_ISLNK(st.mode));
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "broken", true, &st), -1);
	assert_int_equal(errno, ENOENT);

	/* A link loop is ELOOP when followed, a plain link when not. */
	mk(NULL, "loop -> loop");
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "loop", true, &st), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(lf_stat_at(AT_FDCWD, "loop", false, &st), 0);
	assert_true(S_ISLNK(st.mode));
}

static void test_errors(void **state)
{
	(void)state;
	mk(NULL, "file");
	struct lf_stat st;
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "missing", false, &st), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "missing", true, &st), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "", false, &st), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(lf_stat_at(-1, "file", false, &st), -1);
	assert_int_equal(errno, EBADF);

	/* A regular file's fd is not a directory to look names up in. */
	int fd = open("file", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(lf_stat_at(fd, "x", false, &st), -1);
	assert_int_equal(errno, ENOTDIR);
	close(fd);

	errno = 0;
	assert_int_equal(lf_stat_fd(-1, &st), -1);
	assert_int_equal(errno, EBADF);
}

/* lf_stat_fd describes the open file, even after its name is gone. */
static void test_stat_fd(void **state)
{
	(void)state;
	mk(NULL, "d/");
	make_file("d/f");
	mk(NULL, "d/lnk -> f");

	int fd = open("d/f", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	struct stat sb;
	assert_int_equal(fstat(fd, &sb), 0);
	struct lf_stat st;
	assert_int_equal(lf_stat_fd(fd, &st), 0);
	assert_same(&st, &sb);
	assert_int_equal(unlink("d/f"), 0);
	assert_int_equal(lf_stat_fd(fd, &st), 0);
	assert_int_equal(st.ino, sb.st_ino);
	assert_int_equal(st.nlink, 0);
	close(fd);

	int dfd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(fstat(dfd, &sb), 0);
	assert_int_equal(lf_stat_fd(dfd, &st), 0);
	assert_same(&st, &sb);
	assert_true(S_ISDIR(st.mode));

	/* An O_PATH fd of the link itself (AT_EMPTY_PATH does not follow it). */
	int lfd = openat(dfd, "lnk", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	assert_true(lfd >= 0);
	struct stat lsb;
	assert_int_equal(fstatat(dfd, "lnk", &lsb, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(lf_stat_fd(lfd, &st), 0);
	assert_same(&st, &lsb);
	assert_true(S_ISLNK(st.mode));
	close(lfd);
	close(dfd);
}

/* Device numbers: st_rdev of a character device, st_dev of a file. */
static void test_device(void **state)
{
	(void)state;
	struct stat sb;
	if (stat("/dev/null", &sb) != 0 || !S_ISCHR(sb.st_mode)) {
		skip();
	}
	struct lf_stat st;
	assert_int_equal(lf_stat_at(AT_FDCWD, "/dev/null", true, &st), 0);
	assert_same(&st, &sb);
	assert_true(st.rdev != 0);
}

/* Without statx (old kernels, some seccomp filters) the fstatat fallback
 * gives the same data, no birth time, and statx is not tried again.
 * Must run last: the fallback is sticky for the whole process. */
static void test_fallback_without_statx(void **state)
{
	(void)state;
	mk(NULL, "d/");
	make_file("d/f");
	mk(NULL, "d/lnk -> f");
	mk(NULL, "d/broken -> nowhere");

	struct lf_stat st;
	statx_calls = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/f", false, &st), 0);
	assert_true(statx_calls > 0); /* the wrap really sits in front of statx */

	statx_enosys = true;
	statx_calls = 0;
	struct stat sb;
	assert_int_equal(lstat("d/f", &sb), 0);
	memset(&st, 0xa5, sizeof(st));
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/f", false, &st), 0);
	assert_same(&st, &sb);
	assert_false(st.has_btime);
	assert_int_equal(statx_calls, 1);

	assert_int_equal(stat("d/lnk", &sb), 0);
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/lnk", true, &st), 0);
	assert_same(&st, &sb);
	assert_int_equal(lstat("d/lnk", &sb), 0);
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/lnk", false, &st), 0);
	assert_same(&st, &sb);
	errno = 0;
	assert_int_equal(lf_stat_at(AT_FDCWD, "d/broken", true, &st), -1);
	assert_int_equal(errno, ENOENT);

	int fd = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(lf_stat_fd(fd, &st), 0);
	assert_same(&st, &sb);
	close(fd);
	errno = 0;
	assert_int_equal(lf_stat_fd(-1, &st), -1);
	assert_int_equal(errno, EBADF);

	assert_int_equal(statx_calls, 1); /* ENOSYS is remembered */
	statx_enosys = false;
}

/* Usage: PROGRAM [PATTERN [SKIP]] (unit_filters). */
int main(int argc, char **argv)
{
	unit_filters(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular_file, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_directory, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_symlink, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_broken_symlink, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_errors, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_stat_fd, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_device, scratch_setup, scratch_teardown),
		/* Last: see the comment on the test. */
		cmocka_unit_test_setup_teardown(test_fallback_without_statx, scratch_setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
