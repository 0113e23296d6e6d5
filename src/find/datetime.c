/*
 * datetime.c: GNU find's -newerXt dates (see datetime.h).
 *
 * An independent implementation of what gnulib's parse_datetime (as built
 * into findutils 4.9 and coreutils 9.1) accepts and computes.  gnulib's is a
 * Bison LALR(1) grammar whose conflicts resolve by shifting; here a
 * recursive-descent parser with one token of lookahead commits at the same
 * points, so "10:00 +1 hour" reads "+1" as a zone as GNU does, and
 * "5 Mar 10:00" fails as it does.  The arithmetic after the parse (mktime
 * with the parsed fields, weekday moves, calendar then clock offsets, zone
 * correction) follows the same steps in the same order, so DST and month-end
 * normalisation come out the same.
 *
 * Everything lives in one struct dt on the caller's stack: no globals.
 *
 * SPDX-License-Identifier: MIT
 */
#include "datetime.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum {
	BILLION = 1000000000,
	HOUR = 3600,
	WORD_MAX = 20, /* GNU keeps the first 19 bytes of a word */
};

/* Tokens: punctuation is its own byte (':', ',', '/', '@', 'T', ...). */
enum tok_type {
	TK_END = 0,
	TK_ERROR = 256, /* a number that overflows, an unknown word */
	TK_UNUM,	/* 123 */
	TK_SNUM,	/* -12, +12 */
	TK_UDEC,	/* 1.5 */
	TK_SDEC,	/* -1.5 */
	TK_AGO,		/* ago (-1), hence (+1) */
	TK_DST,
	TK_YEAR_UNIT,
	TK_MONTH_UNIT,
	TK_DAY_UNIT, /* value: days (week 7, fortnight 14) */
	TK_HOUR_UNIT,
	TK_MINUTE_UNIT,
	TK_SEC_UNIT,
	TK_DAY_SHIFT, /* now, today (0), yesterday (-1), tomorrow (1) */
	TK_DAY,	      /* weekday, 0 = Sunday */
	TK_DAYZONE,   /* a zone's summer name: value is its standard offset */
	TK_LOCAL_ZONE,
	TK_MERIDIAN,
	TK_MONTH,
	TK_ORDINAL,
	TK_ZONE,
};

enum { MER_AM, MER_PM, MER_24 };

struct tok {
	int type;
	intmax_t value; /* numbers (negative for '-'), table values */
	int digits;	/* of a number, sign excluded */
	struct timespec ts; /* decimals, tv_nsec >= 0 */
};

/* Names in arrays, not pointers: the tables need no relocation (.rodata). */
struct word {
	char name[10];
	int type;
	int value;
};

struct local_zone {
	const char *name; /* tm_zone; NULL ends the list */
	int isdst;
};

struct rel {
	intmax_t year, month, day, hour, minutes, seconds;
	int ns;
};

struct dt {
	const char *in;
	struct tok tok; /* the lookahead */
	struct local_zone local[3]; /* the local zone's abbreviations */

	intmax_t year;
	int year_digits; /* 0: this year, not read */
	intmax_t month, day, hour, minutes;
	struct timespec seconds;
	int meridian;
	intmax_t day_ordinal;
	int day_number;
	int local_isdst;
	int time_zone; /* seconds east of UTC */
	struct rel rel;

	bool timespec_seen, rels_seen;
	int dates_seen, days_seen, local_zones_seen, dsts_seen, times_seen, zones_seen;
};

static const struct word meridians[] = {
	{"AM", TK_MERIDIAN, MER_AM},
	{"A.M.", TK_MERIDIAN, MER_AM},
	{"PM", TK_MERIDIAN, MER_PM},
	{"P.M.", TK_MERIDIAN, MER_PM},
	{"", 0, 0},
};

/* Three letters (or three and a dot) abbreviate any of these. */
static const struct word months_days[] = {
	{"JANUARY", TK_MONTH, 1},
	{"FEBRUARY", TK_MONTH, 2},
	{"MARCH", TK_MONTH, 3},
	{"APRIL", TK_MONTH, 4},
	{"MAY", TK_MONTH, 5},
	{"JUNE", TK_MONTH, 6},
	{"JULY", TK_MONTH, 7},
	{"AUGUST", TK_MONTH, 8},
	{"SEPTEMBER", TK_MONTH, 9},
	{"SEPT", TK_MONTH, 9},
	{"OCTOBER", TK_MONTH, 10},
	{"NOVEMBER", TK_MONTH, 11},
	{"DECEMBER", TK_MONTH, 12},
	{"SUNDAY", TK_DAY, 0},
	{"MONDAY", TK_DAY, 1},
	{"TUESDAY", TK_DAY, 2},
	{"TUES", TK_DAY, 2},
	{"WEDNESDAY", TK_DAY, 3},
	{"WEDNES", TK_DAY, 3},
	{"THURSDAY", TK_DAY, 4},
	{"THUR", TK_DAY, 4},
	{"THURS", TK_DAY, 4},
	{"FRIDAY", TK_DAY, 5},
	{"SATURDAY", TK_DAY, 6},
	{"", 0, 0},
};

