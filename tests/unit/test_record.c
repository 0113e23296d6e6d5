/*
 * test_record.c: lf_query_eval_record(), a query on the files a host found
 * by itself (struct lf_record).
 *
 *   - records give the answers a walk of the same tree gives, for each
 *     expression, whether they hold a type, none, stat data or statx data
 *     (and, built with the -lua primary, for -lua too);
 *   - a record without stat data is stat'ed only when the query needs a
 *     field, and one with stat data never (statx is wrapped and counted,
 *     against the query's counters);
 *   - no record content crashes: each invalid one is EINVAL, an error
 *     value, -1;
 *   - -delete, -execdir and -okdir are refused, at compile time with
 *     LF_QUERY_RECORDS or on the first record, and nothing is removed;
 *   - -printf's %H and %P, -prune and -depth on records.
 *
 * Built with LF_TEST_LUA (tests/unit/unit.cmake, when the binding is
 * built), it links the command line's -lua (src/cli/prim_lua.c) and parses
 * with the primaries registered in its context, as luafind(1) does.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit_util.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sys/stat.h>
#include <time.h>

#include "query.h"

#ifdef LF_TEST_LUA
#include "output.h"
#include "parse.h"
#include "prim_lua.h"
#include "record.h"
#include "run.h"
#endif

/* ---- statx, counted ------------------------------------------------------- */

static unsigned long statx_calls;

int __real_statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx);
int __wrap_statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx);
int __wrap_statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	statx_calls++;
	return __real_statx(dirfd, path, flags, mask, sx);
}

/* ---- the tree ------------------------------------------------------------- */

static void set_size(const char *path, off_t size)
{
	assert_int_equal(truncate(path, size), 0);
}

static void set_age(const char *path, time_t days)
{
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= days * 86400;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW), 0);
}

/* t/: files of several sizes, ages and modes, links (to a file, a directory, nowhere), a FIFO. */
static void make_tree(void)
{
	static const char *const spec[] = {
		"t/", "t/a/", "t/a/x.c", "t/a/y.c", "t/a/old.txt", "t/a/sp ace.c", "t/b/", "t/b/deep/",
		"t/b/deep/z.h", "t/b/deep/empty/", "t/ref", "t/lnk -> a/x.c", "t/dlnk -> a", "t/broken -> nowhere",
		"t/fifo|",
	};
	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		mk(NULL, spec[i]);
	}
	set_size("t/a/x.c", 100);
	set_size("t/a/y.c", 5000);
	set_size("t/b/deep/z.h", 2000);
	set_size("t/a/old.txt", 10);
	assert_int_equal(chmod("t/a/y.c", 0600), 0);
	assert_int_equal(chmod("t/a/old.txt", 0755), 0);
	set_age("t/a/old.txt", 10);
	set_age("t/ref", 5);
	set_age("t/b/deep/z.h", 3);
}

/* ---- what a walk answers, and what records answer --------------------------- */

/* One entry of the walk, as a host would keep it. */
struct item {
	char *path;
	int depth;
	enum lf_type type;
};

struct answers {
	struct strvec yes; /* paths, sorted */
	size_t no, untold;
};

static void answers_free(struct answers *a)
{
	sv_free(&a->yes);
}

static struct lf_query *compile(struct lf_ctx *ctx, char **words, unsigned flags)
{
	int n = 0;
	while (words[n]) {
		n++;
	}
	struct lf_query *q = lf_query_compile(ctx, n, words, flags);
	assert_non_null(q);
	return q;
}

static void add_answer(struct answers *a, int r, const char *path)
{
	if (r > 0) {
		sv_push(&a->yes, path);
	} else if (r == 0) {
		a->no++;
	} else {
		a->untold++;
	}
}

/* What a walk of t/ with the query's own options answers. */
static struct answers walk_answers(struct lf_ctx *ctx, char **words)
{
	struct answers a = {0};
	struct lf_query *q = compile(ctx, words, 0);
	const char *roots[] = {"t"};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	opts.roots = roots;
	opts.nroots = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct lf_entry *e;
	while (!lf_query_done(q) && lf_walk_next(w, &e) > 0) {
		add_answer(&a, lf_query_eval(q, w, e), e->path);
	}
	lf_walk_close(w);
	lf_query_finish(q);
	lf_query_free(q);
	sv_sort(&a.yes);
	return a;
}

