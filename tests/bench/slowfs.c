/*
 * slowfs: a read-only FUSE passthrough of a directory that answers every
 * request only after a fixed delay, to emulate a network filesystem.
 *
 *	slowfs [-o delay_us=N,timeout=S,threads=N,readdirplus] [-f] [-d] SOURCE MOUNTPOINT
 *
 * A stat on NFS mounted with noac is a round trip to the server; many round
 * trips can be in flight at once, so a tool that issues its stats in
 * parallel (bfs's ioq, luafind's I/O queue) hides the latency that a tool
 * waiting on each call in turn pays in full.  slowfs makes that measurable on
 * a machine without a network filesystem: the source tree sits on a fast
 * local filesystem (tmpfs), and slowfs sleeps delay_us microseconds (default
 * 500) in each lookup, getattr, readlink, opendir, readdir(plus), open, read
 * and statfs before doing the work, in as many threads as there are
 * requests (up to threads, default 128), so requests wait in parallel, each
 * as long as one round trip.  forget, release and releasedir cost nothing, as
 * they cost no round trip on NFS either.
 *
 * By default the kernel may cache nothing: entry and attribute timeouts are 0
 * (timeout=S sets both), so every path lookup revalidates the entry (a
 * LOOKUP) and every stat fetches the attributes again (a GETATTR), as on NFS
 * with noac; directories are never cached in the page cache (no cache_dir),
 * so each listing is read again.  READDIRPLUS, which would hand the
 * attributes out with the listing and so hide the stats, is off unless asked
 * for (readdirplus).  Directory entries carry the source's inode numbers and
 * types (d_ino, d_type), and attributes its st_ino, so a tool that relies on
 * d_type to avoid stats sees what it would see on the source.
 *
 * Lookups in one directory must not wait for each other either (NFS does not
 * make them), so slowfs asks the kernel for parallel directory operations.
 * libfuse 3.14 (Debian 12) never passes that flag (FUSE_PARALLEL_DIROPS) on:
 * slowfs mounts by itself (mount(2), hence root only) and talks to /dev/fuse
 * through fuse_session_custom_io, which lets it add the flag to the INIT
 * reply; without it, the kernel serializes the first lookup of every name in
 * a directory.  FUSE mount options (allow_other...) are not applied.
 *
 * The low-level API keeps one record per source inode (keyed by device and
 * inode number), holding the path it was first found by, relative to the
 * source, and the kernel's lookup count; the FUSE node id is the record's
 * address (1 for the root).  Paths rather than descriptors: the kernel may
 * keep every inode of the tree, more than the descriptor limit allows (which
 * root may not be able to raise, in a container).  So the source must not be
 * renamed under a mount.  The mount is read-only (MS_RDONLY); slowfs does
 * no permission checks of its own (no default_permissions, which would cost
 * a GETATTR per path component): anyone allowed to use the mount, by default
 * only the user who mounted it, reads as slowfs.  A source spanning several
 * filesystems may show two objects with one inode number.
 *
 * Built by CMake when libfuse3 is found, for tests/bench/bench.sh (the fuse-*
 * queries) and tests/bench/slowfs_smoke.sh; not installed.
 */

#define _GNU_SOURCE
#define FUSE_USE_VERSION 312

#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/fuse.h>

/** One source object the kernel knows of. */
struct sf_inode {
	/** Where it is, relative to the source (sf_fs.src); "." for the root. */
	char *path;
	/** Identity in the source: the inode table's key. */
	dev_t dev;
	ino_t ino;
	/** Lookups the kernel has not forgotten (under sf_fs.lock). */
	uint64_t nlookup;
	/** Next record of the same hash bucket. */
	struct sf_inode *next;
};

/** An open directory (fuse_file_info.fh). */
struct sf_dir {
	DIR *dp;
	/** The offset the next entry read from dp has. */
	off_t offset;
	/** An entry read but not yet sent (it did not fit), or NULL. */
	struct dirent *pending;
};

/** The filesystem: options and the inode table. */
struct sf_fs {
	/** Options (-o). */
	unsigned delay_us;
	double timeout;
	unsigned threads;
	int readdirplus;
	/** The source directory (first non-option argument), and an O_PATH
	 * descriptor of it that the records' paths are relative to. */
	char *source;
	int src;
	/** The INIT request's id, to find its reply (0: not seen yet). */
	_Atomic uint64_t init_unique;

	/** The root: FUSE_ROOT_ID; not in the table, never forgotten. */
	struct sf_inode root;
	/** Everything else the kernel has looked up. */
	pthread_mutex_t lock;
	struct sf_inode **buckets;
	size_t nbuckets;
	size_t count;
};

