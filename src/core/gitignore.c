/*
 * gitignore.c: pattern files, the scope chain, repositories (discovery,
 * configuration, the index) for walks under LF_WALK_GITIGNORE.  See
 * gitignore.h for the model; the rules are git 2.39's (dir.c, config.c,
 * read-cache.c), as gitignore(5) and git-config(1) describe them.
 *
 * Files inside the walk are opened relative to a directory fd: a
 * .gitignore with openat(dir, ".gitignore"), a nested repository's files
 * with openat(dir, ".git/...").  Only a root's discovery works with its
 * real path (realpath(3), then upwards, as git's setup does with getcwd).
 */
#define _GNU_SOURCE
#include "gitignore.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Pattern flags, as git's PATTERN_FLAG_*. */
enum {
	PAT_NODIR = 1 << 0,     /* no "/" but a trailing one: matches the name */
	PAT_ENDSWITH = 1 << 1,  /* "*literal" */
	PAT_MUSTBEDIR = 1 << 2, /* trailing "/" */
	PAT_NEGATIVE = 1 << 3,  /* leading "!" */
};

struct gi_pat {
	const char *pat; /* NUL-terminated at len, into the list's text */
	size_t len;
	size_t nowild;   /* length of the leading part without wildcards */
	unsigned flags;
	/* A literal run (its first 15 bytes) that every match contains:
	 * strstr rules most paths out before wildmatch.  "": none. */
	char lit[16];
};

/*
 * The paths the index tracks, relative to the top of the repository, in
 * the index's own order (bytewise, as strcmp; git refuses an index out of
 * order): found by binary search, so loading costs a copy and nothing per
 * path.
 */
struct gi_index {
	char *names;  /* NUL-terminated names */
	size_t len, cap;
	size_t *offs; /* where each name starts */
	size_t n, ncap;
	const struct lf_mem *mem; /* the walk's account, charged for both arrays */
};

struct gi_repo {
	int refs;
	const char *prefix; /* the root relative to the top, "" or ending in "/" */
	char *prefix_owned;
	size_t prefixlen;
	size_t base;        /* where the rest of the relative path starts in an entry's path */
	struct gi_index index;
	char *buf;          /* scratch: prefix + the rest of a path */
	size_t bufcap;
	const struct lf_mem *mem; /* the walk's account: this, buf and the index are charged */
};

struct lf_gi_scope {
	int refs;
	struct lf_gi_scope *parent;
	struct gi_repo *repo;
	struct gi_pat *pats;
	size_t npats;
	char *text;
	const struct lf_mem *mem; /* the walk's account */
	size_t charged; /* to it: this, text and pats */
	size_t dirlen;  /* its directory relative to the top, with its "/" (0: the top) */
	bool excluded;  /* its directory is ignored (it holds tracked files) */
};

struct lf_gi {
	char *excludes_file; /* core.excludesFile from the system and global configuration */
	bool configured;
	const struct lf_mem *mem; /* the walk's account, or NULL */
};

/* realloc(@p, @size) of @old bytes charged to @mem; NULL (ENOMEM) leaves @p. */
static void *gi_realloc(const struct lf_mem *mem, void *p, size_t old, size_t size)
{
	if (size > old && !lf_mem_charge(mem, size - old)) {
		errno = ENOMEM;
		return NULL;
	}
	void *q = realloc(p, size);
	if (!q) {
		lf_mem_uncharge(mem, size > old ? size - old : 0);
		errno = ENOMEM;
		return NULL;
	}
	lf_mem_uncharge(mem, size < old ? old - size : 0);
	return q;
}

/* free(@p), whose @size bytes were charged to @mem. */
static void gi_free(const struct lf_mem *mem, void *p, size_t size)
{
	free(p);
	lf_mem_uncharge(mem, p ? size : 0);
}

/* ---- reading files ------------------------------------------------------ */

/*
 * Read the file @name relative to @dirfd into a NUL-terminated buffer of
 * *@cap bytes charged to @mem.  Only a regular file is read: it is opened
 * without blocking (a FIFO has no writer to wait for) and anything else
 * reads as empty, as git takes a file whose size is 0, but a directory
 * (EISDIR).  A file of more than @max bytes is EFBIG, and is not read.
 * @return the buffer (gi_free it with *@cap) with *len set, or NULL with
 *	errno set
 */
