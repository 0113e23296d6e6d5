/*
 * unit_util.h: helpers shared by the core's cmocka programs: a scratch
 * directory per test (mkdtemp in setup, rm -rf in teardown), tree builders
 * that record what they create, and a small growable list of strings.
 *
 * Everything here is static inline, so a program need not use all of it.
 * Include it after <cmocka.h>: the builders fail the current test with
 * cmocka's assertions.
 */
#ifndef LF_UNIT_UTIL_H
#define LF_UNIT_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- a list of strings --------------------------------------------------- */

struct strvec {
	char **v;
	size_t n, cap;
};

static inline void sv_push(struct strvec *s, const char *str)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		assert_non_null(s->v);
	}
	s->v[s->n] = strdup(str);
	assert_non_null(s->v[s->n]);
	s->n++;
}

static inline void sv_pushf(struct strvec *s, const char *fmt, ...)
{
	char *str;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&str, fmt, ap);
	va_end(ap);
	assert_true(r >= 0);
	sv_push(s, str);
	free(str);
}

static inline int sv_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void sv_sort(struct strvec *s)
{
	if (s->n) {
		qsort(s->v, s->n, sizeof(*s->v), sv_cmp);
	}
}

static inline bool sv_contains_sorted(const struct strvec *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), sv_cmp) != NULL;
}

static inline void sv_free(struct strvec *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i]);
	}
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/*
 * Assert that two sorted lists are equal, printing the first difference so a
 * failure says which path is missing or extra.
 */
static inline void sv_assert_equal(const struct strvec *got, const struct strvec *want)
{
	size_t i = 0, j = 0;
	while (i < got->n || j < want->n) {
		int c = i == got->n ? 1 : j == want->n ? -1 : strcmp(got->v[i], want->v[j]);
		if (c < 0) {
			print_error("unexpected: '%s'\n", got->v[i]);
			fail();
		} else if (c > 0) {
			print_error("missing: '%s'\n", want->v[j]);
			fail();
		}
		i++;
		j++;
	}
}

/* ---- the scratch directory ----------------------------------------------- */

struct scratch {
	char *dir;   /* the mkdtemp() directory, absolute */
	int old_cwd; /* fd of the directory to return to */
};

/* Create a scratch directory and make it the working directory, so trees are
 * named with short relative paths ("t/a/f"). */
static inline int scratch_enter(struct scratch *s)
{
	char tmpl[] = "/tmp/lf_unit.XXXXXX";
	if (!mkdtemp(tmpl)) {
		return -1;
	}
	s->dir = strdup(tmpl);
	s->old_cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!s->dir || s->old_cwd < 0 || chdir(s->dir) != 0) {
		return -1;
	}
	return 0;
}

static inline int scratch_leave(struct scratch *s)
{
	int ret = 0;
	if (s->old_cwd >= 0) {
		if (fchdir(s->old_cwd) != 0) {
			ret = -1;
		}
		close(s->old_cwd);
		s->old_cwd = -1;
	}
	if (s->dir) {
		/* rm copes with any depth and with mode 000 directories as root. */
		char *cmd;
		if (asprintf(&cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", s->dir, s->dir) < 0) {
			return -1;
		}
		if (system(cmd) != 0) {
			ret = -1;
		}
		free(cmd);
		free(s->dir);
		s->dir = NULL;
	}
	return ret;
}

/* cmocka fixtures: each test in a scratch directory of its own (*state). */
static inline int scratch_setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));
	if (!s || scratch_enter(s) != 0) {
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static inline int scratch_teardown(void **state)
{
	struct scratch *s = *state;
	int r = scratch_leave(s);
	free(s);
	return r;
}

/* ---- building trees ------------------------------------------------------- */

/*
 * Create one node of a tree, relative to the working directory:
 *   "a/b/"        a directory
 *   "a/f"         an empty regular file
 *   "a/l -> tgt"  a symbolic link to tgt
 *   "a/p|"        a FIFO
 * and record its path (without the decoration) in @made if it is not NULL.
 */
static inline void mk(struct strvec *made, const char *spec)
{
	char *path = strdup(spec);
	assert_non_null(path);
	size_t len = strlen(path);
	char *arrow = strstr(path, " -> ");
	int r;
	if (arrow) {
		*arrow = '\0';
		r = symlink(arrow + 4, path);
	} else if (len && path[len - 1] == '/') {
		path[len - 1] = '\0';
		r = mkdir(path, 0755);
	} else if (len && path[len - 1] == '|') {
		path[len - 1] = '\0';
		r = mkfifo(path, 0644);
	} else {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		r = fd < 0 ? -1 : close(fd);
	}
	if (r != 0) {
		print_error("creating '%s': %s\n", spec, strerror(errno));
		fail();
	}
	if (made) {
		sv_push(made, path);
	}
	free(path);
}

/* Create every node of a NULL-terminated spec list (see mk()). */
static inline void mk_all(struct strvec *made, const char *const *specs)
{
	for (size_t i = 0; specs[i]; i++) {
		mk(made, specs[i]);
	}
}

static inline void mkf(struct strvec *made, const char *fmt, ...)
{
	char *spec;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&spec, fmt, ap);
	va_end(ap);
	assert_true(r >= 0);
	mk(made, spec);
	free(spec);
}

