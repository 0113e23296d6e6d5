/*
 * printf.c: -printf formats, compiled once into a program, rendered per
 * entry, to produce GNU find 4.9's bytes.
 *
 * A format is compiled, at parse time, into segments the way GNU's
 * insert_fprintf() cuts it: plain text (escapes already applied), a stop
 * (\c), or a directive with the printf spec GNU would hand to fprintf
 * ("%-10s", "%05d", ...).  Rendering formats each directive's value through
 * that same spec with snprintf, so widths, precision and flags behave
 * exactly as GNU's do, quirks included (a '0' flag pads numbers printed as
 * strings with spaces, '#' changes %m but not %s...).
 *
 * Stat data is fetched only when a directive needs it: '%p\n' costs no
 * stat, '%s' one (the caller's, with the walk's follow mode, as GNU uses
 * the stat buffer of its walk).  %y takes the type the walk already knows;
 * %Y and %l look further only for symbolic links.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "printf.h"

#include "color.h"
#include "diag.h"
#include "names.h"
#include "primary.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* ---- names ----------------------------------------------------------------- */

/* The letter of %y and %Y (GNU's mode_to_filetype). */
static const char *type_letter(enum lf_type t)
{
	switch (t) {
	case LF_REG: return "f";
	case LF_DIR: return "d";
	case LF_LNK: return "l";
	case LF_SOCK: return "s";
	case LF_BLK: return "b";
	case LF_CHR: return "c";
	case LF_FIFO: return "p";
	case LF_UNKNOWN: break;
	}
	return "U";
}

/*
 * The SELinux context of an entry, as GNU's %Z gets it (without following a
 * link, whatever the walk does).  getxattr through /proc/self/fd reaches the
 * file by fd, so the path is never handed to the kernel.
 * @return a malloc'd string, or NULL with errno set
 */
static char *file_context(const struct lf_entry *e)
{
	int fd = openat(e->at_fd, e->at_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return NULL;
	}
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	char *ctx = NULL;
	ssize_t n = getxattr(proc, "security.selinux", NULL, 0);
	if (n >= 0) {
		ctx = malloc((size_t)n + 1);
		if (!ctx) {
			errno = ENOMEM;
		} else {
			n = getxattr(proc, "security.selinux", ctx, (size_t)n);
			if (n < 0) {
				free(ctx);
				ctx = NULL;
			} else {
				ctx[n] = '\0';
			}
		}
	}
	int err = errno;
	close(fd);
	errno = err;
	return ctx;
}

/* ---- dates -------------------------------------------------------------- */