static char *read_file_at(const struct lf_mem *mem, int dirfd, const char *name, size_t max, size_t *len,
			  size_t *cap)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	bool regular = S_ISREG(st.st_mode);
	if (regular && (uint64_t)st.st_size > max) {
		errno = EFBIG;
		goto fail;
	}
	/* The size is a hint: the file may grow while it is read. */
	size_t n = 0;
	*cap = regular && (size_t)st.st_size < max ? (size_t)st.st_size + 2 : 4096;
	char *buf = gi_realloc(mem, NULL, 0, *cap);
	if (!buf) {
		goto fail;
	}
	while (regular) {
		if (n + 1 >= *cap) {
			size_t grow = *cap > max ? *cap + 4096 : *cap * 2; /* just enough past max to see it */
			char *b = gi_realloc(mem, buf, *cap, grow);
			if (!b) {
				gi_free(mem, buf, *cap);
				goto fail;
			}
			buf = b;
			*cap = grow;
		}
		ssize_t r = read(fd, buf + n, *cap - n - 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0 || n + (size_t)r > max) {
			int err = r < 0 ? errno : EFBIG;
			gi_free(mem, buf, *cap);
			close(fd);
			errno = err;
			return NULL;
		}
		if (r == 0) {
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:;
	int err = errno;
	close(fd);
	errno = err;
	return NULL;
}

/* ---- patterns ----------------------------------------------------------- */

static bool is_glob_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* git's trim_trailing_spaces(): unescaped trailing spaces go. */
static size_t trim_trailing_spaces(const char *s, size_t len)
{
	size_t end = len;
	bool in_spaces = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ' ') {
			if (!in_spaces) {
				end = i;
				in_spaces = true;
			}
		} else {
			in_spaces = false;
			end = len;
			if (s[i] == '\\' && i + 1 < len) {
				i++;
			}
		}
	}
	return in_spaces ? end : len;
}

/*
 * Parse @text (owned by the scope from now on; lines are cut in place) into
 * the scope's patterns.  @return 0, or -1 (ENOMEM)
 */
static int parse_patterns(struct lf_gi_scope *s, char *text, size_t len)
{
	s->text = text;
	size_t cap = 0;
	for (size_t pos = 0; pos < len;) {
		char *line = text + pos;
		char *nl = memchr(line, '\n', len - pos);
		size_t linelen = nl ? (size_t)(nl - line) : len - pos;
		pos += linelen + 1;
		if (pos == linelen + 1 && linelen >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			line += 3; /* a UTF-8 byte order mark, as git skips it */
			linelen -= 3;
		}
		if (linelen == 0 || line[0] == '#') {
			continue;
		}
		if (line[linelen - 1] == '\r') {
			linelen--; /* CRLF lines, as git reads them */
		}
		linelen = trim_trailing_spaces(line, linelen);
		unsigned flags = 0;
		if (linelen && line[0] == '!') {
			flags |= PAT_NEGATIVE;
			line++;
			linelen--;
		}
		if (linelen && line[linelen - 1] == '/') {
			flags |= PAT_MUSTBEDIR;
			linelen--;
		}
		if (linelen == 0) {
			continue;
		}
		line[linelen] = '\0'; /* over the "\n", a trimmed space or the "/" */
		if (!memchr(line, '/', linelen)) {
			flags |= PAT_NODIR;
		}
		size_t nowild = 0;
		while (nowild < linelen && !is_glob_special(line[nowild])) {
			nowild++;
		}
		if (line[0] == '*') {
			size_t k = 1;
			while (k < linelen && !is_glob_special(line[k])) {
				k++;
			}
			if (k == linelen) {
				flags |= PAT_ENDSWITH;
			}
		}
		/* The longest literal run after the prefix, up to the first
		 * bracket or escape; without a leading "/", which "**" may eat. */
		size_t litoff = 0, litlen = 0;
		for (size_t i = nowild, run = nowild;; i++) {
			char c = i < linelen ? line[i] : '\0';
			if (c == '\0' || is_glob_special(c)) {
				size_t from = run < i && line[run] == '/' ? run + 1 : run;
				if (i > from && i - from > litlen) {
					litoff = from;
					litlen = i - from;
				}
				if (c != '*' && c != '?') {
					break;
				}
				run = i + 1;
			}
		}
		if (s->npats == cap) {
			size_t grow = cap ? 2 * cap : 16;
			struct gi_pat *v = gi_realloc(s->mem, s->pats, cap * sizeof(*v), grow * sizeof(*v));
			if (!v) {
				return -1;
			}
			s->charged += (grow - cap) * sizeof(*v);
			cap = grow;
			s->pats = v;
		}
		struct gi_pat *pat = &s->pats[s->npats++];
		*pat = (struct gi_pat){line, linelen, nowild, flags, ""};
		if (litlen > 1) {
			size_t n = litlen < sizeof(pat->lit) ? litlen : sizeof(pat->lit) - 1;
			memcpy(pat->lit, line + litoff, n);
			pat->lit[n] = '\0';
		}
	}
	return 0;
}

