/*
 * test_walk.c: unit tests of the traversal core (walk.c, walk_bfs.c).
 *
 * Every test builds its tree under a fresh mkdtemp() directory, which is the
 * working directory while it runs, and walks it with short relative roots
 * ("t").  The paths a walk returns are compared with the list the tree
 * builder recorded, never with another walk of the same code, and every
 * entry is checked against the kernel on the spot (at_fd/at_name name the
 * same inode as e->ino, the type agrees with lstat, depth agrees with the
 * path).
 *
 * The program is linked with -Wl,--wrap=openat,--wrap=syscall:
 *   - __wrap_openat injects EMFILE (as if RLIMIT_NOFILE were lower than the
 *     walker believes), ENAMETOOLONG, and runs a "swap" callback when a given
 *     name is opened, to replace a directory underneath the walker;
 *   - __wrap_syscall can blank d_type in getdents64 records (DT_UNKNOWN), as
 *     some filesystems do, or fail getdents64 on one directory with EIO.
 *
 * Run as root, the unreadable-directory test forks a child that drops to
 * uid/gid 65534 (nobody).  PROGRAM [PATTERN [SKIP]] runs a subset.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dir.h"
#include "prefetch.h"
#include "ring.h"
#include "walk.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <grp.h>
#include <limits.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "unit_util.h"

/* ---- fault injection (-Wl,--wrap=openat,--wrap=syscall) ------------------ */

struct hook {
	bool on;
	int fd_base;  /* lowest fd free when the walk started */
	int fd_limit; /* > 0: EMFILE if the new fd would be >= fd_base + fd_limit */
	int peak;     /* most fds above fd_base held at once (fds are lowest-free) */
	const char *fail_name; /* openat of this name fails ... */
	int fail_errno;        /* ... with this errno ... */
	int fail_times;        /* ... this many times (-1: always) */
	const char *trigger_name; /* openat of this name first runs trigger() once */
	void (*trigger)(void);
	unsigned long emfile;  /* EMFILE injected */
	unsigned long failed;  /* fail_name failures injected */
	bool dtype_unknown;    /* getdents64 reports DT_UNKNOWN for everything */
	const char *eio_dir;   /* getdents64 on the directory with this path ... */
	int eio_call;          /* ... fails with EIO on this call (1: the first) */
	int eio_calls;         /* calls seen on it so far */
};

static struct hook hook;

int __real_openat(int dirfd, const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (hook.on) {
		if (hook.trigger && hook.trigger_name && strcmp(path, hook.trigger_name) == 0) {
			void (*fn)(void) = hook.trigger;
			hook.trigger = NULL;
			fn();
		}
		if (hook.fail_name && hook.fail_times != 0 && strcmp(path, hook.fail_name) == 0) {
			if (hook.fail_times > 0) {
				hook.fail_times--;
			}
			hook.failed++;
			errno = hook.fail_errno;
			return -1;
		}
	}
	int fd = __real_openat(dirfd, path, flags, mode);
	if (hook.on && fd >= 0) {
		if (hook.fd_limit > 0 && fd >= hook.fd_base + hook.fd_limit) {
			close(fd);
			hook.emfile++;
			errno = EMFILE;
			return -1;
		}
		if (fd - hook.fd_base + 1 > hook.peak) {
			hook.peak = fd - hook.fd_base + 1;
		}
	}
	return fd;
}

long __real_syscall(long n, ...);
long __wrap_syscall(long n, ...);

long __wrap_syscall(long n, ...)
{
	va_list ap;
	va_start(ap, n);
	if (n != SYS_getdents64) {
		/* Nothing else in the core uses syscall(); pass six words on. */
		long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
		long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
		va_end(ap);
		return __real_syscall(n, a, b, c, d, e, f);
	}
	int fd = va_arg(ap, int);
	void *buf = va_arg(ap, void *);
	size_t size = va_arg(ap, size_t);
	va_end(ap);
	if (hook.eio_dir) {
		char link[64], target[PATH_MAX];
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		size_t want = strlen(hook.eio_dir);
		if (len >= (ssize_t)want + 1) {
			target[len] = '\0';
			if (strcmp(target + len - want, hook.eio_dir) == 0 && target[len - want - 1] == '/' &&
			    ++hook.eio_calls == hook.eio_call) {
				errno = EIO;
				return -1;
			}
		}
	}
	long r = __real_syscall(n, fd, buf, size);
	if (r > 0 && hook.dtype_unknown) {
		for (long off = 0; off < r;) {
			struct lf_dirent *d = (struct lf_dirent *)((char *)buf + off);
			d->d_type = DT_UNKNOWN;
			off += d->d_reclen;
		}
	}
	return r;
}

/*
 * While set, every getrusage() call counts one more voluntary context
 * switch: each of the I/O queue's jobs seems to have blocked on I/O, as on
 * a cold cache, so that all of its workers run.  Read by worker threads.
 */
static atomic_bool seem_blocked;
static atomic_long fake_switches;
/* Switches per call: 1, only directories seem cold; more than a job has
 * stats (LF_IOQ_STATS), its stats seem to wait one by one too (NFS). */
static atomic_long fake_step = 1;
int __real_getrusage(int who, struct rusage *ru);
int __wrap_getrusage(int who, struct rusage *ru);
int __wrap_getrusage(int who, struct rusage *ru)
{
	int r = __real_getrusage(who, ru);
	if (r == 0 && atomic_load(&seem_blocked)) {
		ru->ru_nvcsw += (atomic_fetch_add(&fake_switches, 1) + 1) * atomic_load(&fake_step);
	}
	return r;
}

/*
 * While set, a statx() of the name "slow" sleeps SLOW_STAT_NS first (a
 * cold disk, NFS), and says when it has begun.
 */
#define SLOW_STAT_NS 100000000
static atomic_bool slow_statx;
static atomic_bool in_slow_statx;
int __real_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf);
int __wrap_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf);
int __wrap_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf)
{
	if (atomic_load(&slow_statx) && strcmp(path, "slow") == 0) {
		atomic_store(&in_slow_statx, true);
		struct timespec pause = {0, SLOW_STAT_NS};
		nanosleep(&pause, NULL);
	}
	return __real_statx(dirfd, path, flags, mask, buf);
}

/* ---- fixtures ------------------------------------------------------------- */

static struct fdset fds_at_setup;
static struct lf_walk *open_walker; /* closed by teardown if a test failed */
static size_t entry_cap;            /* a walk returning more is a runaway (a missed loop) */

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));
	if (!s || scratch_enter(s) != 0) {
		free(s);
		return -1;
	}
	memset(&hook, 0, sizeof(hook));
	fdset_snapshot(&fds_at_setup);
	entry_cap = 200000;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;
	memset(&hook, 0, sizeof(hook));
	/* A failed assertion jumps out of a walk: do not let its fds skew
	 * the next test's fd accounting. */
	lf_walk_close(open_walker);
	open_walker = NULL;
	fdset_close_new(&fds_at_setup);
	int r = scratch_leave(s);
	free(s);
	return r;
}

/* ---- running a walk and recording what it returns -------------------------- */

struct rec {
	char *path;
	size_t pathlen, nameoff, loop_pathlen, root;
	int depth, error;
	enum lf_type type;
	enum lf_visit visit;
	uint64_t ino;
};

struct result {
	struct rec *v;
	size_t n, cap;
	struct lf_counters c;
	int last;      /* what the final lf_walk_next() returned */
	int close_ret; /* what lf_walk_close() returned */
	bool had_error;
	size_t errors; /* LF_VISIT_ERROR entries */
};

typedef void walk_cb(struct lf_walk *w, struct lf_entry *e, void *arg);

static void free_result(struct result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static enum lf_type type_of(const struct stat *sb)
{
	return lf_type_from_mode(sb->st_mode);
}

/*
 * Check one entry against the API's promises and the kernel: path and depth
 * agree, at_name is one component under at_fd, and at_fd/at_name is the
 * file whose inode and type the entry reports.
 */
static void verify_entry(const struct lf_walk_opts *o, const struct lf_entry *e, bool kernel)
{
	assert_non_null(e->path);
	if (strlen(e->path) != e->pathlen) {
		print_error("entry '%s' (visit %d, error %d, depth %d): pathlen %zu, strlen %zu\n", e->path, e->visit,
			    e->error, e->depth, e->pathlen, strlen(e->path));
		fail();
	}
	assert_true(e->root < o->nroots);
	assert_true(e->nameoff <= e->pathlen);
	assert_true(e->depth >= 0);
	assert_true(e->visit == LF_VISIT_PRE || e->visit == LF_VISIT_POST || e->visit == LF_VISIT_ERROR);
	assert_int_equal(e->error != 0, e->visit == LF_VISIT_ERROR);
	if (e->loop_pathlen) {
		assert_int_equal(e->error, ELOOP);
		assert_true(e->loop_pathlen < e->pathlen);
	}

	/* The path starts with its root, and depth counts the components after it. */
	const char *root = o->roots[e->root];
	size_t rootlen = strlen(root);
	if (e->depth == 0) {
		assert_string_equal(e->path, root);
	} else {
		assert_memory_equal(e->path, root, rootlen);
		bool slash = rootlen && root[rootlen - 1] == '/';
		assert_int_equal(e->depth, count_slashes(e->path + rootlen) + slash);
		assert_true(strstr(e->path + rootlen - slash, "//") == NULL);
		if (e->visit != LF_VISIT_ERROR) {
			assert_true(e->nameoff > 0);
			assert_int_equal(e->path[e->nameoff - 1], '/');
		}
	}
	if (e->visit == LF_VISIT_ERROR) {
		return;
	}
	if (e->depth == 0) {
		assert_int_equal(e->at_fd, AT_FDCWD);
		assert_ptr_equal(e->at_name, e->path);
	} else {
		assert_ptr_equal(e->at_name, e->path + e->nameoff);
		assert_null(strchr(e->at_name, '/'));
		assert_true(e->at_fd >= 0);
	}
	if (!kernel) {
		return;
	}

	bool follow = o->symlinks == LF_LOGICAL || (o->symlinks == LF_COMFOLLOW && e->depth == 0);
	struct stat sb, fsb;
	assert_int_equal(fstatat(e->at_fd, e->at_name, &sb, AT_SYMLINK_NOFOLLOW), 0);
	bool have_target = follow && fstatat(e->at_fd, e->at_name, &fsb, 0) == 0;
	if (e->depth == 0) {
		/* A root's inode is that of the file the walk treats it as. */
		assert_int_equal(e->ino, have_target ? fsb.st_ino : sb.st_ino);
	} else {
		assert_int_equal(e->ino, sb.st_ino); /* d_ino */
	}
	assert_int_equal(e->type, type_of(have_target ? &fsb : &sb));
	if (e->visit == LF_VISIT_POST) {
		assert_int_equal(e->type, LF_DIR);
	}
}

static void record(struct result *r, const struct lf_entry *e)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		assert_non_null(r->v);
	}
	struct rec *x = &r->v[r->n++];
	x->path = strdup(e->path);
	assert_non_null(x->path);
	x->pathlen = e->pathlen;
	x->nameoff = e->nameoff;
	x->loop_pathlen = e->loop_pathlen;
	x->root = e->root;
	x->depth = e->depth;
	x->error = e->error;
	x->type = e->type;
	x->visit = e->visit;
	x->ino = e->ino;
	r->errors += e->visit == LF_VISIT_ERROR;
}

/*
 * Walk to the end, recording every entry; @cb (if any) sees each entry
 * while it is current.  @kernel: check each entry against the kernel (off
 * when the tree changes during the walk).  Also checks that the walk leaks
 * no fd and that lf_walk_next() keeps returning 0 at the end.
 */
static void run_walk(const struct lf_walk_opts *o, struct result *r, walk_cb *cb, void *arg, bool kernel)
{
	memset(r, 0, sizeof(*r));
	int fd_before = lowest_free_fd();
	hook.fd_base = fd_before;
	hook.peak = 0;
	struct lf_walk *w = lf_walk_open(o);
	assert_non_null(w);
	open_walker = w;
	struct lf_entry *e;
	int ret;
	while ((ret = lf_walk_next(w, &e)) > 0) {
		verify_entry(o, e, kernel);
		record(r, e);
		if (r->n > entry_cap) {
			print_error("more than %zu entries: a runaway walk (last: %.200s)\n", entry_cap, e->path);
			fail();
		}
		if (cb) {
			cb(w, e, arg);
		}
	}
	r->last = ret;
	if (ret == 0) {
		assert_int_equal(lf_walk_next(w, &e), 0);
	}
	r->c = *lf_walk_counters(w);
	r->had_error = lf_walk_had_error(w);
	assert_int_equal(r->had_error, r->errors > 0);
	open_walker = NULL;
	r->close_ret = lf_walk_close(w);
	assert_int_equal(lowest_free_fd(), fd_before);
}

static void walk(const struct lf_walk_opts *o, struct result *r)
{
	run_walk(o, r, NULL, NULL, true);
	assert_int_equal(r->last, 0);
	assert_int_equal(r->close_ret, 0);
}

static struct lf_walk_opts opts_for(const char *const *roots, size_t nroots, enum lf_order order)
{
	struct lf_walk_opts o = LF_WALK_OPTS_INIT;
	o.roots = roots;
	o.nroots = nroots;
	o.order = order;
	return o;
}

static const char *order_name(enum lf_order order)
{
	static const char *const names[] = {"pre", "post", "both", "breadth"};
	return names[order];
}

/* Index of the first record of @path with @visit (0: any non-error), or -1. */
static ssize_t find_rec(const struct result *r, const char *path, enum lf_visit visit)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];
		if (strcmp(x->path, path) == 0 &&
		    (visit ? x->visit == visit : x->visit != LF_VISIT_ERROR)) {
			return (ssize_t)i;
		}
	}
	return -1;
}

static size_t count_errors(const struct result *r, const char *path, int err)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		n += r->v[i].visit == LF_VISIT_ERROR && r->v[i].error == err && strcmp(r->v[i].path, path) == 0;
	}
	return n;
}

/* "P path" for pre-order visits, "Q path" for post-order visits, "E<errno>
 * path" for errors, sorted: a walk's output as a set, order aside. */
static void visits_of(const struct result *r, struct strvec *out)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];
		if (x->visit == LF_VISIT_PRE) {
			sv_pushf(out, "P %s", x->path);
		} else if (x->visit == LF_VISIT_POST) {
			sv_pushf(out, "Q %s", x->path);
		} else {
			sv_pushf(out, "E%d %s", x->error, x->path);
		}
	}
	sv_sort(out);
}

/*
 * The visits a physical walk in @order must produce for the files in @made
 * (types from lstat), keeping depths in [mindepth, maxdepth] (maxdepth -1:
 * any) where a path's depth is its slash count minus @rootslashes.
 */
