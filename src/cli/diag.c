/*
 * diag.c: error and warning messages.  File names are quoted so that a name
 * holding a newline or an escape sequence cannot forge or hide output.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

const char *lf_progname = "luafind";

static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\'';
}

void lf_diag_quote(FILE *fp, const char *s, size_t len)
{
	bool quoted = false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (plain_byte(c)) {
			if (!quoted) {
				fputc('\'', fp);
				quoted = true;
			}
			fputc(c, fp);
			continue;
		}
		if (quoted) {
			fputc('\'', fp);
			quoted = false;
		}
		switch (c) {
		case '\'': fputs("\\'", fp); break;
		case '\n': fputs("$'\\n'", fp); break;
		case '\t': fputs("$'\\t'", fp); break;
		case '\r': fputs("$'\\r'", fp); break;
		default: fprintf(fp, "$'\\%03o'", c); break;
		}
	}
	if (quoted || len == 0) {
		fputs(len == 0 ? "''" : "'", fp);
	}
}

void lf_diag_path(const char *path, size_t len, int err)
{
	fprintf(stderr, "%s: ", lf_progname);
	lf_diag_quote(stderr, path, len);
	fprintf(stderr, ": %s\n", strerror(err));
}

void lf_diag(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", lf_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void lf_diag_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: warning: ", lf_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
