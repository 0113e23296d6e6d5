/*
 * mounts.c: the mount table, as GNU find reads it: the octal escapes of
 * mountinfo (\040 for a space) undone, and "ignore" mounts left out.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "mounts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

struct lf_mount {
	uint64_t dev;
	char *type;
};

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

static void read_table(struct lf_mounts *m)
{
	m->read = true;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	if (!fp) {
		m->error = errno ? errno : EIO;
		return;
	}
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	while (getline(&line, &cap, fp) > 0) {
		unsigned maj, min;
		char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2) {
			continue;
		}
		char *type = sep + 3;
		type[strcspn(type, " \n")] = '\0';
		unescape_octal(type);
		if (strcmp(type, "ignore") == 0) {
			continue;
		}
		if (m->n == alloc) {
			size_t na = alloc ? 2 * alloc : 32;
			struct lf_mount *v = realloc(m->v, na * sizeof(*v));
			if (!v) {
				m->error = ENOMEM;
				break;
			}
			m->v = v;
			alloc = na;
		}
		char *copy = strdup(type);
		if (!copy) {
			m->error = ENOMEM;
			break;
		}
		m->v[m->n].dev = makedev(maj, min);
		m->v[m->n].type = copy;
		m->n++;
	}
	if (!m->error && ferror(fp)) {
		m->error = errno ? errno : EIO;
	}
	free(line);
	fclose(fp);
}

const char *lf_mounts_type(struct lf_mounts *m, uint64_t dev)
{
	if (!m->read) {
		read_table(m);
	}
	if (m->error) {
		errno = m->error;
		return NULL;
	}
	for (size_t i = m->n; i-- > 0;) {
		if (m->v[i].dev == dev) {
			return m->v[i].type;
		}
	}
	errno = 0;
	return NULL;
}

void lf_mounts_free(struct lf_mounts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].type);
	}
	free(m->v);
	*m = (struct lf_mounts){0};
}
