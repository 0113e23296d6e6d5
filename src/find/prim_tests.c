/*
 * prim_tests.c: find's tests: parse functions, evaluation functions and their
 * table.  Tests that need stat data ask the core for it (lf_eval_stat, cached
 * per entry) only when evaluation reaches them, and the table marks them so
 * that the optimizer can evaluate cheap tests first.  Semantics, rounding and
 * messages follow GNU find 4.9; bfs's own tests (-since and -Xsince, -xattr,
 * -xattrname, -acl, -capable) follow bfs 4.1.4.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "datetime.h"
#include "diag.h"
#include "dir.h"
#include "expr.h"
#include "fsattr.h"
#include "parse.h"
#include "lf_regex.h"
#include "primary.h"
#include "regex_bound.h"
#include "ulocale.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DAYSECS 86400

/* ---- numbers: N, +N, -N ----------------------------------------------- */

/* Split a leading '+' or '-' off @s into *cmp (+1, -1, 0). */
static const char *comparison(const char *s, int *cmp)
{
	*cmp = *s == '+' ? 1 : *s == '-' ? -1 : 0;
	return *cmp ? s + 1 : s;
}

/*
 * A decimal integer after an optional '+' or '-', as GNU's get_num() takes
 * it with xstrtoumax(): blanks and one more '+' may come first, a '-' may
 * not ("-+5" is less than 5, "+-5" is refused), and up to UINTMAX_MAX.
 */
static bool parse_count(const char *s, int *cmp, unsigned long long *out)
{
	const char *d = comparison(s, cmp);
	const char *q = d;
	while (isspace((unsigned char)*q)) {
		q++;
	}
	if (*q == '-') {
		return false;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(d, &end, 10);
	if (end == d || *end || errno) {
		return false;
	}
	*out = v;
	return true;
}

/* Compared unsigned, as GNU compares uintmax_t: no stat value is negative. */
static bool compare(unsigned long long value, int cmp, unsigned long long n)
{
	return cmp > 0 ? value > n : cmp < 0 ? value < n : value == n;
}

static struct lf_expr *parse_numeric(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	int cmp;
	unsigned long long n;
	if (!parse_count(args[0], &cmp, &n)) {
		lf_parse_error_named(p, 1, "invalid argument `%s' to `%s'", args[0], prim->name);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->cmp = cmp;
		x->num = (long long)n;
	}
	return x;
}

static bool eval_links(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && compare(st->nlink, x->cmp, (unsigned long long)x->num);
}

static bool eval_inum(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && compare(st->ino, x->cmp, (unsigned long long)x->num);
}

static bool eval_uid(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && compare(st->uid, x->cmp, (unsigned long long)x->num);
}

static bool eval_gid(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && compare(st->gid, x->cmp, (unsigned long long)x->num);
}

/* ---- -size ------------------------------------------------------------ */

/*
 * GNU's parse_size: the last character is the unit (a digit: 512-byte
 * blocks), what comes before it a number as for -links.
 */
static struct lf_expr *parse_size(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	size_t len = strlen(args[0]);
	if (len == 0) {
		lf_parse_error_named(p, 1, "invalid null argument to -size");
		return NULL;
	}
	char last = args[0][len - 1];
	long long unit = 512;
	switch (last) {
	case 'b': unit = 512; break;
	case 'c': unit = 1; break;
	case 'w': unit = 2; break;
	case 'k': unit = 1024; break;
	case 'M': unit = 1024 * 1024; break;
	case 'G': unit = 1024 * 1024 * 1024; break;
	default:
		if (!isdigit((unsigned char)last)) {
			lf_parse_error_named(p, 1, "invalid -size type `%c'", last);
			return NULL;
		}
		len++; /* no unit: the digit is part of the number */
		break;
	}
	char *num = strndup(args[0], len - 1);
	if (!num) {
		lf_parse_error(p, 0, "%s", strerror(errno));
		return NULL;
	}
	int cmp;
	unsigned long long n;
	bool ok = parse_count(num, &cmp, &n);
	free(num);
	if (!ok) {
		lf_parse_error_named(p, 1, "Invalid argument `%s' to -size", args[0]);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->cmp = cmp;
		x->num = (long long)n;
		x->mask = (unsigned)unit;
	}
	return x;
}

/* Sizes round up to whole units, so -size -1M matches only empty files. */
static bool eval_size(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st) {
		return false;
	}
	unsigned long long unit = x->mask;
	unsigned long long units = st->size / unit + (st->size % unit != 0);
	return compare(units, x->cmp, (unsigned long long)x->num);
}

/* ---- times ------------------------------------------------------------ */

enum which_time { T_ATIME, T_BTIME, T_CTIME, T_MTIME };

static bool file_time(const struct lf_stat *st, int which, struct timespec *ts)
{
	switch (which) {
	case T_ATIME: *ts = st->atime; return true;
	case T_BTIME: *ts = st->btime; return st->has_btime;
	case T_CTIME: *ts = st->ctime; return true;
	default: *ts = st->mtime; return true;
	}
}

static int ts_cmp(struct timespec a, struct timespec b)
{
	if (a.tv_sec != b.tv_sec) {
		return a.tv_sec < b.tv_sec ? -1 : 1;
	}
	return a.tv_nsec < b.tv_nsec ? -1 : a.tv_nsec > b.tv_nsec;
}

/* a - b in seconds; in double, as the seconds may be far apart (GNU's reference may be -2^63). */
static double ts_diff(struct timespec a, struct timespec b)
{
	return ((double)a.tv_sec - (double)b.tv_sec) + 1e-9 * (double)(a.tv_nsec - b.tv_nsec);
}

/*
 * GNU's get_relative_timestamp, to the letter: after a leading '+' or '-',
 * strtod() takes the rest whole (so " 5", "+-5", "0x10", "inf" and "1e300"
 * are numbers, as there); the reference is ORIGIN - N units and the sense
 * of the comparison is inverted ("+N": older than the reference).
 * @return 0, -1 for an invalid number, -2 for GNU's arithmetic overflow
 */