/* Also taken with a trailing S. */
static const struct word units[] = {
	{"YEAR", TK_YEAR_UNIT, 1},
	{"MONTH", TK_MONTH_UNIT, 1},
	{"FORTNIGHT", TK_DAY_UNIT, 14},
	{"WEEK", TK_DAY_UNIT, 7},
	{"DAY", TK_DAY_UNIT, 1},
	{"HOUR", TK_HOUR_UNIT, 1},
	{"MINUTE", TK_MINUTE_UNIT, 1},
	{"MIN", TK_MINUTE_UNIT, 1},
	{"SECOND", TK_SEC_UNIT, 1},
	{"SEC", TK_SEC_UNIT, 1},
	{"", 0, 0},
};

static const struct word relatives[] = {
	{"TOMORROW", TK_DAY_SHIFT, 1},
	{"YESTERDAY", TK_DAY_SHIFT, -1},
	{"TODAY", TK_DAY_SHIFT, 0},
	{"NOW", TK_DAY_SHIFT, 0},
	{"LAST", TK_ORDINAL, -1},
	{"THIS", TK_ORDINAL, 0},
	{"NEXT", TK_ORDINAL, 1},
	{"FIRST", TK_ORDINAL, 1},
	/* no SECOND: it is the unit */
	{"THIRD", TK_ORDINAL, 3},
	{"FOURTH", TK_ORDINAL, 4},
	{"FIFTH", TK_ORDINAL, 5},
	{"SIXTH", TK_ORDINAL, 6},
	{"SEVENTH", TK_ORDINAL, 7},
	{"EIGHTH", TK_ORDINAL, 8},
	{"NINTH", TK_ORDINAL, 9},
	{"TENTH", TK_ORDINAL, 10},
	{"ELEVENTH", TK_ORDINAL, 11},
	{"TWELFTH", TK_ORDINAL, 12},
	{"AGO", TK_AGO, -1},
	{"HENCE", TK_AGO, 1},
	{"", 0, 0},
};

/* Valid whatever the local zone, looked up before it. */
static const struct word universal_zones[] = {
	{"GMT", TK_ZONE, 0},
	{"UT", TK_ZONE, 0},
	{"UTC", TK_ZONE, 0},
	{"", 0, 0},
};

/* GNU's list of common abbreviations, after the local zone's own. */
static const struct word zones[] = {
	{"WET", TK_ZONE, 0},
	{"WEST", TK_DAYZONE, 0},
	{"BST", TK_DAYZONE, 0},
	{"ART", TK_ZONE, -3 * HOUR},
	{"BRT", TK_ZONE, -3 * HOUR},
	{"BRST", TK_DAYZONE, -3 * HOUR},
	{"NST", TK_ZONE, -(3 * HOUR + 30 * 60)},
	{"NDT", TK_DAYZONE, -(3 * HOUR + 30 * 60)},
	{"AST", TK_ZONE, -4 * HOUR},
	{"ADT", TK_DAYZONE, -4 * HOUR},
	{"CLT", TK_ZONE, -4 * HOUR},
	{"CLST", TK_DAYZONE, -4 * HOUR},
	{"EST", TK_ZONE, -5 * HOUR},
	{"EDT", TK_DAYZONE, -5 * HOUR},
	{"CST", TK_ZONE, -6 * HOUR},
	{"CDT", TK_DAYZONE, -6 * HOUR},
	{"MST", TK_ZONE, -7 * HOUR},
	{"MDT", TK_DAYZONE, -7 * HOUR},
	{"PST", TK_ZONE, -8 * HOUR},
	{"PDT", TK_DAYZONE, -8 * HOUR},
	{"AKST", TK_ZONE, -9 * HOUR},
	{"AKDT", TK_DAYZONE, -9 * HOUR},
	{"HST", TK_ZONE, -10 * HOUR},
	{"HAST", TK_ZONE, -10 * HOUR},
	{"HADT", TK_DAYZONE, -10 * HOUR},
	{"SST", TK_ZONE, -12 * HOUR},
	{"WAT", TK_ZONE, 1 * HOUR},
	{"CET", TK_ZONE, 1 * HOUR},
	{"CEST", TK_DAYZONE, 1 * HOUR},
	{"MET", TK_ZONE, 1 * HOUR},
	{"MEZ", TK_ZONE, 1 * HOUR},
	{"MEST", TK_DAYZONE, 1 * HOUR},
	{"MESZ", TK_DAYZONE, 1 * HOUR},
	{"EET", TK_ZONE, 2 * HOUR},
	{"EEST", TK_DAYZONE, 2 * HOUR},
	{"CAT", TK_ZONE, 2 * HOUR},
	{"SAST", TK_ZONE, 2 * HOUR},
	{"EAT", TK_ZONE, 3 * HOUR},
	{"MSK", TK_ZONE, 3 * HOUR},
	{"MSD", TK_DAYZONE, 3 * HOUR},
	{"IST", TK_ZONE, 5 * HOUR + 30 * 60},
	{"SGT", TK_ZONE, 8 * HOUR},
	{"KST", TK_ZONE, 9 * HOUR},
	{"JST", TK_ZONE, 9 * HOUR},
	{"GST", TK_ZONE, 10 * HOUR},
	{"NZST", TK_ZONE, 12 * HOUR},
	{"NZDT", TK_DAYZONE, 12 * HOUR},
	{"", 0, 0},
};

