/**
 * walk.h: the traversal core, a pull iterator over one or more file trees.
 *
 * Usage, in the spirit of fts_read(3):
 *
 *	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
 *	const char *roots[] = {"."};
 *	opts.roots = roots;
 *	opts.nroots = 1;
 *	struct lf_walk *w = lf_walk_open(&opts);
 *	if (!w)
 *		... errno says why ...
 *	struct lf_entry *e;
 *	int r;
 *	while ((r = lf_walk_next(w, &e)) > 0) {
 *		if (e->visit == LF_VISIT_ERROR)
 *			report(e->path, e->error);
 *		else if (skip_it)
 *			lf_walk_prune(w);
 *	}
 *	if (lf_walk_close(w) != 0 || r < 0)
 *		... errno holds the first error ...
 *
 * Lifetime: the entry returned by lf_walk_next() and everything it points to
 * (path, stat data) stay valid only until the next call to lf_walk_next() or
 * lf_walk_close().  It is a bug to use them afterwards.
 *
 * Laziness: the walker takes an entry's type from d_type and its inode from
 * d_ino.  It calls stat only when d_type is DT_UNKNOWN, when following
 * symbolic links needs the target's type or identity, when xdev needs a
 * directory's device, or when the caller asks with lf_entry_stat().  The
 * counters (lf_walk_counters()) prove it.
 *
 * Resources: no recursion, a bounded number of directory fds (from
 * RLIMIT_NOFILE unless opts.max_fds says otherwise); a directory whose fd was
 * evicted is reopened relative to an open ancestor, or through ".." from an
 * open child, and its device and inode are checked against the values
 * recorded at eviction, so a directory replaced underneath is reported
 * (ESTALE), never followed.  Paths handed to the kernel below the roots are
 * always a single component, so trees deeper than PATH_MAX work.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_WALK_H
#define LUAFIND_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "stat.h"

#ifdef __cplusplus
extern "C" {
#endif

/** File types, from d_type or stat. */
enum lf_type {
	LF_UNKNOWN = 0,
	LF_REG,
	LF_DIR,
	LF_LNK,
	LF_FIFO,
	LF_SOCK,
	LF_CHR,
	LF_BLK,
};

/** What a call to lf_walk_next() returned. */
enum lf_visit {
	/** Any file, reached before the contents of a directory. */
	LF_VISIT_PRE = 1,
	/** A directory, after its contents (only if the order asks for it). */
	LF_VISIT_POST,
	/** A failure concerning entry->path; entry->error holds the errno. */
	LF_VISIT_ERROR,
};

/** How symbolic links are treated (find's -P, -H and -L). */
enum lf_symlinks {
	LF_PHYSICAL = 0, /**< never follow (-P) */
	LF_COMFOLLOW,    /**< follow the roots only (-H) */
	LF_LOGICAL,      /**< follow everywhere, with loop detection (-L) */
};

/** Visiting order. */
enum lf_order {
	LF_ORDER_PRE = 0, /**< depth first, a directory before its contents */
	LF_ORDER_POST,    /**< depth first, a directory after its contents (-depth) */
	LF_ORDER_BOTH,    /**< depth first, directories visited before and after */
	LF_ORDER_BREADTH, /**< breadth first, a directory before its contents */
};