static int relative_time(const char *arg, struct timespec origin, double unit, struct lf_expr *x)
{
	int cmp;
	const char *d = comparison(arg, &cmp);
	char *end;
	errno = 0;
	double offset = strtod(d, &end);
	/* GNU find fails an assertion on NaN: refused here. */
	if (end == d || *end || (offset != 0.0 && errno == ERANGE) || isnan(offset)) {
		return -1;
	}
	double seconds;
	double nsec = modf(offset * unit, &seconds) * 1e9;
	double sec = (double)origin.tv_sec - seconds;
	/* Out of range, the conversion gives GNU find (x86-64) the minimum. */
	time_t t = sec >= -0x1p63 && sec < 0x1p63 ? (time_t)sec : (time_t)LLONG_MIN;
	if ((origin.tv_sec < t) != (seconds < 0)) {
		return -2;
	}
	x->ref.tv_sec = t;
	x->ref.tv_nsec = (long)((double)origin.tv_nsec - nsec);
	if ((double)origin.tv_nsec < nsec) {
		/* nsec is 0 beyond 2^53 seconds: t is no minimum here */
		x->ref.tv_nsec += 1000000000L;
		x->ref.tv_sec--;
	}
	x->cmp = -cmp;
	return 0;
}

/* GNU's pred_timewindow. */
static bool time_window(struct timespec ts, const struct lf_expr *x, double window)
{
	if (x->cmp > 0) {
		return ts_cmp(ts, x->ref) > 0;
	}
	if (x->cmp < 0) {
		return ts_cmp(ts, x->ref) < 0;
	}
	double delta = ts_diff(ts, x->ref);
	return delta > 0.0 && delta <= window;
}

static struct lf_expr *parse_xtime(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	const struct lf_cmdline *cmd = lf_parser_cmdline(p);
	bool minutes = prim->name[2] == 'm' && prim->name[3] == 'i';
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		return NULL;
	}
	struct timespec origin = cmd->day_start;
	if (minutes) {
		origin.tv_sec += DAYSECS; /* minutes count from "now" */
	} else if (args[0][0] == '-') {
		origin.tv_sec += DAYSECS - 1; /* GNU's end-of-day fudge for -N */
	}
	int err = relative_time(args[0], origin, minutes ? 60 : DAYSECS, x);
	if (err) {
		if (err == -2) {
			lf_parse_error(p, 1, "arithmetic overflow while converting %s %s to a number of seconds",
				       args[0] + (args[0][0] == '+' || args[0][0] == '-'), minutes ? "minutes" : "days");
		} else {
			lf_parse_error_named(p, 1, "invalid argument `%s' to `%s'", args[0], prim->name);
		}
		lf_expr_free(x);
		return NULL;
	}
	x->mask = prim->name[1] == 'a' ? T_ATIME : prim->name[1] == 'c' ? T_CTIME : T_MTIME;
	x->num = minutes ? 60 : DAYSECS;
	return x;
}

static bool eval_xtime(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	struct timespec ts;
	return st && file_time(st, (int)x->mask, &ts) && time_window(ts, x, (double)x->num);
}

/*
 * -used N: last accessed N days after its status last changed, as GNU's
 * parse_used and pred_used have it: the reference is a delta from an origin
 * of 0 (relative_time), compared with ctime - atime, which is never
 * positive (a file read before its change is never -used).  So a file read
 * one hour after its change is -used 1, -used -1 and -used +0, and one never
 * read since (atime equal to ctime) -used 1 and -used -N for any N > 0.
 */
static struct lf_expr *parse_used(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		return NULL;
	}
	struct timespec zero = {0, 0};
	int err = relative_time(args[0], zero, DAYSECS, x);
	if (err) {
		if (err == -2) {
			lf_parse_error(p, 1, "arithmetic overflow while converting %s days to a number of seconds",
				       args[0] + (args[0][0] == '+' || args[0][0] == '-'));
		} else {
			lf_parse_error_named(p, 1, "Invalid argument %s to %s", args[0], prim->name);
		}
		lf_expr_free(x);
		return NULL;
	}
	return x;
}

static bool eval_used(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st || ts_cmp(st->atime, st->ctime) < 0) {
		return false;
	}
	struct timespec delta = {st->ctime.tv_sec - st->atime.tv_sec, st->ctime.tv_nsec - st->atime.tv_nsec};
	if (delta.tv_nsec < 0) {
		delta.tv_nsec += 1000000000L;
		delta.tv_sec--;
	}
	return time_window(delta, x, DAYSECS);
}

static struct lf_expr *parse_daystart(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct lf_cmdline *cmd = lf_parser_cmdline(p);
	if (!cmd->full_days) {
		cmd->day_start.tv_sec += DAYSECS;
		time_t t = cmd->day_start.tv_sec;
		struct tm tm;
		if (localtime_r(&t, &tm)) {
			cmd->day_start.tv_sec -= tm.tm_sec + tm.tm_min * 60 + tm.tm_hour * 3600;
		} else {
			cmd->day_start.tv_sec -= cmd->day_start.tv_sec % DAYSECS;
		}
		cmd->day_start.tv_nsec = 0;
		cmd->full_days = true;
	}
	return lf_parse_node(p, prim);
}

/* Stat a reference file named on the command line, following links as the
 * walk follows its roots (-H, -L); a link whose target is missing or runs
 * through a file ("f/") stands for itself, as a root does (lf_entry_stat). */
static bool stat_reference(struct lf_parser *p, const char *path, struct lf_stat *st)
{
	bool follow = lf_parser_cmdline(p)->opts.symlinks != LF_PHYSICAL;
	if (lf_stat_at(AT_FDCWD, path, follow, st) != 0 &&
	    !(follow && (errno == ENOENT || errno == ENOTDIR) &&
	      lf_stat_at(AT_FDCWD, path, false, st) == 0)) {
		lf_diag_path(lf_parser_ctx(p), path, strlen(path), errno);
		return false;
	}
	return true;
}

/* The time field letter of -newerXY: a, B, c, m. */
static int time_letter(char c)
{
	switch (c) {
	case 'a': return T_ATIME;
	case 'B': return T_BTIME;
	case 'c': return T_CTIME;
	case 'm': return T_MTIME;
	default: return -1;
	}
}

/*
 * -newer, -anewer, -cnewer, -newerXY: x->mask is the file's time field.
 * bfs's -since TIME and -Xsince TIME are -newermt TIME and -newerXt TIME,
 * TIME read as -newerXt reads it (lf_datetime_parse).
 */
