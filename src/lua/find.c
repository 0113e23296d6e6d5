/*
 * find.c: luafind.find(), find's expression language as a filter of the
 * walk.
 *
 *	for e in lf.find(".", "-name", "*.c", "-size", "+1M") do ... end
 *	for e in lf.find({"src", "include"}, "-name '*.h' -newer Makefile") do ... end
 *
 * The expression is compiled by the command line's own front end (src/find,
 * lf_parse_find: same parser, same primaries, same messages) and evaluated
 * in C for each entry, so the entries it rejects cost no Lua at all: the
 * iterator returns only those for which it is true.  Nothing is printed
 * unless the expression says so (no implied -print); -print, -printf, -ls,
 * -exec, -delete, -quit... act as in luafind(1), writing to standard output
 * through the front end's buffer, which is flushed when the walk ends or is
 * closed, as the pending -exec ... + batches run then.
 *
 * The walker is walk()'s userdata with the front-end state attached
 * (lw->find), so find() returns what walk() returns: the iterator, the
 * walker, nil and the walker as the to-be-closed value, and the same lazy,
 * generation-checked entry views.  walk.c hands its iterator and its close
 * over to find_step() and find_close() through the walker's filter hooks.
 *
 * Parse errors are captured (diag.h) and raised as one line.  The walker's
 * error entries follow the errors= option as in walk(), but "warn" is the
 * default (reported and skipped, as luafind(1) does: a loop that counts
 * what it is given counts matches only); the messages of the
 * expression's tests and actions (a stat that fails inside -size, -delete
 * failing) go to stderr as luafind(1) prints them, or with errors="raise"
 * into the error raised.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"
#include "luafind.h"

#include "diag.h"
#include "expr.h"
#include "output.h"
#include "parse.h"
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The expanded size of a GNU -regex in a sandbox (regex_bound.h). */
#define REGEX_MAX_SIZE 100000
#define FN "luafind.find"

/* The front-end state of a find walker, owned by it (lw->find). */
struct lfb_find {
	struct lf_ctx *ctx;     /* the Lua state's (lfb_ctx) */
	struct lf_cmdline cmd;
	struct lf_run run;      /* the driver's state (run.h): entries are handed to it */
	struct lf_out out;
	char **argv;      /* the expression's words, NULL-terminated; the strings
			   * are pinned in the walker's LFB_UV_ROOTS table */
	bool raise;       /* errors = "raise": the errors of an entry are raised */
	struct lf_error_list errs; /* errors of the entry evaluated, when raise */
	bool has_cmd;     /* cmd is to be freed */
	bool has_out;
	bool started;     /* the walk is open: the finish hooks are due */
	bool quit;        /* -quit, or a fatal error: end at the next step */
	unsigned yield_gen; /* the walker's generation at the last entry handed out */
};

/* ---- closing ------------------------------------------------------------ */

/*
 * Finish and free the front-end state of a find walker: end the run
 * (lf_run_finish: pending -exec ... + batches, which run after a break too,
 * as after -quit), unless the walk never started, was cancelled or is
 * being collected (__gc only releases); free the expression.  Sets
 * lw->find_failed and lw->find = NULL.  Never raises (it runs from __close
 * and __gc).
 */
static void find_close(struct lfb_walk *lw, bool finish)
{
	struct lfb_find *f = lw->find;
	lw->find = NULL;
	lw->filter_step = NULL; /* a closed walker steps as walk()'s: to nil */
	lw->filter_close = NULL;
	if (f->has_out) {
		if (!finish || !f->started || lw->cancelled) {
			lf_run_cancel(&f->run);
		}
		fflush(stdout); /* what Lua printed so far comes first */
		lf_run_finish(&f->run);
		lf_out_close(&f->out);
	}
	lw->find_failed = f->run.ev.status != 0 || f->run.ev.suppressed;
	if (f->has_cmd) {
		lf_cmdline_free(&f->cmd);
	}
	lf_error_list_free(&f->errs);
	free(f->argv);
	lf_run_free(&f->run);
	free(f);
}