static const char weekdays[][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char months[][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
				     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

enum { DATE_BUFSIZE = 512 };

/*
 * Whether @p and @q differ in exactly one run of digits; its start and length
 * go to @first and @n.  (GNU's scan_for_digit_differences.)
 */
static bool digit_difference(const char *p, const char *q, size_t *first, size_t *n)
{
	bool seen = false;
	size_t i;
	for (i = 0; p[i] && q[i]; i++) {
		if (p[i] == q[i]) {
			continue;
		}
		if (!isdigit((unsigned char)p[i]) || !isdigit((unsigned char)q[i])) {
			return false;
		}
		if (!seen) {
			*first = i;
			*n = 1;
			seen = true;
		} else if (i - *first == *n) {
			++*n;
		} else {
			return false;
		}
	}
	return !p[i] && !q[i];
}

/*
 * strftime with the nanoseconds @ns put right after the seconds, found as the
 * two digits that change when the seconds do (GNU's do_time_format).
 * @return @buf, or NULL if the result does not fit
 */
static char *time_format(char *buf, const char *fmt, const struct tm *tm, const char *ns)
{
	/* The '_' keeps an empty expansion apart from a failure. */
	char timefmt[16];
	snprintf(timefmt, sizeof(timefmt), "_%s", fmt);
	char main_buf[DATE_BUFSIZE], alt_buf[DATE_BUFSIZE];
	size_t used = strftime(main_buf, sizeof(main_buf), timefmt, tm);
	if (used == 0) {
		return NULL;
	}
	struct tm altered = *tm;
	altered.tm_sec += altered.tm_sec >= 11 ? -11 : 11;
	strftime(alt_buf, sizeof(alt_buf), timefmt, &altered);

	size_t nslen = strlen(ns), i = 0, n = 0;
	if (used + nslen + 1 > DATE_BUFSIZE) {
		return NULL;
	}
	if (digit_difference(main_buf, alt_buf, &i, &n) && n == 2 && !isdigit((unsigned char)main_buf[i + n])) {
		size_t end = i + n;
		memcpy(buf, main_buf + 1, end - 1);
		memcpy(buf + end - 1, ns, nslen);
		memcpy(buf + end - 1 + nslen, main_buf + end, used - end + 1);
	} else {
		memcpy(buf, main_buf + 1, used);
	}
	return buf;
}

/* A timestamp as GNU's format_date() prints it for %A<kind>, %T<kind>... */
static const char *format_date(struct timespec ts, char kind, char *buf)
{
	char fmt[16];
	bool want_ns;
	if (kind == '+') {
		strcpy(fmt, "%Y-%m-%d+%T");
		want_ns = true;
	} else {
		fmt[0] = '%';
		fmt[1] = kind;
		fmt[2] = '\0';
		want_ns = kind == 'S' || kind == 'T' || kind == 'X' || kind == '@';
	}
	char ns[32] = "";
	if (want_ns) {
		/* A trailing zero, as GNU's: the granularity may not stay at ns. */
		snprintf(ns, sizeof(ns), ".%09ld0", (long)ts.tv_nsec);
	}
	if (kind != '@') {
		struct tm tm;
		if (localtime_r(&ts.tv_sec, &tm) && time_format(buf, fmt, &tm, ns)) {
			return buf;
		}
	}
	/* %@, or a time localtime cannot represent: seconds since the epoch. */
	uint64_t mag = ts.tv_sec < 0 ? -(uint64_t)ts.tv_sec : (uint64_t)ts.tv_sec;
	snprintf(buf, DATE_BUFSIZE, "%s%" PRIu64 "%s", ts.tv_sec < 0 ? "-" : "", mag, ns);
	return buf;
}

/* %a, %c, %t: "Mon Nov 30 04:01:39.7627748160 2026" (GNU's ctime_format). */
static const char *ctime_format(struct timespec ts, char *buf)
{
	struct tm tm;
	if (!localtime_r(&ts.tv_sec, &tm)) {
		return format_date(ts, '@', buf);
	}
	snprintf(buf, DATE_BUFSIZE, "%3s %3s %2d %02d:%02d:%02d.%09ld0 %04lld", weekdays[tm.tm_wday],
		 months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)ts.tv_nsec,
		 1900LL + tm.tm_year);
	return buf;
}

/* ---- -printf formats ------------------------------------------------------ */

enum seg_kind {
	SEG_PLAIN,  /* text, written as is */
	SEG_STOP,   /* text, then flush and stop (\c) */
	SEG_FORMAT, /* text, then a directive */
};

struct segment {
	enum seg_kind kind;
	char conv;     /* the directive letter (SEG_FORMAT) */
	char aux;      /* the time field of %A, %B, %C, %T */
	char *text;    /* SEG_FORMAT: literal prefix, then the printf spec */
	size_t len;    /* bytes of text (SEG_FORMAT: without the conversion) */
	size_t prefix; /* SEG_FORMAT: bytes of literal text before the spec */
};

struct lf_printf {
	struct segment *segs;
	size_t nsegs;
	bool need_stat; /* a directive reads the walk's stat data */
	bool may_stat;  /* %Y: stats links */
};

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

static char escape_value(char c)
{
	switch (c) {
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	case 'v': return '\v';
	case '\\': return '\\';
	}
	return 0;
}

/* Flags, width and precision after a '%': GNU's get_format_flags_length. */
static size_t flags_length(const char *p)
{
	size_t n = 0;
	while (p[++n] && strchr("-+ #", p[n])) {
	}
	while (isdigit((unsigned char)p[n])) {
		n++;
	}
	if (p[n] == '.') {
		for (n++; isdigit((unsigned char)p[n]); n++) {
		}
	}
	return n;
}

/*
 * The largest field width or precision a directive may have.  GNU find has
 * no bound, and "%.666666666S" makes glibc's printf build a gigabyte of
 * digits for each file; no column is this wide (luafind(1), -printf).
 */
#define MAX_FIELD 4096

/* Whether the width or the precision in @spec (from '%' to the letter,
 * @len bytes, as flags_length() took it) is above MAX_FIELD. */
static bool field_too_large(const char *spec, size_t len)
{
	unsigned long n = 0;
	for (size_t i = 1; i < len; i++) {
		if (isdigit((unsigned char)spec[i])) {
			n = 10 * n + (unsigned long)(spec[i] - '0');
			if (n > MAX_FIELD) {
				return true;
			}
		} else {
			n = 0; /* a flag, or the '.' between width and precision */
		}
	}
	return false;
}

/* Letters of a directive: 1, 2 for the time families, 0 if unknown. */
static size_t directive_length(char c)
{
	/* As GNU's strchr(), the terminating NUL counts as a one-letter directive. */
	if (c == '\0' || strchr("abcdDfFgGhHiklmMnpPsStuUyYZ%", c)) {
		return 1;
	}
	if (strchr("ABCT", c)) {
		return 2;
	}
	return 0;
}

/* Directives that read stat data (fetched before anything is printed). */
static bool directive_stats(char c)
{
	return strchr("aAbBcCDFgGikmMnsStTuU", c) != NULL;
}

static int add_segment(struct lf_printf *a, enum seg_kind kind, const char *start, size_t len, char conv, char aux,
		       size_t prefix)
{
	struct segment *s = realloc(a->segs, (a->nsegs + 1) * sizeof(*s));
	if (!s) {
		return -1;
	}
	a->segs = s;
	char *text = malloc(len + 2);
	if (!text) {
		return -1;
	}
	memcpy(text, start, len);
	size_t end = len;
	if (kind == SEG_FORMAT) {
		switch (conv) {
		case 'd': text[end++] = 'd'; break;
		case 'm': text[end++] = 'o'; break;
		case 'S': text[end++] = 'g'; break;
		case '%': text[end++] = '%'; break;
		default: text[end++] = 's'; break;
		}
	}
	text[end] = '\0';
	s = &a->segs[a->nsegs++];
	s->kind = kind;
	s->conv = conv;
	s->aux = aux;
	s->text = text;
	s->len = len;
	s->prefix = prefix;
	if (kind == SEG_FORMAT) {
		if (directive_stats(conv)) {
			a->need_stat = true;
		}
	}
	return 0;
}

/*
 * Compile @format (argument @argoff of the primary) as GNU's insert_fprintf
 * does, with its warnings.  @return 0, or -1 after reporting an error.
 */
static int compile_format(struct lf_parser *p, int argoff, const char *format, struct lf_printf *a)
{
	char *fmt = strdup(format); /* escapes are applied in place */
	if (!fmt) {
		goto nomem;
	}
	char *segstart = fmt, *pos;
	for (pos = fmt; *pos; pos++) {
		if (pos[0] == '\\' && pos[1] == 'c') {
			if (add_segment(a, SEG_STOP, segstart, (size_t)(pos - segstart), 0, 0, 0) != 0) {
				goto nomem;
			}
			free(fmt);
			return 0; /* GNU ignores the rest of the format */
		} else if (*pos == '\\') {
			size_t readpos = 1;
			if (!pos[1]) {
				lf_diag_warn(lf_parser_ctx(p), "escape `\\' followed by nothing at all");
				readpos = 0;
			} else if (is_octal(pos[1])) {
				int n = 0;
				size_t i;
				for (i = 0; i < 3 && is_octal(pos[1 + i]); i++) {
					n = 8 * n + (pos[1 + i] - '0');
				}
				*pos = (char)n;
				readpos = i;
			} else {
				char v = escape_value(pos[1]);
				if (!v) {
					/* Kept as written, and the next byte is not looked at. */
					lf_diag_warn(lf_parser_ctx(p), "unrecognized escape `\\%c'", pos[1]);
					pos++;
					continue;
				}
				*pos = v;
			}
			if (add_segment(a, SEG_PLAIN, segstart, (size_t)(pos - segstart) + 1, 0, 0, 0) != 0) {
				goto nomem;
			}
			segstart = pos + readpos + 1;
			pos += readpos;
		} else if (*pos == '%') {
			if (pos[1] == '\0') {
				lf_parse_error(p, argoff, "error: %s at end of format string", pos);
				goto fail;
			}
			char *directive = pos;
			pos += pos[1] == '%' ? 1 : flags_length(pos);
			size_t len = directive_length(*pos);
			if (len && pos[len - 1]) {
				if (field_too_large(directive, (size_t)(pos - directive))) {
					lf_parse_error(p, argoff,
						       "error: the width or precision of the format directive `%.*s' is "
						       "larger than %d",
						       (int)(pos + len - directive), directive, MAX_FIELD);
					goto fail;
				}
				char aux = len == 2 ? pos[1] : 0;
				if (add_segment(a, SEG_FORMAT, segstart, (size_t)(pos - segstart), *pos, aux,
						(size_t)(directive - segstart)) != 0) {
					goto nomem;
				}
				pos += len - 1;
			} else {
				if (*pos == '\0' || strchr("{[(", *pos)) {
					lf_parse_error(p, argoff,
						       "error: the format directive `%%%c' is reserved for future use",
						       *pos);
					goto fail;
				}
				if (len == 2) {
					lf_diag_warn(lf_parser_ctx(p), "format directive `%%%c' should be followed by another character",
						     *pos);
				} else {
					lf_diag_warn(lf_parser_ctx(p), "unrecognized format directive `%%%c'", *pos);
				}
				/* Printed as written, flags included. */
				if (add_segment(a, SEG_PLAIN, segstart, (size_t)(pos + 1 - segstart), 0, 0, 0) != 0) {
					goto nomem;
				}
			}
			segstart = pos + 1;
		}
	}
	if (pos > segstart && add_segment(a, SEG_PLAIN, segstart, (size_t)(pos - segstart), 0, 0, 0) != 0) {
		goto nomem;
	}
	free(fmt);
	return 0;
nomem:
	lf_parse_error(p, argoff, "%s", strerror(ENOMEM));
fail:
	free(fmt);
	return -1;
}

/* ---- -printf evaluation --------------------------------------------------- */

/* What one -printf evaluation works with. */
struct pctx {
	struct lf_eval *ev;
	struct lf_entry *e;
	const struct lf_stat *st; /* the walk's stat data, if a directive needs it */
	struct lf_out *o;
	const struct lf_printf_out *out;
};

/* printf one value through a directive's spec, as GNU's checked_fprintf. */
static void put_spec(struct pctx *c, const char *spec, ...)
{
	va_list ap;
	va_start(ap, spec);
	if (lf_out_vprintf(c->o, spec, ap) < 0) {
		c->out->error(c->out->arg, errno); /* a width past INT_MAX: EOVERFLOW */
	}
	va_end(ap);
}

/*
 * A string directive: @len bytes of @s through @spec.  @names marks the
 * directives GNU passes through print_quoted (names shown with '?' on a
 * terminal).
 */
static void put_str(struct pctx *c, const char *spec, const char *s, size_t len, bool names)
{
	bool plain = spec[1] == 's';
	if (plain && !(names && c->out->tty)) {
		lf_out_write(c->o, s, len);
		return;
	}
	char small[512];
	char *copy = len < sizeof(small) ? small : malloc(len + 1);
	if (!copy) {
		c->out->error(c->out->arg, ENOMEM);
		return;
	}
	memcpy(copy, s, len);
	if (names && c->out->tty) {
		len = lf_qmark(copy, len);
	}
	copy[len] = '\0';
	if (plain) {
		lf_out_write(c->o, copy, len);
	} else {
		put_spec(c, spec, copy);
	}
	if (copy != small) {
		free(copy);
	}
}

static void put_cstr(struct pctx *c, const char *spec, const char *s, bool names)
{
	put_str(c, spec, s, strlen(s), names);
}

static void put_u64(struct pctx *c, const char *spec, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	put_cstr(c, spec, buf, false);
}

/*
 * Whether a name directive is colored: on a colored stream, without flags,
 * width or precision (bfs: "%p" is, "%-20p" is not).
 */
static bool colored(const struct pctx *c, const char *spec)
{
	return c->o->colors && strcmp(spec, "%s") == 0;
}

/* A name directive showing @len bytes of @s, the entry's name (colored as the entry). */
static void put_entry_name(struct pctx *c, const char *spec, const char *s, size_t len)
{
	if (colored(c, spec)) {
		lf_color_write_path(c->o->colors, c->o, c->e, s, len, 0, NULL);
	} else {
		put_str(c, spec, s, len, true);
	}
}

/* A directive showing @len bytes of @s, a directory (colored as one). */
static void put_dir_name(struct pctx *c, const char *spec, const char *s, size_t len)
{
	if (colored(c, spec)) {
		lf_color_write_text(c->o->colors, c->o, LF_COLOR_DIR, s, len, NULL);
	} else {
		put_str(c, spec, s, len, true);
	}
}

/*
 * The root the entry was found under: as the host names it (ev->roots), as
 * its walk was given it (a name of -files0-from, a C host's root, a
 * record's: walk_record.h), or as the command line gives it.
 */
static const char *entry_root(const struct pctx *c)
{
	if (c->ev->roots) {
		return c->ev->roots[c->e->root];
	}
	const char *root = c->ev->walk ? lf_walk_root(c->ev->walk, c->e->root) : NULL;
	if (root) {
		return root;
	}
	const struct lf_cmdline *cmd = c->ev->cmd;
	if (cmd && c->e->root < cmd->nroots) {
		return cmd->roots[c->e->root];
	}
	return c->e->path;
}

/* %f: gnulib's base_name(): the last component, one trailing slash kept. */
static void put_basename(struct pctx *c, const char *spec)
{
	const char *path = c->e->path;
	if (c->e->depth > 0) {
		put_entry_name(c, spec, path + c->e->nameoff, c->e->pathlen - c->e->nameoff);
		return;
	}
	size_t len = c->e->pathlen, start = 0;
	bool last_was_slash = false;
	while (path[start] == '/') {
		start++;
	}
	for (size_t i = start; i < len; i++) {
		if (path[i] == '/') {
			last_was_slash = true;
		} else if (last_was_slash) {
			start = i;
			last_was_slash = false;
		}
	}
	if (start == len) {
		/* All slashes (or empty): the path without trailing slashes. */
		size_t n = len;
		while (n > 1 && path[n - 1] == '/') {
			n--;
		}
		put_entry_name(c, spec, path, n);
		return;
	}
	size_t n = start;
	while (n < len && path[n] != '/') {
		n++;
	}
	if (n < len) {
		n++; /* one trailing slash */
	}
	put_entry_name(c, spec, path + start, n - start);
}

/* %h: GNU's own cut at the last slash, with its handling of "/" and "x/". */
static void put_dirname(struct pctx *c, const char *spec)
{
	const char *path = c->e->path;
	size_t off = c->e->nameoff;
	if (c->e->depth == 0) {
		/*
		 * A path argument: what precedes its last component, as POSIX
		 * dirname() and bfs say ("t/" and "t//" in ".", "/tmp" in "/");
		 * GNU find cuts at the last slash ("t/" in "t", "/tmp" in "").
		 */
		size_t len;
		const char *name = lf_entry_name(c->e, &len);
		off = name >= path && name < path + c->e->pathlen ? (size_t)(name - path) : 0;
	}
	if (off == 0) {
		put_dir_name(c, spec, path[0] == '/' ? "/" : ".", 1);
	} else {
		put_dir_name(c, spec, path, off > 1 ? off - 1 : off);
	}
}

/* %Y: the type of a link's target, N if it is missing, L for a loop. */
static void put_target_type(struct pctx *c, const char *spec)
{
	struct lf_entry *e = c->e;
	if (e->type != LF_LNK) {
		put_cstr(c, spec, type_letter(e->type), false);
		return;
	}
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW);
	if (st) {
		put_cstr(c, spec, type_letter(lf_type_from_mode(st->mode)), false);
	} else if (errno == ENOENT || errno == ENOTDIR) {
		put_cstr(c, spec, "N", false);
	} else if (errno == ELOOP) {
		put_cstr(c, spec, "L", false);
	} else {
		int err = errno;
		put_cstr(c, spec, "?", false);
		if (c->ev->cmd->noerror) {
			c->ev->suppressed++; /* not a failure of the entry: the status stays as it is */
			return;
		}
		lf_out_flush(c->ev->out);
		lf_diag_path(c->ev->cmd->ctx, e->path, e->pathlen, err); /* GNU leaves the status alone */
	}
}