/** Flags for lf_walk_opts.flags. */
enum lf_walk_flags {
	/**
	 * Visit each directory's entries in order of their names: strcoll()
	 * in the process's LC_COLLATE, then strcmp() between names that
	 * collate equal.  Each directory is read whole before its first entry
	 * is visited (the walk's memory grows with the largest directory), and
	 * the read-ahead queue is not used.
	 */
	LF_WALK_SORT = 1 << 0,
	/** Do not descend into directories on other filesystems (-xdev). */
	LF_WALK_XDEV = 1 << 1,
	/**
	 * Stat entries in a second thread, ahead of the walk.  For callers that
	 * will stat every entry (lf_entry_stat with LF_FOLLOW_WALK) anyway, such
	 * as a query whose first test reads a stat field: the stats overlap with
	 * the walk, and there are no more of them than without the flag.  Set it
	 * for anything else and entries the caller never stats are stat'ed too.
	 * Applies to depth-first pre-order walks not under LF_LOGICAL, to the
	 * entries below the roots; ignored otherwise.
	 */
	LF_WALK_STAT_AHEAD = 1 << 2,
	/**
	 * Under LF_LOGICAL, describe the entries below the roots by what their
	 * links lead to (type, LF_FOLLOW_WALK stat, loops reported) but never
	 * read a directory reached through a link: a deleting walk stays in
	 * the tree while its tests still see find -L's view.
	 */
	LF_WALK_NO_DESCEND_LINKS = 1 << 3,
	/**
	 * Skip what git would ignore (gitignore(5)): below each root in a
	 * repository, and in every repository found below a root, the files
	 * and directories its .gitignore files, info/exclude and
	 * core.excludesFile exclude and its index does not track are neither
	 * returned nor read, and neither is any entry named ".git".  Outside a
	 * repository nothing is skipped but ".git" entries.  Each .gitignore is
	 * opened relative to its directory's fd when the listing has one; one
	 * that cannot be read is an LF_VISIT_ERROR entry, and the walk goes on;
	 * so is one larger than LF_WALK_GITIGNORE_MAX_FILE (EFBIG: it is not
	 * read).  Only regular files are read, opened without blocking: a
	 * FIFO, a device or a socket (or a link to one) counts as an empty
	 * file, as git takes a file of size 0.  An info/exclude, excludes
	 * file or configuration file over the cap is skipped as unreadable.
	 * Turns LF_WALK_STAT_AHEAD off.
	 */
	LF_WALK_GITIGNORE = 1 << 4,
	/**
	 * Read directories ahead of the walk in worker threads (the I/O
	 * queue, opts.threads): a directory the walk is going to read is
	 * opened and read by a worker while the walker is busy elsewhere, and
	 * under LF_WALK_STAT_AHEAD its entries are stat'ed there too, in
	 * inode order; the walker takes over the fd, the records and the stat
	 * data, so the syscalls are the ones it would make, made earlier and
	 * in parallel, and overlapping their I/O.  The workers run only while
	 * reading directories blocks on I/O (a cold cache); otherwise a worker
	 * samples one directory in 32 to notice when it starts to, and the
	 * walker reads the rest itself.  For callers that read
	 * every directory the walk reaches and do not change the tree while
	 * it runs: a directory pruned after it was read ahead was read in vain
	 * (counters.dirs_ahead_unused), and a directory changed after it was
	 * read ahead is seen as it was read.  Applies to depth-first walks
	 * under LF_PHYSICAL or LF_COMFOLLOW, below the roots, and not with
	 * LF_WALK_SORT, LF_WALK_XDEV or LF_WALK_GITIGNORE; ignored otherwise,
	 * and when opts.threads leaves no worker.  Once stats wait one by one
	 * (a network filesystem's round trips) and where the kernel lets it
	 * (io_uring with IORING_OP_STATX, a build with liburing), each worker
	 * submits a directory's stats through an io_uring of its own, and the
	 * kernel makes them in parallel (counters.stats_ring); otherwise the
	 * workers make them one by one.
	 */
	LF_WALK_READ_AHEAD = 1 << 5,
	/**
	 * Under LF_WALK_READ_AHEAD, the workers make their stats themselves,
	 * never through io_uring: for hosts whose sandbox forbids it, or that
	 * trace the walk's syscalls (io_uring's are made by kernel threads).
	 */
	LF_WALK_NO_IO_URING = 1 << 6,
	/**
	 * Never read a root that is the directory /, however it is spelled
	 * or linked to ("//", "/tmp/..", a link to / under LF_COMFOLLOW or
	 * LF_LOGICAL): the identity of the fd the walk opened is compared with
	 * /'s (one fstat per root directory), so nothing swapped in after a
	 * caller's own check gets through.  Such a root becomes an
	 * LF_VISIT_ERROR entry with error EPERM, and none of its contents is
	 * returned.  For deleting walks: -delete sets it.
	 */
	LF_WALK_REFUSE_SLASH = 1 << 7,
	/**
	 * Return nothing below a cache directory: one that holds a regular
	 * file named CACHEDIR.TAG that starts with the 43-byte signature of
	 * the Cache Directory Tagging specification
	 * (LF_CACHEDIR_TAG_SIGNATURE).  The directory itself is returned, as
	 * GNU tar's --exclude-caches-under keeps it.  Each directory is read
	 * whole before its first entry is returned, and the file is opened
	 * (without following a link, without blocking) only where a record
	 * has that name: a directory without one costs no system call more
	 * (counters.tags counts the files read).  A tag that cannot be read
	 * (EACCES...) is an LF_VISIT_ERROR entry, and the directory's
	 * contents are skipped as if it were tagged.  Ignored with
	 * LF_WALK_READ_AHEAD and LF_WALK_STAT_AHEAD, which it turns off.
	 */
	LF_WALK_EXCLUDE_CACHES = 1 << 8,
	/**
	 * Under LF_WALK_READ_AHEAD, with the cache warm: never share the
	 * reading of directories (and their stats) with a worker, or always
	 * share it.  Without either, the walk times itself both ways in turn
	 * and keeps to the faster (sharing pays while a core is idle).  For
	 * benchmarks and tests; a walk on one CPU never shares.
	 */
	LF_WALK_SHARE_NEVER = 1 << 9,
	LF_WALK_SHARE_ALWAYS = 1 << 10,
};

