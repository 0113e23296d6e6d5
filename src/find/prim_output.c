/*
 * prim_output.c: find's output actions, -printf, -fprintf, -ls, -fls,
 * -fprint and -fprint0, written to produce GNU find 4.9's bytes.
 *
 * A -printf format is compiled once, at parse time, into segments the way
 * GNU's insert_fprintf() cuts it: plain text (escapes already applied), a
 * stop (\c), or a directive with the printf spec GNU would hand to fprintf
 * ("%-10s", "%05d", ...).  Evaluation formats each directive's value through
 * that same spec with snprintf, so widths, precision and flags behave exactly
 * as GNU's do, quirks included (a '0' flag pads numbers printed as strings
 * with spaces, '#' changes %m but not %s...).
 *
 * Stat data is fetched only when a directive needs it: '%p\n' costs no stat,
 * '%s' one (lf_entry_stat with the walk's follow mode, as GNU uses the stat
 * buffer of its walk).  %y takes the type the walk already knows; %Y and %l
 * look further only for symbolic links.
 *
 * Output files (-fprint FILE...) are opened and truncated when parsed, as
 * GNU does.  Two actions naming the same file (same device and inode) share
 * one buffered stream; /dev/stdout and /dev/stderr are recognised by name
 * and mean the program's own standard output and error.  Files are flushed
 * and closed by the finish hook, where a write error is reported once per
 * file and sets the exit status.
 */
#define _GNU_SOURCE
#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "primary.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pwd.h>
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
#include <wchar.h>

/* ---- process-wide settings ---------------------------------------------- */

/*
 * GNU find calls setlocale(LC_ALL, ""), which shows in strftime's names, the
 * radix character of %S and what a terminal can display.  luafind's main
 * stays in the C locale, so the actions switch this thread to the user's
 * locale while they format, and leave the rest of the program alone.
 */
static locale_t user_locale;
static bool locale_ready;

/* The time -ls compares dates with (GNU's start time), and its block unit. */
static time_t ls_now;
static int ls_block_size;

static void init_settings(void)
{
	if (locale_ready) {
		return;
	}
	locale_ready = true;
	user_locale = newlocale(LC_ALL_MASK, "", (locale_t)0);
	tzset();
	ls_now = time(NULL);
	ls_block_size = getenv("POSIXLY_CORRECT") ? 512 : 1024;
}

static locale_t enter_locale(void)
{
	return user_locale ? uselocale(user_locale) : (locale_t)0;
}

static void leave_locale(locale_t old)
{
	if (old) {
		uselocale(old);
	}
}

/* ---- output streams ----------------------------------------------------- */

enum sink_kind {
	SINK_STDOUT, /* the evaluation's own writer (ev->out) */
	SINK_STDERR, /* fd 2, flushed after every action, as stdio's stderr */
	SINK_FILE,
};

/* An output stream, shared by every action that names the same file. */
struct sink {
	struct sink *next;
	enum sink_kind kind;
	const char *name; /* as given (argv), for messages */
	dev_t dev;
	ino_t ino;
	struct lf_out out; /* SINK_STDERR and SINK_FILE */
	int refs;
	int active;  /* users whose walk has not finished: the last one closes */
	bool tty;    /* names are shown with '?' for what cannot be displayed */
	bool closed; /* the finish hook has run */
};

/* Open sinks, so that a file named twice is opened once (GNU's sharefile). */
static struct sink *sinks;

/*
 * The sink for @name, opened (created, truncated) now.  On failure, reports
 * "'name': reason" against argument @argoff and returns NULL.
 */
static struct sink *sink_open(struct lf_parser *p, int argoff, const char *name)
{
	enum sink_kind kind = SINK_FILE;
	if (strcmp(name, "/dev/stdout") == 0) {
		kind = SINK_STDOUT;
	} else if (strcmp(name, "/dev/stderr") == 0) {
		kind = SINK_STDERR;
	}