/*
 * Military zones, A to Z by letter: +1..+9 hours for A-I, +10..+12 for K-M,
 * -1..-12 for N-Y, 0 for Z.  J (local time) is unknown to the gnulib of
 * findutils 4.9; T is the ISO 8601 separator, a zone of its own in the
 * grammar (-7 hours).
 */
static int military(char c, struct tok *t)
{
	if (c == 'J') {
		return -1;
	}
	if (c == 'T') {
		t->type = 'T';
		return 0;
	}
	int h = c == 'Z' ? 0 : c <= 'I' ? c - 'A' + 1 : c <= 'M' ? c - 'K' + 10 : -(c - 'N' + 1);
	t->type = TK_ZONE;
	t->value = h * HOUR;
	return 0;
}

static bool find_word(const struct word *w, const char *name, struct tok *t)
{
	for (; w->name[0]; w++) {
		if (strcmp(w->name, name) == 0) {
			t->type = w->type;
			t->value = w->value;
			return true;
		}
	}
	return false;
}

static bool find_local(const struct dt *d, const char *name, struct tok *t)
{
	for (const struct local_zone *z = d->local; z->name; z++) {
		if (strcmp(z->name, name) == 0) {
			t->type = TK_LOCAL_ZONE;
			t->value = z->isdst;
			return true;
		}
	}
	return false;
}

static bool find_zone(const struct dt *d, const char *name, struct tok *t)
{
	return find_word(universal_zones, name, t) || find_local(d, name, t) ||
	       find_word(zones, name, t);
}