/* Whether a test or an action failed so far (quietly too, under -noerror). */
static bool find_failed(const struct lfb_walk *lw)
{
	const struct lfb_find *f = lw->find;
	return f ? f->run.ev.status != 0 || f->run.ev.suppressed : lw->find_failed;
}

/* ---- messages ----------------------------------------------------------- */

/*
 * The error of a failed parse.  The parser knows no -lua here: say why
 * rather than suggest -ls.
 */
static void push_parse_error(lua_State *L, char *const *argv, const struct lf_error_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct lf_error *e = &list->v[i];
		if (e->kind == LF_ERROR_UNKNOWN_PRIMARY && e->argi >= 0 && strcmp(argv[e->argi], "-lua") == 0) {
			struct lf_error hint = *e;
			hint.message = "unknown predicate `-lua' (-lua is luafind(1)'s; in Lua, test the entry "
				       "in the loop body)";
			hint.length = strlen(hint.message);
			struct lf_error_list one = {.v = &hint, .n = 1, .cap = 1};
			lfb_push_errors(L, &one, "", FN);
			return;
		}
	}
	lfb_push_errors(L, list, "invalid expression", FN);
}

/*
 * errors = "warn" for find(): what luafind(1) prints for an error entry,
 * after the expression's output and what Lua printed.
 */
static void warn_error(struct lfb_walk *lw, const struct lf_entry *e)
{
	lf_out_flush(&lw->find->out);
	fflush(stdout);
	lf_run_report_entry(lw->find->ctx, e);
}

/* ---- the iterator ------------------------------------------------------- */

/* Hand out the walker's current entry @e (walker at index 1). */
static int yield(lua_State *L, struct lfb_walk *lw, struct lf_entry *e)
{
	/*
	 * The walker's two entry views alternate with the parity of its
	 * generation, so that the view handed out before is a different object,
	 * left stale.  Entries the expression rejected moved the generation on
	 * too: restore the alternation.
	 */
	struct lfb_find *f = lw->find;
	if (((lw->gen ^ f->yield_gen) & 1) == 0) {
		lw->gen++;
	}
	f->yield_gen = lw->gen;
	lw->cur = e;
	lfb_push_entry(L, 1);
	return 1;
}

/* errors = "raise" after an entry whose tests or actions failed. */
static int raise_eval_error(lua_State *L, struct lfb_find *f, const struct lf_entry *e)
{
	char *fallback = NULL;
	if (asprintf(&fallback, "%.*s: an action failed", (int)e->pathlen, e->path) < 0) {
		fallback = NULL;
	}
	lfb_push_errors(L, &f->errs, fallback ? fallback : "an action failed", NULL);
	free(fallback);
	lf_error_list_free(&f->errs);
	return lua_error(L);
}

/*
 * Standard output failed: the run's report of it (once), raised as an
 * error object; the walk ends at the next step.
 */
static void raise_output_error(lua_State *L, struct lfb_find *f)
{
	f->quit = true;
	/* In f->errs, which the walker frees, should pushing the object fail. */
	lf_error_list_free(&f->errs);
	struct lf_diag_collector col;
	lf_diag_collect(f->ctx, &col, &f->errs);
	bool failed = lf_run_output_failed(&f->run);
	lf_diag_uncollect(f->ctx, &col);
	if (failed) {
		lfb_push_errors(L, &f->errs, "write error", FN);
		lf_error_list_free(&f->errs);
		lua_error(L);
	}
}

/* The iterator step (the walker at index 1, open or closed). */
static int find_step(lua_State *L, struct lfb_walk *lw)
{
	struct lfb_find *f = lw->find;
	for (;;) {
		struct lf_entry *e;
		if (!lfb_walk_advance(L, lw, f->quit, FN, &e)) {
			return 1;
		}
		lw->entries++;
		struct lf_diag_collector col;
		if (f->raise) {
			lf_diag_collect(f->ctx, &col, &f->errs);
		}
		enum lf_run_result res = lf_run_entry(&f->run, lw->w, e);
		if (f->raise) {
			lf_diag_uncollect(f->ctx, &col);
		}
		if (res == LF_RUN_SKIPPED) {
			continue;
		}
		if (res == LF_RUN_ERROR) {
			lf_error_list_free(&f->errs);
			if (f->cmd.noerror && lw->errors == LFB_ERR_WARN) {
				f->run.ev.suppressed++; /* -noerror: skipped without a word */
				continue;
			}
			if (!lfb_walk_keep_error(L, lw, e, warn_error)) {
				continue;
			}
			return yield(L, lw, e);
		}
		if (f->run.ev.quit || f->run.ev.stop) {
			f->quit = true;
		}
		if (f->out.err) {
			raise_output_error(L, f);
		}
		/* Under -noerror, a failure that said nothing skips the entry. */
		if (res == LF_RUN_FAILED && f->raise && (f->errs.n || !f->run.ev.quiet_failure)) {
			return raise_eval_error(L, f, e);
		}
		lf_error_list_free(&f->errs); /* what did not make it fail: warnings */
		if (res == LF_RUN_TRUE) {
			return yield(L, lw, e);
		}
	}
}

