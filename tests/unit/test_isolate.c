/*
 * test_isolate.c: lf_isolate_start's confinement (isolate.h), one work
 * function per attempt, each in its own child: what a read-only walk needs
 * works, and writing, executing, processes, sockets and removal are
 * stopped by the filter with the system call named; the CPU, wall-clock,
 * memory and Landlock limits hold; the parent leaks no fd.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "isolate.h"
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char base[64]; /* a scratch directory: base/keep, base/inside/f */

/* Run @work in a child under @o; its output into @out (NUL-terminated). */
static struct lf_isolate_result run(const struct lf_isolate_opts *o, int (*work)(void *), char *out, size_t size)
{
	char path[] = "/tmp/lf_test_isolate_out.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	struct lf_isolate *iso = lf_isolate_start(o, work, NULL);
	if (!iso && errno == ENOSYS) {
		skip(); /* built without libseccomp */
	}
	assert_non_null(iso);
	struct lf_isolate_result res;
	assert_int_equal(lf_isolate_finish(iso, fd, &res), 0);
	ssize_t n = pread(fd, out, size - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return res;
}

static int work_walk(void *arg)
{
	(void)arg;
	const char *roots[] = {base};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = roots;
	opts.nroots = 1;
	opts.threads = 4;
	opts.flags = LF_WALK_READ_AHEAD; /* worker threads: clone with CLONE_THREAD */
	struct lf_walk *w = lf_walk_open(&opts);
	if (!w) {
		return 2;
	}
	struct lf_entry *e;
	int n = 0;
	while (lf_walk_next(w, &e) > 0) {
		if (e->visit != LF_VISIT_ERROR && lf_entry_stat(e, LF_NOFOLLOW)) {
			n++;
		}
	}
	lf_walk_close(w);
	printf("%d entries\n", n);
	return 0;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	int n = 0;
	while (readdir(d)) {
		n++;
	}
	closedir(d);
	return n;
}

static void test_reads(void **state)
{
	(void)state;
	int fds = count_fds();
	struct lf_isolate_opts o = LF_ISOLATE_OPTS_INIT;
	char out[256];
	struct lf_isolate_result res = run(&o, work_walk, out, sizeof(out));
	assert_int_equal(res.end, LF_ISOLATE_EXITED);
	assert_int_equal(res.status, 0);
	assert_string_equal(out, "5 entries\n"); /* base, keep, inside, inside/f, inside/g */
	assert_int_equal(count_fds(), fds);
}

static char victim[128];

static int work_write(void *arg)
{
	(void)arg;
	open(victim, O_WRONLY | O_CREAT, 0644);
	return 0;
}

static int work_exec(void *arg)
{
	(void)arg;
	char *argv[] = {"true", NULL};
	execve("/bin/true", argv, environ);
	return 0;
}

static int work_socket(void *arg)
{
	(void)arg;
	int s = socket(AF_UNIX, SOCK_STREAM, 0); /* quietly refused: NSS's probe */
	if (s >= 0 || errno != EACCES) {
		return 3;
	}
	socket(AF_INET, SOCK_STREAM, 0);
	return 0;
}

static int work_fork(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		_exit(0);
	}
	return 0;
}

static int work_unlink(void *arg)
{
	(void)arg;
	char path[160];
	snprintf(path, sizeof(path), "%s/keep", base);
	unlink(path);
	return 0;
}

static int work_rename(void *arg)
{
	(void)arg;
	char from[160], to[160];
	snprintf(from, sizeof(from), "%s/keep", base);
	snprintf(to, sizeof(to), "%s/moved", base);
	rename(from, to);
	return 0;
}

static void test_filtered(void **state)
{
	(void)state;
	struct {
		int (*work)(void *);
		const char *syscall;
	} cases[] = {
		{work_write, "openat"}, {work_exec, "execve"},   {work_socket, "socket"},
		{work_fork, "clone"},   {work_unlink, "unlink"}, {work_rename, "rename"},
	};
	snprintf(victim, sizeof(victim), "%s/written", base);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lf_isolate_opts o = LF_ISOLATE_OPTS_INIT;
		char out[64];
		struct lf_isolate_result res = run(&o, cases[i].work, out, sizeof(out));
		assert_int_equal(res.end, LF_ISOLATE_FILTERED);
		if (strcmp(res.syscall, cases[i].syscall) != 0 &&
		    !(strcmp(cases[i].syscall, "unlink") == 0 && strcmp(res.syscall, "unlinkat") == 0) &&
		    !(strcmp(cases[i].syscall, "rename") == 0 && strncmp(res.syscall, "rename", 6) == 0)) {
			fail_msg("case %zu: the filter stopped %s, not %s", i, res.syscall, cases[i].syscall);
		}
	}
	struct stat st;
	char path[160];
	snprintf(path, sizeof(path), "%s/keep", base);
	assert_int_equal(stat(path, &st), 0);
	assert_int_not_equal(stat(victim, &st), 0);
}

