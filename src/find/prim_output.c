/*
 * prim_output.c: find's output actions, -printf, -fprintf, -ls, -fls,
 * -fprint and -fprint0, written to produce GNU find 4.9's bytes; and
 * -json, -fjson (json.c writes the objects).  Formats
 * are printf.c's, output streams sink.c's, names and modes names.c's; this
 * file holds the actions themselves and -ls.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "color.h"
#include "diag.h"
#include "expr.h"
#include "json.h"
#include "names.h"
#include "parse.h"
#include "primary.h"
#include "printf.h"
#include "sink.h"
#include "ulocale.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

/* ---- the user's locale ------------------------------------------------- */

/*
 * GNU find calls setlocale(LC_ALL, ""), which shows in strftime's names, the
 * radix character of %S and what a terminal can display.  luafind's main
 * stays in the C locale, so the actions switch this thread to the user's
 * locale (the context's, lf_ctx_settings) while they format, and leave the
 * rest of the program alone.
 */
static locale_t enter_locale(const struct lf_ctx *ctx)
{
	return lf_ulocale_enter(ctx->user_locale);
}

/* ---- actions ---------------------------------------------------------------- */

/* An output action: where it writes and, for -printf and -fprintf, what. */
struct action {
	struct lf_sink *sink;
	bool finished; /* its walk is over: the sink no longer waits for it */
	struct lf_printf *format;
	struct lf_json_fields json; /* -json and -fjson */
};

/* ---- names ---------------------------------------------------------------- */

/* The columns a name takes, as gnulib's mbswidth in the C locale. */
static int name_width(const char *s)
{
	int w = 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isprint(c) || !iscntrl(c)) {
			w++;
		}
	}
	return w;
}

/* The walk's stat data, or a message and NULL (the action is then false). */
static const struct lf_stat *action_stat(struct lf_eval *ev)
{
	return lf_eval_stat(ev);
}

/*
 * %Y on a link whose target cannot be checked (EACCES) prints '?'; but when
 * the link itself cannot be stat'ed either (it is in a directory that cannot
 * be searched), that is an error and the entry is not printed, as in GNU
 * find and bfs.  Other files take %Y from d_type, with no stat.
 */
static bool target_type_ok(struct lf_eval *ev)
{
	struct lf_entry *e = ev->entry;
	if (e->type != LF_LNK || lf_entry_stat(e, LF_FOLLOW) || errno == ENOENT || errno == ENOTDIR ||
	    errno == ELOOP || lf_entry_stat(e, LF_NOFOLLOW)) {
		return true;
	}
	lf_eval_file_error(ev, e->path, e->pathlen, errno);
	return false;
}

/* A directive that -printf could not write to its sink. */
struct sink_error {
	const struct lf_sink *sink;
	struct lf_eval *ev;
};

static void report_sink_error(void *arg, int err)
{
	struct sink_error *se = arg;
	lf_sink_report(se->sink, se->ev, err);
}

static bool eval_printf(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	const struct lf_stat *st = NULL;
	if (lf_printf_needs_stat(a->format) && !(st = action_stat(ev))) {
		return false;
	}
	if (lf_printf_reads_target(a->format) && !target_type_ok(ev)) {
		return false;
	}
	locale_t old = enter_locale(ev->cmd->ctx);
	struct sink_error se = {a->sink, ev};
	struct lf_printf_out out = {lf_sink_begin(a->sink, ev), lf_sink_tty(a->sink), report_sink_error, &se};
	lf_printf_render(a->format, ev, st, &out);
	lf_sink_end(a->sink);
	lf_ulocale_leave(old);
	return true;
}


/* ---- -ls ------------------------------------------------------------------ */

/*
 * Column widths, which only grow, shared by every -ls and -fls of the run as
 * in GNU's listfile.c (its static variables).
 */


/* printf to a writer; @return the bytes written, as fprintf. */
static int outf(struct lf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int outf(struct lf_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = lf_out_vprintf(o, fmt, ap);
	va_end(ap);
	return n;
}

static void widen(int *width, int n)
{
	if (n > *width) {
		*width = n;
	}
}

/* A name in -ls: C-style escapes for blanks, quotes and unprintables. */
static void ls_name(struct lf_out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		switch (ch) {
		case '\\': lf_out_write(o, "\\\\", 2); break;
		case '\n': lf_out_write(o, "\\n", 2); break;
		case '\b': lf_out_write(o, "\\b", 2); break;
		case '\r': lf_out_write(o, "\\r", 2); break;
		case '\t': lf_out_write(o, "\\t", 2); break;
		case '\f': lf_out_write(o, "\\f", 2); break;
		case ' ': lf_out_write(o, "\\ ", 2); break;
		case '"': lf_out_write(o, "\\\"", 2); break;
		default:
			if (ch > 040 && ch < 0177) {
				lf_out_putc(o, (char)ch);
			} else {
				outf(o, "\\%03o", ch);
			}
		}
	}
}

