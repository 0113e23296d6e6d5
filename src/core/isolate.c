/*
 * isolate.c: a child process for untrusted work (isolate.h): rlimits,
 * Landlock, a seccomp filter built with libseccomp, the output streamed
 * back through a pipe, and the parent's account of how it ended.
 *
 * The child tells the parent what happened through a second pipe, the
 * report pipe, one record at a time (a letter and an int): 'L' once
 * Landlock confines it, 'S' and an errno when a setup step failed, 'F' and
 * the system call's number when the filter stopped one (written by the
 * SIGSYS handler, which may only make async-signal-safe calls; the parent
 * names it).  Exit statuses stay the work's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef LF_HAVE_SECCOMP
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/socket.h>
#endif

/* The report pipe's write end in the child. */
#define REPORT_FD 3

struct lf_isolate {
	pid_t pid;
	int pidfd;      /* -1 where pidfd_open is missing: waitpid polls */
	int out_fd;     /* the child's standard output */
	int report_fd;  /* the child's report */
	uint64_t wall_seconds, cpu_seconds;
	struct timespec started;
};

#ifdef LF_HAVE_SECCOMP

/* ---- the child ---------------------------------------------------------- */

/* Write all of @len bytes, in the child (a short write on a pipe is rare). */
static void put(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n <= 0) {
			if (n < 0 && errno == EINTR) {
				continue;
			}
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

static void report(char what, int value)
{
	char rec[1 + sizeof(int)];
	rec[0] = what;
	memcpy(rec + 1, &value, sizeof(int));
	put(REPORT_FD, rec, sizeof(rec));
}

/*
 * The system calls the filter stops, by name (the numbers are looked up
 * for this architecture when the filter is built).  Arrays of characters,
 * not of pointers: the core keeps no writable (relocated) data.
 */
static const char stopped[][24] = {
	"execve",   "execveat", "fork",     "vfork",      "socketpair", "connect",   "bind",
	"listen",   "accept",   "accept4",  "sendto",     "sendmsg",    "creat",     "unlink",
	"unlinkat", "rename",   "renameat", "renameat2",  "mkdir",      "mkdirat",   "rmdir",
	"link",     "linkat",   "symlink",  "symlinkat",  "chmod",      "fchmod",    "fchmodat",
	"chown",    "fchown",   "lchown",   "fchownat",   "truncate",   "ftruncate", "mknod",
	"mknodat",  "ptrace",   "setxattr", "lsetxattr",  "fsetxattr",  "removexattr", "lremovexattr",
	"fremovexattr", "utimensat", "utimes", "utime",   "mount",      "umount2",   "pivot_root",
	"chroot",   "process_vm_writev", "kexec_load",
};

/*
 * SIGSYS, from a trapped system call: its number to the parent, which
 * names it (lf_isolate_describe), and the end.  Async-signal-safe.
 */
static void on_sigsys(int sig, siginfo_t *si, void *uctx)
{
	(void)sig;
	(void)uctx;
	report('F', si->si_syscall);
	_exit(126);
}

/* Every filesystem right Landlock ABI @abi knows. */
static uint64_t landlock_rights(int abi)
{
	uint64_t r = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
		     LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
		     LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
		     LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		     LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
	if (abi >= 2) {
		r |= LANDLOCK_ACCESS_FS_REFER;
	}
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
	if (abi >= 3) {
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	}
#endif
	(void)abi;
	return r;
}

/*
 * Confine the filesystem to reading @paths (/ if none).  0, or -1 with
 * errno: ENOSYS, EOPNOTSUPP where the kernel has no Landlock (not an
 * error: the filter still refuses every change).
 */
static int apply_landlock(const struct lf_isolate_opts *o)
{
	int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1) {
		return -1;
	}
	struct landlock_ruleset_attr attr = {.handled_access_fs = landlock_rights(abi)};
	int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0) {
		return -1;
	}
	size_t n = o->nread_paths ? o->nread_paths : 1;
	for (size_t i = 0; i < n; i++) {
		int fd = open(o->nread_paths ? o->read_paths[i] : "/", O_PATH | O_CLOEXEC);
		if (fd < 0) {
			continue; /* nothing to read there: it stays closed */
		}
		struct stat st;
		bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
		struct landlock_path_beneath_attr rule = {
			.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | (dir ? LANDLOCK_ACCESS_FS_READ_DIR : 0),
			.parent_fd = fd,
		};
		int r = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
		int err = errno;
		close(fd);
		if (r != 0) {
			close(ruleset);
			errno = err;
			return -2;
		}
	}
	int r = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
	int err = errno;
	close(ruleset);
	errno = err;
	return r == 0 ? 0 : -2;
}

