/*
 * luafind: find(1) with Lua inside.
 *
 * Map of the sources:
 *
 *   include/luafind/  the public headers, <luafind/NAME.h> to a host, each of
 *                     one layer below (tests/layers/includes.sh)
 *     walk.h            core: the pull walker's API
 *     stat.h            core: stat data, statx with an fstatat fallback
 *     mem.h             core: memory accounting for callers (a sandbox)
 *     isolate.h         core: a confined child process for untrusted work
 *     query.h           find: the C API over the parser and the driver
 *     error.h           find: errors as values, handed to the context's reporter
 *     luafind.h         lua: the Lua binding's C API (libluafind)
 *   src/core/         the traversal core (no Lua, no CLI)
 *     walk.c            the pull walker's API: open, next (to an engine), delete, close
 *     walk_dfs.c        the depth-first engine (pre-, post- and both orders)
 *     walk_dfs.h        the internal interface of the depth-first files
 *     walk_dfs_ioq.c    the depth-first engine's read-ahead through the I/O queue
 *     walk_dfs_spill.c  the depth-first engine's spills (a directory's rest)
 *     walk_bfs.c        the breadth-first engine
 *     walk_common.c     what the engines share: fd budget, reading, entries, stat cache
 *     walk_impl.h       walker state and the internal interface of the walk files
 *     dir.[ch]          getdents64
 *     stat.c            statx with an fstatat fallback
 *     statx.h           how stat.c asks statx(2), for ring.c
 *     prefetch.[ch]     the stat-ahead thread (LF_WALK_STAT_AHEAD)
 *     ioq.[ch]          the I/O queue: threads reading directories ahead
 *     ring.[ch]         stats in batches through io_uring, for the queue's workers
 *     spin.h            the threads' brief waits: a clock and a spin hint
 *     gitignore.[ch]    what git would ignore: patterns, scopes, repositories
 *     gitignore_impl.h  the internal interface of the ignore rules' files
 *     gitindex.c        the paths a git index tracks
 *     gitconfig.c       git's configuration files: core.excludesFile, objectFormat
 *     wildmatch.c       shell patterns as git matches them, for gitignore.c
 *     lf_glob.h         shell patterns matched as -name does (fnmatch(3))
 *     glob.c            fnmatch(3) behind a compiled pattern, with literal fast paths
 *     lf_regex.h        the regular expression facade (PCRE2 with JIT)
 *     regex.c           PCRE2 behind struct lf_regex: the one file with pcre2.h
 *     isolate.c         a confined child process for untrusted work (--isolate)
 *   src/find/         find's language as a library (lf_find, no Lua: also in
 *                     the Lua module, for luafind.find)
 *     query.c           the C API over the parser and the driver
 *     parse.[ch]        the grammar: argv -> an expression tree
 *     parse_impl.h      what the parser's files share
 *     cmdline.c         the command line around it: leading options, paths
 *     optimize.c        passes over a parsed tree: -O1, whether to read ahead
 *     expr.[ch]         expression nodes and their evaluation
 *     run.[ch]          a run's lifecycle: begin, entry, finish; whole walks
 *     primary.h         how a family of primaries plugs into the parser
 *     prim_core.c       the options and core primaries (-depth, -print, -delete...)
 *     prim_tests.c      the tests (-name, -size, -newer...)
 *     prim_output.c     the output actions (-printf, -ls, -fprint, -json...)
 *     prim_exec.c       the command actions (-exec, -execdir, -ok, -okdir)
 *     printf.[ch]       -printf formats, compiled once, rendered per entry
 *     names.[ch]        how names, modes and link targets are shown
 *     color.[ch]        LS_COLORS, and names written in its colors
 *     hyperlink.[ch]    -hyperlink: OSC 8 file:// links around colored names
 *     datetime.[ch]     -newerXt's dates, as gnulib's parse_datetime
 *     regex_bound.[ch]  a GNU regex's expanded size, bounded for the sandbox
 *     sink.[ch]         the output actions' streams (-fprint FILE...)
 *     ctx.[ch]          the context: all state of a run (no globals)
 *     idnames.[ch]      the uid/gid name cache
 *     mounts.[ch]       the mount table (-fstype, %F)
 *     fsattr.[ch]       extended attributes, ACLs, capabilities (-xattr, -acl, -capable, "ca")
 *     idset.[ch]        the set of files seen (-unique)
 *     output.[ch]       buffered output
 *     json.[ch]         JSON text: -json, -fjson, luafind.json
 *     diag.[ch]         messages in find's form
 *   src/lua/          the binding luafind.core, lf.find, lfcli (-lua, --script)
 *     lbind.h           what the binding's files share
 *     luafind.c         luaopen_luafind_core and the module functions
 *     walk.c            luafind.walk(): the walker userdata and its iterator
 *     entry.c           the entry userdata, a view of the walker's entry
 *     find.c            luafind.find(): find's expressions as a filter of the walk
 *     regex.c           luafind.regex() and luafind.glob()
 *     json.c            luafind.json(): JSON text of a value or an entry
 *     errno.c           luafind.errno and luafind.strerror
 *     error.c           error objects: an lf_error as a Lua value with fields
 *     sandbox.c         Lua states for untrusted code: their limits (memory, budget, time)
 *     sandbox_env.c     what code in a sandbox sees: the globals, wrapped to keep the limits
 *     sandbox_impl.h    the internal interface of the two sandbox files
 *     sandbox_object.c  luafind.sandbox{}: a sandbox as a Lua object, sb:run()
 *     sandbox_lib.c     the standard library's unbounded functions, bounded
 *     pattern_cost.c    a Lua pattern search's cost, counted before it runs
 *     lfcli.[ch]        the executable's Lua state, --script and -lua
 *     lfplan.[ch]       -lua expressions of fields and constants, evaluated in C
 *     module.map        the module exports luaopen_luafind_core alone
 *     lua.cmake         the Lua side's build, from CMakeLists.txt
 *   src/cli/          the executable
 *     main.c            this file: standard streams, parse, run, exit status
 *     prim_lua.[ch]     -lua, --script and --run (registered below)
 *     status.[ch]       the status line: -status, the scripts' progress line
 *     stats.[ch]        --stats: the walks' syscall counters (luafind-mpi's too)
 *   src/mpi/          luafind-mpi: one walk spread over MPI ranks (-DLUAFIND_MPI=ON)
 *     main.c            its command line, the run's phases, exit status
 *     lfm.h             the state the files share
 *     work.c            work items, stealing, Safra's termination detection
 *     forward.c         output to rank 0 in whole records
 *     walk.c            one work item's walk, and the deferred post-order phases
 *
 * Exit status, as find's: 0, or 1 if anything failed (a parse error, a file
 * that could not be read, a write error); 2 for a usage error in luafind's
 * own options (--run without a name, -L before --run...), as the scripts'.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "color.h"
#include "diag.h"
#include "expr.h"
#include "isolate.h"
#include "output.h"
#include "parse.h"
#include "prim_lua.h"
#include "run.h"
#include "stats.h"
#include "status.h"
#include "walk.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static void usage(const struct lf_ctx *ctx)
{
	printf("Usage: %s [-H] [-L] [-P] [-OLEVEL] [-D DEBUGOPTS] [-jN] [-s] [-S bfs|dfs] [--stats] [PATH...] [EXPRESSION]\n"
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
	       "  -s         each directory's entries in sorted order (bfs; also in the expression)\n"
	       "  -S bfs|dfs breadth-first or depth-first (default) search (bfs; also in the expression)\n"
	       "  -d, -x     -depth, -xdev (bfs)\n"
	       "  -jN        N threads: N-1 read directories ahead of the walk (default: 8)\n"
	       "  --stats    print the walk's syscall counters on stderr at the end\n"
	       "  --help     show this help\n"
	       "  --version  show the version\n"
	       "\n"
	       "Options: -depth -maxdepth N -mindepth N -xdev -mount -follow -noleaf -warn -nowarn\n"
	       "         -daystart -regextype TYPE -ignore_readdir_race -noignore_readdir_race\n"
	       "         -status (a status line on a terminal: entries, rate, directories left)\n"
	       "         -files0-from FILE (the paths, NUL-separated; - for standard input)\n"
	       "         -gitignore (skip what git would ignore)\n"
	       "         -exclude-caches (nothing below a directory with a CACHEDIR.TAG)\n"
	       "         -nohidden (leave out hidden files, do not enter hidden directories)\n"
	       "         -noerror (no message about files that cannot be read; the status is still 1)\n"
	       "         -unique (leave out a file seen before under another name)\n"
	       "         -color -nocolor (names colored from LS_COLORS; default: on a terminal)\n"
	       "         -hyperlink (colored names are file:// links, OSC 8)\n"
	       "Operators: ( EXPR ) ! EXPR -not EXPR EXPR -a EXPR EXPR -o EXPR EXPR , EXPR\n"
	       "           -exclude EXPR (leave out what EXPR is true for, before anything else)\n"
	       "Tests: -name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname\n"
	       "       -type -xtype -perm -size -links -user -group -nouser -nogroup -uid -gid -inum\n"
	       "       -samefile -empty -readable -writable -executable -fstype -hidden -true -false\n"
	       "       -atime -ctime -mtime -amin -cmin -mmin -used -newer -anewer -cnewer -newerXY\n"
	       "       -since TIME -asince -Bsince -csince -msince (times after TIME, as -newerXt)\n"
	       "       -xattr -xattrname NAME -acl -capable (extended attributes, ACLs, capabilities)\n"
	       "Actions: -print -print0 -printf -fprint -fprint0 -fprintf -ls -fls -json [FIELDS] -fjson\n"
	       "         -delete -exec -execdir -ok -okdir -prune -quit -limit N (stop after N)\n"
	       "\n"
	       "Lua: -lua 'EXPR' (a Lua expression over the entry's fields, e.g. size > 10*MiB)\n"
	       "     --script FILE [ARG...] runs a Lua script with require \"luafind\" available\n"
	       "     --run SCRIPT runs a bundled cleanup script (dry run unless --apply)\n"
	       "     --sandbox [--max-memory SIZE] [--max-steps N] [--max-time SECONDS] [--allow delete,link,actions]\n"
	       "       before --script: run it in a sandbox (no io, os, require of files; safe lf.find)\n"
	       "     --isolate [--max-cpu SECONDS] [--deadline SECONDS] [--isolate-read PATH]\n"
	       "       run it all in a child process that can read but not change anything\n"
	       "\n"
	       "See luafind(1) and luafind-lua(3) for details.\n",
	       ctx->progname, ctx->progname, ctx->progname);
}

/*
 * The command line, for the reporter to show under a usage error: argi of
 * an error is an index into what find's parser was given, map[argi] the
 * index of that word in argv.
 */
