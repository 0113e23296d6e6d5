/**
 * output.h: a buffered writer for the paths the CLI prints.
 *
 * stdio would do, but a writer we own lets us use one large buffer, write(2)
 * directly and remember the first write error for the exit status.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_OUTPUT_H
#define LF_OUTPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct lf_colors;
struct lf_hyperlink;

struct lf_out {
	int fd;
	int err;    /**< first write error (errno), or 0 */
	bool tty;   /**< a terminal: -print shows undisplayable bytes as '?' */
	const struct lf_colors *colors; /**< names are colored with this table (color.h), or NULL */
	const struct lf_hyperlink *links; /**< colored names are links (hyperlink.h), or NULL */
	size_t len;
	size_t cap;
	char *buf;
};

/**
 * Prepare @o to write to @fd.
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_out_init(struct lf_out *o, int fd);

/**
 * Prepare @o to collect what is written in memory (o->buf, o->len), growing
 * the buffer as needed; lf_out_flush() makes room then (ENOMEM: o->err).
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_out_init_mem(struct lf_out *o);

/** Write any buffered bytes.  @return 0, or -1 with o->err set. */
int lf_out_flush(struct lf_out *o);

/**
 * Append a printf-style text.
 * @return the bytes appended, or -1 with errno set (EOVERFLOW for a width
 *         past INT_MAX, ENOMEM)
 */
int lf_out_vprintf(struct lf_out *o, const char *fmt, va_list ap);

/** Flush and free the buffer.  @return 0, or -1 if any write failed. */
int lf_out_close(struct lf_out *o);

/**
 * Write @len bytes of a name for a terminal: what cannot be displayed in
 * the current locale becomes '?' (lf_qmark()), printable ASCII goes as it
 * is without a look at the locale.
 */
void lf_out_write_displayable(struct lf_out *o, const char *s, size_t len);

/** Append @len bytes; after a write error, everything is dropped. */
static inline void lf_out_write(struct lf_out *o, const char *data, size_t len)
{
	extern void lf_out_write_slow(struct lf_out *o, const char *data, size_t len);
	if (o->cap - o->len >= len) {
		__builtin_memcpy(o->buf + o->len, data, len);
		o->len += len;
	} else {
		lf_out_write_slow(o, data, len);
	}
}

/**
 * Append a file name for a terminal, as GNU find does: bytes or characters
 * the locale of @ctx (ctx.h) cannot display become '?' (prim_output.c).
 */
struct lf_ctx;
void lf_out_write_name_tty(const struct lf_ctx *ctx, struct lf_out *o, const char *name, size_t len);

/**
 * Append the path of @e in the colors of o->colors (color.h), shown as on
 * a terminal, in the locale of @ctx (prim_output.c).
 */
struct lf_entry;
void lf_out_write_entry_colored(const struct lf_ctx *ctx, struct lf_out *o, struct lf_entry *e);

/** Append one byte. */
static inline void lf_out_putc(struct lf_out *o, char c)
{
	if (o->len == o->cap) {
		lf_out_flush(o);
	}
	if (o->len < o->cap) {
		o->buf[o->len++] = c;
	}
}

#endif