/* One line of `ls -dils`, as GNU's list_file(). */
static void list_file(struct lf_out *o, struct lf_eval *ev, const struct lf_stat *st)
{
	struct lf_ctx *ctx = ev->cmd->ctx;
	int *width = ctx->ls_width;
	struct lf_entry *e = ev->entry;
	char mode[12];
	lf_mode_string(st->mode, mode);
	if (o->colors) {
		lf_color_write_normal(o->colors, o); /* ls -l's text is "normal" (bfs) */
	}

	widen(&width[LF_LS_INODE], outf(o, "%*" PRIu64, width[LF_LS_INODE], st->ino));
	lf_out_putc(o, ' ');
	uint64_t blocks = (uint64_t)st->blocks;
	if (ctx->ls_block_size == 1024) {
		blocks = (blocks + 1) / 2;
	}
	widen(&width[LF_LS_BLOCKS], outf(o, "%*" PRIu64, width[LF_LS_BLOCKS], blocks));
	lf_out_putc(o, ' ');
	lf_out_write(o, mode, 11);
	widen(&width[LF_LS_NLINK], outf(o, "%*" PRIu64, width[LF_LS_NLINK], st->nlink));
	lf_out_putc(o, ' ');

	const char *user = lf_idnames_get(&ctx->ids, false, st->uid);
	if (user) {
		widen(&width[LF_LS_OWNER], name_width(user));
		outf(o, "%-*s ", width[LF_LS_OWNER], user);
	} else {
		/* GNU counts the separating space into the width here. */
		widen(&width[LF_LS_OWNER], outf(o, "%-8lu ", (unsigned long)st->uid));
	}
	const char *group = lf_idnames_get(&ctx->ids, true, st->gid);
	if (group) {
		widen(&width[LF_LS_GROUP], name_width(group));
		outf(o, "%-*s ", width[LF_LS_GROUP], group);
	} else {
		widen(&width[LF_LS_GROUP], outf(o, "%-*lu", width[LF_LS_GROUP], (unsigned long)st->gid));
		lf_out_putc(o, ' ');
	}

	if (S_ISCHR(st->mode) || S_ISBLK(st->mode)) {
		widen(&width[LF_LS_MAJOR], outf(o, "%*lu", width[LF_LS_MAJOR], (unsigned long)major(st->rdev)));
		lf_out_write(o, ", ", 2);
		widen(&width[LF_LS_MINOR], outf(o, "%*lu", width[LF_LS_MINOR], (unsigned long)minor(st->rdev)));
	} else {
		widen(&width[LF_LS_SIZE], outf(o, "%*" PRIu64, width[LF_LS_SIZE], (uint64_t)st->size));
	}
	lf_out_putc(o, ' ');

	struct tm tm;
	time_t mtime = st->mtime.tv_sec;
	if (localtime_r(&mtime, &tm)) {
		/* The year for files older than about six months or in the future. */
		bool recent = ctx->ls_now - 6 * 30 * 24 * 60 * 60 <= mtime && mtime <= ctx->ls_now + 60 * 60;
		char date[256];
		if (strftime(date, sizeof(date), recent ? "%b %e %H:%M" : "%b %e  %Y", &tm) == 0) {
			date[0] = '\0';
		}
		outf(o, "%s ", date);
	} else if (mtime < 0) {
		char num[24];
		int len = snprintf(num, sizeof(num), "%" PRIu64, -(uint64_t)mtime);
		outf(o, "%*s%s ", 12 - len < 0 ? 0 : 12 - len, "-", num);
	} else {
		outf(o, "%12" PRIu64 " ", (uint64_t)mtime);
	}

	if (o->colors) {
		lf_color_write_normal_end(o->colors, o);
		lf_color_write_entry(o->colors, o, e, ls_name);
	} else {
		ls_name(o, e->path, e->pathlen);
	}
	if (S_ISLNK(st->mode)) {
		char *target = lf_read_link(e);
		if (target) {
			lf_out_write(o, " -> ", 4);
			if (o->colors) {
				lf_color_write_target(o->colors, o, e, target, ls_name);
			} else {
				ls_name(o, target, strlen(target));
			}
			free(target);
		} else if (ev->cmd->noerror) {
			ev->suppressed++; /* not a failure of the entry: the status stays as it is */
		} else {
			/* GNU names the file unquoted here and keeps the status. */
			int err = errno;
			lf_out_flush(ev->out);
			lf_diag_kind(ctx, LF_ERROR_FILE, "%s: %s", e->path, strerror(err));
		}
	}
	lf_out_putc(o, '\n');
}

