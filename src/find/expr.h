/**
 * expr.h: find expressions as a tree evaluated in C.
 *
 * Every node carries its evaluation function, as bfs does, so adding a
 * primary is writing one eval_* function and one parser table row.  The
 * operators short-circuit, and a primary that needs stat data asks the core
 * for it (lazily, cached per entry) only when evaluation reaches it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_EXPR_H
#define LF_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "output.h"
#include "stat.h"
#include "walk.h"

struct lf_expr;

struct lf_cmdline;
struct lf_hyperlink;
struct lf_idset;

/** Per-entry evaluation state. */
struct lf_eval {
	struct lf_walk *walk;
	struct lf_entry *entry;
	struct lf_out *out;
	const struct lf_cmdline *cmd;
	struct lf_hyperlink *links; /**< -hyperlink's, read at the start of the run (lf_run_init), or NULL */
	int status; /**< becomes 1 when anything fails, as find's exit status */
	bool quit;  /**< set by -quit: stop the walk after this entry */
	bool stop;  /**< a fatal error (a -lua runtime error): stop at once */
	bool entry_failed; /**< a test failed for this entry only (-lua-errors skip):
			    *   its evaluation ends, false; the walk goes on */
	unsigned long long seq;          /**< number of the current entry */
	unsigned long long stat_err_seq; /**< entry whose stat error was reported */
	unsigned long long walk_err_seq; /**< the last error entry (lf_eval_walk_error) */
	size_t walk_err_pathlen;         /**< its path's length */
	int walk_err;                    /**< its errno */
	unsigned long long suppressed;   /**< errors -noerror kept quiet */
	bool quiet_failure;              /**< -noerror kept an error of this entry quiet
					  *   (lf_run_entry resets it) */
	struct lf_idset *seen;           /**< -unique: the files seen so far, made when
					  *   -unique first needs it; the run's (lf_run_free) */
	/**
	 * NULL, or the roots' names, indexed by entry->root, for %H and %P in
	 * place of the walker's (lf_walk_root): for a host whose walkers start
	 * below the roots (luafind-mpi walks a shared directory as a root).
	 */
	const char *const *roots;
};

/**
 * -noerror (bfs): whether an error about the entry evaluated (a file that
 * cannot be read, stat'ed, deleted...) must be kept quiet.  If so it is
 * counted (ev->suppressed) and the entry failed all the same
 * (ev->quiet_failure: lf_run_entry says LF_RUN_FAILED), and the exit status
 * is 1 (bfs leaves it 0); if not, the caller reports it and makes the
 * status 1.
 */
bool lf_eval_noerror(struct lf_eval *ev);

/**
 * Report error @err about the file @path (@len bytes) of the entry
 * evaluated, "'path': reason" (LF_ERROR_FILE), after the output so far, and
 * make the status 1; under -noerror, only count it (lf_eval_noerror).
 */
void lf_eval_file_error(struct lf_eval *ev, const char *path, size_t len, int err);

/** lf_eval_file_error() with words before the path: "cannot delete 'path': reason". */
void lf_eval_file_error_in(struct lf_eval *ev, const char *before, const char *path, size_t len, int err);

/**
 * Note the current entry, an LF_VISIT_ERROR entry the driver reports: a
 * directory that could not be opened gets its post-order visit next, and a
 * stat failing there for the same reason is the same error, not reported
 * again (see lf_eval_stat).
 */
void lf_eval_walk_error(struct lf_eval *ev);

/**
 * The current entry's stat data as the walk follows links, or NULL after
 * reporting the failure (once per entry; a vanished file is not reported
 * under -ignore_readdir_race) and setting ev->status.  A directory whose
 * stat failed is not entered (as GNU find and bfs do): its open would fail
 * for the same reason and report it again.
 */
const struct lf_stat *lf_eval_stat(struct lf_eval *ev);

/** Evaluates a node for the current entry; returns its truth value. */
typedef bool lf_eval_fn(const struct lf_expr *x, struct lf_eval *ev);

/** Runs once after the walk (flush -exec + batches, close files). */
typedef void lf_finish_fn(struct lf_expr *x, struct lf_eval *ev);

enum lf_expr_kind {
	LF_EXPR_PRIMARY = 0,
	LF_EXPR_NOT,
	LF_EXPR_AND,
	LF_EXPR_OR,
	LF_EXPR_COMMA,
};