static struct lf_expr *parse_newer(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	int mine = T_MTIME, theirs = T_MTIME;
	const char *n = prim->name;
	if (strcmp(n, "-anewer") == 0) {
		mine = T_ATIME;
	} else if (strcmp(n, "-cnewer") == 0) {
		mine = T_CTIME;
	} else if (strcmp(n + 2, "since") == 0 || strcmp(n, "-since") == 0) {
		mine = n[1] == 's' ? T_MTIME : time_letter(n[1]);
		theirs = 't';
	} else if (strncmp(n, "-newer", 6) == 0 && n[6]) {
		mine = time_letter(n[6]);
		theirs = n[7] == 't' ? 't' : time_letter(n[7]);
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		return NULL;
	}
	x->mask = (unsigned)mine;
	if (theirs == 't') {
		if (lf_datetime_parse(args[0], &lf_parser_cmdline(p)->start, &x->ref) != 0) {
			char *q = lf_diag_quoted(args[0]);
			lf_parse_error(p, 1, "I cannot figure out how to interpret %s as a date or time",
				       q ? q : args[0]);
			free(q);
			lf_expr_free(x);
			return NULL;
		}
		return x;
	}
	struct lf_stat st;
	if (!stat_reference(p, args[0], &st)) {
		/* reported; st holds nothing, not even has_btime */
		lf_expr_free(x);
		return NULL;
	}
	if (!file_time(&st, theirs, &x->ref)) {
		if (theirs == T_BTIME && !st.has_btime) {
			lf_parse_error(p, 1, "'%s' has no birth time", args[0]);
		}
		lf_expr_free(x);
		return NULL;
	}
	return x;
}

static bool eval_newer(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	struct timespec ts;
	return st && file_time(st, (int)x->mask, &ts) && ts_cmp(ts, x->ref) > 0;
}

/* ---- -perm ------------------------------------------------------------ */

/*
 * A chmod-style mode applied to 0, for a non-directory ([0]) and a directory
 * ([1]), which differ only by 'X'.  As POSIX has it since Austin Group bug
 * 1392, and bfs 4 does, a clause with no who letter ("+w", "-perm -+w")
 * leaves out the bits of the umask @cmask from its r, w, x, X and copies, as chmod
 * does; GNU find 4.9 applies no umask.
 */
static bool symbolic_mode(const char *s, unsigned cmask, unsigned out[2])
{
	unsigned val[2] = {0, 0};
	const char *c = s;
	for (;;) {
		unsigned who = 0;
		for (; strchr("ugoa", *c) && *c; c++) {
			who |= *c == 'u' ? 04700 : *c == 'g' ? 02070 : *c == 'o' ? 01007 : 07777;
		}
		/* The permission bits a clause may set; special ones go by who. */
		unsigned allowed = who ? who : 07777 & ~(cmask & 0777);
		if (!who) {
			who = 07777;
		}
		if (!*c || !strchr("+-=", *c)) {
			return false;
		}
		while (*c && strchr("+-=", *c)) {
			char op = *c++;
			for (int d = 0; d < 2; d++) {
				unsigned bits = 0;
				const char *q = c;
				if (*q && strchr("ugo", *q)) {
					unsigned from = val[d];
					unsigned sh = *q == 'u' ? 6 : *q == 'g' ? 3 : 0;
					unsigned perm = (from >> sh) & 7;
					bits = perm << 6 | perm << 3 | perm;
					q++;
				} else {
					for (; *q && strchr("rwxXst", *q); q++) {
						switch (*q) {
						case 'r': bits |= 0444; break;
						case 'w': bits |= 0222; break;
						case 'x': bits |= 0111; break;
						case 'X': bits |= d ? 0111 : 0; break;
						case 's': bits |= 06000; break;
						case 't': bits |= 01000; break;
						}
					}
				}
				bits &= (allowed & 0777) | (who & 07000);
				if (op == '+') {
					val[d] |= bits;
				} else if (op == '-') {
					val[d] &= ~bits;
				} else {
					val[d] = (val[d] & ~who) | bits;
				}
				if (d == 1) {
					c = q;
				}
			}
		}
		if (*c == ',') {
			c++;
			continue;
		}
		if (*c) {
			return false;
		}
		break;
	}
	out[0] = val[0];
	out[1] = val[1];
	return true;
}

/*
 * The umask, read from /proc/self/status: umask(2) can only read it by
 * setting it, which another thread of a host could see.  Without /proc
 * (Linux before 4.7), the set-and-restore it is.
 */
static unsigned process_umask(void)
{
	FILE *fp = fopen("/proc/self/status", "re");
	char line[128];
	unsigned mask = 0;
	bool found = false;
	while (fp && !found && fgets(line, sizeof(line), fp)) {
		found = sscanf(line, "Umask: %o", &mask) == 1;
	}
	if (fp) {
		fclose(fp);
	}
	if (!found) {
		mode_t m = umask(0);
		umask(m);
		mask = (unsigned)m;
	}
	return mask & 0777;
}

static struct lf_expr *parse_perm(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	const char *s = args[0];
	int kind = 0; /* 0 exact, -1 all of (-MODE), +1 any of (/MODE) */
	if (*s == '-') {
		kind = -1;
		s++;
	} else if (*s == '/') {
		kind = 1;
		s++;
	}
	unsigned mode[2];
	if (*s >= '0' && *s <= '7') {
		char *end;
		unsigned long v = strtoul(s, &end, 8);
		if (*end || v > 07777) {
			lf_parse_error(p, 1, "invalid mode '%s'", args[0]);
			return NULL;
		}
		mode[0] = mode[1] = (unsigned)v;
	} else {
		if (!symbolic_mode(s, process_umask(), mode)) {
			lf_parse_error(p, 1, "invalid mode '%s'", args[0]);
			return NULL;
		}
	}
	if (kind > 0 && mode[0] == 0 && mode[1] == 0) {
		/* GNU warns here whatever -warn says. */
		lf_diag_warn(lf_parser_ctx(p), "you have specified a mode pattern %s (which is equivalent to /000). The meaning "
			     "of -perm /000 has now been changed to be consistent with -perm -000; that is, "
			     "while it used to match no files, it now matches all files.",
			     args[0]);
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->cmp = kind;
		x->mask = mode[0];
		x->num = mode[1];
	}
	return x;
}

