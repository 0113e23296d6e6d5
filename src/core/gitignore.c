/*
 * gitignore.c: what git would ignore, for walks under LF_WALK_GITIGNORE:
 * pattern files, the scope chain, repositories (discovery, and what each
 * one brings: its configuration is read by gitconfig.c, its index by
 * gitindex.c; see gitignore_impl.h).  See gitignore.h for the model; the
 * rules are git 2.39's (dir.c, config.c, read-cache.c), as gitignore(5) and
 * git-config(1) describe them.
 *
 * Files inside the walk are opened relative to a directory fd: a
 * .gitignore with openat(dir, ".gitignore"), a nested repository's files
 * with openat(dir, ".git/...").  Only a root's discovery works with its
 * real path (realpath(3), then upwards, as git's setup does with getcwd).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "gitignore.h"
#include "gitignore_impl.h"

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

struct gi_repo {
	int refs;
	const char *prefix; /* the root relative to the top, "" or ending in "/" */
	char *prefix_owned;
	size_t prefixlen;
	size_t base;        /* where the rest of the relative path starts in an entry's path */
	struct lf_gi_index index;
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
void *lf_gi_realloc(const struct lf_mem *mem, void *p, size_t old, size_t size)
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
void lf_gi_mem_free(const struct lf_mem *mem, void *p, size_t size)
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
 * @return the buffer (lf_gi_mem_free it with *@cap) with *len set, or NULL with
 *	errno set
 */
char *lf_gi_read_file(const struct lf_mem *mem, int dirfd, const char *name, size_t max, size_t *len,
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
	char *buf = lf_gi_realloc(mem, NULL, 0, *cap);
	if (!buf) {
		goto fail;
	}
	while (regular) {
		if (n + 1 >= *cap) {
			size_t grow = *cap > max ? *cap + 4096 : *cap * 2; /* just enough past max to see it */
			char *b = lf_gi_realloc(mem, buf, *cap, grow);
			if (!b) {
				lf_gi_mem_free(mem, buf, *cap);
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
			lf_gi_mem_free(mem, buf, *cap);
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
			struct gi_pat *v = lf_gi_realloc(s->mem, s->pats, cap * sizeof(*v), grow * sizeof(*v));
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

/* The system and global configuration, read at the first root. */
static int configure(struct lf_gi *g)
{
	g->configured = true;
	return lf_gi_config_global(g->mem, &g->excludes_file);
}

/* ---- scopes and repositories -------------------------------------------- */

static void repo_unref(struct gi_repo *r)
{
	if (r && --r->refs == 0) {
		lf_gi_index_free(&r->index);
		free(r->prefix_owned);
		lf_gi_mem_free(r->mem, r->buf, r->bufcap);
		lf_gi_mem_free(r->mem, r, sizeof(*r));
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
	struct lf_gi_scope *s = lf_gi_realloc(repo->mem, NULL, 0, sizeof(*s));
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
	char *text = lf_gi_read_file(repo->mem, dirfd, name, LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
	if (!text) {
		return errno == ENOMEM || (report && errno != ENOENT) ? -1 : 0;
	}
	struct lf_gi_scope *s = new_scope(*top, repo, dirlen);
	if (!s) {
		lf_gi_mem_free(repo->mem, text, cap);
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
		char *s = lf_gi_read_file(repo->mem, topfd, ".git", LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
		if (s && strncmp(s, "gitdir: ", 8) == 0) {
			s[strcspn(s, "\r\n")] = '\0';
			gitfd = openat(topfd, s + 8, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
		lf_gi_mem_free(repo->mem, s, cap);
	}
	int commonfd = -1;
	if (gitfd >= 0) {
		size_t len, cap = 0;
		char *s = lf_gi_read_file(repo->mem, gitfd, "commondir", LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
		if (s) {
			s[strcspn(s, "\r\n")] = '\0';
			commonfd = openat(gitfd, s, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			lf_gi_mem_free(repo->mem, s, cap);
		}
		if (commonfd < 0) {
			commonfd = dup(gitfd);
		}
	}
	struct lf_gi_config cfg = {0};
	if (commonfd >= 0 && lf_gi_config_read(repo->mem, commonfd, "config", &cfg) != 0) {
		goto out;
	}
	const char *excludes = cfg.excludes_file ? cfg.excludes_file : g->excludes_file;
	if (excludes) {
		char *path = lf_gi_expand_home(excludes);
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
	if (gitfd >= 0 && lf_gi_index_read(&repo->index, gitfd, cfg.sha256 ? 32 : 20) != 0) {
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
	struct gi_repo *r = lf_gi_realloc(mem, NULL, 0, sizeof(*r));
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
	if (lf_gi_index_has(&r->index, rel, rellen)) {
		return LF_GI_KEEP; /* tracked: never ignored (a gitlink too) */
	}
	return isdir && lf_gi_index_has_below(&r->index, rel, rellen) ? LF_GI_KEEP_EXCLUDED : LF_GI_SKIP;
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
			char *b = lf_gi_realloc(r->mem, r->buf, r->bufcap, cap);
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
