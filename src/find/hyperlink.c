/*
 * hyperlink.c: OSC 8 file:// links around names (hyperlink.h).
 *
 * The terminator is ST (ESC \), as the OSC 8 specification writes it and
 * fd does; GNU ls 9.1 ends with BEL instead, which terminals take too.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "hyperlink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lf_hyperlink {
	char *host;     /* percent-encoded; "" when unknown */
	size_t hostlen;
	char *cwd;      /* percent-encoded, without a trailing slash ("" for /); NULL when unknown */
	size_t cwdlen;
	int cwd_err;
};

static const char start_seq[] = "\033]8;;file://";
static const char end_seq[] = "\033]8;;\033\\";

/* RFC 3986's unreserved characters, and '/'. */
static bool kept(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
	       c == '_' || c == '~' || c == '/';
}

size_t lf_hyperlink_encode(char *dst, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	char *d = dst;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (kept(c)) {
			*d++ = (char)c;
		} else {
			d[0] = '%';
			d[1] = hex[c >> 4];
			d[2] = hex[c & 15];
			d += 3;
		}
	}
	return (size_t)(d - dst);
}

/* A percent-encoded copy of @s (@len bytes), or NULL (ENOMEM). */
static char *encoded_copy(const char *s, size_t len, size_t *outlen)
{
	char *copy = malloc(3 * len + 1);
	if (!copy) {
		return NULL;
	}
	*outlen = lf_hyperlink_encode(copy, s, len);
	copy[*outlen] = '\0';
	return copy;
}

int lf_hyperlink_new(struct lf_hyperlink **out)
{
	struct lf_hyperlink *h = calloc(1, sizeof(*h));
	if (!h) {
		return -1;
	}
	char host[256];
	if (gethostname(host, sizeof(host)) != 0) {
		host[0] = '\0';
	}
	host[sizeof(host) - 1] = '\0';
	h->host = encoded_copy(host, strlen(host), &h->hostlen);
	if (!h->host) {
		goto fail;
	}
	errno = 0;
	char *cwd = getcwd(NULL, 0);
	if (!cwd) {
		if (errno == ENOMEM) {
			goto fail;
		}
		h->cwd_err = errno ? errno : ENOENT;
	} else if (cwd[0] != '/') {
		h->cwd_err = ENOENT; /* "(unreachable)/...": outside this process's root */
		free(cwd);
	} else {
		size_t len = strlen(cwd);
		while (len > 0 && cwd[len - 1] == '/') {
			len--;
		}
		h->cwd = encoded_copy(cwd, len, &h->cwdlen);
		free(cwd);
		if (!h->cwd) {
			goto fail;
		}
	}
	*out = h;
	return 0;
fail:
	lf_hyperlink_free(h);
	errno = ENOMEM;
	return -1;
}

void lf_hyperlink_free(struct lf_hyperlink *h)
{
	if (!h) {
		return;
	}
	free(h->host);
	free(h->cwd);
	free(h);
}

int lf_hyperlink_cwd_error(const struct lf_hyperlink *h)
{
	return h->cwd_err;
}

/* Write @len bytes of @s percent-encoded, a piece at a time. */
static void put_encoded(struct lf_out *o, const char *s, size_t len)
{
	char buf[3 * 128];
	while (len > 0) {
		size_t n = len < 128 ? len : 128;
		lf_out_write(o, buf, lf_hyperlink_encode(buf, s, n));
		s += n;
		len -= n;
	}
}

bool lf_hyperlink_start(const struct lf_hyperlink *h, struct lf_out *o, const char *path, size_t len)
{
	bool absolute = len > 0 && path[0] == '/';
	if (!absolute && !h->cwd) {
		return false;
	}
	size_t base = absolute ? 0 : h->cwdlen;
	size_t i = 0;
	/* Leading "." and ".." (".." of "/" is "/"). */
	for (;;) {
		while (i < len && path[i] == '/') {
			i++;
		}
		size_t j = i;
		while (j < len && path[j] != '/') {
			j++;
		}
		if (j - i == 1 && path[i] == '.') {
			i = j;
		} else if (j - i == 2 && path[i] == '.' && path[i + 1] == '.') {
			while (base > 0 && h->cwd[base - 1] != '/') {
				base--;
			}
			base -= base > 0;
			i = j;
		} else {
			break;
		}
	}
	lf_out_write(o, start_seq, sizeof(start_seq) - 1);
	lf_out_write(o, h->host, h->hostlen);
	if (base > 0) {
		lf_out_write(o, h->cwd, base);
	}
	bool any = base > 0;
	while (i < len) {
		size_t j = i;
		while (j < len && path[j] != '/') {
			j++;
		}
		if (j > i && !(j - i == 1 && path[i] == '.')) {
			lf_out_putc(o, '/');
			put_encoded(o, path + i, j - i);
			any = true;
		}
		i = j + 1;
	}
	if (!any) {
		lf_out_putc(o, '/');
	}
	lf_out_write(o, "\033\\", 2);
	return true;
}

void lf_hyperlink_end(struct lf_out *o)
{
	lf_out_write(o, end_seq, sizeof(end_seq) - 1);
}
