/*
 * prim_exec.c: find's command actions (-exec, -execdir, -ok, -okdir), with
 * GNU find 4.9's semantics.
 *
 * Commands start with posix_spawnp and are waited for with waitpid; no shell
 * ever sees the words.  "CMD ... ;" runs once per file with every "{}" inside
 * a word replaced by the path, and is true iff the command exits with 0.
 * "CMD ... {} +" collects paths into batches bounded as GNU's buildcmd bounds
 * them (see arg_limits), is always true, and makes the exit status 1 when a
 * batch fails.  Pending batches run in the finish hook after the walk.
 *
 * -execdir and -okdir run the command in the directory holding the file,
 * with "./NAME" in place of "{}".  luafind never changes its own working
 * directory: the child does, before exec, through
 * posix_spawn_file_actions_addfchdir_np on the walker's directory fd, so
 * directories deeper than PATH_MAX work.  A root's directory is the dirname
 * of the root as written, opened for reading as GNU find and bfs open it (a
 * directory of mode 111 is refused, and GNU's error stops the run); a root
 * without one runs in luafind's own directory.  An -execdir batch holds
 * files of one directory: its enter hook runs it as soon as the walk
 * reaches a file of another directory or depth, before that file is
 * evaluated (GNU runs pending batches when the walk changes level, which
 * between two files the walk returns is the same thing), and it keeps a
 * duplicate of the directory fd until then.
 *
 * -ok and -okdir ask first, on stderr, "< CMD ... PATH > ? ", read a line of
 * standard input and run the command only if the line matches the locale's
 * yes expression (rpmatch: ^[yY] in the C locale).  The answer is read a
 * byte at a time, so nothing after its line is taken from the input, and
 * the command keeps that standard input (POSIX; bfs): it may read what
 * follows the answer.
 *
 * Where luafind differs from GNU find 4.9, on purpose:
 *  - -ok's command keeps find's standard input.  GNU 4.9 means to give it
 *    /dev/null, but its open_safer moves the new fd off 0, so the command
 *    runs with stdin closed.
 *  - A batch the kernel still refuses (E2BIG, when it counts more than GNU's
 *    estimate) is halved and retried; GNU reports the error.  A path too long
 *    for any batch is run alone; GNU exits ("cannot fit single argument...").
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "primary.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum exec_flags {
	EXEC_DIR = 1 << 0,     /**< -execdir, -okdir: run in the file's directory */
	EXEC_CONFIRM = 1 << 1, /**< -ok, -okdir: ask first */
	EXEC_MULTI = 1 << 2,   /**< "{} +": batch the paths */
};

/** The state of one -exec* node. */
struct exec {
	unsigned flags;
	char **words;     /**< the command words (borrowed from argv); without the {} of "+" */
	size_t nwords;
	char **vec;       /**< the argv handed to posix_spawn, rebuilt for each run */
	size_t veccap;
	char *scratch;    /**< the words of a ";" command after replacing {} */
	size_t scratchcap;
	char *dirbuf;     /**< a root's directory, NUL-terminated */
	size_t dircap;

	/* "+" batches, bounded as GNU's buildcmd bounds them. */
	size_t arg_max;    /**< bytes of arguments, NULs included */
	size_t max_argc;   /**< words in a command line */
	size_t init_chars; /**< bytes the command words take */
	size_t chars;      /**< bytes the pending command line takes */
	char *buf;         /**< the pending paths, NUL-terminated, one after another */
	size_t len, cap;
	size_t *offs;      /**< where each pending path starts in buf */
	size_t n, offcap;

	/* Where a pending -execdir batch runs and what it holds. */
	int batch_fd;      /**< the directory (owned), or -1: the current one */
	size_t batch_root;
	int batch_depth;
	char *batch_prefix; /**< path of the directory as the walk shows it */
	size_t batch_prefixlen, batch_prefixcap;
};

/** Where a command runs: fchdir to @fd if >= 0, else luafind's own directory. */
struct run_dir {
	int fd;
};

/** What replaces {} for one file. */
struct target {
	const char *prefix; /**< "./" for -execdir names, else "" */
	size_t pfxlen;
	const char *name;   /**< not NUL-terminated: a root's name may end in its "/" */
	size_t len;
	struct run_dir dir;
	const char *dir_path; /**< a root's directory, to open (open_root_dir), or NULL */
};

/* ---- parsing ------------------------------------------------------------ */

