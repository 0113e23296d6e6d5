/*
 * gitconfig.c: git's configuration files, read for the two keys the
 * ignore rules need: core.excludesFile (system, global, a repository's)
 * and extensions.objectFormat (the index's hash size).  The syntax is
 * config.c's, as git-config(1) describes it.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "gitignore_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
int lf_gi_config_read(const struct lf_mem *mem, int dirfd, const char *name, struct lf_gi_config *cfg)
{
	size_t len, cap = 0;
	char *s = lf_gi_read_file(mem, dirfd, name, LF_WALK_GITIGNORE_MAX_FILE, &len, &cap);
	if (!s) {
		return errno == ENOMEM ? -1 : 0;
	}
	char *val = lf_gi_realloc(mem, NULL, 0, len + 1);
	if (!val) {
		lf_gi_mem_free(mem, s, cap);
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
	lf_gi_mem_free(mem, val, len + 1);
	lf_gi_mem_free(mem, s, cap);
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

/*
 * The system and global configuration's core.excludesFile, with git's
 * default, in *@excludes_file (NULL: none; left alone on failure).  0, or
 * -1 (ENOMEM).
 */
int lf_gi_config_global(const struct lf_mem *mem, char **excludes_file)
{
	struct lf_gi_config cfg = {0};
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	if (!getenv("GIT_CONFIG_NOSYSTEM") && lf_gi_config_read(mem, AT_FDCWD, sys ? sys : "/etc/gitconfig", &cfg) != 0) {
		return -1;
	}
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	if (global) {
		if (lf_gi_config_read(mem, AT_FDCWD, global, &cfg) != 0) {
			return -1;
		}
	} else {
		char *xdg = env_path("XDG_CONFIG_HOME", "/git/config");
		if (!xdg) {
			xdg = env_path("HOME", "/.config/git/config");
		}
		char *home = env_path("HOME", "/.gitconfig");
		int r = (xdg ? lf_gi_config_read(mem, AT_FDCWD, xdg, &cfg) : 0) |
			(home ? lf_gi_config_read(mem, AT_FDCWD, home, &cfg) : 0);
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
	*excludes_file = cfg.excludes_file;
	return 0;
}

/* "~/x" with $HOME, as git's interpolate_path() ("~user/" is taken as is). */
char *lf_gi_expand_home(const char *path)
{
	if (path[0] == '~' && (path[1] == '/' || path[1] == '\0')) {
		return env_path("HOME", path + 1);
	}
	return strdup(path);
}