/* %l: the target of a symbolic link, empty for anything else. */
static void put_link(struct pctx *c, const char *spec)
{
	char *target = NULL;
	if (c->e->type == LF_LNK) {
		target = lf_read_link(c->e);
		if (!target) {
			lf_eval_file_error(c->ev, c->e->path, c->e->pathlen, errno);
		}
	}
	if (target && colored(c, spec)) {
		lf_color_write_target(c->o->colors, c->o, c->e, target, NULL);
	} else {
		put_cstr(c, spec, target ? target : "", true);
	}
	free(target);
}

static void put_context(struct pctx *c, const char *spec)
{
	char *ctx = file_context(c->e);
	if (!ctx) {
		int err = errno;
		put_cstr(c, spec, "", false);
		lf_eval_file_error_in(c->ev, "getfilecon failed: ", c->e->path, c->e->pathlen, err);
		return;
	}
	put_cstr(c, spec, ctx, false);
	free(ctx);
}

/* A %A, %B, %C or %T directive. */
static void put_time(struct pctx *c, const struct segment *s, const char *spec)
{
	char buf[DATE_BUFSIZE];
	const struct lf_stat *st = c->st;
	struct timespec ts;
	switch (s->conv) {
	case 'A': ts = st->atime; break;
	case 'C': ts = st->ctime; break;
	case 'T': ts = st->mtime; break;
	default:
		/*
		 * GNU 4.9 reads the birth time from struct stat, which glibc
		 * does not fill on Linux: it is {-1, -1}, so %B prints nothing
		 * but %B@, which prints the seconds anyway.
		 */
		if (s->aux != '@') {
			put_cstr(c, spec, "", false);
			return;
		}
		ts.tv_sec = -1;
		ts.tv_nsec = -1;
		break;
	}
	put_cstr(c, spec, format_date(ts, s->aux, buf), false);
}

