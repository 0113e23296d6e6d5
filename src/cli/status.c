/*
 * status.c: the status line (status.h): drawing, terminal size, signals,
 * -status, and the luafind.status module of the scripts.
 *
 * The escape sequences are bfs 4's (src/bar.c): the line lives on the last
 * row, outside a scrolling region set with DECSTBM, and each update is one
 * write(2) that saves the cursor, draws the row and restores the cursor, so
 * that what the program prints goes on scrolling above it undisturbed.
 * The walk pays nothing per entry but a countdown: the run calls back every
 * N entries, N tuned so that the clock (clock_gettime, the vDSO: no system
 * call) is read every few tens of milliseconds, and the line is redrawn
 * when a tenth of a second has passed.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "status.h"

#include "primary.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#ifdef LUAFIND_HAVE_LUA
#include <lauxlib.h>
#include <lua.h>
#endif

/*
 * The signals that end the program, after which the line must be gone
 * (SIGPIPE: `luafind -status / | head`).
 */
static const int exit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define NEXIT (sizeof(exit_signals) / sizeof(exit_signals[0]))

/* The one status line of the process (see status.h: the executable's own). */
static struct {
	volatile sig_atomic_t open;  /* lf_status_open() .. close */
	volatile sig_atomic_t shown; /* the scrolling region is set */
	volatile sig_atomic_t cols, rows;
	int env_cols, env_rows;      /* $COLUMNS and $LINES, when TIOCGWINSZ fails */
	double opened, drawn;        /* seconds (CLOCK_MONOTONIC); drawn 0: never */
	double delay;                /* nothing is drawn before opened + delay */
	struct sigaction old_exit[NEXIT], old_winch;
	bool hooked[NEXIT], hooked_winch, atexit_set;
	char *buf;
	size_t cap;
	/* -status */
	bool wanted;          /* -status was given */
	double tick;          /* the previous progress call */
} bar;

/* The shortest interval between two drawings, in seconds. */
#define REDRAW 0.1

/* Below this many rows there is no room for a line of its own (bfs's 3). */
#define MIN_ROWS 3

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* write(2) all of @s, as signal handlers may (async-signal-safe). */
static void put(const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(STDERR_FILENO, s, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return;
		}
		s += n;
		len -= (size_t)n;
	}
}

static void puts_safe(const char *s)
{
	put(s, strlen(s));
}

/* The terminal's size: TIOCGWINSZ, else the environment's (async-signal-safe). */
static void read_size(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
		bar.cols = ws.ws_col;
		bar.rows = ws.ws_row;
	} else {
		bar.cols = bar.env_cols;
		bar.rows = bar.env_rows;
	}
}

/* The whole screen scrolls again, and the line is erased. */
static void reset_region(void)
{
	puts_safe("\0337"   /* DECSC: save the cursor */
		  "\033[r"  /* DECSTBM: the whole screen scrolls */
		  "\0338"   /* DECRC: restore the cursor */
		  "\033[J"); /* ED: erase from the cursor down: the line */
	bar.shown = 0;
}