/* ---- find(roots, expression...) ----------------------------------------- */

struct find_args {
	size_t nroots;
	enum lfb_errors errors;
	bool sort;
	int max_fds;
	int threads; /* the threads option, 0 if unset */
	int nwords;  /* expression arguments, from stack index 2 */
	bool split;  /* one string, to split as sh would */
	int safe;    /* the safe option: -1 unset, 0 false, 1 true */
	bool allow;  /* an allow option was given (validated, read again later) */
};

/* One option of the roots table, its value on top and its name at -2. */
static void parse_option(lua_State *L, void *ud, const char *opt)
{
	struct find_args *a = ud;
	static const char *const errors[] = {"yield", "skip", "warn", "raise", NULL};
	static const struct {
		const char *opt, *instead;
	} in_expression[] = {
		{"maxdepth", "-maxdepth N"}, {"mindepth", "-mindepth N"}, {"follow", "-H, -L or -P"},
		{"order", "-depth"},         {"xdev", "-xdev"},           {"gitignore", "-gitignore"},
		{"exclude_caches", "-exclude-caches"},
	};
	if (strcmp(opt, "errors") == 0) {
		const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		for (int i = 0; v && errors[i]; i++) {
			if (strcmp(v, errors[i]) == 0) {
				a->errors = (enum lfb_errors)i; /* LFB_ERR_YIELD, _SKIP, _WARN, _RAISE */
				return;
			}
		}
		luaL_error(L, FN ": bad option 'errors' (expected \"yield\", \"skip\", \"warn\" or \"raise\", got %s)",
			   luaL_tolstring(L, -1, NULL));
	} else if (strcmp(opt, "sort") == 0) {
		if (!lua_isboolean(L, -1)) {
			luaL_error(L, FN ": bad option 'sort' (expected a boolean, got %s)", luaL_typename(L, -1));
		}
		a->sort = lua_toboolean(L, -1);
	} else if (strcmp(opt, "max_fds") == 0) {
		int isint;
		lua_Integer v = lua_tointegerx(L, -1, &isint);
		if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < 0 || v > INT32_MAX) {
			luaL_error(L, FN ": bad option 'max_fds' (expected a non-negative integer, got %s)",
				   luaL_tolstring(L, -1, NULL));
		}
		a->max_fds = (int)v;
	} else if (strcmp(opt, "threads") == 0) {
		a->threads = lfb_opt_threads(L, FN);
	} else if (strcmp(opt, "safe") == 0) {
		if (!lua_isboolean(L, -1)) {
			luaL_error(L, FN ": bad option 'safe' (expected a boolean, got %s)", luaL_typename(L, -1));
		}
		a->safe = lua_toboolean(L, -1);
	} else if (strcmp(opt, "allow") == 0) {
		if (!lua_istable(L, -1)) {
			luaL_error(L, FN ": bad option 'allow' (expected a table, got %s)", luaL_typename(L, -1));
		}
		/* Raw: a __len or __index of the caller's could answer otherwise
		 * the next time (push_policy reads it again, as raw). */
		lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
		for (lua_Integer i = 1; i <= n; i++) {
			lua_rawgeti(L, -1, i);
			const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
			if (!name || !lf_parse_unsafe_primary(name)) {
				luaL_error(L, FN ": bad option 'allow' (%s is not a primary the safe policy refuses)",
					   luaL_tolstring(L, -1, NULL));
			}
			lua_pop(L, 1);
		}
		a->allow = true;
	} else {
		for (size_t i = 0; i < sizeof(in_expression) / sizeof(in_expression[0]); i++) {
			if (strcmp(opt, in_expression[i].opt) == 0) {
				luaL_error(L, FN ": option '%s' is written in the expression here (%s)", opt,
					   in_expression[i].instead);
			}
		}
		luaL_error(L, FN ": unknown option '%s'", opt);
	}
}

