/**
 * ctx.h: the context of the find library: everything a run of find
 * expressions keeps besides the expression itself.
 *
 * Nothing in the library is process-global: the program name of messages,
 * where messages go, the uid/gid name cache, the mount table, the user's
 * locale for -printf and -ls, the -ls column widths, the files that -fprint
 * and its kin write (shared by every expression of the context that names
 * the same file) and the registry of primaries all live here.  A host keeps
 * one context per thread, or per Lua state (the binding does); expressions
 * parsed with a context must be freed before it.  A context is used by one
 * thread at a time.  Hosts see it through query.h, opaque.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_CTX_H
#define LF_CTX_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "error.h"
#include "idnames.h"
#include "mounts.h"
#include "query.h" /* lf_ctx_new, lf_ctx_free, lf_ctx_set_reporter: the public part */

struct lf_mem;

struct lf_colors;
struct lf_primary;
struct lf_sink;

/** The -ls columns, widened as entries need (GNU keeps them per run). */
enum lf_ls_column {
	LF_LS_INODE,
	LF_LS_BLOCKS,
	LF_LS_NLINK,
	LF_LS_OWNER,
	LF_LS_GROUP,
	LF_LS_MAJOR,
	LF_LS_MINOR,
	LF_LS_SIZE,
	LF_LS_NCOLUMNS,
};

/** Errors kept as values (lf_diag_collect, and a context without a reporter). */
struct lf_error_list {
	struct lf_error *v; /**< each with its own copies of message, path, primary */
	size_t n, cap;
	bool overflow;      /**< memory ran out: some were lost */
};

/** The errors a context without a reporter keeps at most (lf_ctx_errors). */
#define LF_CTX_KEPT_MAX 1000

struct lf_ctx {
	const char *progname;  /**< prefix of messages ("luafind"), borrowed */
	lf_report_fn *report;  /**< where errors go (error.h); NULL: kept */
	void *report_arg;
	struct lf_error_list kept; /**< without a reporter: for the host (lf_ctx_errors) */
	size_t kept_dropped;   /**< reported beyond LF_CTX_KEPT_MAX, or lost to ENOMEM */
	const char *parsing;   /**< the primary being parsed, for struct lf_error */
	FILE *msg;             /**< the message being built (lf_diag_begin) */
	char *msgbuf;
	size_t msglen;
	struct lf_idnames ids; /**< user and group names */
	struct lf_mounts mounts;
	locale_t user_locale;  /**< the user's locale for -printf, -ls, -regex (or 0) */
	bool settings_ready;   /**< user_locale, ls_now, ls_block_size are set */
	time_t ls_now;         /**< the time -ls compares dates with */
	int ls_block_size;     /**< 1024, or 512 under POSIXLY_CORRECT */
	int ls_width[LF_LS_NCOLUMNS];
	struct lf_sink *sinks; /**< open -fprint files */
	bool sigchld_said;     /**< -exec reported that SIGCHLD is ignored */
	struct lf_primary *prims; /**< the registry: built-in rows, then added ones */
	struct lf_colors *colors; /**< LS_COLORS, parsed on first use (lf_ctx_colors) */
	int colors_err;        /**< why it could not be parsed, or 0 */
	int color_stderr;      /**< enum lf_color_mode of messages on stderr (the command line's) */
	size_t nprims, nbuiltin, capprims;
	/*
	 * For strangers' expressions (a sandbox's luafind.find sets them while
	 * it parses): the memory account PCRE2's -regex compiles are charged
	 * to (NULL: none), and the expanded size a GNU -regex may reach, back-
	 * references refused (0: no bound; regex_bound.h).
	 */
	const struct lf_mem *mem;
	size_t regex_max_size;
};

/**
 * Register @n primaries (primary.h) after those already known, for
 * lf_parse() to look names up in (lf_parse_find() sees the built-in ones
 * only).  The rows are copied; their strings and functions must outlive
 * the context.  A name already registered is not added again.
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_ctx_add_primaries(struct lf_ctx *ctx, const struct lf_primary *rows, size_t n);

/**
 * Set the user's locale, -ls's "now" and block size on first use (GNU
 * reads them at start-up; a context reads them when an action first needs
 * them).
 */
void lf_ctx_settings(struct lf_ctx *ctx);

#endif
