/*
 * parse.c: recursive descent over argv, after GNU find's grammar:
 *
 *	expr   := clause { "," clause }
 *	clause := term { ("-o" | "-or") term }
 *	term   := factor { ["-a" | "-and"] factor }
 *	factor := ("!" | "-not") factor | "(" expr ")" | primary
 *
 * Primaries come from one table; each row says how many arguments it takes
 * and how to build its node.  Global options (-maxdepth, -depth, ...) are
 * nodes that evaluate to true, as in find.
 */
#include "parse.h"

#include "diag.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct parser {
	char **argv;
	int argc;
	int pos;
	struct lf_cmdline *cmd;
	bool seen_non_option; /* a test or action came before: warn on options */
	bool explicit_depth;  /* -depth was given, not just implied by -delete */
	bool has_prune;
};

enum prim_kind {
	PRIM_OPTION,     /* global option: true, warns when placed after tests */
	PRIM_POSITIONAL, /* positional option: true, never warns */
	PRIM_TEST,
	PRIM_ACTION,
	PRIM_ACTION_PRINTS, /* an action that does not stop the implied -print */
};

struct primary;
typedef struct lf_expr *parse_fn(struct parser *p, const struct primary *prim, char **args);

struct primary {
	const char *name;
	enum prim_kind kind;
	int nargs;
	parse_fn *parse;
	lf_eval_fn *eval;
};

static struct lf_expr *new_node(struct parser *p, const struct primary *prim)
{
	(void)p;
	struct lf_expr *x = lf_expr_new(prim->eval, LF_EXPR_PRIMARY, prim->name);
	if (!x) {
		lf_diag("%s", strerror(errno));
		return NULL;
	}
	x->is_action = prim->kind == PRIM_ACTION;
	return x;
}

static struct lf_expr *parse_simple(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	return new_node(p, prim);
}