/* Validate find()'s arguments: everything that can raise before any
 * resource is taken. */
static void parse_args(lua_State *L, struct find_args *a)
{
	memset(a, 0, sizeof(*a));
	/* A file that cannot be reached is reported and skipped: a loop that
	 * counts or acts on what it is given meets matches only (walk()'s
	 * default, with no expression, is "yield"). */
	a->errors = LFB_ERR_WARN;
	a->safe = -1;
	a->nroots = lfb_check_roots(L, FN, "roots", parse_option, a);

	int top = lua_gettop(L);
	for (int i = 2; i <= top; i++) {
		if (lua_type(L, i) == LUA_TNUMBER) {
			lua_tolstring(L, i, NULL); /* -size, 100: as "100" */
		} else if (lua_type(L, i) != LUA_TSTRING) {
			luaL_typeerror(L, i, "string");
		}
		size_t len;
		const char *s = lua_tolstring(L, i, &len);
		if (strlen(s) != len) {
			luaL_error(L, FN ": argument #%d contains a NUL byte", i);
		}
	}
	a->nwords = top - 1;
	a->split = a->nwords == 1 && strpbrk(lua_tostring(L, 2), " \t\n\v\f\r'\"\\") != NULL;
}

/*
 * Split @s (@len bytes, no NUL) into words as sh(1) does, without any
 * expansion: blanks separate; '...' is literal; in "...", a backslash
 * escapes only " \ $ ` and newline; elsewhere a backslash escapes any
 * character (backslash-newline joins lines).  The words go to @out (at
 * least @len + 1 bytes), each NUL-terminated.
 *
 * @return the number of words, or -1 with *why set
 */
static int split_words(const char *s, size_t len, char *out, const char **why)
{
	int n = 0;
	bool in_word = false;
	size_t i = 0;
	while (i < len) {
		char c = s[i];
		if (strchr(" \t\n\v\f\r", c)) {
			if (in_word) {
				*out++ = '\0';
				n++;
				in_word = false;
			}
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < len && s[i + 1] == '\n') {
			i += 2;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *q = memchr(s + i + 1, '\'', len - i - 1);
			if (!q) {
				*why = "unterminated ' quote";
				return -1;
			}
			size_t k = (size_t)(q - (s + i + 1));
			memcpy(out, s + i + 1, k);
			out += k;
			i += k + 2;
		} else if (c == '"') {
			for (i++;; i++) {
				if (i == len) {
					*why = "unterminated \" quote";
					return -1;
				}
				if (s[i] == '"') {
					i++;
					break;
				}
				if (s[i] == '\\' && i + 1 < len && strchr("\"\\$`\n", s[i + 1])) {
					i++;
					if (s[i] == '\n') {
						continue;
					}
				}
				*out++ = s[i];
			}
		} else if (c == '\\') {
			if (i + 1 == len) {
				*why = "backslash at the end";
				return -1;
			}
			*out++ = s[i + 1];
			i += 2;
		} else {
			*out++ = c;
			i++;
		}
	}
	if (in_word) {
		*out = '\0';
		n++;
	}
	return n;
}

static int out_of_memory(lua_State *L)
{
	return luaL_error(L, FN ": %s", strerror(ENOMEM));
}

/*
 * The safe policy of this call, from the options safe and allow (argument
 * 1, already validated) and the sandbox's: *safe, and the primaries it
 * permits as a NULL-terminated array in a userdata pushed on the stack
 * (it lives until the call returns).  In a sandbox without
 * LF_SANDBOX_ALLOW_ACTIONS the policy is always safe, and only -delete may
 * be permitted, by LF_SANDBOX_ALLOW_DELETE.
 */
