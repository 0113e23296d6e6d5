/*
 * test_regex.c: characters in regular expressions (issue 22, item 12).
 *
 * The core's PCRE2 facade with LF_REGEX_UTF (lf_regex.h): characters, no
 * invalid byte, EILSEQ for a pattern that is not UTF-8; the GNU regex bound
 * (regex_bound.h) counting a UTF-8 character as one atom; and what a C host
 * gets from -regex and -iregex, in every engine, under LC_ALL=C and
 * C.UTF-8 (the context reads the locale from the environment, as GNU
 * find's setlocale(LC_ALL, "") does), paths of ASCII only included (they
 * take the C locale's twin of a GNU pattern under C.UTF-8: prim_tests.c).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lf_regex.h"
#include "query.h"
#include "regex_bound.h"

static bool matches(struct lf_regex *re, const char *s)
{
	int rc = lf_regex_exec(re, s, strlen(s), 0, 0);
	assert_true(rc >= 0);
	return rc == 1;
}

static void test_pcre2_utf(void **state)
{
	(void)state;
	char msg[128];
	size_t off = 0;
	struct lf_regex *re = lf_regex_compile("^.$", 3, LF_REGEX_UTF, msg, sizeof(msg), &off);
	assert_non_null(re);
	assert_true(matches(re, "\xc3\xa9"));      /* é: one character */
	assert_true(matches(re, "\xe6\xbc\xa2"));  /* 漢 */
	assert_false(matches(re, "\xff"));         /* no character at all */
	assert_false(matches(re, "ab"));
	lf_regex_free(re);

	re = lf_regex_compile("^.$", 3, 0, msg, sizeof(msg), &off);
	assert_non_null(re);
	assert_false(matches(re, "\xc3\xa9")); /* bytes: two */
	assert_true(matches(re, "\xff"));
	lf_regex_free(re);

	re = lf_regex_compile("^\xc3\x89$", 4, LF_REGEX_UTF | LF_REGEX_CASELESS, msg, sizeof(msg), &off);
	assert_non_null(re);
	assert_true(matches(re, "\xc3\xa9")); /* É folds to é */
	lf_regex_free(re);

	/* A pattern that is not UTF-8: EILSEQ, where, and bytes still work. */
	errno = 0;
	assert_null(lf_regex_compile("a\xff", 2, LF_REGEX_UTF, msg, sizeof(msg), &off));
	assert_int_equal(errno, EILSEQ);
	assert_int_equal(off, 1);
	assert_non_null(strstr(msg, "UTF-8"));
	errno = 0;
	assert_null(lf_regex_compile("(", 1, LF_REGEX_UTF, msg, sizeof(msg), &off));
	assert_int_equal(errno, EINVAL);
	re = lf_regex_compile("a\xff", 2, 0, msg, sizeof(msg), &off);
	assert_non_null(re);
	assert_true(matches(re, "a\xff"));
	lf_regex_free(re);
}

static void test_bound_multibyte(void **state)
{
	(void)state;
	const char *why;
	/* "é{1,255}": 255 copies of two bytes in UTF-8. */
	assert_true(lf_regex_bounded("\xc3\xa9{1,255}", 510, &why));
	assert_false(lf_regex_bounded("\xc3\xa9{1,255}", 509, &why));
	assert_string_equal(why, "repetitions that expand too far");
	assert_true(lf_regex_bounded("a{1,255}", 255, &why));
	/* 漢 (three bytes), escaped or not; nested. */
	assert_false(lf_regex_bounded("\xe6\xbc\xa2{1,100}", 299, &why));
	assert_true(lf_regex_bounded("\\\xe6\xbc\xa2{1,100}", 300, &why));
	assert_false(lf_regex_bounded("(\xf0\x9f\x98\x80{1,10}){1,10}", 399, &why));
	assert_true(lf_regex_bounded("(\xf0\x9f\x98\x80{1,10}){1,10}", 400, &why));
	/* A lead byte without its continuation is one byte; 0xff alone too. */
	assert_true(lf_regex_bounded("\xc3" "a{1,10}", 11, &why));
	assert_false(lf_regex_bounded("\xc3" "a{1,10}", 10, &why));
	assert_true(lf_regex_bounded("\xff{1,10}", 10, &why));
}

/* The names of the tree, the paths each pattern should select in each locale. */
static const char *const names[] = {"\xc3\xa9", "\xc3\x89", "\xe6\xbc\xa2", "ab", "\xff", "a\xff" "b", "k"};

