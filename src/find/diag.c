/*
 * diag.c: error values and their messages.  File names are quoted so that a
 * name holding a newline or an escape sequence cannot forge or hide output.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "diag.h"

#include "color.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const struct lf_colors *lf_diag_colors(const struct lf_ctx *ctx, FILE *fp)
{
	if (fp != stderr || !ctx->colors ||
	    !lf_color_wanted((enum lf_color_mode)ctx->color_stderr, isatty(STDERR_FILENO), false)) {
		return NULL;
	}
	return ctx->colors;
}

void lf_diag_print(const struct lf_ctx *ctx, FILE *fp, const struct lf_error *err)
{
	/* As bfs colors them: the program name bold, or an error's red; "warning:" yellow. */
	const struct lf_colors *c = lf_diag_colors(ctx, fp);
	bool error = err->kind != LF_ERROR_WARNING && err->kind != LF_ERROR_NOTE;
	enum lf_color_key name = error ? LF_COLOR_ERR : LF_COLOR_BOLD;
	lf_color_fstart(c, fp, name);
	fprintf(fp, "%s:", ctx->progname);
	lf_color_fend(c, fp, name);
	fputc(' ', fp);
	if (err->kind == LF_ERROR_WARNING) {
		lf_color_fstart(c, fp, LF_COLOR_WARN);
		fputs("warning:", fp);
		lf_color_fend(c, fp, LF_COLOR_WARN);
		fputc(' ', fp);
	}
	fwrite(err->message, 1, err->length, fp);
	fputc('\n', fp);
}

/* ---- collecting --------------------------------------------------------- */

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void collect(void *arg, const struct lf_error *err)
{
	struct lf_error_list *list = arg;
	if (list->n == list->cap) {
		size_t cap = list->cap ? 2 * list->cap : 4;
		struct lf_error *v = realloc(list->v, cap * sizeof(*v));
		if (!v) {
			list->overflow = true;
			return;
		}
		list->v = v;
		list->cap = cap;
	}
	struct lf_error copy = *err;
	copy.message = dup_n(err->message, err->length);
	copy.path = err->path ? dup_n(err->path, err->pathlen) : NULL;
	copy.primary = err->primary ? strdup(err->primary) : NULL;
	if (!copy.message || (err->path && !copy.path) || (err->primary && !copy.primary)) {
		free((char *)copy.message);
		free((char *)copy.path);
		free((char *)copy.primary);
		list->overflow = true;
		return;
	}
	list->v[list->n++] = copy;
}

void lf_diag_report(struct lf_ctx *ctx, const struct lf_error *err)
{
	int saved = errno;
	struct lf_error e = *err;
	if (!e.primary && ctx->parsing && e.kind != LF_ERROR_WARNING && e.kind != LF_ERROR_NOTE) {
		e.primary = ctx->parsing;
	}
	if (ctx->report) {
		ctx->report(ctx->report_arg, &e);
	} else if (ctx->kept.n < LF_CTX_KEPT_MAX) {
		size_t before = ctx->kept.n;
		collect(&ctx->kept, &e);
		ctx->kept_dropped += ctx->kept.n == before;
	} else {
		ctx->kept_dropped++;
	}
	errno = saved;
}

LF_PUBLIC void lf_report_stderr(void *ctx, const struct lf_error *err)
{
	lf_diag_print(ctx, stderr, err);
}

LF_PUBLIC const struct lf_error *lf_ctx_errors(const struct lf_ctx *ctx, size_t *n, size_t *dropped)
{
	*n = ctx->kept.n;
	if (dropped) {
		*dropped = ctx->kept_dropped;
	}
	return ctx->kept.v;
}

LF_PUBLIC void lf_ctx_clear_errors(struct lf_ctx *ctx)
{
	lf_error_list_free(&ctx->kept);
	ctx->kept_dropped = 0;
}

/* Report @message; on ENOMEM (NULL) at least say that. */
static void report_text(struct lf_ctx *ctx, enum lf_error_kind kind, const char *message, size_t length,
			const char *path, size_t pathlen, int errnum)
{
	struct lf_error e = {
		.kind = kind,
		.message = message ? message : strerror(ENOMEM),
		.length = message ? length : strlen(strerror(ENOMEM)),
		.path = path,
		.pathlen = pathlen,
		.errnum = message ? errnum : ENOMEM,
		.argi = -1,
	};
	lf_diag_report(ctx, &e);
}

FILE *lf_diag_begin(struct lf_ctx *ctx)
{
	free(ctx->msgbuf);
	ctx->msgbuf = NULL;
	ctx->msglen = 0;
	ctx->msg = open_memstream(&ctx->msgbuf, &ctx->msglen);
	if (!ctx->msg) {
		/* Out of memory: the text goes nowhere, lf_diag_end says ENOMEM. */
		ctx->msg = fopen("/dev/null", "we");
	}
	return ctx->msg ? ctx->msg : stderr;
}

void lf_diag_end(struct lf_ctx *ctx, enum lf_error_kind kind, const char *path, size_t pathlen, int errnum)
{
	bool ok = ctx->msg && fclose(ctx->msg) == 0 && ctx->msgbuf;
	ctx->msg = NULL;
	report_text(ctx, kind, ok ? ctx->msgbuf : NULL, ctx->msglen, path, pathlen, errnum);
	free(ctx->msgbuf);
	ctx->msgbuf = NULL;
}

void lf_diag_path(struct lf_ctx *ctx, const char *path, size_t len, int err)
{
	lf_diag_file(ctx, "", path, len, err);
}

void lf_diag_file(struct lf_ctx *ctx, const char *before, const char *path, size_t len, int err)
{
	FILE *fp = lf_diag_begin(ctx);
	fputs(before, fp);
	lf_diag_quote(fp, path, len);
	fprintf(fp, ": %s", strerror(err));
	lf_diag_end(ctx, LF_ERROR_FILE, path, len, err);
}

static void vdiag(struct lf_ctx *ctx, enum lf_error_kind kind, const char *fmt, va_list ap)
{
	char *msg = NULL;
	int n = vasprintf(&msg, fmt, ap);
	if (n < 0) {
		msg = NULL;
	}
	report_text(ctx, kind, msg, n < 0 ? 0 : (size_t)n, NULL, 0, 0);
	free(msg);
}

void lf_diag_kind(struct lf_ctx *ctx, enum lf_error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(ctx, kind, fmt, ap);
	va_end(ap);
}

void lf_diag(struct lf_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(ctx, LF_ERROR_USAGE, fmt, ap);
	va_end(ap);
}

void lf_diag_warn(struct lf_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(ctx, LF_ERROR_WARNING, fmt, ap);
	va_end(ap);
}

void lf_diag_collect(struct lf_ctx *ctx, struct lf_diag_collector *c, struct lf_error_list *list)
{
	c->list = list;
	lf_ctx_set_reporter(ctx, collect, list, &c->prev_fn, &c->prev_arg);
}

void lf_diag_uncollect(struct lf_ctx *ctx, struct lf_diag_collector *c)
{
	lf_ctx_set_reporter(ctx, c->prev_fn, c->prev_arg, NULL, NULL);
}

void lf_error_list_free(struct lf_error_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free((char *)list->v[i].message);
		free((char *)list->v[i].path);
		free((char *)list->v[i].primary);
	}
	free(list->v);
	*list = (struct lf_error_list){0};
}
