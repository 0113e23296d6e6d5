/*
 * output.c: the buffered writer behind -print and friends.
 */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUFSIZE (64 * 1024)

int lf_out_init(struct lf_out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->tty = isatty(fd);
	o->len = 0;
	o->cap = OUT_BUFSIZE;
	o->buf = malloc(OUT_BUFSIZE);
	return o->buf ? 0 : -1;
}

int lf_out_flush(struct lf_out *o)
{
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

int lf_out_close(struct lf_out *o)
{
	int r = lf_out_flush(o);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
	return r;
}