/* git's match_basename(). */
static bool match_basename(const struct gi_pat *p, const char *name, size_t namelen)
{
	if (p->nowild == p->len) {
		return p->len == namelen && memcmp(p->pat, name, namelen) == 0;
	}
	if (p->flags & PAT_ENDSWITH) {
		return p->len - 1 <= namelen && memcmp(p->pat + 1, name + namelen - (p->len - 1), p->len - 1) == 0;
	}
	if (p->lit[0] && !strstr(name, p->lit)) {
		return false;
	}
	return lf_wildmatch(p->pat, name, false);
}

/* git's match_pathname(), @name relative to the pattern's directory. */
static bool match_pathname(const struct gi_pat *p, const char *name, size_t namelen)
{
	const char *pat = p->pat;
	size_t patlen = p->len, prefix = p->nowild;
	if (*pat == '/') {
		pat++;
		patlen--;
		prefix--;
	}
	if (prefix) {
		if (prefix > namelen || memcmp(pat, name, prefix) != 0) {
			return false;
		}
		pat += prefix;
		patlen -= prefix;
		name += prefix;
		namelen -= prefix;
		if (!patlen && !namelen) {
			return true;
		}
	}
	if (p->lit[0] && !strstr(name, p->lit)) {
		return false;
	}
	return lf_wildmatch(pat, name, true);
}

/*
 * The verdict of the chain from @s on for @rel (relative to the top):
 * 1 ignored, 0 not ignored (no pattern, or a negated one, matched).
 */
static bool chain_ignores(const struct lf_gi_scope *s, const char *rel, size_t rellen, const char *name,
			  size_t namelen, bool isdir)
{
	for (; s; s = s->parent) {
		if (s->excluded) {
			return true;
		}
		for (size_t i = s->npats; i-- > 0;) {
			const struct gi_pat *p = &s->pats[i];
			if ((p->flags & PAT_MUSTBEDIR) && !isdir) {
				continue;
			}
			bool m = (p->flags & PAT_NODIR) ? match_basename(p, name, namelen)
							: rellen > s->dirlen &&
								  match_pathname(p, rel + s->dirlen, rellen - s->dirlen);
			if (m) {
				return !(p->flags & PAT_NEGATIVE);
			}
		}
	}
	return false;
}

/* ---- tracked paths ------------------------------------------------------ */

static size_t index_namelen(const struct gi_index *x, size_t i)
{
	return (i + 1 < x->n ? x->offs[i + 1] : x->len) - x->offs[i] - 1;
}

/* Compare name i with key[0, klen) followed by "/" if @slash, as strcmp. */
static int index_cmp(const struct gi_index *x, size_t i, const char *key, size_t klen, bool slash)
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
static size_t index_lower_bound(const struct gi_index *x, const char *key, size_t klen, bool slash)
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
static bool index_has(const struct gi_index *x, const char *s, size_t len)
{
	size_t i = index_lower_bound(x, s, len, false);
	return i < x->n && index_cmp(x, i, s, len, false) == 0;
}

/* Whether the index tracks anything below the directory s[0, len). */
static bool index_has_below(const struct gi_index *x, const char *s, size_t len)
{
	size_t i = index_lower_bound(x, s, len, true);
	return i < x->n && index_namelen(x, i) > len && memcmp(x->names + x->offs[i], s, len) == 0 &&
	       x->names[x->offs[i] + len] == '/';
}