/* Add the rule ACTION for syscall @name (skipped where this architecture has none). */
static int rule(scmp_filter_ctx f, uint32_t action, const char *name, unsigned n, const struct scmp_arg_cmp *cmp)
{
	int nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR) {
		return 0;
	}
	int r = seccomp_rule_add_array(f, action, nr, n, cmp);
	return r == 0 || r == -EEXIST ? 0 : r;
}

/* What a read-only walk, Lua, PCRE2's JIT and the result pipe need. */
static const char allowed[][24] = {
	"read", "readv", "pread64", "preadv", "write", "writev", "close", "close_range", "lseek",
	"fstat", "newfstatat", "stat", "lstat", "statx", "getdents64", "readlink", "readlinkat",
	"access", "faccessat", "faccessat2", "fcntl", "dup", "dup2", "dup3", "fstatfs", "statfs",
	"fadvise64", "getcwd", "mmap", "munmap", "mremap", "mprotect", "brk", "madvise", "futex",
	"set_robust_list", "get_robust_list", "rseq", "set_tid_address", "rt_sigaction",
	"rt_sigprocmask", "rt_sigreturn", "sigaltstack", "exit", "exit_group", "getpid", "gettid",
	"getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getrusage", "clock_gettime",
	"clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "sched_yield",
	"sched_getaffinity", "getrandom", "uname", "sysinfo", "poll", "ppoll", "pselect6", "select",
	"restart_syscall", "membarrier", "getpriority", "arch_prctl",
};

static int build_filter(pid_t self)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	if (!f) {
		return -ENOMEM;
	}
	int r = 0;
	for (size_t i = 0; r == 0 && i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		r = rule(f, SCMP_ACT_ALLOW, allowed[i], 0, NULL);
	}
	for (size_t i = 0; r == 0 && i < sizeof(stopped) / sizeof(stopped[0]); i++) {
		r = rule(f, SCMP_ACT_TRAP, stopped[i], 0, NULL);
	}
	/* Opening: read-only, or stopped. */
	/* O_TMPFILE is its own bit and O_DIRECTORY's: only its own counts here. */
	const scmp_datum_t writes[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_TMPFILE & ~O_DIRECTORY};
	scmp_datum_t any_write = 0;
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		any_write |= writes[i];
	}
	for (unsigned arg = 1; arg <= 2 && r == 0; arg++) {
		const char *name = arg == 1 ? "open" : "openat";
		struct scmp_arg_cmp ro = {arg, SCMP_CMP_MASKED_EQ, any_write, 0};
		r = rule(f, SCMP_ACT_ALLOW, name, 1, &ro);
		for (size_t i = 0; r == 0 && i < sizeof(writes) / sizeof(writes[0]); i++) {
			struct scmp_arg_cmp w = {arg, SCMP_CMP_MASKED_EQ, writes[i], writes[i]};
			r = rule(f, SCMP_ACT_TRAP, name, 1, &w);
		}
	}
	/* Threads, not processes; clone3's flags are out of the filter's sight. */
	if (r == 0) {
		struct scmp_arg_cmp thread = {0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD};
		struct scmp_arg_cmp process = {0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0};
		r = rule(f, SCMP_ACT_ALLOW, "clone", 1, &thread);
		if (r == 0) {
			r = rule(f, SCMP_ACT_TRAP, "clone", 1, &process);
		}
		if (r == 0) {
			r = rule(f, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
		}
	}
	/* Signals to itself only (abort() is tgkill of its own thread). */
	if (r == 0) {
		struct scmp_arg_cmp me = {0, SCMP_CMP_EQ, (scmp_datum_t)self, 0};
		struct scmp_arg_cmp other = {0, SCMP_CMP_NE, (scmp_datum_t)self, 0};
		for (size_t i = 0; r == 0 && i < 2; i++) {
			const char *name = i ? "tgkill" : "kill";
			r = rule(f, SCMP_ACT_ALLOW, name, 1, &me);
			if (r == 0) {
				r = rule(f, SCMP_ACT_TRAP, name, 1, &other);
			}
		}
		if (r == 0) {
			r = rule(f, SCMP_ACT_TRAP, "tkill", 0, NULL);
		}
	}
	/* AF_UNIX sockets fail quietly (NSS probes nscd's); any other is stopped. */
	if (r == 0) {
		struct scmp_arg_cmp unix_fam = {0, SCMP_CMP_EQ, AF_UNIX, 0};
		struct scmp_arg_cmp other = {0, SCMP_CMP_NE, AF_UNIX, 0};
		r = rule(f, SCMP_ACT_ERRNO(EACCES), "socket", 1, &unix_fam);
		if (r == 0) {
			r = rule(f, SCMP_ACT_TRAP, "socket", 1, &other);
		}
	}
	/* Reading a resource limit, never changing one. */
	if (r == 0) {
		struct scmp_arg_cmp get = {2, SCMP_CMP_EQ, 0, 0};
		r = rule(f, SCMP_ACT_ALLOW, "prlimit64", 1, &get);
		if (r == 0) {
			r = rule(f, SCMP_ACT_ALLOW, "getrlimit", 0, NULL);
		}
	}
	if (r == 0) {
		r = seccomp_load(f);
	}
	seccomp_release(f);
	return r;
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = {soft, hard};
	if (setrlimit(resource, &rl) != 0) {
		report('S', errno);
		_exit(127);
	}
}