static int work_spin(void *arg)
{
	(void)arg;
	for (volatile unsigned long i = 0;; i++) {
	}
	return 0;
}

static int work_sleep(void *arg)
{
	(void)arg;
	sleep(30);
	return 0;
}

static int work_hog(void *arg)
{
	(void)arg;
	size_t total = 0;
	for (int i = 0; i < 4096; i++) {
		char *p = malloc(1 << 20);
		if (!p) {
			printf("refused after %zu MiB\n", total >> 20);
			return 3;
		}
		memset(p, 1, 1 << 20);
		total += 1 << 20;
	}
	return 0;
}

static void test_limits(void **state)
{
	(void)state;
	char out[64];
	struct lf_isolate_opts o = LF_ISOLATE_OPTS_INIT;
	o.cpu_seconds = 1;
	struct lf_isolate_result res = run(&o, work_spin, out, sizeof(out));
	assert_int_equal(res.end, LF_ISOLATE_CPU);
	if (!(res.cpu_seconds >= 0.5 && res.cpu_seconds < 3)) { /* the kernel checks RLIMIT_CPU on ticks */
		fail_msg("a 1 s CPU limit: %.3f s of CPU", res.cpu_seconds);
	}

	o = (struct lf_isolate_opts)LF_ISOLATE_OPTS_INIT;
	o.wall_seconds = 1;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	res = run(&o, work_sleep, out, sizeof(out));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(res.end, LF_ISOLATE_WALL);
	assert_true(t1.tv_sec - t0.tv_sec < 5);

#if defined(__SANITIZE_ADDRESS__)
	return; /* AddressSanitizer's shadow needs terabytes of address space: RLIMIT_AS stops it */
#endif
	o = (struct lf_isolate_opts)LF_ISOLATE_OPTS_INIT;
	o.max_memory = (size_t)256 << 20;
	res = run(&o, work_hog, out, sizeof(out));
	assert_int_equal(res.end, LF_ISOLATE_EXITED);
	assert_int_equal(res.status, 3);
	assert_true(res.max_rss_kib < 300 * 1024);
}

static int work_read_outside(void *arg)
{
	(void)arg;
	char path[160];
	snprintf(path, sizeof(path), "%s/keep", base);
	int fd = open(path, O_RDONLY);
	if (fd >= 0 || errno != EACCES) {
		return 4; /* outside the readable tree */
	}
	snprintf(path, sizeof(path), "%s/inside/f", base);
	fd = open(path, O_RDONLY);
	return fd >= 0 ? 0 : 5;
}

static void test_landlock(void **state)
{
	(void)state;
	char inside[160];
	snprintf(inside, sizeof(inside), "%s/inside", base);
	const char *paths[] = {inside};
	struct lf_isolate_opts o = LF_ISOLATE_OPTS_INIT;
	o.read_paths = paths;
	o.nread_paths = 1;
	char out[64];
	struct lf_isolate_result res = run(&o, work_read_outside, out, sizeof(out));
	if (!res.landlock) {
		skip(); /* a kernel without Landlock: the filter alone */
	}
	assert_int_equal(res.end, LF_ISOLATE_EXITED);
	assert_int_equal(res.status, 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf_test_isolate.XXXXXX");
	assert_non_null(mkdtemp(base));
	char p[160];
	snprintf(p, sizeof(p), "%s/keep", base);
	close(open(p, O_WRONLY | O_CREAT, 0644));
	snprintf(p, sizeof(p), "%s/inside", base);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/inside/f", base);
	close(open(p, O_WRONLY | O_CREAT, 0644));
	snprintf(p, sizeof(p), "%s/inside/g", base);
	close(open(p, O_WRONLY | O_CREAT, 0644));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_filtered),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_landlock),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
