/*
 * gitindex.c: git's index, read for the paths it tracks (files the index
 * tracks are never ignored), and looked up by binary search.  The format is
 * read-cache.c's, versions 2 to 4, as gitformat-index(5) describes it.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "gitignore_impl.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- tracked paths ------------------------------------------------------ */

static size_t index_namelen(const struct lf_gi_index *x, size_t i)
{
	return (i + 1 < x->n ? x->offs[i + 1] : x->len) - x->offs[i] - 1;
}

/* Compare name i with key[0, klen) followed by "/" if @slash, as strcmp. */
static int index_cmp(const struct lf_gi_index *x, size_t i, const char *key, size_t klen, bool slash)
{
	const unsigned char *name = (const unsigned char *)x->names + x->offs[i];
	size_t nlen = index_namelen(x, i);
	size_t k = nlen < klen ? nlen : klen;
	int c = memcmp(name, key, k);
	if (c != 0 || k < klen) {
		return c != 0 ? c : -1; /* k < klen: the name is a proper prefix of the key */
	}
	if (slash) {
		if (nlen == klen) {
			return -1;
		}
		if (name[klen] != '/') {
			return name[klen] - '/';
		}
		return nlen > klen + 1;
	}
	return nlen > klen;
}

/* The first name not below key (+ "/"). */
static size_t index_lower_bound(const struct lf_gi_index *x, const char *key, size_t klen, bool slash)
{
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (index_cmp(x, mid, key, klen, slash) < 0) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/* Whether the index tracks the file s[0, len) (or a submodule there). */
bool lf_gi_index_has(const struct lf_gi_index *x, const char *s, size_t len)
{
	size_t i = index_lower_bound(x, s, len, false);
	return i < x->n && index_cmp(x, i, s, len, false) == 0;
}

/* Whether the index tracks anything below the directory s[0, len). */
bool lf_gi_index_has_below(const struct lf_gi_index *x, const char *s, size_t len)
{
	size_t i = index_lower_bound(x, s, len, true);
	return i < x->n && index_namelen(x, i) > len && memcmp(x->names + x->offs[i], s, len) == 0 &&
	       x->names[x->offs[i] + len] == '/';
}

/* Append a name.  0, or -1 (ENOMEM). */
static int index_add(struct lf_gi_index *x, const char *s, size_t len)
{
	if (x->n == x->ncap) {
		size_t cap = x->ncap ? 2 * x->ncap : 1024;
		size_t *v = lf_gi_realloc(x->mem, x->offs, x->ncap * sizeof(*v), cap * sizeof(*v));
		if (!v) {
			return -1;
		}
		x->offs = v;
		x->ncap = cap;
	}
	if (x->cap - x->len < len + 1) {
		size_t cap = x->cap ? x->cap : 16384;
		while (cap - x->len < len + 1) {
			cap *= 2;
		}
		char *v = lf_gi_realloc(x->mem, x->names, x->cap, cap);
		if (!v) {
			return -1;
		}
		x->names = v;
		x->cap = cap;
	}
	x->offs[x->n++] = x->len;
	memcpy(x->names + x->len, s, len);
	x->names[x->len + len] = '\0';
	x->len += len + 1;
	return 0;
}

void lf_gi_index_free(struct lf_gi_index *x)
{
	lf_gi_mem_free(x->mem, x->names, x->cap);
	lf_gi_mem_free(x->mem, x->offs, x->ncap * sizeof(*x->offs));
}

/* ---- the index ---------------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A tracked path (a sparse directory's without its "/").  0, or -1 (ENOMEM). */
static int add_tracked(struct lf_gi_index *x, const char *name, size_t len)
{
	while (len && name[len - 1] == '/') {
		len--;
	}
	return index_add(x, name, len);
}

/*
 * Read into @x the index in the git directory @gitfd (read-cache.c's
 * format, versions 2 to 4; @hashsz 20 for SHA-1, 32 for SHA-256).  A missing or
 * malformed index tracks nothing.  0, or -1 (ENOMEM).
 */
int lf_gi_index_read(struct lf_gi_index *x, int gitfd, size_t hashsz)
{
	size_t len, bufcap = 0;
	unsigned char *buf = (unsigned char *)lf_gi_read_file(x->mem, gitfd, "index", SIZE_MAX, &len, &bufcap);
	if (!buf) {
		return errno == ENOMEM ? -1 : 0;
	}
	int ret = 0;
	char *prev = NULL;
	size_t prevlen = 0, prevcap = 0;
	if (len < 12 || memcmp(buf, "DIRC", 4) != 0) {
		goto out;
	}
	uint32_t version = be32(buf + 4), count = be32(buf + 8);
	if (version < 2 || version > 4) {
		goto out;
	}
	size_t pos = 12;
	for (uint32_t k = 0; k < count; k++) {
		size_t fixed = 40 + hashsz + 2;
		if (pos + fixed > len) {
			goto out;
		}
		const unsigned char *ent = buf + pos;
		unsigned flags = (unsigned)ent[40 + hashsz] << 8 | ent[40 + hashsz + 1];
		if ((flags & 0x4000) && version >= 3) {
			fixed += 2;
		}
		if (pos + fixed > len) {
			goto out;
		}
		const char *name = (const char *)buf + pos + fixed;
		size_t room = len - pos - fixed;
		if (room == 0) {
			goto out;
		}
		if (version == 4) {
			/* A varint of bytes to drop from the previous name, then the rest. */
			const unsigned char *v = (const unsigned char *)name;
			const unsigned char *end = v + room;
			unsigned char c = *v++;
			uint64_t strip = c & 127;
			while (c & 128) {
				if (v >= end || strip > SIZE_MAX >> 8) {
					goto out;
				}
				strip += 1;
				strip = (strip << 7) + ((c = *v++) & 127);
			}
			const unsigned char *vend = memchr(v, '\0', (size_t)(end - v));
			if (!vend || strip > prevlen) {
				goto out;
			}
			size_t keep = prevlen - (size_t)strip, rest = (size_t)(vend - v);
			if (keep + rest + 1 > prevcap) {
				size_t cap = (keep + rest + 1) * 2;
				char *p = lf_gi_realloc(x->mem, prev, prevcap, cap);
				if (!p) {
					ret = -1;
					goto out;
				}
				prev = p;
				prevcap = cap;
			}
			memcpy(prev + keep, v, rest);
			prevlen = keep + rest;
			prev[prevlen] = '\0';
			if (add_tracked(x, prev, prevlen) != 0) {
				ret = -1;
				goto out;
			}
			pos = (size_t)(vend + 1 - buf);
		} else {
			/* The flags hold the length unless it is 0xfff or more. */
			size_t namelen = flags & 0xfff;
			const char *nul = NULL;
			if (namelen == 0xfff) {
				nul = memchr(name, '\0', room);
			} else if (namelen < room && name[namelen] == '\0') {
				nul = name + namelen;
			}
			if (!nul) {
				goto out;
			}
			namelen = (size_t)(nul - name);
			if (add_tracked(x, name, namelen) != 0) {
				ret = -1;
				goto out;
			}
			pos += (fixed + namelen + 8) & ~(size_t)7;
		}
	}
out:
	lf_gi_mem_free(x->mem, prev, prevcap);
	lf_gi_mem_free(x->mem, buf, bufcap);
	return ret;
}