static bool eval_perm(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st) {
		return false;
	}
	unsigned want = S_ISDIR(st->mode) ? (unsigned)x->num : x->mask;
	unsigned mode = st->mode & 07777;
	if (x->cmp < 0) {
		return (mode & want) == want;
	}
	if (x->cmp > 0) {
		return want == 0 || (mode & want) != 0;
	}
	return mode == want;
}

/* ---- owners ----------------------------------------------------------- */

static bool all_digits(const char *s)
{
	if (!*s) {
		return false;
	}
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s)) {
			return false;
		}
	}
	return true;
}

static struct lf_expr *parse_user(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	bool group = strcmp(prim->name, "-group") == 0;
	long long id;
	if (!*args[0]) {
		lf_parse_error_named(p, 1, "The argument to %s should not be empty", prim->name);
		return NULL;
	}
	uint32_t named;
	int found = lf_idnames_lookup(group, args[0], &named);
	if (found < 0) {
		lf_parse_error(p, 1, "%s", strerror(errno));
		return NULL;
	}
	id = found ? (long long)named : -1;
	if (id < 0 && all_digits(args[0])) {
		id = strtoll(args[0], NULL, 10);
	}
	if (id < 0 || id > UINT32_MAX) {
		lf_parse_error(p, 1, group ? "'%s' is not the name of an existing group"
					   : "'%s' is not the name of a known user",
			       args[0]);
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->num = id;
		x->cmp = 0;
	}
	return x;
}

static struct lf_expr *parse_simple_test(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return lf_parse_node(p, prim);
}

/*
 * -nouser, -nogroup: whether the id has no name, from the context's cache.
 * A look-up that fails (not "no such id") is an error for the entry, not
 * a name missing: "! -nouser -delete" must not act on it.
 */
static bool eval_noname(struct lf_eval *ev, bool group)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st) {
		return false;
	}
	if (lf_idnames_get(&ev->cmd->ctx->ids, group, group ? st->gid : st->uid)) {
		return false;
	}
	if (errno) {
		int err = errno;
		lf_out_flush(ev->out);
		lf_diag_path(ev->cmd->ctx, ev->entry->path, ev->entry->pathlen, err);
		ev->status = 1;
		ev->stop = true;
		return false;
	}
	return true;
}

static bool eval_nouser(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	return eval_noname(ev, false);
}

static bool eval_nogroup(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	return eval_noname(ev, true);
}

/* ---- -name ------------------------------------------------------------ */

static void pattern_locale(struct lf_parser *p, struct lf_expr *x);

static struct lf_expr *parse_name(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->str = args[0];
		pattern_locale(p, x);
		if (strchr(args[0], '/') && strcmp(args[0], "/") != 0 && lf_parser_warn(p)) {
			lf_diag_warn(lf_parser_ctx(p), "'%s' matches against basenames only, but the given pattern contains a "
				     "directory separator ('/'), thus the expression will evaluate to false all "
				     "the time.  Did you mean '-wholename'?",
				     prim->name);
		}
	}
	return x;
}

/* ---- -type ------------------------------------------------------------ */

/* -type f,d,l: a set of enum lf_type bits. */
static struct lf_expr *parse_type(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	static const char letters[] = "fdlpscb";
	static const enum lf_type types[] = {LF_REG, LF_DIR, LF_LNK, LF_FIFO, LF_SOCK, LF_CHR, LF_BLK};
	const char *a = args[0];
	unsigned mask = 0;
	if (!*a) {
		lf_parse_error_named(p, 1, "Arguments to %s should contain at least one letter", prim->name);
		return NULL;
	}
	for (size_t i = 0;; i += 2) {
		const char *l = a[i] ? strchr(letters, a[i]) : NULL;
		if (a[i] == 'D') {
			/* GNU find knows doors but, off Solaris, refuses them. */
			lf_parse_error_named(p, 1,
				       "%s %c is not supported because Solaris doors are not supported on the "
				       "platform find was compiled on.",
				       prim->name, a[i]);
			return NULL;
		}
		if (!l) {
			lf_parse_error_named(p, 1, "Unknown argument to %s: %c", prim->name, a[i] ? a[i] : ' ');
			return NULL;
		}
		unsigned bit = 1u << types[l - letters];
		if (mask & bit) {
			lf_parse_error_named(p, 1, "Duplicate file type '%c' in the argument list to %s.", a[i], prim->name);
			return NULL;
		}
		mask |= bit;
		if (a[i + 1] == '\0') {
			break;
		}
		if (a[i + 1] != ',') {
			lf_parse_error_named(p, 1, "Must separate multiple arguments to %s using: ','", prim->name);
			return NULL;
		}
		if (a[i + 2] == '\0') {
			lf_parse_error_named(p, 1,
				       "Last file type in list argument to %s is missing, i.e., list is ending on: ','",
				       prim->name);
			return NULL;
		}
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->mask = mask;
	}
	return x;
}


/* ---- names and paths -------------------------------------------------- */

/*
 * Where a shell pattern is matched (x->num): as GNU find, in the user's
 * locale, so that "?" and "[...]" take a character and -iname folds "É";
 * but the process's C locale gives the same answers, for less (glibc's
 * fnmatch decodes both strings in a multibyte locale), when the locale is
 * C, or when an ASCII pattern meets an ASCII subject under C.UTF-8.
 */
enum { MATCH_IN_C, MATCH_ASCII_IN_C, MATCH_IN_USER };

static void pattern_locale(struct lf_parser *p, struct lf_expr *x)
{
	lf_ctx_settings(lf_parser_ctx(p)); /* the user's locale */
	locale_t user = lf_parser_ctx(p)->user_locale;
	if (!user || (lf_ulocale_ascii_is_c(user) && !lf_ulocale_is_utf8(user))) {
		x->num = MATCH_IN_C;
	} else if (lf_ulocale_ascii_is_c(user) && lf_ulocale_ascii(x->str)) {
		x->num = MATCH_ASCII_IN_C;
	} else {
		x->num = MATCH_IN_USER;
	}
}