/* Decimal digits of @n at @p (async-signal-safe); returns the end. */
static char *put_uint(char *p, unsigned n)
{
	char tmp[16];
	size_t i = 0;
	do {
		tmp[i++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (i) {
		*p++ = tmp[--i];
	}
	return p;
}

/*
 * Keep the last row out of the scrolling region, making room for it with
 * a line feed when the cursor is there (async-signal-safe: SIGWINCH).
 */
static void set_region(void)
{
	if (bar.rows < MIN_ROWS) {
		if (bar.shown) {
			reset_region();
		}
		return;
	}
	char seq[64];
	char *p = seq;
	static const char prefix[] = "\033D"   /* IND: line feed, scrolling if at the bottom */
				     "\033[1A" /* CUU: back up */
				     "\0337"   /* DECSC */
				     "\033[1;"; /* DECSTBM: rows 1 to rows - 1 */
	memcpy(p, prefix, sizeof(prefix) - 1);
	p += sizeof(prefix) - 1;
	p = put_uint(p, (unsigned)bar.rows - 1);
	static const char suffix[] = "r\0338\033[J"; /* DECRC, ED */
	memcpy(p, suffix, sizeof(suffix) - 1);
	p += sizeof(suffix) - 1;
	put(seq, (size_t)(p - seq));
	bar.shown = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	int saved = errno;
	read_size();
	if (bar.shown) {
		set_region();
	}
	errno = saved;
}

/* SIGINT and its kin: erase the line, then die of the signal as before. */
static void on_exit_signal(int sig)
{
	int saved = errno;
	if (bar.shown) {
		reset_region();
	}
	for (size_t i = 0; i < NEXIT; i++) {
		if (exit_signals[i] == sig && bar.hooked[i]) {
			sigaction(sig, &bar.old_exit[i], NULL);
			bar.hooked[i] = false;
		}
	}
	raise(sig); /* delivered when this handler returns */
	errno = saved;
}

static void status_close(void);

static void at_exit(void)
{
	status_close();
}

/*
 * Open the line, drawn no sooner than @delay seconds from now.
 * @return 0, or -1 if standard error is not a terminal (or a dumb one, which
 *         has no scrolling region) or a line is open
 */
static int status_open(double delay)
{
	const char *term = getenv("TERM");
	if (bar.open || !isatty(STDERR_FILENO) || !term || !*term || strcmp(term, "dumb") == 0) {
		return -1;
	}
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	bar.env_cols = c && atoi(c) > 0 ? atoi(c) : 80;
	bar.env_rows = l && atoi(l) > 0 ? atoi(l) : 24;
	read_size();
	bar.opened = now();
	bar.drawn = 0;
	bar.delay = delay;
	bar.shown = 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < NEXIT; i++) {
		sa.sa_handler = on_exit_signal;
		bar.hooked[i] = false;
		/* A signal ignored (nohup, a background job) stays ignored. */
		if (sigaction(exit_signals[i], NULL, &bar.old_exit[i]) == 0 && bar.old_exit[i].sa_handler != SIG_IGN &&
		    sigaction(exit_signals[i], &sa, NULL) == 0) {
			bar.hooked[i] = true;
		}
	}
	sa.sa_handler = on_winch;
	bar.hooked_winch = sigaction(SIGWINCH, &sa, &bar.old_winch) == 0;
	if (!bar.atexit_set) {
		bar.atexit_set = atexit(at_exit) == 0;
	}
	bar.open = 1;
	return 0;
}

static void status_close(void)
{
	if (!bar.open) {
		return;
	}
	if (bar.shown) {
		reset_region();
	}
	for (size_t i = 0; i < NEXIT; i++) {
		if (bar.hooked[i]) {
			sigaction(exit_signals[i], &bar.old_exit[i], NULL);
			bar.hooked[i] = false;
		}
	}
	if (bar.hooked_winch) {
		sigaction(SIGWINCH, &bar.old_winch, NULL);
		bar.hooked_winch = false;
	}
	bar.open = 0;
	free(bar.buf);
	bar.buf = NULL;
	bar.cap = 0;
}

/* Whether a drawing is due: the delay has passed, and a tenth of a second since the last. */
static bool status_due(double t)
{
	return bar.open && t - bar.opened >= bar.delay && t - bar.drawn >= REDRAW;
}

/* ---- the text ----------------------------------------------------------- */

/* Columns a code point takes on a terminal: 0 combining, 2 wide, else 1. */
static int cp_width(uint32_t c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f)) {
		return 0;
	}
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
	    (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd)) {
		return 2;
	}
	return 1;
}

/*
 * The character at @s (at most @len bytes): its length in bytes, and in
 * *@w its width; a control character or a byte that starts no valid UTF-8
 * sequence is one byte shown as '?' (*@q set).
 */
static size_t char_at(const unsigned char *s, size_t len, int *w, bool *q)
{
	*q = false;
	*w = 1;
	unsigned char b = s[0];
	if (b < 0x20 || b == 0x7f) {
		*q = true;
		return 1;
	}
	if (b < 0x80) {
		return 1;
	}
	size_t n = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
	if (n == 0 || n > len) {
		*q = true;
		return 1;
	}
	uint32_t c = b & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*q = true;
			return 1;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff) ||
	    (c >= 0x80 && c < 0xa0)) {
		*q = true;
		return 1;
	}
	*w = cp_width(c);
	return n;
}