static void expected_visits(const struct strvec *made, enum lf_order order, int mindepth, int maxdepth,
			    int rootslashes, struct strvec *out)
{
	for (size_t i = 0; i < made->n; i++) {
		const char *p = made->v[i];
		int depth = count_slashes(p) - rootslashes;
		if (depth < 0 || depth < mindepth || (maxdepth >= 0 && depth > maxdepth)) {
			continue;
		}
		struct stat sb;
		assert_int_equal(lstat(p, &sb), 0);
		bool dir = S_ISDIR(sb.st_mode);
		if (!dir || order != LF_ORDER_POST) {
			sv_pushf(out, "P %s", p);
		}
		if (dir && (order == LF_ORDER_POST || order == LF_ORDER_BOTH)) {
			sv_pushf(out, "Q %s", p);
		}
	}
	sv_sort(out);
}

static void assert_visits(const struct result *r, const struct strvec *want)
{
	struct strvec got = {0};
	visits_of(r, &got);
	sv_assert_equal(&got, want);
	sv_free(&got);
}

/* Whether @dir (a record's path) is the parent of record @x. */
static bool is_parent(const char *dir, const struct rec *x)
{
	size_t len = strlen(dir);
	if (x->depth == 0 || strncmp(x->path, dir, len) != 0) {
		return false;
	}
	/* A root ending in '/' is joined without another one ("d/" + "x"). */
	return x->nameoff == len + 1 ? x->path[len] == '/' : x->nameoff == len && len && dir[len - 1] == '/';
}

/*
 * Check that the records are a valid depth-first pre-order: each entry's
 * parent is the previous directory or one of its ancestors still being
 * visited.  With @reverse, check the records backwards, which is how a
 * post-order looks: a directory after all of its descendants.
 */
static void check_dfs(const struct result *r, bool reverse)
{
	const struct rec **stack = calloc(r->n + 1, sizeof(*stack));
	assert_non_null(stack);
	size_t top = 0;
	for (size_t k = 0; k < r->n; k++) {
		const struct rec *x = &r->v[reverse ? r->n - 1 - k : k];
		if (x->visit == LF_VISIT_ERROR) {
			continue;
		}
		if (x->depth == 0) {
			top = 0;
		} else {
			while (top > 0 && !is_parent(stack[top - 1]->path, x)) {
				top--;
			}
			if (top == 0) {
				print_error("'%s' is not under the directory being visited\n", x->path);
				fail();
			}
		}
		if (x->type == LF_DIR) {
			stack[top++] = x;
		}
	}
	free(stack);
}

/* LF_ORDER_BOTH: every directory opens with a pre visit and closes with a
 * post visit, and everything in between is its contents. */
static void check_both(const struct result *r)
{
	const struct rec **stack = calloc(r->n + 1, sizeof(*stack));
	assert_non_null(stack);
	size_t top = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];
		if (x->visit == LF_VISIT_ERROR) {
			continue;
		}
		if (x->visit == LF_VISIT_POST) {
			assert_true(top > 0);
			assert_string_equal(stack[top - 1]->path, x->path);
			top--;
			continue;
		}
		if (x->depth == 0) {
			assert_int_equal(top, 0);
		} else if (top == 0 || !is_parent(stack[top - 1]->path, x)) {
			print_error("'%s' is not inside the open directory\n", x->path);
			fail();
		}
		if (x->type == LF_DIR) {
			stack[top++] = x;
		}
	}
	assert_int_equal(top, 0);
	free(stack);
}

static void check_order(const struct result *r, enum lf_order order)
{
	switch (order) {
	case LF_ORDER_PRE:
		check_dfs(r, false);
		break;
	case LF_ORDER_POST:
		for (size_t i = 0; i < r->n; i++) {
			if (r->v[i].type == LF_DIR && r->v[i].visit == LF_VISIT_PRE) {
				print_error("pre visit of '%s' in post order\n", r->v[i].path);
				fail();
			}
		}
		check_dfs(r, true);
		break;
	case LF_ORDER_BOTH:
		check_both(r);
		break;
	case LF_ORDER_BREADTH:
		for (size_t i = 1; i < r->n; i++) {
			const struct rec *x = &r->v[i], *p = &r->v[i - 1];
			if (x->root == p->root && x->visit != LF_VISIT_ERROR && p->visit != LF_VISIT_ERROR &&
			    x->depth < p->depth) {
				print_error("'%s' (depth %d) after '%s' (depth %d)\n", x->path, x->depth, p->path,
					    p->depth);
				fail();
			}
		}
		/* Each entry's parent was returned earlier. */
		for (size_t i = 0; i < r->n; i++) {
			const struct rec *x = &r->v[i];
			if (x->depth == 0 || x->visit == LF_VISIT_ERROR) {
				continue;
			}
			bool found = false;
			for (size_t j = i; j-- > 0 && !found;) {
				found = r->v[j].type == LF_DIR && r->v[j].visit == LF_VISIT_PRE &&
					r->v[j].depth == x->depth - 1 && is_parent(r->v[j].path, x);
			}
			if (!found) {
				print_error("'%s' before its directory\n", x->path);
				fail();
			}
		}
		break;
	}
}

/* Compare paths component by component, an ancestor first: the order of a
 * sorted depth-first pre-order walk. */
static int cmp_components(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned ca = *a == '/' ? 1 : (unsigned char)*a, cb = *b == '/' ? 1 : (unsigned char)*b;
		if (ca != cb || !ca) {
			return (int)ca - (int)cb;
		}
	}
}

static int cmp_components_sv(const void *a, const void *b)
{
	return cmp_components(*(char *const *)a, *(char *const *)b);
}

static int cmp_depth_components_sv(const void *a, const void *b)
{
	const char *pa = *(char *const *)a, *pb = *(char *const *)b;
	int da = count_slashes(pa), db = count_slashes(pb);
	return da != db ? da - db : cmp_components(pa, pb);
}

/* ---- trees ------------------------------------------------------------------ */

static const char *const basic_tree[] = {
	"t/",
	"t/a/",
	"t/a/f1",
	"t/a/f2",
	"t/a/sub/",
	"t/a/sub/g",
	"t/a/sub/deeper/",
	"t/a/sub/deeper/h",
	"t/b/",
	"t/b/empty/",
	"t/c.txt",
	"t/fifo|",
	"t/lnk -> a",
	"t/z/",
	"t/z/y",
	NULL,
};
enum { BASIC_DIRS = 7, BASIC_ENTRIES = 15 };

static const enum lf_order all_orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH, LF_ORDER_BREADTH};
#define NORDERS (sizeof(all_orders) / sizeof(all_orders[0]))

/* ---- tests: what is visited, and in which order ------------------------------ */

/* Every file exactly once, in a valid order, with the cheapest syscalls:
 * one stat (the root), one open and two getdents per directory. */
/*
 * Every entry of the basic tree once, in every order, sorted or not; with
 * @max_fds 3, directories get evicted and reopened, and the counters that
 * depend on it are not checked.
 */
static void every_entry_once(int max_fds)
{
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int sorted = 0; sorted < 2; sorted++) {
			enum lf_order order = all_orders[k];
			struct lf_walk_opts o = opts_for(roots, 1, order);
			o.flags = sorted ? LF_WALK_SORT : 0;
			o.max_fds = max_fds;
			struct result r;
			walk(&o, &r);
			print_message("order %s sorted %d max_fds %d: %zu entries\n", order_name(order), sorted,
				      max_fds, r.n);
			struct strvec want = {0};
			expected_visits(&made, order, 0, -1, 0, &want);
			assert_visits(&r, &want);
			assert_int_equal(r.n, want.n); /* no duplicates */
			check_order(&r, order);
			assert_int_equal(r.errors, 0);
			assert_int_equal(r.c.stats, 1);
			assert_int_equal(r.c.opens, BASIC_DIRS);
			assert_int_equal(r.c.unlinks, 0);
			if (!max_fds) {
				assert_int_equal(r.c.stats_follow, 0);
				assert_int_equal(r.c.fd_stats, 0);
				assert_int_equal(r.c.reopens, 0);
				assert_int_equal(r.c.closes, BASIC_DIRS);
				assert_int_equal(r.c.getdents, 2 * BASIC_DIRS);
			}
			/* The link is a link: not followed. */
			ssize_t i = find_rec(&r, "t/lnk", 0);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].type, LF_LNK);
			assert_int_equal(find_rec(&r, "t/lnk/f1", 0), -1);
			i = find_rec(&r, "t/fifo", 0);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].type, LF_FIFO);
			sv_free(&want);
			free_result(&r);
		}
	}
	sv_free(&made);
}

static void test_every_entry_once(void **state)
{
	(void)state;
	every_entry_once(0);
}

/* The same tree with max_fds = 3, so directories get evicted and reopened. */
static void test_every_entry_once_few_fds(void **state)
{
	(void)state;
	every_entry_once(3);
}

static void test_depth_limits(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	static const struct {
		int mindepth, maxdepth;
		unsigned opens; /* directories opened */
	} cases[] = {
		{0, 0, 0},  /* the root only, not even opened */
		{0, 1, 1},  /* the root's entries; directories at depth 1 not opened */
		{0, 2, 4},
		{1, 1, 1},
		{2, -1, BASIC_DIRS},
		{2, 2, 4},
		{3, -1, BASIC_DIRS},
		{4, -1, BASIC_DIRS}, /* deeper than anything: nothing */
		{2, 1, 1},           /* empty range */
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (size_t k = 0; k < NORDERS; k++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.mindepth = cases[c].mindepth;
			o.maxdepth = cases[c].maxdepth;
			struct result r;
			walk(&o, &r);
			struct strvec want = {0};
			expected_visits(&made, o.order, o.mindepth, o.maxdepth, 0, &want);
			assert_visits(&r, &want);
			if (o.mindepth == 0) {
				check_order(&r, o.order);
			}
			for (size_t i = 0; i < r.n; i++) {
				assert_true(r.v[i].depth >= o.mindepth);
				assert_true(o.maxdepth < 0 || r.v[i].depth <= o.maxdepth);
			}
			if (r.c.opens != cases[c].opens) {
				print_error("mindepth %d maxdepth %d order %s: %llu opens, want %u\n", o.mindepth,
					    o.maxdepth, order_name(o.order), (unsigned long long)r.c.opens,
					    cases[c].opens);
				fail();
			}
			assert_int_equal(r.c.stats, 1);
			sv_free(&want);
			free_result(&r);
		}
	}
	sv_free(&made);
}

/* maxdepth 0 on a directory root: just the root, whatever the order. */
static void test_maxdepth_zero(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	const char *roots[] = {"t", "t/c.txt"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 2, all_orders[k]);
		o.maxdepth = 0;
		struct result r;
		walk(&o, &r);
		size_t want = o.order == LF_ORDER_BOTH ? 3 : 2;
		assert_int_equal(r.n, want);
		assert_string_equal(r.v[0].path, "t");
		assert_int_equal(r.v[0].visit, o.order == LF_ORDER_POST ? LF_VISIT_POST : LF_VISIT_PRE);
		if (o.order == LF_ORDER_BOTH) {
			assert_int_equal(r.v[1].visit, LF_VISIT_POST);
		}
		assert_string_equal(r.v[want - 1].path, "t/c.txt");
		assert_int_equal(r.v[want - 1].visit, LF_VISIT_PRE);
		assert_int_equal(r.v[want - 1].type, LF_REG);
		assert_int_equal(r.c.opens, 0);
		assert_int_equal(r.c.getdents, 0);
		assert_int_equal(r.c.stats, 2);
		free_result(&r);
	}
}

static void test_post_and_both(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	const char *roots[] = {"t"};

	struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_POST);
	struct result r;
	walk(&o, &r);
	/* The root is last, and every directory follows everything below it. */
	assert_string_equal(r.v[r.n - 1].path, "t");
	assert_int_equal(r.v[r.n - 1].visit, LF_VISIT_POST);
	for (size_t i = 0; i < r.n; i++) {
		/* Nothing after it is inside it. */
		size_t len = strlen(r.v[i].path);
		for (size_t j = i + 1; j < r.n; j++) {
			assert_false(strncmp(r.v[j].path, r.v[i].path, len) == 0 && r.v[j].path[len] == '/');
		}
	}
	free_result(&r);

	o.order = LF_ORDER_BOTH;
	walk(&o, &r);
	for (size_t i = 0; i < r.n; i++) {
		if (r.v[i].type == LF_DIR && r.v[i].visit == LF_VISIT_PRE) {
			ssize_t post = find_rec(&r, r.v[i].path, LF_VISIT_POST);
			assert_true(post > (ssize_t)i);
			/* Exactly one of each. */
			assert_int_equal(find_rec(&r, r.v[i].path, LF_VISIT_PRE), (ssize_t)i);
		}
	}
	assert_int_equal(r.n, BASIC_ENTRIES + BASIC_DIRS);
	free_result(&r);
}

/* Names in strcmp() order within each directory (bytes compare unsigned),
 * the very sequence a sorted walk must produce, the same every time. */
static void test_sort(void **state)
{
	(void)state;
	struct strvec made = {0};
	static const char *const tree[] = {
		"t/",
		"t/m/",
		"t/m/zz",
		"t/m/Zz",
		"t/m/\xc3\xa9t\xc3\xa9",
		"t/m/_u",
		"t/m/a b",
		"t/B",
		"t/a/",
		"t/a.b",
		"t/a0",
		"t/-dash",
		"t/\x7f",
		"t/a/y",
		"t/a/x/",
		"t/a/x/2",
		"t/a/x/10",
		"t/a/x/1",
		"t/A",
		NULL,
	};
	mk_all(&made, tree);
	/* A directory whose records take several getdents64 calls. */
	mk(&made, "t/big/");
	for (int i = 0; i < 2500; i++) {
		mkf(&made, "t/big/%d-name-long-enough-to-need-several-buffers-%d", (i * 7919) % 2500, i);
	}
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		o.flags = LF_WALK_SORT;
		struct result r, r2;
		walk(&o, &r);
		walk(&o, &r2);
		assert_int_equal(r.n, r2.n);
		for (size_t i = 0; i < r.n; i++) {
			assert_string_equal(r.v[i].path, r2.v[i].path);
			assert_int_equal(r.v[i].visit, r2.v[i].visit);
		}
		assert_true(r.c.getdents > 2 * 4); /* big/ took more than one read */

		/* The exact sequence, derived from the list of files made. */
		struct strvec want = {0};
		for (size_t i = 0; i < made.n; i++) {
			sv_push(&want, made.v[i]);
		}
		if (o.order == LF_ORDER_BREADTH) {
			qsort(want.v, want.n, sizeof(*want.v), cmp_depth_components_sv);
		} else {
			qsort(want.v, want.n, sizeof(*want.v), cmp_components_sv);
		}
		if (o.order == LF_ORDER_POST) {
			/* A directory moves after its subtree; the files keep the
			 * pre-order sequence, so compare those. */
			struct strvec files = {0};
			for (size_t i = 0; i < want.n; i++) {
				struct stat sb;
				assert_int_equal(lstat(want.v[i], &sb), 0);
				if (!S_ISDIR(sb.st_mode)) {
					sv_push(&files, want.v[i]);
				}
			}
			sv_free(&want);
			want = files;
		}
		struct strvec got = {0};
		for (size_t i = 0; i < r.n; i++) {
			bool take = o.order == LF_ORDER_POST ? r.v[i].type != LF_DIR : r.v[i].visit == LF_VISIT_PRE;
			if (take) {
				sv_push(&got, r.v[i].path);
			}
		}
		assert_int_equal(got.n, want.n);
		for (size_t i = 0; i < want.n; i++) {
			if (strcmp(got.v[i], want.v[i]) != 0) {
				print_error("order %s, #%zu: got '%s', want '%s'\n", order_name(o.order), i, got.v[i],
					    want.v[i]);
				fail();
			}
		}
		sv_free(&got);
		sv_free(&want);
		free_result(&r);
		free_result(&r2);
	}
	sv_free(&made);
}

