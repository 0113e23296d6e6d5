/*
 * json.c: JSON text for -json, -fjson and luafind.json (json.h).
 *
 * Written straight into the output buffer, without a document tree: an
 * entry is a handful of fields, and building a tree per entry (jansson,
 * json-c) would cost more than the walk itself.  Neither library can write
 * the lone surrogate escapes that keep non-UTF-8 names lossless anyway.
 *
 * SPDX-License-Identifier: MIT
 */
#include "json.h"

#include "names.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char field_names[LF_JSON_NFIELDS][8] = {
	[LF_JSON_PATH] = "path",   [LF_JSON_NAME] = "name",   [LF_JSON_DEPTH] = "depth",
	[LF_JSON_TYPE] = "type",   [LF_JSON_SIZE] = "size",   [LF_JSON_MODE] = "mode",
	[LF_JSON_UID] = "uid",     [LF_JSON_GID] = "gid",     [LF_JSON_NLINK] = "nlink",
	[LF_JSON_INO] = "ino",     [LF_JSON_DEV] = "dev",     [LF_JSON_ATIME] = "atime",
	[LF_JSON_MTIME] = "mtime", [LF_JSON_CTIME] = "ctime", [LF_JSON_BTIME] = "btime",
	[LF_JSON_PERM] = "perm",   [LF_JSON_USER] = "user",   [LF_JSON_GROUP] = "group",
	[LF_JSON_RDEV] = "rdev",   [LF_JSON_BLOCKS] = "blocks", [LF_JSON_TARGET] = "target",
};

const char *lf_json_field_name(enum lf_json_field id)
{
	return field_names[id];
}

const char *lf_json_field_names(void)
{
	return "path name depth type size mode uid gid nlink ino dev atime mtime ctime btime perm user group rdev "
	       "blocks target";
}

void lf_json_fields_default(struct lf_json_fields *f)
{
	memset(f, 0, sizeof(*f));
	for (int id = LF_JSON_PATH; id <= LF_JSON_CTIME; id++) {
		f->ids[f->n++] = (unsigned char)id;
	}
	f->needs_stat = true;
}

static bool field_needs_stat(int id)
{
	return id >= LF_JSON_SIZE && id != LF_JSON_TARGET;
}

int lf_json_fields_parse(const char *list, struct lf_json_fields *f, size_t *bad, size_t *badlen)
{
	memset(f, 0, sizeof(*f));
	const char *p = list;
	for (;;) {
		size_t len = strcspn(p, ",");
		int id = 0;
		while (id < LF_JSON_NFIELDS && (strlen(field_names[id]) != len || memcmp(p, field_names[id], len) != 0)) {
			id++;
		}
		bool repeated = false;
		for (size_t i = 0; id < LF_JSON_NFIELDS && i < f->n; i++) {
			repeated |= f->ids[i] == id;
		}
		if (id == LF_JSON_NFIELDS || repeated) {
			*bad = (size_t)(p - list);
			*badlen = len;
			errno = repeated ? EEXIST : EINVAL;
			return -1;
		}
		f->ids[f->n++] = (unsigned char)id;
		f->needs_stat |= field_needs_stat(id);
		if (!p[len]) {
			return 0;
		}
		p += len + 1;
	}
}

const char *lf_json_field_suggest(const char *name, size_t len)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (int id = 0; id < LF_JSON_NFIELDS; id++) {
		size_t d = lf_edit_distance(name, len, field_names[id], strlen(field_names[id]));
		if (d < best_d) {
			best_d = d;
			best = field_names[id];
		}
	}
	return best;
}

/* ---- strings -------------------------------------------------------------- */

/*
 * For bytes below 0x80: 0 for a byte written as it is, else the letter of
 * its short escape, or 'u' for \u00XX.
 */
