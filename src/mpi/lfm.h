/**
 * lfm.h: what the files of luafind-mpi share.
 *
 * One walk spread over the ranks of an MPI job.  Work is split by
 * directory: a work item is a directory to walk (its path, as plain
 * luafind would show it, its depth, its root, and under -L the identity
 * of its ancestors).  Each rank walks its items with a walker of its own
 * (walk.c) and evaluates the whole expression on their entries; a rank
 * with nothing to do steals items from a random victim (work.c), and a
 * busy rank asked for work it does not have turns the next directories it
 * would have read into items instead (lf_walk_will_read, lf_walk_prune).
 * What the matches print goes to rank 0 in whole records (forward.c).
 * Directories evaluated after their contents (-depth, -delete) whose
 * subtree was shared wait for the end of the walk, then go depth by depth,
 * deepest first, with a barrier between depths (walk.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LFM_H
#define LFM_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "output.h"
#include "parse.h"
#include "run.h"
#include "walk.h"

/** The longest path handed to another rank: deeper ones stay where they are. */
#define LFM_SHIP_PATH_MAX 2048

/** Message tags on lfm.comm (work) and lfm.outc (output). */
enum lfm_tag {
	LFM_TAG_REQ = 1, /**< "give me work", to a random victim */
	LFM_TAG_WORK,    /**< items, the answer to a request (counted: Safra's basic message) */
	LFM_TAG_NOWORK,  /**< the other answer */
	LFM_TAG_TOKEN,   /**< Safra's token: int64 sum, int64 colour */
	LFM_TAG_TERM,    /**< rank 0: the walk is over */
	LFM_TAG_OUT,     /**< on outc: uint32 stream (0: stdout, i+1: -fprint file i), then bytes */
};

/** An ancestor of a work item, under -L: for loop detection. */
struct lfm_anc {
	uint64_t dev, ino;
	uint64_t pathlen; /**< the length of the item's path prefix naming it */
};

/**
 * Identities, as the rank that found a directory knew them: whoever opens
 * it later by its path checks that it opened the same one (open.c).
 */
struct lfm_ids {
	uint64_t dev, ino;           /**< the directory's */
	uint64_t root_dev, root_ino; /**< its root's */
};

/** A directory to walk. */
struct lfm_item {
	char *path; /**< NUL-terminated, owned */
	size_t pathlen;
	int depth;      /**< its depth, as plain luafind counts it */
	uint32_t root;  /**< the index of its root among cmd->roots */
	bool is_root;   /**< a root: its own entry is evaluated here too */
	struct lfm_ids id; /**< unused in a root's item: the walker opens it as luafind does */
	uint32_t nanc;
	struct lfm_anc *anc; /**< owned; -L only */
	int32_t origin; /**< the rank whose walk found it (its parent's), -1 for a root */
};

/** A directory whose post-order visit waits for the deferred phases. */
struct lfm_deferred {
	char *path;
	int depth;
	uint32_t root;
	struct lfm_ids id;
	int32_t up_rank; /**< --run: where its parent's record is (-1: a root, none) */
	int64_t acc;     /**< --run: what the script kept, plus what its children sent up */
	int64_t tag;     /**< --run: the script's other kept value */
};

/** How a --run script is to take the post-order visit of a directory (script.c). */
enum lfm_how {
	LFM_PLAIN,   /**< complete, its parent in the same walk */
	LFM_PARTIAL, /**< part of its subtree was walked elsewhere: the script keeps what it has */
	LFM_TOP,     /**< complete, its parent elsewhere: the script sends its result up */
	LFM_JOINED,  /**< deferred: what it kept and what its children sent up, its parent elsewhere */
};

/** Where what a --run script says of a directory goes (join.c). */
struct lfm_target {
	int rank; /**< -1: nowhere (a root's parent) */
	uint32_t root;
	int depth; /**< the parent's depth */
	const char *path; /**< the directory's own path: its parent's is derived */
	size_t pathlen;
};

struct lfm_script;

/** A root opened once by a rank, its identity checked (open.c). */
struct lfm_root {
	int fd;  /**< O_PATH; -1: not opened (yet, or err) */
	int err; /**< why it could not be opened, or 0 */
	uint64_t dev, ino;
};