/*
 * Every entry of t/, as a host of its own walk would list them: pre-order,
 * following links as the query does (-L, -H), no depth limit.
 */
static struct item *list_tree(struct lf_ctx *ctx, char **words, size_t *n)
{
	struct lf_query *q = compile(ctx, words, 0);
	const char *roots[] = {"t"};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	opts.roots = roots;
	opts.nroots = 1;
	opts.order = LF_ORDER_PRE;
	opts.mindepth = 0;
	opts.maxdepth = -1;
	opts.flags = 0;
	struct lf_walk *w = lf_walk_open(&opts);
	assert_non_null(w);
	struct item *v = NULL;
	size_t cap = 0;
	*n = 0;
	struct lf_entry *e;
	while (lf_walk_next(w, &e) > 0) {
		assert_int_not_equal(e->visit, LF_VISIT_ERROR);
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		v[*n].path = strdup(e->path);
		assert_non_null(v[*n].path);
		v[*n].depth = e->depth;
		v[*n].type = e->type;
		(*n)++;
	}
	lf_walk_close(w);
	lf_query_free(q);
	return v;
}

static void items_free(struct item *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
	}
	free(v);
}

/* How a record describes its file. */
enum mode {
	M_TYPE,  /* path, depth, the walk's type; no stat data */
	M_NONE,  /* path and depth only */
	M_STAT,  /* with struct stat */
	M_STATX, /* with struct statx */
};

/* Whether @path lies below @dir ("t/a/x" below "t/a"). */
static bool below(const char *path, const char *dir)
{
	size_t len = strlen(dir);
	return strncmp(path, dir, len) == 0 && path[len] == '/';
}

/*
 * What records of the entries @v answer, in @mode; a host that skips what
 * lies below a record the query pruned, as find does.  The statx calls
 * the query made are added to *@calls; with @keep, the query is kept
 * there, and its counters in *@counters.
 */
static struct answers record_answers(struct lf_ctx *ctx, char **words, const struct item *v, size_t n,
				     enum mode mode, unsigned long *calls, const struct lf_counters **counters,
				     struct lf_query **keep)
{
	struct answers a = {0};
	struct lf_query *q = compile(ctx, words, 0);
	bool follow_all = strcmp(words[0], "-L") == 0, follow_roots = strcmp(words[0], "-H") == 0;
	const char *pruned = NULL;
	for (size_t i = 0; i < n && !lf_query_done(q); i++) {
		if (pruned && below(v[i].path, pruned)) {
			continue;
		}
		struct lf_record rec = LF_RECORD_INIT;
		rec.path = v[i].path;
		rec.depth = v[i].depth;
		rec.type = mode == M_TYPE ? v[i].type : LF_UNKNOWN;
		bool follow = follow_all || (follow_roots && v[i].depth == 0);
		struct stat sb;
		struct statx sx;
		if (mode == M_STAT) {
			/* The host's view: stat(2) when following, lstat(2) for a broken link. */
			int r = follow ? stat(v[i].path, &sb) : -1;
			if (r != 0) {
				assert_int_equal(lstat(v[i].path, &sb), 0);
			}
			rec.st = &sb;
		} else if (mode == M_STATX) {
			int r = follow ? statx(AT_FDCWD, v[i].path, 0, STATX_BASIC_STATS | STATX_BTIME, &sx) : -1;
			if (r != 0) {
				assert_int_equal(statx(AT_FDCWD, v[i].path, AT_SYMLINK_NOFOLLOW,
						       STATX_BASIC_STATS | STATX_BTIME, &sx), 0);
			}
			rec.stx = &sx;
		}
		unsigned long before = statx_calls; /* the host's own are not the query's */
		int r = lf_query_eval_record(q, &rec);
		*calls += statx_calls - before;
		add_answer(&a, r, v[i].path);
		if (lf_query_record_pruned(q)) {
			pruned = v[i].path;
		}
	}
	lf_query_finish(q);
	if (keep) {
		*keep = q;
		*counters = lf_query_record_counters(q);
	} else {
		lf_query_free(q);
	}
	sv_sort(&a.yes);
	return a;
}