	int fd = -1;
	struct stat st = {0};
	if (kind == SINK_FILE) {
		/* Truncated below only if no open sink is the same file already. */
		fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0 || fstat(fd, &st) != 0) {
			int err = errno;
			if (fd >= 0) {
				close(fd);
			}
			char *q = lf_diag_quoted(name);
			lf_parse_error(p, argoff, "%s: %s", q ? q : name, strerror(err));
			free(q);
			return NULL;
		}
	}

	for (struct sink *s = sinks; s; s = s->next) {
		if (s->kind == kind && !s->closed &&
		    (kind != SINK_FILE || (s->dev == st.st_dev && s->ino == st.st_ino))) {
			if (fd >= 0) {
				close(fd);
			}
			s->refs++;
			s->active++;
			return s;
		}
	}

	if (kind == SINK_FILE && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		int err = errno;
		close(fd);
		char *q = lf_diag_quoted(name);
		lf_parse_error(p, argoff, "%s: %s", q ? q : name, strerror(err));
		free(q);
		return NULL;
	}
	struct sink *s = calloc(1, sizeof(*s));
	if (!s || (kind != SINK_STDOUT && lf_out_init(&s->out, kind == SINK_FILE ? fd : STDERR_FILENO) != 0)) {
		lf_parse_error(p, argoff, "%s", strerror(ENOMEM));
		free(s);
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	s->kind = kind;
	s->name = name;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->refs = 1;
	s->active = 1;
	s->tty = isatty(kind == SINK_FILE ? fd : kind == SINK_STDOUT ? STDOUT_FILENO : STDERR_FILENO);
	s->next = sinks;
	sinks = s;
	return s;
}

/*
 * Report a failure to write to @s: "'name': reason", with GNU's names for the
 * standard streams; the exit status becomes 1.
 */
static void sink_report(const struct sink *s, struct lf_eval *ev, int err)
{
	lf_out_flush(ev->out);
	fprintf(stderr, "%s: ", lf_progname);
	if (s->kind == SINK_FILE) {
		lf_diag_quote(stderr, s->name, strlen(s->name));
	} else {
		fputs(s->kind == SINK_STDOUT ? "'standard output'" : "'standard error'", stderr);
	}
	fprintf(stderr, ": %s\n", strerror(err));
	ev->status = 1;
}

/*
 * One user of a sink is done with its walk: flush, and close when it was the
 * last (several lf.find expressions may share one file); report the first
 * write error.
 */
static void sink_finish(struct sink *s, struct lf_eval *ev)
{
	if (s->closed) {
		return;
	}
	if (--s->active > 0) {
		if (s->kind != SINK_STDOUT) {
			lf_out_flush(&s->out); /* an error is kept and reported by the last */
		}
		return;
	}
	s->closed = true;
	if (s->kind == SINK_STDOUT) {
		return; /* main flushes and checks standard output */
	}
	int fd = s->out.fd;
	lf_out_close(&s->out);
	int err = s->out.err;
	if (s->kind == SINK_FILE && close(fd) != 0 && !err) {
		err = errno;
	}
	if (err) {
		sink_report(s, ev, err);
	}
}