bool lf_pattern_match(const struct lf_expr *x, const struct lf_eval *ev, const char *subject, int flags)
{
	if (x->num == MATCH_IN_C || (x->num == MATCH_ASCII_IN_C && lf_ulocale_ascii(subject))) {
		return fnmatch(x->str, subject, flags) == 0;
	}
	locale_t old = lf_ulocale_enter(ev->cmd->ctx->user_locale);
	int r = fnmatch(x->str, subject, flags);
	lf_ulocale_leave(old);
	return r == 0;
}

static struct lf_expr *parse_pattern(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->str = args[0];
		x->mask = prim->name[1] == 'i' ? FNM_CASEFOLD : 0;
		if (prim->nargs == 1) {
			pattern_locale(p, x); /* -empty is parsed here too, with no pattern */
		}
	}
	return x;
}

static bool eval_iname(const struct lf_expr *x, struct lf_eval *ev)
{
	char buf[4096];
	return lf_pattern_match(x, ev, lf_expr_basename(ev->entry, buf, sizeof(buf)), FNM_CASEFOLD);
}

/* -path, -wholename: '*' matches '/' too, as in find. */
static bool eval_path(const struct lf_expr *x, struct lf_eval *ev)
{
	return lf_pattern_match(x, ev, ev->entry->path, (int)x->mask);
}

/* -lname: a symbolic link whose target matches. */
static bool eval_lname(const struct lf_expr *x, struct lf_eval *ev)
{
	struct lf_entry *e = ev->entry;
	if (e->type != LF_LNK) {
		return false;
	}
	char target[PATH_MAX + 1];
	ssize_t n = readlinkat(e->at_fd, e->at_name, target, sizeof(target) - 1);
	if (n < 0) {
		lf_eval_file_error(ev, e->path, e->pathlen, errno);
		return false;
	}
	target[n] = '\0';
	return lf_pattern_match(x, ev, target, (int)x->mask);
}

/* ---- -regex ----------------------------------------------------------- */

/*
 * The -regextype names.  Each but pcre2 goes through glibc's GNU regex API,
 * the engine GNU find 4.9 uses, with the syntax bits GNU find gives it
 * (findutils' lib/regextype.c), so that patterns mean exactly what they mean
 * there.  lf_cmdline.regextype indexes this table; 0, the default, is emacs
 * as in GNU find.
 *
 * Characters are the user's locale's, as GNU find's after its
 * setlocale(LC_ALL, ""): glibc's engine reads the locale in force when it
 * compiles (MB_CUR_MAX, UTF-8 or not) and when it matches (mbrtowc,
 * towupper), so both run under the context's locale (user_locale); in
 * UTF-8, "." is one character and matches no invalid byte.  PCRE2 is told
 * the same with PCRE2_UTF (lf_regex.h's LF_REGEX_UTF) when the locale's
 * codeset is UTF-8.
 */
static const struct {
	char name[20];
	bool pcre;
	reg_syntax_t syntax;
} regextypes[] = {
	{"emacs", false, RE_SYNTAX_EMACS},
	{"findutils-default", false, RE_SYNTAX_EMACS | RE_DOT_NEWLINE},
	{"pcre2", true, 0},
	{"awk", false, RE_SYNTAX_AWK},
	{"ed", false, RE_SYNTAX_ED},
	{"egrep", false, RE_SYNTAX_EGREP},
	{"gnu-awk", false, RE_SYNTAX_GNU_AWK},
	{"grep", false, RE_SYNTAX_GREP},
	{"posix-awk", false, RE_SYNTAX_POSIX_AWK},
	{"posix-basic", false, RE_SYNTAX_POSIX_BASIC},
	{"posix-egrep", false, RE_SYNTAX_POSIX_EGREP},
	{"posix-extended", false, RE_SYNTAX_POSIX_EXTENDED},
	{"posix-minimal-basic", false, RE_SYNTAX_POSIX_MINIMAL_BASIC},
	{"sed", false, RE_SYNTAX_SED},
};

static struct lf_expr *parse_regextype(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	for (size_t i = 0; i < sizeof(regextypes) / sizeof(regextypes[0]); i++) {
		if (strcmp(args[0], regextypes[i].name) == 0) {
			lf_parser_cmdline(p)->regextype = (int)i;
			return lf_parse_node(p, prim);
		}
	}
	lf_parse_error(p, 1,
		       "Unknown regular expression type '%s'; valid types are 'findutils-default', 'ed', "
		       "'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', "
		       "'egrep', 'posix-extended', 'posix-minimal-basic', 'sed', 'pcre2'.",
		       args[0]);
	return NULL;
}

struct path_regex {
	struct lf_regex *pcre; /* pcre2, or else: */
	regex_t posix;         /* in the user's locale */
	/* The twins that paths of ASCII only take (see ascii_twin()): */
	struct lf_regex *pcre_ascii; /* pcre2 on bytes, or NULL */
	regex_t ascii;               /* in c_locale, if c_locale */
	locale_t c_locale;
};

/*
 * The ASCII twin of a GNU -regex: glibc's engine is three to four times
 * slower in UTF-8 than on bytes, even on ASCII (it decodes every path and
 * takes "." and brackets a character at a time).  Under C.UTF-8, whose
 * classes, cases and collation are the C locale's on ASCII, a pattern of
 * ASCII only matches an ASCII path in the C locale exactly as in UTF-8,
 * so it is compiled there too and such paths take it.  Other UTF-8 locales
 * may collate ranges and equivalence classes, or fold cases, their own
 * way, and always take the multibyte engine, as in GNU find.  Without the
 * twin (out of memory included) every path takes that engine: slower,
 * never different.  Called with the syntax bits set.
 *
 * PCRE2's twin, on bytes, needs no such care: PCRE2 never reads
 * the locale, and on ASCII its Unicode classes (PCRE2_UCP) and case
 * folding are its ASCII ones; a pattern that only UTF mode accepts
 * (\x{212a}, which folds to 'k') fails to compile on bytes and gets none.
 */
static void ascii_twin(struct path_regex *r, locale_t user, const char *pattern)
{
	if (!lf_ulocale_is_utf8(user) || !lf_ulocale_ascii_is_c(user)) {
		return;
	}
	if (!lf_ulocale_ascii(pattern)) {
		return;
	}
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c) {
		return;
	}
	locale_t old = uselocale(c);
	const char *msg = re_compile_pattern(pattern, strlen(pattern), &r->ascii);
	uselocale(old);
	if (msg) {
		freelocale(c);
		return;
	}
	r->c_locale = c;
}

