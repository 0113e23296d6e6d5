/*
 * luafind-mpi: one find walk spread over the ranks of an MPI job.
 *
 *	mpirun -np N luafind-mpi [--stats] [-H|-L|-P] [PATH...] [EXPRESSION]
 *
 * Every rank parses the same command line with find's parser (the implied
 * -print, -H/-L/-P, -files0-from as in luafind); rank 0 reports a bad one.
 * Then (lfm.h says how the files split the work):
 *
 *   1. rank 0 checks the roots (-delete refuses /) and queues them;
 *   2. the walk: ranks walk items and steal them (work.c, walk.c) until
 *      Safra's token says every rank is out of work;
 *   3. if every rank agrees that none failed, the deferred post-order
 *      visits (-depth, -delete), deepest first (walk.c);
 *   4. the output still held by the other ranks goes to rank 0
 *      (forward.c), then each rank ends its run (-exec ... + batches);
 *   5. --stats: the sums and each rank's share; the exit status is the
 *      worst of the ranks'.
 *
 * -ok, -okdir (no terminal per rank), -quit and -limit (no global order
 * to stop in) are refused.  A rank that dies ends the job: the
 * communicators return errors (MPI_ERRORS_RETURN) and a rank that sees
 * one says so and stops, and no deferred directory is deleted without an
 * all-ranks agreement first.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include "color.h"
#include "diag.h"
#include "expr.h"
#include "prim_lua.h"
#include "sink.h"
#include "stats.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static void usage(const char *progname)
{
	printf("Usage: mpirun -np N %s [--stats] [-H] [-L] [-P] [-jN] [PATH...] [EXPRESSION]\n"
	       "       mpirun -np N %s --run SCRIPT [OPTIONS] [PATH...] | --list-scripts\n"
	       "\n"
	       "Walk each PATH (default: .) with N ranks sharing its directories, and evaluate\n"
	       "EXPRESSION for every file, as luafind(1) and find(1) do.  Output arrives whole\n"
	       "at rank 0, in no particular order.  -ok, -okdir, -quit and -limit are refused.\n"
	       "\n"
	       "  --stats    print the walks' syscall counters on stderr: the sums and each rank's\n"
	       "  --run SCRIPT  run a cleanup script with its walk spread over the ranks (dry run\n"
	       "             unless --apply): old-files, empty-dirs, editor-junk, broken-links,\n"
	       "             big-files, du and the scripts written as they are\n"
	       "  --help     show this help\n"
	       "  --version  show the version\n"
	       "\n"
	       "See luafind-mpi(1).\n",
	       progname, progname);
}

/* The first primary of @x that needs one global order or a terminal, or NULL. */
static const char *refused(const struct lf_expr *x)
{
	static const char *const names[] = {"-ok", "-okdir", "-quit", "-limit"};
	for (; x; x = x->rhs) {
		if (x->kind == LF_EXPR_PRIMARY) {
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
				if (x->name && strcmp(x->name, names[i]) == 0) {
					return names[i];
				}
			}
			return NULL;
		}
		const char *r = refused(x->lhs);
		if (r) {
			return r;
		}
	}
	return NULL;
}

/* -files0-from, on rank 0: collect the names. */
struct names {
	char **v;
	size_t n, cap;
};

static int collect_name(struct lf_run *r, const char *name, void *arg)
{
	(void)r;
	struct names *ns = arg;
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 16;
		char **v = realloc(ns->v, cap * sizeof(*v));
		if (!v) {
			return -1;
		}
		ns->v = v;
		ns->cap = cap;
	}
	ns->v[ns->n] = strdup(name);
	return ns->v[ns->n++] ? 0 : -1;
}

/* Rank 0's names to every rank (%H names a root on any rank). */
static int bcast_names(struct lfm *m, struct names *ns)
{
	uint64_t n = ns->n;
	if (MPI_Bcast(&n, 1, MPI_UINT64_T, 0, m->comm) != MPI_SUCCESS) {
		return -1;
	}
	if (m->rank != 0) {
		ns->v = calloc(n ? n : 1, sizeof(*ns->v));
		if (!ns->v) {
			return -1;
		}
		ns->n = ns->cap = n;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t len = m->rank == 0 ? strlen(ns->v[i]) : 0;
		if (MPI_Bcast(&len, 1, MPI_UINT64_T, 0, m->comm) != MPI_SUCCESS) {
			return -1;
		}
		if (m->rank != 0 && !(ns->v[i] = calloc(len + 1, 1))) {
			return -1;
		}
		if (MPI_Bcast(ns->v[i], (int)len, MPI_BYTE, 0, m->comm) != MPI_SUCCESS) {
			return -1;
		}
	}
	return 0;
}

