/*
 * luafind: find(1) with Lua inside.
 *
 * Map of the sources:
 *
 *   src/core/       the traversal core (no Lua, no CLI)
 *     walk.[ch]       the pull walker's API: open, next (to an engine), delete, close
 *     walk_dfs.c      the depth-first engine (pre-, post- and both orders)
 *     walk_bfs.c      the breadth-first engine
 *     walk_common.c   what the engines share: fd budget, reading, entries, stat cache
 *     walk_impl.h     walker state and the internal interface of the walk files
 *     dir.[ch]        getdents64
 *     stat.[ch]       statx with an fstatat fallback
 *   src/find/       find's language as a library (lf_find, no Lua: also in
 *                   the Lua module, for luafind.find)
 *     parse.[ch]      argv -> options, paths and an expression tree
 *     expr.[ch]       expression nodes and their evaluation
 *     prim_*.c        the primaries, one file per family (primary.h)
 *     output.[ch]     buffered output
 *     diag.[ch]       messages in find's form
 *   src/lua/        the binding luafind.core, lf.find, lfcli (-lua, --script)
 *   src/cli/        the executable
 *     main.c          this file: standard streams, parse, run, exit status
 *     prim_lua.c      -lua and --script (registered below)
 *
 * Exit status, as find's: 0, or 1 if anything failed (a parse error, a file
 * that could not be read, a write error).
 */
#define _GNU_SOURCE
#include "diag.h"
#include "expr.h"
#include "output.h"
#include "parse.h"
#include "primary.h"
#include "walk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef LUAFIND_VERSION
#define LUAFIND_VERSION "unknown"
#endif

/*
 * If fd 0, 1 or 2 is closed, the first directory we open would take its
 * number and our output would go into it.  Fill the hole with an O_PATH fd,
 * on which reads and writes fail with EBADF, so a closed stdout is still
 * reported as a write error, as find does.
 */
static int open_std_streams(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int nfd = open("/dev/null", O_PATH);
			if (nfd < 0) {
				return -1;
			}
			if (nfd != fd) {
				close(nfd);
				return -1;
			}
		}
	}
	return 0;
}

static void usage(void)
{
	printf("Usage: %s [-H] [-L] [-P] [-OLEVEL] [-D DEBUGOPTS] [--stats] [PATH...] [EXPRESSION]\n"
	       "       %s --script FILE [ARG...]\n"
	       "       %s --run SCRIPT [OPTIONS] [PATH...] | --list-scripts\n"
	       "\n"
	       "Walk each PATH (default: .) and evaluate EXPRESSION for every file, as find(1).\n"
	       "\n"
	       "Options before the paths:\n"
	       "  -P         never follow symbolic links (default)\n"
	       "  -H         follow symbolic links given as paths\n"
	       "  -L         follow all symbolic links, reporting loops\n"
	       "  -OLEVEL    GNU's optimisation level: accepted, luafind always runs cheap tests first\n"
	       "  -D FLAGS   GNU's debug flags (-D help lists them): accepted, no debug output\n"
	       "  --stats    print the walk's syscall counters on stderr at the end\n"
	       "  --help     show this help\n"
	       "  --version  show the version\n"
	       "\n"
	       "Options: -depth -maxdepth N -mindepth N -xdev -mount -follow -noleaf -warn -nowarn\n"
	       "         -daystart -regextype TYPE -ignore_readdir_race -noignore_readdir_race\n"
	       "         -files0-from FILE (the paths, NUL-separated; - for standard input)\n"
	       "Operators: ( EXPR ) ! EXPR -not EXPR EXPR -a EXPR EXPR -o EXPR EXPR , EXPR\n"
	       "Tests: -name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname\n"
	       "       -type -xtype -perm -size -links -user -group -nouser -nogroup -uid -gid -inum\n"
	       "       -samefile -empty -readable -writable -executable -fstype -true -false\n"
	       "       -atime -ctime -mtime -amin -cmin -mmin -used -newer -anewer -cnewer -newerXY\n"
	       "Actions: -print -print0 -printf -fprint -fprint0 -fprintf -ls -fls -delete\n"
	       "         -exec -execdir -ok -okdir -prune -quit\n"
	       "\n"
	       "Lua: -lua 'EXPR' (a Lua expression over the entry's fields, e.g. size > 10*MiB)\n"
	       "     --script FILE [ARG...] runs a Lua script with require \"luafind\" available\n"
	       "     --run SCRIPT runs a bundled cleanup script (dry run unless --apply)\n"
	       "\n"
	       "See luafind(1) and luafind-lua(3) for details.\n",
	       lf_progname, lf_progname, lf_progname);
}

static void report_error(const struct lf_entry *e)
{
	if (e->error == ELOOP && e->loop_pathlen) {
		fprintf(stderr, "%s: File system loop detected; ", lf_progname);
		lf_diag_quote(stderr, e->path, e->pathlen);
		fputs(" is part of the same file system loop as ", stderr);
		lf_diag_quote(stderr, e->path, e->loop_pathlen);
		fputs(".\n", stderr);
	} else {
		lf_diag_path(e->path, e->pathlen, e->error);
	}
}

