/*
 * luafind: find(1) with Lua inside.
 *
 * Map of the sources:
 *
 *   src/core/       the traversal core (no Lua, no CLI)
 *     walk.[ch]       the pull walker: depth-first engine, fd budget, stat cache
 *     walk_bfs.c      the breadth-first engine
 *     walk_impl.h     walker state shared by the two engines
 *     dir.[ch]        getdents64
 *     stat.[ch]       statx with an fstatat fallback
 *   src/cli/        the find front end (library lf_find, no Lua: also in the
 *                   Lua module, for luafind.find) and the command line
 *     main.c          this file: standard streams, parse, run, exit status
 *     parse.[ch]      argv -> options, paths and an expression tree
 *     expr.[ch]       expression nodes and their evaluation
 *     prim_*.c        the primaries, one file per family (primary.h)
 *     prim_lua.c      -lua and --script (executable only, registered below)
 *     output.[ch]     buffered output
 *     diag.[ch]       messages on stderr in find's form (or captured)
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
	printf("Usage: %s [-H] [-L] [-P] [-OLEVEL] [--stats] [PATH...] [EXPRESSION]\n"
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
	       "  --stats    print the walk's syscall counters on stderr at the end\n"
	       "  --help     show this help\n"
	       "  --version  show the version\n"
	       "\n"
	       "Options: -depth -maxdepth N -mindepth N -xdev -mount -follow -noleaf -warn -nowarn\n"
	       "         -daystart -regextype TYPE -ignore_readdir_race -noignore_readdir_race\n"
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
static int refuse_root_dir(const struct lf_cmdline *cmd)
{
	struct stat slash, st;
	if (!cmd->delete || stat("/", &slash) != 0) {
		return 0;
	}
	for (size_t i = 0; i < cmd->nroots; i++) {
		if (lstat(cmd->roots[i], &st) == 0 && st.st_dev == slash.st_dev && st.st_ino == slash.st_ino) {
			fprintf(stderr, "%s: refusing to delete ", lf_progname);
			lf_diag_quote(stderr, cmd->roots[i], strlen(cmd->roots[i]));
			fputs(": it is the root directory /\n", stderr);
			return -1;
		}
	}
	return 0;
}

static int run(struct lf_cmdline *cmd)
{
	if (refuse_root_dir(cmd) != 0) {
		return 1;
	}
	struct lf_out out;
	if (lf_out_init(&out, STDOUT_FILENO) != 0) {
		lf_diag("%s", strerror(errno));
		return 1;
	}
	struct lf_walk *w = lf_walk_open(&cmd->opts);
	if (!w) {
		lf_diag("%s", strerror(errno));
		lf_out_close(&out);
		return 1;
	}

	struct lf_eval ev = {.walk = w, .out = &out, .cmd = cmd};
	size_t nenter;
	struct lf_expr **enter = lf_expr_enter_list(cmd->expr, &nenter);
	uint64_t entries = 0;
	struct lf_entry *e;
	int r;
	while ((r = lf_walk_next(w, &e)) > 0) {
		entries++;
		ev.seq = entries;
		ev.entry = e;
		for (size_t i = 0; i < nenter; i++) {
			enter[i]->enter(enter[i], &ev);
		}
		if (e->visit == LF_VISIT_ERROR) {
			if (e->error == ENOENT && cmd->ignore_race && e->depth > 0) {
				continue;
			}
			lf_out_flush(&out);
			report_error(e);
			ev.status = 1;
			continue;
		}
		ev.entry = e;
		lf_expr_eval(cmd->expr, &ev);
		if (ev.quit || ev.stop || out.err) {
			break;
		}
	}
	free(enter);
	/* Pending -exec ... + batches run even after -quit, as in find. */
	if (!ev.stop) {
		lf_expr_finish(cmd->expr, &ev);
	}
	if (r < 0) {
		lf_diag("%s", strerror(errno));
		ev.status = 1;
	}
	if (cmd->stats) {
		print_stats(lf_walk_counters(w), entries);
	}
	lf_walk_close(w);
	if (lf_out_close(&out) != 0) {
		/* GNU find's two lines; we also stop at the first failed write. */
		lf_diag("'standard output': %s", strerror(out.err));
		lf_diag("write error");
		ev.status = 1;
	}
	return ev.status;
}

int main(int argc, char **argv)
{
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