/*
 * -execdir finds its command on PATH from the file's directory, so an empty,
 * "." or relative entry would run a program planted there: GNU refuses.
 */
static bool path_is_safe(struct lf_parser *p, const char *action)
{
	const char *path = getenv("PATH");
	if (!path) {
		return true;
	}
	for (const char *s = path;;) {
		const char *colon = strchrnul(s, ':');
		size_t len = (size_t)(colon - s);
		if (len == 0 || (len == 1 && s[0] == '.')) {
			lf_parse_error(p, 0,
				       "The current directory is included in the PATH environment variable, which "
				       "is insecure in combination with the %s action of find.  Please remove the "
				       "current directory from your $PATH (that is, remove \".\", doubled colons, "
				       "or leading or trailing colons)",
				       action);
			return false;
		}
		if (s[0] != '/') {
			char *entry = strndup(s, len);
			char *q = entry ? lf_diag_quoted(entry) : NULL;
			lf_parse_error(p, 0,
				       "The relative path %s is included in the PATH environment variable, which "
				       "is insecure in combination with the %s action of find.  Please remove that "
				       "entry from $PATH",
				       q ? q : "?", action);
			free(q);
			free(entry);
			return false;
		}
		if (!*colon) {
			return true;
		}
		s = colon + 1;
	}
}

/*
 * GNU's command line bounds (buildcmd.c, bc_init_controlinfo with 2 KiB of
 * headroom, then bc_use_sensible_arg_max): ARG_MAX less the environment
 * (strings and NULs) less the headroom, and at most 128 KiB of argument
 * bytes; the word count is bounded by that space over the pointer size.
 * Matching GNU's limit makes the batches GNU's batches.
 */
static int arg_limits(size_t *arg_max, size_t *max_argc)
{
	long sys = sysconf(_SC_ARG_MAX);
	size_t max = sys > 0 ? (size_t)sys : (size_t)LONG_MAX;
	size_t env = 0;
	for (char **e = environ; *e; e++) {
		env += strlen(*e) + 1;
	}
	const size_t headroom = 2048;
	if (env > max || env + headroom >= max) {
		return -1;
	}
	max -= env + headroom;
	*max_argc = max / sizeof(char *) - 2;
	const size_t sensible = 128 * 1024;
	if (sensible > max) {
		*arg_max = max;
	} else if (sensible < _POSIX_ARG_MAX) {
		*arg_max = _POSIX_ARG_MAX;
	} else {
		*arg_max = sensible;
	}
	return 0;
}

static void exec_free(void *data)
{
	struct exec *ex = data;
	if (!ex) {
		return;
	}
	if (ex->batch_fd >= 0) {
		close(ex->batch_fd);
	}
	free(ex->batch_prefix);
	free(ex->vec);
	free(ex->scratch);
	free(ex->dirbuf);
	free(ex->buf);
	free(ex->offs);
	free(ex);
}

static lf_eval_fn eval_exec;
static lf_finish_fn finish_exec, enter_execdir;

/*
 * The words up to ";", or up to "+" right after a lone "{}" (not for -ok and
 * -okdir): POSIX's reading, and bfs's, so that "{}+ +{} + ;" are words of a
 * ";" command.  GNU ends at a "+" after any word holding "{}"; where that
 * leaves no terminator, its messages say why.  GNU's checks in GNU's order:
 * PATH first for the *dir forms, then the terminator, then the "+" form's
 * single, standalone "{}".
 */