/* Expressions that test, in every form the walk and records share. */
static char *exprs[][8] = {
	{"-name", "*.c", NULL},
	{"-iname", "X.C", NULL},
	{"-size", "+1k", NULL},
	{"-size", "-1", NULL},
	{"-mtime", "+7", NULL},
	{"-mtime", "-1", NULL},
	{"-perm", "-u=x", NULL},
	{"-perm", "644", NULL},
	{"-user", "USER", NULL},
	{"-newer", "t/ref", NULL},
	{"-regex", ".*/[xy]\\.c", NULL},
	{"-type", "f", NULL},
	{"-type", "l", "-o", "-type", "p", NULL},
	{"-empty", NULL},
	{"!", "-type", "d", "-links", "1", NULL},
	{"-path", "*deep*", "-o", "-size", "+4k", NULL},
	{"-name", "a", "-prune", "-o", "-type", "f", NULL},
	{"-mindepth", "2", "-name", "*.c", NULL},
	{"-maxdepth", "1", NULL},
	{"-depth", "-type", "d", NULL},
	{"-exclude", "-name", "deep", "-size", "-1", NULL},
	{"-depth", "-exclude", "-name", "a", "-type", "d", NULL},
	{"-L", "-type", "f", NULL},
	{"-L", "-size", "+1k", "-name", "*.c", NULL},
	{"-L", "-xtype", "l", NULL},
	{"-H", "-type", "d", NULL},
	{"-samefile", "t/a/x.c", NULL},
};

static void test_same_as_walk(void **state)
{
	(void)state;
	make_tree();
	struct passwd *pw = getpwuid(getuid());
	assert_non_null(pw);
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		char *words[8];
		for (size_t j = 0; j < 8; j++) {
			words[j] = exprs[i][j] && strcmp(exprs[i][j], "USER") == 0 ? pw->pw_name : exprs[i][j];
		}
		struct answers want = walk_answers(ctx, words);
		assert_int_equal(want.untold, 0);
		size_t n;
		struct item *v = list_tree(ctx, words, &n);
		for (enum mode m = M_TYPE; m <= M_STATX; m++) {
			unsigned long calls = 0;
			struct answers got = record_answers(ctx, words, v, n, m, &calls, NULL, NULL);
			print_message("%s %s %s ... mode %d: %zu matches, %lu stats\n", words[0], words[1] ? words[1] : "",
				      words[1] && words[2] ? words[2] : "", (int)m, got.yes.n, calls);
			sv_assert_equal(&got.yes, &want.yes);
			assert_int_equal(got.untold, 0);
			if (m >= M_STAT && !(words[1] && strcmp(words[1], "-xtype") == 0)) {
				/* Never stat'ed for what the record holds (-xtype under -L
				 * asks for the link itself, which it does not). */
				assert_int_equal(calls, 0);
			}
			answers_free(&got);
		}
		items_free(v, n);
		answers_free(&want);
		size_t nerr;
		lf_ctx_errors(ctx, &nerr, NULL);
		assert_int_equal(nerr, 0);
	}
	lf_ctx_free(ctx);
}

/* Records of t/ in @mode with @words: the stats the query made, counted twice. */
static unsigned long stats_of(char **words, enum mode mode, uint64_t *counted)
{
	struct lf_ctx *ctx = lf_ctx_new();
	size_t n;
	struct item *v = list_tree(ctx, words, &n);
	unsigned long calls = 0;
	const struct lf_counters *c;
	struct lf_query *q;
	struct answers a = record_answers(ctx, words, v, n, mode, &calls, &c, &q);
	assert_int_equal(c->entries, n);
	*counted = c->stats + c->stats_follow;
	answers_free(&a);
	lf_query_free(q);
	items_free(v, n);
	lf_ctx_free(ctx);
	return calls;
}