/* Whether @s has no byte above 0x7f, eight bytes at a time (the last
 * eight overlapping the others). */
static bool is_ascii(const char *s, size_t len)
{
	uint64_t bits = 0, w;
	if (len < 8) {
		for (size_t i = 0; i < len; i++) {
			bits |= (unsigned char)s[i];
		}
	} else {
		for (size_t i = 0; i < len - 8; i += 8) {
			memcpy(&w, s + i, 8);
			bits |= w;
		}
		memcpy(&w, s + len - 8, 8);
		bits |= w;
	}
	return (bits & 0x8080808080808080u) == 0;
}

static void free_path_regex(void *data)
{
	struct path_regex *r = data;
	if (r) {
		if (r->pcre) {
			lf_regex_free(r->pcre);
			lf_regex_free(r->pcre_ascii);
		} else {
			regfree(&r->posix);
		}
		if (r->c_locale) {
			regfree(&r->ascii);
			freelocale(r->c_locale);
		}
		free(r);
	}
}

/* -regex, -iregex: the pattern must match the whole path. */
static struct lf_expr *parse_regex(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	bool icase = prim->name[1] == 'i';
	struct path_regex *r = calloc(1, sizeof(*r));
	if (!r) {
		lf_parse_error(p, 0, "%s", strerror(errno));
		return NULL;
	}
	int type = lf_parser_cmdline(p)->regextype;
	struct lf_ctx *ctx = lf_parser_ctx(p);
	lf_ctx_settings(ctx); /* the user's locale */
	if (regextypes[type].pcre) {
		/* Anchored at both ends, as find's -regex matches whole paths. */
		size_t len = strlen(args[0]);
		char *wrapped = malloc(len + 16);
		char msg[256];
		size_t off = 0;
		unsigned flags = icase ? LF_REGEX_CASELESS : 0;
		if (lf_ulocale_is_utf8(ctx->user_locale)) {
			flags |= LF_REGEX_UTF;
		}
		if (wrapped) {
			memcpy(wrapped, "\\A(?:", 5);
			memcpy(wrapped + 5, args[0], len);
			memcpy(wrapped + 5 + len, ")\\z", 3);
			r->pcre = lf_regex_compile_mem(wrapped, len + 8, flags, ctx->mem, msg, sizeof(msg), &off);
			if (r->pcre && (flags & LF_REGEX_UTF) && lf_ulocale_ascii(args[0])) {
				/* ascii_twin()'s, on bytes; none is no error */
				r->pcre_ascii = lf_regex_compile_mem(wrapped, len + 8, flags & ~LF_REGEX_UTF, ctx->mem,
								     NULL, 0, NULL);
			} else if (!r->pcre && errno == EILSEQ) {
				/* A pattern that is no UTF-8 itself (a byte of a
				 * name that is not either) is matched as bytes, as
				 * in the C locale: the way to select such names. */
				r->pcre = lf_regex_compile_mem(wrapped, len + 8, flags & ~LF_REGEX_UTF, ctx->mem, msg,
							       sizeof(msg), &off);
			}
			free(wrapped);
		}
		if (!r->pcre) {
			lf_parse_error(p, 1, "invalid regular expression '%s': %s at offset %zu", args[0],
				       wrapped ? msg : strerror(errno), off < 5 ? 0 : off - 5 > len ? len : off - 5);
			free(r);
			return NULL;
		}
	} else {
		const char *why;
		size_t max = ctx->regex_max_size;
		if (max && !lf_regex_bounded(args[0], max, &why)) {
			/* glibc's regcomp has no limit: gigabytes for a few nested intervals. */
			lf_parse_error(p, 1, "regular expression '%s' refused here: %s", args[0], why);
			free(r);
			return NULL;
		}
		/* Restored after: the syntax is a global of the C library. */
		reg_syntax_t bits = regextypes[type].syntax | (icase ? RE_ICASE : 0);
		reg_syntax_t saved = re_set_syntax(bits);
		locale_t old = lf_ulocale_enter(ctx->user_locale);
		const char *msg = re_compile_pattern(args[0], strlen(args[0]), &r->posix);
		lf_ulocale_leave(old);
		if (!msg) {
			ascii_twin(r, ctx->user_locale, args[0]);
		}
		re_set_syntax(saved);
		if (msg) {
			/* GNU's words: its messages come from the same engine. */
			lf_parse_error(p, 1, "failed to compile regular expression '%s': %s", args[0], msg);
			free(r);
			return NULL;
		}
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		free_path_regex(r);
		return NULL;
	}
	x->data = r;
	x->destroy = free_path_regex;
	return x;
}

/*
 * A test that could not be decided for the entry (a regex match error, an
 * unreadable mount table): reported with the path, status 1, and the walk
 * stops at once, as after a -lua error.  Never a plain false, which "!"
 * would turn into true before -delete.
 */
static bool eval_failed(const struct lf_expr *x, struct lf_eval *ev, const char *why)
{
	const struct lf_entry *e = ev->entry;
	lf_out_flush(ev->out);
	FILE *fp = lf_diag_begin(ev->cmd->ctx);
	lf_diag_quote(fp, e->path, e->pathlen);
	fprintf(fp, ": %s: %s", x->name, why);
	lf_diag_end(ev->cmd->ctx, LF_ERROR_RUNTIME, e->path, e->pathlen, 0);
	ev->status = 1;
	ev->stop = true;
	return false;
}

static bool eval_regex(const struct lf_expr *x, struct lf_eval *ev)
{
	struct path_regex *r = x->data;
	const struct lf_entry *e = ev->entry;
	if (r->pcre) {
		struct lf_regex *re = r->pcre_ascii && is_ascii(e->path, e->pathlen) ? r->pcre_ascii : r->pcre;
		int rc = lf_regex_exec(re, e->path, e->pathlen, 0, 0);
		if (rc < 0) {
			return eval_failed(x, ev, lf_regex_error(re));
		}
		return rc == 1;
	}
	if (e->pathlen > INT_MAX) {
		return false;
	}
	/* re_match() returns the length of the longest match at 0, -1 for
	 * none, -2 for an internal failure (memory); in the locale the
	 * pattern was compiled in (parse_regex). */
	regex_t *re = &r->posix;
	locale_t loc = ev->cmd->ctx->user_locale;
	if (r->c_locale && is_ascii(e->path, e->pathlen)) {
		re = &r->ascii;
		loc = r->c_locale;
	}
	locale_t old = lf_ulocale_enter(loc);
	regoff_t n = re_match(re, e->path, (regoff_t)e->pathlen, 0, NULL);
	lf_ulocale_leave(old);
	if (n == -2) {
		return eval_failed(x, ev, "regular expression matching failed (out of memory)");
	}
	return n == (regoff_t)e->pathlen;
}