static struct lf_expr *parse_exec(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	unsigned flags = 0;
	if (strcmp(prim->name, "-execdir") == 0 || strcmp(prim->name, "-okdir") == 0) {
		flags |= EXEC_DIR;
	}
	if (strcmp(prim->name, "-ok") == 0 || strcmp(prim->name, "-okdir") == 0) {
		flags |= EXEC_CONFIRM;
		lf_parser_cmdline(p)->ok_stdin = true; /* -files0-from - cannot share stdin */
	}
	if ((flags & EXEC_DIR) && !path_is_safe(p, prim->name)) {
		return NULL;
	}

	int end = 0, braces = 0, brace_at = 0;
	int gnu_braces = 0, gnu_brace_at = -1; /* at the "+" GNU would end at */
	bool saw_braces = false, lone_braces = false;
	for (; args[end] && strcmp(args[end], ";") != 0; end++) {
		if (!(flags & EXEC_CONFIRM) && strcmp(args[end], "+") == 0) {
			if (lone_braces) {
				flags |= EXEC_MULTI;
				break;
			}
			if (saw_braces && gnu_brace_at < 0) {
				gnu_braces = braces;
				gnu_brace_at = brace_at;
			}
		}
		saw_braces = strstr(args[end], "{}") != NULL;
		lone_braces = strcmp(args[end], "{}") == 0;
		if (saw_braces) {
			braces++;
			brace_at = end;
		}
	}
	if (!args[end] && gnu_brace_at >= 0) {
		/* GNU's "+" form, whose "{}" is not alone: GNU's messages below. */
		flags |= EXEC_MULTI;
		braces = gnu_braces;
		brace_at = gnu_brace_at;
	} else if (!args[end]) {
		lf_parse_error_named(p, 0, "missing argument to `%s'", prim->name);
		return NULL;
	}
	if (end == 0) {
		lf_parse_error_named(p, 1, "invalid argument `%s' to `%s'", args[0], prim->name);
		return NULL;
	}
	if (flags & EXEC_MULTI) {
		if (braces > 1) {
			lf_parse_error_named(p, 1 + brace_at, "Only one instance of {} is supported with %s ... +", prim->name);
			return NULL;
		}
		if (strcmp(args[brace_at], "{}") != 0) {
			char *q = lf_diag_quoted(args[brace_at]);
			lf_parse_error_named(p, 1 + brace_at, "In '%s ... {} +' the '{}' must appear by itself, but you specified %s",
				       prim->name, q ? q : "?");
			free(q);
			return NULL;
		}
	}

	struct exec *ex = calloc(1, sizeof(*ex));
	if (!ex) {
		lf_diag(lf_parser_ctx(p), "%s", strerror(errno));
		return NULL;
	}
	ex->flags = flags;
	ex->batch_fd = -1;
	ex->words = args;
	ex->nwords = (size_t)end - ((flags & EXEC_MULTI) ? 1 : 0);
	if (arg_limits(&ex->arg_max, &ex->max_argc) != 0) {
		lf_parse_error(p, 0, "The environment is too large for exec().");
		exec_free(ex);
		return NULL;
	}
	for (size_t i = 0; i < ex->nwords; i++) {
		ex->init_chars += strlen(ex->words[i]) + 1;
	}
	ex->chars = ex->init_chars;

	struct lf_expr *x = lf_parse_node(p, prim);
	if (!x) {
		exec_free(ex);
		return NULL;
	}
	x->data = ex;
	x->destroy = exec_free;
	if (flags & EXEC_MULTI) {
		x->finish = finish_exec;
		if (flags & EXEC_DIR) {
			x->enter = enter_execdir;
		}
	}
	lf_parser_consume(p, end + 1);
	return x;
}

/* ---- running a command -------------------------------------------------- */

/* Our output goes out before the command's, as GNU flushes stdout. */
static void flush_output(struct lf_eval *ev)
{
	if (ev->out) {
		lf_out_flush(ev->out);
	}
	fflush(stdout);
}

/*
 * Signals are the program's (luafind(1) resets SIGCHLD at startup, as GNU
 * find does), not the library's: a command can only be waited for when
 * SIGCHLD is neither ignored nor set to reap children by itself, so that is
 * an error of the run, said once, rather than a status silently lost.
 */
static bool sigchld_usable(struct lf_ctx *ctx)
{
	struct sigaction sa;
	if (sigaction(SIGCHLD, NULL, &sa) != 0 ||
	    (sa.sa_handler != SIG_IGN && !(sa.sa_flags & SA_NOCLDWAIT))) {
		return true;
	}
	if (!ctx->sigchld_said) {
		ctx->sigchld_said = true;
		lf_diag_kind(ctx, LF_ERROR_RUNTIME,
			     "-exec: SIGCHLD is ignored (SIG_IGN or SA_NOCLDWAIT), so no command's status could be "
			     "read: the program must set it to its default first");
	}
	return false;
}

/* Find @cmd as posix_spawnp does, for the ENOEXEC fallback; malloc'd. */
static char *search_path(const char *cmd)
{
	if (strchr(cmd, '/')) {
		return strdup(cmd);
	}
	const char *path = getenv("PATH");
	if (!path) {
		path = "/bin:/usr/bin";
	}
	for (const char *s = path;;) {
		const char *colon = strchrnul(s, ':');
		size_t len = (size_t)(colon - s);
		char *full = malloc(len + strlen(cmd) + 2);
		if (!full) {
			return NULL;
		}
		sprintf(full, "%.*s%s%s", (int)len, s, len ? "/" : "", cmd);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) {
			return full;
		}
		free(full);
		if (!*colon) {
			return NULL;
		}
		s = colon + 1;
	}
}