/* A record is stat'ed only when the query needs a field; one with stat data never. */
static void test_lazy(void **state)
{
	(void)state;
	make_tree();
	size_t n;
	struct lf_ctx *ctx = lf_ctx_new();
	char *all[] = {"-true", NULL};
	struct item *v = list_tree(ctx, all, &n);
	items_free(v, n);
	lf_ctx_free(ctx);

	static char *name[] = {"-name", "*.c", NULL};
	static char *name_or_path[] = {"-name", "x*", "-o", "-path", "*deep*", "-o", "-regex", ".*z.*", NULL};
	static char *type[] = {"-type", "f", NULL};
	static char *size[] = {"-name", "*.c", "-size", "+1", NULL};
	static char *follow[] = {"-L", "-size", "+1", NULL};
	static char *name_or_size[] = {"-name", "*.h", "-o", "-size", "+1", NULL};
	uint64_t counted;

	/* Names, paths and regexes: no stat, whatever the record knows of its type. */
	assert_int_equal(stats_of(name, M_TYPE, &counted), 0);
	assert_int_equal(counted, 0);
	assert_int_equal(stats_of(name, M_NONE, &counted), 0);
	assert_int_equal(counted, 0);
	assert_int_equal(stats_of(name_or_path, M_NONE, &counted), 0);
	assert_int_equal(counted, 0);
	/* -type: the type known, no stat; unknown, one stat per record. */
	assert_int_equal(stats_of(type, M_TYPE, &counted), 0);
	assert_int_equal(stats_of(type, M_NONE, &counted), n);
	assert_int_equal(counted, n);
	/* -size after -name: a stat for each of the 3 "*.c" records only. */
	assert_int_equal(stats_of(size, M_TYPE, &counted), 3);
	assert_int_equal(counted, 3);
	/* Stat data given: never stat'ed for it, following or not. */
	assert_int_equal(stats_of(size, M_STAT, &counted), 0);
	assert_int_equal(counted, 0);
	assert_int_equal(stats_of(follow, M_STATX, &counted), 0);
	assert_int_equal(counted, 0);
	assert_int_equal(stats_of(name_or_size, M_STAT, &counted), 0);
	assert_int_equal(counted, 0);
}

/* ---- untrusted records ------------------------------------------------------- */

/* The errors @ctx kept: *@n, the last one's kind and errno checked. */
static const struct lf_error *last_error(struct lf_ctx *ctx, size_t want_n)
{
	size_t n;
	const struct lf_error *v = lf_ctx_errors(ctx, &n, NULL);
	assert_int_equal(n, want_n);
	return n ? &v[n - 1] : NULL;
}

