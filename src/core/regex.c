/*
 * regex.c: PCRE2 behind struct lf_regex, compiled once with JIT, matched with
 * one match data block created from the pattern, so matching never
 * allocates.  The only file that includes pcre2.h.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lf_regex.h"

#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lf_regex {
	pcre2_code *code;
	pcre2_match_data *md;
	size_t groups;
	uint32_t match_opts; /* added to every match (PCRE2_NO_UTF_CHECK) */
	char err[128];
};

struct lf_regex *lf_regex_compile(const char *pattern, size_t len, unsigned flags,
				  char *errmsg, size_t errlen, size_t *erroff)
{
	const unsigned known = LF_REGEX_CASELESS | LF_REGEX_EXTENDED | LF_REGEX_DOTALL |
			       LF_REGEX_MULTILINE | LF_REGEX_UTF;
	if (flags & ~known) {
		errno = EINVAL;
		return NULL;
	}
	uint32_t opts = 0;
	if (flags & LF_REGEX_CASELESS) {
		opts |= PCRE2_CASELESS;
	}
	if (flags & LF_REGEX_EXTENDED) {
		opts |= PCRE2_EXTENDED;
	}
	if (flags & LF_REGEX_DOTALL) {
		opts |= PCRE2_DOTALL;
	}
	if (flags & LF_REGEX_MULTILINE) {
		opts |= PCRE2_MULTILINE;
	}
	/* Names are bytes: UTF mode must tolerate invalid sequences in subjects. */
	if (flags & LF_REGEX_UTF) {
		opts |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
	}

	struct lf_regex *re = calloc(1, sizeof(*re));
	if (!re) {
		return NULL;
	}
	int code;
	PCRE2_SIZE off;
	re->code = pcre2_compile((PCRE2_SPTR)pattern, len, opts, &code, &off, NULL);
	if (!re->code) {
		if (errmsg && errlen) {
			if (pcre2_get_error_message(code, (PCRE2_UCHAR *)errmsg, errlen) < 0) {
				snprintf(errmsg, errlen, "PCRE2 error %d", code);
			}
		}
		if (erroff) {
			*erroff = off;
		}
		free(re);
		errno = code == PCRE2_ERROR_HEAPLIMIT || code == PCRE2_ERROR_NOMEMORY ? ENOMEM : EINVAL;
		return NULL;
	}
	/* JIT may be unavailable (SELinux, an odd CPU): the interpreter still works. */
	(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);

	uint32_t groups = 0;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &groups);
	re->groups = groups;
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md) {
		pcre2_code_free(re->code);
		free(re);
		errno = ENOMEM;
		return NULL;
	}
	return re;
}

void lf_regex_free(struct lf_regex *re)
{
	if (re) {
		pcre2_match_data_free(re->md);
		pcre2_code_free(re->code);
		free(re);
	}
}

size_t lf_regex_groups(const struct lf_regex *re)
{
	return re->groups;
}

int lf_regex_exec(struct lf_regex *re, const char *subject, size_t len, size_t start,
		  unsigned flags)
{
	uint32_t opts = re->match_opts;
	if (flags & LF_REGEX_NOTEMPTY_ATSTART) {
		opts |= PCRE2_NOTEMPTY_ATSTART;
	}
	int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, start, opts, re->md, NULL);
	if (rc >= 0) {
		/*
		 * rc == 0 would mean the ovector is too small, which cannot
		 * happen with match data made from the pattern.  Groups after
		 * the last one set are PCRE2_UNSET (== SIZE_MAX) already.
		 */
		return 1;
	}
	if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL) {
		return 0;
	}
	if (pcre2_get_error_message(rc, (PCRE2_UCHAR *)re->err, sizeof(re->err)) < 0) {
		snprintf(re->err, sizeof(re->err), "PCRE2 error %d", rc);
	}
	errno = rc == PCRE2_ERROR_NOMEMORY ? ENOMEM : EINVAL;
	return -1;
}

const size_t *lf_regex_ovector(const struct lf_regex *re)
{
	return pcre2_get_ovector_pointer(re->md);
}

const char *lf_regex_error(struct lf_regex *re)
{
	return re->err;
}
