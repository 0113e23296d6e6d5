/**
 * parse.h: find's command line (options, paths, expression) into a plan.
 *
 * The grammar is GNU find's: leading -H/-L/-P, then paths up to the first
 * argument that looks like an expression, then an expression of primaries
 * joined by ( ) ! -not -a -and -o -or , with the usual precedence and an
 * implicit -a.  Without an action, -print is implied.
 */
#ifndef LF_PARSE_H
#define LF_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "expr.h"

struct lua_State;
#include "walk.h"

/** What the command line asks for. */
struct lf_cmdline {
	struct lf_walk_opts opts;
	const char **roots; /**< owned array of borrowed argv strings */
	size_t nroots;
	struct lf_expr *expr;
	bool stats;   /**< --stats: print the core's counters at the end */
	bool help;    /**< --help was given: nothing else runs */
	bool version; /**< --version was given */
	bool warn;    /**< GNU's -warn/-nowarn (default: stdin is a terminal) */
	bool delete;  /**< -delete appears: roots that resolve to / are refused */
	bool ignore_race; /**< -ignore_readdir_race: vanished files are not errors */
	struct timespec start;     /**< when the run started: find's "now" */
	struct timespec day_start; /**< origin of -mtime & co (GNU's cur_day_start) */
	bool full_days;            /**< -daystart was given */
	int regextype;             /**< -regextype in force (prim_tests.c) */
	struct lua_State *lua;     /**< shared by -lua and --script, or NULL */
	const char *script;        /**< --script FILE: run it instead of a walk */
	const char *run_name;      /**< --run NAME: a bundled or user script */
	bool list_scripts;         /**< --list-scripts */
	int script_argc;           /**< the script's arguments */
	char **script_argv;
};

/**
 * Parse @argv.  Errors are reported on stderr in find's words.
 *
 * @return 0 on success, -1 on a usage error (exit status 1)
 */
int lf_parse(int argc, char **argv, struct lf_cmdline *cmd);

/** Free what lf_parse() allocated. */
void lf_cmdline_free(struct lf_cmdline *cmd);

#endif
