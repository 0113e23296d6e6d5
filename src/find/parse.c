/*
 * parse.c: find's expression over argv, after GNU find's grammar:
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
 * This file holds the grammar and the checks of a whole expression; the
 * command line around it is cmdline.c's (lf_parse, lf_parse_find), the
 * options and core primaries prim_core.c's, the passes over the parsed
 * tree optimize.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE /* memmem */
#include "parse.h"

#include "color.h"
#include "diag.h"
#include "names.h"
#include "parse_impl.h"
#include "primary.h"
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

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
	if (!prim && lf_parse_is_jobs(tok)) {
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
	if (p->records && lf_record_refused_primary(prim->name)) {
		struct lf_ctx *ctx = p->cmd->ctx;
		const char *outer = ctx->parsing;
		ctx->parsing = prim->name; /* the error is about it (struct lf_error's primary) */
		lf_parse_error_named(p, 0, "%s: not available on records: it acts in the directory of a walk",
				     prim->name);
		ctx->parsing = outer;
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
	if (strcmp(prim->name, "-files0-from") != 0) {
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
	int want;       /* the operator whose operand comes next, or -1 (GNU's words name it) */
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

int lf_parse_exclude_add(struct lf_parser *p, struct operand sub)
{
	if (!p->exclude.x) {
		p->exclude = sub;
	} else if (join(p, LF_EXPR_OR, -1, &p->exclude, sub) != 0) {
		return -1;
	}
	p->cmd->exclude = p->exclude.x;
	return 0;
}

/*
 * -unique (bfs): its test (lf_eval_unique) goes first in the exclusion,
 * before -exclude's operands and -nohidden's, wherever -unique is written,
 * as bfs checks it before them: a file they leave out is seen all the
 * same.  It stats every entry and is impure, so that nothing moves before it.
 * @return 0, or -1 after reporting ENOMEM (the exclusion is then gone)
 */
static int unique_first(struct lf_parser *p)
{
	struct operand u = {.x = lf_expr_new(lf_eval_unique, LF_EXPR_PRIMARY, "-unique"), .depth = 1};
	struct operand rest = p->exclude;
	p->exclude.x = NULL;
	p->cmd->exclude = NULL;
	if (!u.x) {
		lf_diag(p->cmd->ctx, "%s", strerror(errno));
		lf_expr_free(rest.x);
		return -1;
	}
	u.x->needs_stat = true;
	u.x->stats_every = true;
	u.x->impure = true;
	if (rest.x && join(p, LF_EXPR_OR, -1, &u, rest) != 0) {
		lf_expr_free(u.x); /* join freed rest */
		return -1;
	}
	p->exclude = u;
	p->cmd->exclude = u.x;
	return 0;
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
	if (lf_parse_exclude_add(p, sub) != 0) {
		return -1;
	}
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

/* Whether an operand on the stacks has an action: GNU adds no -print then. */
static bool has_action(const struct stacks *s)
{
	for (size_t i = 0; i < s->nvals; i++) {
		if (lf_expr_has_action(s->vals[i].x)) {
			return true;
		}
	}
	return false;
}

/*
 * No operand where operator s->want needs one: the arguments end, or a ")"
 * follows.  In GNU find 4.9's words: its tree builder sees the end of the
 * user's expression as the ")" it adds around an expression without an
 * action (before the implied -print), and with an action sees nothing.
 */
static void missing_operand(struct lf_parser *p, const struct stacks *s, const char *tok)
{
	const char *op = s->want >= 0 ? p->argv[s->want] : NULL;
	if (tok) {
		if (op) {
			error_here(p, "expected an expression between '%s' and ')'", op);
		} else {
			too_many_parens(p);
		}
	} else if (op && !has_action(s)) {
		error_here(p, "expected an expression after '%s'", op);
	} else {
		error_here(p, "invalid expression");
	}
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
		if (!tok || is(tok, ")", NULL)) {
			missing_operand(p, s, tok);
			return -1;
		}
		bool excl = is(tok, "-exclude", NULL);
		if (excl || is(tok, "!", "-not")) {
			if (excl && p->excluding) {
				error_here(p, "-exclude is not supported within -exclude");
				return -1;
			}
			if (push_op(p, s, excl ? 'x' : '!', p->pos) != 0) {
				return -1;
			}
			s->want = p->pos++;
			p->excluding |= excl;
		} else if (is(tok, "(", NULL)) {
			p->pos++;
			if (!peek(p)) {
				error_here(p, "invalid expression; expected to find a ')' but didn't see one. Perhaps you "
					      "need an extra predicate after '%s'", tok);
				return -1;
			}
			if (is(peek(p), ")", NULL)) {
				error_here(p, "invalid expression; empty parentheses are not allowed.");
				return -1;
			}
			if (push_op(p, s, '(', p->pos - 1) != 0) {
				return -1;
			}
			s->want = p->pos - 1;
		} else if (is(tok, "-a", "-and") || is(tok, "-o", "-or") || is(tok, ",", NULL)) {
			error_here(p, "invalid expression; you have used a binary operator '%s' with nothing before it.",
				   tok);
			return -1;
		} else {
			struct lf_expr *x = parse_primary(p);
			return x && push_val(p, s, x) == 0 ? close_prefixes(p, s) : -1;
		}
	}
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
	s->want = -1; /* an implied -a: a factor starts here */
	if (op != '&' || is(tok, "-a", "-and")) {
		if (!p->seen_node) {
			/* Only -files0-from before, which GNU's tree does not hold. */
			error_here(p, "invalid expression; you have used a binary operator '%s' with nothing before it.",
				   tok);
			return -1;
		}
		s->want = p->pos++; /* read_factor says what is missing after it */
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
	struct stacks s = {.want = -1};
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
 * From p->pos on, the expression; then the checks that need all of it, the
 * implied -print (unless @flags says LF_PARSE_NO_PRINT) and GNU's -O1.
 */
int lf_parse_expression(struct lf_parser *p, unsigned flags)
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
	if (p->breadth) {
		if (cmd->opts.order != LF_ORDER_PRE) {
			error_at(p, p->breadth_argi, "-S bfs visits a directory before its contents: it cannot be "
				 "combined with %s", cmd->delete ? "-delete" : "-depth");
			lf_expr_free(v.x);
			return -1;
		}
		cmd->opts.order = LF_ORDER_BREADTH;
	}
	if (!(flags & LF_PARSE_NO_PRINT) && !lf_expr_has_action(v.x) && p->has_limit) {
		/* bfs's rule: the -print implied after -limit would never count. */
		error_at(p, p->limit_argi, "with -limit, you must specify an action explicitly; for example, -print %s %s",
			 argv[p->limit_argi], argv[p->limit_argi + 1]);
		lf_expr_free(v.x);
		return -1;
	}
	if (!(flags & LF_PARSE_NO_PRINT) && !lf_expr_has_action(v.x)) {
		const struct lf_primary print = {"-print", LF_PRIM_ACTION, 0, NULL, lf_eval_print, false};
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
	if (cmd->unique && unique_first(p) != 0) {
		lf_expr_free(v.x);
		return -1;
	}
	struct lf_expr *x = v.x;
	if (lf_parse_optimize(x) != 0 || lf_parse_optimize(cmd->exclude) != 0) {
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