/* Append a name.  0, or -1 (ENOMEM). */
static int index_add(struct gi_index *x, const char *s, size_t len)
{
	if (x->n == x->ncap) {
		size_t cap = x->ncap ? 2 * x->ncap : 1024;
		size_t *v = gi_realloc(x->mem, x->offs, x->ncap * sizeof(*v), cap * sizeof(*v));
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
		char *v = gi_realloc(x->mem, x->names, x->cap, cap);
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

static void index_free(struct gi_index *x)
{
	gi_free(x->mem, x->names, x->cap);
	gi_free(x->mem, x->offs, x->ncap * sizeof(*x->offs));
}

/* ---- the index ---------------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A tracked path (a sparse directory's without its "/").  0, or -1 (ENOMEM). */
static int add_tracked(struct gi_repo *r, const char *name, size_t len)
{
	while (len && name[len - 1] == '/') {
		len--;
	}
	return index_add(&r->index, name, len);
}

/*
 * Read the index in the git directory @gitfd (read-cache.c's format,
 * versions 2 to 4; @hashsz 20 for SHA-1, 32 for SHA-256).  A missing or
 * malformed index tracks nothing.  0, or -1 (ENOMEM).
 */
static int read_index(struct gi_repo *r, int gitfd, size_t hashsz)
{
	size_t len, bufcap = 0;
	unsigned char *buf = (unsigned char *)read_file_at(r->mem, gitfd, "index", SIZE_MAX, &len, &bufcap);
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
				char *p = gi_realloc(r->mem, prev, prevcap, cap);
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
			if (add_tracked(r, prev, prevlen) != 0) {
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
			if (add_tracked(r, name, namelen) != 0) {
				ret = -1;
				goto out;
			}
			pos += (fixed + namelen + 8) & ~(size_t)7;
		}
	}
out:
	gi_free(r->mem, prev, prevcap);
	gi_free(r->mem, buf, bufcap);
	return ret;
}

/* ---- configuration ------------------------------------------------------ */

struct gi_config {
	char *excludes_file; /* core.excludesFile */
	bool sha256;         /* extensions.objectFormat = sha256 */
};

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
	       c == '_';
}

/*
 * A value from s[*i] to the end of its line (git's config.c parse_value):
 * quotes, escapes, comments, a backslash-newline continuation, and inner
 * whitespace squeezed outside quotes.  NUL-terminated in @out (as long
 * as the input).  false on a malformed value.
 */
static bool parse_value(const char *s, size_t len, size_t *i, char *out)
{
	size_t n = 0, spaces = 0;
	bool quoted = false, started = false;
	for (; *i < len; (*i)++) {
		char c = s[*i];
		if (c == '\r' && *i + 1 < len && s[*i + 1] == '\n') {
			continue;
		}
		if (c == '\n') {
			if (quoted) {
				return false;
			}
			break;
		}
		if (!quoted && (c == ';' || c == '#')) {
			while (*i < len && s[*i] != '\n') {
				(*i)++;
			}
			break;
		}
		if (!quoted && (c == ' ' || c == '\t')) {
			if (started) {
				spaces++;
			}
			continue;
		}
		for (; spaces; spaces--) {
			out[n++] = ' ';
		}
		started = true;
		if (c == '\\') {
			if (++*i >= len) {
				return false;
			}
			c = s[*i];
			if (c == '\n') {
				continue;
			} else if (c == 't') {
				c = '\t';
			} else if (c == 'b') {
				if (n) {
					n--;
				}
				continue;
			} else if (c == 'n') {
				c = '\n';
			} else if (c != '\\' && c != '"') {
				return false;
			}
			out[n++] = c;
			continue;
		}
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		out[n++] = c;
	}
	out[n] = '\0';
	return !quoted;
}

/*
 * Read the configuration file @name relative to @dirfd into @cfg (later
 * files override earlier ones).  A file that cannot be read or parsed adds
 * nothing.  0, or -1 (ENOMEM).
 */