/* The width of @s[0, len) in columns. */
static size_t text_width(const char *s, size_t len)
{
	size_t cols = 0;
	for (size_t i = 0; i < len;) {
		int w;
		bool q;
		i += char_at((const unsigned char *)s + i, len - i, &w, &q);
		cols += (size_t)w;
	}
	return cols;
}

struct line {
	char *p, *end;
	size_t cols; /* columns used so far */
};

/*
 * Append the characters of @s[from, len) to @ln while they fit in @max
 * columns in all; returns where it stopped.
 */
static size_t append(struct line *ln, const char *s, size_t from, size_t len, size_t max)
{
	size_t i = from;
	while (i < len) {
		int w;
		bool q;
		size_t n = char_at((const unsigned char *)s + i, len - i, &w, &q);
		if (ln->cols + (size_t)w > max || ln->end - ln->p < 4) {
			break;
		}
		if (q) {
			*ln->p++ = '?';
		} else {
			memcpy(ln->p, s + i, n);
			ln->p += n;
		}
		ln->cols += (size_t)w;
		i += n;
	}
	return i;
}

/*
 * Draw @text then @path (which may be NULL) on the line: the text is kept
 * whole as far as the width allows, the path shortened in the middle
 * ("/usr/share/...s/luafind/x.lua").  One write(2).
 */
static void status_draw(const char *text, const char *path)
{
	if (!bar.open) {
		return;
	}
	bar.drawn = now();
	if (bar.rows < MIN_ROWS || bar.cols < 4) {
		return;
	}
	size_t tlen = strlen(text), plen = path ? strlen(path) : 0;
	size_t need = 64 + 4 * ((size_t)bar.cols + 8);
	if (bar.cap < need) {
		char *buf = realloc(bar.buf, need);
		if (!buf) {
			return;
		}
		bar.buf = buf;
		bar.cap = need;
	}
	if (!bar.shown) {
		set_region();
	}
	size_t width = (size_t)bar.cols - 1; /* the last column would wrap on some terminals */
	int head = snprintf(bar.buf, bar.cap,
			    "\0337"      /* DECSC */
			    "\033[%d;1H" /* CUP: the last row */
			    "\033[K"     /* EL: erase it */
			    "\033[7m",   /* reverse video */
			    (int)bar.rows);
	struct line ln = {bar.buf + head, bar.buf + bar.cap - 16, 0};
	append(&ln, text, 0, tlen, width);
	if (path && ln.cols + 1 < width) {
		size_t room = width - ln.cols;
		size_t pw = text_width(path, plen);
		if (pw <= room) {
			append(&ln, path, 0, plen, width);
		} else if (room >= 5) {
			/* The head and the tail of the path around "...": more of the
			 * tail, where the name is. */
			size_t tail = (room - 3) - (room - 3) / 3;
			size_t start = ln.cols;
			append(&ln, path, 0, plen, start + (room - 3 - tail));
			memcpy(ln.p, "...", 3);
			ln.p += 3;
			ln.cols += 3;
			size_t skip = pw - tail, cols = 0, i = 0;
			while (i < plen && cols < skip) {
				int w;
				bool q;
				i += char_at((const unsigned char *)path + i, plen - i, &w, &q);
				cols += (size_t)w;
			}
			append(&ln, path, i, plen, width);
		}
	}
	static const char end[] = "\033[27m\0338"; /* reverse video off, DECRC */
	memcpy(ln.p, end, sizeof(end) - 1);
	ln.p += sizeof(end) - 1;
	put(bar.buf, (size_t)(ln.p - bar.buf));
}

/* ---- -status -------------------------------------------------------------- */

static struct lf_expr *parse_status(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	bar.wanted = true;
	return lf_parse_node(p, prim);
}

int lf_cli_status_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"-status", LF_PRIM_OPTION, 0, parse_status, lf_eval_true, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}