/*
 * Start @argv where @dir says.
 *
 * A program the kernel cannot execute (ENOEXEC: no "#!") is run by /bin/sh
 * as a script file, as execvp does it in GNU find.  The words still reach it
 * literally: the shell only reads the file.
 *
 * @return 0 with *pid set, or an errno value (not reported)
 */
static int spawn(char **argv, const struct run_dir *dir, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int err = posix_spawn_file_actions_init(&fa);
	if (err) {
		return err;
	}
	if (dir->fd >= 0) {
		err = posix_spawn_file_actions_addfchdir_np(&fa, dir->fd);
	}
	if (!err) {
		err = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	}
	if (err == ENOEXEC) {
		char *file = search_path(argv[0]);
		size_t n = 0;
		while (argv[n]) {
			n++;
		}
		char **shv = file ? malloc((n + 2) * sizeof(*shv)) : NULL;
		if (shv) {
			shv[0] = "/bin/sh";
			shv[1] = file;
			memcpy(shv + 2, argv + 1, n * sizeof(*shv));
			err = posix_spawn(pid, "/bin/sh", &fa, NULL, shv, environ);
		}
		free(shv);
		free(file);
	}
	posix_spawn_file_actions_destroy(&fa);
	return err;
}

/*
 * Flush our output so that it comes before the command's, start the command,
 * wait for it, and report what went wrong in GNU's words.
 *
 * @return the command's exit status, 128 + N for a signal N, 1 if it could
 *         not be started, or -1 for E2BIG when @quiet_e2big (not reported)
 */
