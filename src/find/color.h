/**
 * color.h: colored output, as bfs 4 and GNU ls color file names.
 *
 * The table comes from LS_COLORS in GNU ls's format (dir_colors(5)):
 * "di=01;34:ln=target:*.c=01;33", over GNU ls's built-in defaults (those
 * `ls --color` uses when LS_COLORS is unset); a key LS_COLORS does not name
 * keeps its default, as in ls.  Extensions match as in GNU ls 9.1: ASCII
 * case does not matter, and of two extensions a name ends with, the one
 * given last wins.  Besides ls's keys, bfs's bld, wrn and err color
 * messages.
 *
 * Coloring a name costs no stat unless the table needs what d_type cannot
 * say (bfs's rule): su, sg, ex and mh need the mode or link count of
 * regular files, tw, ow and st the mode of directories, or of a broken
 * link, and ln=target the type of a link's target; ca reads a regular
 * file's security.capability.  The table lives in the context
 * (lf_ctx_colors), parsed once; writers of colored text are lf_out's.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_COLOR_H
#define LF_COLOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output.h"
#include "walk.h"

struct lf_ctx;
struct lf_colors;

/** When output is colored (-color, -nocolor, or neither). */
enum lf_color_mode {
	LF_COLOR_NEVER = 0, /**< -nocolor, a non-empty NO_COLOR, or an embedder's default */
	LF_COLOR_AUTO,      /**< on a terminal */
	LF_COLOR_ALWAYS,    /**< -color: standard output and error, terminals or not */
};

/** Keys of the table that are not file types (messages). */
enum lf_color_key {
	LF_COLOR_BOLD, /**< bld: the program name of a message, a bad argument */
	LF_COLOR_WARN, /**< wrn: "warning:" */
	LF_COLOR_ERR,  /**< err: the program name of an error, the carets under an argument */
	LF_COLOR_DIR,  /**< di */
};

/**
 * Parse @ls_colors (NULL or "": the defaults alone) into a new table.
 * @return 0 with *@out set, or -1 with errno set (EINVAL: a value ends in
 *         a lone '\' or '^'; ENOMEM)
 */
int lf_colors_parse(const char *ls_colors, struct lf_colors **out);

/** Free @c (NULL is fine). */
void lf_colors_free(struct lf_colors *c);

/**
 * The table of @ctx, parsed from LS_COLORS on first use.
 * @return the table, or NULL with errno set (lf_colors_parse's)
 */
const struct lf_colors *lf_ctx_colors(struct lf_ctx *ctx);

/**
 * Whether writing to a stream with @mode is colored: @tty says whether it
 * is a terminal; @file: it is a -fprint file, colored only on a terminal.
 */
static inline bool lf_color_wanted(enum lf_color_mode mode, bool tty, bool file)
{
	return mode == LF_COLOR_ALWAYS ? (!file || tty) : mode == LF_COLOR_AUTO && tty;
}

/**
 * Write to @fp the sequence that starts color @key (lc, the key's value,
 * rc); nothing when @c is NULL or the key has no color.
 */
void lf_color_fstart(const struct lf_colors *c, FILE *fp, enum lf_color_key key);

/** Write to @fp the sequence that ends color @key (ec, or lc rs rc), if it has one. */
void lf_color_fend(const struct lf_colors *c, FILE *fp, enum lf_color_key key);

/**
 * How the text of a name is written between its color sequences; NULL
 * means with '?' for what the locale in force cannot display (lf_qmark),
 * so that a name cannot write escape sequences of its own.
 */
typedef void lf_color_put_fn(struct lf_out *o, const char *s, size_t len);

/**
 * Write @len bytes of @s, the path of @e or a part of it, colored as bfs
 * colors paths: the bytes before @nameoff as a directory (di), the rest in
 * the color of @e.
 */
void lf_color_write_path(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, const char *s,
			 size_t len, size_t nameoff, lf_color_put_fn *put);

/** The path of @e, colored (lf_color_write_path of all of it). */
void lf_color_write_entry(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, lf_color_put_fn *put);

/** Write @s (@len bytes) in the color of @key. */
void lf_color_write_text(const struct lf_colors *c, struct lf_out *o, enum lf_color_key key, const char *s,
			 size_t len, lf_color_put_fn *put);

/**
 * Write @target, the target of the symbolic link @e, colored as what it
 * leads to (mi, or or, when it leads nowhere), as bfs colors it.
 */
void lf_color_write_target(const struct lf_colors *c, struct lf_out *o, struct lf_entry *e, const char *target,
			   lf_color_put_fn *put);

/** Write the start of the "normal" color (no) if the table has one: -ls's text. */
void lf_color_write_normal(const struct lf_colors *c, struct lf_out *o);

/** Write the end of a color after lf_color_write_normal, if it wrote one. */
void lf_color_write_normal_end(const struct lf_colors *c, struct lf_out *o);

#endif