static struct sf_fs *sf_fs(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static struct sf_inode *sf_inode(fuse_req_t req, fuse_ino_t ino)
{
	if (ino == FUSE_ROOT_ID) {
		return &sf_fs(req)->root;
	}
	return (struct sf_inode *)(uintptr_t)ino;
}

/** The round trip: sleep delay_us, whatever signals arrive meanwhile. */
static void sf_delay(fuse_req_t req)
{
	unsigned us = sf_fs(req)->delay_us;
	if (us == 0) {
		return;
	}
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += us / 1000000;
	t.tv_nsec += (long)(us % 1000000) * 1000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {
	}
}

static size_t sf_hash(const struct sf_fs *fs, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)dev;
	return (size_t)(h ^ h >> 29) & (fs->nbuckets - 1);
}

/** Double the table when it is full (under fs->lock); -1 on ENOMEM. */
static int sf_grow(struct sf_fs *fs)
{
	size_t n = fs->nbuckets ? 2 * fs->nbuckets : 1024;
	struct sf_inode **b = calloc(n, sizeof(*b));
	if (!b) {
		return -1;
	}
	struct sf_inode **old = fs->buckets;
	size_t oldn = fs->nbuckets;
	fs->buckets = b;
	fs->nbuckets = n;
	for (size_t i = 0; i < oldn; i++) {
		struct sf_inode *in = old[i];
		while (in) {
			struct sf_inode *next = in->next;
			size_t h = sf_hash(fs, in->dev, in->ino);
			in->next = b[h];
			b[h] = in;
			in = next;
		}
	}
	free(old);
	return 0;
}

/**
 * Record one more lookup of the object found at path (malloc'd, consumed)
 * with the attributes st, the root or one in the table; NULL with errno on
 * failure.
 */
static struct sf_inode *sf_ref(struct sf_fs *fs, char *path, const struct stat *st)
{
	if (st->st_dev == fs->root.dev && st->st_ino == fs->root.ino) {
		/* The root reached again (a bind mount): one node. */
		free(path);
		return &fs->root;
	}
	pthread_mutex_lock(&fs->lock);
	struct sf_inode *in = NULL;
	if (fs->nbuckets) {
		in = fs->buckets[sf_hash(fs, st->st_dev, st->st_ino)];
	}
	while (in && !(in->dev == st->st_dev && in->ino == st->st_ino)) {
		in = in->next;
	}
	if (in) {
		in->nlookup++;
		pthread_mutex_unlock(&fs->lock);
		free(path);
		return in;
	}
	if (fs->count >= fs->nbuckets && sf_grow(fs) != 0) {
		goto fail;
	}
	in = malloc(sizeof(*in));
	if (!in) {
		goto fail;
	}
	in->path = path;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	in->nlookup = 1;
	size_t h = sf_hash(fs, in->dev, in->ino);
	in->next = fs->buckets[h];
	fs->buckets[h] = in;
	fs->count++;
	pthread_mutex_unlock(&fs->lock);
	return in;
fail:
	pthread_mutex_unlock(&fs->lock);
	free(path);
	errno = ENOMEM;
	return NULL;
}

/** The kernel forgets n lookups of in; the last one frees it. */
static void sf_unref(struct sf_fs *fs, struct sf_inode *in, uint64_t n)
{
	if (in == &fs->root) {
		return;
	}
	pthread_mutex_lock(&fs->lock);
	in->nlookup = n < in->nlookup ? in->nlookup - n : 0;
	if (in->nlookup == 0) {
		struct sf_inode **p = &fs->buckets[sf_hash(fs, in->dev, in->ino)];
		while (*p != in) {
			p = &(*p)->next;
		}
		*p = in->next;
		fs->count--;
	} else {
		in = NULL;
	}
	pthread_mutex_unlock(&fs->lock);
	if (in) {
		free(in->path);
		free(in);
	}
}

/** Look name up in parent, without the delay; 0 or an errno. */
static int sf_lookup_entry(struct sf_fs *fs, struct sf_inode *parent, const char *name,
			   struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	char *path;
	if (asprintf(&path, "%s/%s", parent->path, name) < 0) {
		return ENOMEM;
	}
	if (fstatat(fs->src, path, &e->attr, AT_SYMLINK_NOFOLLOW) != 0) {
		int err = errno;
		free(path);
		return err;
	}
	struct sf_inode *in = sf_ref(fs, path, &e->attr);
	if (!in) {
		return errno;
	}
	e->ino = in == &fs->root ? FUSE_ROOT_ID : (fuse_ino_t)(uintptr_t)in;
	e->attr_timeout = fs->timeout;
	e->entry_timeout = fs->timeout;
	return 0;
}