static bool is_alpha(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The word @w (upper case, at most WORD_MAX - 1 bytes, modified). */
static void lookup_word(const struct dt *d, char *w, struct tok *t)
{
	size_t len = strlen(w);
	t->type = TK_ERROR;
	if (find_word(meridians, w, t)) {
		return;
	}
	bool abbrev = len == 3 || (len == 4 && w[3] == '.');
	for (const struct word *m = months_days; m->name[0]; m++) {
		if ((abbrev ? strncmp(w, m->name, 3) : strcmp(w, m->name)) == 0) {
			t->type = m->type;
			t->value = m->value;
			return;
		}
	}
	if (find_zone(d, w, t)) {
		return;
	}
	if (strcmp(w, "DST") == 0) {
		t->type = TK_DST;
		return;
	}
	if (find_word(units, w, t)) {
		return;
	}
	if (w[len - 1] == 'S') {
		w[len - 1] = '\0';
		if (find_word(units, w, t)) {
			return;
		}
		w[len - 1] = 'S';
	}
	if (find_word(relatives, w, t)) {
		return;
	}
	if (len == 1) {
		if (military(w[0], t) != 0) {
			t->type = TK_ERROR;
		}
		return;
	}
	/* "e.s.t." is "EST" */
	char *q = w;
	bool dots = false;
	for (const char *p = w; *p; p++) {
		if (*p == '.') {
			dots = true;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	if (!dots || !find_zone(d, w, t)) {
		t->type = TK_ERROR;
	}
}

/* A number from d->in (a digit, or a sign then blanks then a digit). */
static void lex_number(struct dt *d, int sign)
{
	struct tok *t = &d->tok;
	const char *p = d->in;
	time_t v = 0;
	do {
		int digit = *p - '0';
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, sign < 0 ? -digit : digit, &v)) {
			t->type = TK_ERROR;
			return;
		}
		p++;
	} while (is_digit((unsigned char)*p));

	if ((*p == '.' || *p == ',') && is_digit((unsigned char)p[1])) {
		/* The fraction, to the nanosecond, toward minus infinity. */
		p++;
		long ns = 0;
		for (int i = 0; i < 9; i++) {
			ns *= 10;
			if (is_digit((unsigned char)*p)) {
				ns += *p++ - '0';
			}
		}
		if (sign < 0) {
			for (; is_digit((unsigned char)*p); p++) {
				if (*p != '0') {
					ns++;
					break;
				}
			}
		}
		while (is_digit((unsigned char)*p)) {
			p++;
		}
		if (sign < 0 && ns) {
			if (__builtin_sub_overflow(v, 1, &v)) {
				t->type = TK_ERROR;
				return;
			}
			ns = BILLION - ns;
		}
		t->type = sign ? TK_SDEC : TK_UDEC;
		t->ts.tv_sec = v;
		t->ts.tv_nsec = ns;
	} else {
		t->type = sign ? TK_SNUM : TK_UNUM;
		t->value = v;
		t->digits = (int)(p - d->in);
	}
	d->in = p;
}

/* The next token into d->tok. */
static void lex(struct dt *d)
{
	struct tok *t = &d->tok;
	memset(t, 0, sizeof(*t));
	for (;;) {
		while (is_space((unsigned char)*d->in)) {
			d->in++;
		}
		unsigned char c = (unsigned char)*d->in;
		if (is_digit(c) || c == '-' || c == '+') {
			int sign = 0;
			if (c != '+' && c != '-') {
				lex_number(d, 0);
				return;
			}
			/* A sign, blanks, digits; a sign before anything else is skipped. */
			sign = c == '-' ? -1 : 1;
			d->in++;
			while (is_space((unsigned char)*d->in)) {
				d->in++;
			}
			if (is_digit((unsigned char)*d->in)) {
				lex_number(d, sign);
				return;
			}
			continue;
		}
		if (is_alpha(c)) {
			char w[WORD_MAX];
			size_t n = 0;
			do {
				if (n < sizeof(w) - 1) {
					w[n++] = (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
				}
				c = (unsigned char)*++d->in;
			} while (is_alpha(c) || c == '.');
			w[n] = '\0';
			lookup_word(d, w, t);
			return;
		}
		if (c != '(') {
			t->type = c; /* TK_END at the NUL */
			if (c) {
				d->in++;
			}
			return;
		}
		/* A comment, nested parentheses included, skipped. */
		int depth = 0;
		do {
			c = (unsigned char)*d->in;
			if (!c) {
				t->type = TK_END;
				return;
			}
			d->in++;
			depth += c == '(' ? 1 : c == ')' ? -1 : 0;
		} while (depth);
	}
}

static bool is_unit(int type)
{
	return type == TK_YEAR_UNIT || type == TK_MONTH_UNIT || type == TK_DAY_UNIT ||
	       type == TK_HOUR_UNIT || type == TK_MINUTE_UNIT || type == TK_SEC_UNIT;
}

/* @n of the unit token @u into *r (zeroed first). */
static bool unit_times(const struct tok *u, intmax_t n, struct rel *r)
{
	memset(r, 0, sizeof(*r));
	switch (u->type) {
	case TK_YEAR_UNIT: r->year = n; return true;
	case TK_MONTH_UNIT: r->month = n; return true;
	case TK_DAY_UNIT: return !__builtin_mul_overflow(n, u->value, &r->day);
	case TK_HOUR_UNIT: r->hour = n; return true;
	case TK_MINUTE_UNIT: r->minutes = n; return true;
	default: r->seconds = n; return true;
	}
}

/* d->rel += factor * r (factor 1 or -1). */
static bool apply_rel(struct dt *d, const struct rel *r, int factor)
{
	struct rel *a = &d->rel;
	/* "|", not "||": every field is updated, whichever overflows. */
	int o;
	if (factor < 0) {
		o = (int)__builtin_sub_overflow(a->ns, r->ns, &a->ns) |
		    (int)__builtin_sub_overflow(a->seconds, r->seconds, &a->seconds) |
		    (int)__builtin_sub_overflow(a->minutes, r->minutes, &a->minutes) |
		    (int)__builtin_sub_overflow(a->hour, r->hour, &a->hour) |
		    (int)__builtin_sub_overflow(a->day, r->day, &a->day) |
		    (int)__builtin_sub_overflow(a->month, r->month, &a->month) |
		    (int)__builtin_sub_overflow(a->year, r->year, &a->year);
	} else {
		o = (int)__builtin_add_overflow(a->ns, r->ns, &a->ns) |
		    (int)__builtin_add_overflow(a->seconds, r->seconds, &a->seconds) |
		    (int)__builtin_add_overflow(a->minutes, r->minutes, &a->minutes) |
		    (int)__builtin_add_overflow(a->hour, r->hour, &a->hour) |
		    (int)__builtin_add_overflow(a->day, r->day, &a->day) |
		    (int)__builtin_add_overflow(a->month, r->month, &a->month) |
		    (int)__builtin_add_overflow(a->year, r->year, &a->year);
	}
	d->rels_seen = true;
	return !o;
}

/*
 * A relative item whose unit is d->tok, worth @n units and @ns nanoseconds;
 * then "ago" or "hence" if @ago allows them.
 */
static bool rel_unit(struct dt *d, intmax_t n, long ns, bool ago)
{
	struct rel r;
	if (!unit_times(&d->tok, n, &r)) {
		return false;
	}
	r.ns = (int)ns;
	lex(d);
	int factor = 1;
	if (ago && d->tok.type == TK_AGO) {
		factor = (int)d->tok.value;
		lex(d);
	}
	return apply_rel(d, &r, factor);
}

/* A zone "+HH", "+HHMM" (@mm < 0) or "+HH:MM" into d->time_zone. */
static bool zone_hhmm(struct dt *d, const struct tok *s, intmax_t mm)
{
	intmax_t v = s->value, minutes;
	if (s->digits <= 2 && mm < 0) {
		v *= 100;
	}
	if (mm < 0) {
		minutes = (v / 100) * 60 + v % 100;
	} else if (__builtin_mul_overflow(v, 60, &minutes) ||
		   (s->value < 0 ? __builtin_sub_overflow(minutes, mm, &minutes)
				 : __builtin_add_overflow(minutes, mm, &minutes))) {
		return false;
	}
	if (minutes < -24 * 60 || minutes > 24 * 60) {
		return false;
	}
	d->time_zone = (int)minutes * 60;
	return true;
}

/* After the signed number @s of a zone (d->tok is the next): ":MM" or not. */
static bool zone_offset(struct dt *d, const struct tok *s)
{
	intmax_t mm = -1;
	if (d->tok.type == ':') {
		lex(d);
		if (d->tok.type != TK_UNUM) {
			return false;
		}
		mm = d->tok.value;
		lex(d);
	}
	d->zones_seen++;
	return zone_hhmm(d, s, mm);
}

/* The zone of d->tok, a signed number, if there is one. */
static bool o_zone_offset(struct dt *d)
{
	if (d->tok.type != TK_SNUM) {
		return true;
	}
	struct tok s = d->tok;
	lex(d);
	return zone_offset(d, &s);
}

static void set_hhmmss(struct dt *d, intmax_t h, intmax_t m, struct timespec s, int meridian)
{
	d->hour = h;
	d->minutes = m;
	d->seconds = s;
	d->meridian = meridian;
}

/*
 * After "H:" (d->tok is past the colon): "M", "M:S[.F]", then a meridian
 * (unless @iso) or an optional numeric zone.
 */
static bool clock_time(struct dt *d, intmax_t h, bool iso)
{
	struct timespec s = {0, 0};
	if (d->tok.type != TK_UNUM) {
		return false;
	}
	intmax_t m = d->tok.value;
	lex(d);
	if (d->tok.type == ':') {
		lex(d);
		if (d->tok.type == TK_UNUM) {
			s.tv_sec = (time_t)d->tok.value;
		} else if (d->tok.type == TK_UDEC) {
			s = d->tok.ts;
		} else {
			return false;
		}
		lex(d);
	}
	if (d->tok.type == TK_MERIDIAN && !iso) {
		set_hhmmss(d, h, m, s, (int)d->tok.value);
		lex(d);
		return true;
	}
	set_hhmmss(d, h, m, s, MER_24);
	return o_zone_offset(d);
}

/* A string of digits alone: a year after a date, YYYYMMDD, HHMM or HH. */
static void digits_date_time(struct dt *d, const struct tok *n)
{
	if (d->dates_seen && !d->year_digits && !d->rels_seen && (d->times_seen || n->digits > 2)) {
		d->year = n->value;
		d->year_digits = n->digits;
	} else if (n->digits > 4) {
		d->dates_seen++;
		d->day = n->value % 100;
		d->month = (n->value / 100) % 100;
		d->year = n->value / 10000;
		d->year_digits = n->digits - 4;
	} else {
		d->times_seen++;
		const struct timespec zero = {0, 0};
		if (n->digits <= 2) {
			set_hhmmss(d, n->value, 0, zero, MER_24);
		} else {
			set_hhmmss(d, n->value / 100, n->value % 100, zero, MER_24);
		}
	}
}

/* An item that starts with the unsigned number @n (d->tok is the next). */
static bool item_number(struct dt *d, const struct tok *n)
{
	const struct timespec zero = {0, 0};
	struct tok a = d->tok;
	switch (a.type) {
	case TK_MERIDIAN:
		set_hhmmss(d, n->value, 0, zero, (int)a.value);
		d->times_seen++;
		lex(d);
		return true;
	case ':':
		lex(d);
		d->times_seen++;
		return clock_time(d, n->value, false);
	case TK_SNUM:
		lex(d);
		if (d->tok.type == TK_SNUM) { /* ISO 8601 YYYY-MM-DD */
			d->year = n->value;
			d->year_digits = n->digits;
			if (__builtin_sub_overflow(0, a.value, &d->month) ||
			    __builtin_sub_overflow(0, d->tok.value, &d->day)) {
				return false;
			}
			d->dates_seen++;
			lex(d);
			if (d->tok.type != 'T') {
				return true;
			}
			lex(d); /* ISO 8601 DATE T TIME: a clock time or "HH+ZZ" */
			d->times_seen++;
			if (d->tok.type != TK_UNUM) {
				return false;
			}
			intmax_t h = d->tok.value;
			lex(d);
			if (d->tok.type == ':') {
				lex(d);
				return clock_time(d, h, true);
			}
			set_hhmmss(d, h, 0, zero, MER_24);
			return d->tok.type == TK_SNUM && o_zone_offset(d);
		}
		if (is_unit(d->tok.type)) { /* YYYYMMDD +N unit */
			digits_date_time(d, n);
			return rel_unit(d, a.value, 0, false);
		}
		set_hhmmss(d, n->value, 0, zero, MER_24); /* HH+ZZ */
		d->times_seen++;
		return zone_offset(d, &a);
	case TK_DAY:
		d->day_ordinal = n->value;
		d->day_number = (int)a.value;
		d->days_seen++;
		lex(d);
		return true;
	case '/':
		lex(d);
		if (d->tok.type != TK_UNUM) {
			return false;
		}
		{
			struct tok b = d->tok;
			lex(d);
			if (d->tok.type != '/') {
				d->month = n->value;
				d->day = b.value;
			} else {
				lex(d);
				if (d->tok.type != TK_UNUM) {
					return false;
				}
				if (n->digits >= 4) { /* YYYY/MM/DD */
					d->year = n->value;
					d->year_digits = n->digits;
					d->month = b.value;
					d->day = d->tok.value;
				} else { /* MM/DD/YY[YY] */
					d->month = n->value;
					d->day = b.value;
					d->year = d->tok.value;
					d->year_digits = d->tok.digits;
				}
				lex(d);
			}
		}
		d->dates_seen++;
		return true;
	case TK_MONTH:
		d->day = n->value;
		d->month = a.value;
		d->dates_seen++;
		lex(d);
		if (d->tok.type == TK_SNUM) { /* 17-JUN-1992 */
			if (__builtin_sub_overflow(0, d->tok.value, &d->year)) {
				return false;
			}
			d->year_digits = d->tok.digits;
			lex(d);
		} else if (d->tok.type == TK_UNUM) { /* 5 Mar 2024 */
			d->year = d->tok.value;
			d->year_digits = d->tok.digits;
			lex(d);
		}
		return true;
	default:
		if (is_unit(a.type)) {
			return rel_unit(d, n->value, 0, true);
		}
		digits_date_time(d, n);
		return true;
	}
}

/* One item of the date; d->tok is its first token. */
static bool item(struct dt *d)
{
	struct tok t = d->tok;
	lex(d);
	switch (t.type) {
	case TK_UNUM:
		return item_number(d, &t);
	case TK_SNUM: /* -2 days */
		return is_unit(d->tok.type) && rel_unit(d, t.value, 0, true);
	case TK_UDEC:
	case TK_SDEC: /* 2.5 seconds */
		return d->tok.type == TK_SEC_UNIT && rel_unit(d, t.ts.tv_sec, t.ts.tv_nsec, true);
	case TK_YEAR_UNIT:
	case TK_MONTH_UNIT:
	case TK_DAY_UNIT:
	case TK_HOUR_UNIT:
	case TK_MINUTE_UNIT:
	case TK_SEC_UNIT: { /* week (7 days), fortnight ago */
		struct rel r;
		unit_times(&t, 1, &r);
		int factor = 1;
		if (d->tok.type == TK_AGO) {
			factor = (int)d->tok.value;
			lex(d);
		}
		return apply_rel(d, &r, factor);
	}
	case TK_ORDINAL: /* last monday, next week */
		if (d->tok.type == TK_DAY) {
			d->day_ordinal = t.value;
			d->day_number = (int)d->tok.value;
			d->days_seen++;
			lex(d);
			return true;
		}
		return is_unit(d->tok.type) && rel_unit(d, t.value, 0, true);
	case TK_DAY: /* monday, "Tue," */
		d->day_ordinal = 0;
		d->day_number = (int)t.value;
		d->days_seen++;
		if (d->tok.type == ',') {
			lex(d);
		}
		return true;
	case TK_MONTH: /* Mar 5, Mar 5, 2024, JUN-17-1992 */
		d->month = t.value;
		d->dates_seen++;
		if (d->tok.type == TK_SNUM) {
			if (__builtin_sub_overflow(0, d->tok.value, &d->day)) {
				return false;
			}
			lex(d);
			if (d->tok.type != TK_SNUM || __builtin_sub_overflow(0, d->tok.value, &d->year)) {
				return false;
			}
			d->year_digits = d->tok.digits;
			lex(d);
			return true;
		}
		if (d->tok.type != TK_UNUM) {
			return false;
		}
		d->day = d->tok.value;
		lex(d);
		if (d->tok.type == ',') {
			lex(d);
			if (d->tok.type != TK_UNUM) {
				return false;
			}
			d->year = d->tok.value;
			d->year_digits = d->tok.digits;
			lex(d);
		}
		return true;
	case TK_DAY_SHIFT: { /* now, today, yesterday, tomorrow */
		struct rel r = {.day = t.value};
		return apply_rel(d, &r, 1);
	}
	case TK_ZONE: /* UTC, UTC+2, UTC -3 hours, CET DST */
		d->zones_seen++;
		d->time_zone = (int)t.value;
		if (d->tok.type == TK_SNUM) {
			struct tok s = d->tok;
			lex(d);
			if (is_unit(d->tok.type)) {
				return rel_unit(d, s.value, 0, false);
			}
			intmax_t mm = -1;
			if (d->tok.type == ':') {
				lex(d);
				if (d->tok.type != TK_UNUM) {
					return false;
				}
				mm = d->tok.value;
				lex(d);
			}
			return zone_hhmm(d, &s, mm) &&
			       !__builtin_add_overflow(d->time_zone, (int)t.value, &d->time_zone);
		}
		if (d->tok.type == TK_DST) {
			d->time_zone = (int)t.value + HOUR;
			lex(d);
		}
		return true;
	case 'T': /* the military zone T (-7 hours) */
		d->zones_seen++;
		d->time_zone = -7 * HOUR;
		if (d->tok.type != TK_SNUM) {
			return true;
		}
		t = d->tok;
		lex(d);
		return is_unit(d->tok.type) && rel_unit(d, t.value, 0, false);
	case TK_DAYZONE: /* CEST */
		d->zones_seen++;
		d->time_zone = (int)t.value + HOUR;
		return true;
	case TK_LOCAL_ZONE: /* the local zone's names, with their DST flag */
		d->local_zones_seen++;
		d->local_isdst = (int)t.value;
		if (d->tok.type == TK_DST) {
			d->local_isdst = 1;
			d->dsts_seen++;
			lex(d);
		}
		return true;
	default:
		return false;
	}
}

/* The local zone's abbreviations: now's, and another DST flag's this year. */
static void local_zones(struct dt *d, const struct tm *now, time_t start)
{
	d->local[0] = (struct local_zone){now->tm_zone, now->tm_isdst};
	d->local[1].name = NULL;
	d->local[2].name = NULL;
	for (int quarter = 1; quarter <= 3; quarter++) {
		time_t probe;
		struct tm tm;
		if (__builtin_add_overflow(start, quarter * 90 * 24 * HOUR, &probe)) {
			break;
		}
		if (localtime_r(&probe, &tm) && tm.tm_zone && tm.tm_isdst != now->tm_isdst) {
			d->local[1] = (struct local_zone){tm.tm_zone, tm.tm_isdst};
			break;
		}
	}
	if (d->local[0].name && d->local[1].name && strcmp(d->local[0].name, d->local[1].name) == 0) {
		d->local[0].isdst = -1; /* one name for both: DST unknown */
		d->local[1].name = NULL;
	}
	if (!d->local[0].name) {
		d->local[0] = d->local[1];
		d->local[1].name = NULL;
	}
}

static int to_hour(intmax_t h, int meridian)
{
	switch (meridian) {
	case MER_AM: return h > 0 && h < 12 ? (int)h : h == 12 ? 0 : -1;
	case MER_PM: return h > 0 && h < 12 ? (int)h + 12 : h == 12 ? 12 : -1;
	default: return h >= 0 && h < 24 ? (int)h : -1;
	}
}

/*
 * Year @y of @digits digits as tm_year: 2 digits are 1969-2068, and a
 * negative year counts as positive (the '-' of "17-JUN-1992").
 */
static bool to_tm_year(intmax_t y, int digits, int *tm_year)
{
	if (y >= 0 && digits == 2) {
		y += y < 69 ? 2000 : 1900;
	}
	return y < 0 ? !__builtin_sub_overflow(-1900, y, tm_year) : !__builtin_sub_overflow(y, 1900, tm_year);
}

/* mktime() kept every field it was given (it fails by leaving tm_wday < 0). */
static bool mktime_ok(const struct tm *a, const struct tm *b)
{
	return b->tm_wday >= 0 && a->tm_sec == b->tm_sec && a->tm_min == b->tm_min &&
	       a->tm_hour == b->tm_hour && a->tm_mday == b->tm_mday && a->tm_mon == b->tm_mon &&
	       a->tm_year == b->tm_year;
}

/* The fields parsed into @d, made a time as GNU makes it. */
static int compute(struct dt *d, const struct tm *now, struct timespec *out)
{
	if (d->timespec_seen) {
		*out = d->seconds;
		return 0;
	}
	if (d->times_seen > 1 || d->dates_seen > 1 || d->days_seen > 1 || d->dsts_seen > 1 ||
	    d->local_zones_seen + d->zones_seen > 1) {
		return -1;
	}
	struct tm tm = {0};
	if (!to_tm_year(d->year, d->year_digits, &tm.tm_year) ||
	    __builtin_add_overflow(d->month, -1, &tm.tm_mon) ||
	    __builtin_add_overflow(d->day, 0, &tm.tm_mday)) {
		return -1;
	}
	if (d->times_seen || (d->rels_seen && !d->dates_seen && !d->days_seen)) {
		tm.tm_hour = to_hour(d->hour, d->meridian);
		if (tm.tm_hour < 0) {
			return -1;
		}
		/* As GNU: an int's worth of the minutes; mktime_ok() judges. */
		tm.tm_min = (int)d->minutes;
		tm.tm_sec = (int)d->seconds.tv_sec;
	} else {
		d->seconds.tv_nsec = 0; /* midnight */
	}
	tm.tm_isdst = now->tm_isdst;
	if (d->dates_seen || d->days_seen || d->times_seen) {
		tm.tm_isdst = -1;
	}
	if (d->local_zones_seen) {
		tm.tm_isdst = d->local_isdst;
	}
	struct tm tm0 = tm;
	tm.tm_wday = -1;
	time_t start = mktime(&tm);
	if (!mktime_ok(&tm0, &tm)) {
		/*
		 * A time the local zone skips (or cannot hold) is still fine with
		 * its own zone: GNU retries in that fixed zone.
		 */
		if (!d->zones_seen) {
			return -1;
		}
		tm = tm0;
		tm.tm_wday = -1;
		time_t utc = timegm(&tm);
		if (!mktime_ok(&tm0, &tm) || __builtin_add_overflow(utc, d->time_zone, &start)) {
			return -1;
		}
		tm.tm_gmtoff = -d->time_zone;
	}
	if (d->days_seen && !d->dates_seen) { /* to the weekday asked for */
		intmax_t ord = d->day_ordinal - (d->day_ordinal > 0 && tm.tm_wday != d->day_number);
		intmax_t incr;
		tm.tm_yday = -1;
		if (!__builtin_mul_overflow(ord, 7, &incr) &&
		    !__builtin_add_overflow(incr, (d->day_number - tm.tm_wday + 7) % 7, &incr) &&
		    !__builtin_add_overflow(incr, tm.tm_mday, &tm.tm_mday)) {
			tm.tm_isdst = -1;
			start = mktime(&tm);
		}
		if (tm.tm_yday < 0) {
			return -1;
		}
	}
	if (d->rel.year | d->rel.month | d->rel.day) { /* calendar moves */
		int year, month, day;
		if (__builtin_add_overflow(tm.tm_year, d->rel.year, &year) ||
		    __builtin_add_overflow(tm.tm_mon, d->rel.month, &month) ||
		    __builtin_add_overflow(tm.tm_mday, d->rel.day, &day)) {
			return -1;
		}
		tm.tm_year = year;
		tm.tm_mon = month;
		tm.tm_mday = day;
		tm.tm_hour = tm0.tm_hour;
		tm.tm_min = tm0.tm_min;
		tm.tm_sec = tm0.tm_sec;
		tm.tm_isdst = tm0.tm_isdst;
		tm.tm_wday = -1;
		start = mktime(&tm);
		if (tm.tm_wday < 0) {
			return -1;
		}
	}
	if (d->zones_seen) { /* from the local zone's offset to the one given */
		intmax_t delta;
		if (__builtin_sub_overflow((intmax_t)d->time_zone, (intmax_t)tm.tm_gmtoff, &delta) ||
		    __builtin_sub_overflow(start, delta, &start)) {
			return -1;
		}
	}
	/* Clock moves, in seconds: DST does not stretch them. */
	intmax_t sum_ns = d->seconds.tv_nsec + (intmax_t)d->rel.ns;
	intmax_t ns = (sum_ns % BILLION + BILLION) % BILLION;
	intmax_t carry = (sum_ns - ns) / BILLION, h, m;
	time_t t;
	if (__builtin_mul_overflow(d->rel.hour, 60 * 60, &h) ||
	    __builtin_add_overflow(start, h, &t) ||
	    __builtin_mul_overflow(d->rel.minutes, 60, &m) || __builtin_add_overflow(t, m, &t) ||
	    __builtin_add_overflow(t, d->rel.seconds, &t) || __builtin_add_overflow(t, carry, &t)) {
		return -1;
	}
	out->tv_sec = t;
	out->tv_nsec = (long)ns;
	return 0;
}

int lf_datetime_parse(const char *s, const struct timespec *now, struct timespec *out)
{
	struct dt d;
	struct tm tmnow;
	memset(&d, 0, sizeof(d));
	while (is_space((unsigned char)*s)) {
		s++;
	}
	if (!localtime_r(&now->tv_sec, &tmnow)) {
		return -1;
	}
	d.in = *s ? s : "0"; /* as GNU: "" is "0", midnight */
	d.year = (intmax_t)tmnow.tm_year + 1900;
	d.month = tmnow.tm_mon + 1;
	d.day = tmnow.tm_mday;
	d.hour = tmnow.tm_hour;
	d.minutes = tmnow.tm_min;
	d.seconds.tv_sec = tmnow.tm_sec;
	d.seconds.tv_nsec = now->tv_nsec;
	d.meridian = MER_24;
	local_zones(&d, &tmnow, now->tv_sec);

	lex(&d);
	if (d.tok.type == '@') { /* @SECONDS[.FRACTION], alone */
		lex(&d);
		switch (d.tok.type) {
		case TK_UNUM:
		case TK_SNUM:
			d.seconds.tv_sec = (time_t)d.tok.value;
			d.seconds.tv_nsec = 0;
			break;
		case TK_UDEC:
		case TK_SDEC:
			d.seconds = d.tok.ts;
			break;
		default:
			return -1;
		}
		lex(&d);
		if (d.tok.type != TK_END) {
			return -1;
		}
		d.timespec_seen = true;
	} else {
		while (d.tok.type != TK_END) {
			if (!item(&d)) {
				return -1;
			}
		}
	}
	return compute(&d, &tmnow, out);
}