/** The signature a CACHEDIR.TAG starts with (43 bytes, no NUL). */
#define LF_CACHEDIR_TAG_SIGNATURE "Signature: 8a477f597d28d172789f06886806bc55"

/**
 * The largest rule file (a .gitignore, info/exclude, core.excludesFile, a
 * git configuration file) that LF_WALK_GITIGNORE reads: 1 MiB.  The git
 * index has no such cap; under a memory account (lf_walk_opts.mem) it is
 * charged like the rest.
 */
#define LF_WALK_GITIGNORE_MAX_FILE (1u << 20)

struct lf_walk_queue;

/** Options of a walk. */
struct lf_walk_opts {
	const char *const *roots; /**< paths to walk, borrowed until close */
	size_t nroots;
	enum lf_symlinks symlinks;
	enum lf_order order;
	int mindepth; /**< entries shallower than this are not returned */
	int maxdepth; /**< entries deeper than this are not read; -1: no limit */
	unsigned flags;   /**< enum lf_walk_flags */
	int max_fds;      /**< directory fds to keep open; 0: from RLIMIT_NOFILE */
	/**
	 * Threads of the walk, the caller's included, as find's -j counts
	 * them: LF_WALK_READ_AHEAD runs threads - 1 workers.  1: none; 0: the
	 * default, LF_WALK_THREADS_DEFAULT.
	 */
	int threads;
	/**
	 * A memory account (mem.h), or NULL: the walker charges it what it
	 * takes (its state, path buffer, record arena, frames, queues,
	 * spills, .gitignore rules and git indexes) when it takes it, and
	 * gives it back as it frees it, all of it by lf_walk_close().  The
	 * I/O queue (LF_WALK_READ_AHEAD, 16 jobs at most under an account)
	 * and the stat-ahead thread (LF_WALK_STAT_AHEAD) are charged their
	 * most when they start, about 1 MiB and 7 MiB: a walk whose account
	 * refuses that goes without them.  Anything else refused ends the
	 * walk: lf_walk_open() or lf_walk_next() fails with ENOMEM.  The
	 * account is called from the walker's thread only, never per entry:
	 * when a buffer grows, a directory is queued (breadth-first) or a
	 * rule file is read.  Its data must outlive the walker.
	 */
	const struct lf_mem *mem;
	/**
	 * NULL, or one int per root: -1, or a directory fd the caller opened
	 * on root i, which the walk then uses instead of the root's path: the
	 * root is described by fstat(2) of the fd and read through an fd of
	 * the walk's own, openat(fd, "."), so a link swapped into the
	 * path since the caller checked the directory is never followed.
	 * The fds are borrowed: the caller closes them after lf_walk_close().
	 * lf_entry_stat() describes the root's entries by the fd too, but
	 * they still name its path (at_fd AT_FDCWD, at_name the path): a
	 * caller that acts on the root itself (lf_entry_delete, an *at()
	 * call) and trusts only its fd first sets at_fd and at_name to a
	 * parent it trusts and the root's name there (lf_entry_stat then
	 * goes by those).  A walk short of fds that evicts the root's fd
	 * reopens it by path and checks its identity (ESTALE if replaced).
	 * For hosts that hand a directory to another walker (luafind-mpi).
	 */
	const int *root_fds;
	/**
	 * NULL, or a queue from lf_walk_queue_new() that the walk uses for
	 * LF_WALK_READ_AHEAD instead of starting one of its own: where its own
	 * would start (the flag, a depth-first walk, the symlink mode and the
	 * flags it allows), whatever opts.threads says, if max_fds leaves room
	 * for the queue's fds as for its own (a quarter of them), and if no
	 * other walk holds the queue; otherwise the walk goes without.  The
	 * walk holds the queue until lf_walk_close(), which gives it back
	 * with no job and no fd of the walk's (the workers' io_uring
	 * instances, once stats turned out to wait one by one, are the
	 * queue's until lf_walk_queue_free()).  Its memory is not charged to
	 * opts.mem: it is the queue owner's.
	 */
	struct lf_walk_queue *queue;
};