/** How many directories open.c keeps open for the next items. */
#define LFM_PARENTS 8

/** A directory kept open for the next items (open.c). */
struct lfm_parent {
	int fd; /**< O_PATH, or -1 */
	uint32_t root;
	char *rel; /**< its path below the root */
	size_t len;
};

/** A directory opened from its root without following what was swapped in. */
struct lfm_dir {
	int fd;           /**< the directory (O_PATH), checked; the walker's root fd */
	int parent;       /**< O_PATH fd of its parent, AT_FDCWD for a root */
	const char *name; /**< its name in parent (the path itself for a root) */
	const char *rel;  /**< its path below the root ("" for a root) */
	bool own_fd, own_parent;
};

/** A send in flight: the buffer it owns (its request is in lfm.preq). */
struct lfm_pending {
	char *buf;
	size_t len;
};

struct lfm {
	MPI_Comm comm; /**< work, token, termination */
	MPI_Comm outc; /**< output chunks to rank 0 */
	int rank, size;
	int node_ranks; /**< the ranks on this rank's node, itself included */
	struct lf_cmdline *cmd;
	struct lf_run *run;
	const char *progname;

	/* The walk. */
	struct lf_walk_opts wopts; /**< the walkers' options (depth first, mindepth 0) */
	struct lf_walk_queue *queue; /**< LF_WALK_READ_AHEAD's threads, the rank's walks' in turn, or NULL */
	int mindepth;   /**< entries shallower than this are not evaluated */
	int maxdepth;   /**< -maxdepth, or -1 */
	bool post;      /**< directories are evaluated after their contents */
	bool eval_pre;  /**< a directory's pre-order visit is evaluated */
	bool logical;   /**< -L: loops are looked for among inherited ancestors */

	/* Items to walk: [qhead, qhead + qlen) of q; thieves take from the front. */
	struct lfm_item *q;
	size_t qhead, qlen, qcap;
	unsigned hungry; /**< requests answered "no work" since we last made items */
	bool eager;      /**< LUAFIND_MPI_EAGER=1 (tests): every directory becomes an item */
	size_t stock;    /**< while the queue is shorter, an item's subdirectories become items... */
	bool restock;    /**< ... once a thief took some, until it is that long again */

	/* Safra's termination detection (work.c). */
	int64_t count;  /**< work messages sent minus received */
	bool black;
	bool have_token, tok_black, probe_out;
	int64_t tok_q;
	bool waiting;   /**< a request is out, its answer not in */
	bool term;
	uint64_t *sent_to, *recv_from; /**< messages on comm, by rank: the drain's accounts */
	unsigned backoff_us;
	unsigned since_poll;
	uint64_t last_poll_us; /**< lfm_now_us() at the last poll during a walk */

	/* Output (forward.c). */
	struct lf_out *out;    /**< the run's standard output */
	struct lf_out **files; /**< the -fprint files' writers */
	size_t nfiles;
	struct lfm_pending *pend;
	MPI_Request *preq; /**< pend[i]'s request, one array for MPI_Testsome */
	int *pidx;         /**< MPI_Testsome's indices */
	size_t npend, cappend, pend_bytes;
	uint64_t chunks_sent; /**< to rank 0 on outc */
	uint64_t chunks_recv; /**< rank 0: from the others */

	/* Deferred directories (walk.c). */
	struct lfm_deferred *def;
	size_t ndef, capdef;

	/* The roots this rank opened to reach items below them (open.c). */
	struct lfm_root *roots;
	size_t nroots;
	struct lfm_parent parents[LFM_PARENTS];
	size_t next_parent; /**< the one replaced next */
	unsigned delay_ms; /**< LUAFIND_MPI_TEST_DELAY_MS (tests): sleep before opening each item */
	unsigned defer_pause_ms; /**< LUAFIND_MPI_TEST_DEFER_PAUSE_MS (tests): sleep before the deferred phase */
	uint64_t open_us;  /**< how long opening an item took, a moving average (walk.c) */

	/* --stats and the test hook. */
	struct lf_counters total;
	uint64_t entries, items, items_given, items_got;
	uint64_t idle_us;  /**< time spent without an item, waiting for one */
	uint64_t requests; /**< requests for work sent */
	uint64_t fault_after; /**< LUAFIND_MPI_FAULT=RANK:N: this rank dies after N entries */