/* The walkers' options, from the command line's. */
static void walk_options(struct lfm *m)
{
	const struct lf_cmdline *cmd = m->cmd;
	m->wopts = cmd->opts;
	m->maxdepth = cmd->opts.maxdepth;
	m->mindepth = cmd->opts.mindepth;
	m->logical = cmd->opts.symlinks == LF_LOGICAL;
	switch (cmd->opts.order) {
	case LF_ORDER_POST: /* both: a directory is shared on its pre-order visit */
		m->wopts.order = LF_ORDER_BOTH;
		m->post = true;
		break;
	case LF_ORDER_BOTH: /* -exclude under -depth */
		m->post = true;
		m->eval_pre = true;
		break;
	default: /* -S bfs too: no order is promised across ranks */
		m->wopts.order = LF_ORDER_PRE;
		m->eval_pre = true;
		break;
	}
	/*
	 * One I/O queue for all of the rank's walks, one per item: each
	 * starting and joining threads of its own (4 ranks listing the 500k
	 * tmpfs tree started 428 threads, 15 now) cost 1.2x the CPU.  None
	 * under -j1; without one for want of memory, each walk starts its
	 * own, as before.
	 */
	if (m->wopts.flags & LF_WALK_READ_AHEAD) {
		m->queue = lf_walk_queue_new(m->wopts.threads, m->wopts.max_fds, m->wopts.flags & LF_WALK_NO_IO_URING);
		m->wopts.queue = m->queue;
	}
	/*
	 * A warm walk shares its directories with the queue's workers while
	 * that is faster, which it is only while a core is idle; each item's
	 * walk is too short for the walk to find out, and shares all along
	 * (the first slice, untimed).  With as many ranks on the node as the
	 * rank has CPUs, or more, no core is idle: 4 ranks on 2 cores took
	 * 1.2x the time (-size) and 1.2x the CPU (listing) of not sharing.
	 * LUAFIND_SHARE=1 still forces it.
	 */
	cpu_set_t cpus;
	int ncpus = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
	if (m->node_ranks >= ncpus && !(m->wopts.flags & LF_WALK_SHARE_ALWAYS)) {
		m->wopts.flags |= LF_WALK_SHARE_NEVER;
	}
}

/* --stats: the sums, then each rank's share. */
static void stats(struct lfm *m)
{
	enum { N = 15 };
	enum { X = 6 }; /* items, given, got, cpu, idle, requests */
	uint64_t mine[N + X], *all = NULL;
	struct rusage ru;
	uint64_t cpu_us = 0;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		cpu_us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
			 (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	}
	const struct lf_counters *c = &m->total;
	uint64_t v[N + X] = {m->entries, c->opens, c->reopens, c->closes, c->getdents, c->stats, c->stats_follow,
			     c->fd_stats, c->unlinks, c->stats_ahead, c->dirs_ahead, c->dirs_ahead_unused,
			     c->stats_ring, c->tags, c->entries, m->items, m->items_given, m->items_got, cpu_us,
			     m->idle_us, m->requests};
	memcpy(mine, v, sizeof(mine));
	if (m->rank == 0) {
		all = calloc((size_t)m->size, sizeof(mine));
		if (!all) {
			return;
		}
	}
	if (MPI_Gather(mine, N + X, MPI_UINT64_T, all, N + X, MPI_UINT64_T, 0, m->comm) != MPI_SUCCESS ||
	    m->rank != 0) {
		free(all);
		return;
	}
	fflush(stdout);
	struct lf_counters sum = {0};
	uint64_t entries = 0, cpu = 0;
	for (int r = 0; r <= m->size; r++) {
		const uint64_t *a = all + (size_t)(r < m->size ? r : 0) * (N + X);
		struct lf_counters rc = {a[14], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
					 a[12], a[13]};
		char label[128];
		if (r == m->size) {
			lf_cli_print_stats(stderr, m->progname, "", &sum, entries);
			fprintf(stderr, "%s: stats: cpu=%.3f s (user and system, all ranks)\n", m->progname, cpu / 1e6);
			break;
		}
		lf_counters_add(&sum, &rc);
		entries += a[0];
		cpu += a[18];
		snprintf(label, sizeof(label), "rank %d: cpu=%.3f idle=%.3f asked=%llu items=%llu given=%llu got=%llu ",
			 r, a[18] / 1e6, a[19] / 1e6, (unsigned long long)a[20], (unsigned long long)a[15],
			 (unsigned long long)a[16], (unsigned long long)a[17]);
		lf_cli_print_stats(stderr, m->progname, label, &rc, a[0]);
	}
	free(all);
}

