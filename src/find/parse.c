/*
 * parse.c: find's command line over argv, after GNU find's grammar:
 *
 *	expr   := clause { "," clause }
 *	clause := term { ("-o" | "-or") term }
 *	term   := factor { ["-a" | "-and"] factor }
 *	factor := ("!" | "-not" | "-exclude") factor | "(" expr ")" | primary
 *
 * parsed with explicit stacks rather than by recursion (parse_expr), into a
 * tree of the shape expr.h describes, no deeper than LF_EXPR_MAX_DEPTH.
 * Primaries come from the context's registry, filled by one function per
 * family (primary.h); each row says how many arguments it takes and how to
 * build its node.  Global options
 * (-maxdepth, -depth, ...) are nodes that evaluate to true, as in find.
 * This file holds the grammar, the options and the core actions.
 *
 * lf_parse() reads a find command line (-H/-L/-P and the other leading
 * options, paths, expression); lf_parse_find() the expression alone, for roots the
 * caller gives (luafind.find), without the primaries registered by the
 * executable (-lua) and with one-line messages.
 */
#define _GNU_SOURCE /* memmem */
#include "parse.h"

#include "color.h"
#include "diag.h"
#include "names.h"
#include "primary.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* A subtree the parser holds: an operand on its stack, or cmd->exclude. */
struct operand {
	struct lf_expr *x;
	/* If x is a chain of -a, -o or ",", its last node (join); if x is "!",
	 * its operand's (negate). */
	struct lf_expr *tail;
	unsigned depth; /* as LF_EXPR_MAX_DEPTH counts (expr.h) */
};

struct lf_parser {
	char **argv;
	int argc;
	int pos;
	int prim_pos;  /* where the primary being parsed starts */
	int consumed;  /* arguments a variadic primary took */
	struct lf_cmdline *cmd;
	bool seen_non_option; /* a test or action came before: warn on options */
	bool explicit_depth;  /* -depth was given, not just implied by -delete */
	bool has_prune;
	bool seen_node;       /* a primary other than -files0-from came before */
	bool registered;      /* look at the primaries added to the context too (lf_parse) */
	bool safe;            /* LF_PARSE_SAFE: refuse the primaries with side effects */
	bool excluding;       /* parsing the operand of -exclude: no actions, no -exclude */
	const char *const *allow; /* ... but these (NULL-terminated, or NULL) */
	struct operand exclude;   /* cmd->exclude, as it is built */
};

/* What the safe policy refuses: everything that acts beyond standard output. */
static const char unsafe_primaries[][10] = {
	"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls", "-fjson",
};

