/*
 * rematch_fail.c: an LD_PRELOAD shim whose re_match() always fails as
 * glibc's does when it runs out of memory (-2), so that checks.sh can test
 * that a GNU-syntax -regex match error stops the walk instead of reading
 * as "no match".
 */
#define _GNU_SOURCE
#include <regex.h>

regoff_t re_match(struct re_pattern_buffer *buffer, const char *string, regoff_t length, regoff_t start,
		  struct re_registers *regs)
{
	(void)buffer;
	(void)string;
	(void)length;
	(void)start;
	(void)regs;
	return -2;
}
