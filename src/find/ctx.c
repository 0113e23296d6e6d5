/*
 * ctx.c: creating and freeing a context, and its registry of primaries.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "ctx.h"

#include "color.h"
#include "diag.h"
#include "primary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int lf_ctx_add_primaries(struct lf_ctx *ctx, const struct lf_primary *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool known = false;
		for (size_t j = 0; j < ctx->nprims && !known; j++) {
			known = strcmp(ctx->prims[j].name, rows[i].name) == 0;
		}
		if (known) {
			continue;
		}
		if (ctx->nprims == ctx->capprims) {
			size_t cap = ctx->capprims ? 2 * ctx->capprims : 128;
			struct lf_primary *v = realloc(ctx->prims, cap * sizeof(*v));
			if (!v) {
				return -1;
			}
			ctx->prims = v;
			ctx->capprims = cap;
		}
		ctx->prims[ctx->nprims++] = rows[i];
	}
	return 0;
}

LF_PUBLIC struct lf_ctx *lf_ctx_new(void)
{
	struct lf_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		return NULL;
	}
	ctx->progname = "luafind";
	static const int ls_width[LF_LS_NCOLUMNS] = {
		[LF_LS_INODE] = 9, [LF_LS_BLOCKS] = 6, [LF_LS_NLINK] = 3, [LF_LS_OWNER] = 8,
		[LF_LS_GROUP] = 8, [LF_LS_MAJOR] = 3, [LF_LS_MINOR] = 3, [LF_LS_SIZE] = 8,
	};
	memcpy(ctx->ls_width, ls_width, sizeof(ls_width));
	if (lf_prims_core_add(ctx) != 0 || lf_prims_tests_add(ctx) != 0 || lf_prims_output_add(ctx) != 0 ||
	    lf_prims_exec_add(ctx) != 0) {
		int err = errno;
		lf_ctx_free(ctx);
		errno = err;
		return NULL;
	}
	ctx->nbuiltin = ctx->nprims;
	return ctx;
}

LF_PUBLIC void lf_ctx_set_reporter(struct lf_ctx *ctx, lf_report_fn *fn, void *arg, lf_report_fn **prev_fn,
				   void **prev_arg)
{
	if (prev_fn) {
		*prev_fn = ctx->report;
	}
	if (prev_arg) {
		*prev_arg = ctx->report_arg;
	}
	ctx->report = fn;
	ctx->report_arg = arg;
}

void lf_ctx_settings(struct lf_ctx *ctx)
{
	if (ctx->settings_ready) {
		return;
	}
	ctx->settings_ready = true;
	ctx->user_locale = newlocale(LC_ALL_MASK, "", (locale_t)0);
	/*
	 * No tzset(): localtime_r() reads TZ once for the process, under
	 * glibc's lock, while tzset() here would rewrite it under another
	 * context's feet.
	 */
	ctx->ls_now = time(NULL);
	ctx->ls_block_size = getenv("POSIXLY_CORRECT") ? 512 : 1024;
}

LF_PUBLIC void lf_ctx_free(struct lf_ctx *ctx)
{
	if (!ctx) {
		return;
	}
	lf_idnames_free(&ctx->ids);
	lf_mounts_free(&ctx->mounts);
	if (ctx->user_locale) {
		freelocale(ctx->user_locale);
	}
	if (ctx->msg) {
		fclose(ctx->msg);
	}
	free(ctx->msgbuf);
	lf_error_list_free(&ctx->kept);
	free(ctx->prims);
	lf_colors_free(ctx->colors);
	free(ctx);
}
