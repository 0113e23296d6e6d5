/*
 * regex.c: PCRE2 behind struct lf_regex, compiled once with JIT, matched with
 * one match data block created from the pattern, so matching never
 * allocates.  The only file that includes pcre2.h.
 *
 * SPDX-License-Identifier: MIT
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lf_regex.h"

#include <errno.h>
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lf_regex {
	pcre2_code *code;
	pcre2_match_data *md;
	size_t groups;
	uint32_t match_opts; /* added to every match (PCRE2_NO_UTF_CHECK) */
	const struct lf_mem *acct; /* &mem, or NULL without an account */
	struct lf_mem mem;   /* the caller's account, for PCRE2's memory functions */
	size_t jit_size;     /* charged for the JIT code */
	char err[128];
};

/*
 * PCRE2's memory functions under an account: each block starts with its
 * size, which free() has to give back.  PCRE2 takes everything of a
 * pattern through them (the code, the match data, the JIT compiler's own
 * blocks, the interpreter's heap frames) but the JIT's executable code,
 * charged apart (PCRE2_INFO_JITSIZE).
 */
union block {
	size_t size;
	max_align_t align;
};

static void *acct_malloc(PCRE2_SIZE size, void *data)
{
	const struct lf_mem *m = data;
	if (size > SIZE_MAX - sizeof(union block)) {
		return NULL;
	}
	size += sizeof(union block);
	if (!lf_mem_charge(m, size)) {
		return NULL;
	}
	union block *b = malloc(size);
	if (!b) {
		lf_mem_uncharge(m, size);
		return NULL;
	}
	b->size = size;
	return b + 1;
}

static void acct_free(void *p, void *data)
{
	if (p) {
		union block *b = (union block *)p - 1;
		lf_mem_uncharge(data, b->size);
		free(b);
	}
}

struct lf_regex *lf_regex_compile(const char *pattern, size_t len, unsigned flags,
				  char *errmsg, size_t errlen, size_t *erroff)
{
	return lf_regex_compile_mem(pattern, len, flags, NULL, errmsg, errlen, erroff);
}

struct lf_regex *lf_regex_compile_mem(const char *pattern, size_t len, unsigned flags, const struct lf_mem *mem,
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

	if (!lf_mem_charge(mem, sizeof(struct lf_regex))) {
		errno = ENOMEM;
		return NULL;
	}
	struct lf_regex *re = calloc(1, sizeof(*re));
	if (!re) {
		lf_mem_uncharge(mem, sizeof(struct lf_regex));
		return NULL;
	}
	pcre2_compile_context *cc = NULL;
	if (mem) {
		re->mem = *mem;
		re->acct = &re->mem;
		pcre2_general_context *gc = pcre2_general_context_create(acct_malloc, acct_free, &re->mem);
		cc = gc ? pcre2_compile_context_create(gc) : NULL;
		pcre2_general_context_free(gc); /* the compile context has its own copy */
		if (!cc) {
			lf_regex_free(re);
			errno = ENOMEM;
			return NULL;
		}
	}
	int code;
	PCRE2_SIZE off;
	re->code = pcre2_compile((PCRE2_SPTR)pattern, len, opts, &code, &off, cc);
	pcre2_compile_context_free(cc); /* the code keeps the memory functions */
	if (!re->code) {
		if (errmsg && errlen) {
			if (pcre2_get_error_message(code, (PCRE2_UCHAR *)errmsg, errlen) < 0) {
				snprintf(errmsg, errlen, "PCRE2 error %d", code);
			}
		}
		if (erroff) {
			*erroff = off;
		}
		lf_regex_free(re);
		if (code == PCRE2_ERROR_HEAP_FAILED || code == PCRE2_ERROR_NOMEMORY) {
			errno = ENOMEM;
		} else if (code <= PCRE2_ERROR_UTF8_ERR1 && code >= PCRE2_ERROR_UTF8_ERR21) {
			/* The pattern itself is not UTF-8: the caller may want bytes. */
			errno = EILSEQ;
		} else {
			errno = EINVAL;
		}
		return NULL;
	}
	/* JIT may be unavailable (SELinux, an odd CPU): the interpreter still works. */
	if (pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0 && re->acct) {
		size_t jit = 0;
		pcre2_pattern_info(re->code, PCRE2_INFO_JITSIZE, &jit);
		if (!lf_mem_charge(re->acct, jit)) {
			lf_regex_free(re);
			errno = ENOMEM;
			return NULL;
		}
		re->jit_size = jit;
	}

	uint32_t groups = 0;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &groups);
	re->groups = groups;
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL); /* the code's memory functions */
	if (!re->md) {
		lf_regex_free(re);
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
		lf_mem_uncharge(re->acct, re->jit_size + sizeof(*re));
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