/* In the child: confine it, then run the work.  Never returns. */
static void child(const struct lf_isolate_opts *o, int out_w, int report_w, int (*work)(void *), void *arg,
		  pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) {
		_exit(127);
	}
	if (dup2(report_w, REPORT_FD) < 0 || dup2(out_w, STDOUT_FILENO) < 0) {
		_exit(127);
	}
	/* Only standard input, output, error and the report pipe stay open. */
	if (syscall(SYS_close_range, REPORT_FD + 1, ~0u, 0) != 0) {
		for (int fd = REPORT_FD + 1; fd < 65536; fd++) {
			close(fd);
		}
	}
	fcntl(REPORT_FD, F_SETFD, FD_CLOEXEC);

	if (o->cpu_seconds) {
		set_limit(RLIMIT_CPU, (rlim_t)o->cpu_seconds, (rlim_t)o->cpu_seconds + 1);
	}
	if (o->max_memory) {
		set_limit(RLIMIT_AS, (rlim_t)o->max_memory, (rlim_t)o->max_memory);
	}
	unsigned fds = o->max_fds ? o->max_fds : 256;
	set_limit(RLIMIT_NOFILE, fds, fds);
	set_limit(RLIMIT_CORE, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		report('S', errno);
		_exit(127);
	}
	int ll = apply_landlock(o);
	if (ll == -2) {
		report('S', errno); /* it exists and failed: never run unconfined */
		_exit(127);
	}
	if (ll == 0) {
		report('L', 0);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	int r = build_filter(getpid());
	if (r != 0) {
		report('S', -r);
		_exit(127);
	}
	int status = work(arg);
	fflush(NULL);
	_exit(status & 0xff);
}

struct lf_isolate *lf_isolate_start(const struct lf_isolate_opts *opts, int (*work)(void *arg), void *arg)
{
	struct lf_isolate *iso = calloc(1, sizeof(*iso));
	if (!iso) {
		return NULL;
	}
	int out[2], rep[2];
	if (pipe2(out, O_CLOEXEC) != 0) {
		free(iso);
		return NULL;
	}
	if (pipe2(rep, O_CLOEXEC) != 0) {
		int err = errno;
		close(out[0]);
		close(out[1]);
		free(iso);
		errno = err;
		return NULL;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid_t parent = getpid();
	clock_gettime(CLOCK_MONOTONIC, &iso->started);
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		close(out[0]);
		close(out[1]);
		close(rep[0]);
		close(rep[1]);
		free(iso);
		errno = err;
		return NULL;
	}
	if (pid == 0) {
		child(opts, out[1], rep[1], work, arg, parent);
	}
	close(out[1]);
	close(rep[1]);
	iso->pid = pid;
	iso->out_fd = out[0];
	iso->report_fd = rep[0];
	iso->wall_seconds = opts->wall_seconds;
	iso->cpu_seconds = opts->cpu_seconds;
	iso->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return iso;
}

#else /* built without libseccomp */

struct lf_isolate *lf_isolate_start(const struct lf_isolate_opts *opts, int (*work)(void *arg), void *arg)
{
	(void)opts;
	(void)work;
	(void)arg;
	errno = ENOSYS;
	return NULL;
}

#endif

int lf_isolate_output(const struct lf_isolate *iso)
{
	return iso->out_fd;
}

