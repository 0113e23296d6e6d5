/*
 * host.c: a stand-in for the luafind executable's use of lfcli.h, so the
 * -lua primary and the script runner are tested before the CLI wires them.
 *
 *	host --script FILE [ARG...]
 *	host [--stats] [--depth] [-L] ROOT... -lua EXPR
 *
 * The second form walks the roots, prints the path of each entry for which
 * EXPR is true (error entries are reported on stderr), stops at once with
 * status 1 on a runtime error, and with --stats prints the core's counters
 * on stderr in the form of luafind --stats.
 */
#include "lfcli.h"

#include <inttypes.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	lua_State *L = lf_lua_new(NULL);
	if (!L) {
		perror("host: lf_lua_new");
		return 1;
	}
	if (argc >= 3 && strcmp(argv[1], "--script") == 0) {
		int status = lf_lua_run_script(L, argv[2], argc - 3, argv + 3);
		lua_close(L);
		return status;
	}

	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	const char **roots = calloc((size_t)argc, sizeof(*roots));
	const char *expr = NULL;
	int stats = 0;
	size_t nroots = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--stats") == 0) {
			stats = 1;
		} else if (strcmp(argv[i], "--depth") == 0) {
			opts.order = LF_ORDER_POST;
		} else if (strcmp(argv[i], "-L") == 0) {
			opts.symlinks = LF_LOGICAL;
		} else if (strcmp(argv[i], "-lua") == 0 && i + 1 < argc) {
			expr = argv[++i];
		} else {
			roots[nroots++] = argv[i];
		}
	}
	if (!expr || !roots) {
		fprintf(stderr, "usage: host [--stats] [--depth] [-L] ROOT... -lua EXPR\n");
		return 2;
	}
	char err[512];
	struct lf_lua_pred *p = lf_lua_pred_compile(L, expr, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "luafind: %s\n", err);
		lua_close(L);
		free(roots);
		return 1;
	}
	opts.roots = roots;
	opts.nroots = nroots;
	struct lf_walk *w = lf_walk_open(&opts);
	int status = 0;
	uint64_t entries = 0;
	struct lf_entry *e;
	while (w && lf_walk_next(w, &e) > 0) {
		entries++;
		if (e->visit == LF_VISIT_ERROR) {
			fprintf(stderr, "host: %s: %s\n", e->path, strerror(e->error));
			status = 1;
			continue;
		}
		int r = lf_lua_pred_eval(p, w, e, err, sizeof(err));
		if (r < 0) {
			fflush(stdout);
			fprintf(stderr, "host: %s\n", err);
			status = 1;
			break;
		}
		if (r) {
			printf("%s\n", e->path);
		}
	}
	if (w && stats) {
		const struct lf_counters *c = lf_walk_counters(w);
		fflush(stdout);
		fprintf(stderr, "host: stats: entries=%" PRIu64 " opens=%" PRIu64 " stats=%" PRIu64
			" stats_follow=%" PRIu64 " fd_stats=%" PRIu64 " unlinks=%" PRIu64 "\n",
			entries, c->opens, c->stats, c->stats_follow, c->fd_stats, c->unlinks);
	}
	lf_walk_close(w);
	lf_lua_pred_free(p);
	lua_close(L);
	free(roots);
	return status;
}
