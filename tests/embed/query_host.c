/*
 * query_host.c: a C host that compiles a find expression through the C API
 * (<luafind/query.h>) and evaluates it over its own walk, printing the path
 * of each match, as `luafind ROOT EXPR...` prints them with its implied
 * -print.  The tutorial of luafind(3)'s FIND EXPRESSIONS.
 *
 *	query_host ROOT EXPR...
 */
#include <luafind/query.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Errors as values: this host prints them its own way. */
static void report(void *arg, const struct lf_error *err)
{
	(void)arg;
	fprintf(stderr, "query_host: %s%.*s", err->kind == LF_ERROR_WARNING ? "warning: " : "",
		(int)err->length, err->message);
	if (err->argi >= 0) {
		fprintf(stderr, " (expression word %d)", err->argi + 1);
	}
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: query_host ROOT EXPR...\n");
		return 2;
	}
	struct lf_ctx *ctx = lf_ctx_new();
	if (!ctx) {
		perror("query_host: lf_ctx_new");
		return 1;
	}
	lf_ctx_set_reporter(ctx, report, NULL, NULL, NULL);
	/* No LF_QUERY_PRINT: the host prints the matches itself. */
	struct lf_query *q = lf_query_compile(ctx, argc - 2, argv + 2, 0);
	if (!q) {
		lf_ctx_free(ctx);
		return 1;
	}
	const char *roots[] = {argv[1]};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	lf_query_walk_opts(q, &opts);
	opts.roots = roots;
	opts.nroots = 1;
	struct lf_walk *w = lf_walk_open(&opts);
	if (!w) {
		fprintf(stderr, "query_host: %s\n", strerror(errno));
		return 1;
	}
	struct lf_entry *e;
	while (!lf_query_done(q) && lf_walk_next(w, &e) > 0) {
		if (lf_query_eval(q, w, e) > 0) {
			printf("%.*s\n", (int)e->pathlen, e->path);
		}
	}
	lf_walk_close(w);
	fflush(stdout); /* ours before what the expression's actions wrote */
	int status = lf_query_finish(q);
	lf_query_free(q);
	lf_ctx_free(ctx);
	return status;
}