struct prune_arg {
	const char *dir;  /* prune this directory */
	bool files;       /* and call prune on every non-directory too */
};

static void prune_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	const struct prune_arg *p = arg;
	if ((p->dir && strcmp(e->path, p->dir) == 0 && e->visit == LF_VISIT_PRE) ||
	    (p->files && e->type != LF_DIR)) {
		lf_walk_prune(w);
	}
}

static void test_prune(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct prune_arg arg = {"t/a", true};
		struct result r;
		run_walk(&o, &r, prune_cb, &arg, true);
		assert_int_equal(r.last, 0);

		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		if (o.order == LF_ORDER_POST) {
			/* No pre-order visit: nothing to prune. */
			assert_visits(&r, &want);
			assert_int_equal(r.c.opens, BASIC_DIRS);
		} else {
			/* t/a is returned (and, in BOTH, post-visited), its contents not. */
			assert_true(find_rec(&r, "t/a", LF_VISIT_PRE) >= 0);
			assert_int_equal(find_rec(&r, "t/a", LF_VISIT_POST) >= 0, o.order == LF_ORDER_BOTH);
			for (size_t i = 0; i < r.n; i++) {
				assert_false(strncmp(r.v[i].path, "t/a/", 4) == 0);
			}
			/* Pruning the files changed nothing else. */
			struct strvec w2 = {0};
			for (size_t i = 0; i < want.n; i++) {
				if (strncmp(want.v[i] + 2, "t/a/", 4) != 0) {
					sv_push(&w2, want.v[i]);
				}
			}
			assert_visits(&r, &w2);
			sv_free(&w2);
			/* t/a, t/a/sub and t/a/sub/deeper were never opened. */
			assert_int_equal(r.c.opens, BASIC_DIRS - 3);
			check_order(&r, o.order);
		}
		sv_free(&want);
		free_result(&r);
	}
	sv_free(&made);
}

static void test_multiple_roots(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	const char *roots[] = {"t/a", "t/nope", "t/c.txt", "", "t/b", "t/lnk"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 6, all_orders[k]);
		struct result r;
		walk(&o, &r);
		/*
		 * Roots in the order given, each entry tagged with its root;
		 * breadth-first, the roots are the first level of one walk
		 * (bfs's order), and depth never goes down.
		 */
		size_t last_root = 0;
		int last_depth = 0;
		for (size_t i = 0; i < r.n; i++) {
			if (all_orders[k] == LF_ORDER_BREADTH) {
				assert_true(r.v[i].depth >= last_depth);
				last_depth = r.v[i].depth;
				if (r.v[i].depth == 0) {
					assert_true(r.v[i].root >= last_root);
					last_root = r.v[i].root;
				}
			} else {
				assert_true(r.v[i].root >= last_root);
				last_root = r.v[i].root;
			}
			assert_memory_equal(r.v[i].path, roots[r.v[i].root], strlen(roots[r.v[i].root]));
		}
		/* Nonexistent roots are errors, and the walk goes on. */
		assert_int_equal(r.errors, 2);
		assert_int_equal(count_errors(&r, "t/nope", ENOENT), 1);
		assert_int_equal(count_errors(&r, "", ENOENT), 1);
		assert_true(r.had_error);
		ssize_t i = find_rec(&r, "t/nope", LF_VISIT_ERROR);
		assert_int_equal(r.v[i].root, 1);
		assert_int_equal(r.v[i].depth, 0);
		assert_true(find_rec(&r, "t/a/sub/deeper/h", 0) >= 0);
		assert_true(find_rec(&r, "t/b/empty", 0) >= 0);
		i = find_rec(&r, "t/c.txt", 0);
		assert_true(i >= 0);
		assert_int_equal(r.v[i].root, 2);
		assert_int_equal(r.v[i].type, LF_REG);
		/* A root symlink under LF_PHYSICAL is a link, not a directory. */
		i = find_rec(&r, "t/lnk", 0);
		assert_int_equal(r.v[i].type, LF_LNK);
		if (all_orders[k] != LF_ORDER_BREADTH) {
			assert_int_equal(r.v[r.n - 1].root, 5);
		}
		assert_int_equal(r.c.opens, 5); /* a, sub, deeper, b, empty */
		assert_int_equal(r.c.stats, 5); /* one per root, "" needs none */
		free_result(&r);
	}
}

/*
 * lf_walk_dirs_left: the directories seen and not read yet, in every order;
 * 0 at the end.  t holds d0..d3 (d1 with d1/x/), and two files.
 */
/*
 * LF_WALK_SORT sorts the roots too (bfs's -s); entries still give their
 * root's index in opts.roots.  Breadth-first with @max_fds 3 and more
 * root directories than fds, the roots are evicted and reopened by path,
 * and the walk is the same.
 */
static void test_sorted_roots(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	const char *roots[] = {"t/z", "t/a/sub", "t/c.txt", "t/b", "t/a", "t/b/empty"};
	const char *sorted[] = {"t/a", "t/a/sub", "t/b", "t/b/empty", "t/c.txt", "t/z"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct result want = {0};
		for (int max_fds = 0; max_fds <= 3; max_fds += 3) {
			struct lf_walk_opts o = opts_for(roots, 6, all_orders[k]);
			o.flags |= LF_WALK_SORT;
			o.max_fds = max_fds;
			struct result r;
			walk(&o, &r);
			size_t next = 0;
			for (size_t i = 0; i < r.n; i++) {
				const char *root = roots[r.v[i].root];
				assert_memory_equal(r.v[i].path, root, strlen(root));
				/* Each root's first visit, whichever the order. */
				if (r.v[i].depth == 0 && (next == 0 || strcmp(r.v[i].path, sorted[next - 1]) != 0)) {
					assert_true(next < 6);
					assert_string_equal(r.v[i].path, sorted[next++]);
				}
			}
			assert_int_equal(next, 6);
			if (!max_fds) {
				want = r;
				continue;
			}
			assert_int_equal(r.n, want.n);
			for (size_t i = 0; i < r.n; i++) {
				assert_string_equal(r.v[i].path, want.v[i].path);
				assert_int_equal(r.v[i].root, want.v[i].root);
			}
			if (all_orders[k] == LF_ORDER_BREADTH) {
				assert_true(r.c.reopens > 0);
			}
			free_result(&r);
		}
		free_result(&want);
	}
}

static void test_dirs_left(void **state)
{
	(void)state;
	static const char *const tree[] = {"t/", "t/d0/", "t/d1/", "t/d1/x/", "t/d2/", "t/d3/", "t/f", "t/g", NULL};
	mk_all(NULL, tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct lf_walk *w = lf_walk_open(&o);
		assert_non_null(w);
		struct lf_entry *e;
		size_t most = 0, n = 0;
		while (lf_walk_next(w, &e) > 0) {
			size_t left = lf_walk_dirs_left(w);
			most = left > most ? left : most;
			n++;
		}
		assert_int_equal(n, all_orders[k] == LF_ORDER_BOTH ? 14 : 8);
		/* After t is read its four directories wait (d1's x later). */
		assert_true(most >= 3 && most <= 5);
		assert_int_equal(lf_walk_dirs_left(w), 0);
		lf_walk_close(w);
	}
}

/* "d/" joins as "d/x", and "." as "./x". */
static void test_root_trailing_slash(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	for (size_t k = 0; k < NORDERS; k++) {
		const char *roots[] = {"t/a/", "t//b/"};
		struct lf_walk_opts o = opts_for(roots, 2, all_orders[k]);
		o.max_fds = 3;
		struct result r;
		walk(&o, &r);
		assert_true(find_rec(&r, "t/a/f1", 0) >= 0);
		assert_true(find_rec(&r, "t/a/sub/deeper/h", 0) >= 0);
		assert_true(find_rec(&r, "t//b/empty", 0) >= 0);
		assert_true(find_rec(&r, "t/a/", 0) >= 0);
		/* 7 entries under t/a/ (3 directories), 2 under t//b/ (2). */
		assert_int_equal(r.n, (o.order == LF_ORDER_BOTH ? 3 + 2 : 0) + 7 + 2);
		free_result(&r);
	}
	/* "lnk/" names the directory the link points to, even under -P. */
	for (size_t k = 0; k < NORDERS; k++) {
		const char *roots[] = {"t/lnk/"};
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct result r;
		walk(&o, &r);
		assert_int_equal(r.v[find_rec(&r, "t/lnk/", 0)].type, LF_DIR);
		assert_true(find_rec(&r, "t/lnk/sub/deeper/h", 0) >= 0);
		free_result(&r);
	}
	assert_int_equal(chdir("t"), 0);
	for (size_t k = 0; k < NORDERS; k++) {
		const char *roots[] = {"."};
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct result r;
		walk(&o, &r);
		assert_true(find_rec(&r, "./a/sub/g", 0) >= 0);
		assert_true(find_rec(&r, "./c.txt", 0) >= 0);
		assert_true(find_rec(&r, ".", 0) >= 0);
		free_result(&r);
	}
}

static void test_open_errors(void **state)
{
	(void)state;
	errno = 0;
	assert_null(lf_walk_open(NULL));
	assert_int_equal(errno, EINVAL);
	struct lf_walk_opts o = LF_WALK_OPTS_INIT;
	o.nroots = 1;
	errno = 0;
	assert_null(lf_walk_open(&o));
	assert_int_equal(errno, EINVAL);
	const char *roots[] = {"."};
	o = opts_for(roots, 1, (enum lf_order)42);
	errno = 0;
	assert_null(lf_walk_open(&o));
	assert_int_equal(errno, EINVAL);
	o = opts_for(roots, 1, LF_ORDER_PRE);
	o.symlinks = (enum lf_symlinks)42;
	errno = 0;
	assert_null(lf_walk_open(&o));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(lf_walk_close(NULL), 0);

	/* No roots: an empty walk. */
	for (size_t k = 0; k < NORDERS; k++) {
		o = opts_for(NULL, 0, all_orders[k]);
		struct result r;
		walk(&o, &r);
		assert_int_equal(r.n, 0);
		free_result(&r);
	}
}

/* ---- tests: symbolic links ---------------------------------------------------- */

static const char *const links_tree[] = {
	"t/",
	"t/real/",
	"t/real/f",
	"t/real/sub/",
	"t/real/sub/back -> ..",  /* t/real: a loop under -L */
	"t/real/top -> ..",       /* t: a loop to the root */
	"t/lnk -> real",
	"t/broken -> nowhere",
	"t/flnk -> real/f",
	NULL,
};

static void test_physical(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, links_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct result r;
		walk(&o, &r);
		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		assert_visits(&r, &want);
		assert_int_equal(r.errors, 0);
		assert_int_equal(r.c.opens, 3);
		assert_int_equal(r.c.stats + r.c.stats_follow + r.c.fd_stats, 1);
		sv_free(&want);
		free_result(&r);
	}
	sv_free(&made);
}

static void test_comfollow(void **state)
{
	(void)state;
	mk_all(NULL, links_tree);
	for (size_t k = 0; k < NORDERS; k++) {
		const char *roots[] = {"t/lnk", "t"};
		struct lf_walk_opts o = opts_for(roots, 2, all_orders[k]);
		o.symlinks = LF_COMFOLLOW;
		struct result r;
		walk(&o, &r);
		/* The root link is followed ... */
		ssize_t i = find_rec(&r, "t/lnk", 0);
		assert_true(i >= 0);
		assert_int_equal(r.v[i].root, 0);
		assert_int_equal(r.v[i].type, LF_DIR);
		assert_true(find_rec(&r, "t/lnk/f", 0) >= 0);
		assert_true(find_rec(&r, "t/lnk/sub/back", 0) >= 0);
		/* ... links below the roots are not. */
		i = find_rec(&r, "t/lnk/sub/back", 0);
		assert_int_equal(r.v[i].type, LF_LNK);
		assert_int_equal(find_rec(&r, "t/lnk/sub/back/sub", 0), -1);
		assert_int_equal(find_rec(&r, "t/lnk/top/real", 0), -1);
		for (size_t j = 0; j < r.n; j++) {
			if (r.v[j].root == 1 && strcmp(r.v[j].path, "t/lnk") == 0) {
				assert_int_equal(r.v[j].type, LF_LNK);
			}
		}
		assert_int_equal(r.v[find_rec(&r, "t/lnk/f", 0)].root, 0);
		assert_int_equal(r.errors, 0);
		/* Two roots, each stat'ed once, following. */
		assert_int_equal(r.c.stats_follow, 2);
		assert_int_equal(r.c.stats, 0);
		assert_int_equal(r.c.opens, 2 + 3);
		free_result(&r);
	}
}

/* For each ELOOP entry, the prefix loop_pathlen names the ancestor it is the
 * same directory as; no directory that was read is the same as one of its
 * ancestors in the walk (its root or a directory below). */
static void check_loops(const struct result *r, const char *const *roots)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];
		struct stat sb, asb;
		if (x->visit == LF_VISIT_ERROR && x->error == ELOOP) {
			assert_true(x->loop_pathlen >= strlen(roots[x->root]));
			assert_int_equal(x->path[x->loop_pathlen], '/');
			char *anc = strndup(x->path, x->loop_pathlen);
			assert_int_equal(stat(x->path, &sb), 0);
			assert_int_equal(stat(anc, &asb), 0);
			assert_int_equal(sb.st_ino, asb.st_ino);
			assert_int_equal(sb.st_dev, asb.st_dev);
			free(anc);
		} else if (x->visit != LF_VISIT_ERROR && x->type == LF_DIR) {
			assert_int_equal(stat(x->path, &sb), 0);
			for (size_t len = strlen(roots[x->root]); len < x->pathlen; len++) {
				if (x->path[len] != '/') {
					continue;
				}
				char *anc = strndup(x->path, len);
				if (stat(anc, &asb) == 0 && sb.st_ino == asb.st_ino && sb.st_dev == asb.st_dev) {
					print_error("'%s' was read, but it is its ancestor '%s'\n", x->path, anc);
					fail();
				}
				free(anc);
			}
		}
	}
}

