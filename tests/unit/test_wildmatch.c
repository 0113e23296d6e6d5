/*
 * test_wildmatch.c: unit tests of lf_wildmatch() (wildmatch.c), the
 * pattern matcher of -gitignore, on cases from git's t3070-wildmatch.sh:
 * each pattern against a text with WM_PATHNAME (what .gitignore patterns
 * with a "/" use) and without (basename patterns).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "gitignore.h"

#include <stdio.h>

static const struct {
	bool pathname, plain; /* the expected answers */
	const char *text, *pattern;
} cases[] = {
	{1, 1, "foo", "foo"},
	{0, 0, "foo", "bar"},
	{1, 1, "foo", "???"},
	{0, 0, "foo", "??"},
	{1, 1, "foo", "*"},
	{1, 1, "foo", "f*"},
	{0, 0, "foo", "*f"},
	{1, 1, "foo", "*foo*"},
	{1, 1, "foobar", "*ob*a*r*"},
	{1, 1, "aaaaaaabababab", "*ab"},
	{1, 1, "foo*", "foo\\*"},
	{0, 0, "foobar", "foo\\*bar"},
	{1, 1, "f\\oo", "f\\\\oo"},
	{1, 1, "ball", "*[al]?"},
	{0, 0, "ten", "[ten]"},
	{1, 1, "ten", "**[!te]"},
	{0, 0, "ten", "**[!ten]"},
	{1, 1, "ten", "t[a-g]n"},
	{0, 0, "ten", "t[!a-g]n"},
	{1, 1, "ton", "t[!a-g]n"},
	{1, 1, "ton", "t[^a-g]n"},
	{1, 1, "a]b", "a[]]b"},
	{1, 1, "a-b", "a[]-]b"},
	{1, 1, "a]b", "a[]-]b"},
	{0, 0, "aab", "a[]-]b"},
	{1, 1, "aab", "a[]a-]b"},
	{1, 1, "]", "]"},
	{0, 1, "foo/baz/bar", "foo*bar"},
	{0, 1, "foo/baz/bar", "foo**bar"},
	{1, 1, "foobazbar", "foo**bar"},
	{1, 1, "foo/baz/bar", "foo/**/bar"},
	{1, 1, "foo/baz/bar", "foo/**/**/bar"},
	{1, 1, "foo/b/a/z/bar", "foo/**/bar"},
	{1, 1, "foo/b/a/z/bar", "foo/**/**/bar"},
	{1, 1, "foo/bar", "foo/**/bar"},
	{1, 1, "foo/bar", "foo/**/**/bar"},
	{0, 1, "foo/bar", "foo?bar"},
	{0, 1, "foo/bar", "foo[/]bar"},
	{0, 1, "foo/bar", "foo[^a-z]bar"},
	{0, 1, "foo/bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r"},
	{1, 1, "foo-bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r"},
	{1, 1, "foo", "**/foo"},
	{1, 1, "XXX/foo", "**/foo"},
	{1, 1, "bar/baz/foo", "**/foo"},
	{0, 1, "bar/baz/foo", "*/foo"},
	{0, 1, "foo/bar/baz", "**/bar*"},
	{1, 1, "deep/foo/bar/baz", "**/bar/*"},
	{0, 1, "deep/foo/bar/baz/", "**/bar/*"},
	{1, 1, "deep/foo/bar/baz/", "**/bar/**"},
	{0, 0, "deep/foo/bar", "**/bar/*"},
	{1, 1, "deep/foo/bar/", "**/bar/**"},
	{0, 1, "foo/bar/baz", "**/bar**"},
	{1, 1, "foo/bar/baz/x", "*/bar/**"},
	{0, 1, "deep/foo/bar/baz/x", "*/bar/**"},
	{1, 1, "deep/foo/bar/baz/x", "**/bar/*/*"},
	{1, 1, "a1B", "[[:alpha:]][[:digit:]][[:upper:]]"},
	{0, 0, "a", "[[:digit:][:upper:][:space:]]"},
	{1, 1, "A", "[[:digit:][:upper:][:space:]]"},
	{1, 1, "1", "[[:digit:][:upper:][:space:]]"},
	{1, 1, " ", "[[:digit:][:upper:][:space:]]"},
	{1, 1, ".", "[[:digit:][:punct:][:space:]]"},
	{1, 1, "5", "[[:xdigit:]]"},
	{1, 1, "f", "[[:xdigit:]]"},
	{1, 1, "D", "[[:xdigit:]]"},
	{1, 1, "5", "[a-c[:digit:]x-z]"},
	{1, 1, "b", "[a-c[:digit:]x-z]"},
	{1, 1, "y", "[a-c[:digit:]x-z]"},
	{0, 0, "q", "[a-c[:digit:]x-z]"},
	{1, 1, "[ab]", "\\[ab]"},
	{1, 1, "-", "[\\-_]"},
	{1, 1, "]", "[\\]]"},
	{0, 0, "\\]", "[\\]]"},
	{0, 0, "\\", "[\\]]"},
	{0, 0, "ab", "a[]b"},
	{0, 0, "a", "[[:nosuchclass:]]"},
	{1, 1, "a/b/tmp/c", "**/tmp/**"},
	{0, 0, "a/b/tmpx/c", "**/tmp/**"},
	{1, 1, "tmp/c", "**/tmp/**"},
};

static void test_cases(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool p = lf_wildmatch(cases[i].pattern, cases[i].text, true);
		bool q = lf_wildmatch(cases[i].pattern, cases[i].text, false);
		if (p != cases[i].pathname || q != cases[i].plain) {
			fprintf(stderr, "'%s' against '%s': pathname %d (want %d), plain %d (want %d)\n",
				cases[i].pattern, cases[i].text, p, cases[i].pathname, q, cases[i].plain);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
