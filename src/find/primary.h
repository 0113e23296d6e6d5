/**
 * primary.h: how a family of find primaries plugs into the parser.
 *
 * Each family (tests, output actions, -exec...) lives in its own file and
 * exports a table of struct lf_primary rows ending with a row whose name is
 * NULL.  The parser looks names up in every table, checks that enough
 * arguments follow, and calls the row's parse function, which builds the
 * node (lf_parse_node) and fills in its arguments.  Errors are reported with
 * lf_parse_error, which shows the command line with a caret under the
 * offending argument, as GNU find's messages name it.
 */
#ifndef LF_PRIMARY_H
#define LF_PRIMARY_H

#include <stdbool.h>

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
	const char *name;       /**< "-name"; NULL ends a table */
	enum lf_prim_kind kind;
	int nargs;              /**< arguments it takes, or LF_NARGS_VARIADIC */
	lf_parse_fn *parse;
	lf_eval_fn *eval;
	enum lf_stat_use needs_stat;
};

/** The tables, one per family. */
extern const struct lf_primary lf_prims_core[];   /* parse.c */
extern const struct lf_primary lf_prims_tests[];  /* prim_tests.c */
extern const struct lf_primary lf_prims_output[]; /* prim_output.c */
extern const struct lf_primary lf_prims_exec[];   /* prim_exec.c */
extern const struct lf_primary lf_prims_lua[];    /* prim_lua.c */

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

/** Run cmd->script in the CLI's Lua state; returns the exit status. */
int lf_cli_run_script(struct lf_cmdline *cmd);

/**
 * --run NAME [ARG...] and --list-scripts: hand over to the Lua runner
 * (lua/luafind/runner.lua) with the script directories, first match wins:
 * $XDG_DATA_HOME/luafind/scripts (or ~/.local/share/...), beside the
 * executable (../share/luafind/scripts), the source tree, the install prefix.
 * Returns the exit status.
 */
int lf_cli_run_named(struct lf_cmdline *cmd);

/** Close the Lua state of -lua and --script, after the expression is freed. */
void lf_cli_close_lua(struct lf_cmdline *cmd);

#endif