static void test_logical(void **state)
{
	(void)state;
	entry_cap = 1000;
	mk_all(NULL, links_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int few = 0; few < 2; few++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.symlinks = LF_LOGICAL;
			o.max_fds = few ? 3 : 0;
			struct result r;
			walk(&o, &r);
			/* Links to directories are followed ... */
			ssize_t i = find_rec(&r, "t/lnk", 0);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].type, LF_DIR);
			assert_true(find_rec(&r, "t/lnk/f", 0) >= 0);
			assert_true(find_rec(&r, "t/lnk/sub", 0) >= 0);
			i = find_rec(&r, "t/flnk", 0);
			assert_int_equal(r.v[i].type, LF_REG);
			/* ... a broken link is a link, not an error ... */
			i = find_rec(&r, "t/broken", 0);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].type, LF_LNK);
			assert_int_equal(r.v[i].visit, LF_VISIT_PRE);
			assert_int_equal(count_errors(&r, "t/broken", ENOENT), 0);
			/* ... and loops are errors naming the ancestor. */
			static const struct {
				const char *path;
				size_t loop_pathlen;
			} loops[] = {
				{"t/real/sub/back", 6}, /* t/real */
				{"t/real/top", 1},      /* t */
				{"t/lnk/sub/back", 5},  /* t/lnk */
				{"t/lnk/top", 1},
			};
			for (size_t j = 0; j < sizeof(loops) / sizeof(loops[0]); j++) {
				i = find_rec(&r, loops[j].path, LF_VISIT_ERROR);
				if (i < 0) {
					print_error("order %s: no loop reported for %s\n", order_name(o.order), loops[j].path);
					fail();
				}
				assert_int_equal(r.v[i].error, ELOOP);
				assert_int_equal(r.v[i].loop_pathlen, loops[j].loop_pathlen);
				assert_int_equal(find_rec(&r, loops[j].path, 0), -1);
			}
			assert_int_equal(r.errors, 4);
			for (size_t j = 0; j < r.n; j++) {
				assert_null(strstr(r.v[j].path, "/back/"));
				assert_null(strstr(r.v[j].path, "/top/"));
			}
			check_loops(&r, o.roots);
			check_order(&r, o.order);
			/* Nine things reachable, each once. */
			size_t visits = 0;
			for (size_t j = 0; j < r.n; j++) {
				visits += r.v[j].visit == LF_VISIT_PRE || (o.order == LF_ORDER_POST && r.v[j].visit == LF_VISIT_POST);
			}
			assert_int_equal(visits, 9);
			free_result(&r);
		}
	}
}

/* The post-order visit of a directory reached through a link, under
 * LF_LOGICAL, describes the same directory as its pre-order visit. */
static void post_stat_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	(void)w;
	int *checked = arg;
	if (strcmp(e->path, "t/lnk") != 0 || e->visit == LF_VISIT_ERROR) {
		return;
	}
	struct stat sb;
	assert_int_equal(stat("t/lnk", &sb), 0);
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
	assert_non_null(st);
	if (!S_ISDIR(st->mode) || st->ino != sb.st_ino) {
		print_error("%s visit of t/lnk: LF_FOLLOW_WALK gives mode %o ino %llu, want a directory, ino %llu\n",
			    e->visit == LF_VISIT_POST ? "post" : "pre", st->mode, (unsigned long long)st->ino,
			    (unsigned long long)sb.st_ino);
		fail();
	}
	st = lf_entry_stat(e, LF_FOLLOW);
	assert_non_null(st);
	assert_true(S_ISDIR(st->mode));
	assert_int_equal(st->ino, sb.st_ino);
	st = lf_entry_stat(e, LF_NOFOLLOW);
	assert_non_null(st);
	assert_true(S_ISLNK(st->mode));
	(*checked)++;
}

static void test_logical_post_visit_stat(void **state)
{
	(void)state;
	static const char *const tree[] = {"t/", "t/real/", "t/real/f", "t/lnk -> real", NULL};
	mk_all(NULL, tree);
	const char *roots[] = {"t"};
	enum lf_order orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH};
	for (size_t k = 0; k < 3; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, orders[k]);
		o.symlinks = LF_LOGICAL;
		int checked = 0;
		struct result r;
		run_walk(&o, &r, post_stat_cb, &checked, true);
		assert_int_equal(checked, orders[k] == LF_ORDER_BOTH ? 2 : 1);
		free_result(&r);
	}
}

/* A loop deeper than the loop-detection hash's first size (256 frames). */
static void test_logical_deep_loop(void **state)
{
	(void)state;
	mk(NULL, "t/");
	mk_chain(NULL, "t", 300, "c%03d", 1);
	/* In the deepest directory, a link back up to t/c000. */
	char target[3 * 300 + 1] = "";
	for (int i = 0; i < 299; i++) {
		strcat(target, "../");
	}
	target[strlen(target) - 1] = '\0';
	char path[8 + 300 * 5 + 8] = "t";
	for (int i = 0; i < 300; i++) {
		sprintf(path + strlen(path), "/c%03d", i);
	}
	strcat(path, "/up");
	assert_int_equal(symlink(target, path), 0);
	entry_cap = 5000;
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int few = 0; few < 2; few++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.symlinks = LF_LOGICAL;
			o.max_fds = few ? 3 : 0;
			struct result r;
			walk(&o, &r);
			assert_int_equal(r.errors, 1);
			ssize_t i = find_rec(&r, path, LF_VISIT_ERROR);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].error, ELOOP);
			assert_int_equal(r.v[i].loop_pathlen, strlen("t/c000"));
			/* 301 directories, 300 files, the loop. */
			assert_int_equal(r.n, (o.order == LF_ORDER_BOTH ? 301 : 0) + 301 + 300 + 1);
			free_result(&r);
		}
	}
}

/* ---- tests: laziness ---------------------------------------------------------- */

struct stat_cache_arg {
	int checked;
};

static void stat_cache_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	struct stat_cache_arg *a = arg;
	const struct lf_counters *c = lf_walk_counters(w);
	uint64_t s0 = c->stats, f0 = c->stats_follow;
	struct stat sb;

	if (strcmp(e->path, "t/c.txt") == 0) {
		const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
		assert_non_null(st);
		assert_int_equal(c->stats, s0 + 1);
		assert_int_equal(lstat("t/c.txt", &sb), 0);
		assert_int_equal(st->ino, sb.st_ino);
		assert_int_equal(st->size, sb.st_size);
		assert_int_equal(st->mode, sb.st_mode);
		const struct lf_stat *st2 = lf_entry_stat(e, LF_NOFOLLOW);
		assert_ptr_equal(st2, st);
		/* A regular file is its own target: no second stat either way. */
		assert_ptr_equal(lf_entry_stat(e, LF_FOLLOW), st);
		assert_ptr_equal(lf_entry_stat(e, LF_FOLLOW_WALK), st);
		assert_int_equal(c->stats, s0 + 1);
		assert_int_equal(c->stats_follow, f0);
		a->checked++;
	} else if (strcmp(e->path, "t/lnk") == 0) {
		const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
		assert_non_null(st);
		assert_true(S_ISLNK(st->mode));
		const struct lf_stat *fst = lf_entry_stat(e, LF_FOLLOW);
		assert_non_null(fst);
		assert_true(S_ISDIR(fst->mode));
		assert_int_equal(stat("t/lnk", &sb), 0);
		assert_int_equal(fst->ino, sb.st_ino);
		assert_int_equal(c->stats, s0 + 1);
		assert_int_equal(c->stats_follow, f0 + 1);
		/* Cached, both; LF_FOLLOW_WALK under LF_PHYSICAL is the link. */
		assert_ptr_equal(lf_entry_stat(e, LF_NOFOLLOW), st);
		assert_ptr_equal(lf_entry_stat(e, LF_FOLLOW), fst);
		assert_ptr_equal(lf_entry_stat(e, LF_FOLLOW_WALK), st);
		assert_int_equal(c->stats, s0 + 1);
		assert_int_equal(c->stats_follow, f0 + 1);
		a->checked++;
	} else if (strcmp(e->path, "t/broken") == 0) {
		errno = 0;
		assert_null(lf_entry_stat(e, LF_FOLLOW));
		assert_int_equal(errno, ENOENT);
		errno = 0;
		assert_null(lf_entry_stat(e, LF_FOLLOW));
		assert_int_equal(errno, ENOENT); /* the failure is cached too */
		assert_int_equal(c->stats_follow, f0 + 1);
		a->checked++;
	} else if (strcmp(e->path, "t/a") == 0) {
		/* Pre and post visits are different entries: each stats afresh. */
		const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
		assert_non_null(st);
		assert_true(S_ISDIR(st->mode));
		assert_int_equal(lstat("t/a", &sb), 0);
		assert_int_equal(st->ino, sb.st_ino);
		assert_int_equal(st->nlink, sb.st_nlink);
		lf_entry_stat(e, LF_FOLLOW_WALK);
		lf_entry_stat(e, LF_FOLLOW);
		assert_int_equal(c->stats + c->stats_follow, s0 + f0 + 1);
		a->checked++;
	} else if (strcmp(e->path, "t") == 0) {
		/* The root was stat'ed to start the walk: that is reused. */
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
		assert_non_null(st);
		assert_true(S_ISDIR(st->mode));
		if (e->visit == LF_VISIT_PRE) {
			assert_int_equal(c->stats, s0);
		}
		a->checked++;
	}
}

static void test_stat_cache(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	mk(NULL, "t/broken -> nowhere");
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int few = 0; few < 2; few++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.max_fds = few ? 3 : 0;
			struct stat_cache_arg arg = {0};
			struct result r;
			run_walk(&o, &r, stat_cache_cb, &arg, true);
			assert_int_equal(r.last, 0);
			assert_int_equal(arg.checked, o.order == LF_ORDER_BOTH ? 7 : 5);
			free_result(&r);
		}
	}
}

/* ~10,000 entries and not one stat beyond the root's: d_type and d_ino
 * answer everything a listing needs. */
static void test_no_stats_when_listing(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk(&made, "t/");
	for (int d = 0; d < 100; d++) {
		mkf(&made, "t/d%03d/", d);
		for (int f = 0; f < 99; f++) {
			mkf(&made, "t/d%03d/f%02d", d, f);
		}
	}
	assert_int_equal(made.n, 10001);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int sorted = 0; sorted < 2; sorted++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.flags = sorted ? LF_WALK_SORT : 0;
			struct result r;
			walk(&o, &r);
			struct strvec want = {0};
			expected_visits(&made, o.order, 0, -1, 0, &want);
			assert_visits(&r, &want);
			sv_free(&want);
			assert_int_equal(r.c.stats, 1); /* the root */
			assert_int_equal(r.c.stats_follow, 0);
			assert_int_equal(r.c.fd_stats, 0);
			assert_int_equal(r.c.opens, 101);
			assert_int_equal(r.c.reopens, 0);
			assert_int_equal(r.c.getdents, 2 * 101);
			free_result(&r);
		}
	}

	/* -H: the root is stat'ed following, nothing else. */
	struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
	o.symlinks = LF_COMFOLLOW;
	struct result r;
	walk(&o, &r);
	assert_int_equal(r.n, 10001);
	assert_int_equal(r.c.stats, 0);
	assert_int_equal(r.c.stats_follow, 1);
	assert_int_equal(r.c.fd_stats, 0);
	free_result(&r);

	/* -L: loop detection needs each directory's identity, files need nothing. */
	o.symlinks = LF_LOGICAL;
	for (size_t k = 0; k < NORDERS; k++) {
		o.order = all_orders[k];
		walk(&o, &r);
		assert_int_equal(r.c.stats_follow, 1);
		assert_int_equal(r.c.stats, 100);
		assert_int_equal(r.c.fd_stats, 0);
		free_result(&r);
	}

	/* -xdev: each directory's device, files nothing. */
	o.symlinks = LF_PHYSICAL;
	o.flags = LF_WALK_XDEV;
	for (size_t k = 0; k < NORDERS; k++) {
		o.order = all_orders[k];
		walk(&o, &r);
		assert_int_equal(r.n, o.order == LF_ORDER_BOTH ? 10001 + 101 : 10001);
		assert_int_equal(r.c.stats, 1 + 100);
		assert_int_equal(r.c.stats_follow, 0);
		free_result(&r);
	}
	sv_free(&made);
}

/* DT_UNKNOWN (some filesystems): one stat per entry to learn its type, and
 * the answers are right. */
static void test_dtype_unknown(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	hook.dtype_unknown = true;
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct result r;
		walk(&o, &r);
		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		assert_visits(&r, &want);
		sv_free(&want);
		assert_int_equal(r.c.stats, BASIC_ENTRIES); /* the root and each entry once */
		assert_int_equal(r.c.stats_follow, 0);
		free_result(&r);
	}
	sv_free(&made);

	/* Under -L too, including loops and a broken link. */
	entry_cap = 1000;
	assert_int_equal(system("rm -rf t"), 0);
	mk_all(NULL, links_tree);
	const char *roots2[] = {"t/real", "t/lnk", "t/broken"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots2, 3, all_orders[k]);
		o.symlinks = LF_LOGICAL;
		struct result r;
		walk(&o, &r);
		check_loops(&r, o.roots);
		assert_int_equal(r.v[find_rec(&r, "t/broken", 0)].type, LF_LNK);
		assert_int_equal(r.v[find_rec(&r, "t/lnk/sub", 0)].type, LF_DIR);
		assert_true(find_rec(&r, "t/real/sub/back", LF_VISIT_ERROR) >= 0);
		free_result(&r);
	}
	hook.dtype_unknown = false;
}