static void print_stats(const struct lf_counters *c, uint64_t entries)
{
	fprintf(stderr,
		"%s: stats: entries=%" PRIu64 " opens=%" PRIu64 " reopens=%" PRIu64 " closes=%" PRIu64
		" getdents=%" PRIu64 " stats=%" PRIu64 " stats_follow=%" PRIu64 " fd_stats=%" PRIu64
		" unlinks=%" PRIu64 " stats_ahead=%" PRIu64 "\n",
		lf_progname, entries, c->opens, c->reopens, c->closes, c->getdents, c->stats,
		c->stats_follow, c->fd_stats, c->unlinks, c->stats_ahead);
}

/*
 * -delete never touches /, whatever path leads there ("/", "//", "/tmp/.."),
 * like rm's --preserve-root.  A symbolic link to / is only a link: lstat.
 */
static int refuse_root_dir(const struct lf_cmdline *cmd, const char *const *roots, size_t nroots)
{
	struct stat slash, st;
	if (!cmd->delete || stat("/", &slash) != 0) {
		return 0;
	}
	for (size_t i = 0; i < nroots; i++) {
		if (lstat(roots[i], &st) == 0 && st.st_dev == slash.st_dev && st.st_ino == slash.st_ino) {
			fprintf(stderr, "%s: refusing to delete ", lf_progname);
			lf_diag_quote(stderr, roots[i], strlen(roots[i]));
			fputs(": it is the root directory /\n", stderr);
			return -1;
		}
	}
	return 0;
}

/* What one run keeps across its walks (one per -files0-from name). */
struct run_state {
	struct lf_cmdline *cmd;
	struct lf_eval ev;
	struct lf_expr **enter;
	size_t nenter;
	uint64_t entries;
	struct lf_counters total;
};

/*
 * Walk @roots, evaluating the expression for every entry.
 *
 * @return 0 to go on with more roots, -1 when the run must stop (-quit, a
 *         fatal error, a failed write, the walker failing)
 */
static int walk_roots(struct run_state *rs, const char *const *roots, size_t nroots)
{
	struct lf_cmdline *cmd = rs->cmd;
	struct lf_eval *ev = &rs->ev;
	if (refuse_root_dir(cmd, roots, nroots) != 0) {
		ev->status = 1;
		return -1;
	}
	struct lf_walk_opts opts = cmd->opts;
	opts.roots = roots;
	opts.nroots = nroots;
	struct lf_walk *w = lf_walk_open(&opts);
	if (!w) {
		lf_diag("%s", strerror(errno));
		ev->status = 1;
		return -1;
	}
	ev->walk = w;
	struct lf_entry *e;
	int r;
	while ((r = lf_walk_next(w, &e)) > 0) {
		rs->entries++;
		ev->seq = rs->entries;
		ev->entry = e;
		for (size_t i = 0; i < rs->nenter; i++) {
			rs->enter[i]->enter(rs->enter[i], ev);
		}
		if (e->visit == LF_VISIT_ERROR) {
			if (e->error == ENOENT && cmd->ignore_race && e->depth > 0) {
				continue;
			}
			lf_out_flush(ev->out);
			report_error(e);
			ev->status = 1;
			continue;
		}
		ev->entry = e;
		lf_expr_eval(cmd->expr, ev);
		if (ev->quit || ev->stop || ev->out->err) {
			break;
		}
	}
	if (r < 0) {
		lf_diag("%s", strerror(errno));
		ev->status = 1;
	}
	lf_counters_add(&rs->total, lf_walk_counters(w));
	lf_walk_close(w);
	ev->walk = NULL;
	ev->entry = NULL;
	return r < 0 || ev->quit || ev->stop || ev->out->err ? -1 : 0;
}

/* "find: MESSAGE 'NAME'..." with NAME quoted as find quotes file names. */
static void diag_named(const char *before, const char *name, const char *after, int err)
{
	fprintf(stderr, "%s: %s", lf_progname, before);
	lf_diag_quote(stderr, name, strlen(name));
	fputs(after, stderr);
	if (err) {
		fprintf(stderr, ": %s", strerror(err));
	}
	fputc('\n', stderr);
}

/*
 * Open -files0-from's FILE ("-": stdin) with GNU find 4.9's checks, in its
 * order: no paths on the command line, and stdin not shared with -ok/-okdir.
 * Sets *@label to the name messages give it.
 *
 * @return the stream, or NULL after the message
 */