/* ---- -empty, -samefile, -xtype, access, -fstype ------------------------ */

static bool eval_empty(const struct lf_expr *x, struct lf_eval *ev)
{
	(void)x;
	struct lf_entry *e = ev->entry;
	if (e->type == LF_DIR) {
		bool follow = e->depth == 0 ? ev->cmd->opts.symlinks != LF_PHYSICAL
					    : ev->cmd->opts.symlinks == LF_LOGICAL;
		int fd = openat(e->at_fd, e->at_name,
				O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
		if (fd < 0) {
			int err = errno;
			/* A directory that cannot even be stat'ed (its parent is not
			 * searchable): that is the error, reported once, as GNU find,
			 * which stats first, does. */
			if (err == EACCES && !lf_eval_stat(ev)) {
				return false;
			}
			lf_eval_file_error(ev, e->path, e->pathlen, err);
			return false;
		}
		char buf[4096] __attribute__((aligned(8)));
		bool empty = true;
		ssize_t n;
		while (empty && (n = lf_getdents(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t o = 0; o < n; o += ((struct lf_dirent *)(buf + o))->d_reclen) {
				if (!lf_dir_is_dot(((struct lf_dirent *)(buf + o))->d_name)) {
					empty = false;
					break;
				}
			}
		}
		close(fd);
		return empty;
	}
	if (e->type != LF_REG && e->type != LF_UNKNOWN) {
		return false;
	}
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && S_ISREG(st->mode) && st->size == 0;
}

static struct lf_expr *parse_samefile(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_stat st;
	if (!stat_reference(p, args[0], &st)) {
		return NULL;
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->num = (long long)st.ino;
		x->ref.tv_sec = (time_t)st.dev;
	}
	return x;
}

static bool eval_samefile(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	return st && st->ino == (uint64_t)x->num && st->dev == (uint64_t)x->ref.tv_sec;
}

/* -xtype: the type as the walk does NOT see it (the target under -P, the
 * link itself under -L); d_type answers whenever that is the same thing. */
static bool eval_xtype(const struct lf_expr *x, struct lf_eval *ev)
{
	struct lf_entry *e = ev->entry;
	bool followed = ev->cmd->opts.symlinks == LF_LOGICAL ||
			(ev->cmd->opts.symlinks == LF_COMFOLLOW && e->depth == 0);
	enum lf_type type = e->type;
	if (!followed && type == LF_LNK) {
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW);
		if (!st && errno != ENOENT && errno != ENOTDIR && errno != ELOOP) {
			/* Not known to be broken (EACCES): an error, as in GNU find and bfs. */
			lf_eval_file_error(ev, e->path, e->pathlen, errno);
			return false;
		}
		type = st ? lf_type_from_mode(st->mode) : LF_LNK;
	} else if (followed) {
		const struct lf_stat *st = lf_entry_stat(e, LF_NOFOLLOW);
		if (!st) {
			lf_eval_file_error(ev, e->path, e->pathlen, errno);
			return false;
		}
		type = lf_type_from_mode(st->mode);
	}
	return (x->mask >> type) & 1;
}

/* ---- -xattr, -xattrname, -acl, -capable (bfs) --------------------------- */

/*
 * Tests of what a file holds beyond its stat data (fsattr.h), each a system
 * call of its own for every entry it is evaluated for (x->syscall: the
 * optimizer puts them after the tests that stat), and none for a query
 * without them.
 */
static struct lf_expr *parse_fsattr(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->str = prim->nargs ? args[0] : NULL;
		x->syscall = true;
	}
	return x;
}

/*
 * Whether the walk takes the entry for a symbolic link (fsattr.h's @link):
 * its type, which d_type gives, and the target's under -L and for -H's
 * roots; a stat only where the type is unknown.  false after reporting a
 * failed stat.
 */
static bool walk_type_is_link(struct lf_eval *ev, bool *link)
{
	enum lf_type type = ev->entry->type;
	if (type == LF_UNKNOWN) {
		const struct lf_stat *st = lf_eval_stat(ev);
		if (!st) {
			ev->entry_failed = true;
			return false;
		}
		type = lf_type_from_mode(st->mode);
	}
	*link = type == LF_LNK;
	return true;
}

/*
 * The answer of an fsattr.h check @r.  A file that could not be examined
 * (EACCES, a name the file system refuses...) is an error for it, reported
 * with its path as bfs does, and the entry is neither true nor false
 * (ev->entry_failed): "! -xattr -delete" must not delete what could not be
 * read.  A file gone under -ignore_readdir_race is false, as a stat would
 * be.  Without /proc, the run stops.
 */
static bool fsattr_answer(const struct lf_expr *x, struct lf_eval *ev, int r)
{
	if (r >= 0) {
		return r > 0;
	}
	if (r == LF_FSATTR_NOPROC) {
		return eval_failed(x, ev, "the file cannot be named through /proc/self/fd (is /proc mounted?)");
	}
	int err = errno;
	const struct lf_entry *e = ev->entry;
	if (err == ENOENT && ev->cmd->ignore_race && e->depth > 0) {
		return false;
	}
	lf_eval_file_error(ev, e->path, e->pathlen, err);
	ev->entry_failed = true;
	return false;
}

static bool eval_xattr(const struct lf_expr *x, struct lf_eval *ev)
{
	bool link;
	return walk_type_is_link(ev, &link) && fsattr_answer(x, ev, lf_fsattr_xattrs(ev->entry, link));
}

static bool eval_xattrname(const struct lf_expr *x, struct lf_eval *ev)
{
	bool link;
	return walk_type_is_link(ev, &link) && fsattr_answer(x, ev, lf_fsattr_xattr(ev->entry, link, x->str));
}

