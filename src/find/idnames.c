/*
 * idnames.c: the uid/gid name cache.  The reentrant getpwuid_r() family, so
 * that two contexts in two threads never share libc's static buffers.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "idnames.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lf_idname {
	uint32_t id;
	bool used;
	char *name; /* NULL: the id has no name */
};

static size_t slot_of(uint32_t id, size_t cap)
{
	return (size_t)((id * 0x9E3779B1u) >> 7) & (cap - 1);
}

/*
 * Ask the system for the name of @id.
 * @return a malloc'd name, or NULL with errno 0 (no name) or set (failure)
 */
static char *system_name(bool group, uint32_t id)
{
	long hint = sysconf(group ? _SC_GETGR_R_SIZE_MAX : _SC_GETPW_R_SIZE_MAX);
	size_t size = hint > 0 ? (size_t)hint : 1024;
	for (;;) {
		char *buf = malloc(size);
		if (!buf) {
			return NULL;
		}
		int err;
		const char *name = NULL;
		if (group) {
			struct group gr, *res = NULL;
			err = getgrgid_r((gid_t)id, &gr, buf, size, &res);
			name = res ? res->gr_name : NULL;
		} else {
			struct passwd pw, *res = NULL;
			err = getpwuid_r((uid_t)id, &pw, buf, size, &res);
			name = res ? res->pw_name : NULL;
		}
		if (err == ERANGE && size < (1u << 20)) {
			free(buf);
			size *= 4;
			continue;
		}
		char *copy = name ? strdup(name) : NULL;
		free(buf);
		errno = copy || !name ? 0 : ENOMEM;
		return copy;
	}
}

static int grow(struct lf_idnames *c, int k)
{
	size_t cap = c->cap[k] ? 2 * c->cap[k] : 64;
	struct lf_idname *v = calloc(cap, sizeof(*v));
	if (!v) {
		return -1;
	}
	for (size_t i = 0; i < c->cap[k]; i++) {
		struct lf_idname *old = &c->slots[k][i];
		if (old->used) {
			size_t j = slot_of(old->id, cap);
			while (v[j].used) {
				j = (j + 1) & (cap - 1);
			}
			v[j] = *old;
		}
	}
	free(c->slots[k]);
	c->slots[k] = v;
	c->cap[k] = cap;
	return 0;
}

const char *lf_idnames_get(struct lf_idnames *c, bool group, uint32_t id)
{
	int k = group;
	if (c->cap[k]) {
		for (size_t j = slot_of(id, c->cap[k]);; j = (j + 1) & (c->cap[k] - 1)) {
			struct lf_idname *s = &c->slots[k][j];
			if (!s->used) {
				break;
			}
			if (s->id == id) {
				errno = 0;
				return s->name;
			}
		}
	}
	char *name = system_name(group, id);
	if (!name && errno) {
		return NULL; /* not cached: asked again next time */
	}
	if (2 * (c->count[k] + 1) > c->cap[k] && grow(c, k) != 0) {
		free(name);
		errno = ENOMEM;
		return NULL;
	}
	size_t j = slot_of(id, c->cap[k]);
	while (c->slots[k][j].used) {
		j = (j + 1) & (c->cap[k] - 1);
	}
	c->slots[k][j] = (struct lf_idname){.id = id, .used = true, .name = name};
	c->count[k]++;
	errno = 0;
	return name;
}

void lf_idnames_free(struct lf_idnames *c)
{
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < c->cap[k]; i++) {
			free(c->slots[k][i].name);
		}
		free(c->slots[k]);
		c->slots[k] = NULL;
		c->count[k] = c->cap[k] = 0;
	}
}

int lf_idnames_lookup(bool group, const char *name, uint32_t *id)
{
	long hint = sysconf(group ? _SC_GETGR_R_SIZE_MAX : _SC_GETPW_R_SIZE_MAX);
	size_t size = hint > 0 ? (size_t)hint : 1024;
	for (;;) {
		char *buf = malloc(size);
		if (!buf) {
			return -1;
		}
		int err;
		bool found = false;
		if (group) {
			struct group gr, *res = NULL;
			err = getgrnam_r(name, &gr, buf, size, &res);
			if (res) {
				found = true;
				*id = (uint32_t)res->gr_gid;
			}
		} else {
			struct passwd pw, *res = NULL;
			err = getpwnam_r(name, &pw, buf, size, &res);
			if (res) {
				found = true;
				*id = (uint32_t)res->pw_uid;
			}
		}
		free(buf);
		if (err == ERANGE && size < (1u << 20)) {
			size *= 4;
			continue;
		}
		if (found) {
			return 1;
		}
		/* glibc reports "no such name" as 0 or as one of these. */
		if (err == 0 || err == ENOENT || err == ESRCH || err == EBADF || err == EPERM) {
			return 0;
		}
		errno = err;
		return -1;
	}
}
