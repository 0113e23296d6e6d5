/*
 * core_host.c: a C program using only the walker API of the installed
 * luafind (no Lua), built with `pkg-config --cflags --libs luafind-core` or
 * luafind, or with find_package(luafind) and luafind::core or luafind::lua.
 *
 *	core_host DIR
 *
 * DIR holds a/ a/x.c a/y.c b/ b/z.txt (made by run.sh).  Checks the counts,
 * that listing costs one stat (the root's), that one size costs one more,
 * and deletes b/z.txt with lf_entry_delete().
 */
#include <luafind/walk.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CHECK(c)                                                              \
	do {                                                                  \
		if (!(c)) {                                                   \
			fprintf(stderr, "core_host: check failed: %s\n", #c); \
			return 1;                                             \
		}                                                             \
	} while (0)

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: core_host DIR\n");
		return 2;
	}
	const char *roots[] = {argv[1]};
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = roots;
	opts.nroots = 1;
	opts.flags = LF_WALK_SORT;

	struct lf_walk *w = lf_walk_open(&opts);
	CHECK(w);
	struct lf_entry *e;
	int r, files = 0, dirs = 0;
	int64_t size = -1;
	while ((r = lf_walk_next(w, &e)) > 0) {
		CHECK(e->visit != LF_VISIT_ERROR);
		if (e->type == LF_DIR) {
			dirs++;
		} else if (e->type == LF_REG) {
			files++;
		}
		if (strcmp(e->path + e->nameoff, "x.c") == 0) {
			const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
			CHECK(st);
			size = st->size;
		}
		if (strcmp(e->path + e->nameoff, "z.txt") == 0) {
			CHECK(lf_entry_delete(e) == 0);
		}
	}
	CHECK(r == 0);
	/* A copy: the counters go with the walker. */
	struct lf_counters c = *lf_walk_counters(w);
	CHECK(c.stats == 2 && c.stats_follow == 0 && c.unlinks == 1);
	CHECK(c.opens == 3);
	CHECK(!lf_walk_had_error(w));
	CHECK(lf_walk_close(w) == 0);
	CHECK(files == 3 && dirs == 3);
	CHECK(size == 5);

	struct lf_stat st;
	char path[4096];
	snprintf(path, sizeof(path), "%s/b/z.txt", argv[1]);
	CHECK(lf_stat_at(-100 /* AT_FDCWD */, path, false, &st) != 0 && errno == ENOENT);
	CHECK(lf_type_from_mode(0040755) == LF_DIR);
	printf("core_host: ok: %d files, %d directories, %d stats\n", files, dirs, (int)c.stats);
	return 0;
}