static void put_segment(struct pctx *c, const struct segment *s)
{
	if (s->kind != SEG_FORMAT) {
		lf_out_write(c->o, s->text, s->len);
		if (s->kind == SEG_STOP) {
			lf_out_flush(c->o);
		}
		return;
	}
	if (s->conv == '%') {
		lf_out_write(c->o, s->text, s->len); /* "%%" -> "%", "%5%" -> "%5" */
		return;
	}
	lf_out_write(c->o, s->text, s->prefix);
	const char *spec = s->text + s->prefix;
	const struct lf_stat *st = c->st;
	struct lf_entry *e = c->e;
	char buf[DATE_BUFSIZE];

	switch (s->conv) {
	case 'a': put_cstr(c, spec, ctime_format(st->atime, buf), false); break;
	case 'b': put_u64(c, spec, (uint64_t)st->blocks); break;
	case 'c': put_cstr(c, spec, ctime_format(st->ctime, buf), false); break;
	case 'd': put_spec(c, spec, e->depth); break;
	case 'D': put_u64(c, spec, st->dev); break;
	case 'f': put_basename(c, spec); break;
	case 'F': {
		const char *type = lf_mounts_type(&c->ev->cmd->ctx->mounts, st->dev);
		put_cstr(c, spec, type ? type : "unknown", true);
		break;
	}
	case 'g': {
		const char *name = lf_idnames_get(&c->ev->cmd->ctx->ids, true, st->gid);
		if (name) {
			put_cstr(c, spec, name, false);
		} else {
			put_u64(c, spec, st->gid);
		}
		break;
	}
	case 'G': put_u64(c, spec, st->gid); break;
	case 'h': put_dirname(c, spec); break;
	case 'H':
		if (colored(c, spec) && e->depth == 0) {
			lf_color_write_entry(c->o->colors, c->o, e, NULL);
		} else if (colored(c, spec)) {
			put_dir_name(c, spec, entry_root(c), strlen(entry_root(c)));
		} else {
			put_cstr(c, spec, entry_root(c), false);
		}
		break;
	case 'i': put_u64(c, spec, st->ino); break;
	case 'k': put_u64(c, spec, ((uint64_t)st->blocks + 1) / 2); break;
	case 'l': put_link(c, spec); break;
	case 'm': put_spec(c, spec, (unsigned)(st->mode & 07777)); break;
	case 'M': {
		char mode[12];
		lf_mode_string(st->mode, mode);
		mode[10] = '\0';
		put_cstr(c, spec, mode, false);
		break;
	}
	case 'n': put_u64(c, spec, st->nlink); break;
	case 'p':
		if (colored(c, spec)) {
			lf_color_write_entry(c->o->colors, c->o, e, NULL);
		} else {
			put_str(c, spec, e->path, e->pathlen, true);
		}
		break;
	case 'P': {
		const char *rest = "";
		if (e->depth > 0) {
			/* A host's root need not start the path (a record's): then all of it. */
			const char *root = entry_root(c);
			size_t len = strlen(root);
			rest = e->path;
			if (len <= e->pathlen && memcmp(e->path, root, len) == 0 &&
			    (e->path[len] == '/' || e->path[len] == '\0' || (len && root[len - 1] == '/'))) {
				rest = e->path + len + (e->path[len] == '/');
			}
		}
		size_t off = (size_t)(rest - e->path);
		if (colored(c, spec) && e->depth > 0 && off <= e->nameoff) {
			lf_color_write_path(c->o->colors, c->o, e, rest, e->pathlen - off, e->nameoff - off, NULL);
		} else {
			put_cstr(c, spec, rest, true);
		}
		break;
	}
	case 's': put_u64(c, spec, (uint64_t)st->size); break;
	case 'S': {
		double sparse;
		if (st->size == 0) {
			sparse = st->blocks == 0 ? 1.0 : st->blocks < 0 ? -HUGE_VAL : HUGE_VAL;
		} else {
			sparse = 512 * (double)st->blocks / (double)st->size;
		}
		put_spec(c, spec, sparse);
		break;
	}
	case 't': put_cstr(c, spec, ctime_format(st->mtime, buf), false); break;
	case 'u': {
		const char *name = lf_idnames_get(&c->ev->cmd->ctx->ids, false, st->uid);
		if (name) {
			put_cstr(c, spec, name, false);
		} else {
			put_u64(c, spec, st->uid);
		}
		break;
	}
	case 'U': put_u64(c, spec, st->uid); break;
	case 'y': put_cstr(c, spec, type_letter(e->type), false); break;
	case 'Y': put_target_type(c, spec); break;
	case 'Z': put_context(c, spec); break;
	case 'A':
	case 'B':
	case 'C':
	case 'T': put_time(c, s, spec); break;
	}
}