/** Threads of a walk whose opts.threads is 0. */
#define LF_WALK_THREADS_DEFAULT 8
/** The most opts.threads may ask for (more is EINVAL). */
#define LF_WALK_THREADS_MAX 64

#define LF_WALK_OPTS_INIT {NULL, 0, LF_PHYSICAL, LF_ORDER_PRE, 0, -1, 0, 0, 0, NULL, NULL, NULL}

/** The walker's syscall counters. */
struct lf_counters {
	uint64_t entries;      /**< entries lf_walk_next() returned */
	uint64_t opens;        /**< directories opened (openat) */
	uint64_t reopens;      /**< openat calls that reopened an evicted directory */
	uint64_t closes;       /**< directory fds closed */
	uint64_t getdents;     /**< getdents64 calls */
	uint64_t stats;        /**< stat of an entry, not following links */
	uint64_t stats_follow; /**< stat of an entry, following links */
	uint64_t fd_stats;     /**< stat of an open directory fd (identity checks) */
	uint64_t unlinks;      /**< unlinkat calls */
	uint64_t stats_ahead;  /**< of the stats, those made ahead by another thread */
	uint64_t dirs_ahead;   /**< of the opens, directories opened and read by a worker */
	uint64_t dirs_ahead_unused; /**< of those, closed without being used (pruned, the walk ended) */
	uint64_t stats_ring;   /**< of stats_ahead, those a worker made through io_uring */
	uint64_t tags;         /**< CACHEDIR.TAG files opened (LF_WALK_EXCLUDE_CACHES) */
};

/** Add the counters @c to @sum (the totals of several walks). */
static inline void lf_counters_add(struct lf_counters *sum, const struct lf_counters *c)
{
	sum->entries += c->entries;
	sum->opens += c->opens;
	sum->reopens += c->reopens;
	sum->closes += c->closes;
	sum->getdents += c->getdents;
	sum->stats += c->stats;
	sum->stats_follow += c->stats_follow;
	sum->fd_stats += c->fd_stats;
	sum->unlinks += c->unlinks;
	sum->stats_ahead += c->stats_ahead;
	sum->dirs_ahead += c->dirs_ahead;
	sum->dirs_ahead_unused += c->dirs_ahead_unused;
	sum->stats_ring += c->stats_ring;
	sum->tags += c->tags;
}

/** One file the walk reached.  See the lifetime rules above. */
struct lf_entry {
	const char *path;    /**< for output only: never passed to the kernel */
	size_t pathlen;
	size_t nameoff;      /**< the name is path + nameoff */
	int depth;           /**< 0 for a root */
	enum lf_type type;   /**< from d_type; LF_DIR for a followed link to a dir */
	enum lf_visit visit;
	uint64_t ino;        /**< from d_ino (0 for a root whose stat failed) */
	int at_fd;           /**< directory fd for *at() calls on this entry */
	const char *at_name; /**< the name relative to at_fd */
	int error;           /**< errno of an LF_VISIT_ERROR entry, else 0 */
	/**
	 * For an ELOOP error under LF_LOGICAL, the length of the prefix of path
	 * that names the ancestor this entry loops back to; otherwise 0.
	 */
	size_t loop_pathlen;
	size_t root;         /**< index of the root this entry is under */
};

/**
 * The entry's name as find's tests see it: the last component of the path;
 * for a root, without its trailing slashes, and "/" for a root of slashes
 * only ("dir/" -> "dir", "//" -> "/").  Not NUL-terminated for a root
 * that ends in a slash.
 *
 * @param len set to the name's length
 * @return a pointer into e->path (or to a static "/")
 */
const char *lf_entry_name(const struct lf_entry *e, size_t *len);

/** Which stat data lf_entry_stat() returns. */
enum lf_follow {
	LF_NOFOLLOW = 0, /**< the link itself (lstat) */
	LF_FOLLOW,       /**< the link's target (stat) */
	/**
	 * As the walk treats this entry: follow under LF_LOGICAL (falling back
	 * to the link itself when the target is missing, as find -L does), and
	 * for roots under LF_COMFOLLOW; otherwise the link itself.
	 */
	LF_FOLLOW_WALK,
};

struct lf_walk;

