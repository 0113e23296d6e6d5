/*
 * fuzz_expr.c: find's language end to end: the input, split at NUL bytes,
 * is an expression's argv; it is compiled under the safe policy (nothing
 * is deleted, run or written to a file) and run over a small fixed tree,
 * with -printf formats, regexes, dates and numbers all reachable.
 * Standard output goes to /dev/null.
 */
#include <luafind/luafind.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tree[64];

static void quiet(void *arg, const struct lf_error *err)
{
	(void)arg;
	(void)err;
}

/* The tree goes when libFuzzer exits (with exit(); a crash keeps it). */
static void remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	if (system(cmd) != 0) {
		fprintf(stderr, "%s: could not remove %s\n", __FILE__, tree);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(tree, sizeof(tree), "/tmp/lf-fuzz-tree-%d", (int)getpid());
	char cmd[512];
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && mkdir -p %s/a/b %s/c && echo x > %s/a/f.c && : > %s/a/b/e && "
		 "ln -s f.c %s/a/l && ln -s nowhere %s/c/broken && printf '%%02000d' 0 > %s/big",
		 tree, tree, tree, tree, tree, tree, tree, tree);
	if (system(cmd) != 0) {
		abort();
	}
	atexit(remove_tree);
	int fd = open("/dev/null", O_WRONLY);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096) {
		return 0;
	}
	char *buf = malloc(size + 1);
	char **argv = malloc((size + 2) * sizeof(*argv));
	if (!buf || !argv) {
		free(buf);
		free(argv);
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	int argc = 0;
	for (size_t i = 0; i <= size;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	struct lf_ctx *ctx = lf_ctx_new();
	if (ctx) {
		lf_ctx_set_reporter(ctx, quiet, NULL, NULL, NULL);
		struct lf_query *q = lf_query_compile(ctx, argc, argv, LF_QUERY_SAFE | LF_QUERY_PRINT);
		if (q) {
			const char *roots[] = {tree};
			lf_query_run(q, roots, 1);
			lf_query_free(q);
		}
		lf_ctx_free(ctx);
	}
	free(argv);
	free(buf);
	return 0;
}