	/* --run (script.c, join.c): the script's walk, NULL for a find expression. */
	struct lfm_script *script;
	void *walk_cur; /**< the walk in progress (walk.c's state), for lfm_hold/lfm_hold_dir */
	struct lfm_join *join; /**< what the script sent up, to go to other ranks (join.c) */
	bool failed;          /**< an MPI call failed, or the run must stop: no deferred phase */
};

/** A monotonic clock in microseconds. */
static inline uint64_t lfm_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/** A growing buffer of bytes for a message. */
struct lfm_buf {
	char *p;
	size_t len, cap;
	bool err; /**< an allocation failed: what followed was not added */
};

/* work.c */
/** Append @n bytes of @data to @b (@data may be NULL when @n is 0); on ENOMEM set b->err. */
void lfm_put(struct lfm_buf *b, const void *data, size_t n);
int lfm_work_init(struct lfm *m);
void lfm_work_free(struct lfm *m);
/** Queue an item (taking its strings). @return 0, or -1 (ENOMEM) */
int lfm_push(struct lfm *m, struct lfm_item *it);
/** Handle what arrived, answer requests; rank 0 writes output chunks. */
void lfm_poll(struct lfm *m);
/** Walk items until every rank is out of work; then drain the messages. */
void lfm_work_run(struct lfm *m);
void lfm_item_free(struct lfm_item *it);
/**
 * Receive one message on @comm from @src with @tag if one is there.
 * @return 1 with *@buf (malloc'ed: free it), *@len and *@st set, 0 if
 *         there is none, -1 on a failure (reported)
 */
int lfm_recv(struct lfm *m, MPI_Comm comm, int src, int tag, char **buf, int *len, MPI_Status *st);
/** Report a failed MPI call and mark the run failed. @return -1 */
int lfm_mpi_error(struct lfm *m, const char *what, int rc);
/**
 * Sleep *@us microseconds, then double *@us up to LFM_NAP_MAX_US: how a
 * rank waits for others.  A blocking MPI call would spin instead, and in
 * an oversubscribed job call sched_yield() for every turn of its loop,
 * taking the CPU from the ranks that have work.
 */
void lfm_nap(unsigned *us);
/** The first nap of a wait, and the longest (an answer waits that long at most). */
#define LFM_NAP_MIN_US 20
#define LFM_NAP_MAX_US 250
/**
 * A barrier during which rank 0 still writes what arrives, and the ranks
 * that wait for others nap.  @return 0, or -1 (reported)
 */
int lfm_barrier(struct lfm *m);

/* forward.c */
/** Send what the writers hold to rank 0 (a no-op on rank 0). */
void lfm_forward(struct lfm *m, bool all);
/** Rank 0: write the chunks that arrived. */
void lfm_forward_recv(struct lfm *m);
/**
 * Sends completed: free their buffers; with @wait, wait for all of them,
 * napping meanwhile (lfm_nap) rather than spinning in MPI_Wait.
 */
void lfm_pending_test(struct lfm *m, bool wait);
/** Queue a send of @buf (owned) on @comm. @return 0, or -1 */
int lfm_isend(struct lfm *m, MPI_Comm comm, int dest, int tag, char *buf, size_t len);
/** The end: every rank's output written by rank 0. */
void lfm_forward_end(struct lfm *m);

/* open.c */
/**
 * Open directory @path below root @root (or the root itself) for a walk,
 * without following a link that was swapped into its path since the rank
 * that found it saw it: the root as the walker opens roots, checked
 * against @id's root identity, then the rest relative to it, and the
 * directory checked against @id.
 * @return 0 with @d filled in (lfm_dir_close it), or -1 with errno set:
 *         ESTALE (not the directory that was found), ELOOP (a link in the
 *         way), or what opening said
 */
int lfm_dir_open(struct lfm *m, uint32_t root, const char *path, const struct lfm_ids *id, struct lfm_dir *d);
/**
 * The device and inode of @name in @at_fd ("" for @at_fd itself), following
 * a final link with @follow, from what the kernel holds (no round trip on a
 * network filesystem).  @return 0, or -1 with errno set
 */