/**
 * An I/O queue that outlives walks: the worker threads of
 * LF_WALK_READ_AHEAD, started once and lent to one walk after another
 * (lf_walk_opts.queue), for a host that walks many small trees in turn
 * (luafind-mpi walks every directory another rank hands it as a walk of
 * its own) and would otherwise start and join the threads for each.  What
 * the queue learns of the filesystem carries over from walk to walk: once
 * directories wait for I/O its workers stay awake.  Its workers start with
 * its first job, and sleep between walks.
 *
 * @param threads the threads of the walks, as lf_walk_opts.threads counts
 *        them (the caller's included: threads - 1 workers); 0: the default,
 *        LF_WALK_THREADS_DEFAULT
 * @param max_fds the walks' lf_walk_opts.max_fds (0: from RLIMIT_NOFILE):
 *        the queue holds a quarter of them at most (256), as a walk's own
 * @param flags LF_WALK_NO_IO_URING, or 0
 * @return the queue, or NULL with errno set: EINVAL (threads leave no
 *         worker, or max_fds too few for a queue: under 16), ENOMEM
 */
struct lf_walk_queue *lf_walk_queue_new(int threads, int max_fds, unsigned flags);

/**
 * Stop the queue's workers and free it.  @q may be NULL.  No walk may hold
 * it (close them first).
 */
void lf_walk_queue_free(struct lf_walk_queue *q);

/**
 * Start a walk.  Nothing is opened until the first lf_walk_next().
 *
 * @param opts options; opts->roots must outlive the walker
 * @return a walker, or NULL with errno set (ENOMEM, or EINVAL for bad options)
 */
struct lf_walk *lf_walk_open(const struct lf_walk_opts *opts);

/**
 * Advance to the next entry.
 *
 * Failures concerning one file (a directory that cannot be read, a root that
 * does not exist, a loop, a replaced directory) are returned as entries with
 * visit == LF_VISIT_ERROR, and the walk goes on.
 *
 * @param ent set to the entry on success
 * @return 1 with *ent set, 0 when the walk is over, -1 with errno set on a
 *         failure that ends the walk (ENOMEM)
 */
int lf_walk_next(struct lf_walk *w, struct lf_entry **ent);

/**
 * Cancel the walk: the next lf_walk_next() closes every directory fd the
 * walk holds (and stops its stat-ahead thread), then returns -1 with errno
 * ECANCELED, as every later call does; lf_walk_close() still frees it and
 * returns 0.  Async-signal-safe (one lock-free atomic store): callable from
 * a signal handler or from any thread while another walks.
 */
void lf_walk_cancel(struct lf_walk *w);

/**
 * Do not descend into the directory last returned by lf_walk_next() in
 * pre-order.  Has no effect on other entries.
 */
void lf_walk_prune(struct lf_walk *w);

/**
 * Stat data of an entry, fetched at most once per entry and follow mode, and
 * cached together with its errno.
 *
 * @param e   the current entry of its walker
 * @param how which file to describe
 * @return the stat data (valid as long as the entry), or NULL with errno set
 */
const struct lf_stat *lf_entry_stat(struct lf_entry *e, enum lf_follow how);

/**
 * The stat data lf_entry_stat(@e, @how) would return, if it has been fetched
 * already for this entry; never makes a syscall (a stat the stat-ahead thread
 * made but nobody asked for does not count).
 *
 * @return the cached stat data (valid as long as the entry), or NULL when
 *         none was fetched or the stat failed
 */
const struct lf_stat *lf_entry_stat_cached(const struct lf_entry *e, enum lf_follow how);

/**
 * Remove the file an entry names: unlinkat(at_fd, at_name, flags) with
 * AT_REMOVEDIR for a directory, chosen from the entry's own type (d_type;
 * one lstat only when the type is unknown).  A symbolic link is removed as
 * a link in every follow mode, never its target, even when the walk
 * described it by its target.  Removing a directory (or a link the walk
 * took for one) on its pre-order visit prunes it, so the walk does not try
 * to open it.
 *
 * @param e the current entry (not an LF_VISIT_ERROR entry)
 * @return 0, or -1 with errno set (ENOTEMPTY, EACCES, EPERM, EBUSY...)
 */
int lf_entry_delete(struct lf_entry *e);

/** The counters of @w so far. */
const struct lf_counters *lf_walk_counters(const struct lf_walk *w);

/**
 * The path of root @i of @w (entry->root), as opts.roots gave it; NULL if
 * @i is out of range.
 */
