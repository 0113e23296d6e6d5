/*
 * malloc_fail.c: an LD_PRELOAD shim whose allocator fails from the Nth call
 * on (MALLOC_FAIL_AT=N, counting malloc, calloc, realloc and
 * posix_memalign/aligned_alloc calls from 1), so that checks.sh can run a
 * short command once for every N and see that running out of memory
 * anywhere is an error message and an exit status, never an abort or a
 * crash.  Without MALLOC_FAIL_AT, it counts: at exit it writes the number
 * of calls to the file MALLOC_COUNT_FILE names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);

static unsigned long calls, fail_at;
static int state; /* 0: not read yet, 1: counting, 2: failing from fail_at */

static void init(void)
{
	const char *s = getenv("MALLOC_FAIL_AT");
	fail_at = s ? strtoul(s, NULL, 10) : 0;
	state = fail_at ? 2 : 1;
}

/* Whether this call must fail. */
static int fails(void)
{
	if (!state) {
		init();
	}
	calls++;
	if (state == 2 && calls >= fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return fails() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (size == 0 || !p) {
		return p ? __libc_realloc(p, size) : malloc(size);
	}
	return fails() ? NULL : __libc_realloc(p, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	if (fails()) {
		return ENOMEM;
	}
	void *p = __libc_memalign(align, size);
	if (!p) {
		return ENOMEM;
	}
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t size)
{
	return fails() ? NULL : __libc_memalign(align, size);
}

__attribute__((destructor)) static void report(void)
{
	const char *file = getenv("MALLOC_COUNT_FILE");
	if (state == 1 && file) {
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			char buf[32];
			int n = snprintf(buf, sizeof(buf), "%lu\n", calls);
			if (write(fd, buf, (size_t)n) != n) {
				n = 0;
			}
			close(fd);
		}
	}
}