bool lf_parse_unsafe_primary(const char *name)
{
	for (size_t i = 0; i < sizeof(unsafe_primaries) / sizeof(unsafe_primaries[0]); i++) {
		if (strcmp(name, unsafe_primaries[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* Whether the safe policy of @p refuses @name. */
static bool refused(const struct lf_parser *p, const char *name)
{
	if (!p->safe || !lf_parse_unsafe_primary(name)) {
		return false;
	}
	for (const char *const *a = p->allow; a && *a; a++) {
		if (strcmp(*a, name) == 0) {
			return false;
		}
	}
	return true;
}

struct lf_expr *lf_parse_node(struct lf_parser *p, const struct lf_primary *prim)
{
	struct lf_expr *x = lf_expr_new(prim->eval, LF_EXPR_PRIMARY, prim->name);
	if (!x) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
		return NULL;
	}
	x->is_action = prim->kind == LF_PRIM_ACTION;
	x->needs_stat = prim->needs_stat != LF_STAT_NONE;
	x->stats_every = prim->needs_stat == LF_STAT_EVERY;
	return x;
}

struct lf_cmdline *lf_parser_cmdline(struct lf_parser *p)
{
	return p->cmd;
}

struct lf_ctx *lf_parser_ctx(struct lf_parser *p)
{
	return p->cmd->ctx;
}

bool lf_parser_warn(const struct lf_parser *p)
{
	return p->cmd->warn;
}

void lf_parser_consume(struct lf_parser *p, int n)
{
	p->consumed = n;
}

/*
 * A usage error about argument @argi (-1: none): the reporter of the
 * command line shows the arguments with a caret under that one.
 */
static void verror(struct lf_parser *p, enum lf_error_kind kind, int argi, bool named, const char *fmt,
		   va_list ap)
{
	char *msg = NULL;
	int n = vasprintf(&msg, fmt, ap);
	if (n < 0) {
		msg = NULL;
	}
	struct lf_error e = {
		.kind = kind,
		.message = msg ? msg : strerror(ENOMEM),
		.length = msg ? (size_t)n : strlen(strerror(ENOMEM)),
		.errnum = msg ? 0 : ENOMEM,
		.argi = argi >= 0 && argi < p->argc ? argi : -1,
		.names_primary = named,
	};
	lf_diag_report(p->cmd->ctx, &e);
	free(msg);
}

void lf_parse_error(struct lf_parser *p, int argoff, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(p, LF_ERROR_USAGE, p->prim_pos + argoff, false, fmt, ap);
	va_end(ap);
}

void lf_parse_error_named(struct lf_parser *p, int argoff, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(p, LF_ERROR_USAGE, p->prim_pos + argoff, true, fmt, ap);
	va_end(ap);
}

/* An error about argument @argi. */
static void error_at(struct lf_parser *p, int argi, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(struct lf_parser *p, int argi, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(p, LF_ERROR_USAGE, argi, false, fmt, ap);
	va_end(ap);
}

/* An error about the token at the current position. */
static void error_here(struct lf_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_here(struct lf_parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(p, LF_ERROR_USAGE, p->pos < p->argc ? p->pos : p->argc - 1, false, fmt, ap);
	va_end(ap);
}

static struct lf_expr *parse_simple(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return lf_parse_node(p, prim);
}

/* Options with no effect in luafind (-noleaf): true, as in find. */
static struct lf_expr *parse_option_true(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	return lf_parse_node(p, prim);
}

static bool parse_int(const char *s, int *out)
{
	char *end;
	if (*s < '0' || *s > '9') {
		return false;
	}
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno || v > INT_MAX) {
		return false;
	}
	*out = (int)v;
	return true;
}

static struct lf_expr *parse_depth_limit(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	int v;
	if (!parse_int(args[0], &v)) {
		lf_parse_error_named(p, 1, "Expected a positive decimal integer argument to %s, but got '%s'", prim->name,
			       args[0]);
		return NULL;
	}
	if (strcmp(prim->name, "-maxdepth") == 0) {
		p->cmd->opts.maxdepth = v;
	} else {
		p->cmd->opts.mindepth = v;
	}
	return lf_parse_node(p, prim);
}

/*
 * The value of -j (@val, argument @argoff of the option at p->prim_pos):
 * the threads of the walk, the caller's included, as bfs counts them
 * (opts.threads; -j1: no workers).  @return 0, or -1 after a usage error
 */
static int set_threads(struct lf_parser *p, int argoff, const char *val)
{
	int v;
	if (!*val || val[strspn(val, "0123456789")] || (parse_int(val, &v) && v == 0)) {
		lf_parse_error(p, argoff, "Expected a positive decimal integer argument to -j, but got '%s'", val);
		return -1;
	}
	if (!parse_int(val, &v) || v > LF_WALK_THREADS_MAX) {
		lf_parse_error_named(p, argoff, "-j: %s threads is too many (at most %d)", val, LF_WALK_THREADS_MAX);
		return -1;
	}
	p->cmd->opts.threads = v;
	return 0;
}

/* -j N, or -jN as bfs writes it (parse_primary hands that one over too). */
static struct lf_expr *parse_jobs(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	const char *tok = p->argv[p->prim_pos];
	bool attached = tok[2] != '\0';
	if (!attached && p->prim_pos + 1 >= p->argc) {
		lf_parse_error_named(p, 0, "missing argument to `-j'");
		return NULL;
	}
	lf_parser_consume(p, attached ? 0 : 1);
	if (set_threads(p, attached ? 0 : 1, attached ? tok + 2 : p->argv[p->prim_pos + 1]) != 0) {
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/*
 * Whether @a is -j with its number attached or not ("-j4", "-j"); a
 * letter after -j is a typo of another primary (-json), not a number.
 */
static bool is_jobs(const char *a)
{
	return strncmp(a, "-j", 2) == 0 && !(a[2] >= 'a' && a[2] <= 'z');
}

static struct lf_expr *parse_depth(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->explicit_depth = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_xdev(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_XDEV;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_gitignore(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_GITIGNORE;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_follow(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.symlinks = LF_LOGICAL;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_warn(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->warn = strcmp(prim->name, "-warn") == 0;
	return lf_parse_node(p, prim);
}

static struct lf_expr *parse_prune(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->has_prune = true;
	return lf_parse_node(p, prim);
}

/*
 * -files0-from FILE: the roots come from FILE (main.c reads it).  GNU
 * inserts no predicate for it, which only shows in the message for a ")"
 * right after it (seen_node).
 */
static struct lf_expr *parse_files0_from(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	p->cmd->files0_from = args[0];
	return lf_parse_node(p, prim);
}

/*
 * -color, -nocolor (bfs): color standard output and error whether they are
 * terminals or not, or never.  On the command line they also decide the
 * colors of the messages that follow.
 */
static struct lf_expr *parse_color(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	struct lf_ctx *ctx = p->cmd->ctx;
	bool on = strcmp(prim->name, "-color") == 0;
	p->cmd->color = on ? LF_COLOR_ALWAYS : LF_COLOR_NEVER;
	if (p->registered) {
		ctx->color_stderr = p->cmd->color;
	}
	if (on && !lf_ctx_colors(ctx)) {
		lf_parse_error(p, 0, "error parsing $LS_COLORS: %s", strerror(errno));
		return NULL;
	}
	return lf_parse_node(p, prim);
}

/* -delete implies -depth, as in GNU find. */
static struct lf_expr *parse_delete(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	(void)args;
	p->cmd->delete = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return lf_parse_node(p, prim);
}

int lf_prims_core_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"-color", LF_PRIM_POSITIONAL, 0, parse_color, lf_eval_true, false},
		{"-d", LF_PRIM_OPTION, 0, parse_depth, lf_eval_true, false},
		{"-delete", LF_PRIM_ACTION, 0, parse_delete, lf_eval_delete, false},
		{"-depth", LF_PRIM_OPTION, 0, parse_depth, lf_eval_true, false},
		{"-false", LF_PRIM_TEST, 0, parse_simple, lf_eval_false, false},
		{"-files0-from", LF_PRIM_OPTION, 1, parse_files0_from, lf_eval_true, false},
		{"-follow", LF_PRIM_OPTION, 0, parse_follow, lf_eval_true, false},
		{"-gitignore", LF_PRIM_OPTION, 0, parse_gitignore, lf_eval_true, false},
		{"-j", LF_PRIM_OPTION, LF_NARGS_VARIADIC, parse_jobs, lf_eval_true, false},
		{"-maxdepth", LF_PRIM_OPTION, 1, parse_depth_limit, lf_eval_true, false},
		{"-mindepth", LF_PRIM_OPTION, 1, parse_depth_limit, lf_eval_true, false},
		{"-mount", LF_PRIM_OPTION, 0, parse_xdev, lf_eval_true, false},
		{"-nocolor", LF_PRIM_POSITIONAL, 0, parse_color, lf_eval_true, false},
		{"-noleaf", LF_PRIM_OPTION, 0, parse_option_true, lf_eval_true, false},
		{"-nowarn", LF_PRIM_POSITIONAL, 0, parse_warn, lf_eval_true, false},
		{"-print", LF_PRIM_ACTION, 0, parse_simple, lf_eval_print, false},
		{"-print0", LF_PRIM_ACTION, 0, parse_simple, lf_eval_print0, false},
		{"-prune", LF_PRIM_ACTION_PRINTS, 0, parse_prune, lf_eval_prune, false},
		{"-quit", LF_PRIM_ACTION_PRINTS, 0, parse_simple, lf_eval_quit, false},
		{"-true", LF_PRIM_TEST, 0, parse_simple, lf_eval_true, false},
		{"-warn", LF_PRIM_POSITIONAL, 0, parse_warn, lf_eval_true, false},
		{"-xdev", LF_PRIM_OPTION, 0, parse_xdev, lf_eval_true, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}

/* How many primaries @p looks names up in: the built-in ones for lf_parse_find. */
static size_t prims_in_use(const struct lf_parser *p)
{
	return p->registered ? p->cmd->ctx->nprims : p->cmd->ctx->nbuiltin;
}

static const struct lf_primary *find_primary(const struct lf_parser *p, const char *name)
{
	const struct lf_primary *prims = p->cmd->ctx->prims;
	for (size_t i = 0; i < prims_in_use(p); i++) {
		if (strcmp(prims[i].name, name) == 0) {
			return &prims[i];
		}
	}
	return NULL;
}

static void unknown_primary(struct lf_parser *p, const char *name)
{
	struct lf_error e = {
		.kind = LF_ERROR_UNKNOWN_PRIMARY,
		.argi = p->pos < p->argc ? p->pos : -1,
	};
	char *msg = NULL;
	int n = asprintf(&msg, "unknown predicate `%s'", name);
	if (n < 0) {
		msg = NULL;
	}
	e.message = msg ? msg : strerror(ENOMEM);
	e.length = msg ? (size_t)n : strlen(e.message);
	lf_diag_report(p->cmd->ctx, &e);
	free(msg);
	/* "--name" is -name spelt with GNU's long-option dashes: one goes. */
	const char *key = strncmp(name, "--", 2) == 0 ? name + 1 : name;
	const char *best = NULL;
	size_t best_d = 3;
	const struct lf_primary *prims = p->cmd->ctx->prims;
	for (size_t i = 0; i < prims_in_use(p); i++) {
		size_t d = lf_edit_distance(key, strlen(key), prims[i].name, strlen(prims[i].name));
		if (d < best_d) {
			best_d = d;
			best = prims[i].name;
		}
	}
	if (best) {
		lf_diag_kind(p->cmd->ctx, LF_ERROR_NOTE, "did you mean `%s'?", best);
	}
}

static const char *peek(struct lf_parser *p)
{
	return p->pos < p->argc ? p->argv[p->pos] : NULL;
}

/*
 * Whether @tok is the word @w.  find looks words up without one leading
 * '-' (GNU's find_parser), so "-(" "-)" "-!" "-," are the operators too.
 */
static bool word_is(const char *tok, const char *w)
{
	if (strcmp(tok, w) == 0) {
		return true;
	}
	return tok[0] == '-' && w[1] == '\0' && strchr("()!,", w[0]) && strcmp(tok + 1, w) == 0;
}

static bool is(const char *tok, const char *a, const char *b)
{
	return tok && (word_is(tok, a) || (b && word_is(tok, b)));
}

static struct lf_expr *parse_primary(struct lf_parser *p)
{
	const char *tok = p->argv[p->pos];
	const struct lf_primary *prim = find_primary(p, tok);
	if (!prim && is_jobs(tok)) {
		prim = find_primary(p, "-j"); /* -jN */
	}
	if (!prim) {
		if (tok[0] == '-' && tok[1]) {
			unknown_primary(p, tok);
		} else {
			error_here(p, "paths must precede expression: `%s'", tok);
		}
		return NULL;
	}
	if (prim->nargs != LF_NARGS_VARIADIC && p->argc - p->pos - 1 < prim->nargs) {
		error_here(p, "missing argument to `%s'", tok);
		return NULL;
	}
	char **args = p->argv + p->pos + 1;
	p->prim_pos = p->pos;
	p->consumed = prim->nargs == LF_NARGS_VARIADIC ? 0 : prim->nargs;
	if (p->excluding && (prim->kind == LF_PRIM_ACTION || prim->kind == LF_PRIM_ACTION_PRINTS)) {
		lf_parse_error_named(p, 0, "the action %s is not supported within -exclude", prim->name);
		return NULL;
	}
	if (refused(p, prim->name)) {
		/* Before its parse function: -fprint opens its file there. */
		lf_parse_error_named(p, 0, "%s: not allowed by the safe policy", prim->name);
		return NULL;
	}
	if (prim->kind == LF_PRIM_OPTION && p->seen_non_option && p->cmd->warn) {
		lf_diag_warn(p->cmd->ctx, "you have specified the global option %s after the argument %s, but global "
			     "options are not positional, i.e., %s affects tests specified before it as well "
			     "as those specified after it.  Please specify global options before other "
			     "arguments.",
			     tok, p->argv[p->pos - 1], tok);
	}
	if (prim->kind == LF_PRIM_TEST || prim->kind == LF_PRIM_ACTION || prim->kind == LF_PRIM_ACTION_PRINTS) {
		p->seen_non_option = true;
	}
	if (prim->parse != parse_files0_from) {
		p->seen_node = true;
	}
	/* Errors while it parses are about it (struct lf_error's primary). */
	struct lf_ctx *ctx = p->cmd->ctx;
	const char *outer = ctx->parsing;
	ctx->parsing = tok;
	struct lf_expr *x = prim->parse(p, prim, args);
	ctx->parsing = outer;
	p->pos += 1 + p->consumed;
	return x;
}

/*
 * A ")" that closes nothing, in GNU find 4.9's words: its tree builder has
 * one message when no predicate precedes (only -files0-from, which inserts
 * none), and its check for leftovers another.
 */
static void too_many_parens(struct lf_parser *p)
{
	if (!p->seen_node) {
		error_here(p, "invalid expression: expected expression before closing parentheses ')'.");
	} else {
		error_here(p, "you have too many ')'");
	}
}

/*
 * The grammar is parsed with explicit stacks, operands and operators, in
 * the manner of an operator-precedence parser rather than by recursion:
 * nesting then costs heap, not C stack.  GNU find 4.9 takes 30,000 nested
 * parentheses, and a host may compile a query on a thread with a small
 * stack.  What the tree built may cost the recursive passes over it is
 * bounded apart (expr.h's LF_EXPR_MAX_DEPTH).
 */

/* An operator waiting on the stack for its operands, or a "(" for its ")". */
struct pending {
	char op;  /* '(', '!', 'x' (-exclude), '&' (-a), '|' (-o) or ',' */
	int argi; /* where it is written; an implied -a: where its right operand starts */
};

struct stacks {
	struct operand *vals;
	size_t nvals, capvals;
	struct pending *ops;
	size_t nops, capops;
	size_t nparens; /* how many of ops are "(" */
};

static void stacks_free(struct stacks *s)
{
	for (size_t i = 0; i < s->nvals; i++) {
		lf_expr_free(s->vals[i].x);
	}
	free(s->vals);
	free(s->ops);
}

/* Push primary @x as an operand (freed on failure). */
static int push_val(struct lf_parser *p, struct stacks *s, struct lf_expr *x)
{
	if (s->nvals == s->capvals) {
		size_t cap = s->capvals ? 2 * s->capvals : 16;
		struct operand *v = realloc(s->vals, cap * sizeof(*v));
		if (!v) {
			lf_diag(p->cmd->ctx, "%s", strerror(errno));
			lf_expr_free(x);
			return -1;
		}
		s->vals = v;
		s->capvals = cap;
	}
	s->vals[s->nvals++] = (struct operand){.x = x, .depth = 1};
	return 0;
}

static int push_op(struct lf_parser *p, struct stacks *s, char op, int argi)
{
	if (s->nops == s->capops) {
		size_t cap = s->capops ? 2 * s->capops : 16;
		struct pending *v = realloc(s->ops, cap * sizeof(*v));
		if (!v) {
			lf_diag(p->cmd->ctx, "%s", strerror(errno));
			return -1;
		}
		s->ops = v;
		s->capops = cap;
	}
	s->ops[s->nops++] = (struct pending){.op = op, .argi = argi};
	s->nparens += op == '(';
	return 0;
}

/* How tightly binary operator @op binds; 0 for the others. */
static int precedence(char op)
{
	return op == '&' ? 3 : op == '|' ? 2 : op == ',' ? 1 : 0;
}

/* A node of binary operator @kind: a switch, since a table of pointers would be writable data (layers.globals). */
static struct lf_expr *binary_new(enum lf_expr_kind kind)
{
	switch (kind) {
	case LF_EXPR_AND:
		return lf_expr_new(lf_eval_and, kind, "-a");
	case LF_EXPR_OR:
		return lf_expr_new(lf_eval_or, kind, "-o");
	default:
		return lf_expr_new(lf_eval_comma, kind, ",");
	}
}

static enum lf_expr_kind binary_kind(char op)
{
	return op == '&' ? LF_EXPR_AND : op == '|' ? LF_EXPR_OR : LF_EXPR_COMMA;
}

/* The tree would be deeper than LF_EXPR_MAX_DEPTH: a usage error about argument @argi. */
static int too_deep(struct lf_parser *p, int argi)
{
	error_at(p, argi, "expression nested too deeply (over %d levels)", LF_EXPR_MAX_DEPTH);
	return -1;
}

/*
 * @l KIND @r, into @l.  A chain of one operator leans right and is joined
 * in place: "(a -a b) -a c" becomes "a -a (b -a c)", which evaluates the
 * same, and which lf_eval_and goes down in a loop, so that its length costs
 * no stack (expr.h).  With @argi >= 0 (the operator's argument), a result
 * deeper than LF_EXPR_MAX_DEPTH is an error.  On failure @r is freed and
 * @l left as it was.
 */
static int join(struct lf_parser *p, enum lf_expr_kind kind, int argi, struct operand *l, struct operand r)
{
	bool lchain = l->x->kind == kind;
	unsigned dl = lchain ? l->depth - 1 : l->depth;
	unsigned dr = r.x->kind == kind ? r.depth - 1 : r.depth;
	unsigned depth = 1 + (dl > dr ? dl : dr);
	struct lf_expr *x = NULL;
	if (argi >= 0 && depth > LF_EXPR_MAX_DEPTH) {
		too_deep(p, argi);
	} else if (!(x = binary_new(kind))) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
	}
	if (!x) {
		lf_expr_free(r.x);
		return -1;
	}
	struct lf_expr **slot = lchain ? &l->tail->rhs : &l->x;
	x->lhs = *slot;
	x->rhs = r.x;
	*slot = x;
	l->tail = r.x->kind == kind ? r.tail : x;
	l->depth = depth;
	return 0;
}

/*
 * "!" (written at @argi) before operand @v.  "! ! x" is x, which
 * evaluates the same (a failed test ends the entry whatever its value,
 * run.c), so that "!" never nests in "!".
 */
static int negate(struct lf_parser *p, struct operand *v, int argi)
{
	struct lf_expr *x = v->x;
	if (x->kind == LF_EXPR_NOT) {
		v->x = x->lhs;
		v->depth--;
		x->lhs = NULL;
		lf_expr_free(x);
		return 0;
	}
	if (v->depth + 1 > LF_EXPR_MAX_DEPTH) {
		return too_deep(p, argi);
	}
	struct lf_expr *n = lf_expr_new(lf_eval_not, LF_EXPR_NOT, "!");
	if (!n) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
		return -1;
	}
	n->lhs = x;
	v->x = n;
	v->depth++;
	return 0; /* v->tail stays the operand's, for a "!" that takes this one away */
}

/*
 * -exclude FACTOR (bfs): entries FACTOR is true for are left out, before
 * anything else is evaluated for them, and directories are not entered.
 * The operand on top goes to cmd->exclude, joined by -o to those of the
 * -exclude before; in the expression, -exclude is true.
 */
static int exclude(struct lf_parser *p, struct stacks *s)
{
	struct operand sub = s->vals[--s->nvals];
	p->excluding = false;
	if (!p->exclude.x) {
		p->exclude = sub;
	} else if (join(p, LF_EXPR_OR, -1, &p->exclude, sub) != 0) {
		return -1;
	}
	p->cmd->exclude = p->exclude.x;
	struct lf_expr *x = lf_expr_new(lf_eval_true, LF_EXPR_PRIMARY, "-exclude");
	if (!x) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
		return -1;
	}
	return push_val(p, s, x);
}

/* An operand is complete: the "!" and -exclude written before it apply. */
static int close_prefixes(struct lf_parser *p, struct stacks *s)
{
	while (s->nops && (s->ops[s->nops - 1].op == '!' || s->ops[s->nops - 1].op == 'x')) {
		struct pending op = s->ops[--s->nops];
		int r = op.op == '!' ? negate(p, &s->vals[s->nvals - 1], op.argi) : exclude(p, s);
		if (r != 0) {
			return -1;
		}
	}
	return 0;
}

/* Apply the binary operators on top that bind at least as tightly as @prec (1: all, down to a "("). */
static int reduce(struct lf_parser *p, struct stacks *s, int prec)
{
	while (s->nops && precedence(s->ops[s->nops - 1].op) >= prec) {
		struct pending op = s->ops[--s->nops];
		struct operand r = s->vals[--s->nvals];
		if (join(p, binary_kind(op.op), op.argi, &s->vals[s->nvals - 1], r) != 0) {
			return -1;
		}
	}
	return 0;
}

/* Whether @tok cannot be the operand of "!" or -exclude. */
static bool no_operand(const char *tok)
{
	return !tok || is(tok, ")", NULL) || is(tok, "-o", "-or") || is(tok, "-a", "-and") || is(tok, ",", NULL);
}

/*
 * factor := ("!" | "-not" | "-exclude") factor | "(" expr ")" | primary:
 * the "!", -exclude and "(" go on the stack, up to a primary, which becomes
 * an operand.
 */
static int read_factor(struct lf_parser *p, struct stacks *s)
{
	for (;;) {
		const char *tok = peek(p);
		if (!tok) {
			error_here(p, "invalid expression");
			return -1;
		}
		bool excl = is(tok, "-exclude", NULL);
		if (excl || is(tok, "!", "-not")) {
			if (excl && p->excluding) {
				error_here(p, "-exclude is not supported within -exclude");
				return -1;
			}
			p->pos++;
			if (no_operand(peek(p))) {
				error_here(p, "expected an expression after '%s'", tok);
				return -1;
			}
			if (push_op(p, s, excl ? 'x' : '!', p->pos - 1) != 0) {
				return -1;
			}
			p->excluding |= excl;
		} else if (is(tok, "(", NULL)) {
			p->pos++;
			if (is(peek(p), ")", NULL)) {
				error_here(p, "invalid expression; empty parentheses are not allowed.");
				return -1;
			}
			if (push_op(p, s, '(', p->pos - 1) != 0) {
				return -1;
			}
		} else if (is(tok, "-a", "-and") || is(tok, "-o", "-or") || is(tok, ",", NULL)) {
			error_here(p, "invalid expression; you have used a binary operator '%s' with nothing before it.",
				   tok);
			return -1;
		} else if (is(tok, ")", NULL)) {
			too_many_parens(p);
			return -1;
		} else {
			struct lf_expr *x = parse_primary(p);
			return x && push_val(p, s, x) == 0 ? close_prefixes(p, s) : -1;
		}
	}
}

static bool starts_factor(const char *tok)
{
	return tok && !is(tok, ")", NULL) && !is(tok, "-o", "-or") && !is(tok, ",", NULL);
}

/*
 * After an operand: the ")" that close groups, then a binary operator,
 * written or implied (-a).  Precedence, tightest first: -a, -o, ",".
 * @return 1 when an operand must follow, 0 at the end of the expression
 * (the end of the arguments, or a ")" that closes nothing, which the
 * caller reports), -1 after reporting an error
 */
static int read_operator(struct lf_parser *p, struct stacks *s)
{
	const char *tok;
	while ((tok = peek(p)) && is(tok, ")", NULL) && s->nparens) {
		if (reduce(p, s, 1) != 0) {
			return -1;
		}
		s->nops--; /* the "(" */
		s->nparens--;
		p->pos++;
		if (close_prefixes(p, s) != 0) {
			return -1;
		}
	}
	if (!tok || is(tok, ")", NULL)) {
		if (s->nparens) {
			error_here(p, "invalid expression; I was expecting to find a ')' somewhere but did not see one.");
			return -1;
		}
		return reduce(p, s, 1);
	}
	char op = is(tok, ",", NULL) ? ',' : is(tok, "-o", "-or") ? '|' : '&';
	int argi = p->pos;
	if (op != '&' || is(tok, "-a", "-and")) {
		p->pos++;
		if (!starts_factor(peek(p)) || is(peek(p), "-a", "-and")) {
			error_here(p, "invalid expression");
			return -1;
		}
	}
	if (reduce(p, s, precedence(op)) != 0 || push_op(p, s, op, argi) != 0) {
		return -1;
	}
	return 1;
}

/*
 * expr := clause { "," clause }, clause := term { ("-o" | "-or") term },
 * term := factor { ["-a" | "-and"] factor }, from p->pos on, into *@out.
 */
static int parse_expr(struct lf_parser *p, struct operand *out)
{
	struct stacks s = {0};
	int r;
	do {
		r = read_factor(p, &s);
		if (r == 0) {
			r = read_operator(p, &s);
		}
	} while (r > 0);
	if (r == 0) {
		*out = s.vals[0];
		s.nvals = 0;
	}
	stacks_free(&s);
	return r;
}

/*
 * The passes below recurse on a node's left operand and loop on its right:
 * a chain's length costs them no stack, only its nesting (expr.h).
 */

/* Whether @x may be reordered: no action, no -lua, nothing with effects. */
static bool is_pure(const struct lf_expr *x)
{
	for (; x; x = x->rhs) {
		if (x->kind == LF_EXPR_PRIMARY) {
			return !x->is_action && x->eval != lf_eval_prune && x->eval != lf_eval_quit && !x->impure;
		}
		if (!is_pure(x->lhs)) {
			return false;
		}
	}
	return true;
}

static bool subtree_needs_stat(const struct lf_expr *x)
{
	for (; x; x = x->rhs) {
		if (x->needs_stat || subtree_needs_stat(x->lhs)) {
			return true;
		}
	}
	return false;
}

/*
 * GNU's -O1 in a chain of -a: evaluate tests that need no stat before tests
 * that do, so that "-size +1M -name '*.c'" stats only the .c files.  Only
 * pure operands move, within each run of them: an action, -prune or -lua
 * stays where it is, and so does everything's order relative to it.  The
 * order is otherwise kept.  @ops[0..@n-1] point where the operands hang;
 * @tmp has room for @n.
 */
static void cheap_first(struct lf_expr ***ops, struct lf_expr **tmp, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t end = i;
		while (end < n && is_pure(*ops[end])) {
			end++;
		}
		size_t k = 0;
		for (int stats = 0; stats <= 1; stats++) {
			for (size_t j = i; j < end; j++) {
				if (subtree_needs_stat(*ops[j]) == stats) {
					tmp[k++] = *ops[j];
				}
			}
		}
		for (size_t j = i; j < end; j++) {
			*ops[j] = tmp[j - i];
		}
		i = end + 1; /* past the impure one */
	}
}

/*
 * In a chain of -o, "TEST -o -true" is true without TEST, whose stat may
 * fail: GNU find and bfs do not evaluate it, so the first -true with only
 * pure operands before it goes first.
 */
static void true_first(struct lf_expr ***ops, size_t n)
{
	for (size_t i = 1; i < n && is_pure(*ops[i - 1]); i++) {
		struct lf_expr *t = *ops[i];
		if (t->kind == LF_EXPR_PRIMARY && t->eval == lf_eval_true) {
			for (size_t j = i; j > 0; j--) {
				*ops[j] = *ops[j - 1];
			}
			*ops[0] = t;
			return;
		}
	}
}

/* Reorder the operands of @x, and of the chains in them (cheap_first, true_first); -1 if out of memory. */
static int optimize(struct lf_expr *x)
{
	if (!x || x->kind == LF_EXPR_PRIMARY) {
		return 0;
	}
	if (x->kind == LF_EXPR_NOT) {
		return optimize(x->lhs);
	}
	size_t n = 1;
	struct lf_expr *c;
	for (c = x; c->kind == x->kind; c = c->rhs) {
		if (optimize(c->lhs) != 0) {
			return -1;
		}
		n++;
	}
	if (optimize(c) != 0) {
		return -1;
	}
	if (x->kind == LF_EXPR_COMMA) {
		return 0;
	}
	struct lf_expr ***ops = malloc(n * sizeof(*ops));
	struct lf_expr **tmp = malloc(n * sizeof(*tmp));
	if (!ops || !tmp) {
		free(ops);
		free(tmp);
		return -1;
	}
	size_t i = 0;
	for (c = x; c->kind == x->kind; c = c->rhs) {
		ops[i++] = &c->lhs;
		if (c->rhs->kind != x->kind) {
			ops[i++] = &c->rhs;
		}
	}
	if (x->kind == LF_EXPR_AND) {
		cheap_first(ops, tmp, n);
	} else {
		true_first(ops, n);
	}
	free(ops);
	free(tmp);
	return 0;
}


/*
 * GNU's -O LEVEL, checked with GNU's messages.  luafind has one level, GNU's
 * -O1 (which GNU 4.9 also uses for -O0); higher levels only reorder more,
 * never change what is printed, so they are accepted and mean the same.
 */
static int parse_opt_level(struct lf_ctx *ctx, const char *level)
{
	if (!*level) {
		lf_diag(ctx, "The -O option must be immediately followed by a decimal integer");
		return -1;
	}
	if (*level < '0' || *level > '9') {
		lf_diag(ctx, "Please specify a decimal number immediately after -O");
		return -1;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(level, &end, 10);
	if (*end) {
		lf_diag(ctx, "Invalid optimisation level %s", level);
		return -1;
	}
	if (errno) {
		lf_diag(ctx, "Invalid optimisation level %s: %s", level, strerror(errno));
		return -1;
	}
	if (v > USHRT_MAX) {
		lf_diag(ctx, "Optimisation level %lu is too high.  If you want to find files very quickly, consider "
			"using GNU locate.",
			v);
		return -1;
	}
	return 0;
}

/* GNU find 4.9's -D flags, in its order and words (find/util.c). */
static const struct {
	char name[8];
	char doc[80];
} debug_flags[] = {
	{"exec", "Show diagnostic information relating to -exec, -execdir, -ok and -okdir"},
	{"opt", "Show diagnostic information relating to optimisation"},
	{"rates", "Indicate how often each predicate succeeded"},
	{"search", "Navigate the directory tree verbosely"},
	{"stat", "Trace calls to stat(2) and lstat(2)"},
	{"time", "Show diagnostic information relating to time-of-day and timestamp comparisons"},
	{"tree", "Display the expression tree"},
	{"all", "Set all of the debug flags (but help)"},
	{"help", "Explain the various -D options"},
};
enum { DEBUG_NFLAGS = sizeof(debug_flags) / sizeof(debug_flags[0]) };

void lf_parse_debug_usage(FILE *fp)
{
	fputs("Valid arguments for -D:\n", fp);
	for (size_t i = 0; i < DEBUG_NFLAGS; i++) {
		fprintf(fp, "%-10s %s\n", debug_flags[i].name, debug_flags[i].doc);
	}
}

/*
 * -D FLAGS, comma-separated, as GNU find 4.9 takes them: an unknown flag is
 * only a warning, an empty list an error.  GNU splits the argument in place
 * with strtok, so its warning quotes the argument cut at the first comma
 * after the first flag; splitting a copy the same way says the same.
 */
static int parse_debug_opts(const char *arg, struct lf_cmdline *cmd)
{
	char *copy = strdup(arg);
	if (!copy) {
		lf_diag(cmd->ctx, "%s", strerror(errno));
		return -1;
	}
	bool empty = true;
	char *ctx = NULL;
	for (char *tok = strtok_r(copy, ",", &ctx); tok; tok = strtok_r(NULL, ",", &ctx)) {
		empty = false;
		size_t i = 0;
		while (i < DEBUG_NFLAGS && strcmp(debug_flags[i].name, tok) != 0) {
			i++;
		}
		if (i == DEBUG_NFLAGS) {
			char *q = lf_diag_quoted(copy);
			lf_diag_kind(cmd->ctx, LF_ERROR_NOTE, "Ignoring unrecognised debug flag %s", q ? q : copy);
			free(q);
		} else if (strcmp(tok, "help") == 0) {
			cmd->debug_help = true;
		} else {
			cmd->debug |= 1u << i;
		}
	}
	free(copy);
	if (empty) {
		lf_diag(cmd->ctx, "Empty argument to the -D option.\nTry '%s --help' for more information.",
			cmd->ctx->progname);
		return -1;
	}
	return 0;
}

/*
 * GNU's rule for where the paths end: at "-x", "(" or "!".  A ")" or ","
 * cannot start an expression, so there it is a path, as in GNU find 4.9
 * ("find )" lists a file named ")").
 */
static bool looks_like_expression(const char *arg)
{
	if (arg[0] == '-' && arg[1]) {
		return true;
	}
	return strcmp(arg, "(") == 0 || strcmp(arg, "!") == 0;
}

/* An environment variable that turns something off: "0", "no", "off" or "false", in any case. */
static bool env_says_no(const char *v)
{
	return v && (strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 ||
		     strcasecmp(v, "false") == 0);
}

/* A fresh command line: find's defaults, "now" taken once, LUAFIND_IO_URING. */
static void cmdline_init(struct lf_ctx *ctx, struct lf_cmdline *cmd)
{
	struct lf_walk_opts init = LF_WALK_OPTS_INIT;
	memset(cmd, 0, sizeof(*cmd));
	cmd->ctx = ctx;
	cmd->opts = init;
	clock_gettime(CLOCK_REALTIME, &cmd->start);
	cmd->day_start = cmd->start;
	cmd->day_start.tv_sec -= 86400;
	if (env_says_no(getenv("LUAFIND_IO_URING"))) {
		cmd->opts.flags |= LF_WALK_NO_IO_URING; /* luafind(1), ENVIRONMENT */
	}
}

/*
 * From p->pos on, the expression; then the checks that need all of it, the
 * implied -print (unless @flags says LF_PARSE_NO_PRINT) and GNU's -O1.
 */
static int parse_expression(struct lf_parser *p, unsigned flags)
{
	struct lf_cmdline *cmd = p->cmd;
	int argc = p->argc;
	char **argv = p->argv;
	struct operand v = {0};
	if (p->pos < argc) {
		if (parse_expr(p, &v) != 0) {
			return -1;
		}
		if (p->pos < argc) {
			if (is(argv[p->pos], ")", NULL)) {
				too_many_parens(p);
			} else {
				error_here(p, "unexpected extra predicate '%s'", argv[p->pos]);
			}
			lf_expr_free(v.x);
			return -1;
		}
	}
	if (cmd->delete) {
		/*
		 * Deleting never goes through a link below the roots, but the
		 * tests still see what -L says they see.
		 */
		cmd->opts.flags |= LF_WALK_NO_DESCEND_LINKS | LF_WALK_REFUSE_SLASH;
	}
	if (cmd->delete && p->has_prune && !p->explicit_depth) {
		error_here(p, "The -delete action automatically turns on -depth, but -prune does nothing when "
			"-depth is in effect.  If you want to carry on anyway, just explicitly use the -depth "
			"option.");
		lf_expr_free(v.x);
		return -1;
	}
	if (!(flags & LF_PARSE_NO_PRINT) && !lf_expr_has_action(v.x)) {
		const struct lf_primary print = {"-print", LF_PRIM_ACTION, 0, parse_simple, lf_eval_print, false};
		struct operand pr = {.x = lf_parse_node(p, &print), .depth = 1};
		if (!pr.x) {
			lf_expr_free(v.x);
			return -1;
		}
		if (!v.x) {
			v = pr;
		} else if (join(p, LF_EXPR_AND, -1, &v, pr) != 0) {
			lf_expr_free(v.x);
			return -1;
		}
	}
	struct lf_expr *x = v.x;
	if (optimize(x) != 0 || optimize(cmd->exclude) != 0) {
		lf_diag(cmd->ctx, "%s", strerror(errno));
		lf_expr_free(x);
		return -1;
	}
	if (cmd->exclude) {
		cmd->mindepth = cmd->opts.mindepth;
		cmd->opts.mindepth = 0;
		if (cmd->opts.order == LF_ORDER_POST) {
			cmd->opts.order = LF_ORDER_BOTH;
			cmd->exclude_post = true;
		}
	}
	/*
	 * When the test evaluated first (-exclude's, if any) stats every
	 * entry, the walker may stat ahead in a second thread without making
	 * a stat more.
	 */
	const struct lf_expr *first = cmd->exclude ? cmd->exclude : x;
	while (first && first->kind != LF_EXPR_PRIMARY) {
		first = first->lhs;
	}
	if (first && first->stats_every) {
		cmd->opts.flags |= LF_WALK_STAT_AHEAD;
	}
	cmd->expr = x;
	cmd->opts.flags = lf_cmdline_walk_flags(cmd, cmd->opts.flags);
	cmd->opts.roots = cmd->roots;
	cmd->opts.nroots = cmd->nroots;
	return 0;
}

/* Whether @x and its operands only read: no -prune, -quit, -delete, -exec or -ok in any form, no -lua. */
static bool reads_only(const struct lf_expr *x)
{
	static const char changes[][9] = {"-exec", "-execdir", "-ok", "-okdir"};
	for (; x && x->kind != LF_EXPR_PRIMARY; x = x->rhs) {
		if (!reads_only(x->lhs)) {
			return false; /* recursing on the left only, as is_pure */
		}
	}
	if (!x) {
		return true;
	}
	if (x->eval == lf_eval_prune || x->eval == lf_eval_quit || x->eval == lf_eval_delete || x->impure) {
		return false;
	}
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		if (strcmp(x->name, changes[i]) == 0) {
			return false;
		}
	}
	return true;
}

/*
 * The one place that decides whether a query's walk reads directories
 * ahead (walk.h's LF_WALK_READ_AHEAD), for the command line, the C query
 * API (lf_query_walk_opts) and luafind.find alike: when the query reads
 * every directory the walk reaches and changes nothing in the tree.
 * - Skipping directories wastes what was read ahead of them: -prune,
 *   -exclude, and -quit, which ends the walk.
 * - Changing the tree would not be seen in a directory read before the
 *   change: -delete, -exec, -execdir, -ok, -okdir and -lua (Lua code may
 *   do anything).  Writing a file (-fprint, -fls...) is fine.
 * - Where the walk does not use the queue (sorted, -xdev, -gitignore, -L)
 *   the flag is left off, so that it says what the walk does.
 * An explicit -j does not force it: such a query walks with no workers.
 * @return @flags with LF_WALK_READ_AHEAD set or cleared
 */
unsigned lf_cmdline_walk_flags(const struct lf_cmdline *cmd, unsigned flags)
{
	bool ahead = !cmd->exclude && !cmd->delete && cmd->opts.symlinks != LF_LOGICAL &&
		     !(flags & (LF_WALK_SORT | LF_WALK_XDEV | LF_WALK_GITIGNORE)) && reads_only(cmd->expr);
	return ahead ? flags | LF_WALK_READ_AHEAD : flags & ~(unsigned)LF_WALK_READ_AHEAD;
}

/*
 * A leading -H, -L or -P, or several in one argument ("-HL", as POSIX's
 * utility syntax allows and bfs accepts; GNU find does not): the last one
 * wins.  @return whether @a was one.
 */
static bool parse_follow_flags(const char *a, struct lf_cmdline *cmd)
{
	if (a[0] != '-' || !a[1] || a[strspn(a + 1, "HLP") + 1]) {
		return false;
	}
	for (a++; *a; a++) {
		cmd->opts.symlinks = *a == 'P' ? LF_PHYSICAL : *a == 'H' ? LF_COMFOLLOW : LF_LOGICAL;
	}
	return true;
}

int lf_parse(struct lf_ctx *ctx, int argc, char **argv, struct lf_cmdline *cmd)
{
	cmdline_init(ctx, cmd);
	cmd->warn = isatty(STDIN_FILENO);
	/* https://no-color.org/: an empty NO_COLOR is as if unset (bfs). */
	const char *no_color = getenv("NO_COLOR");
	cmd->color = no_color && *no_color ? LF_COLOR_NEVER : LF_COLOR_AUTO;
	ctx->color_stderr = cmd->color;
	if (cmd->color != LF_COLOR_NEVER) {
		lf_ctx_colors(ctx); /* for messages from now on; a failure is said when it matters */
	}

	struct lf_parser p = {.argv = argv, .argc = argc, .pos = 1, .cmd = cmd, .registered = true};

	/* find's leading options (the executable takes its own out first). */
	for (; p.pos < argc; p.pos++) {
		const char *a = argv[p.pos];
		if (parse_follow_flags(a, cmd)) {
			continue;
		} else if (strncmp(a, "-O", 2) == 0) {
			if (parse_opt_level(ctx, a + 2) < 0) {
				return -1;
			}
		} else if (strcmp(a, "-D") == 0) {
			if (p.pos + 1 >= argc) {
				lf_diag(ctx, "Missing argument after the -D option.\nTry '%s --help' for more information.",
					ctx->progname);
				return -1;
			}
			if (parse_debug_opts(argv[++p.pos], cmd) != 0) {
				return -1;
			}
			if (cmd->debug_help) {
				return 0; /* as GNU, which exits at once */
			}
		} else if (is_jobs(a)) {
			/* bfs's place for it; in the expression it is a global option. */
			p.prim_pos = p.pos;
			if (!a[2] && p.pos + 1 >= argc) {
				error_here(&p, "missing argument to `-j'");
				return -1;
			}
			const char *val = a[2] ? a + 2 : argv[++p.pos];
			if (set_threads(&p, p.pos - p.prim_pos, val) != 0) {
				return -1;
			}
		} else if (strcmp(a, "--") == 0) {
			p.pos++;
			break;
		} else {
			break;
		}
	}

	int first_path = p.pos;
	while (p.pos < argc && !looks_like_expression(argv[p.pos])) {
		p.pos++;
	}
	size_t npaths = (size_t)(p.pos - first_path);
	cmd->roots = malloc((npaths ? npaths : 1) * sizeof(*cmd->roots));
	if (!cmd->roots) {
		lf_diag(ctx, "%s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < npaths; i++) {
		cmd->roots[i] = argv[first_path + (int)i];
	}
	cmd->first_path = npaths ? cmd->roots[0] : NULL;
	if (npaths == 0) {
		cmd->roots[npaths++] = ".";
	}
	cmd->nroots = npaths;
	return parse_expression(&p, 0);
}

int lf_parse_find(struct lf_ctx *ctx, const char *const *roots, size_t nroots, int argc, char **argv,
		  unsigned flags, const char *const *allow, struct lf_cmdline *cmd)
{
	cmdline_init(ctx, cmd);
	struct lf_parser p = {.argv = argv, .argc = argc, .pos = 0, .cmd = cmd,
			      .safe = (flags & LF_PARSE_SAFE) != 0, .allow = allow};

	for (; p.pos < argc; p.pos++) {
		if (!parse_follow_flags(argv[p.pos], cmd)) {
			break;
		}
	}

	cmd->roots = malloc((nroots ? nroots : 1) * sizeof(*cmd->roots));
	if (!cmd->roots) {
		lf_diag(ctx, "%s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < nroots; i++) {
		cmd->roots[i] = roots[i];
	}
	if (nroots == 0) {
		cmd->roots[nroots++] = ".";
	}
	cmd->nroots = nroots;
	if (parse_expression(&p, flags) != 0) {
		return -1;
	}
	if (cmd->files0_from) {
		lf_diag(ctx, "-files0-from: the roots are given apart from the expression here");
		return -1;
	}
	return 0;
}

void lf_cmdline_free(struct lf_cmdline *cmd)
{
	lf_expr_free(cmd->expr);
	lf_expr_free(cmd->exclude);
	free(cmd->roots);
	cmd->exclude = NULL;
	cmd->expr = NULL;
	cmd->roots = NULL;
}
