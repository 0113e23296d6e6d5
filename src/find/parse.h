/**
 * parse.h: find's command line (options, paths, expression) into a plan.
 *
 * The grammar is GNU find's: leading -H/-L/-P, then paths up to the first
 * argument that looks like an expression, then an expression of primaries
 * joined by ( ) ! -not -a -and -o -or , with the usual precedence and an
 * implicit -a.  Without an action, -print is implied.
 *
 * Two entry points share the grammar, the primaries and the messages:
 * lf_parse() for the command line, and lf_parse_find() for an embedder (the
 * Lua binding's luafind.find) that gives the roots apart from the
 * expression.  This file and everything it parses into needs no Lua: the
 * -lua primary is a row that the executable registers in its context with
 * lf_ctx_add_primaries(), seen by lf_parse() only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PARSE_H
#define LF_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "ctx.h"
#include "expr.h"

#include "walk.h"

/** What the command line asks for. */
struct lf_cmdline {
	struct lf_ctx *ctx; /**< the context it was parsed with, borrowed */
	struct lf_walk_opts opts;
	const char **roots; /**< owned array of borrowed argv strings */
	size_t nroots;
	struct lf_expr *expr;
	bool debug_help; /**< -D help was given: nothing else runs */
	unsigned debug;  /**< GNU's -D flags: accepted, no debug output yet */
	bool warn;    /**< GNU's -warn/-nowarn (default: stdin is a terminal) */
	bool delete;  /**< -delete appears: roots that resolve to / are refused */
	bool ignore_race; /**< -ignore_readdir_race: vanished files are not errors */
	bool noerror; /**< -noerror (bfs): errors about the files walked are counted, not reported */
	bool unique;  /**< -unique (bfs): a file seen before is left out (an -exclude, lf_eval_unique) */
	struct timespec start;     /**< when the run started: find's "now" */
	struct timespec day_start; /**< origin of -mtime & co (GNU's cur_day_start) */
	bool full_days;            /**< -daystart was given */
	int regextype;             /**< -regextype in force (prim_tests.c) */
	const char *files0_from;   /**< -files0-from FILE: the roots, NUL-separated ("-": stdin) */
	const char *first_path;    /**< the first path on the command line, or NULL */
	bool ok_stdin;             /**< -ok or -okdir appears: they read answers from stdin */
	int color;                 /**< enum lf_color_mode (color.h) of standard output and -fprint files */
	bool hyperlink;            /**< -hyperlink: colored names are OSC 8 links (hyperlink.h) */
	/**
	 * -exclude EXPR: what is excluded (the -exclude operands joined by
	 * -o), evaluated before the expression on every entry, or NULL.  With
	 * it, the walk returns the entries above -mindepth too (mindepth says
	 * which are evaluated), and -depth walks in both orders, so that a
	 * directory is excluded before its contents are read.
	 */
	struct lf_expr *exclude;
	int mindepth;              /**< -mindepth, when -exclude took the walk's */
	bool exclude_post;         /**< -exclude under -depth: directories are evaluated on their post visit */
};

struct lf_primary;

/**
 * Parse @argv.  Errors are reported to the context's reporter (error.h),
 * argi an index into @argv: the command line's reporter shows them in
 * find's words, with the arguments and a caret under the bad one.
 *
 * @return 0 on success, -1 on a usage error (exit status 1)
 */
int lf_parse(struct lf_ctx *ctx, int argc, char **argv, struct lf_cmdline *cmd);

/** Print GNU find's list of -D flags with their meanings (-D help). */
void lf_parse_debug_usage(FILE *fp);

/** Flags of lf_parse_find(). */
enum lf_parse_flags {
	/** No implied -print: the caller consumes the entries the expression is
	 *  true for.  -print prints only where it is written. */
	LF_PARSE_NO_PRINT = 1 << 0,
	/** The safe policy: the primaries with side effects beyond standard
	 *  output (lf_parse_unsafe_primary) are usage errors at parse time,
	 *  "-delete: not allowed by the safe policy", unless named in the
	 *  allow list; nothing of them runs, not even -fprint's open. */
	LF_PARSE_SAFE = 1 << 1,
	/** The expression is for records (record.h): the primaries refused on
	 *  them (lf_record_refused_primary) are usage errors at parse time,
	 *  "-delete: not available on records". */
	LF_PARSE_RECORDS = 1 << 2,
};

/**
 * Whether @name is a primary the safe policy refuses: -delete, -exec,
 * -execdir, -ok, -okdir, -fprint, -fprint0, -fprintf, -fls.
 */
bool lf_parse_unsafe_primary(const char *name);

/**
 * Parse a find expression for roots given apart from it, as an embedder
 * does.  @argv holds @argc words (NULL-terminated, as argv is), the
 * expression only, which may start with -H, -L or -P; there are no paths to
 * find in it and no luafind options (--stats...).  Roots may be any string,
 * "-x" and "(" included.  With @argc 0, cmd->expr is NULL (true for every
 * entry) unless -print is implied.
 *
 * Only the built-in primaries exist (not those added by lf_ctx_add_primaries()).
 * Errors are lf_parse()'s, reported as values to the context's reporter
 * (error.h), with argi an index into @argv and primary the primary being
 * parsed.  Warnings are off unless the expression says -warn.
 *
 * @roots (the array and the strings) and @argv (the array and the strings)
 * are borrowed: they must outlive @cmd, whose expression points into them.
 * @allow, under LF_PARSE_SAFE, is a NULL-terminated list of the refused
 * primaries to permit all the same (NULL: none), read during the call only.
 *
 * @return 0, or -1 after reporting a usage error; either way
 *         lf_cmdline_free() frees @cmd
 */
int lf_parse_find(struct lf_ctx *ctx, const char *const *roots, size_t nroots, int argc, char **argv,
		  unsigned flags, const char *const *allow, struct lf_cmdline *cmd);

/**
 * @flags (walk flags of @cmd's walk) with LF_WALK_READ_AHEAD set when the
 * query reads every directory it reaches and changes nothing (no -prune,
 * -quit, -exclude, -delete, -exec, -ok or -lua in any form), and the walk
 * would use it (not sorted, -xdev, -gitignore or -L); cleared otherwise.
 * lf_parse() and lf_parse_find() apply it to cmd->opts.flags; a caller that
 * changes those flags afterwards (luafind.find's sort) asks again.
 */
unsigned lf_cmdline_walk_flags(const struct lf_cmdline *cmd, unsigned flags);

/** Free what lf_parse() or lf_parse_find() allocated. */
void lf_cmdline_free(struct lf_cmdline *cmd);

#endif
