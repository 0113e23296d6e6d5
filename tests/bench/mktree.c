/*
 * mktree: build the deterministic synthetic source tree the benchmarks walk.
 *
 *	mktree [-s SEED] [-d DIRS] [-f FILES] [-r] DIR
 *
 * creates DIR (which must not exist) holding DIRS directories below it and
 * FILES regular files, so that `find DIR` prints DIRS + FILES + 1 lines.  The
 * defaults give the tree of DESIGN.md, "Where the bar is": 500,002 entries,
 * 32,001 directories counting DIR itself.
 *
 * Shape: directories are grown breadth first from DIR, each taking a random
 * fan-out (often 0, sometimes up to 8), which gives a tree about ten levels
 * deep with names like "net3" or "drivers17".  Files are spread over the
 * directories with random weights (a directory holds from 0 to about 40 files,
 * 14.6 on average), named like source files ("parser_12.c", "util_3.o",
 * "Makefile") with a realistic mix of extensions.
 *
 * Sizes: about 8% of files are between 17 KiB and 33 KiB, so `-size +16k`
 * selects them; the rest are below 16,000 bytes.  No size falls between 16,000
 * and 17,408 bytes, so find's "+16k" (more than 16 KiB, rounded up), fd's
 * "+16k" (at least 16,000 bytes) and fd's "+16ki" all select the same files.
 * Sizes are set with ftruncate(), which makes sparse files: on tmpfs they cost
 * an inode and no data pages.  -r writes real bytes instead (the logical total
 * is printed; it stays under 2 GiB with the defaults).
 *
 * The same SEED, DIRS and FILES always give the same tree (names, shape, sizes),
 * whatever the machine.  A summary goes to stdout at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One directory of the tree, in creation (breadth-first) order. */
struct dir {
	uint32_t parent;  /* index of the parent; 0 (DIR itself) for depth 1 */
	uint32_t nfiles;  /* files to create in it */
	uint32_t weight;  /* share of the files it receives */
	uint16_t depth;
	char name[24];
};

