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
 * over to lfb_find_step() and lfb_find_close() for such a walker.
 *
 * Parse errors are captured (diag.h) and raised as one line.  The walker's
 * error entries follow the errors= option as in walk(); the messages of the
 * expression's tests and actions (a stat that fails inside -size, -delete
 * failing) go to stderr as luafind(1) prints them, or with errors="raise"
 * into the error raised.
 */
#define _GNU_SOURCE
#include "lbind.h"

#include "diag.h"
#include "expr.h"
#include "output.h"
#include "parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FN "luafind.find"

/* The front-end state of a find walker, owned by it (lw->find). */
struct lfb_find {
	struct lf_cmdline cmd;
	struct lf_eval ev;
	struct lf_expr **enter; /* the nodes with an enter hook (-execdir ... +) */
	size_t nenter;
	struct lf_out out;
	char **argv;      /* the expression's words, NULL-terminated; the strings
			   * are pinned in the walker's LFB_UV_ROOTS table */
	char *msgs;       /* what the parser said (warnings, once it succeeded) */
	FILE *errs;       /* errors = "raise": messages of the entry evaluated */
	char *errbuf;     /* errs's buffer */
	size_t errlen;
	bool has_cmd;     /* cmd is to be freed */
	bool has_out;
	bool started;     /* the walk is open: the finish hooks are due */
	bool quit;        /* -quit, or a fatal error: end at the next step */
	bool out_reported; /* a write error on standard output was raised */
	unsigned yield_gen; /* the walker's generation at the last entry handed out */
};

/* ---- closing ------------------------------------------------------------ */

void lfb_find_close(struct lfb_walk *lw)
{
	struct lfb_find *f = lw->find;
	lw->find = NULL;
	if (f->started && !f->ev.stop) {
		/* Pending -exec ... + batches run after a break too, as after -quit. */
		lf_expr_finish(f->cmd.expr, &f->ev);
	}
	if (f->has_out) {
		fflush(stdout); /* what Lua printed so far comes first */
		if (lf_out_close(&f->out) != 0 && !f->out_reported) {
			lf_diag("'standard output': %s", strerror(f->out.err));
			lf_diag("write error");
			f->ev.status = 1;
		}
	}
	lw->find_failed = f->ev.status != 0;
	if (f->has_cmd) {
		lf_cmdline_free(&f->cmd);
	}
	if (f->errs) {
		fclose(f->errs);
	}
	free(f->errbuf);
	free(f->msgs);
	free(f->argv);
	free(f->enter);
	free(f);
}

bool lfb_find_failed(const struct lfb_walk *lw)
{
	return lw->find ? lw->find->ev.status != 0 : lw->find_failed;
}

/* ---- messages ----------------------------------------------------------- */

/*
 * Add the messages in @s (each "luafind: ...\n", as diag.c writes them) to
 * @b as one line: without the program name, joined with "; ".
 */
static void add_messages(luaL_Buffer *b, const char *s, size_t len)
{
	char sep[64];
	int n = snprintf(sep, sizeof(sep), "\n%s: ", lf_progname);
	size_t seplen = n > 0 && (size_t)n < sizeof(sep) ? (size_t)n : 0;
	while (len > 0 && s[len - 1] == '\n') {
		len--;
	}
	const char *p = s, *end = s + len;
	if (seplen && len >= seplen - 1 && memcmp(s, sep + 1, seplen - 1) == 0) {
		p += seplen - 1;
	}
	for (;;) {
		const char *next = seplen ? memmem(p, (size_t)(end - p), sep, seplen) : NULL;
		luaL_addlstring(b, p, (size_t)((next ? next : end) - p));
		if (!next) {
			break;
		}
		luaL_addstring(b, "; ");
		p = next + seplen;
	}
}

/*
 * Push the error of a failed parse: where find() was called, as luaL_error
 * says it, "luafind.find: " and the messages.
 */
static void push_parse_error(lua_State *L, const char *msgs, size_t len)
{
	luaL_where(L, 1);
	/* The parser knows no -lua here; say why rather than suggest -ls. */
	static const char lua_prim[] = "unknown predicate `-lua'\n";
	size_t pl = strlen(lf_progname);
	if (msgs && len > pl + 2 + sizeof(lua_prim) - 1 && strncmp(msgs, lf_progname, pl) == 0 &&
	    strncmp(msgs + pl, ": ", 2) == 0 && strncmp(msgs + pl + 2, lua_prim, sizeof(lua_prim) - 1) == 0) {
		lua_pushliteral(L, FN ": unknown predicate `-lua' (-lua is luafind(1)'s; in Lua, "
				   "test the entry in the loop body)");
	} else if (!msgs || len == 0) {
		lua_pushliteral(L, FN ": invalid expression");
	} else {
		luaL_Buffer b;
		luaL_buffinit(L, &b);
		luaL_addstring(&b, FN ": ");
		add_messages(&b, msgs, len);
		luaL_pushresult(&b);
	}
	lua_concat(L, 2);
}

/*
 * errors = "warn" for find(): what luafind(1) prints for an error entry,
 * after the expression's output and what Lua printed.
 */
static void warn_error(struct lfb_walk *lw, const struct lf_entry *e)
{
	lf_out_flush(&lw->find->out);
	fflush(stdout);
	FILE *fp = lf_diag_stream();
	if (e->error == ELOOP && e->loop_pathlen) {
		fprintf(fp, "%s: File system loop detected; ", lf_progname);
		lf_diag_quote(fp, e->path, e->pathlen);
		fputs(" is part of the same file system loop as ", fp);
		lf_diag_quote(fp, e->path, e->loop_pathlen);
		fputs(".\n", fp);
	} else {
		lf_diag_path(e->path, e->pathlen, e->error);
	}
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
	fflush(f->errs);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	if (f->errlen > 0) {
		add_messages(&b, f->errbuf, f->errlen);
	} else {
		/* The action wrote its message to stderr itself. */
		luaL_addlstring(&b, e->path, e->pathlen);
		luaL_addstring(&b, ": an action failed");
	}
	fseeko(f->errs, 0, SEEK_SET);
	luaL_pushresult(&b);
	return lua_error(L);
}