/*
 * Build a chain base/NAME0/NAME1/... of @depth directories one component at a
 * time (the paths may be longer than PATH_MAX), with @files regular files
 * "f<k>" at every level below base.  Records every path it makes, with
 * @base as the prefix, in @made if not NULL.  @fmt formats a level's name
 * from its index.
 */
static inline void mk_chain(struct strvec *made, const char *base, int depth, const char *fmt, int files)
{
	int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	size_t cap = strlen(base) + 1 + (size_t)depth * 64;
	char *path = malloc(cap);
	assert_non_null(path);
	size_t len = strlen(base);
	memcpy(path, base, len + 1);
	for (int i = 0; i < depth; i++) {
		char name[64];
		snprintf(name, sizeof(name), fmt, i);
		assert_int_equal(mkdirat(fd, name, 0755), 0);
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		assert_true(next >= 0);
		close(fd);
		fd = next;
		len += (size_t)snprintf(path + len, cap - len, "/%s", name);
		if (made) {
			sv_push(made, path);
		}
		for (int k = 0; k < files; k++) {
			char fname[16];
			snprintf(fname, sizeof(fname), "f%d", k);
			int ffd = openat(fd, fname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			assert_true(ffd >= 0);
			close(ffd);
			if (made) {
				sv_pushf(made, "%s/%s", path, fname);
			}
		}
	}
	free(path);
	close(fd);
}

/* ---- file descriptors ------------------------------------------------------ */

#include <dirent.h>

/* Which fds are open: taken in setup, so teardown can close what a failed
 * test left open and the next test starts with the same fds. */
struct fdset {
	unsigned char open[1024];
};

static inline void fdset_each(void (*fn)(int fd, void *arg), void *arg)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d) {
		return;
	}
	int self = dirfd(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);
		if (de->d_name[0] != '.' && fd != self) {
			fn(fd, arg);
		}
	}
	closedir(d);
}

static inline void fdset_mark(int fd, void *arg)
{
	struct fdset *s = arg;
	if (fd >= 0 && fd < (int)sizeof(s->open)) {
		s->open[fd] = 1;
	}
}

static inline void fdset_snapshot(struct fdset *s)
{
	memset(s, 0, sizeof(*s));
	fdset_each(fdset_mark, s);
}

static inline void fdset_mark_new(int fd, void *arg)
{
	struct fdset *s = arg;
	if (fd >= 0 && fd < (int)sizeof(s->open) && !s->open[fd]) {
		s->open[fd] = 2;
	}
}

/* Close every fd opened since @s was taken; returns how many. */
static inline int fdset_close_new(const struct fdset *s)
{
	struct fdset now = *s;
	fdset_each(fdset_mark_new, &now);
	int n = 0;
	for (int fd = 0; fd < (int)sizeof(now.open); fd++) {
		if (now.open[fd] == 2) {
			close(fd);
			n++;
		}
	}
	return n;
}

/* The lowest free file descriptor number. */
static inline int lowest_free_fd(void)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	return fd;
}

/*
 * A test program's arguments, PROGRAM [PATTERN [SKIP]]: run the tests
 * matching PATTERN (cmocka wildcards), skipping those matching SKIP.
 */
static inline void unit_filters(int argc, char **argv)
{
	if (argc > 1) {
		cmocka_set_test_filter(argv[1]);
	}
	if (argc > 2) {
		cmocka_set_skip_filter(argv[2]);
	}
}

/* Number of '/' in @s: the depth of a path below a slash-free root. */
static inline int count_slashes(const char *s)
{
	int n = 0;
	for (; *s; s++) {
		n += *s == '/';
	}
	return n;
}

#endif