/*
 * LUAFIND_MPI_TEST_DEFER_PAUSE_MS: the walk is over on every rank (they
 * all agreed just now), no deferred directory is open yet.  Rank 0 says
 * so, and every rank waits, so that a test can swap a path meanwhile.
 */
static void defer_pause(struct lfm *m)
{
	if (m->rank == 0) {
		fprintf(stderr, "%s: test: walk over, deferred phase in %u ms\n", m->progname, m->defer_pause_ms);
		fflush(stderr);
	}
	struct timespec ts = {m->defer_pause_ms / 1000, (long)(m->defer_pause_ms % 1000) * 1000000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

/* Parse on every rank; rank 0 reports.  @return 0, or 1 (a usage error). */
static int parse(struct lfm *m, struct lf_ctx *ctx, int argc, char **argv, struct lf_cmdline *cmd, bool *parsed)
{
	lf_ctx_set_reporter(ctx, m->rank == 0 ? lf_report_stderr : NULL, ctx, NULL, NULL);
	int ok = lf_parse(ctx, argc, argv, cmd) == 0, all = 0, ok0 = ok;
	*parsed = ok;
	if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, m->comm) != MPI_SUCCESS ||
	    MPI_Bcast(&ok0, 1, MPI_INT, 0, m->comm) != MPI_SUCCESS) {
		return 1;
	}
	lf_ctx_set_reporter(ctx, lf_report_stderr, ctx, NULL, NULL);
	if (!all) {
		if (ok || !ok0) {
			return 1; /* rank 0 said it, or it is another's to say */
		}
		/* Rank 0 parsed it: what failed here is this rank's to say. */
		size_t n;
		const struct lf_error *errs = lf_ctx_errors(ctx, &n, NULL);
		for (size_t i = 0; i < n; i++) {
			lf_report_stderr(ctx, &errs[i]);
		}
		return 1;
	}
	const char *bad = refused(cmd->expr);
	bad = bad ? bad : refused(cmd->exclude);
	if (bad) {
		if (m->rank == 0) {
			lf_diag(ctx, "%s is not available in luafind-mpi: %s", bad,
				bad[2] == 'k' ? "the ranks have no terminal to ask on"
					      : "the ranks walk at once, in no global order to stop in");
		}
		return 1;
	}
	return 0;
}

int lfm_run_open(struct lfm *m, struct lf_cmdline *cmd, struct lf_out *out, struct lf_run *r)
{
	struct lf_ctx *ctx = cmd->ctx;
	if ((m->rank == 0 ? lf_out_init(out, STDOUT_FILENO) : lf_out_init_mem(out)) != 0) {
		lf_diag(ctx, "%s", strerror(errno));
		return 1;
	}
	/*
	 * mpirun hands rank 0 a pseudo-terminal whatever its own standard
	 * output is, and the others' output is not theirs to show: names go
	 * as they are, and in colors only under -color.
	 */
	out->tty = false;
	if (cmd->color == LF_COLOR_AUTO) {
		cmd->color = LF_COLOR_NEVER;
	}
	m->out = out;
	size_t nfiles = lf_sink_files(ctx, NULL, 0, m->rank != 0);
	m->files = nfiles && nfiles != (size_t)-1 ? calloc(nfiles, sizeof(*m->files)) : NULL;
	if (nfiles == (size_t)-1 || (nfiles && !m->files)) {
		lf_diag(ctx, "%s", strerror(ENOMEM));
		lf_out_close(out);
		return 1;
	}
	m->nfiles = lf_sink_files(ctx, m->files, nfiles, false);
	if (lf_run_init(r, cmd, out) != 0) {
		lf_diag(ctx, "%s", strerror(errno));
		lf_out_close(out);
		free(m->files);
		return 1;
	}
	m->run = r;
	return 0;
}