static void test_invalid(void **state)
{
	(void)state;
	make_tree();
	struct lf_ctx *ctx = lf_ctx_new();
	char *words[] = {"-name", "*", NULL};
	struct lf_query *q = compile(ctx, words, 0);
	struct {
		struct lf_record rec;
		const char *why;
	} bad[] = {
		{{NULL, 0, LF_REG, NULL, NULL, NULL, 0}, "its path is NULL"},
		{{"", 0, LF_REG, NULL, NULL, NULL, 0}, "its path is empty"},
		{{"t/a", -1, LF_DIR, NULL, NULL, NULL, 0}, "its depth is negative"},
		{{"t/a", INT_MIN, LF_DIR, NULL, NULL, NULL, 0}, "its depth is negative"},
		{{"t/a", 1, (enum lf_type)99, NULL, NULL, NULL, 0}, "its type is no enum lf_type"},
		{{"t/a", 1, (enum lf_type)-1, NULL, NULL, NULL, 0}, "its type is no enum lf_type"},
		{{"t/a", 1, LF_DIR, NULL, NULL, NULL, 0x80}, "its flags hold unknown bits"},
		{{"t/a/", 1, LF_DIR, NULL, NULL, NULL, 0}, "its path ends in '/' below its root (depth > 0)"},
		{{"/", 3, LF_DIR, NULL, NULL, NULL, 0}, "its path ends in '/' below its root (depth > 0)"},
	};
	size_t nerr = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(lf_query_eval_record(q, &bad[i].rec), -1);
		const struct lf_error *e = last_error(ctx, ++nerr);
		assert_int_equal(e->kind, LF_ERROR_FILE);
		assert_int_equal(e->errnum, EINVAL);
		char want[256];
		if (bad[i].rec.path && bad[i].rec.path[0]) {
			snprintf(want, sizeof(want), "invalid record '%s': %s", bad[i].rec.path, bad[i].why);
			assert_memory_equal(e->path, bad[i].rec.path, e->pathlen);
		} else {
			snprintf(want, sizeof(want), "invalid record: %s", bad[i].why);
			assert_null(e->path);
		}
		assert_int_equal(e->length, strlen(want));
		assert_memory_equal(e->message, want, e->length);
	}
	assert_int_equal(lf_query_eval_record(q, NULL), -1);
	assert_int_equal(last_error(ctx, ++nerr)->errnum, EINVAL);

	/* What is defined: */
	struct stat file;
	assert_int_equal(lstat("t/a/x.c", &file), 0);
	struct lf_record ok[] = {
		{"t/a/x.c", INT_MAX, LF_REG, NULL, NULL, NULL, 0}, /* a huge depth, and a root derived from it */
		{"x.c", 1, LF_REG, NULL, NULL, NULL, 0},           /* no '/' (not there: -name needs no stat) */
		{"t/a/", 0, LF_DIR, NULL, NULL, NULL, 0},          /* a root's trailing slash */
		{"t/a/x.c", 1, LF_DIR, &file, NULL, NULL, 0},      /* the stat data's type wins */
		{"t/a/x.c", 0, LF_UNKNOWN, &file, NULL, "elsewhere", 0},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(lf_query_eval_record(q, &ok[i]), 1);
	}
	last_error(ctx, nerr);
	char *type[] = {"-type", "f", NULL};
	struct lf_query *q2 = compile(ctx, type, 0);
	assert_int_equal(lf_query_eval_record(q2, &ok[3]), 1);
	/* A file that is not there, once its type is needed: find's message, -1. */
	struct lf_record gone = {"t/nowhere", 1, LF_UNKNOWN, NULL, NULL, NULL, 0};
	assert_int_equal(lf_query_eval_record(q2, &gone), -1);
	const struct lf_error *e = last_error(ctx, ++nerr);
	assert_int_equal(e->kind, LF_ERROR_FILE);
	assert_int_equal(e->errnum, ENOENT);
	assert_int_equal(lf_query_finish(q2), 1);
	lf_query_free(q2);
	assert_int_equal(lf_query_finish(q), 1); /* the invalid records made the status 1 */
	lf_query_free(q);
	lf_ctx_free(ctx);
}

/* -delete, -execdir and -okdir never act on a record. */
static void test_refused(void **state)
{
	(void)state;
	make_tree();
	struct lf_ctx *ctx = lf_ctx_new();
	struct lf_record rec = {"t/a/x.c", 2, LF_REG, NULL, NULL, NULL, 0};

	char *del[] = {"-name", "*.c", "-delete", NULL};
	struct lf_query *q = compile(ctx, del, 0);
	assert_int_equal(lf_query_eval_record(q, &rec), -1);
	const struct lf_error *e = last_error(ctx, 1);
	assert_int_equal(e->kind, LF_ERROR_USAGE);
	assert_string_equal(e->primary, "-delete");
	assert_true(e->names_primary);
	assert_true(lf_query_done(q));
	assert_int_equal(lf_query_eval_record(q, &rec), -1);
	last_error(ctx, 1); /* said once */
	assert_int_equal(lf_query_finish(q), 1);
	lf_query_free(q);
	assert_int_equal(access("t/a/x.c", F_OK), 0);

	char *execdir[] = {"-name", "*.c", "-execdir", "rm", "{}", ";", NULL};
	q = compile(ctx, execdir, 0);
	assert_int_equal(lf_query_eval_record(q, &rec), -1);
	assert_string_equal(last_error(ctx, 2)->primary, "-execdir");
	lf_query_free(q);
	assert_int_equal(access("t/a/x.c", F_OK), 0);

	/* At compile time, with the index of the argument. */
	char *okdir[] = {"-name", "*.c", "-o", "-okdir", "rm", "{}", ";", NULL};
	assert_null(lf_query_compile(ctx, 7, okdir, LF_QUERY_RECORDS));
	e = last_error(ctx, 3);
	assert_int_equal(e->kind, LF_ERROR_USAGE);
	assert_int_equal(e->argi, 3);
	assert_string_equal(e->primary, "-okdir");
	/* The safe policy applies to records as to walks. */
	assert_null(lf_query_compile(ctx, 3, del, LF_QUERY_SAFE | LF_QUERY_RECORDS));
	/* What needs no directory fd is allowed. */
	char *fine[] = {"-name", "*.c", "-print", NULL};
	q = compile(ctx, fine, LF_QUERY_RECORDS);
	lf_query_free(q);
	lf_ctx_free(ctx);
}