static int read_config(const struct lf_mem *mem, int dirfd, const char *name, struct gi_config *cfg)
{
	size_t len, cap = 0;
	char *s = read_file_at(mem, dirfd, name, LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
	if (!s) {
		return errno == ENOMEM ? -1 : 0;
	}
	char *val = gi_realloc(mem, NULL, 0, len + 1);
	if (!val) {
		gi_free(mem, s, cap);
		return -1;
	}
	char section[64] = "";
	bool subsection = false;
	int ret = 0;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
		} else if (c == '#' || c == ';') {
			while (i < len && s[i] != '\n') {
				i++;
			}
		} else if (c == '[') {
			size_t n = 0;
			subsection = false;
			for (i++; i < len && s[i] != ']' && s[i] != '\n'; i++) {
				if (s[i] == ' ' || s[i] == '"') {
					subsection = true;
				} else if (!subsection && s[i] == '.') {
					subsection = true; /* [section.sub], the old spelling */
				} else if (!subsection && n + 1 < sizeof(section)) {
					section[n++] = lower(s[i]);
				}
			}
			section[n] = '\0';
			if (i < len && s[i] == ']') {
				i++;
			}
		} else if (is_key_char(c)) {
			char key[64];
			size_t n = 0;
			for (; i < len && is_key_char(s[i]); i++) {
				if (n + 1 < sizeof(key)) {
					key[n++] = lower(s[i]);
				}
			}
			key[n] = '\0';
			while (i < len && (s[i] == ' ' || s[i] == '\t')) {
				i++;
			}
			if (i < len && s[i] == '=') {
				i++;
				if (!parse_value(s, len, &i, val)) {
					break; /* git refuses the file from here on */
				}
			} else {
				strcpy(val, "true");
			}
			if (subsection) {
				continue;
			}
			if (strcmp(section, "core") == 0 && strcmp(key, "excludesfile") == 0) {
				char *v = strdup(val);
				if (!v) {
					ret = -1;
					break;
				}
				free(cfg->excludes_file);
				cfg->excludes_file = v;
			} else if (strcmp(section, "extensions") == 0 && strcmp(key, "objectformat") == 0) {
				cfg->sha256 = strcasecmp(val, "sha256") == 0;
			}
		} else {
			while (i < len && s[i] != '\n') {
				i++;
			}
		}
	}
	gi_free(mem, val, len + 1);
	gi_free(mem, s, cap);
	return ret;
}

/* A path from $VAR followed by @tail, or NULL (unset, empty, or ENOMEM). */
static char *env_path(const char *var, const char *tail)
{
	const char *v = getenv(var);
	if (!v || !*v) {
		return NULL;
	}
	char *p;
	return asprintf(&p, "%s%s", v, tail) < 0 ? NULL : p;
}

/* The system and global configuration's core.excludesFile, with git's default. */
static int configure(struct lf_gi *g)
{
	struct gi_config cfg = {0};
	g->configured = true;
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	if (!getenv("GIT_CONFIG_NOSYSTEM") && read_config(g->mem, AT_FDCWD, sys ? sys : "/etc/gitconfig", &cfg) != 0) {
		return -1;
	}
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	if (global) {
		if (read_config(g->mem, AT_FDCWD, global, &cfg) != 0) {
			return -1;
		}
	} else {
		char *xdg = env_path("XDG_CONFIG_HOME", "/git/config");
		if (!xdg) {
			xdg = env_path("HOME", "/.config/git/config");
		}
		char *home = env_path("HOME", "/.gitconfig");
		int r = (xdg ? read_config(g->mem, AT_FDCWD, xdg, &cfg) : 0) | (home ? read_config(g->mem, AT_FDCWD, home, &cfg) : 0);
		free(xdg);
		free(home);
		if (r != 0) {
			free(cfg.excludes_file);
			return -1;
		}
	}
	if (!cfg.excludes_file) {
		cfg.excludes_file = env_path("XDG_CONFIG_HOME", "/git/ignore");
		if (!cfg.excludes_file) {
			cfg.excludes_file = env_path("HOME", "/.config/git/ignore");
		}
	}
	g->excludes_file = cfg.excludes_file;
	return 0;
}

/* "~/x" with $HOME, as git's interpolate_path() ("~user/" is taken as is). */
static char *expand_home(const char *path)
{
	if (path[0] == '~' && (path[1] == '/' || path[1] == '\0')) {
		return env_path("HOME", path + 1);
	}
	return strdup(path);
}

struct lf_gi *lf_gi_new(const struct lf_mem *mem)
{
	struct lf_gi *g = calloc(1, sizeof(struct lf_gi));
	if (g) {
		g->mem = mem;
	}
	return g;
}

void lf_gi_free(struct lf_gi *g)
{
	if (g) {
		free(g->excludes_file);
		free(g);
	}
}

/* ---- scopes and repositories -------------------------------------------- */

static void repo_unref(struct gi_repo *r)
{
	if (r && --r->refs == 0) {
		index_free(&r->index);
		free(r->prefix_owned);
		gi_free(r->mem, r->buf, r->bufcap);
		gi_free(r->mem, r, sizeof(*r));
	}
}

struct lf_gi_scope *lf_gi_ref(struct lf_gi_scope *s)
{
	if (s) {
		s->refs++;
	}
	return s;
}