/* Reading and writing /dev/fuse (fuse_session_custom_io): as libfuse does,
 * but the INIT reply asks for parallel lookups and readdirs in a directory. */
static ssize_t sf_io_read(int fd, void *buf, size_t len, void *userdata)
{
	struct sf_fs *fs = userdata;
	ssize_t n = read(fd, buf, len);
	const struct fuse_in_header *in = buf;
	if (n >= (ssize_t)sizeof(*in) && in->opcode == FUSE_INIT) {
		atomic_store_explicit(&fs->init_unique, in->unique, memory_order_relaxed);
	}
	return n;
}

static ssize_t sf_io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	struct sf_fs *fs = userdata;
	const struct fuse_out_header *out = iov[0].iov_base;
	uint64_t init = atomic_load_explicit(&fs->init_unique, memory_order_relaxed);
	if (init && out->unique == init && out->error == 0 && count >= 2 &&
	    iov[1].iov_len >= offsetof(struct fuse_init_out, flags) + sizeof(uint32_t)) {
		struct fuse_init_out *reply = iov[1].iov_base;
		reply->flags |= FUSE_PARALLEL_DIROPS;
		atomic_store_explicit(&fs->init_unique, 0, memory_order_relaxed);
	}
	return writev(fd, iov, count);
}

static const struct fuse_custom_io sf_io = {
	.read = sf_io_read,
	.writev = sf_io_writev,
};

/** Mount a FUSE connection on mountpoint; its /dev/fuse fd, or -1 (reported). */
static int sf_mount(const char *prog, const char *source, const char *mountpoint)
{
	int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: /dev/fuse: %s\n", prog, strerror(errno));
		return -1;
	}
	char data[128];
	snprintf(data, sizeof(data), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd,
		 (unsigned)getuid(), (unsigned)getgid());
	if (mount(source, mountpoint, "fuse.slowfs", MS_RDONLY | MS_NOSUID | MS_NODEV, data) != 0) {
		fprintf(stderr, "%s: cannot mount on %s: %s%s\n", prog, mountpoint, strerror(errno),
			errno == EPERM ? " (slowfs mounts by itself: run it as root)" : "");
		close(fd);
		return -1;
	}
	return fd;
}

static void sf_init(void *userdata, struct fuse_conn_info *conn)
{
	struct sf_fs *fs = userdata;
	/* Newer libfuse passes this on (but does not ask by default). */
	conn->want |= conn->capable & FUSE_CAP_PARALLEL_DIROPS;
	if (!fs->readdirplus) {
		conn->want &= ~(FUSE_CAP_READDIRPLUS | FUSE_CAP_READDIRPLUS_AUTO);
	}
}

static void sf_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	sf_delay(req);
	struct fuse_entry_param e;
	int err = sf_lookup_entry(sf_fs(req), sf_inode(req, parent), name, &e);
	if (err) {
		fuse_reply_err(req, err);
	} else {
		fuse_reply_entry(req, &e);
	}
}

static void sf_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	sf_unref(sf_fs(req), sf_inode(req, ino), nlookup);
	fuse_reply_none(req);
}

static void sf_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets)
{
	for (size_t i = 0; i < count; i++) {
		sf_unref(sf_fs(req), sf_inode(req, forgets[i].ino), forgets[i].nlookup);
	}
	fuse_reply_none(req);
}