/* Run @words on @recs with standard output captured; the output. */
static char *printed(char **words, const struct lf_record *recs, size_t n, bool *pruned)
{
	fflush(stdout);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(STDOUT_FILENO);
	assert_int_equal(dup2(fileno(tmp), STDOUT_FILENO), STDOUT_FILENO);
	struct lf_ctx *ctx = lf_ctx_new();
	struct lf_query *q = compile(ctx, words, 0);
	for (size_t i = 0; i < n; i++) {
		lf_query_eval_record(q, &recs[i]);
		if (pruned) {
			pruned[i] = lf_query_record_pruned(q);
		}
	}
	assert_int_equal(lf_query_finish(q), 0);
	lf_query_free(q);
	lf_ctx_free(ctx);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	char *buf = calloc(1, 4096);
	assert_non_null(buf);
	rewind(tmp);
	size_t len = fread(buf, 1, 4095, tmp);
	buf[len] = '\0';
	fclose(tmp);
	return buf;
}

static void test_printf(void **state)
{
	(void)state;
	make_tree();
	char *words[] = {"-printf", "%H|%P|%f|%d|%y\\n", NULL};
	struct lf_record recs[] = {
		{"t", 0, LF_DIR, NULL, NULL, NULL, 0},
		{"t/b/deep/z.h", 3, LF_REG, NULL, NULL, NULL, 0},
		{"t/b/deep/z.h", 1, LF_REG, NULL, NULL, NULL, 0},
		{"t/b/deep/z.h", 2, LF_REG, NULL, NULL, "t/b", 0},
		{"t/b/deep/z.h", 2, LF_REG, NULL, NULL, "t/bb", 0}, /* not its root: %P is the path */
		{"t/b/deep/z.h", 2, LF_REG, NULL, NULL, "t/b/deep/z.h/more", 0},
		{"/usr", 1, LF_DIR, NULL, NULL, NULL, 0},
		{"x", 7, LF_REG, NULL, NULL, NULL, 0}, /* more depth than components */
		{"t/a/", 0, LF_DIR, NULL, NULL, NULL, 0},
	};
	char *out = printed(words, recs, sizeof(recs) / sizeof(recs[0]), NULL);
	assert_string_equal(out, "t||t|0|d\n"
				 "t|b/deep/z.h|z.h|3|f\n"
				 "t/b/deep|z.h|z.h|1|f\n"
				 "t/b|deep/z.h|z.h|2|f\n"
				 "t/bb|t/b/deep/z.h|z.h|2|f\n"
				 "t/b/deep/z.h/more|t/b/deep/z.h|z.h|2|f\n"
				 "/|usr|usr|1|d\n"
				 "|x|x|7|f\n"
				 "t/a/||a/|0|d\n");
	free(out);

	/* -prune asks the host not to descend, but not under -depth; -print0 and -print. */
	char *prune[] = {"-name", "a", "-prune", "-print0", "-o", "-print", NULL};
	struct lf_record dirs[] = {
		{"t/a", 1, LF_DIR, NULL, NULL, NULL, 0},
		{"t/b", 1, LF_DIR, NULL, NULL, NULL, 0},
	};
	bool pruned[2];
	out = printed(prune, dirs, 2, pruned);
	assert_memory_equal(out, "t/a\0t/b\n", 9);
	assert_true(pruned[0]);
	assert_false(pruned[1]);
	free(out);
	char *depth_prune[] = {"-depth", "-name", "a", "-prune", NULL};
	out = printed(depth_prune, dirs, 1, pruned);
	assert_false(pruned[0]);
	free(out);
}

