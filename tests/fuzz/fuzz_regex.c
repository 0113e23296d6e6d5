/*
 * fuzz_regex.c: the PCRE2 facade (src/core/regex.c): the first byte picks
 * the flags (UTF-8 mode included), the input up to the first NUL is the
 * pattern, the rest the subject, matched from every start the way
 * re:gmatch iterates.
 */
#include "lf_regex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) {
		return 0;
	}
	unsigned flags = data[0] & 0x1f; /* enum lf_regex_flags, LF_REGEX_UTF included */
	const char *rest = (const char *)data + 1;
	size_t len = size - 1;
	const char *nul = memchr(rest, '\0', len);
	size_t plen = nul ? (size_t)(nul - rest) : len;
	const char *subject = nul ? nul + 1 : "";
	size_t slen = nul ? len - plen - 1 : 0;
	char msg[256];
	size_t off;
	struct lf_regex *re = lf_regex_compile(rest, plen, flags, msg, sizeof(msg), &off);
	if (!re) {
		return 0;
	}
	size_t start = 0;
	unsigned mflags = 0;
	for (int i = 0; i < 64 && start <= slen; i++) {
		int r = lf_regex_exec(re, subject, slen, start, mflags);
		if (r <= 0) {
			break;
		}
		const size_t *ov = lf_regex_ovector(re);
		if (ov[1] < ov[0] || ov[1] > slen) {
			abort();
		}
		start = ov[1];
		mflags = ov[0] == ov[1] ? LF_REGEX_NOTEMPTY_ATSTART : 0;
	}
	lf_regex_free(re);
	return 0;
}