int lfb_find_step(lua_State *L, struct lfb_walk *lw)
{
	struct lfb_find *f = lw->find;
	for (;;) {
		struct lf_entry *e;
		if (!lfb_walk_advance(L, lw, f->quit, FN, &e)) {
			return 1;
		}
		lw->entries++;
		f->ev.seq = lw->entries;
		f->ev.entry = e;
		for (size_t i = 0; i < f->nenter; i++) {
			f->enter[i]->enter(f->enter[i], &f->ev);
		}

		if (e->visit == LF_VISIT_ERROR) {
			if (e->error == ENOENT && f->cmd.ignore_race && e->depth > 0) {
				continue;
			}
			lf_eval_walk_error(&f->ev);
			if (!lfb_walk_keep_error(L, lw, e, warn_error)) {
				continue;
			}
			return yield(L, lw, e);
		}

		f->ev.entry = e;
		int before = f->ev.status;
		f->ev.status = 0;
		FILE *prev = f->errs ? lf_diag_redirect(f->errs) : NULL;
		bool match = !f->cmd.expr || lf_expr_eval(f->cmd.expr, &f->ev);
		if (f->errs) {
			lf_diag_redirect(prev);
		}
		bool failed = f->ev.status != 0;
		f->ev.status |= before;
		if (f->ev.quit || f->ev.stop) {
			f->quit = true;
		}
		if (f->out.err && !f->out_reported) {
			f->out_reported = true;
			f->quit = true;
			f->ev.status = 1;
			return luaL_error(L, FN ": standard output: %s", strerror(f->out.err));
		}
		if (failed && f->errs) {
			return raise_eval_error(L, f, e);
		}
		if (match) {
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
	int nwords;  /* expression arguments, from stack index 2 */
	bool split;  /* one string, to split as sh would */
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
		{"order", "-depth"},         {"xdev", "-xdev"},
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
	a->errors = LFB_ERR_YIELD;
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

/* The root of @cmd that is /, for -delete to refuse it, or NULL. */
static const char *root_is_slash(const struct lf_cmdline *cmd)
{
	struct stat slash, st;
	if (!cmd->delete || stat("/", &slash) != 0) {
		return NULL;
	}
	for (size_t i = 0; i < cmd->nroots; i++) {
		if (lstat(cmd->roots[i], &st) == 0 && st.st_dev == slash.st_dev && st.st_ino == slash.st_ino) {
			return cmd->roots[i];
		}
	}
	return NULL;
}

static int out_of_memory(lua_State *L)
{
	return luaL_error(L, FN ": %s", strerror(ENOMEM));
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

	struct lfb_find *f = calloc(1, sizeof(*f));
	if (!f) {
		return out_of_memory(L);
	}
	lw->find = f;
	f->argv = calloc((size_t)nwords + 1, sizeof(*f->argv));
	if (!f->argv) {
		return out_of_memory(L);
	}
	for (int i = 0; i < nwords; i++) {
		lua_rawgeti(L, pin, (lua_Integer)a.nroots + i + 1);
		f->argv[i] = (char *)lua_tostring(L, -1); /* pinned; the front end never writes */
		lua_pop(L, 1);
	}

	struct lf_diag_capture cap;
	lf_diag_capture(&cap);
	f->has_cmd = true;
	int r = lf_parse_find(lw->roots, a.nroots, nwords, f->argv, LF_PARSE_NO_PRINT, &f->cmd);
	lf_diag_release(&cap);
	f->msgs = cap.data;
	if (r != 0) {
		push_parse_error(L, cap.data, cap.len);
		lfb_find_close(lw);
		return lua_error(L);
	}
	/* Lua's buffered output before our messages, ours and any command's. */
	fflush(stdout);
	if (cap.len > 0) {
		fwrite(cap.data, 1, cap.len, stderr); /* warnings (-warn) */
	}
	const char *slash = root_is_slash(&f->cmd);
	if (slash) {
		return luaL_error(L, FN ": refusing to delete '%s': it is the root directory /", slash);
	}

	struct lf_walk_opts opts = f->cmd.opts;
	opts.roots = lw->roots;
	opts.nroots = a.nroots;
	if (a.sort) {
		opts.flags |= LF_WALK_SORT;
	}
	opts.max_fds = a.max_fds;
	lw->symlinks = opts.symlinks;
	if (a.errors == LFB_ERR_RAISE) {
		f->errs = open_memstream(&f->errbuf, &f->errlen);
		if (!f->errs) {
			return out_of_memory(L);
		}
	}
	if (lf_out_init(&f->out, STDOUT_FILENO) != 0) {
		return out_of_memory(L);
	}
	f->has_out = true;

	f->enter = lf_expr_enter_list(f->cmd.expr, &f->nenter);
	lfb_walk_start(L, lw, &opts, FN);
	f->started = true;
	f->ev.walk = lw->w;
	f->ev.out = &f->out;
	f->ev.cmd = &f->cmd;

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
	lua_getfield(L, -1, "next"); /* walk's iterator, which hands over to lfb_find_step */
	lua_remove(L, -2);
	lua_pushcclosure(L, mod_find, 3);
	lua_setfield(L, mod, "find");
	lua_settop(L, mod);
}