static const char **push_policy(lua_State *L, const struct find_args *a, bool *safe)
{
	unsigned allow_bits;
	bool boxed = lfb_sandboxed(L, &allow_bits) && !(allow_bits & LF_SANDBOX_ALLOW_ACTIONS);
	bool delete_ok = boxed && (allow_bits & LF_SANDBOX_ALLOW_DELETE);
	*safe = a->safe == 1 || (a->safe == -1 && a->allow) || boxed;
	if (boxed && a->safe == 0) {
		luaL_error(L, FN ": safe = false is not allowed in the sandbox");
	}
	/*
	 * The option table is the caller's, and anything it holds may have
	 * changed since parse_args() (a finalizer may run at any allocation):
	 * read it once, raw, and check every name again.  The names are kept
	 * in the list's own user value, not by the caller's table.
	 */
	lua_Integer n = 0;
	int allow = 0;
	if (a->allow) {
		lua_pushliteral(L, "allow");
		if (lua_rawget(L, 1) != LUA_TTABLE) {
			luaL_error(L, FN ": bad option 'allow' (expected a table)");
		}
		allow = lua_gettop(L);
		n = (lua_Integer)lua_rawlen(L, allow);
	}
	const char **list = lua_newuserdatauv(L, ((size_t)n + 2) * sizeof(*list), 1);
	int pins = lua_gettop(L);
	lua_createtable(L, (int)n, 0);
	size_t k = 0;
	if (delete_ok) {
		list[k++] = "-delete";
	}
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, allow, i);
		const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		if (!name || !lf_parse_unsafe_primary(name)) {
			luaL_error(L, FN ": bad option 'allow' (%s is not a primary the safe policy refuses)",
				   luaL_tolstring(L, -1, NULL));
		}
		if (boxed && !(delete_ok && strcmp(name, "-delete") == 0)) {
			luaL_error(L, FN ": allow: %s is not allowed in the sandbox", name);
		}
		lua_rawseti(L, -2, i); /* pinned by the list */
		list[k++] = name;
	}
	lua_setiuservalue(L, pins, 1);
	if (allow) {
		lua_remove(L, allow);
	}
	list[k] = NULL;
	return list;
}

/*
 * find(root, word...) or find({root..., option = value...}, word...), where
 * one word holding blanks, quotes or backslashes is split as sh would.
 * Returns the iterator, the walker, nil, the walker.
 */