static void test_xdev(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		o.flags = LF_WALK_XDEV;
		struct result r;
		walk(&o, &r);
		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		assert_visits(&r, &want);
		sv_free(&want);
		assert_int_equal(r.c.stats, BASIC_DIRS); /* the root, then each directory below */
		free_result(&r);

		/* Directories at maxdepth are not read, so not stat'ed either. */
		o.maxdepth = 1;
		walk(&o, &r);
		assert_int_equal(r.c.stats, 1);
		free_result(&r);
	}
	sv_free(&made);

	/* A real mount point, if there is one: / and /proc. */
	struct stat rsb, psb;
	if (stat("/", &rsb) != 0 || stat("/proc", &psb) != 0 || rsb.st_dev == psb.st_dev ||
	    access("/proc/self", F_OK) != 0 || access("/etc/passwd", F_OK) != 0) {
		print_message("no /proc mount point to cross, skipping that part\n");
		return;
	}
	for (int xdev = 0; xdev < 2; xdev++) {
		const char *sroots[] = {"/"};
		struct lf_walk_opts o = opts_for(sroots, 1, LF_ORDER_PRE);
		o.flags = xdev ? LF_WALK_XDEV : 0;
		o.maxdepth = 2;
		struct result r;
		run_walk(&o, &r, NULL, NULL, false); /* other processes change / meanwhile */
		ssize_t i = find_rec(&r, "/proc", 0);
		assert_true(i >= 0);
		assert_int_equal(r.v[i].depth, 1);
		assert_true(find_rec(&r, "/etc/passwd", 0) >= 0);
		assert_int_equal(find_rec(&r, "/proc/self", 0) >= 0, !xdev);
		for (size_t j = 0; xdev && j < r.n; j++) {
			assert_false(strncmp(r.v[j].path, "/proc/", 6) == 0);
		}
		free_result(&r);
	}
}

/* ---- tests: bounded fds, depth ------------------------------------------------ */

/* A 300-level chain with a file at each level, and a wide part. */
static void make_deep_and_wide(struct strvec *made)
{
	mk(made, "t/");
	mk(made, "t/chain/");
	mk_chain(made, "t/chain", 300, "c%03d", 1);
	mk(made, "t/wide/");
	for (int i = 0; i < 30; i++) {
		mkf(made, "t/wide/w%02d/", i);
		for (int j = 0; j < 5; j++) {
			mkf(made, "t/wide/w%02d/x%d", i, j);
		}
		mkf(made, "t/wide/w%02d/s/", i);
		mkf(made, "t/wide/w%02d/s/g", i);
	}
	mk(made, "t/zlast");
}

static void test_few_fds_deep_tree(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	const char *roots[] = {"t"};
	size_t ndirs = 0;
	for (size_t i = 0; i < made.n; i++) {
		struct stat sb;
		assert_int_equal(lstat(made.v[i], &sb), 0);
		ndirs += S_ISDIR(sb.st_mode);
	}
	for (size_t k = 0; k < NORDERS; k++) {
		for (int sorted = 0; sorted < 2; sorted++) {
			struct strvec want = {0};
			expected_visits(&made, all_orders[k], 0, -1, 0, &want);
			for (int max_fds = 0; max_fds <= 5; max_fds += max_fds ? 1 : 3) {
				struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
				o.flags = sorted ? LF_WALK_SORT : 0;
				o.max_fds = max_fds;
				hook.on = true;
				struct result r;
				walk(&o, &r);
				hook.on = false;
				print_message("order %-7s sorted %d max_fds %d: opens %llu reopens %llu fd_stats %llu "
					      "peak fds %d\n",
					      order_name(o.order), sorted, max_fds, (unsigned long long)r.c.opens,
					      (unsigned long long)r.c.reopens, (unsigned long long)r.c.fd_stats,
					      hook.peak);
				assert_visits(&r, &want);
				check_order(&r, o.order);
				assert_int_equal(r.errors, 0);
				assert_int_equal(r.c.opens, ndirs);
				assert_int_equal(r.c.stats, 1);
				if (max_fds == 0) {
					assert_int_equal(r.c.reopens, 0);
					assert_int_equal(r.c.fd_stats, 0);
				} else {
					/* The budget holds, give or take the fds a reopen
					 * needs for a moment. */
					assert_true(hook.peak <= max_fds + 2);
					if (o.order == LF_ORDER_POST || o.order == LF_ORDER_BOTH) {
						assert_true(r.c.reopens > 0);
					}
					/* Reopening is linear in the depth, not quadratic. */
					assert_true(r.c.reopens <= 4 * ndirs);
				}
				free_result(&r);
			}
			sv_free(&want);
		}
	}
	sv_free(&made);
}

/*
 * Directories many getdents64 chunks wide, with subdirectories among their
 * names at two levels, so that the walk leaves a directory for a child in
 * the middle of its stream; with max_fds 3 that directory's fd is evicted
 * there, and the rest of it is read into memory first.
 */
#define WIDE_NAME "%04d-a-name-long-enough-that-a-few-hundred-of-them-fill-a-getdents-buffer-of-64-KiB"
static void make_wide_level(struct strvec *made, const char *dir, int level, size_t *ndirs)
{
	char path[4096];
	*ndirs += 1;
	for (int i = 0; i < 700; i++) {
		bool sub = level < 3 && i % 350 == 3;
		snprintf(path, sizeof(path), "%s/" WIDE_NAME "%s", dir, i, sub ? "/" : "");
		mk(made, path);
		if (sub) {
			path[strlen(path) - 1] = '\0';
			make_wide_level(made, path, level + 1, ndirs);
		}
	}
}

static void make_wide_levels(struct strvec *made, size_t *ndirs)
{
	mk(made, "t/");
	*ndirs = 0;
	make_wide_level(made, "t", 0, ndirs);
}

static void test_wide_streamed(void **state)
{
	(void)state;
	struct strvec made = {0};
	size_t ndirs;
	make_wide_levels(&made, &ndirs);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int sorted = 0; sorted < 2; sorted++) {
			struct strvec want = {0};
			expected_visits(&made, all_orders[k], 0, -1, 0, &want);
			for (int max_fds = 0; max_fds <= 3; max_fds += 3) {
				struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
				o.flags = sorted ? LF_WALK_SORT : 0;
				o.max_fds = max_fds;
				struct result r;
				walk(&o, &r);
				print_message("order %-7s sorted %d max_fds %d: getdents %llu for %zu dirs, reopens %llu\n",
					      order_name(o.order), sorted, max_fds, (unsigned long long)r.c.getdents,
					      ndirs, (unsigned long long)r.c.reopens);
				assert_visits(&r, &want);
				assert_int_equal(r.n, want.n); /* nothing twice */
				check_order(&r, o.order);
				assert_int_equal(r.errors, 0);
				assert_int_equal(r.c.opens, ndirs);
				assert_int_equal(r.c.stats, 1);
				if (!sorted) {
					/* Read in bounded chunks: more calls than the two per directory of
					 * a directory read at once into a growing buffer. */
					assert_true(r.c.getdents > 2 * ndirs + 4);
				}
				if (max_fds && o.order != LF_ORDER_BREADTH && o.order != LF_ORDER_PRE) {
					assert_true(r.c.reopens > 0); /* directories were left mid-stream */
				}
				free_result(&r);
			}
			sv_free(&want);
		}
	}
	sv_free(&made);
}

/* 2,000 levels, paths far beyond PATH_MAX, three fds. */
static void test_deep_chain(void **state)
{
	(void)state;
	enum { DEPTH = 2000 };
	mk(NULL, "t/");
	mk_chain(NULL, "t", DEPTH, "dir%04d", 0);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		o.max_fds = 3;
		hook.on = true;
		struct result r;
		walk(&o, &r);
		hook.on = false;
		print_message("order %-7s: opens %llu reopens %llu fd_stats %llu peak fds %d\n",
			      order_name(o.order), (unsigned long long)r.c.opens, (unsigned long long)r.c.reopens,
			      (unsigned long long)r.c.fd_stats, hook.peak);
		assert_int_equal(r.errors, 0);
		assert_int_equal(r.n, (o.order == LF_ORDER_BOTH ? 2 : 1) * (DEPTH + 1));
		assert_int_equal(r.c.opens, DEPTH + 1);
		assert_true(hook.peak <= 5);
		assert_true(r.c.reopens <= 4 * DEPTH);
		if (o.order == LF_ORDER_POST) {
			/* Deepest first, each level once, as a post-order must. */
			for (size_t i = 0; i < r.n; i++) {
				assert_int_equal(r.v[i].depth, DEPTH - (int)i);
				assert_int_equal(r.v[i].visit, LF_VISIT_POST);
				assert_int_equal(r.v[i].pathlen, 1 + (DEPTH - i) * 8);
			}
			assert_true(r.v[0].pathlen > PATH_MAX);
			assert_true(r.c.reopens >= DEPTH - 3);
		} else {
			check_order(&r, o.order);
		}
		free_result(&r);
	}
}

/* ---- tests: errors ------------------------------------------------------------- */

#define CHILD_CHECK(c)                                                                   \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "child: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			return __LINE__ % 250 + 1;                                       \
		}                                                                        \
	} while (0)

/* In a child without privileges: walk t, where t/locked is mode 000. */
static int walk_locked_as_nobody(enum lf_order order, int max_fds)
{
	const char *roots[] = {"t"};
	struct lf_walk_opts o = opts_for(roots, 1, order);
	o.max_fds = max_fds;
	o.flags = LF_WALK_SORT;
	struct lf_walk *w = lf_walk_open(&o);
	CHILD_CHECK(w);
	struct lf_entry *e;
	int r, errors = 0, ok_f = 0, z = 0, locked = 0, deep = 0;
	while ((r = lf_walk_next(w, &e)) > 0) {
		if (e->visit == LF_VISIT_ERROR) {
			errors++;
			CHILD_CHECK(strcmp(e->path, "t/locked") == 0 || strcmp(e->path, "t/d/d/d/locked") == 0);
			CHILD_CHECK(e->error == EACCES);
			continue;
		}
		CHILD_CHECK(strstr(e->path, "secret") == NULL);
		ok_f += strcmp(e->path, "t/ok/f") == 0;
		z += strcmp(e->path, "t/z") == 0;
		locked += strcmp(e->path, "t/locked") == 0;
		deep += strcmp(e->path, "t/d/d/d/after") == 0;
	}
	CHILD_CHECK(r == 0);
	CHILD_CHECK(errors == 2);
	CHILD_CHECK(ok_f == 1 && z == 1 && deep == 1);
	/* The directory itself is still reported, once or (BOTH) twice. */
	CHILD_CHECK(locked == (order == LF_ORDER_BOTH ? 2 : 1));
	CHILD_CHECK(lf_walk_had_error(w));
	CHILD_CHECK(lf_walk_close(w) == 0);
	return 0;
}

static void test_unreadable_directory(void **state)
{
	struct scratch *s = *state;
	static const char *const tree[] = {
		"t/", "t/ok/", "t/ok/f", "t/locked/", "t/locked/secret", "t/z",
		"t/d/", "t/d/d/", "t/d/d/d/", "t/d/d/d/locked/", "t/d/d/d/locked/secret",
		"t/d/d/d/after", NULL,
	};
	mk_all(NULL, tree);
	assert_int_equal(chmod(s->dir, 0755), 0);
	assert_int_equal(chmod("t/locked", 0), 0);
	assert_int_equal(chmod("t/d/d/d/locked", 0), 0);
	for (size_t k = 0; k < NORDERS; k++) {
		for (int max_fds = 0; max_fds <= 3; max_fds += 3) {
			fflush(NULL);
			pid_t pid = fork();
			assert_true(pid >= 0);
			if (pid == 0) {
				if (geteuid() == 0 &&
				    (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
				     setresuid(65534, 65534, 65534) != 0)) {
					_exit(250);
				}
				_exit(walk_locked_as_nobody(all_orders[k], max_fds));
			}
			int status;
			assert_int_equal(waitpid(pid, &status, 0), pid);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				print_error("order %s max_fds %d: child status %#x\n", order_name(all_orders[k]), max_fds,
					    status);
				fail();
			}
		}
	}
}

/* Injected ENAMETOOLONG (or any open failure) is an error entry for that
 * directory; the rest of the walk goes on. */
static void test_open_failure(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk_all(&made, basic_tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		hook.on = true;
		hook.fail_name = "sub";
		hook.fail_errno = ENAMETOOLONG;
		hook.fail_times = -1;
		struct result r;
		walk(&o, &r);
		hook.on = false;
		assert_int_equal(r.errors, 1);
		assert_int_equal(count_errors(&r, "t/a/sub", ENAMETOOLONG), 1);
		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		struct strvec w2 = {0};
		for (size_t i = 0; i < want.n; i++) {
			if (!strstr(want.v[i], "t/a/sub/")) {
				sv_push(&w2, want.v[i]);
			}
		}
		sv_pushf(&w2, "E%d t/a/sub", ENAMETOOLONG);
		sv_sort(&w2);
		assert_visits(&r, &w2);
		sv_free(&w2);
		sv_free(&want);
		free_result(&r);
	}
	sv_free(&made);
}

/* A one-off EMFILE while fds can be evicted: evict, retry, lose nothing. */
static void test_emfile_retry(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk(&made, "t/");
	mk_chain(&made, "t", 40, "c%02d", 1);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		o.flags = LF_WALK_SORT;
		hook.on = true;
		hook.fail_name = "c30";
		hook.fail_errno = EMFILE;
		hook.fail_times = 1;
		struct result r;
		walk(&o, &r);
		hook.on = false;
		assert_int_equal(hook.failed, 1);
		hook.failed = 0;
		struct strvec want = {0};
		expected_visits(&made, o.order, 0, -1, 0, &want);
		assert_visits(&r, &want);
		sv_free(&want);
		assert_int_equal(r.errors, 0);
		assert_int_equal(r.c.opens, 41 + 1); /* the failed attempt counts */
		assert_true(r.c.closes >= 1);
		free_result(&r);
	}
	sv_free(&made);

	/* Nothing to evict (the root itself): an error entry. */
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		hook.on = true;
		hook.fail_name = "t";
		hook.fail_errno = EMFILE;
		hook.fail_times = 1;
		struct result r;
		walk(&o, &r);
		hook.on = false;
		assert_int_equal(count_errors(&r, "t", EMFILE), 1);
		free_result(&r);
	}
}

/*
 * The process has fewer fds than the walker assumes (max_fds 0 means "from
 * RLIMIT_NOFILE"; the caller may hold many): every openat beyond a few fds
 * fails with EMFILE, as a real limit would.  The walker must learn the limit,
 * evict and retry, and still return everything.
 */
static void test_emfile_limit(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct strvec want = {0};
		expected_visits(&made, all_orders[k], 0, -1, 0, &want);
		for (int limit = 3; limit <= 6; limit++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			o.flags = LF_WALK_SORT;
			hook.on = true;
			hook.fd_limit = limit;
			hook.emfile = 0;
			struct result r;
			walk(&o, &r);
			hook.on = false;
			hook.fd_limit = 0;
			print_message("order %-7s fd limit %d: EMFILE x%lu, opens %llu reopens %llu, %zu errors\n",
				      order_name(o.order), limit, hook.emfile, (unsigned long long)r.c.opens,
				      (unsigned long long)r.c.reopens, r.errors);
			for (size_t i = 0; i < r.n && i < 1000; i++) {
				if (r.v[i].visit == LF_VISIT_ERROR) {
					print_error("  error %s: %s\n", r.v[i].path, strerror(r.v[i].error));
					break;
				}
			}
			assert_true(hook.emfile > 0);
			assert_int_equal(r.errors, 0);
			assert_visits(&r, &want);
			free_result(&r);
		}
		sv_free(&want);
	}
	sv_free(&made);
}