int lfm_id_at(int at_fd, const char *name, bool follow, uint64_t *dev, uint64_t *ino);
/** Close @d, keeping its directory open for the items below it. */
void lfm_dir_keep(struct lfm *m, uint32_t root, struct lfm_dir *d);
/** Close what lfm_dir_open() opened for @d. */
void lfm_dir_close(struct lfm_dir *d);
/**
 * Close the directories lfm_dir_open() kept open for the next items (not
 * the roots): the next opens resolve their paths from the roots again.
 */
void lfm_dirs_forget(struct lfm *m);
/** Close the roots and directories lfm_dir_open() kept open (at the end of the run). */
void lfm_roots_close(struct lfm *m);

/* main.c: the run, in the parts a --run script's walk takes too. */
/** The output and the run of @cmd; @return 0, or 1 (reported) */
int lfm_run_open(struct lfm *m, struct lf_cmdline *cmd, struct lf_out *out, struct lf_run *r);
/**
 * Queue the roots (rank 0), walk, and the deferred phases; with @ok 0 (a
 * failure before), only the collective calls.  @return 1 if the walk ran
 */
int lfm_run_walk(struct lfm *m, int ok);
/** Forward the rest of the output and end the run.  @return the run's status */
int lfm_run_close(struct lfm *m, int ok, struct lf_out *out);

/* walk.c */
/** Walk one item, evaluating the expression. */
void lfm_walk_item(struct lfm *m, struct lfm_item *it);
/** The deferred post-order visits, deepest first, a barrier between depths. */
void lfm_deferred_run(struct lfm *m);
/**
 * --run: the directory whose pre-order visit the script has (the walk's
 * deepest frame) is walked here to the end: no directory below it goes
 * to another rank (a directory the script selected for removal with
 * everything in it).
 */
void lfm_hold(struct lfm *m);
/**
 * --run: the post-order visit of the directory holding the current entry
 * waits for the deferred phase (LFM_PARTIAL now, LFM_JOINED then), so that
 * what is decided after the walk (a hard link's claim) can reach it.
 * @return 0, or -1 if there is no such directory in this walk (a root)
 */
int lfm_hold_dir(struct lfm *m, const struct lf_entry *e, struct lfm_target *t);

/* script.c (--run) */
/** Run script @name with @argc/@argv as luafind --run does, on every rank.  @return the status */
int lfm_script_main(struct lfm *m, struct lf_ctx *ctx, const char *name, int argc, char **argv);
/**
 * Hand entry @e of @w to the script: @how says what its post-order visit
 * is; @rec its deferred record (LFM_PARTIAL: what the script keeps goes
 * there; LFM_JOINED: its acc and tag are the script's); @t where what it
 * sends up goes.
 */
void lfm_script_entry(struct lfm *m, struct lf_walk *w, struct lf_entry *e, enum lfm_how how,
		      struct lfm_deferred *rec, const struct lfm_target *t);
/**
 * A directory the script will not see (it could not be opened safely, and
 * was reported): its parent at @t hears the walk's "lost" value, as if
 * the script had sent it up.
 */
void lfm_script_lost(struct lfm *m, const struct lfm_target *t);
/** Before lf_walk_close(@w): its entries held by the script turn stale. */
void lfm_script_walk_done(struct lfm *m, struct lf_walk *w);

/* join.c (--run): what the script says of directories, carried to their parents' ranks. */
/** Queue @value for the record of @t's parent on rank @t->rank. @return 0, or -1 (ENOMEM) */
int lfm_join_up(struct lfm *m, const struct lfm_target *t, int64_t value);
/** Queue a claim of @key with @value by the directory above @t (a hard link's). @return 0, or -1 */
int lfm_join_claim(struct lfm *m, const struct lfm_target *t, const char *key, size_t keylen, int64_t value);
/** After the walk, on every rank: each claim's key goes to the directory that wins it. @return 0, or -1 */
int lfm_join_claims(struct lfm *m);
/** Every rank: exchange what was queued and add it to the records here (collective). @return 0, or -1 */
int lfm_join_exchange(struct lfm *m);
void lfm_join_free(struct lfm *m);
/** The order of the deferred records: deepest first, then by root and path (qsort, bsearch). */
int lfm_deferred_cmp(const void *a, const void *b);

#endif