static int mod_find(lua_State *L)
{
	struct find_args a;
	parse_args(L, &a);

	/* A closed walker first, so that a memory error leaves nothing open. */
	struct lfb_walk *lw = lfb_walk_new(L, a.nroots);
	lw->errors = a.errors;
	int walk = lua_gettop(L);

	/* The strings the walker and the expression point into. */
	lfb_walk_pin_roots(L, lw, walk, a.nwords);
	int pin = lua_gettop(L);
	int nwords = a.nwords;
	if (a.split) {
		size_t len;
		const char *s = lua_tolstring(L, 2, &len);
		char *buf = lua_newuserdatauv(L, len + 1, 0);
		const char *why = "a syntax error"; /* always set on failure; -O1 cannot tell */
		nwords = split_words(s, len, buf, &why);
		if (nwords < 0) {
			return luaL_error(L, FN ": %s in the expression string", why);
		}
		for (int i = 0; i < nwords; i++) {
			size_t wl = strlen(buf);
			lua_pushlstring(L, buf, wl);
			lua_rawseti(L, pin, (lua_Integer)a.nroots + i + 1);
			buf += wl + 1;
		}
	} else {
		for (int i = 0; i < nwords; i++) {
			lua_pushvalue(L, 2 + i);
			lua_rawseti(L, pin, (lua_Integer)a.nroots + i + 1);
		}
	}

	bool safe;
	const char **allow = push_policy(L, &a, &safe);

	struct lfb_find *f = calloc(1, sizeof(*f));
	if (!f) {
		return out_of_memory(L);
	}
	lw->find = f;
	lw->filter_step = find_step;
	lw->filter_close = find_close;
	lw->filter_failed = find_failed;
	f->ctx = lfb_ctx(L);
	f->argv = calloc((size_t)nwords + 1, sizeof(*f->argv));
	if (!f->argv) {
		return out_of_memory(L);
	}
	for (int i = 0; i < nwords; i++) {
		lua_rawgeti(L, pin, (lua_Integer)a.nroots + i + 1);
		f->argv[i] = (char *)lua_tostring(L, -1); /* pinned; the front end never writes */
		lua_pop(L, 1);
	}

	/* The messages go to f->errs, which the walker frees even if raising
	 * them fails for want of memory. */
	struct lf_diag_collector col;
	lf_diag_collect(f->ctx, &col, &f->errs);
	f->has_cmd = true;
	/* A sandbox's expression: its -regex compiles bounded and charged. */
	const struct lf_mem *saved_mem = f->ctx->mem;
	size_t saved_max = f->ctx->regex_max_size;
	if (lfb_sandboxed(L, NULL)) {
		f->ctx->mem = lfb_sandbox_mem(L);
		f->ctx->regex_max_size = REGEX_MAX_SIZE;
	}
	int r = lf_parse_find(f->ctx, lw->roots, a.nroots, nwords, f->argv,
			      LF_PARSE_NO_PRINT | (safe ? LF_PARSE_SAFE : 0), allow, &f->cmd);
	f->ctx->mem = saved_mem;
	f->ctx->regex_max_size = saved_max;
	lf_diag_uncollect(f->ctx, &col);
	if (r != 0) {
		push_parse_error(L, f->argv, &f->errs);
		find_close(lw, false);
		return lua_error(L);
	}
	/* Lua's buffered output before our messages, ours and any command's. */
	fflush(stdout);
	for (size_t i = 0; i < f->errs.n; i++) {
		lf_diag_report(f->ctx, &f->errs.v[i]); /* warnings (-warn) */
	}
	lf_error_list_free(&f->errs);
	struct lf_walk_opts opts = f->cmd.opts;
	opts.roots = lw->roots;
	opts.nroots = a.nroots;
	if (a.sort) {
		opts.flags |= LF_WALK_SORT;
	}
	opts.flags = lf_cmdline_walk_flags(&f->cmd, opts.flags);
	opts.max_fds = a.max_fds;
	if (a.threads) {
		opts.threads = a.threads; /* over the expression's -j */
	} else if (!opts.threads) {
		/* The loop body may prune or change the tree: read ahead only when asked. */
		opts.threads = 1;
	}
	lw->symlinks = opts.symlinks;
	f->raise = a.errors == LFB_ERR_RAISE;
	if (lf_out_init(&f->out, STDOUT_FILENO) != 0) {
		return out_of_memory(L);
	}
	f->has_out = true;

	if (lf_run_init(&f->run, &f->cmd, &f->out) != 0) {
		return out_of_memory(L);
	}
	/* What stops the run before it walks (-delete and /) is raised as an
	 * error object, as the expression's errors are. */
	lf_diag_collect(f->ctx, &col, &f->errs);
	r = lf_run_begin(&f->run, lw->roots, a.nroots);
	lf_diag_uncollect(f->ctx, &col);
	if (r != 0) {
		lfb_push_errors(L, &f->errs, "", FN);
		lf_error_list_free(&f->errs);
		return lua_error(L);
	}
	/* Error entries follow the errors option (lfb_walk_keep_error). */
	f->run.report_errors = false;
	lfb_walk_start(L, lw, &opts, FN);
	f->started = true;
	f->run.ev.walk = lw->w;

	lua_pushvalue(L, lua_upvalueindex(3)); /* the iterator */
	lua_pushvalue(L, walk);
	lua_pushnil(L);
	lua_pushvalue(L, walk);
	return 4;
}

void lfb_open_find(lua_State *L, int state)
{
	int mod = lua_gettop(L);
	luaL_getmetatable(L, LFB_WALK);
	lua_pushvalue(L, state);
	lua_getfield(L, -2, "__index");
	lua_getfield(L, -1, "next"); /* walk's iterator, which hands over to find_step */
	lua_remove(L, -2);
	lua_pushcclosure(L, mod_find, 3);
	lua_setfield(L, mod, "find");
	lua_settop(L, mod);
}