/* splitmix64: tiny, good enough, and identical everywhere. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A uniform number in [0, n). */
static uint32_t rng_below(uint32_t n)
{
	return (uint32_t)(rng() % n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const dir_words[] = {
	"src", "lib", "include", "net", "drivers", "fs", "core", "util", "test",
	"tools", "arch", "mm", "kernel", "crypto", "sound", "block", "docs",
	"scripts", "ipc", "init", "security", "virt", "samples", "firmware",
};

static const char *const file_words[] = {
	"main", "util", "parser", "lexer", "buffer", "hash", "list", "tree",
	"alloc", "config", "socket", "stream", "string", "array", "queue",
	"timer", "event", "thread", "lock", "cache", "io", "path", "walk",
	"expr", "eval", "output", "diag", "test", "bench", "proto", "init",
};

/* Extensions and their weights (percent); "" is a bare name like "README". */
static const struct {
	const char *ext;
	unsigned weight;
} exts[] = {
	{".c", 26}, {".h", 20}, {".o", 14}, {".txt", 5}, {".md", 3},
	{".py", 5}, {".lua", 4}, {".S", 2}, {".cpp", 6}, {".json", 3},
	{".sh", 3}, {".mk", 2}, {".in", 2}, {"", 5},
};

static const char *pick_ext(void)
{
	unsigned r = rng_below(100);
	for (size_t i = 0; i < COUNT(exts); i++) {
		if (r < exts[i].weight)
			return exts[i].ext;
		r -= exts[i].weight;
	}
	return ".c";
}

/*
 * A file size.  Small files follow a skewed curve below 16,000 bytes (mean
 * about 2 KB); about 8% are "large", 17 KiB to 33 KiB.
 */
static uint64_t pick_size(const char *ext)
{
	unsigned r = rng_below(1000);
	if (r < 80)
		return 17 * 1024 + rng_below(16 * 1024);
	double u = (double)rng_below(1u << 20) / (1u << 20);
	uint64_t size = (uint64_t)(u * u * u * u * 10000.0);
	if (strcmp(ext, ".o") == 0)
		size += 600; /* object files are never tiny */
	return size;
}

static void die(const char *what)
{
	fprintf(stderr, "mktree: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Grow the directory tree breadth first until it holds ndirs + 1 entries. */
static void plan_dirs(struct dir *dirs, uint32_t ndirs)
{
	uint32_t count = 1; /* dirs[0] is DIR itself */
	uint32_t *serial = calloc(COUNT(dir_words), sizeof(*serial));
	if (!serial)
		die("calloc");
	memset(&dirs[0], 0, sizeof(dirs[0]));
	for (uint32_t i = 0; count <= ndirs; i++) {
		if (i == count)
			i = 0; /* every fan-out was 0: go round again */
		uint32_t fanout;
		if (i == 0)
			fanout = 12;
		else if (rng_below(10) < 4)
			fanout = 0;
		else
			fanout = 1 + rng_below(8);
		for (uint32_t k = 0; k < fanout && count <= ndirs; k++) {
			struct dir *d = &dirs[count++];
			size_t w = rng_below(COUNT(dir_words));
			d->parent = i;
			d->depth = dirs[i].depth + 1;
			/* A global serial per word keeps sibling names unique. */
			snprintf(d->name, sizeof(d->name), "%s%" PRIu32,
				 dir_words[w], serial[w]++);
		}
	}
	free(serial);
}

/* Spread nfiles over the directories in proportion to random weights. */
static void plan_files(struct dir *dirs, uint32_t n, uint32_t nfiles)
{
	uint64_t *cumul = malloc(n * sizeof(*cumul));
	if (!cumul)
		die("malloc");
	uint64_t total = 0;
	for (uint32_t i = 0; i < n; i++) {
		dirs[i].weight = 1 + rng_below(8);
		total += dirs[i].weight;
		cumul[i] = total;
	}
	for (uint32_t f = 0; f < nfiles; f++) {
		uint64_t r = ((rng() >> 11) % total);
		uint32_t lo = 0, hi = n - 1;
		while (lo < hi) { /* first i with cumul[i] > r */
			uint32_t mid = lo + (hi - lo) / 2;
			if (cumul[mid] > r)
				hi = mid;
			else
				lo = mid + 1;
		}
		dirs[lo].nfiles++;
	}
	free(cumul);
}

/* The path of dirs[i] relative to DIR, written into buf ("." for DIR). */
static void dir_path(const struct dir *dirs, uint32_t i, char *buf, size_t size)
{
	if (i == 0) {
		snprintf(buf, size, ".");
		return;
	}
	uint32_t chain[64];
	int n = 0;
	for (uint32_t j = i; j != 0 && n < 64; j = dirs[j].parent)
		chain[n++] = j;
	size_t len = 0;
	buf[0] = '\0';
	while (n-- > 0) {
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					len ? "/" : "", dirs[chain[n]].name);
		if (len >= size) {
			errno = ENAMETOOLONG;
			die("path");
		}
	}
}

/* Give fd the given size, sparse or with real bytes. */
static void set_size(int fd, uint64_t size, int real)
{
	static char zeros[64 * 1024];
	if (!real) {
		if (size && ftruncate(fd, (off_t)size) != 0)
			die("ftruncate");
		return;
	}
	while (size) {
		size_t n = size < sizeof(zeros) ? (size_t)size : sizeof(zeros);
		ssize_t w = write(fd, zeros, n);
		if (w < 0)
			die("write");
		size -= (uint64_t)w;
	}
}

struct totals {
	uint64_t files, large, bytes;
	unsigned maxdepth;
};

/* Create the files of dirs[i], which is open as dfd. */
static void make_files(int dfd, const struct dir *d, int real, struct totals *t)
{
	char name[64];
	for (uint32_t k = 0; k < d->nfiles; k++) {
		const char *ext = pick_ext();
		if (k == 0 && rng_below(10) < 3) {
			snprintf(name, sizeof(name), "Makefile");
			ext = ".mk";
		} else if (*ext == '\0') {
			static const char *const bare[] = {"README", "LICENSE", "TODO", "NOTES"};
			snprintf(name, sizeof(name), "%s_%" PRIu32,
				 bare[rng_below(COUNT(bare))], k);
		} else {
			snprintf(name, sizeof(name), "%s_%" PRIu32 "%s",
				 file_words[rng_below(COUNT(file_words))], k, ext);
		}
		uint64_t size = pick_size(ext);
		int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			die(name);
		set_size(fd, size, real);
		if (close(fd) != 0)
			die("close");
		t->files++;
		t->bytes += size;
		if (size > 16 * 1024)
			t->large++;
	}
}

static uint32_t parse_count(const char *s, const char *what)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || !*s || v > 50000000ul) {
		fprintf(stderr, "mktree: bad %s '%s'\n", what, s);
		exit(2);
	}
	return (uint32_t)v;
}

static void usage(void)
{
	fprintf(stderr, "usage: mktree [-s SEED] [-d DIRS] [-f FILES] [-r] DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	uint32_t ndirs = 32000, nfiles = 468001;
	int real = 0, opt;
	while ((opt = getopt(argc, argv, "s:d:f:r")) != -1) {
		switch (opt) {
		case 's': seed = parse_count(optarg, "seed"); break;
		case 'd': ndirs = parse_count(optarg, "directory count"); break;
		case 'f': nfiles = parse_count(optarg, "file count"); break;
		case 'r': real = 1; break;
		default: usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	const char *top = argv[optind];
	rng_state = seed;

	uint32_t n = ndirs + 1;
	struct dir *dirs = calloc(n, sizeof(*dirs));
	if (!dirs)
		die("calloc");
	plan_dirs(dirs, ndirs);
	plan_files(dirs, n, nfiles);

	if (mkdir(top, 0755) != 0)
		die(top);
	int topfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (topfd < 0)
		die(top);
	struct totals t = {0, 0, 0, 0};
	char path[4096];
	/* Breadth-first order: every parent exists before its children. */
	for (uint32_t i = 0; i < n; i++) {
		dir_path(dirs, i, path, sizeof(path));
		if (i && mkdirat(topfd, path, 0755) != 0)
			die(path);
		int dfd = openat(topfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			die(path);
		make_files(dfd, &dirs[i], real, &t);
		close(dfd);
		if (dirs[i].depth > t.maxdepth)
			t.maxdepth = dirs[i].depth;
	}
	close(topfd);
	printf("mktree: seed %" PRIu64 ": %" PRIu64 " entries, %" PRIu32
	       " directories (with the top), %" PRIu64 " files, %" PRIu64
	       " over 16 KiB (%.1f%%), %.2f GiB %s, max depth %u\n",
	       seed, (uint64_t)n + t.files, n, t.files, t.large,
	       t.files ? 100.0 * (double)t.large / (double)t.files : 0.0,
	       (double)t.bytes / (1024.0 * 1024 * 1024),
	       real ? "written" : "sparse", t.maxdepth);
	free(dirs);
	return 0;
}
