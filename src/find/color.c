/*
 * color.c: LS_COLORS, and writing names in its colors.
 *
 * No Debian package parses LS_COLORS for C (libraries exist for Rust and
 * Go; coreutils and bfs each carry their own parser), so this is ours,
 * after GNU ls 9.1 (ls.c: parse_ls_color, get_color_indicator) for what is
 * colored how, and bfs 4 (color.c) for what is stat'ed when and how paths
 * are split into a directory part and a name.
 *
 * Extensions: GNU ls 9.1 tries them newest first, ASCII case-insensitively,
 * and the first that matches wins.  Dropping, as each is added, the older
 * ones it is a suffix of (a later "*.gz" hides an earlier "*.tar.gz", as in
 * bfs) makes that the longest match, which one pass over the end of a name
 * finds: a hash of the lowercased, reversed suffix, probed at the lengths
 * the table has.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "color.h"

#include "ctx.h"
#include "fsattr.h"
#include "hyperlink.h"
#include "names.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The keys, in the order of GNU ls's indicator table, then bfs's. */
enum key {
	K_LC, K_RC, K_EC, K_RS, K_NO, K_FI, K_DI, K_LN, K_PI, K_SO, K_BD, K_CD, K_MI, K_OR, K_EX,
	K_DO, K_SU, K_SG, K_ST, K_OW, K_TW, K_CA, K_MH, K_CL, K_BLD, K_WRN, K_ERR, NKEYS
};

static const char key_names[NKEYS][4] = {
	"lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd", "mi", "or", "ex",
	"do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl", "bld", "wrn", "err",
};

/* GNU ls's built-in values (ls.c's color_indicator), then bfs's; "" is unset. */
static const char key_defaults[NKEYS][8] = {
	[K_LC] = "\033[", [K_RC] = "m", [K_RS] = "0", [K_DI] = "01;34", [K_LN] = "01;36", [K_PI] = "33",
	[K_SO] = "01;35", [K_BD] = "01;33", [K_CD] = "01;33", [K_EX] = "01;32", [K_DO] = "01;35",
	[K_SU] = "37;41", [K_SG] = "30;43", [K_ST] = "37;44", [K_OW] = "34;42", [K_TW] = "30;42",
	[K_CL] = "\033[K", [K_BLD] = "01;39", [K_WRN] = "01;33", [K_ERR] = "01;31",
};

/* An escape sequence (it may hold NUL bytes); s == NULL: not set. */
struct esc {
	char *s;
	size_t len;
	char *start; /* lc s rc, made once the table is complete (make_starts) */
	size_t startlen;
};

/* A colored extension: the key lowercased, and its hash (ext_hash). */
struct ext {
	char *key;
	size_t len;
	uint32_t hash;
	bool dead; /* a later extension ends it */
	struct esc esc;
};

struct lf_colors {
	struct esc keys[NKEYS];
	struct esc end;      /* ec, or lc rs rc */
	bool link_as_target; /* ln=target */
	bool stat_reg;       /* su, sg, ex or mh: regular files need their mode */
	bool stat_dir;       /* tw, ow or st: directories need theirs */
	struct ext *exts;
	size_t nexts, capexts;
	uint32_t *slots;     /* open addressing: index + 1 into exts, 0 empty */
	size_t mask;
	bool *has_len;       /* has_len[n]: an extension of n bytes exists */
	size_t maxlen;
};

#define FNV_BASIS 2166136261u
#define FNV_PRIME 16777619u

static unsigned char lower(unsigned char ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch;
}

/* GNU ls's is_colored(): set, and neither "", "0" nor "00". */
static bool is_colored(const struct esc *e)
{
	return e->s && !(e->len == 0 || (e->len == 1 && e->s[0] == '0') ||
			 (e->len == 2 && e->s[0] == '0' && e->s[1] == '0'));
}