/* Milliseconds left before the wall deadline; -1 for none. */
static int time_left(const struct lf_isolate *iso)
{
	if (!iso->wall_seconds) {
		return -1;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double spent = (double)(now.tv_sec - iso->started.tv_sec) + (now.tv_nsec - iso->started.tv_nsec) / 1e9;
	double left = (double)iso->wall_seconds - spent;
	return left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

/* Copy the output to @out_fd until EOF or the deadline; false at the deadline. */
static bool pump(struct lf_isolate *iso, int out_fd, int *write_err)
{
	char buf[65536];
	while (iso->out_fd >= 0) {
		int left = time_left(iso);
		if (left == 0) {
			return false;
		}
		struct pollfd p = {iso->out_fd, POLLIN, 0};
		int r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r == 0) {
			return false;
		}
		ssize_t n = read(iso->out_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			close(iso->out_fd);
			iso->out_fd = -1;
			break;
		}
		for (ssize_t off = 0; out_fd >= 0 && !*write_err && off < n;) {
			ssize_t w = write(out_fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				continue;
			}
			if (w <= 0) {
				*write_err = w < 0 ? errno : EIO;
				break;
			}
			off += w;
		}
	}
	return true;
}

/* Wait for the child until the deadline; false at the deadline. */
static bool wait_child(struct lf_isolate *iso, int *wstatus, struct rusage *ru)
{
	for (;;) {
		pid_t r = wait4(iso->pid, wstatus, WNOHANG, ru);
		if (r == iso->pid) {
			return true;
		}
		if (r < 0 && errno != EINTR) {
			*wstatus = 0;
			return true;
		}
		int left = time_left(iso);
		if (left == 0) {
			return false;
		}
		if (iso->pidfd >= 0) {
			struct pollfd p = {iso->pidfd, POLLIN, 0};
			poll(&p, 1, left);
		} else {
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

static void read_report(struct lf_isolate *iso, struct lf_isolate_result *res, int *filtered_nr)
{
	char rec[1 + sizeof(int)];
	size_t have = 0;
	for (;;) {
		ssize_t n = read(iso->report_fd, rec + have, sizeof(rec) - have);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		have += (size_t)n;
		if (have < sizeof(rec)) {
			continue;
		}
		have = 0;
		int value;
		memcpy(&value, rec + 1, sizeof(int));
		if (rec[0] == 'L') {
			res->landlock = true;
		} else if (rec[0] == 'S') {
			res->end = LF_ISOLATE_SETUP;
			res->error = value;
		} else if (rec[0] == 'F') {
			*filtered_nr = value;
		}
	}
}

int lf_isolate_finish(struct lf_isolate *iso, int out_fd, struct lf_isolate_result *res)
{
	memset(res, 0, sizeof(*res));
	int write_err = 0;
	bool in_time = pump(iso, out_fd, &write_err);
	int wstatus = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	if (in_time) {
		in_time = wait_child(iso, &wstatus, &ru);
	}
	if (!in_time) {
		kill(iso->pid, SIGKILL);
		while (wait4(iso->pid, &wstatus, 0, &ru) < 0 && errno == EINTR) {
		}
	}
	int filtered_nr = -1;
	read_report(iso, res, &filtered_nr);
	res->cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
			   ru.ru_stime.tv_usec / 1e6;
	res->max_rss_kib = ru.ru_maxrss;
	if (res->end == LF_ISOLATE_SETUP) {
		/* said by the report */
	} else if (!in_time) {
		res->end = LF_ISOLATE_WALL;
	} else if (filtered_nr >= 0) {
		res->end = LF_ISOLATE_FILTERED;
#ifdef LF_HAVE_SECCOMP
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, filtered_nr);
		snprintf(res->syscall, sizeof(res->syscall), "%s", name ? name : "?");
		free(name);
#endif
	} else if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGSYS) {
		/* Trapped with SIGSYS blocked (posix_spawn blocks every signal
		 * around its clone): the kernel killed it, the handler never ran. */
		res->end = LF_ISOLATE_FILTERED;
		snprintf(res->syscall, sizeof(res->syscall), "?");
	} else if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);
		res->signal = sig;
		bool cpu = sig == SIGXCPU || (sig == SIGKILL && iso->cpu_seconds &&
						res->cpu_seconds >= (double)iso->cpu_seconds);
		res->end = cpu ? LF_ISOLATE_CPU : LF_ISOLATE_SIGNALED;
	} else {
		res->end = LF_ISOLATE_EXITED;
		res->status = WEXITSTATUS(wstatus);
	}
	if (iso->out_fd >= 0) {
		close(iso->out_fd);
	}
	close(iso->report_fd);
	if (iso->pidfd >= 0) {
		close(iso->pidfd);
	}
	free(iso);
	if (write_err) {
		errno = write_err;
		return -1;
	}
	return 0;
}

const char *lf_isolate_describe(const struct lf_isolate_result *res, char *buf, size_t size)
{
	switch (res->end) {
	case LF_ISOLATE_EXITED:
		snprintf(buf, size, "exited with status %d", res->status);
		return buf;
	case LF_ISOLATE_FILTERED:
		if (strcmp(res->syscall, "?") == 0) {
			return "the filter stopped a system call made with signals blocked (such as the clone of a new "
			       "process by posix_spawn or system)";
		}
		snprintf(buf, size, "the filter stopped system call %s", res->syscall);
		return buf;
	case LF_ISOLATE_CPU:
		return "CPU time limit exceeded";
	case LF_ISOLATE_WALL:
		return "time limit exceeded (killed)";
	case LF_ISOLATE_SIGNALED:
		snprintf(buf, size, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
		return buf;
	case LF_ISOLATE_SETUP:
		snprintf(buf, size, "could not be confined: %s", strerror(res->error));
		return buf;
	}
	return "?";
}