void lf_gi_unref(struct lf_gi_scope *s)
{
	while (s && --s->refs == 0) {
		struct lf_gi_scope *parent = s->parent;
		repo_unref(s->repo);
		free(s->pats);
		free(s->text);
		lf_mem_uncharge(s->mem, s->charged);
		free(s);
		s = parent;
	}
}

/* A scope over @parent (whose reference it takes) in @repo. */
static struct lf_gi_scope *new_scope(struct lf_gi_scope *parent, struct gi_repo *repo, size_t dirlen)
{
	struct lf_gi_scope *s = gi_realloc(repo->mem, NULL, 0, sizeof(*s));
	if (!s) {
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->mem = repo->mem;
	s->charged = sizeof(*s);
	s->refs = 1;
	s->parent = parent;
	s->repo = repo;
	repo->refs++;
	s->dirlen = dirlen;
	return s;
}

/*
 * Push the patterns of the file @name (relative to @dirfd) as a scope over
 * *@top.  A missing file pushes nothing.  0, or -1 with errno set (ENOMEM,
 * or the read error when @report).
 */
static int push_file(struct lf_gi_scope **top, struct gi_repo *repo, int dirfd, const char *name, size_t dirlen,
		     bool report)
{
	size_t len, cap = 0;
	char *text = read_file_at(repo->mem, dirfd, name, LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
	if (!text) {
		return errno == ENOMEM || (report && errno != ENOENT) ? -1 : 0;
	}
	struct lf_gi_scope *s = new_scope(*top, repo, dirlen);
	if (!s) {
		gi_free(repo->mem, text, cap);
		return -1;
	}
	s->charged += cap;
	*top = s;
	if (parse_patterns(s, text, len) != 0) {
		return -1;
	}
	return 0;
}

/*
 * Open a repository whose work tree is @topfd: its git directory (".git",
 * or a "gitdir:" file), common directory, configuration, index,
 * info/exclude and excludes file, as a chain in *@top (NULL before).
 * Nothing readable: an empty chain.  0, or -1 (ENOMEM).
 */
static int open_repo(struct lf_gi *g, struct gi_repo *repo, int topfd, struct lf_gi_scope **top)
{
	int ret = -1;
	int gitfd = openat(topfd, ".git", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (gitfd < 0 && errno == ENOTDIR) {
		size_t len, cap = 0;
		char *s = read_file_at(repo->mem, topfd, ".git", LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
		if (s && strncmp(s, "gitdir: ", 8) == 0) {
			s[strcspn(s, "\r\n")] = '\0';
			gitfd = openat(topfd, s + 8, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
		gi_free(repo->mem, s, cap);
	}
	int commonfd = -1;
	if (gitfd >= 0) {
		size_t len, cap = 0;
		char *s = read_file_at(repo->mem, gitfd, "commondir", LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
		if (s) {
			s[strcspn(s, "\r\n")] = '\0';
			commonfd = openat(gitfd, s, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			gi_free(repo->mem, s, cap);
		}
		if (commonfd < 0) {
			commonfd = dup(gitfd);
		}
	}
	struct gi_config cfg = {0};
	if (commonfd >= 0 && read_config(repo->mem, commonfd, "config", &cfg) != 0) {
		goto out;
	}
	const char *excludes = cfg.excludes_file ? cfg.excludes_file : g->excludes_file;
	if (excludes) {
		char *path = expand_home(excludes);
		if (!path && errno == ENOMEM) {
			goto out;
		}
		/* A relative path is the work tree's, where git runs. */
		int r = path ? push_file(top, repo, topfd, path, 0, false) : 0;
		free(path);
		if (r != 0) {
			goto out;
		}
	}
	if (commonfd >= 0 && push_file(top, repo, commonfd, "info/exclude", 0, false) != 0) {
		goto out;
	}
	if (gitfd >= 0 && read_index(repo, gitfd, cfg.sha256 ? 32 : 20) != 0) {
		goto out;
	}
	if (!*top) {
		/* No patterns at all: still a repository, and its own chain. */
		if (!(*top = new_scope(NULL, repo, 0))) {
			goto out;
		}
	}
	ret = 0;
out:
	free(cfg.excludes_file);
	if (gitfd >= 0) {
		close(gitfd);
	}
	if (commonfd >= 0) {
		close(commonfd);
	}
	return ret;
}

static struct gi_repo *new_repo(const struct lf_mem *mem, size_t base)
{
	struct gi_repo *r = gi_realloc(mem, NULL, 0, sizeof(*r));
	if (r) {
		memset(r, 0, sizeof(*r));
		r->prefix = "";
		r->base = base;
		r->mem = mem;
		r->index.mem = mem;
	}
	return r;
}

/*
 * The length of the longest directory of $GIT_CEILING_DIRECTORIES (a
 * colon-separated list of absolute paths) that is a proper ancestor of
 * @real, or 0.  git looks for a repository in @real itself, then in its
 * parents below that directory only.
 */
static size_t ceiling(const char *real)
{
	const char *list = getenv("GIT_CEILING_DIRECTORIES");
	size_t best = 0;
	while (list && *list) {
		size_t len = strcspn(list, ":");
		char *dir = strndup(list, len);
		char *r = dir && dir[0] == '/' ? realpath(dir, NULL) : NULL;
		const char *c = r ? r : dir;
		size_t clen = c ? strlen(c) : 0;
		while (clen > 1 && c[clen - 1] == '/') {
			clen--;
		}
		if (c && c[0] == '/' && strncmp(real, c, clen) == 0 &&
		    (clen == 1 || (real[clen] == '/' && real[clen + 1] != '\0')) && clen > best) {
			best = clen;
		}
		free(r);
		free(dir);
		list += len + (list[len] == ':');
	}
	return best;
}

/*
 * Where git would look for the repository of @real (a real path, changed
 * in place): the longest prefix holding a ".git", not crossing into
 * another filesystem nor up to $GIT_CEILING_DIRECTORIES.  Its length, or
 * -1 when there is none.
 */
static ssize_t find_top(char *real)
{
	size_t ceil = ceiling(real);
	struct stat st;
	if (stat(real, &st) != 0) {
		return -1;
	}
	dev_t dev = st.st_dev;
	bool across = getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM") != NULL;
	size_t len = strlen(real);
	for (;;) {
		char *probe;
		if (asprintf(&probe, "%.*s/.git", (int)len, real) < 0) {
			return -1;
		}
		bool found = lstat(len == 1 ? probe + 1 : probe, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
		free(probe);
		if (found) {
			return (ssize_t)len;
		}
		if (len <= 1) {
			return -1;
		}
		while (len > 1 && real[len - 1] != '/') {
			len--;
		}
		if (len > 1) {
			len--; /* "/a/b" -> "/a"; "/a" -> "/" */
		}
		if (ceil && len <= ceil) {
			return -1;
		}
		char save = real[len];
		real[len] = '\0';
		int r = stat(real, &st);
		real[len] = save;
		if (r != 0 || (!across && st.st_dev != dev)) {
			return -1;
		}
	}
}

/* The verdict for a path relative to the top, tracked files considered. */
static enum lf_gi_verdict verdict(const struct lf_gi_scope *s, const char *rel, size_t rellen, const char *name,
				  size_t namelen, bool isdir)
{
	if (!chain_ignores(s, rel, rellen, name, namelen, isdir)) {
		return LF_GI_KEEP;
	}
	const struct gi_repo *r = s->repo;
	if (index_has(&r->index, rel, rellen)) {
		return LF_GI_KEEP; /* tracked: never ignored (a gitlink too) */
	}
	return isdir && index_has_below(&r->index, rel, rellen) ? LF_GI_KEEP_EXCLUDED : LF_GI_SKIP;
}

int lf_gi_root(struct lf_gi *g, const char *root, size_t childoff, struct lf_gi_scope **scope, bool *excluded)
{
	*scope = NULL;
	*excluded = false;
	if (!g->configured && configure(g) != 0) {
		return -1;
	}
	char *real = realpath(root, NULL);
	if (!real) {
		return errno == ENOMEM ? -1 : 0; /* no repository to find */
	}
	int ret = -1, topfd = -1;
	struct gi_repo *repo = NULL;
	struct lf_gi_scope *top = NULL;
	ssize_t toplen = find_top(real);
	if (toplen < 0) {
		ret = 0;
		goto out;
	}
	if (!(repo = new_repo(g->mem, childoff))) {
		goto out;
	}
	repo->refs = 1;
	size_t restlen = strlen(real) - (size_t)toplen;
	if (restlen > 0) {
		/* "/top/a/b" -> "a/b/" */
		const char *rest = real + toplen + (toplen > 1);
		restlen = strlen(rest);
		if (asprintf(&repo->prefix_owned, "%s/", rest) < 0) {
			repo->prefix_owned = NULL;
			goto out;
		}
		repo->prefix = repo->prefix_owned;
		repo->prefixlen = restlen + 1;
	}
	char save = real[toplen];
	real[toplen] = '\0';
	topfd = open(toplen ? real : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	real[toplen] = save;
	if (topfd < 0) {
		ret = 0;
		goto out;
	}
	if (open_repo(g, repo, topfd, &top) != 0) {
		goto out;
	}
	/* The directories from the top down to the root: their .gitignore
	 * files (the root's own is the walk's), and whether one of them (the
	 * root included) is ignored. */
	if (repo->prefixlen && push_file(&top, repo, topfd, ".gitignore", 0, false) != 0) {
		goto out;
	}
	const char *p = repo->prefix;
	for (size_t at = 0; at < repo->prefixlen;) {
		size_t end = at;
		while (p[end] != '/') {
			end++;
		}
		if (!*excluded) {
			/* Matching needs a NUL after the path and the name. */
			char *rel = strndup(p, end);
			if (!rel) {
				goto out;
			}
			enum lf_gi_verdict v = verdict(top, rel, end, rel + at, end - at, true);
			free(rel);
			if (v == LF_GI_SKIP || v == LF_GI_KEEP_EXCLUDED) {
				*excluded = true;
			}
		}
		at = end + 1;
		if (at < repo->prefixlen) {
			char *name;
			if (asprintf(&name, "%.*s.gitignore", (int)at, p) < 0) {
				goto out;
			}
			int r = push_file(&top, repo, topfd, name, at, false);
			free(name);
			if (r != 0) {
				goto out;
			}
		}
	}
	ret = 0;
out:
	if (topfd >= 0) {
		close(topfd);
	}
	repo_unref(repo);
	free(real);
	if (ret != 0) {
		lf_gi_unref(top);
		return -1;
	}
	*scope = top;
	return 0;
}

int lf_gi_enter(struct lf_gi *g, struct lf_gi_scope *inherited, bool excluded, int fd, bool gitignore, bool repo,
		size_t childoff, struct lf_gi_scope **scope, int *err)
{
	*err = 0;
	*scope = NULL;
	struct lf_gi_scope *top = lf_gi_ref(inherited);
	struct gi_repo *r = inherited ? inherited->repo : NULL;
	size_t dirlen = r ? r->prefixlen + (childoff - r->base) : 0;
	if (repo) {
		if (!g->configured && configure(g) != 0) {
			goto fail;
		}
		lf_gi_unref(top);
		top = NULL;
		if (!(r = new_repo(g->mem, childoff))) {
			return -1;
		}
		r->refs = 1;
		int ret = open_repo(g, r, fd, &top);
		repo_unref(r);
		if (ret != 0) {
			goto fail;
		}
		excluded = false;
		dirlen = 0;
	}
	if (!r) {
		return 0; /* outside any repository */
	}
	if (excluded) {
		struct lf_gi_scope *s = new_scope(top, r, dirlen);
		if (!s) {
			goto fail;
		}
		top = s;
		s->excluded = true;
	}
	/* git reads no .gitignore below an ignored directory: nothing there
	 * may bring an untracked file back. */
	if (gitignore && !excluded && push_file(&top, r, fd, ".gitignore", dirlen, true) != 0) {
		if (errno == ENOMEM) {
			goto fail;
		}
		*err = errno;
	}
	*scope = top;
	return 0;
fail:
	lf_gi_unref(top);
	return -1;
}

int lf_gi_check(struct lf_gi_scope *s, const char *path, size_t pathlen, size_t nameoff, bool isdir)
{
	struct gi_repo *r = s->repo;
	const char *rel = path + r->base;
	size_t rellen = pathlen - r->base;
	if (r->prefixlen) {
		size_t need = r->prefixlen + rellen + 1;
		if (need > r->bufcap) {
			size_t cap = need * 2;
			char *b = gi_realloc(r->mem, r->buf, r->bufcap, cap);
			if (!b) {
				return -1;
			}
			r->buf = b;
			r->bufcap = cap;
		}
		memcpy(r->buf, r->prefix, r->prefixlen);
		memcpy(r->buf + r->prefixlen, rel, rellen + 1);
		rel = r->buf;
		rellen += r->prefixlen;
	}
	return (int)verdict(s, rel, rellen, path + nameoff, pathlen - nameoff, isdir);
}