static int set_esc(struct esc *e, const char *s, size_t len)
{
	char *copy = malloc(len + 1);
	if (!copy) {
		return -1;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	free(e->s);
	e->s = copy;
	e->len = len;
	return 0;
}

/* e->start: lc, the sequence, rc, in one piece (one write per color). */
static int make_start(struct esc *e, const struct esc *lc, const struct esc *rc)
{
	if (!e->s) {
		return 0;
	}
	size_t a = lc->s ? lc->len : 0, b = rc->s ? rc->len : 0;
	e->start = malloc(a + e->len + b + 1);
	if (!e->start) {
		return -1;
	}
	memcpy(e->start, lc->s ? lc->s : "", a);
	memcpy(e->start + a, e->s, e->len);
	memcpy(e->start + a + e->len, rc->s ? rc->s : "", b);
	e->startlen = a + e->len + b;
	return 0;
}

/*
 * Unescape the chunk at @p up to @end (or the string's end) into @buf, as
 * dir_colors(5) says: \a \b \e \f \n \r \t \v \? \_ \NNN \xHH, ^X for a
 * control character.  *@next is the byte after @end, or NULL.
 * @return the length, or -1 (EINVAL) for a lone '\' or '^' at the end
 */
static ssize_t unescape(const char *p, char end, char *buf, const char **next)
{
	size_t n = 0;
	*next = NULL;
	for (; *p && *p != end; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\\') {
			c = (unsigned char)*++p;
			switch (c) {
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'e': c = 033; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'v': c = '\v'; break;
			case '?': c = 0177; break;
			case '_': c = ' '; break;
			case 'x':
			case 'X':
				c = 0;
				while (p[1] && strchr("0123456789abcdefABCDEF", p[1])) {
					unsigned char h = (unsigned char)*++p;
					c = (unsigned char)(c << 4 | (h <= '9' ? h - '0' : (h | 040) - 'a' + 10));
				}
				break;
			case '\0':
				errno = EINVAL;
				return -1;
			default:
				if (c >= '0' && c <= '7') {
					c = (unsigned char)(c - '0');
					while (p[1] >= '0' && p[1] <= '7') {
						c = (unsigned char)(c << 3 | (*++p - '0'));
					}
				}
				break;
			}
		} else if (c == '^') {
			c = (unsigned char)*++p;
			if (c == '\0') {
				errno = EINVAL;
				return -1;
			}
			c = c == '?' ? 0177 : c & 037;
		}
		buf[n++] = (char)c;
	}
	if (*p) {
		*next = p + 1;
	}
	return (ssize_t)n;
}

/* The hash of the last @len bytes of @s, lowercased, read backwards. */
static uint32_t ext_hash(const char *s, size_t len)
{
	uint32_t h = FNV_BASIS;
	for (size_t i = len; i > 0; i--) {
		h = (h ^ lower((unsigned char)s[i - 1])) * FNV_PRIME;
	}
	return h;
}

static int add_ext(struct lf_colors *c, const char *key, size_t klen, const char *val, size_t vlen)
{
	if (memchr(key, '\0', klen)) {
		return 0; /* no name holds a NUL */
	}
	for (size_t i = 0; i < c->nexts; i++) {
		struct ext *x = &c->exts[i];
		if (x->dead || x->len < klen) {
			continue;
		}
		bool suffix = true;
		for (size_t j = 0; j < klen && suffix; j++) {
			suffix = x->key[x->len - klen + j] == (char)lower((unsigned char)key[j]);
		}
		x->dead = suffix;
	}
	if (c->nexts == c->capexts) {
		size_t cap = c->capexts ? 2 * c->capexts : 32;
		struct ext *v = realloc(c->exts, cap * sizeof(*v));
		if (!v) {
			return -1;
		}
		c->exts = v;
		c->capexts = cap;
	}
	struct ext *x = &c->exts[c->nexts];
	*x = (struct ext){.len = klen, .hash = ext_hash(key, klen)};
	x->key = malloc(klen + 1);
	if (!x->key || set_esc(&x->esc, val, vlen) != 0) {
		free(x->key);
		return -1;
	}
	for (size_t j = 0; j < klen; j++) {
		x->key[j] = (char)lower((unsigned char)key[j]);
	}
	x->key[klen] = '\0';
	c->nexts++;
	return 0;
}