struct cli_reporter {
	struct lf_ctx *ctx;
	int argc;
	char **argv;
	const int *map;
	int nmap;
	bool own_option; /* the last error was one of luafind's options after the paths */
};

/*
 * luafind's own options (split_options takes them among find's leading
 * options): after the paths, find's parser sees an unknown predicate.
 */
static bool is_own_option(const char *a)
{
	static const char *const own[] = {
		"--stats", "--help", "--version", "--list-scripts", "--script", "--run", "--sandbox",
		"--isolate", "--isolate-read", "--max-cpu", "--deadline", "--max-memory", "--max-steps",
		"--max-time", "--allow",
	};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		if (strcmp(a, own[i]) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * Errors as find prints them: "luafind: MESSAGE"; a usage error about an
 * argument is followed by the arguments with a caret under that one.
 */
static void cli_report(void *arg, const struct lf_error *err)
{
	struct cli_reporter *r = arg;
	if (err->kind == LF_ERROR_NOTE && r->own_option) {
		return; /* no "did you mean `-status'?" for --stats: said why already */
	}
	r->own_option = false;
	lf_diag_print(r->ctx, stderr, err);
	if ((err->kind != LF_ERROR_USAGE && err->kind != LF_ERROR_UNKNOWN_PRIMARY) || err->argi < 1 ||
	    err->argi >= r->nmap) {
		return;
	}
	/* Colored as bfs: the bad argument bold, the carets under it red. */
	const struct lf_colors *c = lf_diag_colors(r->ctx, stderr);
	int argi = r->map[err->argi];
	int col = fprintf(stderr, "%s:  ", r->ctx->progname);
	int caret = 0, width = 0;
	for (int i = 1; i < r->argc; i++) {
		col += fprintf(stderr, "%s", i > 1 ? " " : "");
		if (i == argi) {
			caret = col;
			width = (int)strlen(r->argv[i]);
			lf_color_fstart(c, stderr, LF_COLOR_BOLD);
		}
		col += fprintf(stderr, "%s", r->argv[i]);
		if (i == argi) {
			lf_color_fend(c, stderr, LF_COLOR_BOLD);
		}
	}
	fprintf(stderr, "\n%*s", caret, "");
	lf_color_fstart(c, stderr, LF_COLOR_ERR);
	for (int i = 0; i < (width ? width : 1); i++) {
		fputc(i ? '~' : '^', stderr);
	}
	lf_color_fend(c, stderr, LF_COLOR_ERR);
	fputc('\n', stderr);
	if (err->kind == LF_ERROR_UNKNOWN_PRIMARY && is_own_option(r->argv[argi])) {
		char msg[160];
		int n = snprintf(msg, sizeof(msg), "%s is an option of luafind, not of find's expression: "
						   "it goes before the paths",
				 r->argv[argi]);
		struct lf_error note = {.kind = LF_ERROR_NOTE, .message = msg, .argi = -1};
		note.length = n < 0 ? 0 : (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1;
		lf_diag_print(r->ctx, stderr, &note);
		r->own_option = true;
	}
}

/* luafind's own options, which may stand among find's leading options. */
struct cli_opts {
	bool stats, help, version, list_scripts;
	bool sandbox;         /* --sandbox, or a limit: --script runs in a sandbox */
	struct lf_cli_sandbox limits;
	const char *script;   /* --script FILE */
	const char *run_name; /* --run NAME */
	const char *find_opt; /* the first -H, -L, -O or -D: find's, refused before a script */
	int script_argc;      /* the script's arguments */
	char **script_argv;
	bool isolate;         /* --isolate: all of it in a confined child process */
	struct lf_isolate_opts iso;
	const char **iso_read; /* --isolate-read PATH..., argc long */
};

/*
 * --max-memory SIZE (bytes, or with a k, M or G suffix: KiB, MiB, GiB),
 * --max-steps N (1e7 too), --max-time SECONDS (CPU time per call, 0.5 too),
 * --allow LIST (delete,link,actions): the sandbox's limits.
 */
static int sandbox_option(struct lf_ctx *ctx, const char *opt, const char *val, struct cli_opts *o)
{
	if (strcmp(opt, "--allow") == 0) {
		static const char *const names[] = {"delete", "link", "actions"};
		const char *p = val;
		while (*p) {
			size_t len = strcspn(p, ",");
			size_t k = 0;
			while (k < 3 && (strlen(names[k]) != len || strncmp(p, names[k], len) != 0)) {
				k++;
			}
			if (k == 3) {
				lf_diag(ctx, "--allow: '%.*s' is not delete, link or actions", (int)len, p);
				return -1;
			}
			o->limits.allow |= 1u << k; /* LF_SANDBOX_ALLOW_DELETE, _LINK, _ACTIONS */
			p += len + (p[len] == ',');
		}
		return 0;
	}
	char *end;
	errno = 0;
	if (strcmp(opt, "--max-time") == 0 || (strcmp(opt, "--max-steps") == 0 && strpbrk(val, "eE."))) {
		/* Seconds (0.5), or a count written as a float (1e7). */
		double d = strtod(val, &end);
		bool steps = opt[6] == 's';
		if (errno || end == val || *end || !(d > 0) || d > 1e15 || (steps && d != (double)(uint64_t)d)) {
			lf_diag(ctx, "%s: invalid %s '%s'", opt, steps ? "number" : "number of seconds", val);
			return -1;
		}
		if (steps) {
			o->limits.max_steps = (uint64_t)d;
		} else {
			o->limits.max_time_ms = (uint64_t)(d * 1000) ? (uint64_t)(d * 1000) : 1;
		}
		return 0;
	}
	unsigned long long v = strtoull(val, &end, 10);
	unsigned shift = 0;
	if (strcmp(opt, "--max-memory") == 0 && *end && !end[1]) {
		const char *units = "kMG";
		const char *u = strchr(units, *end);
		if (u) {
			shift = 10 * (unsigned)(u - units + 1);
			end++;
		}
	}
	if (errno || end == val || *end || val[0] == '-' || (shift && v > (ULLONG_MAX >> shift))) {
		lf_diag(ctx, "%s: invalid number '%s'", opt, val);
		return -1;
	}
	v <<= shift;
	if (opt[6] == 'm') {
		o->limits.max_memory = (size_t)v;
	} else {
		o->limits.max_steps = v;
	}
	return 0;
}

/* --max-cpu SECONDS, --deadline SECONDS, --isolate-read PATH: --isolate's. */
static int isolate_option(struct lf_ctx *ctx, const char *opt, const char *val, struct cli_opts *o)
{
	if (strcmp(opt, "--isolate-read") == 0) {
		o->iso_read[o->iso.nread_paths++] = val;
		o->iso.read_paths = o->iso_read;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 10);
	if (errno || end == val || *end || val[0] == '-' || v == 0) {
		lf_diag(ctx, "%s: invalid number of seconds '%s'", opt, val);
		return -1;
	}
	*(opt[2] == 'm' ? &o->iso.cpu_seconds : &o->iso.wall_seconds) = v;
	return 0;
}

static bool is_find_leading(const char *a)
{
	if (strncmp(a, "-O", 2) == 0 || (strncmp(a, "-j", 2) == 0 && a[2] >= '0' && a[2] <= '9')) {
		return true;
	}
	if (a[0] != '-' || !a[1]) {
		return false;
	}
	return strspn(a + 1, "HLP") == strlen(a + 1);
}

/*
 * Take luafind's own options out of the leading options: what is left, in
 * order, goes to find's parser in @fargv (argv[0] first; map[i] is the index
 * in argv of fargv[i]).  --help, --version, --list-scripts, --script and
 * --run end the options; what follows the last two is the script's.
 *
 * @return 0, or -1 after a usage error
 */
static int split_options(struct lf_ctx *ctx, int argc, char **argv, struct cli_opts *o, char **fargv,
			 int *map, int *fargc)
{
	int n = 0;
	fargv[n] = argv[0];
	map[n++] = 0;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
			o->help = true;
			break;
		} else if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0) {
			o->version = true;
			break;
		} else if (strcmp(a, "--list-scripts") == 0) {
			if (i + 1 < argc) {
				lf_diag(ctx, "--list-scripts takes no arguments (got '%s'); to run one: --run NAME", argv[i + 1]);
				return -1;
			}
			o->list_scripts = true;
			break;
		} else if (strcmp(a, "--script") == 0 || strcmp(a, "--run") == 0) {
			bool script = a[2] == 's';
			if (i + 1 >= argc || !*argv[i + 1]) {
				lf_diag(ctx, script ? "--script needs a file (or - for standard input)"
						    : "--run needs a script name (see luafind --list-scripts) or a file");
				lf_diag(ctx, "usage: %s %s", ctx->progname,
					script ? "--script FILE [ARG...]" : "--run SCRIPT [OPTIONS] [PATH...]");
				return -1;
			}
			*(script ? &o->script : &o->run_name) = argv[i + 1];
			o->script_argc = argc - i - 2;
			o->script_argv = argv + i + 2;
			break;
		} else if (strcmp(a, "--stats") == 0) {
			o->stats = true;
		} else if (strcmp(a, "--sandbox") == 0) {
			o->sandbox = true;
		} else if (strcmp(a, "--isolate") == 0) {
			o->isolate = true;
		} else if (strcmp(a, "--max-cpu") == 0 || strcmp(a, "--deadline") == 0 ||
			   strcmp(a, "--isolate-read") == 0) {
			if (i + 1 >= argc) {
				lf_diag(ctx, "%s needs an argument", a);
				return -1;
			}
			if (isolate_option(ctx, a, argv[i + 1], o) != 0) {
				return -1;
			}
			o->isolate = true;
			i++;
		} else if (strcmp(a, "--max-memory") == 0 || strcmp(a, "--max-steps") == 0 ||
			   strcmp(a, "--max-time") == 0 || strcmp(a, "--allow") == 0) {
			if (i + 1 >= argc || sandbox_option(ctx, a, argv[i + 1], o) != 0) {
				if (i + 1 >= argc) {
					lf_diag(ctx, "%s needs an argument", a);
				}
				return -1;
			}
			o->sandbox = true;
			i++;
		} else if (strcmp(a, "-D") == 0 || strcmp(a, "-j") == 0) {
			o->find_opt = o->find_opt ? o->find_opt : a;
			fargv[n] = argv[i];
			map[n++] = i;
			if (i + 1 < argc) {
				i++;
				fargv[n] = argv[i];
				map[n++] = i;
			}
		} else if (is_find_leading(a)) {
			if (!o->find_opt && (a[1] == 'O' || a[1] == 'j' || strpbrk(a + 1, "HL"))) {
				o->find_opt = a; /* -P is what scripts do anyway */
			}
			fargv[n] = argv[i];
			map[n++] = i;
		} else {
			for (; i < argc; i++) {
				fargv[n] = argv[i];
				map[n++] = i;
			}
		}
	}
	fargv[n] = NULL;
	*fargc = n;
	return 0;
}

