/**
 * printf.h: -printf formats: compiled once into a program, rendered for an
 * entry into a buffered stream (printf.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PRINTF_H
#define LF_PRINTF_H

#include <stdbool.h>

#include "expr.h"
#include "output.h"
#include "parse.h"

struct lf_parser;

/** A compiled format. */
struct lf_printf;

/** Where a format is rendered. */
struct lf_printf_out {
	struct lf_out *o;
	bool tty;   /**< a terminal: names are shown with '?' for what cannot be */
	/** Called when a directive cannot be written (EOVERFLOW, ENOMEM). */
	void (*error)(void *arg, int err);
	void *arg;
};

/**
 * Compile @format, argument @argoff of the primary being parsed by @p
 * (warnings and errors are reported against it, as GNU words them).
 * @return 0 with *@out set, or -1 after reporting an error
 */
int lf_printf_compile(struct lf_parser *p, int argoff, const char *format, struct lf_printf **out);

/** Whether rendering needs the walk's stat data of every entry. */
bool lf_printf_needs_stat(const struct lf_printf *f);

/** Whether rendering may stat some entries (%Y on symbolic links). */
bool lf_printf_may_stat(const struct lf_printf *f);

/** Whether the format has %Y, the type of a link's target. */
bool lf_printf_reads_target(const struct lf_printf *f);

/**
 * Render @f for ev->entry into @out: @st is the walk's stat data of the
 * entry when lf_printf_needs_stat(), else NULL.  Failures of a directive
 * (a link that cannot be read...) are reported to the context of @ev.
 */
void lf_printf_render(const struct lf_printf *f, struct lf_eval *ev, const struct lf_stat *st,
		      const struct lf_printf_out *out);

/** Free @f (NULL is fine). */
void lf_printf_free(struct lf_printf *f);

#endif