static bool eval_acl(const struct lf_expr *x, struct lf_eval *ev)
{
	bool link;
	return walk_type_is_link(ev, &link) && fsattr_answer(x, ev, lf_fsattr_acl(ev->entry, link));
}

static bool eval_capable(const struct lf_expr *x, struct lf_eval *ev)
{
	bool link;
	return walk_type_is_link(ev, &link) && fsattr_answer(x, ev, lf_fsattr_capable(ev->entry, link));
}

static bool eval_access(const struct lf_expr *x, struct lf_eval *ev)
{
	return faccessat(ev->entry->at_fd, ev->entry->at_name, (int)x->mask, 0) == 0;
}

static struct lf_expr *parse_fstype(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->str = args[0];
	}
	return x;
}

/* -fstype: the mount table of the context, as -printf %F reads it. */
static bool eval_fstype(const struct lf_expr *x, struct lf_eval *ev)
{
	const struct lf_stat *st = lf_eval_stat(ev);
	if (!st) {
		return false;
	}
	const char *type = lf_mounts_type(&ev->cmd->ctx->mounts, st->dev);
	if (!type && errno) {
		char why[256];
		snprintf(why, sizeof(why), "cannot read the mount table (/proc/self/mountinfo): %s", strerror(errno));
		return eval_failed(x, ev, why);
	}
	return type && strcmp(type, x->str) == 0;
}

static struct lf_expr *parse_access(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->mask = prim->name[1] == 'r' ? R_OK : prim->name[1] == 'w' ? W_OK : X_OK;
	}
	return x;
}

static struct lf_expr *parse_race(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	lf_parser_cmdline(p)->ignore_race = prim->name[1] == 'i';
	return lf_parse_node(p, prim);
}

int lf_prims_tests_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"-acl", LF_PRIM_TEST, 0, parse_fsattr, eval_acl, LF_STAT_NONE},
		{"-amin", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-anewer", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-asince", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-atime", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-Bsince", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-capable", LF_PRIM_TEST, 0, parse_fsattr, eval_capable, LF_STAT_NONE},
		{"-cmin", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-cnewer", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-csince", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-ctime", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-daystart", LF_PRIM_POSITIONAL, 0, parse_daystart, lf_eval_true, false},
		{"-empty", LF_PRIM_TEST, 0, parse_pattern, eval_empty, true},
		{"-executable", LF_PRIM_TEST, 0, parse_access, eval_access, true},
		{"-fstype", LF_PRIM_TEST, 1, parse_fstype, eval_fstype, true},
		{"-gid", LF_PRIM_TEST, 1, parse_numeric, eval_gid, LF_STAT_EVERY},
		{"-group", LF_PRIM_TEST, 1, parse_user, eval_gid, LF_STAT_EVERY},
		{"-ignore_readdir_race", LF_PRIM_OPTION, 0, parse_race, lf_eval_true, false},
		{"-ilname", LF_PRIM_TEST, 1, parse_pattern, eval_lname, false},
		{"-iname", LF_PRIM_TEST, 1, parse_pattern, eval_iname, false},
		{"-inum", LF_PRIM_TEST, 1, parse_numeric, eval_inum, LF_STAT_EVERY},
		{"-ipath", LF_PRIM_TEST, 1, parse_pattern, eval_path, false},
		{"-iregex", LF_PRIM_TEST, 1, parse_regex, eval_regex, false},
		{"-iwholename", LF_PRIM_TEST, 1, parse_pattern, eval_path, false},
		{"-links", LF_PRIM_TEST, 1, parse_numeric, eval_links, LF_STAT_EVERY},
		{"-lname", LF_PRIM_TEST, 1, parse_pattern, eval_lname, false},
		{"-mmin", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-msince", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-mtime", LF_PRIM_TEST, 1, parse_xtime, eval_xtime, LF_STAT_EVERY},
		{"-name", LF_PRIM_TEST, 1, parse_name, lf_eval_name, false},
		{"-newer", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-neweraa", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-neweraB", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerac", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-neweram", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerat", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerBa", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerBB", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerBc", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerBm", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerBt", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerca", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newercB", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newercc", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newercm", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerct", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newerma", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newermB", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newermc", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newermm", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-newermt", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-noignore_readdir_race", LF_PRIM_OPTION, 0, parse_race, lf_eval_true, false},
		{"-nogroup", LF_PRIM_TEST, 0, parse_simple_test, eval_nogroup, LF_STAT_EVERY},
		{"-nouser", LF_PRIM_TEST, 0, parse_simple_test, eval_nouser, LF_STAT_EVERY},
		{"-path", LF_PRIM_TEST, 1, parse_pattern, eval_path, false},
		{"-perm", LF_PRIM_TEST, 1, parse_perm, eval_perm, LF_STAT_EVERY},
		{"-readable", LF_PRIM_TEST, 0, parse_access, eval_access, true},
		{"-regex", LF_PRIM_TEST, 1, parse_regex, eval_regex, false},
		{"-regextype", LF_PRIM_POSITIONAL, 1, parse_regextype, lf_eval_true, false},
		{"-samefile", LF_PRIM_TEST, 1, parse_samefile, eval_samefile, true},
		{"-since", LF_PRIM_TEST, 1, parse_newer, eval_newer, LF_STAT_EVERY},
		{"-size", LF_PRIM_TEST, 1, parse_size, eval_size, LF_STAT_EVERY},
		{"-type", LF_PRIM_TEST, 1, parse_type, lf_eval_type, false},
		{"-uid", LF_PRIM_TEST, 1, parse_numeric, eval_uid, LF_STAT_EVERY},
		{"-used", LF_PRIM_TEST, 1, parse_used, eval_used, LF_STAT_EVERY},
		{"-user", LF_PRIM_TEST, 1, parse_user, eval_uid, LF_STAT_EVERY},
		{"-wholename", LF_PRIM_TEST, 1, parse_pattern, eval_path, false},
		{"-writable", LF_PRIM_TEST, 0, parse_access, eval_access, true},
		{"-xattr", LF_PRIM_TEST, 0, parse_fsattr, eval_xattr, LF_STAT_NONE},
		{"-xattrname", LF_PRIM_TEST, 1, parse_fsattr, eval_xattrname, LF_STAT_NONE},
		{"-xtype", LF_PRIM_TEST, 1, parse_type, eval_xtype, true},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}