static int run(struct lf_cmdline *cmd, bool stats)
{
	struct lf_ctx *ctx = cmd->ctx;
	struct lf_out out;
	if (lf_out_init(&out, STDOUT_FILENO) != 0) {
		lf_diag(ctx, "%s", strerror(errno));
		return 1;
	}
	struct lf_run r;
	if (lf_run_init(&r, cmd, &out) != 0) {
		lf_diag(ctx, "%s", strerror(errno));
		lf_out_close(&out);
		return 1;
	}
	lf_cli_status_begin(&r); /* -status */
	int status = lf_run_roots(&r, NULL, 0);
	lf_cli_status_end(&r);
	lf_run_free(&r);
	if (stats) {
		lf_cli_print_stats(stderr, ctx->progname, "", &r.total, r.entries);
	}
	lf_out_close(&out); /* flushed, and a failed write reported, by lf_run_finish() */
	return status;
}

/* Run the script, the bundled script or the find command line. */
static int dispatch(const struct cli_opts *o, struct lf_cmdline *cmd)
{
	if (!o->script && !o->run_name && !o->list_scripts) {
		return run(cmd, o->stats);
	}
	int status;
	if (o->script) {
		status = lf_cli_run_script(cmd->ctx, o->script, o->script_argc, o->script_argv,
					   o->sandbox ? &o->limits : NULL);
	} else {
		status = lf_cli_run_named(cmd->ctx, o->run_name, o->script_argc, o->script_argv);
	}
	if (o->stats) { /* the walks the script made */
		struct lf_counters c;
		lf_cli_lua_counters(&c);
		fflush(stdout);
		lf_cli_print_stats(stderr, cmd->ctx->progname, "", &c, c.entries);
	}
	return status;
}