static void sink_release(struct sink *s)
{
	if (--s->refs > 0) {
		return;
	}
	if (!s->closed && s->kind != SINK_STDOUT) {
		/* The walk was abandoned: flush what we have, quietly. */
		int fd = s->out.fd;
		lf_out_close(&s->out);
		if (s->kind == SINK_FILE) {
			close(fd);
		}
	}
	for (struct sink **pp = &sinks; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	free(s);
}

/* The writer an action uses for the current entry. */
static struct lf_out *sink_begin(struct sink *s, struct lf_eval *ev)
{
	if (s->kind == SINK_STDOUT) {
		return ev->out;
	}
	if (s->kind == SINK_STDERR) {
		lf_out_flush(ev->out); /* keep the order of the two streams */
	}
	return &s->out;
}

static void sink_end(struct sink *s)
{
	if (s->kind == SINK_STDERR) {
		lf_out_flush(&s->out);
	}
}

/* ---- names and small helpers -------------------------------------------- */

/*
 * GNU's qmark_chars(), applied to names written to a terminal: a byte (or a
 * multibyte character) that cannot be displayed becomes '?'.
 * @return the new length (a multibyte character shrinks to one '?')
 */
static size_t qmark(char *buf, size_t len)
{
	if (MB_CUR_MAX == 1) {
		for (size_t i = 0; i < len; i++) {
			if (!isprint((unsigned char)buf[i])) {
				buf[i] = '?';
			}
		}
		return len;
	}
	const char *p = buf, *end = buf + len;
	char *q = buf;
	while (p < end) {
		mbstate_t mbs;
		memset(&mbs, 0, sizeof(mbs));
		do {
			wchar_t wc;
			size_t n = mbrtowc(&wc, p, (size_t)(end - p), &mbs);
			if (n == (size_t)-1) {
				p++;
				*q++ = '?';
				break;
			}
			if (n == (size_t)-2) {
				p = end;
				*q++ = '?';
				break;
			}
			if (n == 0) {
				n = 1;
			}
			if (wcwidth(wc) >= 0) {
				memmove(q, p, n);
				q += n;
			} else {
				*q++ = '?';
			}
			p += n;
		} while (!mbsinit(&mbs) && p < end);
	}
	return (size_t)(q - buf);
}

/* gnulib's strmode(): "drwxr-xr-x " (eleven characters and a NUL). */
static void mode_string(uint32_t mode, char str[12])
{
	char t = '?';
	switch (mode & S_IFMT) {
	case S_IFREG: t = '-'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	}
	str[0] = t;
	str[1] = mode & S_IRUSR ? 'r' : '-';
	str[2] = mode & S_IWUSR ? 'w' : '-';
	str[3] = mode & S_ISUID ? (mode & S_IXUSR ? 's' : 'S') : (mode & S_IXUSR ? 'x' : '-');
	str[4] = mode & S_IRGRP ? 'r' : '-';
	str[5] = mode & S_IWGRP ? 'w' : '-';
	str[6] = mode & S_ISGID ? (mode & S_IXGRP ? 's' : 'S') : (mode & S_IXGRP ? 'x' : '-');
	str[7] = mode & S_IROTH ? 'r' : '-';
	str[8] = mode & S_IWOTH ? 'w' : '-';
	str[9] = mode & S_ISVTX ? (mode & S_IXOTH ? 't' : 'T') : (mode & S_IXOTH ? 'x' : '-');
	str[10] = ' ';
	str[11] = '\0';
}

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

/* User and group names, looked up once per id (misses are cached too). */
struct id_name {
	uint32_t id;
	char *name; /* NULL: the id has no name */
};

static struct id_name *id_cache[2];
static size_t id_count[2], id_cap[2];

static const char *id_lookup(bool group, uint32_t id)
{
	int k = group;
	for (size_t i = 0; i < id_count[k]; i++) {
		if (id_cache[k][i].id == id) {
			return id_cache[k][i].name;
		}
	}
	const char *name = NULL;
	if (group) {
		struct group *g = getgrgid(id);
		name = g ? g->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid(id);
		name = pw ? pw->pw_name : NULL;
	}
	if (id_count[k] == id_cap[k]) {
		size_t cap = id_cap[k] ? 2 * id_cap[k] : 16;
		struct id_name *c = realloc(id_cache[k], cap * sizeof(*c));
		if (!c) {
			return name; /* valid until the next lookup, which is enough */
		}
		id_cache[k] = c;
		id_cap[k] = cap;
	}
	char *copy = name ? strdup(name) : NULL;
	if (name && !copy) {
		return name;
	}
	id_cache[k][id_count[k]].id = id;
	id_cache[k][id_count[k]].name = copy;
	id_count[k]++;
	return copy;
}

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

/* The file system type of a device, from the mount table (GNU's %F). */
struct mount_type {
	dev_t dev;
	char *type;
};

static struct mount_type *mounts;
static size_t nmounts;
static bool mounts_read;

/* Undo the octal escapes of /proc/self/mountinfo (\040 for a space). */
static void unescape_octal(char *s)
{
	char *d = s;
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static void read_mounts(void)
{
	mounts_read = true;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	if (!fp) {
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, fp) > 0) {
		unsigned maj, min;
		char *sep = strstr(line, " - ");
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2 || !sep) {
			continue;
		}
		char *type = sep + 3;
		type[strcspn(type, " \n")] = '\0';
		unescape_octal(type);
		if (strcmp(type, "ignore") == 0) {
			continue;
		}
		struct mount_type *m = realloc(mounts, (nmounts + 1) * sizeof(*m));
		char *copy = strdup(type);
		if (!m || !copy) {
			free(copy);
			if (m) {
				mounts = m;
			}
			break;
		}
		mounts = m;
		mounts[nmounts].dev = makedev(maj, min);
		mounts[nmounts].type = copy;
		nmounts++;
	}
	free(line);
	fclose(fp);
}