#define NO_COMPILE (~0u) /* the pattern is an error in that locale */

struct want {
	const char *type, *test, *pattern;
	unsigned c, utf8; /* bit i: names[i] matches, or NO_COMPILE */
};

static const struct want wants[] = {
	/* "." is a byte in C, a character in UTF-8, and no invalid byte. */
	{"emacs", "-regex", ".*/.", 1 << 4 | 1 << 6, 1 << 0 | 1 << 1 | 1 << 2 | 1 << 6},
	{"emacs", "-regex", ".*/..", 1 << 0 | 1 << 1 | 1 << 3, 1 << 3},
	{"emacs", "-regex", ".*/a.b", 1 << 5, 0},
	{"emacs", "-iregex", ".*/\xc3\x89", 1 << 1, 1 << 0 | 1 << 1},
	{"emacs", "-regex", ".*/a\xff" "b", 1 << 5, 1 << 5},
	{"posix-extended", "-regex", ".*/[^/]{2}", 1 << 0 | 1 << 1 | 1 << 3, 1 << 3},
	{"posix-basic", "-iregex", ".*/AB", 1 << 3, 1 << 3},
	{"pcre2", "-regex", ".*/.", 1 << 4 | 1 << 6, 1 << 0 | 1 << 1 | 1 << 2 | 1 << 6},
	{"pcre2", "-regex", ".*/..", 1 << 0 | 1 << 1 | 1 << 3, 1 << 3},
	{"pcre2", "-iregex", ".*/\xc3\x89", 1 << 1, 1 << 0 | 1 << 1},
	{"pcre2", "-regex", ".*/a\xff" "b", 1 << 5, 1 << 5}, /* not UTF-8: bytes */
	{"pcre2", "-regex", ".*/\\w", 1 << 6, 1 << 0 | 1 << 1 | 1 << 2 | 1 << 6},
	/* The Kelvin sign folds to 'k': no twin on bytes for it (prim_tests.c). */
	{"pcre2", "-iregex", ".*/\\x{212a}", NO_COMPILE, 1 << 6},
	{"pcre2", "-iregex", ".*/K", 1 << 6, 1 << 6},
	{"emacs", "-iregex", ".*/K", 1 << 6, 1 << 6},
};

/* Bit i set when names[i] matched; every answer must be yes or no. */
static unsigned selected(const char *dir, const struct want *w)
{
	struct lf_ctx *ctx = lf_ctx_new();
	assert_non_null(ctx);
	char *expr[] = {"-regextype", (char *)w->type, (char *)w->test, (char *)w->pattern};
	struct lf_query *q = lf_query_compile(ctx, 4, expr, 0);
	if (!q) {
		lf_ctx_free(ctx);
		return NO_COMPILE;
	}
	const char *roots[] = {dir};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	opts.mindepth = 1;
	opts.maxdepth = 1;
	opts.roots = roots;
	opts.nroots = 1;
	struct lf_walk *walk = lf_walk_open(&opts);
	assert_non_null(walk);
	struct lf_entry *e;
	unsigned bits = 0;
	while (lf_walk_next(walk, &e) > 0) {
		int r = lf_query_eval(q, walk, e);
		assert_true(r >= 0);
		if (r == 0) {
			continue;
		}
		const char *name = e->path + strlen(dir) + 1;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (strcmp(name, names[i]) == 0) {
				bits |= 1u << i;
			}
		}
	}
	lf_walk_close(walk);
	assert_int_equal(lf_query_finish(q), 0);
	lf_query_free(q);
	lf_ctx_free(ctx);
	return bits;
}

static void test_query_locales(void **state)
{
	(void)state;
	locale_t probe = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	if (!probe) {
		skip(); /* glibc 2.35 and later build it in */
	}
	freelocale(probe);
	char dir[] = "/tmp/lf_test_regex.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[PATH_MAX];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
	int failed = 0;
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		setenv("LC_ALL", "C", 1);
		unsigned c = selected(dir, w);
		setenv("LC_ALL", "C.UTF-8", 1);
		unsigned utf8 = selected(dir, w);
		if (c != w->c || utf8 != w->utf8) {
			print_error("-regextype %s %s '%s': C %#x (expected %#x), C.UTF-8 %#x (expected %#x)\n",
				    w->type, w->test, w->pattern, c, w->c, utf8, w->utf8);
			failed++;
		}
	}
	unsetenv("LC_ALL");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcre2_utf),
		cmocka_unit_test(test_bound_multibyte),
		cmocka_unit_test(test_query_locales),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