/* The hash table of the live extensions, and the lengths they have. */
static int index_exts(struct lf_colors *c)
{
	size_t live = 0;
	c->maxlen = 0;
	for (size_t i = 0; i < c->nexts; i++) {
		if (!c->exts[i].dead) {
			live++;
			if (c->exts[i].len > c->maxlen) {
				c->maxlen = c->exts[i].len;
			}
		}
	}
	if (live == 0) {
		return 0;
	}
	size_t cap = 8;
	while (cap < 2 * live) {
		cap *= 2;
	}
	c->slots = calloc(cap, sizeof(*c->slots));
	c->has_len = calloc(c->maxlen + 1, sizeof(*c->has_len));
	if (!c->slots || !c->has_len) {
		return -1;
	}
	c->mask = cap - 1;
	for (size_t i = 0; i < c->nexts; i++) {
		const struct ext *x = &c->exts[i];
		if (x->dead) {
			continue;
		}
		size_t s = x->hash & c->mask;
		while (c->slots[s]) {
			s = (s + 1) & c->mask;
		}
		c->slots[s] = (uint32_t)(i + 1);
		c->has_len[x->len] = true;
	}
	return 0;
}

/* The color of the extension @name (@len bytes) ends with, or NULL. */
static const struct esc *find_ext(const struct lf_colors *c, const char *name, size_t len)
{
	if (!c->slots) {
		return NULL;
	}
	const struct esc *found = NULL;
	size_t max = len < c->maxlen ? len : c->maxlen;
	uint32_t h = FNV_BASIS;
	for (size_t n = 0;; n++) {
		if (c->has_len[n]) {
			for (size_t s = h & c->mask; c->slots[s]; s = (s + 1) & c->mask) {
				const struct ext *x = &c->exts[c->slots[s] - 1];
				if (x->hash != h || x->len != n) {
					continue;
				}
				size_t j = 0;
				while (j < n && x->key[j] == (char)lower((unsigned char)name[len - n + j])) {
					j++;
				}
				if (j == n) {
					found = &x->esc; /* longer ones found later win */
					break;
				}
			}
		}
		if (n == max) {
			break;
		}
		h = (h ^ lower((unsigned char)name[len - 1 - n])) * FNV_PRIME;
	}
	return found;
}

static int parse_into(struct lf_colors *c, const char *ls_colors)
{
	size_t cap = strlen(ls_colors) + 1;
	char *key = malloc(cap), *val = malloc(cap);
	int ret = -1;
	if (!key || !val) {
		goto out;
	}
	for (const char *chunk = ls_colors, *next; chunk && *chunk; chunk = next) {
		if (chunk[0] == '*') {
			ssize_t klen = unescape(chunk + 1, '=', key, &next);
			if (klen < 0) {
				goto out;
			}
			if (!next) {
				errno = EINVAL; /* "*.c" without a value */
				goto out;
			}
			ssize_t vlen = unescape(next, ':', val, &next);
			if (vlen < 0 || add_ext(c, key, (size_t)klen, val, (size_t)vlen) != 0) {
				goto out;
			}
			continue;
		}
		const char *eq = strchr(chunk, '=');
		if (!eq) {
			break; /* as bfs: the rest is ignored */
		}
		ssize_t vlen = unescape(eq + 1, ':', val, &next);
		if (vlen < 0) {
			goto out;
		}
		size_t klen = (size_t)(eq - chunk);
		for (size_t k = 0; k < NKEYS; k++) {
			if (strlen(key_names[k]) == klen && memcmp(key_names[k], chunk, klen) == 0) {
				if (k == K_LN && vlen == 6 && memcmp(val, "target", 6) == 0) {
					c->link_as_target = true;
					free(c->keys[k].s);
					c->keys[k] = (struct esc){0};
				} else {
					if (k == K_LN) {
						c->link_as_target = false;
					}
					if (set_esc(&c->keys[k], val, (size_t)vlen) != 0) {
						goto out;
					}
				}
				break;
			}
		} /* unknown keys are ignored, as bfs does */
	}
	ret = 0;
out:
	free(key);
	free(val);
	return ret;
}

