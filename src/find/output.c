/*
 * output.c: the buffered writer behind -print and friends.
 *
 * SPDX-License-Identifier: MIT
 */
#include "output.h"
#include "names.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUFSIZE (64 * 1024)

int lf_out_init(struct lf_out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->tty = isatty(fd);
	o->colors = NULL;
	o->links = NULL;
	o->len = 0;
	o->cap = OUT_BUFSIZE;
	o->buf = malloc(OUT_BUFSIZE);
	return o->buf ? 0 : -1;
}

int lf_out_init_mem(struct lf_out *o)
{
	o->fd = -1;
	o->err = 0;
	o->tty = false;
	o->colors = NULL;
	o->links = NULL;
	o->len = 0;
	o->cap = 256;
	o->buf = malloc(o->cap);
	return o->buf ? 0 : -1;
}

int lf_out_flush(struct lf_out *o)
{
	if (o->fd < 0) {
		/* A writer in memory: make room instead (json.c wants 64 bytes). */
		if (o->cap - o->len >= 64 && !o->err) {
			return 0;
		}
		char *nbuf = o->err ? NULL : realloc(o->buf, o->cap * 2);
		if (!nbuf) {
			o->err = o->err ? o->err : ENOMEM;
			o->len = 0;
			return -1;
		}
		o->buf = nbuf;
		o->cap *= 2;
		return 0;
	}
	size_t done = 0;
	while (done < o->len && !o->err) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			o->err = errno;
		} else {
			done += (size_t)n;
		}
	}
	o->len = 0;
	return o->err ? -1 : 0;
}

void lf_out_write_slow(struct lf_out *o, const char *data, size_t len)
{
	while (len > 0) {
		if (o->len == o->cap && lf_out_flush(o) != 0) {
			return;
		}
		size_t n = o->cap - o->len < len ? o->cap - o->len : len;
		memcpy(o->buf + o->len, data, n);
		o->len += n;
		data += n;
		len -= n;
	}
}

int lf_out_vprintf(struct lf_out *o, const char *fmt, va_list ap)
{
	char small[256];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= 0 && (size_t)n < sizeof(small)) {
		lf_out_write(o, small, (size_t)n);
	} else if (n >= 0) {
		char *big = malloc((size_t)n + 1);
		if (big) {
			vsnprintf(big, (size_t)n + 1, fmt, ap2);
			lf_out_write(o, big, (size_t)n);
			free(big);
		} else {
			errno = ENOMEM;
			n = -1;
		}
	}
	va_end(ap2);
	return n;
}

int lf_out_close(struct lf_out *o)
{
	int r = lf_out_flush(o);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
	return r;
}

void lf_out_write_displayable(struct lf_out *o, const char *s, size_t len)
{
	/* Printable ASCII shows in every locale: no need for lf_qmark's
	 * mbrtowc and wcwidth on each character, which cost 2 us a name. */
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		/* A byte below 0x20 or above 0x7e among eight (hasless, and
		 * +1 setting the top bit of 0x7f and above). */
		uint64_t x, ones = 0x0101010101010101u, high = 0x8080808080808080u;
		memcpy(&x, s + i, 8);
		if (((x - 0x20 * ones) & ~x & high) || ((x + ones) | x) & high) {
			break;
		}
	}
	while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
		i++;
	}
	if (i == len) {
		lf_out_write(o, s, len);
		return;
	}
	char small[512];
	char *copy = len <= sizeof(small) ? small : malloc(len);
	if (!copy) {
		lf_out_write(o, s, len);
		return;
	}
	memcpy(copy, s, len);
	lf_out_write(o, copy, lf_qmark(copy, len));
	if (copy != small) {
		free(copy);
	}
}