/**
 * The shape of a tree, which its recursive passes (evaluation, freeing,
 * the parser's) rely on: a chain of one binary operator leans right, "a -a
 * (b -a (c -a d))", and is walked in a loop; "!" never directly holds
 * "!".  A pass recurses only into a left operand, or a right one of
 * another operator, so that it needs stack for the nesting of operators,
 * not for the length of a chain: the depth of a primary is 1, of "!" one
 * more than its operand's, of a chain one more than its deepest operand's.
 *
 * The parser refuses a tree deeper than this ("expression nested too
 * deeply"); the -exclude operands and an implied -print may add a level.
 * Parentheses add none ("( ( -true ) )" is -true), nor do repeated
 * operators ("-true -a ( -true -a ( ..." is one chain, "! ! x" is x):
 * only a change of operator does, as in "a -o ( b -a ( c -o ( ...".
 * The deepest pass (measured on x86-64 with gcc 12, compiling and running
 * a query, release and AddressSanitizer builds alike) takes 80 bytes of
 * stack a level: 1000 levels take 80 KiB, which leaves most of a thread's
 * 256 KiB stack (or even musl's default of 128 KiB) to the host and to
 * what the primaries at the leaves need.
 */
#define LF_EXPR_MAX_DEPTH 1000

/** One node. */
struct lf_expr {
	lf_eval_fn *eval;
	enum lf_expr_kind kind;
	struct lf_expr *lhs, *rhs; /**< operands (rhs NULL for "!") */
	const char *name;          /**< the primary as written, for messages */
	bool is_action;            /**< has a side effect that suppresses -print */
	const char *str;           /**< a primary's string argument (pattern...) */
	unsigned mask;             /**< a primary's set of flags or types */
	long long num;             /**< a primary's number */
	int cmp;                   /**< -1, 0, +1 for -N, N, +N arguments */
	struct timespec ref;       /**< a reference time (-newer, -mtime...) */
	bool needs_stat;           /**< evaluation may stat (for reordering) */
	bool stats_every;          /**< evaluation stats every entry (-size...) */
	bool syscall;              /**< evaluation makes a system call of its own for each entry
				    *   (-xattr, -acl...): ordered after the tests that stat */
	bool impure;               /**< has effects beyond its value (-lua): never reordered */
	void *data;                /**< a primary's own state, freed by destroy */
	void (*destroy)(void *data);
	lf_finish_fn *finish;      /**< called once after the walk, if set */
	lf_finish_fn *enter;       /**< called as the walk reaches each entry, if set */
};

/** Allocate a node; NULL with errno set on failure. */
struct lf_expr *lf_expr_new(lf_eval_fn *eval, enum lf_expr_kind kind, const char *name);

/** Free a tree (NULL is fine). */
void lf_expr_free(struct lf_expr *x);

/** Evaluate @x for ev->entry. */
static inline bool lf_expr_eval(const struct lf_expr *x, struct lf_eval *ev)
{
	return x->eval(x, ev);
}

/**
 * The nodes that have an enter hook, in evaluation order: a malloc'ed
 * array of *@n (NULL if none).  The caller calls each node's hook as the walk
 * reaches an entry (error entries included), before evaluating it.
 */
struct lf_expr **lf_expr_enter_list(struct lf_expr *x, size_t *n);

/** Call every node's finish hook, after the walk. */
void lf_expr_finish(struct lf_expr *x, struct lf_eval *ev);

/** Whether any node of @x is an action (so no -print is implied). */
bool lf_expr_has_action(const struct lf_expr *x);

/* The evaluation functions of the operators and primaries. */
lf_eval_fn lf_eval_not, lf_eval_and, lf_eval_or, lf_eval_comma;
lf_eval_fn lf_eval_true, lf_eval_false;
lf_eval_fn lf_eval_print, lf_eval_print0, lf_eval_prune, lf_eval_quit, lf_eval_limit;
lf_eval_fn lf_eval_name, lf_eval_hidden, lf_eval_type, lf_eval_delete, lf_eval_unique;

/**
 * Whether the shell pattern of -name, -iname, -path, -lname... (x->str)
 * matches @subject under fnmatch @flags, in the user's locale as GNU find
 * matches it (or in C where that is the same: x->num, set when parsed,
 * prim_tests.c).
 */
bool lf_pattern_match(const struct lf_expr *x, const struct lf_eval *ev, const char *subject, int flags);

/**
 * The name find's tests see: the last component of the path, or for a root
 * the path without trailing slashes ("/" for a root of slashes only).
 * Writes into @buf when the path must be trimmed.
 */
const char *lf_expr_basename(const struct lf_entry *e, char *buf, size_t size);

#endif