int lf_colors_parse(const char *ls_colors, struct lf_colors **out)
{
	struct lf_colors *c = calloc(1, sizeof(*c));
	if (!c) {
		return -1;
	}
	for (size_t k = 0; k < NKEYS; k++) {
		if (key_defaults[k][0] && set_esc(&c->keys[k], key_defaults[k], strlen(key_defaults[k])) != 0) {
			goto fail;
		}
	}
	if (ls_colors && parse_into(c, ls_colors) != 0) {
		goto fail;
	}
	if (index_exts(c) != 0) {
		goto fail;
	}
	const struct esc *k = c->keys;
	if (k[K_EC].s) {
		if (set_esc(&c->end, k[K_EC].s, k[K_EC].len) != 0) {
			goto fail;
		}
	} else {
		size_t a = k[K_LC].s ? k[K_LC].len : 0, b = k[K_RS].s ? k[K_RS].len : 0;
		size_t d = k[K_RC].s ? k[K_RC].len : 0;
		char *end = malloc(a + b + d + 1);
		if (!end) {
			goto fail;
		}
		memcpy(end, k[K_LC].s ? k[K_LC].s : "", a);
		memcpy(end + a, k[K_RS].s ? k[K_RS].s : "", b);
		memcpy(end + a + b, k[K_RC].s ? k[K_RC].s : "", d);
		end[a + b + d] = '\0';
		c->end = (struct esc){.s = end, .len = a + b + d};
	}
	for (size_t i = 0; i < NKEYS; i++) {
		if (make_start(&c->keys[i], &k[K_LC], &k[K_RC]) != 0) {
			goto fail;
		}
	}
	for (size_t i = 0; i < c->nexts; i++) {
		if (!c->exts[i].dead && make_start(&c->exts[i].esc, &k[K_LC], &k[K_RC]) != 0) {
			goto fail;
		}
	}
	c->stat_reg = is_colored(&k[K_SU]) || is_colored(&k[K_SG]) || is_colored(&k[K_EX]) ||
		      is_colored(&k[K_MH]);
	c->stat_dir = is_colored(&k[K_TW]) || is_colored(&k[K_OW]) || is_colored(&k[K_ST]);
	*out = c;
	return 0;
fail:;
	int err = errno;
	lf_colors_free(c);
	errno = err;
	return -1;
}

void lf_colors_free(struct lf_colors *c)
{
	if (!c) {
		return;
	}
	for (size_t k = 0; k < NKEYS; k++) {
		free(c->keys[k].s);
		free(c->keys[k].start);
	}
	free(c->end.s);
	for (size_t i = 0; i < c->nexts; i++) {
		free(c->exts[i].key);
		free(c->exts[i].esc.s);
		free(c->exts[i].esc.start);
	}
	free(c->exts);
	free(c->slots);
	free(c->has_len);
	free(c);
}

const struct lf_colors *lf_ctx_colors(struct lf_ctx *ctx)
{
	if (!ctx->colors && !ctx->colors_err) {
		if (lf_colors_parse(getenv("LS_COLORS"), &ctx->colors) != 0) {
			ctx->colors_err = errno;
		}
	}
	errno = ctx->colors_err;
	return ctx->colors;
}

/* ---- choosing a color --------------------------------------------------- */

/*
 * Whether a regular file has file capabilities, as ls's has_capability and
 * -capable see them (fsattr.h); one that cannot be read has none.
 */
static bool has_capability(const struct lf_entry *e)
{
	return lf_fsattr_capable(e, e->type == LF_LNK) > 0;
}

