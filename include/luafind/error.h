/**
 * error.h: errors of the find library as values.
 *
 * Nothing below the command line prints: a problem found while parsing an
 * expression or evaluating it for an entry is handed to the context's
 * reporter (lf_ctx_set_reporter) as a struct lf_error.  The command line's
 * reporter prints it in find's words ("luafind: MESSAGE", with the command
 * line and a caret under a bad argument); the Lua binding turns it into a
 * Lua value; a C host does what it likes.  Without a reporter, a context
 * keeps its errors for the host to take (lf_ctx_errors, query.h) and
 * prints nothing; lf_report_stderr prints them as find does.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_ERROR_H
#define LUAFIND_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What kind of problem. */
enum lf_error_kind {
	/** The expression or command line is wrong (parse time). */
	LF_ERROR_USAGE = 1,
	/** A usage error naming a primary that does not exist. */
	LF_ERROR_UNKNOWN_PRIMARY,
	/** A hint that follows another error ("did you mean `-name'?"). */
	LF_ERROR_NOTE,
	/** A warning: nothing failed (GNU find's -warn messages...). */
	LF_ERROR_WARNING,
	/** A file could not be read, stat'ed, deleted...: path and errnum say which and why. */
	LF_ERROR_FILE,
	/** A test or action failed at run time (a command, a write, a look-up). */
	LF_ERROR_RUNTIME,
};

/** One problem.  Everything it points to lives only during the report. */
struct lf_error {
	enum lf_error_kind kind;
	/** The whole message, as find words it, without the program name or
	 *  the "warning: " prefix: "'a/b': Permission denied". */
	const char *message;
	/** Its length: it may hold a NUL byte, as some of GNU find's do. */
	size_t length;
	/** The file concerned, or NULL; not NUL-terminated (pathlen bytes). */
	const char *path;
	size_t pathlen;
	/** The errno behind it, or 0. */
	int errnum;
	/** For a usage error: the index, in the argv given to the parser, of
	 *  the argument concerned; -1 when none is. */
	int argi;
	/** For a usage error inside a primary's arguments: the primary
	 *  ("-perm"), or NULL. */
	const char *primary;
	/** Whether the message names the primary already ("invalid argument
	 *  `x' to `-mtime'"): a host that shows "PRIMARY: MESSAGE" need not. */
	bool names_primary;
};

/** A reporter: called once per problem, in order. */
typedef void lf_report_fn(void *arg, const struct lf_error *err);

#ifdef __cplusplus
}
#endif

#endif