static void sf_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)fi;
	sf_delay(req);
	struct stat st;
	if (fstatat(sf_fs(req)->src, sf_inode(req, ino)->path, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_attr(req, &st, sf_fs(req)->timeout);
}

static void sf_readlink(fuse_req_t req, fuse_ino_t ino)
{
	sf_delay(req);
	char buf[PATH_MAX + 1];
	ssize_t n = readlinkat(sf_fs(req)->src, sf_inode(req, ino)->path, buf, sizeof(buf));
	if (n < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	if ((size_t)n >= sizeof(buf)) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	buf[n] = '\0';
	fuse_reply_readlink(req, buf);
}

static void sf_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	sf_delay(req);
	struct sf_dir *d = calloc(1, sizeof(*d));
	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	int fd = openat(sf_fs(req)->src, sf_inode(req, ino)->path,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d->dp = fdopendir(fd))) {
		int err = errno;
		if (fd >= 0) {
			close(fd);
		}
		free(d);
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	if (fuse_reply_open(req, fi) != 0) {
		closedir(d->dp);
		free(d);
	}
}

/** READDIR and READDIRPLUS: as many entries from offset as fit in size bytes. */
static void sf_readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset,
			      struct fuse_file_info *fi, bool plus)
{
	sf_delay(req);
	struct sf_fs *fs = sf_fs(req);
	struct sf_dir *d = (struct sf_dir *)(uintptr_t)fi->fh;
	char *buf = malloc(size);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->pending = NULL;
		d->offset = offset;
	}
	size_t used = 0;
	int err = 0;
	for (;;) {
		if (!d->pending) {
			errno = 0;
			d->pending = readdir(d->dp);
			if (!d->pending) {
				err = errno;
				break;
			}
		}
		struct dirent *de = d->pending;
		off_t next = de->d_off;
		size_t n;
		if (plus) {
			struct fuse_entry_param e;
			bool dots = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
			if (dots) {
				/* Not looked up: the kernel ignores their node ids. */
				memset(&e, 0, sizeof(e));
				e.attr.st_ino = de->d_ino;
				e.attr.st_mode = (mode_t)de->d_type << 12;
			} else if ((err = sf_lookup_entry(fs, sf_inode(req, ino), de->d_name, &e)) != 0) {
				if (err != ENOENT) {
					break;
				}
				/* Gone since it was read: as if it had never been there. */
				err = 0;
				d->pending = NULL;
				d->offset = next;
				continue;
			}
			n = fuse_add_direntry_plus(req, buf + used, size - used, de->d_name, &e, next);
			if (n > size - used && !dots) {
				/* It did not fit: the kernel will not count that lookup. */
				sf_unref(fs, sf_inode(req, e.ino), 1);
			}
		} else {
			struct stat st = {
				.st_ino = de->d_ino,
				.st_mode = (mode_t)de->d_type << 12,
			};
			n = fuse_add_direntry(req, buf + used, size - used, de->d_name, &st, next);
		}
		if (n > size - used) {
			break;
		}
		used += n;
		d->pending = NULL;
		d->offset = next;
	}
	/* An error after some entries: send those, the next call reports it. */
	if (err && used == 0) {
		fuse_reply_err(req, err);
	} else {
		fuse_reply_buf(req, buf, used);
	}
	free(buf);
}

static void sf_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset,
		       struct fuse_file_info *fi)
{
	sf_readdir_common(req, ino, size, offset, fi, false);
}

static void sf_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset,
			   struct fuse_file_info *fi)
{
	sf_readdir_common(req, ino, size, offset, fi, true);
}

static void sf_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	struct sf_dir *d = (struct sf_dir *)(uintptr_t)fi->fh;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

static void sf_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	sf_delay(req);
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	int flags = fi->flags & ~(O_CREAT | O_TRUNC | O_EXCL);
	int fd = openat(sf_fs(req)->src, sf_inode(req, ino)->path, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fi->fh = (uint64_t)fd;
	if (fuse_reply_open(req, fi) != 0) {
		close(fd);
	}
}

static void sf_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset,
		    struct fuse_file_info *fi)
{
	(void)ino;
	sf_delay(req);
	char *buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	ssize_t n = pread((int)fi->fh, buf, size, offset);
	if (n < 0) {
		fuse_reply_err(req, errno);
	} else {
		fuse_reply_buf(req, buf, (size_t)n);
	}
	free(buf);
}

