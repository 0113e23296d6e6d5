/*
 * fuzz_datetime.c: -newermt's date parser (src/find/datetime.c) on any
 * string: no crash, no undefined behaviour, and a success gives a time.
 */
#include "datetime.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s) {
		return 0;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	const struct timespec now = {1764590000, 123456789};
	struct timespec out;
	if (lf_datetime_parse(s, &now, &out) == 0 && (out.tv_nsec < 0 || out.tv_nsec >= 1000000000)) {
		abort();
	}
	free(s);
	return 0;
}