static struct lf_expr *parse_option_true(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	return new_node(p, prim);
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

static struct lf_expr *parse_depth_limit(struct parser *p, const struct primary *prim, char **args)
{
	int v;
	if (!parse_int(args[0], &v)) {
		lf_diag("Expected a positive decimal integer argument to %s, but got '%s'", prim->name, args[0]);
		return NULL;
	}
	if (strcmp(prim->name, "-maxdepth") == 0) {
		p->cmd->opts.maxdepth = v;
	} else {
		p->cmd->opts.mindepth = v;
	}
	return new_node(p, prim);
}

static struct lf_expr *parse_depth(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->explicit_depth = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return new_node(p, prim);
}

static struct lf_expr *parse_xdev(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.flags |= LF_WALK_XDEV;
	return new_node(p, prim);
}

static struct lf_expr *parse_follow(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->cmd->opts.symlinks = LF_LOGICAL;
	return new_node(p, prim);
}

static struct lf_expr *parse_warn(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->cmd->warn = strcmp(prim->name, "-warn") == 0;
	return new_node(p, prim);
}

static struct lf_expr *parse_name(struct parser *p, const struct primary *prim, char **args)
{
	struct lf_expr *x = new_node(p, prim);
	if (x) {
		x->str = args[0];
		if (strchr(args[0], '/') && strcmp(args[0], "/") != 0 && p->cmd->warn) {
			lf_diag_warn("'%s' matches against basenames only, but the given pattern contains a "
				     "directory separator ('/'), thus the expression will evaluate to false all "
				     "the time.  Did you mean '-wholename'?",
				     prim->name);
		}
	}
	return x;
}

/* -type f,d,l: a set of enum lf_type bits. */
static struct lf_expr *parse_type(struct parser *p, const struct primary *prim, char **args)
{
	static const char letters[] = "fdlpscb";
	static const enum lf_type types[] = {LF_REG, LF_DIR, LF_LNK, LF_FIFO, LF_SOCK, LF_CHR, LF_BLK};
	const char *a = args[0];
	unsigned mask = 0;
	for (size_t i = 0;; i += 2) {
		const char *l = a[i] ? strchr(letters, a[i]) : NULL;
		if (!l) {
			lf_diag("Unknown argument to %s: %c", prim->name, a[i] ? a[i] : ' ');
			return NULL;
		}
		unsigned bit = 1u << types[l - letters];
		if (mask & bit) {
			lf_diag("Duplicate file type '%c' in the argument list to %s.", a[i], prim->name);
			return NULL;
		}
		mask |= bit;
		if (a[i + 1] == '\0') {
			break;
		}
		if (a[i + 1] != ',') {
			lf_diag("Must separate multiple arguments to %s using: ','", prim->name);
			return NULL;
		}
		if (a[i + 2] == '\0') {
			lf_diag("Last file type in list argument to %s is missing, i.e., list is ending on: ','",
				prim->name);
			return NULL;
		}
	}
	struct lf_expr *x = new_node(p, prim);
	if (x) {
		x->mask = mask;
	}
	return x;
}

static struct lf_expr *parse_prune(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->has_prune = true;
	return new_node(p, prim);
}

/* -delete implies -depth, as in GNU find. */
static struct lf_expr *parse_delete(struct parser *p, const struct primary *prim, char **args)
{
	(void)args;
	p->cmd->delete = true;
	p->cmd->opts.order = LF_ORDER_POST;
	return new_node(p, prim);
}

static const struct primary primaries[] = {
	{"-delete", PRIM_ACTION, 0, parse_delete, lf_eval_delete},
	{"-depth", PRIM_OPTION, 0, parse_depth, lf_eval_true},
	{"-d", PRIM_OPTION, 0, parse_depth, lf_eval_true},
	{"-false", PRIM_TEST, 0, parse_simple, lf_eval_false},
	{"-follow", PRIM_OPTION, 0, parse_follow, lf_eval_true},
	{"-maxdepth", PRIM_OPTION, 1, parse_depth_limit, lf_eval_true},
	{"-mindepth", PRIM_OPTION, 1, parse_depth_limit, lf_eval_true},
	{"-name", PRIM_TEST, 1, parse_name, lf_eval_name},
	{"-mount", PRIM_OPTION, 0, parse_xdev, lf_eval_true},
	{"-noleaf", PRIM_OPTION, 0, parse_option_true, lf_eval_true},
	{"-nowarn", PRIM_POSITIONAL, 0, parse_warn, lf_eval_true},
	{"-print", PRIM_ACTION, 0, parse_simple, lf_eval_print},
	{"-print0", PRIM_ACTION, 0, parse_simple, lf_eval_print0},
	{"-prune", PRIM_ACTION_PRINTS, 0, parse_prune, lf_eval_prune},
	{"-quit", PRIM_ACTION, 0, parse_simple, lf_eval_quit},
	{"-true", PRIM_TEST, 0, parse_simple, lf_eval_true},
	{"-type", PRIM_TEST, 1, parse_type, lf_eval_type},
	{"-warn", PRIM_POSITIONAL, 0, parse_warn, lf_eval_true},
	{"-xdev", PRIM_OPTION, 0, parse_xdev, lf_eval_true},
};

static const struct primary *find_primary(const char *name)
{
	for (size_t i = 0; i < sizeof(primaries) / sizeof(primaries[0]); i++) {
		if (strcmp(primaries[i].name, name) == 0) {
			return &primaries[i];
		}
	}
	return NULL;
}

/* Levenshtein distance, for "did you mean" on unknown primaries. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64) {
		return SIZE_MAX;
	}
	size_t row[65];
	for (size_t j = 0; j <= lb; j++) {
		row[j] = j;
	}
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best) {
				best = row[j] + 1;
			}
			if (row[j - 1] + 1 < best) {
				best = row[j - 1] + 1;
			}
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static void unknown_primary(const char *name)
{
	lf_diag("unknown predicate `%s'", name);
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < sizeof(primaries) / sizeof(primaries[0]); i++) {
		size_t d = edit_distance(name, primaries[i].name);
		if (d < best_d) {
			best_d = d;
			best = primaries[i].name;
		}
	}
	if (best) {
		lf_diag("did you mean `%s'?", best);
	}
}

static const char *peek(struct parser *p)
{
	return p->pos < p->argc ? p->argv[p->pos] : NULL;
}

static bool is(const char *tok, const char *a, const char *b)
{
	return tok && (strcmp(tok, a) == 0 || (b && strcmp(tok, b) == 0));
}

static struct lf_expr *parse_expr(struct parser *p);

static struct lf_expr *binary(lf_eval_fn *fn, enum lf_expr_kind kind, const char *name,
			      struct lf_expr *lhs, struct lf_expr *rhs)
{
	struct lf_expr *x = lf_expr_new(fn, kind, name);
	if (!x) {
		lf_diag("%s", strerror(errno));
		lf_expr_free(lhs);
		lf_expr_free(rhs);
		return NULL;
	}
	x->lhs = lhs;
	x->rhs = rhs;
	return x;
}

static struct lf_expr *parse_primary(struct parser *p)
{
	const char *tok = p->argv[p->pos];
	const struct primary *prim = find_primary(tok);
	if (!prim) {
		if (tok[0] == '-' && tok[1]) {
			unknown_primary(tok);
		} else {
			lf_diag("paths must precede expression: `%s'", tok);
		}
		return NULL;
	}
	if (p->argc - p->pos - 1 < prim->nargs) {
		lf_diag("missing argument to `%s'", tok);
		return NULL;
	}
	char **args = p->argv + p->pos + 1;
	p->pos += 1 + prim->nargs;
	if (prim->kind == PRIM_OPTION && p->seen_non_option && p->cmd->warn) {
		lf_diag_warn("you have specified the global option %s after the argument %s, but global "
			     "options are not positional, i.e., %s affects tests specified before it as well "
			     "as those specified after it.  Please specify global options before other "
			     "arguments.",
			     tok, p->argv[p->pos - 2 - prim->nargs], tok);
	}
	if (prim->kind == PRIM_TEST || prim->kind == PRIM_ACTION || prim->kind == PRIM_ACTION_PRINTS) {
		p->seen_non_option = true;
	}
	return prim->parse(p, prim, args);
}

static struct lf_expr *parse_factor(struct parser *p)
{
	const char *tok = peek(p);
	if (!tok) {
		lf_diag("invalid expression");
		return NULL;
	}
	if (is(tok, "!", "-not")) {
		p->pos++;
		if (!peek(p) || is(peek(p), ")", NULL) || is(peek(p), "-o", "-or") || is(peek(p), "-a", "-and") ||
		    is(peek(p), ",", NULL)) {
			lf_diag("expected an expression after '%s'", tok);
			return NULL;
		}
		struct lf_expr *sub = parse_factor(p);
		return sub ? binary(lf_eval_not, LF_EXPR_NOT, "!", sub, NULL) : NULL;
	}
	if (is(tok, "(", NULL)) {
		p->pos++;
		if (is(peek(p), ")", NULL)) {
			lf_diag("invalid expression; empty parentheses are not allowed.");
			return NULL;
		}
		struct lf_expr *sub = parse_expr(p);
		if (!sub) {
			return NULL;
		}
		if (!is(peek(p), ")", NULL)) {
			lf_diag("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
			lf_expr_free(sub);
			return NULL;
		}
		p->pos++;
		return sub;
	}
	if (is(tok, "-a", "-and") || is(tok, "-o", "-or") || is(tok, ",", NULL)) {
		lf_diag("invalid expression; you have used a binary operator '%s' with nothing before it.", tok);
		return NULL;
	}
	if (is(tok, ")", NULL)) {
		lf_diag("invalid expression; you have too many ')'");
		return NULL;
	}
	return parse_primary(p);
}

static bool starts_factor(const char *tok)
{
	return tok && !is(tok, ")", NULL) && !is(tok, "-o", "-or") && !is(tok, ",", NULL);
}

static struct lf_expr *parse_term(struct parser *p)
{
	struct lf_expr *lhs = parse_factor(p);
	while (lhs && starts_factor(peek(p))) {
		if (is(peek(p), "-a", "-and")) {
			p->pos++;
			if (!starts_factor(peek(p)) || is(peek(p), "-a", "-and")) {
				lf_diag("invalid expression");
				lf_expr_free(lhs);
				return NULL;
			}
		}
		struct lf_expr *rhs = parse_factor(p);
		if (!rhs) {
			lf_expr_free(lhs);
			return NULL;
		}
		lhs = binary(lf_eval_and, LF_EXPR_AND, "-a", lhs, rhs);
	}
	return lhs;
}

static struct lf_expr *parse_clause(struct parser *p)
{
	struct lf_expr *lhs = parse_term(p);
	while (lhs && is(peek(p), "-o", "-or")) {
		p->pos++;
		if (!starts_factor(peek(p)) || is(peek(p), "-a", "-and")) {
			lf_diag("invalid expression");
			lf_expr_free(lhs);
			return NULL;
		}
		struct lf_expr *rhs = parse_term(p);
		if (!rhs) {
			lf_expr_free(lhs);
			return NULL;
		}
		lhs = binary(lf_eval_or, LF_EXPR_OR, "-o", lhs, rhs);
	}
	return lhs;
}

static struct lf_expr *parse_expr(struct parser *p)
{
	struct lf_expr *lhs = parse_clause(p);
	while (lhs && is(peek(p), ",", NULL)) {
		p->pos++;
		if (!starts_factor(peek(p)) || is(peek(p), "-a", "-and")) {
			lf_diag("invalid expression");
			lf_expr_free(lhs);
			return NULL;
		}
		struct lf_expr *rhs = parse_clause(p);
		if (!rhs) {
			lf_expr_free(lhs);
			return NULL;
		}
		lhs = binary(lf_eval_comma, LF_EXPR_COMMA, ",", lhs, rhs);
	}
	return lhs;
}

/* GNU's rule for where the paths end. */
static bool looks_like_expression(const char *arg)
{
	if (arg[0] == '-' && arg[1]) {
		return true;
	}
	return strcmp(arg, "(") == 0 || strcmp(arg, "!") == 0 || strcmp(arg, ")") == 0 ||
	       strcmp(arg, ",") == 0;
}

int lf_parse(int argc, char **argv, struct lf_cmdline *cmd)
{
	static const char *const dot[] = {"."};
	struct lf_walk_opts init = LF_WALK_OPTS_INIT;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opts = init;
	cmd->warn = isatty(STDIN_FILENO);

	struct parser p = {.argv = argv, .argc = argc, .pos = 1, .cmd = cmd};

	/* Long options of luafind itself, and find's leading options. */
	for (; p.pos < argc; p.pos++) {
		const char *a = argv[p.pos];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
			cmd->help = true;
			return 0;
		} else if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0) {
			cmd->version = true;
			return 0;
		} else if (strcmp(a, "--stats") == 0) {
			cmd->stats = true;
		} else if (strcmp(a, "-P") == 0) {
			cmd->opts.symlinks = LF_PHYSICAL;
		} else if (strcmp(a, "-H") == 0) {
			cmd->opts.symlinks = LF_COMFOLLOW;
		} else if (strcmp(a, "-L") == 0) {
			cmd->opts.symlinks = LF_LOGICAL;
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
		lf_diag("%s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < npaths; i++) {
		cmd->roots[i] = argv[first_path + (int)i];
	}
	if (npaths == 0) {
		cmd->roots[npaths++] = dot[0];
	}
	cmd->nroots = npaths;

	struct lf_expr *x = NULL;
	if (p.pos < argc) {
		x = parse_expr(&p);
		if (!x) {
			return -1;
		}
		if (p.pos < argc) {
			if (is(argv[p.pos], ")", NULL)) {
				lf_diag("invalid expression; you have too many ')'");
			} else {
				lf_diag("unexpected extra predicate '%s'", argv[p.pos]);
			}
			lf_expr_free(x);
			return -1;
		}
	}
	if (cmd->delete && cmd->opts.symlinks == LF_LOGICAL) {
		/* Deleting never goes through a link below the roots. */
		cmd->opts.symlinks = LF_COMFOLLOW;
	}
	if (cmd->delete && p.has_prune && !p.explicit_depth) {
		lf_diag("The -delete action automatically turns on -depth, but -prune does nothing when "
			"-depth is in effect.  If you want to carry on anyway, just explicitly use the -depth "
			"option.");
		lf_expr_free(x);
		return -1;
	}
	if (!lf_expr_has_action(x)) {
		static const struct primary print = {"-print", PRIM_ACTION, 0, parse_simple, lf_eval_print};
		struct lf_expr *pr = new_node(&p, &print);
		if (!pr) {
			lf_expr_free(x);
			return -1;
		}
		x = x ? binary(lf_eval_and, LF_EXPR_AND, "-a", x, pr) : pr;
		if (!x) {
			return -1;
		}
	}
	cmd->expr = x;
	cmd->opts.roots = cmd->roots;
	cmd->opts.nroots = cmd->nroots;
	return 0;
}

void lf_cmdline_free(struct lf_cmdline *cmd)
{
	lf_expr_free(cmd->expr);
	free(cmd->roots);
	cmd->expr = NULL;
	cmd->roots = NULL;
}