/* The color of a file of @type with stat data @st (NULL unless needed), named @name. */
static const struct esc *color_of(const struct lf_colors *c, enum lf_type type, const struct lf_stat *st,
				  const char *name, size_t len, const struct lf_entry *cap_of)
{
	const struct esc *k = c->keys, *x = NULL;
	switch (type) {
	case LF_REG:
		if (st && is_colored(&k[K_SU]) && (st->mode & S_ISUID)) {
			x = &k[K_SU];
		} else if (st && is_colored(&k[K_SG]) && (st->mode & S_ISGID)) {
			x = &k[K_SG];
		} else if (cap_of && is_colored(&k[K_CA]) && has_capability(cap_of)) {
			x = &k[K_CA];
		} else if (st && is_colored(&k[K_EX]) && (st->mode & 0111)) {
			x = &k[K_EX];
		} else if (st && is_colored(&k[K_MH]) && st->nlink > 1) {
			x = &k[K_MH];
		} else {
			x = find_ext(c, name, len);
			if (!x) {
				x = &k[K_FI];
			}
		}
		break;
	case LF_DIR:
		if (st && is_colored(&k[K_TW]) && (st->mode & 01002) == 01002) {
			x = &k[K_TW];
		} else if (st && is_colored(&k[K_OW]) && (st->mode & 02)) {
			x = &k[K_OW];
		} else if (st && is_colored(&k[K_ST]) && (st->mode & 01000)) {
			x = &k[K_ST];
		} else {
			x = &k[K_DI];
		}
		break;
	case LF_LNK: x = &k[K_LN]; break;
	case LF_FIFO: x = &k[K_PI]; break;
	case LF_SOCK: x = &k[K_SO]; break;
	case LF_BLK: x = &k[K_BD]; break;
	case LF_CHR: x = &k[K_CD]; break;
	case LF_UNKNOWN: x = &k[K_OR]; break; /* as ls, for a type it does not know */
	}
	return x;
}

/* mi, or else or (bfs): a file that is not there. */
static const struct esc *missing(const struct lf_colors *c)
{
	return is_colored(&c->keys[K_MI]) ? &c->keys[K_MI] : &c->keys[K_OR];
}

/* A chosen color, or "no" when it has none; NULL when neither has. */
static const struct esc *or_normal(const struct lf_colors *c, const struct esc *x)
{
	if (!x || !x->s || x->len == 0) {
		x = &c->keys[K_NO];
	}
	return x->s ? x : NULL;
}

/*
 * The color of entry @e, stat'ing only for what the table needs: the mode
 * of regular files and directories when su, sg, ex, mh, tw, ow or st has a
 * color, the target of a link for ln=target or or.
 */
static const struct esc *entry_color(const struct lf_colors *c, struct lf_entry *e)
{
	enum lf_type type = e->type;
	const struct lf_stat *st = NULL;
	size_t len;
	const char *name = lf_entry_name(e, &len);
	if (type == LF_LNK) {
		if (c->link_as_target) {
			st = lf_entry_stat(e, LF_FOLLOW);
			if (!st) {
				return or_normal(c, &c->keys[K_OR]); /* ls: C_ORPHAN */
			}
			type = lf_type_from_mode(st->mode);
		} else if (is_colored(&c->keys[K_OR]) && !lf_entry_stat(e, LF_FOLLOW)) {
			return or_normal(c, &c->keys[K_OR]);
		}
	} else if (type == LF_UNKNOWN) {
		st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (!st) {
			return or_normal(c, missing(c));
		}
		type = lf_type_from_mode(st->mode);
	}
	if (!st && ((type == LF_REG && c->stat_reg) || (type == LF_DIR && c->stat_dir))) {
		st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (!st) {
			return or_normal(c, missing(c));
		}
	}
	return or_normal(c, color_of(c, type, st, name, len, type == LF_REG ? e : NULL));
}

/* ---- writing ------------------------------------------------------------ */

static void put_esc(struct lf_out *o, const struct esc *e)
{
	if (e && e->s) {
		lf_out_write(o, e->s, e->len);
	}
}

