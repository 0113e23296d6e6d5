/**
 * isolate.h: run untrusted work in a child process that can read but not
 * change anything, for hosts that want more than an in-process sandbox.
 *
 *	static int work(void *arg) { ... walk, print results ...; return 0; }
 *
 *	struct lf_isolate_opts o = LF_ISOLATE_OPTS_INIT;
 *	o.cpu_seconds = 10;
 *	o.wall_seconds = 30;
 *	o.max_memory = 512 << 20;
 *	struct lf_isolate *iso = lf_isolate_start(&o, work, arg);
 *	if (!iso)
 *		... errno says why (ENOSYS: built without libseccomp) ...
 *	struct lf_isolate_result res;
 *	lf_isolate_finish(iso, STDOUT_FILENO, &res); // streams, waits, frees
 *	if (res.end == LF_ISOLATE_FILTERED)
 *		... res.syscall names what the filter stopped ...
 *
 * The child is a fork of the caller: @work runs there with the caller's
 * memory as it was, and only file descriptors 0 and 2 kept (1 is the pipe
 * its results stream back through); whatever it does there never comes
 * back but through that pipe and its exit status.  Before @work runs, the
 * child is confined, in this order:
 *
 *  - rlimits: RLIMIT_CPU (cpu_seconds: SIGXCPU, then SIGKILL a second
 *    later), RLIMIT_AS (max_memory), RLIMIT_NOFILE (max_fds) and
 *    RLIMIT_CORE 0 (not RLIMIT_FSIZE, which would also cut a standard
 *    error that is a file: the filter refuses to open files for writing);
 *    PR_SET_NO_NEW_PRIVS; it dies with its parent;
 *  - Landlock (Linux 5.13 and later, where the kernel enables it): the
 *    trees of read_paths (the whole filesystem without them) may be read,
 *    nothing anywhere written, created, removed, renamed, linked or
 *    executed; without Landlock, res.landlock is false and the filter
 *    below is what refuses those (it refuses them in any case);
 *  - a seccomp filter (libseccomp) allowing what a read-only walk and the
 *    result pipe need: reading, listing and stat-ing files, opening them
 *    read-only, memory, threads, signals to itself, time.  Opening a file
 *    for writing, execve, fork, a process other than a thread, sockets
 *    other than AF_UNIX's (which NSS probes get EACCES for), connect,
 *    unlink, rename, mkdir, link, chmod, chown, truncate, mknod, ptrace
 *    and kill of another process stop the child at once, and the result
 *    says LF_ISOLATE_FILTERED with the system call's name.  Any other system call fails with EPERM (io_uring among them:
 *    the walk then stats by itself), clone3 with ENOSYS (threads are made
 *    with clone).
 *
 * Processes: the filter refuses them, whatever RLIMIT_NPROC says (which
 * the kernel does not apply to root).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_ISOLATE_H
#define LUAFIND_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Limits of an isolated child; 0 for "none" unless said otherwise. */
struct lf_isolate_opts {
	uint64_t cpu_seconds;  /**< RLIMIT_CPU */
	uint64_t wall_seconds; /**< killed (SIGKILL) this long after the start */
	size_t max_memory;     /**< RLIMIT_AS: the child's address space, in bytes */
	unsigned max_fds;      /**< RLIMIT_NOFILE; 0: 256 */
	/**
	 * Landlock: the trees the child may read (paths the caller resolves
	 * as it would); NULL or none: the whole filesystem, read-only.
	 */
	const char *const *read_paths;
	size_t nread_paths;
};

#define LF_ISOLATE_OPTS_INIT {0, 0, 0, 0, NULL, 0}

/** How an isolated child ended. */
enum lf_isolate_end {
	LF_ISOLATE_EXITED = 0, /**< @work returned (or the child exited): res.status */
	LF_ISOLATE_FILTERED,   /**< the filter stopped a system call: res.syscall */
	LF_ISOLATE_CPU,        /**< it used up cpu_seconds */
	LF_ISOLATE_WALL,       /**< it ran past wall_seconds */
	LF_ISOLATE_SIGNALED,   /**< another signal ended it: res.signal */
	LF_ISOLATE_SETUP,      /**< it could not be confined (res.error): @work never ran */
};

/** The outcome of lf_isolate_finish(). */
struct lf_isolate_result {
	enum lf_isolate_end end;
	int status;         /**< LF_ISOLATE_EXITED: the exit status (0-255) */
	int signal;         /**< LF_ISOLATE_SIGNALED, _CPU: the signal */
	int error;          /**< LF_ISOLATE_SETUP: the errno of the step that failed */
	bool landlock;      /**< Landlock confined the child's filesystem access */
	double cpu_seconds; /**< CPU time the child used (user + system) */
	long max_rss_kib;   /**< its peak resident set */
	/**
	 * LF_ISOLATE_FILTERED: the system call's name, or "?" for one made
	 * with SIGSYS blocked (posix_spawn's clone), when the kernel kills
	 * the child before it can say which
	 */
	char syscall[32];
};

struct lf_isolate;

/**
 * Fork a confined child that runs @work(@arg) and exits with its return
 * value (0-255).
 *
 * @return the child's handle, or NULL with errno set (ENOSYS when luafind
 *         was built without libseccomp, EAGAIN, ENOMEM...)
 */
struct lf_isolate *lf_isolate_start(const struct lf_isolate_opts *opts, int (*work)(void *arg), void *arg);

/**
 * The read end of the pipe the child's standard output goes to, for a
 * caller that reads the results itself before lf_isolate_finish() (which
 * then enforces wall_seconds only from its own call on).
 */
int lf_isolate_output(const struct lf_isolate *iso);

/**
 * Copy the child's output to @out_fd as it comes (discarded if @out_fd is
 * negative), kill it once wall_seconds have passed, wait for it, say how
 * it ended in @res, and free @iso.
 *
 * @return 0, or -1 with errno set if @out_fd could not be written (the
 *         child is still killed, reaped and freed)
 */
int lf_isolate_finish(struct lf_isolate *iso, int out_fd, struct lf_isolate_result *res);

/** A message for @res ("the filter stopped system call execve"...), static or in @buf. */
const char *lf_isolate_describe(const struct lf_isolate_result *res, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
