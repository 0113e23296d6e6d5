/*
 * records_host.c: a C host that evaluates a find expression on files it
 * found by itself, with no walk of luafind's: it reads NUL-separated paths
 * (as find -print0 or -files0-from lists them), describes each one as a
 * struct lf_record and hands it to lf_query_eval_record() (<luafind/query.h>).
 * The example of luafind(3)'s RECORDS.
 *
 *	records_host [--unknown] [--root DIR] LIST EXPR...
 *
 * LIST is a file of NUL-separated paths, or - for standard input.  Each
 * path's depth is the number of its components below DIR (0 without
 * --root, or for DIR itself).  Each path is lstat'ed (stat'ed when the
 * expression starts with -L, or -H for depth 0, as the query then follows
 * links) and the record holds the stat data, unless --unknown: then it
 * holds the path and depth only, and the library stats what the
 * expression needs, no more.  The query
 * implies -print, as luafind does, so that `luafind DIR -print0 |
 * records_host --root DIR - EXPR` prints what `luafind DIR EXPR` prints.
 * A record the query prunes has what lies below it skipped, as find does
 * (the list in pre-order).  The exit status is find's.
 *
 * Build: cc records_host.c $(pkg-config --cflags --libs luafind-core)
 */
#define _GNU_SOURCE
#include <luafind/query.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The depth of @path below @root, or 0. */
static int depth_below(const char *path, const char *root)
{
	size_t len = root ? strlen(root) : 0;
	while (len > 1 && root[len - 1] == '/') {
		len--;
	}
	if (!root || strncmp(path, root, len) != 0 || (path[len] != '/' && path[len] != '\0')) {
		return 0;
	}
	int depth = 0;
	for (const char *p = path + len; *p; p++) {
		if (*p != '/' && (p == path + len || p[-1] == '/')) {
			depth++; /* the start of a component */
		}
	}
	return depth;
}

/* Whether @path lies below @dir. */
static bool below(const char *path, const char *dir)
{
	size_t len = strlen(dir);
	return strncmp(path, dir, len) == 0 && (path[len] == '/' || (len && dir[len - 1] == '/'));
}

int main(int argc, char **argv)
{
	bool unknown = false;
	const char *root = NULL;
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--unknown") == 0) {
			unknown = true;
		} else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
			root = argv[++i];
		} else {
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: records_host [--unknown] [--root DIR] LIST EXPR...\n");
		return 2;
	}
	const char *list = argv[i++];
	FILE *in = strcmp(list, "-") == 0 ? stdin : fopen(list, "re");
	if (!in) {
		fprintf(stderr, "records_host: %s: %s\n", list, strerror(errno));
		return 1;
	}
	struct lf_ctx *ctx = lf_ctx_new();
	if (!ctx) {
		perror("records_host: lf_ctx_new");
		return 1;
	}
	lf_ctx_set_progname(ctx, "records_host");
	lf_ctx_set_reporter(ctx, lf_report_stderr, ctx, NULL, NULL);
	/* LF_QUERY_RECORDS: -delete and -execdir are refused here and now. */
	struct lf_query *q = lf_query_compile(ctx, argc - i, argv + i, LF_QUERY_PRINT | LF_QUERY_RECORDS);
	if (!q) {
		lf_ctx_free(ctx);
		return 1;
	}
	/* The links the query follows (its leading -H, -L, -P): the host's view must agree. */
	char follow = 'P';
	for (int j = i; j < argc && argv[j][0] == '-' && strchr("HLP", argv[j][1]) && argv[j][1] && !argv[j][2]; j++) {
		follow = argv[j][1];
	}
	char *path = NULL, *pruned = NULL;
	size_t cap = 0;
	int status = 0;
	while (!lf_query_done(q) && getdelim(&path, &cap, '\0', in) > 0) {
		if (pruned && below(path, pruned)) {
			continue;
		}
		struct lf_record rec = LF_RECORD_INIT;
		rec.path = path;
		rec.depth = depth_below(path, root);
		struct stat st;
		if (!unknown) {
			bool follows = follow == 'L' || (follow == 'H' && rec.depth == 0);
			/* A broken link is described by itself, as find -L does. */
			if ((!follows || stat(path, &st) != 0) && lstat(path, &st) != 0) {
				fprintf(stderr, "records_host: '%s': %s\n", path, strerror(errno));
				status = 1;
				continue;
			}
			rec.st = &st;
		}
		lf_query_eval_record(q, &rec); /* it prints; -1: it said why */
		if (lf_query_record_pruned(q)) {
			free(pruned);
			pruned = strdup(path);
		}
	}
	if (in != stdin) {
		fclose(in);
	}
	free(path);
	free(pruned);
	if (lf_query_finish(q) != 0) {
		status = 1;
	}
	lf_query_free(q);
	lf_ctx_free(ctx);
	return status;
}