static const char *fs_type(uint64_t dev)
{
	if (!mounts_read) {
		read_mounts();
	}
	/* The last entry wins, as in GNU: / may be listed more than once. */
	const char *type = "unknown";
	for (size_t i = 0; i < nmounts; i++) {
		if (mounts[i].dev == dev) {
			type = mounts[i].type;
		}
	}
	return type;
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

/* readlinkat into a malloc'd string; NULL with errno set. */
static char *read_link(const struct lf_entry *e)
{
	size_t size = 128;
	for (;;) {
		char *buf = malloc(size);
		if (!buf) {
			return NULL;
		}
		ssize_t n = readlinkat(e->at_fd, e->at_name, buf, size);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		size *= 2;
	}
}

/* ---- dates -------------------------------------------------------------- */

static const char *const weekdays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
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

struct action {
	struct sink *sink;
	bool finished; /* its walk is over: the sink no longer waits for it */
	struct segment *segs;
	size_t nsegs;
	bool need_stat; /* a directive reads the walk's stat data */
	bool target_type; /* %Y */
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

static int add_segment(struct action *a, enum seg_kind kind, const char *start, size_t len, char conv, char aux,
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
		if (conv == 'Y') {
			a->target_type = true;
		}
	}
	return 0;
}

/*
 * Compile @format (argument @argoff of the primary) as GNU's insert_fprintf
 * does, with its warnings.  @return 0, or -1 after reporting an error.
 */
static int compile_format(struct lf_parser *p, int argoff, const char *format, struct action *a)
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
				lf_diag_warn("escape `\\' followed by nothing at all");
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
					lf_diag_warn("unrecognized escape `\\%c'", pos[1]);
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
					lf_diag_warn("format directive `%%%c' should be followed by another character",
						     *pos);
				} else {
					lf_diag_warn("unrecognized format directive `%%%c'", *pos);
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
	const struct sink *sink;
};

/* printf one value through a directive's spec, as GNU's checked_fprintf. */
static void put_spec(struct pctx *c, const char *spec, ...)
{
	char small[256];
	va_list ap, ap2;
	va_start(ap, spec);
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof(small), spec, ap);
	va_end(ap);
	if (n < 0) {
		sink_report(c->sink, c->ev, errno); /* a width past INT_MAX: EOVERFLOW */
	} else if ((size_t)n < sizeof(small)) {
		lf_out_write(c->o, small, (size_t)n);
	} else {
		char *big = malloc((size_t)n + 1);
		if (big) {
			vsnprintf(big, (size_t)n + 1, spec, ap2);
			lf_out_write(c->o, big, (size_t)n);
			free(big);
		} else {
			sink_report(c->sink, c->ev, ENOMEM);
		}
	}
	va_end(ap2);
}

/*
 * A string directive: @len bytes of @s through @spec.  @names marks the
 * directives GNU passes through print_quoted (names shown with '?' on a
 * terminal).
 */