/*
 * Under -L, ".." from a directory reached through a link leads to the
 * target's parent: reopening an evicted ancestor must then go down by name
 * from an open ancestor, and succeed.
 */
static void test_logical_reopen_through_link(void **state)
{
	(void)state;
	static const char *const tree[] = {
		"t/", "t/a/", "t/a/alnk -> ../../out/c", "t/a/zfile", "t/z",
		"out/", "out/c/", "out/c/d1/", "out/c/d1/d2/", "out/c/d1/d2/d3/", "out/c/d1/d2/d3/f", NULL,
	};
	mk_all(NULL, tree);
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		o.symlinks = LF_LOGICAL;
		o.flags = LF_WALK_SORT;
		o.max_fds = 3;
		struct result r;
		walk(&o, &r);
		assert_int_equal(r.errors, 0);
		assert_true(find_rec(&r, "t/a/alnk/d1/d2/d3/f", 0) >= 0);
		assert_true(find_rec(&r, "t/a/zfile", 0) >= 0);
		assert_true(find_rec(&r, "t/z", 0) >= 0);
		assert_int_equal(r.n, (o.order == LF_ORDER_BOTH ? 6 : 0) + 9);
		check_order(&r, o.order);
		print_message("order %-7s: reopens %llu\n", order_name(o.order), (unsigned long long)r.c.reopens);
		free_result(&r);
	}
}

/* getdents64 failing (EIO) is an error entry for the directory, not a
 * silent end of it; records read before the failure are still returned. */
static void test_getdents_error(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	mk(NULL, "t/many/");
	for (int i = 0; i < 6000; i++) {
		/* ~500 KiB of records: more than one read. */
		mkf(NULL, "t/many/name-long-enough-to-fill-a-getdents-buffer-soon-%04d", i);
	}
	const char *roots[] = {"t"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int call = 1; call <= 2; call++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			hook.eio_dir = call == 1 ? "t/a" : "t/many";
			hook.eio_call = call;
			hook.eio_calls = 0;
			struct result r;
			walk(&o, &r);
			const char *dir = hook.eio_dir;
			hook.eio_dir = NULL;
			assert_int_equal(r.errors, 1);
			assert_int_equal(count_errors(&r, dir, EIO), 1);
			/* The rest of the walk is all there. */
			assert_true(find_rec(&r, "t/z/y", 0) >= 0);
			assert_true(find_rec(&r, "t/b/empty", 0) >= 0);
			size_t inside = 0;
			for (size_t i = 0; i < r.n; i++) {
				inside += strncmp(r.v[i].path, dir, strlen(dir)) == 0 && r.v[i].path[strlen(dir)] == '/';
			}
			if (call == 1) {
				assert_int_equal(inside, 0);
			} else {
				/* What the first read returned, and no more. */
				print_message("order %s: %zu of 6000 read before EIO\n", order_name(o.order), inside);
				assert_true(inside > 100 && inside < 6000);
			}
			free_result(&r);
		}
	}
}

/* Closing a walk halfway frees everything and closes every fd. */
/* Take @stop entries (statting each if @stat), then close: no fd left behind. */
static void walk_partly(const struct lf_walk_opts *o, int stop, bool stat)
{
	int before = lowest_free_fd();
	struct lf_walk *w = lf_walk_open(o);
	assert_non_null(w);
	open_walker = w;
	struct lf_entry *e;
	for (int i = 0; i < stop; i++) {
		assert_int_equal(lf_walk_next(w, &e), 1);
		if (stat) {
			assert_non_null(lf_entry_stat(e, LF_FOLLOW_WALK));
		}
	}
	open_walker = NULL;
	assert_int_equal(lf_walk_close(w), 0);
	assert_int_equal(lowest_free_fd(), before);
}

static void test_close_midway(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	sv_free(&made);
	const char *roots[] = {"t", "t/wide"};
	for (size_t k = 0; k < NORDERS; k++) {
		for (int max_fds = 0; max_fds <= 3; max_fds += 3) {
			for (int stop = 1; stop < 700; stop = stop * 3 + 1) {
				struct lf_walk_opts o = opts_for(roots, 2, all_orders[k]);
				o.max_fds = max_fds;
				walk_partly(&o, stop, false);
			}
		}
	}
}

/* ---- tests: stat ahead ---------------------------------------------------------- */

struct ahead_arg {
	int every;       /* stat every n-th entry (1: all) */
	size_t returned; /* entries below the roots */
	size_t statted;
};

/* Stat (some) entries and check the result against the kernel's. */
static void ahead_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	struct ahead_arg *a = arg;
	(void)w;
	if (e->visit == LF_VISIT_ERROR || e->depth == 0) {
		return;
	}
	if (a->returned++ % (size_t)a->every != 0) {
		return;
	}
	a->statted++;
	struct stat sb;
	assert_int_equal(fstatat(e->at_fd, e->at_name, &sb, AT_SYMLINK_NOFOLLOW), 0);
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
	assert_non_null(st);
	assert_int_equal(st->ino, sb.st_ino);
	assert_int_equal(st->mode, sb.st_mode);
	assert_int_equal(st->size, sb.st_size);
	assert_int_equal(st->nlink, sb.st_nlink);
	assert_ptr_equal(lf_entry_stat(e, LF_NOFOLLOW), st); /* cached, whoever made it */
}

/*
 * LF_WALK_STAT_AHEAD: the same results as statting in the walker, one stat
 * per entry in all, through window renewals (a directory of 700 names),
 * evictions (max_fds 3), sorted records and -mindepth.
 */
static void test_stat_ahead(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	mk(&made, "t/big/");
	for (int i = 0; i < 700; i++) {
		mkf(&made, i % 50 ? "t/big/f%03d" : "t/big/d%03d/", i);
	}
	mk(&made, "t/lnk -> big");
	/* Past the first phase (8192 entries): the walk goes on without the
	 * thread while windows made with it are still being used. */
	mk(&made, "t/many/");
	for (int i = 0; i < 30; i++) {
		mkf(&made, "t/many/d%02d/", i);
		for (int j = 0; j < 300; j++) {
			mkf(&made, "t/many/d%02d/f%03d", i, j);
		}
	}
	sv_free(&made);
	const char *roots[] = {"t"};
	for (int variant = 0; variant < 8; variant++) {
		struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
		o.flags = LF_WALK_STAT_AHEAD | (variant & 1 ? LF_WALK_SORT : 0);
		o.max_fds = variant & 2 ? 3 : 0;
		o.mindepth = variant & 4 ? 2 : 0;
		struct ahead_arg arg = {.every = 1};
		struct result r;
		run_walk(&o, &r, ahead_cb, &arg, true);
		assert_int_equal(r.last, 0);
		assert_true(arg.statted > 10000);
		/* One stat per entry, plus the root's to start the walk. */
		assert_int_equal(r.c.stats, arg.statted + 1);
		assert_int_equal(r.c.stats_follow, 0);
		assert_true(r.c.stats_ahead <= r.c.stats);
		free_result(&r);
	}

	/* A caller that stats only some entries gets right results; the
	 * thread's stats for the others are counted, not hidden. */
	struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
	o.flags = LF_WALK_STAT_AHEAD;
	struct ahead_arg arg = {.every = 3};
	struct result r;
	run_walk(&o, &r, ahead_cb, &arg, true);
	assert_true(r.c.stats >= arg.statted + 1 && r.c.stats <= arg.returned + 1);
	free_result(&r);

	/* Where it does not apply, it changes nothing. */
	for (int k = 0; k < 2; k++) {
		o = opts_for(roots, 1, k ? LF_ORDER_POST : LF_ORDER_BREADTH);
		o.flags = LF_WALK_STAT_AHEAD;
		arg = (struct ahead_arg){.every = 1};
		run_walk(&o, &r, ahead_cb, &arg, true);
		assert_int_equal(r.c.stats_ahead, 0);
		assert_int_equal(r.c.stats, arg.statted + 1);
		free_result(&r);
	}

	/* Closed midway, with windows live: no fd or memory left behind. */
	for (int stop = 1; stop < 1500; stop = stop * 4 + 1) {
		o = opts_for(roots, 1, LF_ORDER_PRE);
		o.flags = LF_WALK_STAT_AHEAD;
		o.max_fds = stop % 2 ? 3 : 0;
		walk_partly(&o, stop, true);
	}
}

/* Prune every directory named "s" (and what a prune_name says). */
static void prune_s_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	(void)arg;
	size_t len;
	const char *name = lf_entry_name(e, &len);
	if (e->visit == LF_VISIT_PRE && e->type == LF_DIR && len == 1 && name[0] == 's') {
		lf_walk_prune(w);
	}
}

static void prune_stat_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	ahead_cb(w, e, arg);
	prune_s_cb(w, e, arg);
}

/* Two walks returned the same entries in the same order. */
static void assert_same_walk(const struct result *a, const struct result *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		if (strcmp(a->v[i].path, b->v[i].path) != 0 || a->v[i].visit != b->v[i].visit) {
			print_error("entry %zu: '%s' (visit %d) against '%s' (visit %d)\n", i, a->v[i].path,
				    a->v[i].visit, b->v[i].path, b->v[i].visit);
			fail();
		}
		assert_int_equal(a->v[i].type, b->v[i].type);
		assert_int_equal(a->v[i].depth, b->v[i].depth);
		assert_int_equal(a->v[i].ino, b->v[i].ino);
		assert_int_equal(a->v[i].error, b->v[i].error);
	}
}

/*
 * The walker waiting for a stat the stat-ahead thread is making sleeps: it
 * used to spin and then call sched_yield() in a loop, which returns at once
 * when a CPU is idle, so a stat waiting 100 ms for the disk cost the walker
 * 100 ms of CPU (1.2 s of user time in a cold -size -j1 of the 200k-entry
 * tree).
 */
static void test_pf_take_sleeps(void **state)
{
	(void)state;
	mk(NULL, "p/");
	mk(NULL, "p/a");
	mk(NULL, "p/slow");
	struct lf_prefetch *pf = lf_prefetch_new();
	if (!pf && errno == ENOTSUP) {
		skip(); /* one CPU: no thread */
	}
	assert_non_null(pf);
	int dfd = open("p", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	atomic_store(&in_slow_statx, false);
	atomic_store(&slow_statx, true);
	/* The thread starts from the last name. */
	const char *names[] = {"a", "slow"};
	struct lf_pf_window *win = lf_prefetch_submit(pf, dfd, names, 2);
	assert_non_null(win);
	while (!atomic_load(&in_slow_statx)) {
		struct timespec pause = {0, 100000};
		nanosleep(&pause, NULL);
	}
	struct timespec cpu0, cpu1, wall0, wall1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
	clock_gettime(CLOCK_MONOTONIC, &wall0);
	struct lf_stat st;
	assert_int_equal(lf_pf_take(win, 1, &st), 0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
	clock_gettime(CLOCK_MONOTONIC, &wall1);
	atomic_store(&slow_statx, false);
	struct stat sb;
	assert_int_equal(lstat("p/slow", &sb), 0);
	assert_int_equal(st.ino, sb.st_ino);
	int64_t cpu_ns = (cpu1.tv_sec - cpu0.tv_sec) * 1000000000LL + (cpu1.tv_nsec - cpu0.tv_nsec);
	int64_t wall_ns = (wall1.tv_sec - wall0.tv_sec) * 1000000000LL + (wall1.tv_nsec - wall0.tv_nsec);
	print_message("waited %lld us, on the CPU %lld us\n", (long long)(wall_ns / 1000), (long long)(cpu_ns / 1000));
	assert_true(wall_ns > SLOW_STAT_NS / 4); /* it did wait for the thread */
	assert_true(cpu_ns < SLOW_STAT_NS / 10);
	uint64_t wasted = 0;
	lf_prefetch_release(pf, win, &wasted);
	lf_prefetch_free(pf, &wasted);
	close(dfd);
}

/*
 * A queue that wakes up while the walk is in a region (the root's, here,
 * whose first subdirectory turns out cold) reads ahead the region's
 * subdirectories left, not only the ones of regions read from then on:
 * 24 subdirectories of one subdirectory (of 30 files) each, all read ahead
 * but the first few.  Before, the walker read each d%02d itself and only their e's were
 * read ahead (24 of 49 at most).
 */
/* A slow caller: on a loaded machine the workers get their jobs first. */
static void slow_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	(void)w, (void)e, (void)arg;
	struct timespec pause = {0, 200000};
	nanosleep(&pause, NULL);
}

static void test_read_ahead_wakes(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk(&made, "w/");
	for (int i = 0; i < 24; i++) {
		mkf(&made, "w/d%02d/", i);
		mkf(&made, "w/d%02d/e/", i);
		for (int j = 0; j < 30; j++) {
			mkf(&made, "w/d%02d/e/f%02d", i, j);
		}
	}
	sv_free(&made);
	const char *roots[] = {"w"};
	atomic_store(&seem_blocked, true);
	uint64_t best = 0;
	/* A loaded machine may leave jobs to the walker still: the best of a few. */
	for (int attempt = 0; attempt < 5 && best < 40; attempt++) {
		struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
		struct result plain, ra;
		walk(&o, &plain);
		o.flags |= LF_WALK_READ_AHEAD;
		o.threads = 4;
		run_walk(&o, &ra, slow_cb, NULL, true);
		assert_int_equal(ra.last, 0);
		assert_int_equal(ra.close_ret, 0);
		assert_same_walk(&plain, &ra);
		assert_int_equal(ra.c.opens, 49);
		assert_int_equal(ra.c.dirs_ahead_unused, 0);
		print_message("attempt %d: %llu of 49 directories read ahead\n", attempt,
			      (unsigned long long)ra.c.dirs_ahead);
		if (ra.c.dirs_ahead > best) {
			best = ra.c.dirs_ahead;
		}
		free_result(&plain);
		free_result(&ra);
	}
	atomic_store(&seem_blocked, false);
	assert_true(best >= 40);
}

/* The threads of this process (/proc/self/task). */
static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	assert_non_null(d);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		n += de->d_name[0] != '.';
	}
	closedir(d);
	return n;
}