int lfm_run_walk(struct lfm *m, int ok)
{
	struct lf_cmdline *cmd = m->cmd;
	struct lf_run *r = m->run;
	walk_options(m);
	/* %H and %P: the walkers' roots are the items, not these. */
	r->ev.roots = (const char *const *)cmd->roots;
	if (m->rank == 0 && ok && lf_run_begin(r, cmd->roots, cmd->nroots) != 0) {
		ok = 0;
	}
	for (size_t i = 0; m->rank == 0 && ok && i < cmd->nroots; i++) {
		struct lfm_item it = {.path = strdup(cmd->roots[i]), .root = (uint32_t)i, .is_root = true, .origin = -1};
		it.pathlen = it.path ? strlen(it.path) : 0;
		if (!it.path || lfm_push(m, &it) != 0) {
			lf_diag(cmd->ctx, "%s", strerror(ENOMEM));
			free(it.path);
			ok = 0;
		}
	}
	if (MPI_Bcast(&ok, 1, MPI_INT, 0, m->comm) != MPI_SUCCESS) {
		ok = 0;
	}

	/* The walk. */
	if (ok) {
		lfm_work_run(m);
	}

	/* The deferred directories, once every rank says it did not fail. */
	int good = ok && !m->failed && !lf_run_must_stop(r), all = 0;
	if (MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, m->comm) != MPI_SUCCESS) {
		lfm_mpi_error(m, "MPI_Allreduce", MPI_ERR_OTHER);
		all = 0;
	}
	if (all) {
		if (m->defer_pause_ms) {
			defer_pause(m);
		}
		lfm_deferred_run(m);
	} else if (ok && m->rank == 0 && !lf_run_must_stop(r)) {
		lf_diag(cmd->ctx, "a rank failed: %zu directories left undeleted and unvisited", m->ndef);
	}
	return ok;
}

int lfm_run_close(struct lfm *m, int ok, struct lf_out *out)
{
	lfm_forward_end(m);
	int status = lf_run_finish(m->run);
	/* The collectives that follow spin until the last rank comes (rank 0,
	 * writing the output, or a rank running its -exec + batches): wait for
	 * it napping. */
	if (m->size > 1 && !m->failed) {
		lfm_barrier(m);
	}
	if (!ok || m->failed) {
		status = 1;
	}
	lf_run_free(m->run);
	m->run = NULL;
	lf_walk_queue_free(m->queue);
	m->queue = NULL;
	lf_out_close(out);
	free(m->files);
	m->files = NULL;
	return status;
}

/* The walk and what follows it.  @return the rank's status. */
static int run(struct lfm *m, struct lf_cmdline *cmd)
{
	struct lf_out out;
	struct lf_run r;
	if (lfm_run_open(m, cmd, &out, &r) != 0) {
		return 1;
	}

	/* The roots: rank 0's, checked by rank 0. */
	struct names ns = {0};
	int ok = 1;
	if (cmd->files0_from) {
		if (m->rank == 0) {
			lf_run_files0(&r, collect_name, &ns);
		}
		if (bcast_names(m, &ns) != 0) {
			lfm_mpi_error(m, "MPI_Bcast", MPI_ERR_OTHER);
			ok = 0;
		} else {
			cmd->roots = realloc(cmd->roots, (ns.n ? ns.n : 1) * sizeof(*cmd->roots));
			for (size_t i = 0; cmd->roots && i < ns.n; i++) {
				cmd->roots[i] = ns.v[i];
			}
			cmd->nroots = cmd->roots ? ns.n : 0;
		}
	}
	ok = lfm_run_walk(m, ok);
	int status = lfm_run_close(m, ok, &out);
	for (size_t i = 0; i < ns.n; i++) {
		free(ns.v[i]);
	}
	free(ns.v);
	return status;
}

/* Free what the run kept and leave MPI. */
static void finish(struct lfm *m, struct lf_ctx *ctx)
{
	for (size_t k = 0; k < m->ndef; k++) {
		free(m->def[k].path);
	}
	free(m->def);
	free(m->pend);
	free(m->preq);
	free(m->pidx);
	lfm_roots_close(m);
	lfm_work_free(m);
	lf_ctx_free(ctx);
	fflush(stdout);
	MPI_Comm_free(&m->comm);
	MPI_Comm_free(&m->outc);
	MPI_Finalize();
}