static void put_str(struct pctx *c, const char *spec, const char *s, size_t len, bool names)
{
	bool plain = spec[1] == 's';
	if (plain && !(names && c->sink->tty)) {
		lf_out_write(c->o, s, len);
		return;
	}
	char small[512];
	char *copy = len < sizeof(small) ? small : malloc(len + 1);
	if (!copy) {
		sink_report(c->sink, c->ev, ENOMEM);
		return;
	}
	memcpy(copy, s, len);
	if (names && c->sink->tty) {
		len = qmark(copy, len);
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

/* The root the entry was found under, as given on the command line. */
static const char *entry_root(const struct pctx *c)
{
	const struct lf_cmdline *cmd = c->ev->cmd;
	if (cmd && c->e->root < cmd->nroots) {
		return cmd->roots[c->e->root];
	}
	return c->e->path; /* not reached from the command line */
}

/* %f: gnulib's base_name(): the last component, one trailing slash kept. */
static void put_basename(struct pctx *c, const char *spec)
{
	const char *path = c->e->path;
	if (c->e->depth > 0) {
		put_cstr(c, spec, path + c->e->nameoff, true);
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
		put_str(c, spec, path, n, true);
		return;
	}
	size_t n = start;
	while (n < len && path[n] != '/') {
		n++;
	}
	if (n < len) {
		n++; /* one trailing slash */
	}
	put_str(c, spec, path + start, n - start, true);
}

/* %h: GNU's own cut at the last slash, with its handling of "/" and "x/". */
static void put_dirname(struct pctx *c, const char *spec)
{
	const char *path = c->e->path;
	size_t len = c->e->pathlen;
	/* Trailing slashes go, unless only one character precedes them. */
	size_t s = len;
	while (s > 0 && path[s - 1] == '/') {
		s--;
	}
	size_t end = s > 1 && s < len ? s : len;
	size_t cut = end;
	while (cut > 0 && path[cut - 1] != '/') {
		cut--;
	}
	if (cut == 0) {
		put_cstr(c, spec, ".", true);
	} else {
		put_str(c, spec, path, cut - 1, true);
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
		lf_out_flush(c->ev->out);
		lf_diag_path(e->path, e->pathlen, err); /* GNU leaves the status alone */
	}
}

/* %l: the target of a symbolic link, empty for anything else. */
static void put_link(struct pctx *c, const char *spec)
{
	char *target = NULL;
	if (c->e->type == LF_LNK) {
		target = read_link(c->e);
		if (!target) {
			int err = errno;
			lf_out_flush(c->ev->out);
			lf_diag_path(c->e->path, c->e->pathlen, err);
			c->ev->status = 1;
		}
	}
	put_cstr(c, spec, target ? target : "", true);
	free(target);
}

static void put_context(struct pctx *c, const char *spec)
{
	char *ctx = file_context(c->e);
	if (!ctx) {
		int err = errno;
		put_cstr(c, spec, "", false);
		lf_out_flush(c->ev->out);
		fprintf(stderr, "%s: getfilecon failed: ", lf_progname);
		lf_diag_quote(stderr, c->e->path, c->e->pathlen);
		fprintf(stderr, ": %s\n", strerror(err));
		c->ev->status = 1;
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
	case 'F': put_cstr(c, spec, fs_type(st->dev), true); break;
	case 'g': {
		const char *name = id_lookup(true, st->gid);
		if (name) {
			put_cstr(c, spec, name, false);
		} else {
			put_u64(c, spec, st->gid);
		}
		break;
	}
	case 'G': put_u64(c, spec, st->gid); break;
	case 'h': put_dirname(c, spec); break;
	case 'H': put_cstr(c, spec, entry_root(c), false); break;
	case 'i': put_u64(c, spec, st->ino); break;
	case 'k': put_u64(c, spec, ((uint64_t)st->blocks + 1) / 2); break;
	case 'l': put_link(c, spec); break;
	case 'm': put_spec(c, spec, (unsigned)(st->mode & 07777)); break;
	case 'M': {
		char mode[12];
		mode_string(st->mode, mode);
		mode[10] = '\0';
		put_cstr(c, spec, mode, false);
		break;
	}
	case 'n': put_u64(c, spec, st->nlink); break;
	case 'p': put_str(c, spec, e->path, e->pathlen, true); break;
	case 'P': {
		const char *rest = "";
		if (e->depth > 0) {
			rest = e->path + strlen(entry_root(c));
			if (*rest == '/') {
				rest++;
			}
		}
		put_cstr(c, spec, rest, true);
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
		const char *name = id_lookup(false, st->uid);
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
	int err = errno;
	lf_out_flush(ev->out);
	lf_diag_path(e->path, e->pathlen, err);
	ev->status = 1;
	return false;
}

static bool eval_printf(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct pctx c = {.ev = ev, .e = ev->entry, .sink = a->sink};
	if (a->need_stat && !(c.st = action_stat(ev))) {
		return false;
	}
	if (a->target_type && !target_type_ok(ev)) {
		return false;
	}
	locale_t old = enter_locale();
	c.o = sink_begin(a->sink, ev);
	for (size_t i = 0; i < a->nsegs; i++) {
		put_segment(&c, &a->segs[i]);
	}
	sink_end(a->sink);
	leave_locale(old);
	return true;
}

/* ---- -ls ------------------------------------------------------------------ */

/*
 * Column widths, which only grow, shared by every -ls and -fls of the run as
 * in GNU's listfile.c (its static variables).
 */
static int w_inode = 9, w_blocks = 6, w_nlink = 3, w_owner = 8, w_group = 8, w_major = 3, w_minor = 3,
	   w_size = 8;

/* printf to a writer; @return the bytes written, as fprintf. */
static int outf(struct lf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int outf(struct lf_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(small)) {
		lf_out_write(o, small, (size_t)n);
	} else if (n >= 0) {
		char *big = malloc((size_t)n + 1);
		if (big) {
			vsnprintf(big, (size_t)n + 1, fmt, ap2);
			lf_out_write(o, big, (size_t)n);
			free(big);
		}
	}
	va_end(ap2);
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
	struct lf_entry *e = ev->entry;
	char mode[12];
	mode_string(st->mode, mode);

	widen(&w_inode, outf(o, "%*" PRIu64, w_inode, st->ino));
	lf_out_putc(o, ' ');
	uint64_t blocks = (uint64_t)st->blocks;
	if (ls_block_size == 1024) {
		blocks = (blocks + 1) / 2;
	}
	widen(&w_blocks, outf(o, "%*" PRIu64, w_blocks, blocks));
	lf_out_putc(o, ' ');
	lf_out_write(o, mode, 11);
	widen(&w_nlink, outf(o, "%*" PRIu64, w_nlink, st->nlink));
	lf_out_putc(o, ' ');

	const char *user = id_lookup(false, st->uid);
	if (user) {
		widen(&w_owner, name_width(user));
		outf(o, "%-*s ", w_owner, user);
	} else {
		/* GNU counts the separating space into the width here. */
		widen(&w_owner, outf(o, "%-8lu ", (unsigned long)st->uid));
	}
	const char *group = id_lookup(true, st->gid);
	if (group) {
		widen(&w_group, name_width(group));
		outf(o, "%-*s ", w_group, group);
	} else {
		widen(&w_group, outf(o, "%-*lu", w_group, (unsigned long)st->gid));
		lf_out_putc(o, ' ');
	}

	if (S_ISCHR(st->mode) || S_ISBLK(st->mode)) {
		widen(&w_major, outf(o, "%*lu", w_major, (unsigned long)major(st->rdev)));
		lf_out_write(o, ", ", 2);
		widen(&w_minor, outf(o, "%*lu", w_minor, (unsigned long)minor(st->rdev)));
	} else {
		widen(&w_size, outf(o, "%*" PRIu64, w_size, (uint64_t)st->size));
	}
	lf_out_putc(o, ' ');

	struct tm tm;
	time_t mtime = st->mtime.tv_sec;
	if (localtime_r(&mtime, &tm)) {
		/* The year for files older than about six months or in the future. */
		bool recent = ls_now - 6 * 30 * 24 * 60 * 60 <= mtime && mtime <= ls_now + 60 * 60;
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

	ls_name(o, e->path, e->pathlen);
	if (S_ISLNK(st->mode)) {
		char *target = read_link(e);
		if (target) {
			lf_out_write(o, " -> ", 4);
			ls_name(o, target, strlen(target));
			free(target);
		} else {
			/* GNU names the file unquoted here and keeps the status. */
			int err = errno;
			lf_out_flush(ev->out);
			lf_diag("%s: %s", e->path, strerror(err));
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
	locale_t old = enter_locale();
	list_file(sink_begin(a->sink, ev), ev, st);
	sink_end(a->sink);
	leave_locale(old);
	return true;
}

void lf_out_write_name_tty(struct lf_out *o, const char *name, size_t len)
{
	locale_t old = enter_locale();
	char *copy = malloc(len + 1);
	if (copy) {
		memcpy(copy, name, len);
		lf_out_write(o, copy, qmark(copy, len));
		free(copy);
	} else {
		lf_out_write(o, name, len);
	}
	leave_locale(old);
}

/* ---- -fprint, -fprint0 ------------------------------------------------------ */

static bool eval_fprint(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct lf_entry *e = ev->entry;
	struct lf_out *o = sink_begin(a->sink, ev);
	if (a->sink->tty) {
		locale_t old = enter_locale();
		char *copy = malloc(e->pathlen + 1);
		if (copy) {
			memcpy(copy, e->path, e->pathlen);
			lf_out_write(o, copy, qmark(copy, e->pathlen));
			free(copy);
		} else {
			lf_out_write(o, e->path, e->pathlen);
		}
		leave_locale(old);
	} else {
		lf_out_write(o, e->path, e->pathlen);
	}
	lf_out_putc(o, '\n');
	sink_end(a->sink);
	return true;
}

static bool eval_fprint0(const struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	struct lf_out *o = sink_begin(a->sink, ev);
	lf_out_write(o, ev->entry->path, ev->entry->pathlen + 1);
	sink_end(a->sink);
	return true;
}

/* ---- parsing ---------------------------------------------------------------- */

static void action_free(void *data)
{
	struct action *a = data;
	if (!a) {
		return;
	}
	for (size_t i = 0; i < a->nsegs; i++) {
		free(a->segs[i].text);
	}
	free(a->segs);
	if (a->sink) {
		if (!a->finished) {
			a->sink->active--; /* abandoned: the others need not wait */
		}
		sink_release(a->sink);
	}
	free(a);
}

static void action_finish(struct lf_expr *x, struct lf_eval *ev)
{
	struct action *a = x->data;
	if (!a->finished) {
		a->finished = true;
		sink_finish(a->sink, ev);
	}
}

/*
 * The node of an output action writing to @file (argument 1; NULL for
 * standard output), with @format (argument @format_arg) compiled if given.
 */
static struct lf_expr *output_node(struct lf_parser *p, const struct lf_primary *prim, const char *file,
				   const char *format, int format_arg)
{
	init_settings();
	struct action *a = calloc(1, sizeof(*a));
	if (!a) {
		lf_parse_error(p, 0, "%s", strerror(ENOMEM));
		return NULL;
	}
	/* As GNU: the file is created before the format is looked at. */
	a->sink = sink_open(p, 1, file ? file : "/dev/stdout");
	if (!a->sink || (format && compile_format(p, format_arg, format, a) != 0)) {
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
		x->needs_stat = a->need_stat;
		x->stats_every = a->need_stat; /* then it stats before anything else */
		for (size_t i = 0; i < a->nsegs; i++) {
			if (a->segs[i].kind == SEG_FORMAT && a->segs[i].conv == 'Y') {
				x->needs_stat = true;
			}
		}
	}
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
		lf_parse_error(p, 0, "missing argument to `%s'", prim->name);
		return NULL;
	}
	if (!args[1]) {
		lf_parse_error(p, 1, "invalid argument `%s' to `%s'", args[0], prim->name);
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

const struct lf_primary lf_prims_output[] = {
	{"-fls", LF_PRIM_ACTION, 1, parse_fprint, eval_ls, LF_STAT_EVERY},
	{"-fprint", LF_PRIM_ACTION, 1, parse_fprint, eval_fprint, false},
	{"-fprint0", LF_PRIM_ACTION, 1, parse_fprint, eval_fprint0, false},
	{"-fprintf", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_fprintf, eval_printf, false},
	{"-ls", LF_PRIM_ACTION, 0, parse_ls, eval_ls, LF_STAT_EVERY},
	{"-printf", LF_PRIM_ACTION, 1, parse_printf, eval_printf, false},
	{NULL, 0, 0, NULL, NULL, false},
};
