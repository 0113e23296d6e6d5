/*
 * diag.c: error and warning messages.  File names are quoted so that a name
 * holding a newline or an escape sequence cannot forge or hide output.
 */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

const char *lf_progname = "luafind";

void lf_diag_quote(FILE *fp, const char *s, size_t len)
{
	fputc('\'', fp);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\\': fputs("\\\\", fp); break;
		case '\'': fputs("\\'", fp); break;
		case '\a': fputs("\\a", fp); break;
		case '\b': fputs("\\b", fp); break;
		case '\f': fputs("\\f", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\v': fputs("\\v", fp); break;
		default:
			if (c >= 0x20 && c < 0x7f) {
				fputc(c, fp);
			} else {
				fprintf(fp, "\\%03o", c);
			}
		}
	}
	fputc('\'', fp);
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