static FILE *files0_open(const struct lf_cmdline *cmd, const char **label)
{
	if (cmd->first_path) {
		diag_named("extra operand ", cmd->first_path, "", 0);
		lf_diag("file operands cannot be combined with -files0-from");
		return NULL;
	}
	if (strcmp(cmd->files0_from, "-") == 0) {
		*label = "(standard input)";
		if (cmd->ok_stdin) {
			/* GNU's message ends with an empty line: "%s\n" through error(). */
			lf_diag("option -files0-from reading from standard input cannot be combined with -ok, "
				"-okdir\n");
			return NULL;
		}
		return stdin;
	}
	*label = cmd->files0_from;
	FILE *fp = fopen(cmd->files0_from, "re");
	if (!fp) {
		diag_named("cannot open ", cmd->files0_from, " for reading", errno);
		return NULL;
	}
	/* /dev/stdin, or FILE given as stdin too ("< FILE"), is stdin again. */
	struct stat a, b;
	if (cmd->ok_stdin && fstat(fileno(fp), &a) == 0 && fstat(STDIN_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		diag_named("option -files0-from: standard input must not refer to the same file when combined "
			   "with -ok, -okdir: ",
			   cmd->files0_from, "\n", 0);
		fclose(fp);
		return NULL;
	}
	return fp;
}

/*
 * -files0-from: walk each NUL-separated name as it is read, as GNU find does
 * (a name is walked before the next is read).  An empty name is an error
 * that skips it; a read error ends the list.
 */
static void run_files0(struct run_state *rs)
{
	struct lf_eval *ev = &rs->ev;
	const char *label;
	FILE *fp = files0_open(rs->cmd, &label);
	if (!fp) {
		ev->status = 1;
		return;
	}
	char *name = NULL;
	size_t cap = 0;
	unsigned long n = 0;
	bool ok = true;
	ssize_t len;
	while ((len = getdelim(&name, &cap, '\0', fp)) >= 0) {
		n++;
		if (len > 0 && name[len - 1] == '\0') {
			len--;
		}
		if (len == 0) {
			lf_out_flush(ev->out);
			fprintf(stderr, "%s: ", lf_progname);
			lf_diag_quote(stderr, label, strlen(label));
			fprintf(stderr, ":%lu: invalid zero-length file name\n", n);
			ev->status = 1;
			ok = false;
			continue;
		}
		const char *roots[] = {name};
		if (walk_roots(rs, roots, 1) != 0) {
			ok = false;
			break;
		}
	}
	if (len < 0 && ferror(fp)) {
		int err = errno;
		lf_out_flush(ev->out);
		diag_named("", label, ": read error", err);
		ev->status = 1;
		ok = false;
	}
	free(name);
	int closed = fp == stdin ? 0 : fclose(fp);
	if (ok && closed != 0) {
		diag_named("error reading ", label, "", 0);
		ev->status = 1;
	}
}

static int run(struct lf_cmdline *cmd)
{
	struct lf_out out;
	if (lf_out_init(&out, STDOUT_FILENO) != 0) {
		lf_diag("%s", strerror(errno));
		return 1;
	}
	struct run_state rs = {.cmd = cmd, .ev = {.out = &out, .cmd = cmd}};
	rs.enter = lf_expr_enter_list(cmd->expr, &rs.nenter);
	if (cmd->files0_from) {
		run_files0(&rs);
	} else {
		walk_roots(&rs, cmd->roots, cmd->nroots);
	}
	free(rs.enter);
	/* Pending -exec ... + batches run even after -quit, as in find. */
	if (!rs.ev.stop) {
		lf_expr_finish(cmd->expr, &rs.ev);
	}
	if (cmd->stats) {
		print_stats(&rs.total, rs.entries);
	}
	if (lf_out_close(&out) != 0) {
		/* GNU find's two lines; we also stop at the first failed write. */
		lf_diag("'standard output': %s", strerror(out.err));
		lf_diag("write error");
		rs.ev.status = 1;
	}
	return rs.ev.status;
}

/*
 * Messages start with the name the program was run as, like find's: "find:"
 * when luafind is installed as find.  Without its directory, though (GNU
 * prints argv[0] whole), so that they do not depend on how it was found.
 */
static void set_progname(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	base = base ? base + 1 : argv0;
	if (base && *base) {
		lf_progname = base;
	}
}

int main(int argc, char **argv)
{
	set_progname(argv[0]);
	if (open_std_streams() != 0) {
		return 1;
	}
	struct lf_cmdline cmd;
	lf_parse_add_primaries(lf_prims_lua); /* -lua: this executable's own */
	if (lf_parse(argc, argv, &cmd) != 0) {
		lf_cmdline_free(&cmd);
		lf_cli_close_lua(&cmd);
		return 1;
	}
	int status = 0;
	if (cmd.help) {
		usage();
	} else if (cmd.debug_help) {
		lf_parse_debug_usage(stdout);
	} else if (cmd.version) {
		printf("luafind %s\n", LUAFIND_VERSION);
	} else if (cmd.script) {
		status = lf_cli_run_script(&cmd);
	} else if (cmd.run_name || cmd.list_scripts) {
		status = lf_cli_run_named(&cmd);
	} else {
		status = run(&cmd);
	}
	lf_cmdline_free(&cmd);
	lf_cli_close_lua(&cmd); /* after the expression, whose -lua nodes use it */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		lf_diag("write error");
		status = 1;
	}
	return status;
}