/*
 * Flush what went through stdio (Lua's print, io.write): a failed write is
 * reported in the words of the run's own output (lf_run_report_write_error).
 */
static int flush_stdout(struct lf_ctx *ctx)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return 0;
	}
	lf_run_report_write_error(ctx, errno ? errno : EIO);
	clearerr(stdout);
	return -1;
}

struct isolated_work {
	const struct cli_opts *o;
	struct lf_cmdline *cmd;
};

/* In the isolated child: the same run, to its end. */
static int isolated_work(void *arg)
{
	const struct isolated_work *w = arg;
	int status = dispatch(w->o, w->cmd);
	lf_cli_close_lua();
	if (flush_stdout(w->cmd->ctx) != 0) {
		status = 1;
	}
	return status;
}

/*
 * --isolate: dispatch() in a child process confined by lf_isolate_start()
 * (rlimits, Landlock, a seccomp filter), its output copied to ours.  Under
 * --max-memory, the child's address space may be twice the Lua cap and
 * 512 MiB more (the executable, libraries, thread stacks, the walk).
 */
static int isolated(struct lf_ctx *ctx, struct cli_opts *o, struct lf_cmdline *cmd)
{
	if (o->limits.max_memory && !o->iso.max_memory) {
		size_t cap = o->limits.max_memory;
		o->iso.max_memory = cap > SIZE_MAX / 4 ? SIZE_MAX : 2 * cap + ((size_t)512 << 20);
	}
	struct isolated_work w = {o, cmd};
	struct lf_isolate *iso = lf_isolate_start(&o->iso, isolated_work, &w);
	if (!iso) {
		lf_diag(ctx, "--isolate: %s", errno == ENOSYS ? "this luafind was built without libseccomp" : strerror(errno));
		return 1;
	}
	struct lf_isolate_result res;
	if (lf_isolate_finish(iso, STDOUT_FILENO, &res) != 0) {
		lf_run_report_write_error(ctx, errno);
		return 1;
	}
	if (res.end == LF_ISOLATE_EXITED) {
		return res.status;
	}
	char buf[128];
	lf_diag(ctx, "--isolate: %s", lf_isolate_describe(&res, buf, sizeof(buf)));
	return 1;
}