int main(int argc, char **argv)
{
	int provided;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "luafind-mpi: MPI_Init failed\n");
		return 1;
	}
	signal(SIGCHLD, SIG_DFL); /* -exec waits for its commands */
	struct lfm m = {0};
	m.progname = "luafind-mpi";
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	if (MPI_Comm_dup(MPI_COMM_WORLD, &m.comm) != MPI_SUCCESS ||
	    MPI_Comm_dup(MPI_COMM_WORLD, &m.outc) != MPI_SUCCESS) {
		fprintf(stderr, "luafind-mpi: MPI_Comm_dup failed\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_set_errhandler(m.comm, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(m.outc, MPI_ERRORS_RETURN);
	MPI_Comm node;
	m.node_ranks = 1;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_size(node, &m.node_ranks);
		MPI_Comm_free(&node);
	}
	/* Test hooks: share every directory; sleep before opening each item
	 * received (the race test swaps a directory meanwhile); once the walk
	 * is over on every rank, say so (rank 0, on stderr) and sleep before
	 * the deferred phase (the deferred race test swaps a component of a
	 * deferred directory's path meanwhile); kill a rank after N entries.
	 * Unset, none of them does anything. */
	const char *eager = getenv("LUAFIND_MPI_EAGER");
	m.eager = eager && strcmp(eager, "1") == 0 && m.size > 1;
	for (size_t k = 0; k < LFM_PARENTS; k++) {
		m.parents[k].fd = -1;
	}
	/* Enough for every other rank to steal twice (LUAFIND_MPI_STOCK: benchmarks). */
	const char *stock = getenv("LUAFIND_MPI_STOCK");
	m.stock = stock ? strtoul(stock, NULL, 10) : 2 * (size_t)(m.size - 1);
	m.restock = true;
	const char *delay = getenv("LUAFIND_MPI_TEST_DELAY_MS");
	m.delay_ms = delay ? (unsigned)strtoul(delay, NULL, 10) : 0;
	const char *pause = getenv("LUAFIND_MPI_TEST_DEFER_PAUSE_MS");
	m.defer_pause_ms = pause ? (unsigned)strtoul(pause, NULL, 10) : 0;
	const char *fault = getenv("LUAFIND_MPI_FAULT");
	int fault_rank = -1;
	unsigned long long fault_n = 0;
	if (fault && sscanf(fault, "%d:%llu", &fault_rank, &fault_n) == 2 && fault_rank == m.rank) {
		m.fault_after = fault_n ? fault_n : 1;
	}

	struct lf_ctx *ctx = lf_ctx_new();
	if (!ctx || lfm_work_init(&m) != 0 || lf_prims_lua_add(ctx) != 0) { /* -lua: each rank its own state */
		fprintf(stderr, "luafind-mpi: %s\n", strerror(ENOMEM));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	lf_ctx_set_progname(ctx, m.progname);

	/* luafind-mpi's own options, before find's. */
	bool want_stats = false;
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--stats") == 0) {
			want_stats = true;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "--version") == 0) {
			if (m.rank == 0) {
				if (argv[i][2] == 'h') {
					usage(m.progname);
				} else {
					printf("luafind-mpi %s\n", LUAFIND_VERSION);
				}
			}
			lf_ctx_free(ctx);
			lfm_work_free(&m);
			MPI_Finalize();
			return 0;
		} else if (strcmp(argv[i], "--run") == 0 || strcmp(argv[i], "--list-scripts") == 0) {
			/* A cleanup script on every rank, its walk the job's (script.c). */
			bool list = argv[i][2] == 'l';
			int status;
			if (!list && i + 1 >= argc) {
				if (m.rank == 0) {
					fprintf(stderr, "%s: --run needs a script name (see luafind --list-scripts) or a file\n",
						m.progname);
				}
				status = 2;
			} else {
				status = lfm_script_main(&m, ctx, list ? NULL : argv[i + 1], list ? 0 : argc - i - 2,
							 list ? NULL : argv + i + 2);
			}
			int worst = status;
			if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, m.comm) != MPI_SUCCESS) {
				worst = 1;
			}
			lf_cli_close_lua();
			finish(&m, ctx);
			return worst;
		} else if (strcmp(argv[i], "--script") == 0) {
			if (m.rank == 0) {
				fprintf(stderr, "%s: --script is not available in luafind-mpi: run the file with --run FILE "
						"(a path with a slash), on the cleanup scripts' framework (see luafind-mpi(1))\n",
					m.progname);
			}
			finish(&m, ctx);
			return 1;
		} else {
			break;
		}
	}
	argv[i - 1] = argv[0];
	struct lf_cmdline cmd;
	bool parsed = false;
	int status = parse(&m, ctx, argc - i + 1, argv + i - 1, &cmd, &parsed);
	if (status == 0) {
		m.cmd = &cmd;
		status = run(&m, &cmd);
		if (want_stats) {
			stats(&m);
		}
	}
	int worst = status;
	if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, m.comm) != MPI_SUCCESS) {
		worst = 1;
	}
	if (parsed) {
		lf_cmdline_free(&cmd);
	}
	lf_cli_close_lua();
	finish(&m, ctx);
	return worst;
}