const char *lf_walk_root(const struct lf_walk *w, size_t i);

/**
 * How many directories @w has seen but not read yet: the directory records
 * (d_type DT_DIR) still to visit in the directories being read, and the
 * queued ones of a breadth-first walk.  For progress displays: it scans
 * the records, so call it a few times a second, not per entry.  Roots not
 * reached yet and records of unknown type are not counted.
 */
size_t lf_walk_dirs_left(const struct lf_walk *w);

/**
 * Whether any LF_VISIT_ERROR entry has been returned so far.
 */
bool lf_walk_had_error(const struct lf_walk *w);

/**
 * Whether the next lf_walk_next() will read the directory returned last in
 * pre-order: it is within -maxdepth, on the root's device under
 * LF_WALK_XDEV, not a loop, and not pruned (lf_walk_prune,
 * lf_entry_delete).  For hosts that hand a directory to another walker
 * instead (luafind-mpi prunes it and sends it to another rank): false
 * for any other entry.
 */
bool lf_walk_will_read(const struct lf_walk *w);

/**
 * End a walk, closing every fd and freeing all memory.  @w may be NULL.
 *
 * @return 0, or -1 with errno set to the first failure that ended the walk
 */
int lf_walk_close(struct lf_walk *w);

/*
 * Records: entries from elsewhere.  A host that has its own list of files
 * (its own walk, an index, a list of paths) describes each one as a
 * struct lf_record and has a query evaluate it (lf_query_eval_record,
 * query.h) without a walk of luafind's.
 */

struct stat;
struct statx;

/** Flags of lf_record.flags. */
enum lf_record_flags {
	/**
	 * The host's view follows this file if it is a symbolic link: st, stx
	 * and type describe what the link leads to (stat(2), not lstat(2)),
	 * and a stat made for the record follows the link, falling back to
	 * the link itself when its target is missing, as find -L does.  A
	 * query compiled with -L implies it for every record, and with -H for
	 * the records of depth 0.
	 */
	LF_RECORD_FOLLOW = 1 << 0,
};

/**
 * A file that another program found.  Zero it (LF_RECORD_INIT), then fill
 * in what the host has: the library reads it during the call only, and
 * copies nothing.  Nothing in it may crash the library: a record that
 * breaks the rules below is refused (EINVAL).
 */
struct lf_record {
	/**
	 * The path, NUL-terminated, not empty: printed as it is, and given to
	 * the kernel (relative to the working directory) for whatever the
	 * record does not hold, so a path longer than PATH_MAX is refused
	 * there (ENAMETOOLONG).  Its last component is the name that -name
	 * matches; below a root (depth > 0) it must not end in '/', and a
	 * root's name is found as find finds it ("dir/" -> "dir").
	 */
	const char *path;
	/** Depth below the root it was found under, 0 for a root; not negative. */
	int depth;
	/**
	 * The type as the host's view sees it (under LF_RECORD_FOLLOW, what a
	 * link leads to), or LF_UNKNOWN.  With stat data the type of its
	 * mode wins.  An unknown type (or a link's under LF_RECORD_FOLLOW)
	 * without stat data is found by a stat, unless the expression reads
	 * neither types nor stat data.
	 */
	enum lf_type type;
	/**
	 * Stat data, or NULL: lstat(2)'s, or stat(2)'s under
	 * LF_RECORD_FOLLOW.  A record with stat data is never stat'ed for
	 * it; one without is stat'ed (statx, or fstatat) the first time a test
	 * needs a field, not before.
	 */
	const struct stat *st;
	/**
	 * The same from statx(2), or NULL; it wins over st.  The fields of
	 * STATX_BASIC_STATS are taken as they are, and the birth time where
	 * stx_mask has STATX_BTIME.
	 */
	const struct statx *stx;
	/**
	 * The root the file was found under, for -printf's %H, and %P (the
	 * path after the root and a slash, or the whole path when the root
	 * does not start it); NULL: the path without its last depth
	 * components ("a/b/c" at depth 2: "a"; "/x" at depth 1: "/").
	 */
	const char *root;
	/** enum lf_record_flags; unknown bits are refused. */
	unsigned flags;
};

#define LF_RECORD_INIT {NULL, 0, LF_UNKNOWN, NULL, NULL, NULL, 0}

/** The file type encoded in a st_mode value. */
enum lf_type lf_type_from_mode(uint32_t mode);

#ifdef __cplusplus
}
#endif

#endif