#ifdef LF_TEST_LUA
/*
 * -lua, as luafind(1) registers it: a run parsed by lf_parse() with the
 * context's primaries, on records (lf_records_eval) and on a walk, over
 * the same entries.
 */
static enum lf_run_result run_lua(const char *expr, const struct item *v, size_t n, bool records,
				  struct strvec *yes)
{
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	assert_int_equal(lf_prims_lua_add(ctx), 0);
	char *argv[] = {"luafind", "t", "-lua", (char *)expr, "-fprint", "/dev/null", NULL};
	struct lf_cmdline cmd;
	assert_int_equal(lf_parse(ctx, 6, argv, &cmd), 0);
	struct lf_out out;
	struct lf_run run = {0};
	assert_int_equal(lf_out_init(&out, STDOUT_FILENO), 0);
	assert_int_equal(lf_run_init(&run, &cmd, &out), 0);
	enum lf_run_result worst = LF_RUN_FALSE;
	if (records) {
		struct lf_records rs = {0};
		for (size_t i = 0; i < n; i++) {
			struct lf_record rec = {v[i].path, v[i].depth, v[i].type, NULL, NULL, NULL, 0};
			enum lf_run_result r = lf_records_eval(&rs, &run, &rec);
			if (r == LF_RUN_TRUE) {
				sv_push(yes, v[i].path);
			} else if (r != LF_RUN_FALSE) {
				worst = r;
			}
		}
		lf_records_free(&rs);
	} else {
		const char *roots[] = {"t"};
		struct lf_walk_opts opts = cmd.opts;
		opts.roots = roots;
		opts.nroots = 1;
		struct lf_walk *w = lf_walk_open(&opts);
		assert_non_null(w);
		struct lf_entry *e;
		while (lf_walk_next(w, &e) > 0) {
			enum lf_run_result r = lf_run_entry(&run, w, e);
			if (r == LF_RUN_TRUE) {
				sv_push(yes, e->path);
			} else if (r != LF_RUN_FALSE) {
				worst = r;
			}
		}
		lf_walk_close(w);
	}
	lf_run_finish(&run);
	lf_run_free(&run);
	lf_out_close(&out);
	lf_cmdline_free(&cmd);
	lf_cli_close_lua();
	lf_ctx_free(ctx);
	sv_sort(yes);
	return worst;
}

static void test_lua(void **state)
{
	(void)state;
	make_tree();
	struct lf_ctx *ctx = lf_ctx_new();
	char *all[] = {"-true", NULL};
	size_t n;
	struct item *v = list_tree(ctx, all, &n);
	lf_ctx_free(ctx);
	static const char *const exprs_lua[] = {
		"size > 1000",
		"name:match('%.c$') ~= nil",
		"type == 'd' and depth > 1",
		"mtime < now - 7 * days",
		"perm == tonumber('644', 8) or type == 'l'",
	};
	for (size_t i = 0; i < sizeof(exprs_lua) / sizeof(exprs_lua[0]); i++) {
		struct strvec want = {0}, got = {0};
		assert_int_equal(run_lua(exprs_lua[i], v, n, false, &want), LF_RUN_FALSE);
		assert_int_equal(run_lua(exprs_lua[i], v, n, true, &got), LF_RUN_FALSE);
		print_message("-lua %s: %zu matches\n", exprs_lua[i], want.n);
		assert_true(want.n > 0);
		sv_assert_equal(&got, &want);
		sv_free(&want);
		sv_free(&got);
	}
	items_free(v, n);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_as_walk, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_lazy, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_invalid, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_refused, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_printf, scratch_setup, scratch_teardown),
#ifdef LF_TEST_LUA
		cmocka_unit_test_setup_teardown(test_lua, scratch_setup, scratch_teardown),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