static int run(struct lf_eval *ev, char **argv, const struct run_dir *dir, bool quiet_e2big)
{
	flush_output(ev);
	if (!sigchld_usable(ev->cmd->ctx)) {
		ev->status = 1;
		ev->stop = true; /* nothing may act on a status it cannot read */
		return 1;
	}
	pid_t pid;
	int err = spawn(argv, dir, &pid);
	if (err == E2BIG && quiet_e2big) {
		return -1;
	}
	if (err) {
		/*
		 * A command that cannot be run is an error, whatever the
		 * terminator (POSIX, bfs); GNU's child reports it and exits 1,
		 * which makes find's status 1 only for "+".
		 */
		lf_diag_path(ev->cmd->ctx, argv[0], strlen(argv[0]), err);
		ev->status = 1;
		return 1;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			int werr = errno;
			FILE *fp = lf_diag_begin(ev->cmd->ctx);
			fputs("error waiting for ", fp);
			lf_diag_quote(fp, argv[0], strlen(argv[0]));
			fprintf(fp, ": %s", strerror(werr));
			lf_diag_end(ev->cmd->ctx, LF_ERROR_RUNTIME, NULL, 0, werr);
			return 1;
		}
	}
	if (WIFSIGNALED(status)) {
		FILE *fp = lf_diag_begin(ev->cmd->ctx);
		lf_diag_quote(fp, argv[0], strlen(argv[0]));
		fprintf(fp, " terminated by signal %d", WTERMSIG(status));
		lf_diag_end(ev->cmd->ctx, LF_ERROR_RUNTIME, NULL, 0, 0);
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Make room for @n pointers in ex->vec. */
static int reserve_vec(struct exec *ex, size_t n)
{
	if (n <= ex->veccap) {
		return 0;
	}
	size_t cap = ex->veccap ? ex->veccap : 16;
	while (cap < n) {
		cap *= 2;
	}
	char **vec = realloc(ex->vec, cap * sizeof(*vec));
	if (!vec) {
		return -1;
	}
	ex->vec = vec;
	ex->veccap = cap;
	return 0;
}

/* ---- what {} stands for ------------------------------------------------- */

/*
 * For -exec, the path.  For -execdir, "./" and the name, in the directory
 * holding the file: the walker's directory fd, or for a root the dirname of
 * the root as written.  A root's name is its last component with at most one
 * of its trailing slashes ("a/b//" is "./b/" in "a"), and a root of slashes
 * only is "/" in "/", as GNU's base_name and dir_name make them.
 *
 * @return 0, or -1 without memory
 */
static int find_target(struct exec *ex, const struct lf_entry *e, struct target *t)
{
	t->dir.fd = -1;
	t->dir_path = NULL;
	if (!(ex->flags & EXEC_DIR)) {
		t->prefix = "";
		t->pfxlen = 0;
		t->name = e->path;
		t->len = e->pathlen;
		return 0;
	}
	t->prefix = "./";
	t->pfxlen = 2;
	if (e->depth > 0) {
		t->name = e->path + e->nameoff;
		t->len = e->pathlen - e->nameoff;
		t->dir.fd = e->at_fd;
		return 0;
	}

	const char *path = e->path;
	size_t len = e->pathlen;
	size_t end = len;
	while (end > 0 && path[end - 1] == '/') {
		end--;
	}
	size_t start = end, dirlen;
	if (end == 0) {
		t->prefix = "";
		t->pfxlen = 0;
		t->name = "/";
		t->len = 1;
		dirlen = 1;
	} else {
		while (start > 0 && path[start - 1] != '/') {
			start--;
		}
		t->name = path + start;
		t->len = end - start + (end < len ? 1 : 0);
		dirlen = start;
		while (dirlen > 1 && path[dirlen - 1] == '/') {
			dirlen--;
		}
	}
	if (dirlen == 0) {
		return 0; /* the current directory, luafind's own */
	}
	if (dirlen + 1 > ex->dircap) {
		char *buf = realloc(ex->dirbuf, dirlen + 1);
		if (!buf) {
			return -1;
		}
		ex->dirbuf = buf;
		ex->dircap = dirlen + 1;
	}
	memcpy(ex->dirbuf, path, dirlen);
	ex->dirbuf[dirlen] = '\0';
	t->dir_path = ex->dirbuf;
	return 0;
}

/*
 * GNU's words when the directory to run a command in cannot be opened,
 * fatal there: the run stops.
 */
static void save_dir_failed(struct lf_eval *ev, int err)
{
	const struct lf_entry *e = ev->entry;
	flush_output(ev);
	lf_diag_file(ev->cmd->ctx, "Failed to save working directory in order to run a command on ", e->path,
		     e->pathlen, err);
	ev->status = 1;
	ev->stop = true;
}

/*
 * A root's directory, into t->dir.fd (owned by the caller), opened for
 * reading as GNU find and bfs open it: one that can be searched but not
 * read ("find d/f -execdir" with d at mode 111) is refused, with GNU's
 * message.  @return 0, or -1 after reporting it
 */
static int open_root_dir(struct lf_eval *ev, struct target *t)
{
	int fd = open(t->dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		save_dir_failed(ev, errno);
		return -1;
	}
	t->dir.fd = fd;
	return 0;
}

/* ---- -ok ---------------------------------------------------------------- */

/* "< CMD ... PATH > ? " on stderr, then a line of stdin matched by rpmatch. */
static bool confirm(const struct exec *ex, struct lf_eval *ev)
{
	flush_output(ev);
	fprintf(stderr, "< %s ... ", ex->words[0]);
	fwrite(ev->entry->path, 1, ev->entry->pathlen, stderr);
	fputs(" > ? ", stderr);
	fflush(stderr);

	/* Byte by byte: what follows the line is left for the command. */
	char line[256];
	size_t n = 0;
	for (;;) {
		char c;
		ssize_t r = read(STDIN_FILENO, &c, 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0 || c == '\n') {
			break;
		}
		if (n < sizeof(line) - 1) {
			line[n++] = c; /* the rest of a long line is read, not kept */
		}
	}
	line[n] = '\0';
	return n > 0 && rpmatch(line) > 0;
}

/* ---- "CMD ... ;" -------------------------------------------------------- */

static void out_of_memory(struct lf_eval *ev)
{
	flush_output(ev);
	lf_diag_kind(ev->cmd->ctx, LF_ERROR_RUNTIME, "%s", strerror(ENOMEM));
	ev->status = 1;
	ev->stop = true;
}

/* Every "{}" inside every word becomes the target, as GNU's bc_do_insert does. */
static bool eval_exec_one(struct exec *ex, struct lf_eval *ev)
{
	struct target t;
	if (find_target(ex, ev->entry, &t) != 0) {
		out_of_memory(ev);
		return false;
	}
	if ((ex->flags & EXEC_CONFIRM) && !confirm(ex, ev)) {
		return false;
	}

	size_t need = 0;
	for (size_t i = 0; i < ex->nwords; i++) {
		size_t n = 0;
		for (const char *s = ex->words[i]; (s = strstr(s, "{}")); s += 2) {
			n++;
		}
		need += strlen(ex->words[i]) + n * (t.pfxlen + t.len) + 1;
	}
	if (need > ex->scratchcap) {
		char *buf = realloc(ex->scratch, need);
		if (!buf) {
			out_of_memory(ev);
			return false;
		}
		ex->scratch = buf;
		ex->scratchcap = need;
	}
	if (reserve_vec(ex, ex->nwords + 1) != 0) {
		out_of_memory(ev);
		return false;
	}
	char *p = ex->scratch;
	for (size_t i = 0; i < ex->nwords; i++) {
		ex->vec[i] = p;
		const char *s = ex->words[i];
		for (const char *b; (b = strstr(s, "{}")); s = b + 2) {
			memcpy(p, s, (size_t)(b - s));
			p += b - s;
			memcpy(p, t.prefix, t.pfxlen);
			p += t.pfxlen;
			memcpy(p, t.name, t.len);
			p += t.len;
		}
		size_t rest = strlen(s) + 1;
		memcpy(p, s, rest);
		p += rest;
	}
	ex->vec[ex->nwords] = NULL;
	if (t.dir_path && open_root_dir(ev, &t) != 0) {
		return false;
	}
	bool ok = run(ev, ex->vec, &t.dir, false) == 0;
	if (t.dir_path) {
		close(t.dir.fd);
	}
	return ok;
}

/* ---- "CMD ... {} +" ----------------------------------------------------- */

/*
 * Run the pending paths [lo, hi) after the command words.  Should the kernel
 * still find the line too long (E2BIG: a limit lower than sysconf says), the
 * range is halved and each half tried, as xargs does.
 */
static void run_range(struct exec *ex, struct lf_eval *ev, size_t lo, size_t hi, const struct run_dir *dir)
{
	if (reserve_vec(ex, ex->nwords + (hi - lo) + 1) != 0) {
		out_of_memory(ev);
		return;
	}
	memcpy(ex->vec, ex->words, ex->nwords * sizeof(*ex->vec));
	for (size_t i = lo; i < hi; i++) {
		ex->vec[ex->nwords + (i - lo)] = ex->buf + ex->offs[i];
	}
	ex->vec[ex->nwords + (hi - lo)] = NULL;
	int r = run(ev, ex->vec, dir, hi - lo > 1);
	if (r < 0) {
		size_t mid = lo + (hi - lo) / 2;
		run_range(ex, ev, lo, mid, dir);
		run_range(ex, ev, mid, hi, dir);
	} else if (r != 0) {
		ev->status = 1;
	}
}

/* Run the pending batch, if any, and start a new one. */
static void run_batch(struct exec *ex, struct lf_eval *ev)
{
	if (ex->n > 0) {
		struct run_dir dir = {ex->batch_fd};
		run_range(ex, ev, 0, ex->n, &dir);
	}
	ex->n = 0;
	ex->len = 0;
	ex->chars = ex->init_chars;
	if (ex->batch_fd >= 0) {
		close(ex->batch_fd);
		ex->batch_fd = -1;
	}
}

/* Whether @e is in the directory, at the depth, of the pending -execdir batch. */
static bool same_dir(const struct exec *ex, const struct lf_entry *e)
{
	if (e->root != ex->batch_root || e->depth != ex->batch_depth) {
		return false;
	}
	return e->depth == 0 ||
	       (e->nameoff == ex->batch_prefixlen && memcmp(e->path, ex->batch_prefix, e->nameoff) == 0);
}

/*
 * Remember where a new -execdir batch runs: a duplicate of the directory fd,
 * which the walker may close before the batch runs, or a root's directory,
 * opened for reading as GNU find opens it.  @return 0, or -1 with errno set.
 */
static int start_dir_batch(struct exec *ex, const struct lf_entry *e, const struct target *t)
{
	if (t->dir.fd >= 0) {
		ex->batch_fd = fcntl(t->dir.fd, F_DUPFD_CLOEXEC, 3);
		if (ex->batch_fd < 0) {
			return -1;
		}
	} else if (t->dir_path) {
		ex->batch_fd = open(t->dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ex->batch_fd < 0) {
			return -1;
		}
	}
	if (e->nameoff > ex->batch_prefixcap) {
		char *buf = realloc(ex->batch_prefix, e->nameoff);
		if (!buf) {
			return -1;
		}
		ex->batch_prefix = buf;
		ex->batch_prefixcap = e->nameoff;
	}
	if (e->depth > 0) {
		memcpy(ex->batch_prefix, e->path, e->nameoff);
	}
	ex->batch_prefixlen = e->nameoff;
	ex->batch_root = e->root;
	ex->batch_depth = e->depth;
	return 0;
}

/* Append one path (prefix included) to the pending batch. */
static int push_path(struct exec *ex, const struct target *t)
{
	size_t arglen = t->pfxlen + t->len + 1;
	if (ex->len + arglen > ex->cap) {
		size_t cap = ex->cap ? ex->cap : 4096;
		while (cap < ex->len + arglen) {
			cap *= 2;
		}
		char *buf = realloc(ex->buf, cap);
		if (!buf) {
			return -1;
		}
		ex->buf = buf;
		ex->cap = cap;
	}
	if (ex->n == ex->offcap) {
		size_t cap = ex->offcap ? 2 * ex->offcap : 256;
		size_t *offs = realloc(ex->offs, cap * sizeof(*offs));
		if (!offs) {
			return -1;
		}
		ex->offs = offs;
		ex->offcap = cap;
	}
	ex->offs[ex->n++] = ex->len;
	memcpy(ex->buf + ex->len, t->prefix, t->pfxlen);
	memcpy(ex->buf + ex->len + t->pfxlen, t->name, t->len);
	ex->buf[ex->len + arglen - 1] = '\0';
	ex->len += arglen;
	ex->chars += arglen;
	return 0;
}

/*
 * GNU's bc_push_arg: run the batch first if this path would take it past
 * arg_max, and right after if it reaches the word limit.  A path too long
 * for any batch still runs, alone (GNU gives up with "cannot fit single
 * argument within argument list size limit"), and the kernel decides.
 */
static bool eval_exec_multi(struct exec *ex, struct lf_eval *ev)
{
	struct lf_entry *e = ev->entry;
	struct target t;
	if (find_target(ex, e, &t) != 0) {
		out_of_memory(ev);
		return true;
	}
	if ((ex->flags & EXEC_DIR) && ex->n > 0 && !same_dir(ex, e)) {
		run_batch(ex, ev);
	}
	size_t arglen = t.pfxlen + t.len + 1;
	if (ex->n > 0 && ex->chars + arglen > ex->arg_max) {
		run_batch(ex, ev);
	}
	if ((ex->flags & EXEC_DIR) && ex->n == 0 && start_dir_batch(ex, e, &t) != 0) {
		save_dir_failed(ev, errno);
		return true;
	}
	if (push_path(ex, &t) != 0) {
		out_of_memory(ev);
		return true;
	}
	if (ex->nwords + ex->n >= ex->max_argc) {
		run_batch(ex, ev);
	}
	/* POSIX: the "+" form is always true. */
	return true;
}

static bool eval_exec(const struct lf_expr *x, struct lf_eval *ev)
{
	struct exec *ex = x->data;
	if (ex->flags & EXEC_MULTI) {
		return eval_exec_multi(ex, ev);
	}
	return eval_exec_one(ex, ev);
}

/* After the walk (and after -quit): the last batch. */
static void finish_exec(struct lf_expr *x, struct lf_eval *ev)
{
	run_batch(x->data, ev);
}

/*
 * As in find, a pending -execdir batch runs as soon as the walk reaches a
 * file outside its directory, before anything is evaluated for that file
 * (find runs them when the walk changes level; between two files returned
 * one after the other, that is when their directories differ).
 */
static void enter_execdir(struct lf_expr *x, struct lf_eval *ev)
{
	struct exec *ex = x->data;
	if (ex->n > 0 && !same_dir(ex, ev->entry)) {
		run_batch(ex, ev);
	}
}

int lf_prims_exec_add(struct lf_ctx *ctx)
{
	const struct lf_primary rows[] = {
		{"-exec", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_exec, eval_exec, false},
		{"-execdir", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_exec, eval_exec, false},
		{"-ok", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_exec, eval_exec, false},
		{"-okdir", LF_PRIM_ACTION, LF_NARGS_VARIADIC, parse_exec, eval_exec, false},
	};
	return lf_ctx_add_primaries(ctx, rows, sizeof(rows) / sizeof(rows[0]));
}