/* @len bytes of @s in color @x (none if NULL); nothing for no bytes. */
static void put_colored(const struct lf_colors *c, struct lf_out *o, const struct esc *x, const char *s,
			size_t len, lf_color_put_fn *put)
{
	if (len == 0) {
		return;
	}
	if (x) {
		lf_out_write(o, x->start, x->startlen);
	}
	(put ? put : lf_out_write_displayable)(o, s, len);
	if (x) {
		put_esc(o, &c->end);
	}
}

static const struct esc *dir_color(const struct lf_colors *c)
{
	return or_normal(c, &c->keys[K_DI]);
}

void lf_color_write_path(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, const char *s,
			 size_t len, size_t nameoff, lf_color_put_fn *put)
{
	const struct esc *dir = dir_color(c), *name = entry_color(c, e);
	if (name == dir) {
		nameoff = len; /* one sequence for all of it */
	}
	/* -hyperlink: all of it links to the file, whichever part is shown. */
	bool link = o->links && len > 0 && lf_hyperlink_start(o->links, o, e->path, e->pathlen);
	put_colored(c, o, dir, s, nameoff, put);
	put_colored(c, o, name, s + nameoff, len - nameoff, put);
	if (link) {
		lf_hyperlink_end(o);
	}
}

void lf_color_write_entry(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, lf_color_put_fn *put)
{
	size_t nameoff = e->nameoff;
	if (e->depth == 0) {
		size_t len;
		const char *name = lf_entry_name(e, &len);
		nameoff = name >= e->path && name < e->path + e->pathlen ? (size_t)(name - e->path) : 0;
	}
	lf_color_write_path(c, o, e, e->path, e->pathlen, nameoff, put);
}

static const struct esc *key_esc(const struct lf_colors *c, enum lf_color_key key)
{
	switch (key) {
	case LF_COLOR_BOLD: return &c->keys[K_BLD];
	case LF_COLOR_WARN: return &c->keys[K_WRN];
	case LF_COLOR_ERR: return &c->keys[K_ERR];
	case LF_COLOR_DIR: return &c->keys[K_DI];
	}
	return &c->keys[K_NO];
}

void lf_color_write_text(const struct lf_colors *c, struct lf_out *o, enum lf_color_key key, const char *s,
			 size_t len, lf_color_put_fn *put)
{
	put_colored(c, o, or_normal(c, key_esc(c, key)), s, len, put);
}

void lf_color_write_target(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, const char *target,
			   lf_color_put_fn *put)
{
	size_t len = strlen(target);
	const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW);
	if (!st) {
		put_colored(c, o, or_normal(c, missing(c)), target, len, put);
		return;
	}
	size_t nameoff = len;
	while (nameoff > 0 && target[nameoff - 1] != '/') {
		nameoff--;
	}
	const struct esc *dir = dir_color(c);
	const struct esc *name = or_normal(c, color_of(c, lf_type_from_mode(st->mode), st, target + nameoff,
						       len - nameoff, NULL));
	if (name == dir) {
		nameoff = len;
	}
	put_colored(c, o, dir, target, nameoff, put);
	put_colored(c, o, name, target + nameoff, len - nameoff, put);
}

void lf_color_write_normal(const struct lf_colors *c, struct lf_out *o)
{
	if (c->keys[K_NO].s) {
		lf_out_write(o, c->keys[K_NO].start, c->keys[K_NO].startlen);
	}
}

void lf_color_write_normal_end(const struct lf_colors *c, struct lf_out *o)
{
	if (c->keys[K_NO].s) {
		put_esc(o, &c->end);
	}
}

void lf_color_fstart(const struct lf_colors *c, FILE *fp, enum lf_color_key key)
{
	const struct esc *x = c ? or_normal(c, key_esc(c, key)) : NULL;
	if (x) {
		fwrite(x->start, 1, x->startlen, fp);
	}
}

void lf_color_fend(const struct lf_colors *c, FILE *fp, enum lf_color_key key)
{
	if (c && or_normal(c, key_esc(c, key))) {
		fwrite(c->end.s, 1, c->end.len, fp);
	}
}