/*
 * Every progress_every entries: tune the count so that this runs every
 * 10 to 40 ms, and redraw when due.
 */
static void progress(struct lf_run *r, struct lf_walk *w, const struct lf_entry *e)
{
	double t = now();
	double gap = t - bar.tick;
	bar.tick = t;
	if (gap < 0.01 && r->progress_every < (1u << 20)) {
		r->progress_every *= 2;
	} else if (gap > 0.04 && r->progress_every > 1) {
		r->progress_every /= 2;
	}
	r->progress_left = r->progress_every;
	if (!status_due(t)) {
		return;
	}
	double elapsed = t - bar.opened;
	char text[160];
	snprintf(text, sizeof(text), "%" PRIu64 " entries, %.0f/s, %zu dirs left: ",
		 r->entries, elapsed > 0.001 ? (double)r->entries / elapsed : 0.0, lf_walk_dirs_left(w));
	/* The directory being read: its entries flash by too fast to read. */
	size_t len = e->depth > 0 ? e->nameoff : e->pathlen;
	char *path = strndup(e->path, len);
	status_draw(text, path ? path : "");
	free(path);
}

void lf_cli_status_begin(struct lf_run *r)
{
	if (!bar.wanted || status_open(0) != 0) {
		return;
	}
	bar.tick = bar.opened;
	r->progress = progress;
	r->progress_every = 1;
	r->progress_left = 1;
}

void lf_cli_status_end(struct lf_run *r)
{
	if (r->progress == progress) {
		r->progress = NULL;
		status_close();
	}
}

/* ---- luafind.status ------------------------------------------------------ */

#ifdef LUAFIND_HAVE_LUA

#define STATUS_LINE "luafind.StatusLine"

/* status.open([delay]): the line, or nil if stderr is no terminal or one is open. */
static int l_open(lua_State *L)
{
	double delay = luaL_optnumber(L, 1, 0);
	bool *owner = lua_newuserdatauv(L, sizeof(bool), 0);
	*owner = false;
	luaL_setmetatable(L, STATUS_LINE);
	if (status_open(delay) != 0) {
		luaL_pushfail(L);
		return 1;
	}
	*owner = true;
	return 1;
}

static bool *check_line(lua_State *L)
{
	return luaL_checkudata(L, 1, STATUS_LINE);
}

/* line:due(): whether a drawing would be shown now. */
static int l_due(lua_State *L)
{
	bool *owner = check_line(L);
	lua_pushboolean(L, *owner && status_due(now()));
	return 1;
}

/* line:draw(text [, path]): draw text, then path shortened in the middle. */
static int l_draw(lua_State *L)
{
	bool *owner = check_line(L);
	const char *text = luaL_checkstring(L, 2);
	const char *path = luaL_optstring(L, 3, NULL);
	if (*owner) {
		status_draw(text, path);
	}
	return 0;
}

/* line:close(): erase it (also __close and __gc). */
static int l_close(lua_State *L)
{
	bool *owner = check_line(L);
	if (*owner) {
		*owner = false;
		status_close();
	}
	return 0;
}

static int open_status(lua_State *L)
{
	static const luaL_Reg meth[] = {
		{"due", l_due},
		{"draw", l_draw},
		{"close", l_close},
		{NULL, NULL},
	};
	static const luaL_Reg metameth[] = {
		{"__close", l_close},
		{"__gc", l_close},
		{NULL, NULL},
	};
	if (luaL_newmetatable(L, STATUS_LINE)) {
		luaL_setfuncs(L, metameth, 0);
		luaL_newlib(L, meth);
		lua_setfield(L, -2, "__index");
	}
	lua_pop(L, 1);
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, l_open);
	lua_setfield(L, -2, "open");
	return 1;
}

void lf_cli_status_preload(struct lua_State *L)
{
	lua_getglobal(L, "package");
	if (lua_getfield(L, -1, "preload") == LUA_TTABLE) {
		lua_pushcfunction(L, open_status);
		lua_setfield(L, -2, "luafind.status");
	}
	lua_pop(L, 2);
}

#else

void lf_cli_status_preload(struct lua_State *L)
{
	(void)L;
}

#endif