/* Walk with @q as opts.queue (read ahead, slowly): the result in @ra. */
static void walk_queue(struct lf_walk_opts o, struct lf_walk_queue *q, struct result *ra)
{
	o.flags |= LF_WALK_READ_AHEAD;
	o.threads = 1; /* ignored for the caller's queue */
	o.queue = q;
	run_walk(&o, ra, slow_cb, NULL, true);
	assert_int_equal(ra->last, 0);
	assert_int_equal(ra->close_ret, 0);
}

/*
 * lf_walk_opts.queue: one queue lent to walk after walk, in every
 * depth-first order and depth limit, warm and cold: each walk the same as
 * without it, its directories read once (some by the queue's workers, on a
 * cold cache), no fd held after it; the workers started once (the thread
 * count does not grow from walk to walk) and joined by
 * lf_walk_queue_free(); a walk that finds the queue held by another, or
 * whose max_fds has no room for its fds, goes without it.
 */
static void test_read_ahead_queue(void **state)
{
	(void)state;
	struct strvec made = {0};
	mk(&made, "w/");
	for (int i = 0; i < 12; i++) {
		mkf(&made, "w/d%02d/", i);
		mkf(&made, "w/d%02d/e/", i);
		for (int j = 0; j < 20; j++) {
			mkf(&made, "w/d%02d/e/f%02d", i, j);
		}
	}
	sv_free(&made);
	const char *roots[] = {"w"};
	errno = 0;
	assert_null(lf_walk_queue_new(1, 0, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(lf_walk_queue_new(4, 12, 0));
	assert_int_equal(errno, EINVAL);
	int threads_before = count_threads();
	/* No rings: their fds would be the queue's, kept from walk to walk. */
	struct lf_walk_queue *q = lf_walk_queue_new(4, 0, LF_WALK_NO_IO_URING);
	assert_non_null(q);
	assert_int_equal(count_threads(), threads_before); /* the workers start with the first job */
	static const enum lf_order orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH};
	uint64_t ahead = 0;
	int most = 0;
	/* A loaded machine may leave every job to the walker: rounds until one was the workers'. */
	for (int round = 0; round < 5 && (round == 0 || ahead == 0); round++) {
		for (int variant = 0; variant < 12; variant++) {
			bool cold = variant % 2;
			atomic_store(&seem_blocked, cold);
			struct lf_walk_opts o = opts_for(roots, 1, orders[variant % 3]);
			o.maxdepth = variant / 4 == 1 ? 2 : -1;
			o.mindepth = variant / 4 == 2 ? 2 : 0;
			struct result plain, ra;
			walk(&o, &plain);
			walk_queue(o, q, &ra);
			assert_same_walk(&plain, &ra);
			assert_int_equal(ra.c.opens, plain.c.opens + ra.c.dirs_ahead_unused);
			assert_int_equal(ra.c.dirs_ahead_unused, 0);
			print_message("round %d %s order %-4s depth %d..%d: %llu of %llu directories read ahead\n", round,
				      cold ? "cold" : "warm", order_name(o.order), o.mindepth, o.maxdepth,
				      (unsigned long long)ra.c.dirs_ahead, (unsigned long long)ra.c.opens);
			if (cold) {
				ahead += ra.c.dirs_ahead;
			}
			int n = count_threads();
			most = n > most ? n : most;
			free_result(&plain);
			free_result(&ra);
		}
	}
	assert_true(ahead > 0);
	assert_true(most <= threads_before + 3); /* its 3 workers, once */

	/* Held by another walk, or no room in max_fds: the walk goes without it. */
	atomic_store(&seem_blocked, true);
	struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
	o.flags |= LF_WALK_READ_AHEAD;
	o.queue = q;
	struct lf_walk *holder = lf_walk_open(&o);
	assert_non_null(holder);
	struct lf_walk_opts pre = opts_for(roots, 1, LF_ORDER_PRE);
	struct result plain, ra;
	walk(&pre, &plain);
	walk_queue(pre, q, &ra);
	assert_same_walk(&plain, &ra);
	assert_int_equal(ra.c.dirs_ahead, 0);
	free_result(&ra);
	assert_int_equal(lf_walk_close(holder), 0);
	struct lf_walk_opts few = opts_for(roots, 1, LF_ORDER_PRE);
	few.max_fds = 20;
	walk_queue(few, q, &ra);
	assert_same_walk(&plain, &ra);
	assert_int_equal(ra.c.dirs_ahead, 0);
	free_result(&ra);
	free_result(&plain);
	atomic_store(&seem_blocked, false);

	lf_walk_queue_free(q);
	lf_walk_queue_free(NULL);
	assert_int_equal(count_threads(), threads_before);
}

/*
 * LF_WALK_READ_AHEAD: the same entries in the same order as without it, in
 * every depth-first order, with depth limits, pruning, an fd budget small
 * enough for evictions, and stats taken ahead; and the same syscalls, some
 * made by the workers.
 */
static void test_read_ahead(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	mk(&made, "t/big/");
	for (int i = 0; i < 700; i++) {
		mkf(&made, i % 50 ? "t/big/f%03d" : "t/big/d%03d/", i);
	}
	mk(&made, "t/many/");
	for (int i = 0; i < 40; i++) {
		mkf(&made, "t/many/d%02d/", i);
		for (int j = 0; j < 20; j++) {
			mkf(&made, "t/many/d%02d/f%02d", i, j);
		}
		mkf(&made, "t/many/d%02d/s/", i);
		mkf(&made, "t/many/d%02d/s/x", i);
		mkf(&made, "t/many/d%02d/u/", i);
	}
	mk(&made, "t/lnk -> many");
	sv_free(&made);
	const char *roots[] = {"t"};
	static const enum lf_order orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH};
	/* A job the walker reaches first is its own: no one walk is sure to have these. */
	uint64_t ahead = 0, stats_ahead = 0, stats_ring = 0;
	struct lf_ring *probe = lf_ring_new(1);
	bool have_ring = probe != NULL;
	lf_ring_free(probe);
	for (int variant = 0; variant < 96; variant++) {
		/* A warm cache (the queue dormant but for samples), then a cold one. */
		atomic_store(&seem_blocked, variant >= 48);
		struct lf_walk_opts o = opts_for(roots, 1, orders[variant % 3]);
		o.max_fds = (variant / 3) % 2 ? 20 : 0;
		bool prune = (variant / 6) % 2;
		o.maxdepth = (variant / 12) % 4 == 1 ? 3 : -1;
		o.mindepth = (variant / 12) % 4 == 2 ? 3 : 0;
		bool stat_every = (variant / 12) % 4 == 3;
		if (stat_every) {
			o.flags |= LF_WALK_STAT_AHEAD;
		}
		struct ahead_arg arg = {.every = 1};
		walk_cb *cb = prune ? (stat_every ? prune_stat_cb : prune_s_cb) : stat_every ? ahead_cb : NULL;
		struct result plain, ra;
		run_walk(&o, &plain, cb, &arg, true);
		size_t statted = arg.statted;
		o.flags |= LF_WALK_READ_AHEAD;
		o.threads = variant % 2 ? 2 : 5;
		/*
		 * Stats that seem slow (through rings), that do not (the
		 * workers' own), or slow but without rings.
		 */
		int ring_mode = (variant / 2) % 3;
		bool no_ring = ring_mode != 0;
		atomic_store(&fake_step, ring_mode == 1 ? 1 : 1024);
		if (ring_mode == 2) {
			o.flags |= LF_WALK_NO_IO_URING;
		}
		arg = (struct ahead_arg){.every = 1};
		run_walk(&o, &ra, cb, &arg, true);
		print_message("%s order %-5s max_fds %2d prune %d depth %d..%d stats %d threads %d ring %d: opens %llu, "
			      "ahead %llu, unused %llu, stats %llu ahead %llu ring %llu\n",
			      variant >= 48 ? "cold" : "warm", order_name(o.order), o.max_fds, prune, o.mindepth,
			      o.maxdepth, stat_every, o.threads, !no_ring,
			      (unsigned long long)ra.c.opens, (unsigned long long)ra.c.dirs_ahead,
			      (unsigned long long)ra.c.dirs_ahead_unused, (unsigned long long)ra.c.stats,
			      (unsigned long long)ra.c.stats_ahead, (unsigned long long)ra.c.stats_ring);
		assert_int_equal(plain.last, 0);
		assert_int_equal(ra.last, 0);
		assert_int_equal(ra.close_ret, 0);
		assert_same_walk(&plain, &ra);
		ahead += ra.c.dirs_ahead;
		assert_true(ra.c.dirs_ahead_unused <= ra.c.dirs_ahead);
		/* The directories the walk read, once each; pruned ones in vain. */
		assert_int_equal(ra.c.opens, plain.c.opens + ra.c.dirs_ahead_unused);
		if (!prune) {
			assert_int_equal(ra.c.dirs_ahead_unused, 0);
		}
		if (!o.max_fds && !prune) {
			/* A worker reads t/big's first 16 KiB of records (of 20), the
			 * walker the rest: one getdents64 more, if a worker read it. */
			assert_true(ra.c.getdents >= plain.c.getdents && ra.c.getdents <= plain.c.getdents + 1);
			assert_int_equal(ra.c.closes, plain.c.closes);
		}
		if (stat_every) {
			/* One stat per entry, whoever made it. */
			assert_int_equal(arg.statted, statted);
			if (ra.c.dirs_ahead_unused) {
				assert_true(ra.c.stats >= plain.c.stats); /* a pruned one's, in vain */
			} else {
				assert_int_equal(ra.c.stats, plain.c.stats);
			}
			stats_ahead += ra.c.stats_ahead;
			stats_ring += ra.c.stats_ring;
		} else {
			assert_int_equal(ra.c.stats, plain.c.stats);
			assert_int_equal(ra.c.stats_ahead, 0);
		}
		assert_true(ra.c.stats_ring <= ra.c.stats_ahead);
		if (no_ring || !have_ring) {
			assert_int_equal(ra.c.stats_ring, 0);
		}
		free_result(&plain);
		free_result(&ra);
	}
	/*
	 * On a loaded machine the walker may have done the few jobs of the
	 * variants above that go through rings: again, until one does.
	 */
	atomic_store(&fake_step, 1024);
	for (int attempt = 0; have_ring && stats_ring == 0 && attempt < 10; attempt++) {
		struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
		o.flags |= LF_WALK_STAT_AHEAD;
		struct ahead_arg arg = {.every = 1};
		struct result plain, ra;
		run_walk(&o, &plain, ahead_cb, &arg, true);
		o.flags |= LF_WALK_READ_AHEAD;
		o.threads = 4;
		arg = (struct ahead_arg){.every = 1};
		run_walk(&o, &ra, ahead_cb, &arg, true);
		assert_same_walk(&plain, &ra);
		assert_int_equal(ra.c.stats, plain.c.stats);
		stats_ring += ra.c.stats_ring;
		free_result(&plain);
		free_result(&ra);
	}
	atomic_store(&fake_step, 1);
	atomic_store(&seem_blocked, false);
	assert_true(ahead > 0);
	assert_true(stats_ahead > 0);
	if (have_ring) {
		assert_true(stats_ring > 0);
	}

	/* Where it does not apply, nothing is read ahead. */
	for (int k = 0; k < 4; k++) {
		struct lf_walk_opts o = opts_for(roots, 1, k == 0 ? LF_ORDER_BREADTH : LF_ORDER_PRE);
		o.flags = LF_WALK_READ_AHEAD | (k == 1 ? LF_WALK_SORT : 0);
		o.symlinks = k == 2 ? LF_LOGICAL : LF_PHYSICAL;
		o.threads = k == 3 ? 1 : 4;
		struct result r;
		walk(&o, &r);
		assert_int_equal(r.c.dirs_ahead, 0);
		free_result(&r);
	}

	/* A thread count out of range is refused. */
	struct lf_walk_opts bad = opts_for(roots, 1, LF_ORDER_PRE);
	bad.threads = LF_WALK_THREADS_MAX + 1;
	errno = 0;
	assert_null(lf_walk_open(&bad));
	assert_int_equal(errno, EINVAL);
	bad.threads = -1;
	assert_null(lf_walk_open(&bad));

	/* Closed midway, with jobs in flight (through rings where there are): no fd left behind. */
	atomic_store(&seem_blocked, true);
	atomic_store(&fake_step, 1024);
	for (int stop = 1; stop < 1500; stop = stop * 4 + 1) {
		struct lf_walk_opts o = opts_for(roots, 1, stop % 3 ? LF_ORDER_PRE : LF_ORDER_POST);
		o.flags = LF_WALK_READ_AHEAD | (stop % 2 ? LF_WALK_STAT_AHEAD : 0);
		o.max_fds = stop % 2 ? 20 : 0;
		walk_partly(&o, stop, stop % 2 && o.order == LF_ORDER_PRE);
	}
	atomic_store(&seem_blocked, false);
	atomic_store(&fake_step, 1);
}

/* ---- tests: deleting ----------------------------------------------------------- */

struct delete_arg {
	const char *only; /* delete just this path (NULL: everything) */
	size_t deleted, failed;
	int last_errno;
};

static void delete_cb(struct lf_walk *w, struct lf_entry *e, void *arg)
{
	(void)w;
	struct delete_arg *a = arg;
	if (e->visit == LF_VISIT_ERROR) {
		errno = 0;
		assert_int_equal(lf_entry_delete(e), -1);
		assert_int_equal(errno, EINVAL);
		return;
	}
	if (a->only && strcmp(e->path, a->only) != 0) {
		return;
	}
	/* In LF_ORDER_BOTH, a directory goes on its post-order visit. */
	if (e->type == LF_DIR && e->visit == LF_VISIT_PRE && !a->only) {
		return;
	}
	if (lf_entry_delete(e) == 0) {
		a->deleted++;
	} else {
		a->failed++;
		a->last_errno = errno;
	}
}

/* A post-order walk deletes a whole tree, at any depth, with three fds, with
 * one unlinkat per entry and no stat; links are removed, never followed. */
static void test_delete_tree(void **state)
{
	(void)state;
	enum lf_order orders[] = {LF_ORDER_POST, LF_ORDER_BOTH};
	for (size_t k = 0; k < 2; k++) {
		for (int few = 0; few < 2; few++) {
			struct strvec made = {0};
			make_deep_and_wide(&made);
			static const char *const extra[] = {
				"t/lnk -> ../out", "t/dlnk -> chain", "t/fifo|", "out/", "out/keep", NULL,
			};
			mk_all(NULL, extra);
			mk_chain(NULL, "t/wide", 2000, "dir%04d", 0);
			const char *roots[] = {"t"};
			struct lf_walk_opts o = opts_for(roots, 1, orders[k]);
			o.max_fds = few ? 3 : 0;
			struct delete_arg arg = {0};
			struct result r;
			run_walk(&o, &r, delete_cb, &arg, false);
			assert_int_equal(r.last, 0);
			assert_int_equal(r.errors, 0);
			assert_int_equal(arg.failed, 0);
			size_t n = made.n + 3 + 2000;
			assert_int_equal(arg.deleted, n);
			assert_int_equal(r.c.unlinks, n);
			assert_int_equal(r.c.stats, 1); /* the root, nothing else */
			assert_int_equal(r.c.stats_follow, 0);
			struct stat sb;
			assert_int_equal(lstat("t", &sb), -1);
			assert_int_equal(errno, ENOENT);
			assert_int_equal(lstat("out/keep", &sb), 0);
			free_result(&r);
			sv_free(&made);
			assert_int_equal(system("rm -rf out"), 0);
		}
	}
}