/*
 * Messages start with the name the program was run as, like find's: "find:"
 * when luafind is installed as find.  Without its directory, though (GNU
 * prints argv[0] whole), so that they do not depend on how it was found.
 */
static void set_progname(struct lf_ctx *ctx, const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	base = base ? base + 1 : argv0;
	if (base && *base) {
		ctx->progname = base;
	}
}

int main(int argc, char **argv)
{
	if (open_std_streams() != 0) {
		return 1;
	}
	/*
	 * As GNU find: an inherited SIG_IGN would leave -exec unable to wait
	 * for its commands.  The program's to decide, not the library's.
	 */
	signal(SIGCHLD, SIG_DFL);
	struct lf_ctx *ctx = lf_ctx_new();
	if (!ctx || lf_prims_lua_add(ctx) != 0 || lf_cli_status_add(ctx) != 0) { /* -lua, -status: its own */
		fprintf(stderr, "luafind: %s\n", strerror(errno));
		lf_ctx_free(ctx);
		return 1;
	}
	set_progname(ctx, argv[0]);
	char **fargv = malloc(((size_t)argc + 1) * sizeof(*fargv));
	int *map = malloc(((size_t)argc + 1) * sizeof(*map));
	if (!fargv || !map) {
		fprintf(stderr, "luafind: %s\n", strerror(errno));
		return 1;
	}
	struct cli_reporter reporter = {ctx, argc, argv, map, 0, false};
	lf_ctx_set_reporter(ctx, cli_report, &reporter, NULL, NULL);
	struct cli_opts o = {0};
	o.iso = (struct lf_isolate_opts)LF_ISOLATE_OPTS_INIT;
	o.iso_read = malloc(((size_t)argc + 1) * sizeof(*o.iso_read));
	if (!o.iso_read) {
		fprintf(stderr, "luafind: %s\n", strerror(errno));
		return 1;
	}
	int fargc = 0;
	if (split_options(ctx, argc, argv, &o, fargv, map, &fargc) != 0) {
		free(fargv);
		free(map);
		free(o.iso_read);
		lf_ctx_free(ctx);
		return 2; /* a usage error in luafind's own options */
	}
	reporter.nmap = fargc;
	struct lf_cmdline cmd;
	int status = 0;
	if (lf_parse(ctx, fargc, fargv, &cmd) != 0) {
		status = 1;
	} else if (cmd.debug_help) {
		lf_parse_debug_usage(stdout);
	} else if (o.help) {
		usage(ctx);
	} else if (o.version) {
		printf("luafind %s\n"
		       "Copyright (c) 2026 the luafind authors.\n"
		       "License: MIT <https://spdx.org/licenses/MIT.html>.\n"
		       "This is free software: you are free to change and redistribute it.\n"
		       "There is NO WARRANTY, to the extent permitted by law.\n",
		       LUAFIND_VERSION);
	} else if (o.sandbox && !o.script) {
		lf_diag(ctx, "--sandbox, --max-memory, --max-steps, --max-time and --allow apply to --script only");
		status = 2;
	} else if ((o.script || o.run_name || o.list_scripts) && o.find_opt) {
		/* Never silently ignored: a script walks with its own options. */
		bool follow = strchr("HLP", o.find_opt[1]) != NULL;
		bool jobs = o.find_opt[1] == 'j';
		lf_diag(ctx, "%s applies to find expressions, not to %s%s", o.find_opt,
			o.script ? "--script" : o.run_name ? "--run" : "--list-scripts",
			jobs && o.script ? " (a script chooses with lf.walk's threads option)"
			: !follow	 ? ""
			: o.script	 ? " (a script chooses with lf.walk's follow option)"
					 : " (the scripts never follow symbolic links)");
		status = 2;
	} else if (o.isolate && o.list_scripts) {
		lf_diag(ctx, "--isolate does not apply to --list-scripts");
		status = 2;
	} else if (o.isolate) {
		status = isolated(ctx, &o, &cmd);
	} else {
		status = dispatch(&o, &cmd);
	}
	lf_cmdline_free(&cmd);
	lf_cli_close_lua(); /* after the expression, whose -lua nodes use it */
	free(fargv);
	free(map);
	free(o.iso_read);
	if (flush_stdout(ctx) != 0) {
		status = 1;
	}
	lf_ctx_free(ctx); /* after the Lua state, which borrows it */
	return status;
}
