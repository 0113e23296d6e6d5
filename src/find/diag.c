/*
 * diag.c: error and warning messages.  File names are quoted so that a name
 * holding a newline or an escape sequence cannot forge or hide output.
 * Messages go to the context's stream: stderr, or the buffer of a capture
 * (open_memstream).
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

FILE *lf_diag_stream(const struct lf_ctx *ctx)
{
	return ctx->diag ? ctx->diag : stderr;
}

FILE *lf_diag_redirect(struct lf_ctx *ctx, FILE *fp)
{
	FILE *prev = ctx->diag;
	ctx->diag = fp;
	return prev;
}

int lf_diag_capture(struct lf_ctx *ctx, struct lf_diag_capture *c)
{
	c->data = NULL;
	c->len = 0;
	c->prev = ctx->diag;
	c->fp = open_memstream(&c->data, &c->len);
	if (!c->fp) {
		return -1;
	}
	ctx->diag = c->fp;
	return 0;
}

void lf_diag_release(struct lf_ctx *ctx, struct lf_diag_capture *c)
{
	if (c->fp) {
		/* fclose leaves the final buffer and size in c->data, c->len. */
		if (fclose(c->fp) != 0) {
			free(c->data);
			c->data = NULL;
			c->len = 0;
		}
		c->fp = NULL;
		ctx->diag = c->prev;
	}
}

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

char *lf_diag_quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp) {
		return NULL;
	}
	lf_diag_quote(fp, s, strlen(s));
	if (fclose(fp) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

FILE *lf_diag_begin(struct lf_ctx *ctx)
{
	FILE *fp = lf_diag_stream(ctx);
	fprintf(fp, "%s: ", ctx->progname);
	return fp;
}

void lf_diag_path(struct lf_ctx *ctx, const char *path, size_t len, int err)
{
	FILE *fp = lf_diag_begin(ctx);
	lf_diag_quote(fp, path, len);
	fprintf(fp, ": %s\n", strerror(err));
}

void lf_diag(struct lf_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	FILE *fp = lf_diag_begin(ctx);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	fputc('\n', fp);
	va_end(ap);
}

void lf_diag_warn(struct lf_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	FILE *fp = lf_diag_begin(ctx);
	va_start(ap, fmt);
	fputs("warning: ", fp);
	vfprintf(fp, fmt, ap);
	fputc('\n', fp);
	va_end(ap);
}