/* Open fds of the process, from /proc/self/fd (the DIR's own fd excluded). */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	int n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		n += de->d_name[0] != '.';
	}
	closedir(d);
	return n - 1;
}

static struct lf_walk *cancel_target;

static void cancel_on_signal(int sig)
{
	(void)sig;
	lf_walk_cancel(cancel_target);
}

static void *cancel_from_thread(void *arg)
{
	lf_walk_cancel(arg);
	return NULL;
}

/*
 * lf_walk_cancel(): the next lf_walk_next() releases every fd and says
 * ECANCELED, in every order, from the walking thread, a signal handler or
 * another thread; close then succeeds.
 */
static void test_cancel(void **state)
{
	(void)state;
	struct strvec made = {0};
	make_deep_and_wide(&made);
	const char *roots[] = {"t"};
	int base = count_fds();
	for (size_t k = 0; k < NORDERS; k++) {
		for (int how = 0; how < 3; how++) {
			struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
			struct lf_walk *w = lf_walk_open(&o);
			assert_non_null(w);
			struct lf_entry *e;
			for (int i = 0; i < 20; i++) {
				assert_int_equal(lf_walk_next(w, &e), 1);
			}
			assert_true(count_fds() > base);
			if (how == 0) {
				lf_walk_cancel(w);
			} else if (how == 1) {
				cancel_target = w;
				signal(SIGUSR1, cancel_on_signal);
				raise(SIGUSR1);
				signal(SIGUSR1, SIG_DFL);
			} else {
				pthread_t t;
				assert_int_equal(pthread_create(&t, NULL, cancel_from_thread, w), 0);
				pthread_join(t, NULL);
			}
			errno = 0;
			assert_int_equal(lf_walk_next(w, &e), -1);
			assert_int_equal(errno, ECANCELED);
			assert_int_equal(count_fds(), base);
			assert_int_equal(lf_walk_next(w, &e), -1);
			assert_int_equal(errno, ECANCELED);
			assert_int_equal(lf_walk_close(w), 0);
		}
	}
	sv_free(&made);
}

static void test_delete_special_cases(void **state)
{
	(void)state;
	mk_all(NULL, basic_tree);
	const char *roots[] = {"t"};

	/* An empty directory deleted on its pre-order visit is not opened. */
	for (size_t k = 0; k < NORDERS; k++) {
		if (all_orders[k] == LF_ORDER_POST) {
			continue;
		}
		mk(NULL, "t/gone/");
		struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
		struct delete_arg arg = {"t/gone", 0, 0, 0};
		struct result r;
		run_walk(&o, &r, delete_cb, &arg, false);
		assert_int_equal(r.last, 0);
		assert_int_equal(arg.deleted, 1);
		assert_int_equal(r.errors, 0);
		assert_int_equal(r.c.opens, BASIC_DIRS);
		assert_int_equal(access("t/gone", F_OK), -1);
		free_result(&r);
	}

	/* A non-empty directory cannot be deleted before its contents. */
	struct lf_walk_opts o = opts_for(roots, 1, LF_ORDER_PRE);
	struct delete_arg arg = {"t/a", 0, 0, 0};
	struct result r;
	run_walk(&o, &r, delete_cb, &arg, false);
	assert_int_equal(arg.failed, 1);
	assert_int_equal(arg.last_errno, ENOTEMPTY);
	assert_true(find_rec(&r, "t/a/sub/g", 0) >= 0);
	free_result(&r);

	/*
	 * Under -L a link followed to a directory is removed as a link, its
	 * target kept, in every order; with LF_WALK_NO_DESCEND_LINKS the walk
	 * still calls it a directory but does not read it.
	 */
	struct stat sb;
	for (size_t k = 0; k < NORDERS; k++) {
		for (int nodescend = 0; nodescend < 2; nodescend++) {
			o = opts_for(roots, 1, all_orders[k]);
			o.symlinks = LF_LOGICAL;
			o.flags |= nodescend ? LF_WALK_NO_DESCEND_LINKS : 0;
			arg = (struct delete_arg){"t/lnk", 0, 0, 0};
			run_walk(&o, &r, delete_cb, &arg, false);
			/* In LF_ORDER_BOTH its post-order visit finds it gone. */
			bool both = all_orders[k] == LF_ORDER_BOTH;
			assert_int_equal(arg.failed, both);
			assert_int_equal(arg.last_errno, both ? ENOENT : 0);
			assert_int_equal(arg.deleted, 1);
			assert_int_equal(lstat("t/lnk", &sb), -1);
			assert_int_equal(lstat("t/a/f1", &sb), 0);
			/* Removed on its pre-order visit, it is not read either. */
			bool read = !nodescend && all_orders[k] == LF_ORDER_POST;
			assert_int_equal(find_rec(&r, "t/lnk/f1", 0) >= 0, read);
			int i = find_rec(&r, "t/lnk", 0);
			assert_true(i >= 0);
			assert_int_equal(r.v[i].type, LF_DIR);
			free_result(&r);
			assert_int_equal(symlink("a", "t/lnk"), 0);
		}
	}

	/* With DT_UNKNOWN, one lstat says what to remove. */
	hook.dtype_unknown = true;
	o = opts_for(roots, 1, LF_ORDER_PRE);
	arg = (struct delete_arg){"t/c.txt", 0, 0, 0};
	run_walk(&o, &r, delete_cb, &arg, false);
	hook.dtype_unknown = false;
	assert_int_equal(arg.deleted, 1);
	assert_int_equal(access("t/c.txt", F_OK), -1);
	free_result(&r);

	/* Error entries cannot be deleted (checked in the callback). */
	const char *bad[] = {"t/nope"};
	o = opts_for(bad, 1, LF_ORDER_PRE);
	arg = (struct delete_arg){"t/nope", 0, 0, 0};
	run_walk(&o, &r, delete_cb, &arg, false);
	assert_int_equal(r.errors, 1);
	free_result(&r);
}

/* ---- tests: a directory replaced underneath the walker ------------------------- */

/*
 * t/a/{b/c00/.../c19, x/, y/f}, t/z/, and outside the walk out/ with an
 * EVIL file (and out/evil/ with EVIL entries in the same shape as t/a).
 * The walk never holds more than three fds, so by the time it climbs back
 * out of the chain it has to reopen t/a, by ".." or by name.
 */
static void make_swap_tree(void)
{
	static const char *const tree[] = {
		"t/", "t/a/", "t/a/b/", "t/a/x/", "t/a/y/", "t/a/y/f", "t/z/",
		"out/", "out/EVIL", "out/evil/", "out/evil/EVIL", "out/evil/x/", "out/evil/x/EVIL",
		"out/evil/y/", "out/evil/y/EVIL", "out/evil/b/", "out/evil/b/EVIL", NULL,
	};
	mk_all(NULL, tree);
	mk_chain(NULL, "t/a/b", 20, "c%02d", 1);
	/* The impostor has the same names all the way down, so a walker that
	 * trusted names alone would go on listing it. */
	mk_chain(NULL, "out/evil/b", 20, "c%02d", 1);
	char path[256] = "out/evil/b";
	for (int i = 0; i < 20; i++) {
		sprintf(path + strlen(path), "/c%02d", i);
		char evil[300];
		snprintf(evil, sizeof(evil), "%s/EVIL", path);
		mk(NULL, evil);
	}
}

static void swap_move_b_out(void)
{
	/* t/a/b now lives in out/: ".." from it leads to out, not to t/a. */
	assert_int_equal(rename("t/a/b", "out/b"), 0);
}

static void swap_a_for_link(void)
{
	assert_int_equal(rename("t/a", "out/a_moved"), 0);
	assert_int_equal(symlink("../out/evil", "t/a"), 0);
}

static void swap_a_for_dir(void)
{
	assert_int_equal(rename("t/a", "out/a_moved"), 0);
	assert_int_equal(rename("out/evil", "t/a"), 0);
}

static void assert_nothing_from_outside(const struct result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (strstr(r->v[i].path, "EVIL")) {
			print_error("returned an entry from outside the tree: %s\n", r->v[i].path);
			fail();
		}
	}
}

static bool is_replaced_errno(int err)
{
	return err == ESTALE || err == ENOENT || err == ELOOP || err == ENOTDIR;
}

static void test_swap_moved_out(void **state)
{
	(void)state;
	const char *roots[] = {"t"};
	enum lf_order orders[] = {LF_ORDER_PRE, LF_ORDER_POST, LF_ORDER_BOTH};
	for (size_t k = 0; k < 3; k++) {
		make_swap_tree();
		struct lf_walk_opts o = opts_for(roots, 1, orders[k]);
		o.flags = LF_WALK_SORT;
		o.max_fds = 3;
		hook.on = true;
		hook.trigger_name = "c15";
		hook.trigger = swap_move_b_out;
		struct result r;
		run_walk(&o, &r, NULL, NULL, false);
		hook.on = false;
		assert_null(hook.trigger); /* the swap happened */
		assert_int_equal(r.last, 0);
		assert_nothing_from_outside(&r);
		/* t/a cannot be reached from where the walker is: say so. */
		if (count_errors(&r, "t/a", ESTALE) != 1) {
			print_error("order %s: no ESTALE for t/a\n", order_name(o.order));
			for (size_t i = 0; i < r.n; i++) {
				if (r.v[i].visit == LF_VISIT_ERROR) {
					print_error("  error %s: %s\n", r.v[i].path, strerror(r.v[i].error));
				}
			}
			fail();
		}
		/* ... and go on with the rest. */
		assert_true(find_rec(&r, "t/z", 0) >= 0);
		assert_true(find_rec(&r, "t", 0) >= 0);
		free_result(&r);
		assert_int_equal(system("rm -rf t out"), 0);
	}
}

/*
 * t/a is renamed away while the walker is deep below it, and a link to (or
 * the directory) out/evil takes its name.  The walker must never list
 * out/evil.  Climbing back by ".." leads to the real t/a (now out/a_moved):
 * going on there is right, as fts does; reopening by name must see the new
 * t/a is not the directory it left, and report it.
 */
static void test_swap_replaced(void **state)
{
	(void)state;
	const char *roots[] = {"t"};
	void (*swaps[])(void) = {swap_a_for_link, swap_a_for_dir};
	for (size_t sw = 0; sw < 2; sw++) {
		for (size_t k = 0; k < NORDERS; k++) {
			for (int logical = 0; logical < 2; logical++) {
				make_swap_tree();
				if (all_orders[k] == LF_ORDER_BREADTH) {
					/* Breadth-first has t/a open while it reads the level
					 * below: make it read a wide level first, so t/a's fd
					 * is evicted before t/a/b's children are started. */
					mk(NULL, "t/p/");
					for (int i = 0; i < 6; i++) {
						mkf(NULL, "t/p/q%d/", i);
					}
				}
				struct lf_walk_opts o = opts_for(roots, 1, all_orders[k]);
				o.flags = LF_WALK_SORT;
				o.max_fds = 3;
				o.symlinks = logical ? LF_LOGICAL : LF_PHYSICAL;
				hook.on = true;
				hook.trigger_name = all_orders[k] == LF_ORDER_BREADTH ? "q5" : "c15";
				hook.trigger = swaps[sw];
				struct result r;
				run_walk(&o, &r, NULL, NULL, false);
				hook.on = false;
				print_message("swap %zu order %-7s %s: %zu entries, %zu errors\n", sw,
					      order_name(o.order), logical ? "-L" : "-P", r.n, r.errors);
				assert_null(hook.trigger);
				assert_int_equal(r.last, 0);
				assert_nothing_from_outside(&r);
				for (size_t i = 0; i < r.n; i++) {
					if (r.v[i].visit == LF_VISIT_ERROR) {
						print_message("  error %s: %s\n", r.v[i].path, strerror(r.v[i].error));
						assert_true(is_replaced_errno(r.v[i].error));
					}
				}
				if (o.order == LF_ORDER_BREADTH) {
					/* Breadth-first reopens t/a by name to read t/a/b/c00
					 * (listed before the swap): it must notice. */
					assert_true(r.errors > 0);
					assert_true(find_rec(&r, "t/a/b/c00", LF_VISIT_ERROR) >= 0);
					assert_int_equal(find_rec(&r, "t/a/b/c00/c01", 0), -1);
				} else {
					/* Depth-first climbs back by "..": into the real t/a,
					 * whose remaining entries it lists, or an error. */
					assert_true(r.errors > 0 || (find_rec(&r, "t/a/y/f", 0) >= 0 &&
								     find_rec(&r, "t/a/x", 0) >= 0));
				}
				assert_true(find_rec(&r, "t/z", 0) >= 0);
				free_result(&r);
				assert_int_equal(system("rm -rf t out"), 0);
			}
		}
	}
}

/* Usage: PROGRAM [PATTERN [SKIP]] (unit_filters). */
int main(int argc, char **argv)
{
	unit_filters(argc, argv);
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_every_entry_once),
		T(test_every_entry_once_few_fds),
		T(test_depth_limits),
		T(test_maxdepth_zero),
		T(test_post_and_both),
		T(test_sort),
		T(test_prune),
		T(test_multiple_roots),
		T(test_sorted_roots),
		T(test_dirs_left),
		T(test_root_trailing_slash),
		T(test_open_errors),
		T(test_physical),
		T(test_comfollow),
		T(test_logical),
		T(test_logical_post_visit_stat),
		T(test_logical_deep_loop),
		T(test_logical_reopen_through_link),
		T(test_getdents_error),
		T(test_close_midway),
		T(test_stat_ahead),
		T(test_read_ahead),
		T(test_read_ahead_wakes),
		T(test_read_ahead_queue),
		T(test_pf_take_sleeps),
		T(test_stat_cache),
		T(test_no_stats_when_listing),
		T(test_dtype_unknown),
		T(test_xdev),
		T(test_few_fds_deep_tree),
		T(test_wide_streamed),
		T(test_deep_chain),
		T(test_unreadable_directory),
		T(test_open_failure),
		T(test_emfile_retry),
		T(test_emfile_limit),
		T(test_swap_moved_out),
		T(test_swap_replaced),
		T(test_delete_tree),
		T(test_delete_special_cases),
		T(test_cancel),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
