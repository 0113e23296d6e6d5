/*
 * cmdline.c: find's command line around the expression: lf_parse() reads
 * the leading options (-H/-L/-P, -O, -D, -j, and bfs's -d, -s, -x, -S), the paths and hands the rest
 * to the grammar (parse.c); lf_parse_find() takes an expression alone for
 * roots the caller gives; lf_cmdline_free().
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "parse_impl.h"

#include "color.h"
#include "diag.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

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

/* A fresh command line: find's defaults, "now" taken once, LUAFIND_IO_URING and LUAFIND_SHARE. */
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
	const char *share = getenv("LUAFIND_SHARE");
	if (env_says_no(share)) {
		cmd->opts.flags |= LF_WALK_SHARE_NEVER;
	} else if (share && (strcmp(share, "1") == 0 || strcasecmp(share, "yes") == 0 ||
			     strcasecmp(share, "on") == 0 || strcasecmp(share, "true") == 0)) {
		cmd->opts.flags |= LF_WALK_SHARE_ALWAYS;
	}
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

/*
 * bfs's flags before the paths: -d (-depth), -s (sorted) and -x (-xdev),
 * which GNU find takes only in the expression.  @return whether @a was one.
 */
static bool parse_bfs_flag(const char *a, struct lf_parser *p)
{
	if (strcmp(a, "-d") == 0) {
		p->explicit_depth = true;
		p->cmd->opts.order = LF_ORDER_POST;
	} else if (strcmp(a, "-s") == 0) {
		p->cmd->opts.flags |= LF_WALK_SORT;
	} else if (strcmp(a, "-x") == 0) {
		p->cmd->opts.flags |= LF_WALK_XDEV;
	} else {
		return false;
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
		if (parse_follow_flags(a, cmd) || parse_bfs_flag(a, &p)) {
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
		} else if (strcmp(a, "-S") == 0) {
			p.prim_pos = p.pos;
			if (p.pos + 1 >= argc) {
				lf_parse_error_named(&p, 0, "missing argument to `-S'");
				return -1;
			}
			if (lf_parse_set_strategy(&p, 1, argv[++p.pos]) != 0) {
				return -1;
			}
		} else if (lf_parse_is_jobs(a)) {
			/* bfs's place for it; in the expression it is a global option. */
			p.prim_pos = p.pos;
			if (!a[2] && p.pos + 1 >= argc) {
				lf_parse_error_named(&p, 0, "missing argument to `-j'");
				return -1;
			}
			const char *val = a[2] ? a + 2 : argv[++p.pos];
			if (lf_parse_set_threads(&p, p.pos - p.prim_pos, val) != 0) {
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
	return lf_parse_expression(&p, 0);
}

int lf_parse_find(struct lf_ctx *ctx, const char *const *roots, size_t nroots, int argc, char **argv,
		  unsigned flags, const char *const *allow, struct lf_cmdline *cmd)
{
	cmdline_init(ctx, cmd);
	struct lf_parser p = {.argv = argv, .argc = argc, .pos = 0, .cmd = cmd,
			      .safe = (flags & LF_PARSE_SAFE) != 0, .records = (flags & LF_PARSE_RECORDS) != 0,
			      .allow = allow};

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
	if (lf_parse_expression(&p, flags) != 0) {
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