static bool eval_ls(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	const struct lf_stat *st = action_stat(ev);
	if (!st) {
		return false;
	}
	locale_t old = enter_locale(ev->cmd->ctx);
	list_file(lf_sink_begin(a->sink, ev), ev, st);
	lf_sink_end(a->sink);
	lf_ulocale_leave(old);
	return true;
}

void lf_out_write_name_tty(const struct lf_ctx *ctx, struct lf_out *o, const char *name, size_t len)
{
	locale_t old = enter_locale(ctx);
	lf_out_write_displayable(o, name, len);
	lf_ulocale_leave(old);
}

void lf_out_write_entry_colored(const struct lf_ctx *ctx, struct lf_out *o, struct lf_entry *e)
{
	locale_t old = enter_locale(ctx);
	lf_color_write_entry(o->colors, o, e, NULL);
	lf_ulocale_leave(old);
}

/* ---- -fprint, -fprint0 ------------------------------------------------------ */

static bool eval_fprint(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct lf_entry *e = ev->entry;
	struct lf_out *o = lf_sink_begin(a->sink, ev);
	if (o->colors) {
		lf_out_write_entry_colored(ev->cmd->ctx, o, e);
	} else if (lf_sink_tty(a->sink)) {
		locale_t old = enter_locale(ev->cmd->ctx);
		lf_out_write_displayable(o, e->path, e->pathlen);
		lf_ulocale_leave(old);
	} else {
		lf_out_write(o, e->path, e->pathlen);
	}
	lf_out_putc(o, '\n');
	lf_sink_end(a->sink);
	return true;
}

static bool eval_fprint0(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct lf_out *o = lf_sink_begin(a->sink, ev);
	lf_out_write(o, ev->entry->path, ev->entry->pathlen + 1);
	lf_sink_end(a->sink);
	return true;
}

/* ---- -json, -fjson ---------------------------------------------------------- */

/*
 * One object per entry, with the same keys for every entry: stat data only
 * if a field needs it (the default set does), the stat the expression may
 * have made already.  A stat that fails is reported as a test's is (once per
 * entry, status 1, quiet under -noerror) and its fields are null: the entry
 * is still written, never dropped and never missing a key.  Only a file
 * gone under -ignore_readdir_race is left out, as that option asks.
 */
static bool eval_json(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct lf_entry *e = ev->entry;
	const struct lf_stat *st = NULL;
	if (a->json.needs_stat && !(st = lf_eval_stat(ev)) && errno == ENOENT && ev->cmd->ignore_race &&
	    e->depth > 0) {
		return false;
	}
	struct lf_ctx *ctx = ev->cmd->ctx;
	int err = lf_json_write_entry(lf_sink_begin(a->sink, ev), e, st, &a->json, &ctx->ids);
	lf_sink_end(a->sink);
	if (err) {
		/* The link's target could not be read: written as null. */
		lf_eval_file_error(ev, e->path, e->pathlen, err);
	}
	return true;
}

/* ---- parsing ---------------------------------------------------------------- */

static void action_free(void *data)
{
	struct action *a = data;
	if (!a) {
		return;
	}
	lf_printf_free(a->format);
	if (a->sink) {
		lf_sink_release(a->sink, !a->finished);
	}
	free(a);
}

static void action_finish(struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	if (!a->finished) {
		a->finished = true;
		lf_sink_finish(a->sink, ev);
	}
}

/*
 * The node of an output action writing to @file (argument 1; NULL for
 * standard output), with @format (argument @format_arg) compiled if given.
 */
static struct lf_expr *output_node(struct lf_parser *p, const struct lf_primary *prim, const char *file,
				   const char *format, int format_arg)
{
	if (prim->eval != eval_json) {
		lf_ctx_settings(lf_parser_ctx(p)); /* the user's locale: JSON needs none */
	}
	struct action *a = calloc(1, sizeof(*a));
	if (!a) {
		lf_parse_error(p, 0, "%s", strerror(ENOMEM));
		return NULL;
	}
	/* As GNU: the file is created before the format is looked at. */
	a->sink = lf_sink_open(p, 1, file ? file : "/dev/stdout");
	if (!a->sink || (format && lf_printf_compile(p, format_arg, format, &a->format) != 0)) {
		action_free(a);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		action_free(a);
		return NULL;
	}
	x->data = a;
	x->destroy = action_free;
	x->finish = action_finish;
	if (format) {
		/* For the optimizer: whether evaluating may stat (%Y does for links). */
		x->needs_stat = lf_printf_may_stat(a->format);
		x->stats_every = lf_printf_needs_stat(a->format); /* then it stats before anything else */
	}
	return x;
}

