/**
 * primary.h: how a family of find primaries plugs into the parser.
 *
 * Each family (tests, output actions, -exec...) lives in its own file and
 * registers its struct lf_primary rows in a context (ctx.h) when the
 * context is made: the registry is the context's, not a global table.
 * The parser looks names up in the registry, checks that enough
 * arguments follow, and calls the row's parse function, which builds the
 * node (lf_parse_node) and fills in its arguments.  Errors are reported with
 * lf_parse_error, which shows the command line with a caret under the
 * offending argument, as GNU find's messages name it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PRIMARY_H
#define LF_PRIMARY_H

#include <stdbool.h>

#include "ctx.h"
#include "expr.h"

struct lf_parser;
struct lf_primary;
struct lf_cmdline;

/** What a primary is, for -print implication and GNU's warnings. */
enum lf_prim_kind {
	LF_PRIM_OPTION,        /**< global option: true, warns after tests */
	LF_PRIM_POSITIONAL,    /**< positional option (-daystart): true */
	LF_PRIM_TEST,
	LF_PRIM_ACTION,        /**< suppresses the implied -print */
	LF_PRIM_ACTION_PRINTS, /**< an action that keeps it (-prune, -quit) */
};

/**
 * Builds the node of one primary.  @args points at the arguments after the
 * primary's name (a NULL-terminated tail of argv).
 *
 * @return the node, or NULL after reporting an error with lf_parse_error()
 */
typedef struct lf_expr *lf_parse_fn(struct lf_parser *p, const struct lf_primary *prim, char **args);

/** A primary that takes its arguments up to a terminator (-exec ... ;). */
#define LF_NARGS_VARIADIC (-1)

/** Whether evaluating a primary stats the entry (false and true work too). */
enum lf_stat_use {
	LF_STAT_NONE = 0,  /**< never */
	LF_STAT_MAYBE = 1, /**< for some entries: ordered after cheap tests */
	LF_STAT_EVERY = 2, /**< for every entry (-size, -mtime...): also ordered after */
};

/** One row of a family's table. */
struct lf_primary {
	const char *name;       /**< "-name" */
	enum lf_prim_kind kind;
	int nargs;              /**< arguments it takes, or LF_NARGS_VARIADIC */
	lf_parse_fn *parse;
	lf_eval_fn *eval;
	enum lf_stat_use needs_stat;
};

/**
 * Register a family's rows in @ctx (lf_ctx_add_primaries), one function per
 * family: parse.c, prim_tests.c, prim_output.c, prim_exec.c (the
 * executable adds -lua, src/cli/prim_lua.h).
 * @return 0, or -1 with errno set (ENOMEM)
 */
int lf_prims_core_add(struct lf_ctx *ctx);
int lf_prims_tests_add(struct lf_ctx *ctx);
int lf_prims_output_add(struct lf_ctx *ctx);
int lf_prims_exec_add(struct lf_ctx *ctx);

/** The context of the command line being parsed. */
struct lf_ctx *lf_parser_ctx(struct lf_parser *p);

/**
 * A new node for @prim with its eval function, kind and name set.
 * @return the node, or NULL after reporting ENOMEM
 */
struct lf_expr *lf_parse_node(struct lf_parser *p, const struct lf_primary *prim);

/** The command line being filled in (walk options, flags). */
struct lf_cmdline *lf_parser_cmdline(struct lf_parser *p);

/** Whether warnings are on (-warn, or standard input is a terminal). */
bool lf_parser_warn(const struct lf_parser *p);

/**
 * For a LF_NARGS_VARIADIC primary: how many arguments after its name it
 * consumed (terminator included).  Must be called before returning a node.
 */
void lf_parser_consume(struct lf_parser *p, int n);

/**
 * Report a usage error: "luafind: MESSAGE", then the command line with a
 * caret under argument @argoff of the primary being parsed (0 is the
 * primary's name, 1 its first argument...).
 */
void lf_parse_error(struct lf_parser *p, int argoff, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * lf_parse_error() for a message that names the primary itself, as many of
 * GNU find's do ("invalid argument `x' to `-mtime'"): the error value says
 * so (names_primary), and hosts that show the primary before a message
 * leave it out.
 */
void lf_parse_error_named(struct lf_parser *p, int argoff, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