/* ---- the program ------------------------------------------------------------- */

int lf_printf_compile(struct lf_parser *p, int argoff, const char *format, struct lf_printf **out)
{
	struct lf_printf *f = calloc(1, sizeof(*f));
	if (!f) {
		lf_parse_error(p, 0, "%s", strerror(ENOMEM));
		return -1;
	}
	if (compile_format(p, argoff, format, f) != 0) {
		lf_printf_free(f);
		return -1;
	}
	for (size_t i = 0; i < f->nsegs; i++) {
		if (f->segs[i].kind == SEG_FORMAT && f->segs[i].conv == 'Y') {
			f->may_stat = true;
		}
	}
	*out = f;
	return 0;
}

bool lf_printf_needs_stat(const struct lf_printf *f)
{
	return f->need_stat;
}

bool lf_printf_may_stat(const struct lf_printf *f)
{
	return f->need_stat || f->may_stat;
}

bool lf_printf_reads_target(const struct lf_printf *f)
{
	return f->may_stat;
}

void lf_printf_render(const struct lf_printf *f, struct lf_eval *ev, const struct lf_stat *st,
		      const struct lf_printf_out *out)
{
	struct pctx c = {.ev = ev, .e = ev->entry, .st = st, .o = out->o, .out = out};
	for (size_t i = 0; i < f->nsegs; i++) {
		put_segment(&c, &f->segs[i]);
	}
}

void lf_printf_free(struct lf_printf *f)
{
	if (!f) {
		return;
	}
	for (size_t i = 0; i < f->nsegs; i++) {
		free(f->segs[i].text);
	}
	free(f->segs);
	free(f);
}