/*
 * -json [FIELDS], -fjson FILE [FIELDS]: the argument after them is a field
 * list unless it starts the rest of the expression (an operator or a word
 * starting with '-').  No other word can stand there (paths come before the
 * expression, and every primary starts with '-'), so a list is never taken
 * for the expression nor the expression for a list; an empty word is an
 * empty list, an error, not the default set.  Without a list, the default
 * set (lf_json_fields_default).
 */
static struct lf_expr *parse_json(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	bool to_file = strcmp(prim->name, "-fjson") == 0;
	const char *file = NULL;
	if (to_file) {
		if (!args[0]) {
			lf_parse_error_named(p, 0, "missing argument to `%s'", prim->name);
			return NULL;
		}
		file = *args++;
	}
	const char *list = args[0];
	if (list && (list[0] == '-' || strcmp(list, "(") == 0 || strcmp(list, ")") == 0 || strcmp(list, "!") == 0 ||
		     strcmp(list, ",") == 0)) {
		list = NULL;
	}
	int argoff = 1 + to_file;
	struct lf_json_fields fields;
	lf_json_fields_default(&fields);
	size_t bad, badlen;
	if (list && lf_json_fields_parse(list, &fields, &bad, &badlen) != 0) {
		struct lf_ctx *ctx = lf_parser_ctx(p);
		if (badlen == 0) {
			lf_parse_error_named(p, argoff, "%s: empty field name in `%s'", prim->name, list);
			return NULL;
		}
		bool twice = errno == EEXIST;
		lf_parse_error_named(p, argoff, "%s: %s field `%.*s'", prim->name, twice ? "repeated" : "unknown", (int)badlen,
			       list + bad);
		if (twice) {
			return NULL;
		}
		const char *hint = lf_json_field_suggest(list + bad, badlen);
		struct stat st;
		if (!strchr(list, ',') && lstat(list, &st) == 0) {
			/* "luafind --json DIR", as other tools take options. */
			lf_diag_kind(ctx, LF_ERROR_NOTE, "`%s' is a file: paths come before the expression (luafind PATH... %s)",
				     list, prim->name);
		} else if (hint) {
			lf_diag_kind(ctx, LF_ERROR_NOTE, "did you mean `%s'?", hint);
		}
		lf_diag_kind(ctx, LF_ERROR_NOTE, "fields: %s", lf_json_field_names());
		return NULL;
	}
	lf_parser_consume(p, to_file + (list != NULL));
	struct lf_expr *x = output_node(p, prim, file, NULL, 0);
	if (!x) {
		return NULL;
	}
	struct action *a = x->data;
	a->json = fields;
	x->needs_stat = fields.needs_stat;
	x->stats_every = fields.needs_stat;
	return x;
}

static struct lf_expr *parse_printf(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	return output_node(p, prim, NULL, args[0], 1);
}

/* Variadic only to word its errors as GNU does when the format is missing. */
static struct lf_expr *parse_fprintf(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	if (!args[0]) {
		lf_parse_error_named(p, 0, "missing argument to `%s'", prim->name);
		return NULL;
	}
	if (!args[1]) {
		lf_parse_error_named(p, 1, "invalid argument `%s' to `%s'", args[0], prim->name);
		return NULL;
	}
	lf_parser_consume(p, 2);
	return output_node(p, prim, args[0], args[1], 2);
}

static struct lf_expr *parse_ls(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return output_node(p, prim, NULL, NULL, 0);
}

static struct lf_expr *parse_fprint(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	return output_node(p, prim, args[0], NULL, 0);
}

int lf_prims_output_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"--json", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_json, eval_json, false},
		{"-fjson", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_json, eval_json, false},
		{"-fls", LF_PRIM_ACTION, 1, parse_fprint, eval_ls, LF_STAT_EVERY},
		{"-fprint", LF_PRIM_ACTION, 1, parse_fprint, eval_fprint, false},
		{"-fprint0", LF_PRIM_ACTION, 1, parse_fprint, eval_fprint0, false},
		{"-fprintf", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_fprintf, eval_printf, false},
		{"-json", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_json, eval_json, false},
		{"-ls", LF_PRIM_ACTION, 0, parse_ls, eval_ls, LF_STAT_EVERY},
		{"-printf", LF_PRIM_ACTION, 1, parse_printf, eval_printf, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}