static const char ascii_escape[128] = {
	['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
	[0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u', [0x05] = 'u',
	[0x06] = 'u', [0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u', [0x0f] = 'u', [0x10] = 'u',
	[0x11] = 'u', [0x12] = 'u', [0x13] = 'u', [0x14] = 'u', [0x15] = 'u', [0x16] = 'u',
	[0x17] = 'u', [0x18] = 'u', [0x19] = 'u', [0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u',
	[0x1d] = 'u', [0x1e] = 'u', [0x1f] = 'u', ['"'] = '"', ['\\'] = '\\', [0x7f] = 'u',
};

static const char hex[] = "0123456789abcdef";

static char *put_u_escape(char *d, unsigned cp)
{
	d[0] = '\\';
	d[1] = 'u';
	d[2] = hex[(cp >> 12) & 15];
	d[3] = hex[(cp >> 8) & 15];
	d[4] = hex[(cp >> 4) & 15];
	d[5] = hex[cp & 15];
	return d + 6;
}

/*
 * The length of the valid UTF-8 sequence at @s (Unicode's table 3-7: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0; its code
 * point in *cp.
 */
static size_t utf8_seq(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned c = s[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		*cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		*cp = c & 0x0f;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		*cp = c & 0x07;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (len < n || s[1] < lo || s[1] > hi) {
		return 0;
	}
	*cp = (*cp << 6) | (s[1] & 0x3f);
	for (size_t i = 2; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	return n;
}

/* Whether byte @c is written as it is: printable ASCII but '"' and '\\'. */
static inline bool byte_plain(unsigned c)
{
	return c - 0x20 < 0x5f && c != '"' && c != '\\';
}

/*
 * The same for the eight bytes of @x at once (the "has a zero byte" and
 * "has a byte less than n" tests of Bit Twiddling Hacks, exact as a
 * whole).
 */
static inline bool word_plain(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\'), del = x ^ (ones * 0x7f);
	uint64_t bad = ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b) | ((del - ones) & ~del) | x;
	return !(bad & high);
}

size_t lf_json_escape(char *dst, size_t cap, const char *src, size_t len, size_t *used)
{
	const unsigned char *s = (const unsigned char *)src;
	char *d = dst;
	char *end = dst + cap;
	size_t i = 0;
	while (i < len && end - d >= 6) {
		/* A run of bytes written as they are, the common case. */
		size_t run = len - i < (size_t)(end - d) ? len - i : (size_t)(end - d);
		size_t j = 0;
		for (uint64_t x; j + 8 <= run && (memcpy(&x, s + i + j, 8), word_plain(x)); j += 8) {
			memcpy(d + j, &x, 8);
		}
		for (; j < run && byte_plain(s[i + j]); j++) {
			d[j] = (char)s[i + j];
		}
		d += j;
		i += j;
		if (i == len || end - d < 6) {
			break;
		}
		unsigned c = s[i];
		if (c < 0x80) {
			char esc = ascii_escape[c];
			if (!esc) {
				*d++ = (char)c;
			} else if (esc == 'u') {
				d = put_u_escape(d, c);
			} else {
				d[0] = '\\';
				d[1] = esc;
				d += 2;
			}
			i++;
			continue;
		}
		unsigned cp;
		size_t n = utf8_seq(s + i, len - i, &cp);
		if (n == 0) {
			d = put_u_escape(d, 0xdc00 | c); /* a byte that is not UTF-8 */
			i++;
		} else if (cp < 0xa0 || cp == 0x2028 || cp == 0x2029) {
			/* C1 controls move terminals; U+2028/9 end lines in JavaScript. */
			d = put_u_escape(d, cp);
			i += n;
		} else {
			memcpy(d, s + i, n);
			d += n;
			i += n;
		}
	}
	*used = i;
	return (size_t)(d - dst);
}

void lf_json_write_string(struct lf_out *o, const char *s, size_t len)
{
	lf_out_putc(o, '"');
	while (len > 0) {
		if (o->cap - o->len < 64) {
			lf_out_flush(o);
			if (o->cap - o->len < 64) {
				return; /* a write error: the rest is dropped anyway */
			}
		}
		size_t used;
		o->len += lf_json_escape(o->buf + o->len, o->cap - o->len, s, len, &used);
		s += used;
		len -= used;
	}
	lf_out_putc(o, '"');
}

/* ---- numbers ---------------------------------------------------------------- */

/* Decimal digits of @v ending at @end; returns where they start. */
static char *u64_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_u64(struct lf_out *o, uint64_t v)
{
	char buf[24];
	char *p = u64_digits(buf + sizeof(buf), v);
	lf_out_write(o, p, (size_t)(buf + sizeof(buf) - p));
}

static void put_i64(struct lf_out *o, int64_t v)
{
	if (v < 0) {
		lf_out_putc(o, '-');
		put_u64(o, -(uint64_t)v);
	} else {
		put_u64(o, (uint64_t)v);
	}
}

/* Seconds since the epoch with nine fractional digits: -1.5 for {-2, 5e8}. */
static void put_time(struct lf_out *o, const struct timespec *ts)
{
	int64_t sec = ts->tv_sec;
	long nsec = ts->tv_nsec;
	bool neg = sec < 0;
	uint64_t whole;
	if (neg && nsec > 0) {
		whole = -(uint64_t)(sec + 1);
		nsec = 1000000000 - nsec;
	} else {
		whole = neg ? -(uint64_t)sec : (uint64_t)sec;
	}
	char buf[40];
	char *end = buf + sizeof(buf);
	for (int i = 0; i < 9; i++) {
		*--end = (char)('0' + nsec % 10);
		nsec /= 10;
	}
	*--end = '.';
	char *p = u64_digits(end, whole);
	if (neg) {
		*--p = '-';
	}
	lf_out_write(o, p, (size_t)(buf + sizeof(buf) - p));
}

/* ---- entries ------------------------------------------------------------------ */

/* enum lf_type -> find's -type letters. */
static const char type_letters[] = "?fdlpscb";

/* ,"key": for each field, written without the comma for the first. */
#define KEY(k) {",\"" k "\":", sizeof(k) + 3}
static const struct {
	char s[12];
	unsigned char len;
} keys[LF_JSON_NFIELDS] = {
	[LF_JSON_PATH] = KEY("path"),   [LF_JSON_NAME] = KEY("name"),   [LF_JSON_DEPTH] = KEY("depth"),
	[LF_JSON_TYPE] = KEY("type"),   [LF_JSON_SIZE] = KEY("size"),   [LF_JSON_MODE] = KEY("mode"),
	[LF_JSON_UID] = KEY("uid"),     [LF_JSON_GID] = KEY("gid"),     [LF_JSON_NLINK] = KEY("nlink"),
	[LF_JSON_INO] = KEY("ino"),     [LF_JSON_DEV] = KEY("dev"),     [LF_JSON_ATIME] = KEY("atime"),
	[LF_JSON_MTIME] = KEY("mtime"), [LF_JSON_CTIME] = KEY("ctime"), [LF_JSON_BTIME] = KEY("btime"),
	[LF_JSON_PERM] = KEY("perm"),   [LF_JSON_USER] = KEY("user"),   [LF_JSON_GROUP] = KEY("group"),
	[LF_JSON_RDEV] = KEY("rdev"),   [LF_JSON_BLOCKS] = KEY("blocks"), [LF_JSON_TARGET] = KEY("target"),
};

static void put_key(struct lf_out *o, int id, bool first)
{
	lf_out_write(o, keys[id].s + first, keys[id].len - first);
}

static void put_owner(struct lf_out *o, struct lf_idnames *ids, bool group, uint32_t id)
{
	const char *name = ids ? lf_idnames_get(ids, group, id) : NULL;
	if (name) {
		lf_json_write_string(o, name, strlen(name));
	} else {
		lf_out_write(o, "null", 4);
	}
}

/* The value of field @id; returns the errno of a failed readlink, or 0. */
static int put_field(struct lf_out *o, const struct lf_entry *e, const struct lf_stat *st, int id,
		     struct lf_idnames *ids)
{
	switch (id) {
	case LF_JSON_PATH:
		lf_json_write_string(o, e->path, e->pathlen);
		return 0;
	case LF_JSON_NAME: {
		size_t len;
		const char *name = lf_entry_name(e, &len);
		lf_json_write_string(o, name, len);
		return 0;
	}
	case LF_JSON_DEPTH:
		put_i64(o, e->depth);
		return 0;
	case LF_JSON_TYPE: {
		char t[3] = {'"', type_letters[(unsigned)e->type <= LF_BLK ? e->type : 0], '"'};
		lf_out_write(o, t, 3);
		return 0;
	}
	case LF_JSON_TARGET: {
		if (e->type != LF_LNK) {
			lf_out_write(o, "null", 4);
			return 0;
		}
		char *target = lf_read_link(e);
		if (!target) {
			int err = errno;
			lf_out_write(o, "null", 4);
			return err;
		}
		lf_json_write_string(o, target, strlen(target));
		free(target);
		return 0;
	}
	default:
		break;
	}
	switch (id) {
	case LF_JSON_SIZE: put_i64(o, st->size); break;
	case LF_JSON_MODE: put_u64(o, st->mode); break;
	case LF_JSON_PERM: put_u64(o, st->mode & 07777); break;
	case LF_JSON_UID: put_u64(o, st->uid); break;
	case LF_JSON_GID: put_u64(o, st->gid); break;
	case LF_JSON_USER: put_owner(o, ids, false, st->uid); break;
	case LF_JSON_GROUP: put_owner(o, ids, true, st->gid); break;
	case LF_JSON_NLINK: put_u64(o, st->nlink); break;
	case LF_JSON_INO: put_u64(o, st->ino); break;
	case LF_JSON_DEV: put_u64(o, st->dev); break;
	case LF_JSON_RDEV: put_u64(o, st->rdev); break;
	case LF_JSON_BLOCKS: put_i64(o, st->blocks); break;
	case LF_JSON_ATIME: put_time(o, &st->atime); break;
	case LF_JSON_MTIME: put_time(o, &st->mtime); break;
	case LF_JSON_CTIME: put_time(o, &st->ctime); break;
	case LF_JSON_BTIME:
		if (st->has_btime) {
			put_time(o, &st->btime);
		} else {
			lf_out_write(o, "null", 4);
		}
		break;
	default: break;
	}
	return 0;
}

int lf_json_write_entry(struct lf_out *o, const struct lf_entry *e, const struct lf_stat *st,
			const struct lf_json_fields *f, struct lf_idnames *ids)
{
	struct lf_json_fields def;
	if (!f || f->n == 0) {
		lf_json_fields_default(&def);
		f = &def;
	}
	int err = 0;
	lf_out_putc(o, '{');
	for (size_t i = 0; i < f->n; i++) {
		int id = f->ids[i];
		put_key(o, id, i == 0);
		if (field_needs_stat(id) && !st) {
			lf_out_write(o, "null", 4);
			continue;
		}
		int r = put_field(o, e, st, id, ids);
		err = err ? err : r;
	}
	lf_out_write(o, "}\n", 2);
	return err;
}