static void sf_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void sf_statfs(fuse_req_t req, fuse_ino_t ino)
{
	sf_delay(req);
	struct statvfs sv;
	(void)ino;
	if (fstatvfs(sf_fs(req)->src, &sv) != 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_statfs(req, &sv);
}

static const struct fuse_lowlevel_ops sf_ops = {
	.init = sf_init,
	.lookup = sf_lookup,
	.forget = sf_forget,
	.forget_multi = sf_forget_multi,
	.getattr = sf_getattr,
	.readlink = sf_readlink,
	.opendir = sf_opendir,
	.readdir = sf_readdir,
	.readdirplus = sf_readdirplus,
	.releasedir = sf_releasedir,
	.open = sf_open,
	.read = sf_read,
	.release = sf_release,
	.statfs = sf_statfs,
};

static const struct fuse_opt sf_opts[] = {
	{"delay_us=%u", offsetof(struct sf_fs, delay_us), 0},
	{"timeout=%lf", offsetof(struct sf_fs, timeout), 0},
	{"threads=%u", offsetof(struct sf_fs, threads), 0},
	{"readdirplus", offsetof(struct sf_fs, readdirplus), 1},
	FUSE_OPT_END,
};

/** fuse_opt_parse's callback: the first non-option argument is the source. */
static int sf_opt_proc(void *data, const char *arg, int key, struct fuse_args *args)
{
	(void)args;
	struct sf_fs *fs = data;
	if (key == FUSE_OPT_KEY_NONOPT && !fs->source) {
		fs->source = strdup(arg);
		return fs->source ? 0 : -1;
	}
	return 1;
}

static void sf_usage(const char *prog)
{
	printf("Usage: %s [OPTIONS] SOURCE MOUNTPOINT\n"
	       "\n"
	       "A read-only FUSE view of the directory SOURCE that delays every request,\n"
	       "as a network filesystem's round trip would.\n"
	       "\n"
	       "slowfs options:\n"
	       "    -o delay_us=N          sleep N microseconds in each lookup, getattr, readlink,\n"
	       "                           opendir, readdir(plus), open, read, statfs (default 500)\n"
	       "    -o timeout=S           entry and attribute timeout in seconds (default 0:\n"
	       "                           every lookup and stat goes to slowfs, as on NFS with noac)\n"
	       "    -o threads=N           at most N requests handled at once (default 128)\n"
	       "    -o readdirplus         let the kernel use READDIRPLUS (default: off, so the\n"
	       "                           listing carries no attributes and every stat is a request)\n"
	       "\n",
	       prog);
	fuse_cmdline_help();
	fuse_lowlevel_help();
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts = {0};
	struct fuse_session *se = NULL;
	struct fuse_loop_config *config = NULL;
	struct sf_fs fs = {
		.delay_us = 500,
		.timeout = 0,
		.threads = 128,
		.src = -1,
		.root = {.path = "."},
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	int ret = 1;

	if (fuse_opt_parse(&args, &fs, sf_opts, sf_opt_proc) != 0 ||
	    fuse_parse_cmdline(&args, &opts) != 0) {
		goto out;
	}
	if (opts.show_help) {
		sf_usage(argv[0]);
		ret = 0;
		goto out;
	}
	if (opts.show_version) {
		printf("FUSE library version %s\n", fuse_pkgversion());
		fuse_lowlevel_version();
		ret = 0;
		goto out;
	}
	if (!fs.source || !opts.mountpoint) {
		fprintf(stderr, "%s: usage: %s [OPTIONS] SOURCE MOUNTPOINT (see --help)\n", argv[0], argv[0]);
		goto out;
	}
	if (fs.threads == 0) {
		fprintf(stderr, "%s: threads must be at least 1\n", argv[0]);
		goto out;
	}
	if (fs.timeout < 0) {
		fprintf(stderr, "%s: timeout must not be negative\n", argv[0]);
		goto out;
	}

	fs.src = open(fs.source, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (fs.src < 0 || fstat(fs.src, &st) != 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], fs.source, strerror(errno));
		goto out;
	}
	fs.root.dev = st.st_dev;
	fs.root.ino = st.st_ino;
	/* Sleep as long as asked, not 50 us more (the default timer slack). */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);

	se = fuse_session_new(&args, &sf_ops, sizeof(sf_ops), &fs);
	if (!se) {
		goto out;
	}
	if (fuse_set_signal_handlers(se) != 0) {
		goto out_session;
	}
	int fd = sf_mount(argv[0], fs.source, opts.mountpoint);
	if (fd < 0) {
		goto out_signals;
	}
	if (fuse_session_custom_io(se, &sf_io, fd) != 0) {
		close(fd);
		goto out_unmount;
	}
	fuse_daemonize(opts.foreground);
	int loop;
	if (opts.singlethread) {
		loop = fuse_session_loop(se);
	} else {
		config = fuse_loop_cfg_create();
		if (!config) {
			goto out_unmount;
		}
		fuse_loop_cfg_set_clone_fd(config, (unsigned)opts.clone_fd);
		fuse_loop_cfg_set_max_threads(config, fs.threads);
		loop = fuse_session_loop_mt(se, config);
	}
	/* 0 when unmounted, a signal number when stopped by one: both fine. */
	ret = loop < 0 ? 1 : 0;
	if (loop == 0) {
		/* Unmounted already: the mount point may hold a new mount now. */
		goto out_signals;
	}
out_unmount:
	umount2(opts.mountpoint, MNT_DETACH);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
out:
	if (config) {
		fuse_loop_cfg_destroy(config);
	}
	for (size_t i = 0; i < fs.nbuckets; i++) {
		struct sf_inode *in = fs.buckets[i];
		while (in) {
			struct sf_inode *next = in->next;
			free(in->path);
			free(in);
			in = next;
		}
	}
	free(fs.buckets);
	if (fs.src >= 0) {
		close(fs.src);
	}
	free(fs.source);
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return ret;
}
