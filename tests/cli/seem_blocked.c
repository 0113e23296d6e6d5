/*
 * seem_blocked.c: an LD_PRELOAD shim under which every getrusage() call
 * counts more voluntary context switches, so that each of the I/O queue's
 * jobs seems to have blocked on I/O, as on a cold cache, and its stats to
 * have waited one by one, as on a network filesystem: the queue wakes up,
 * its workers run and stat through io_uring, on tmpfs and without
 * dropping the page cache (which needs root), for checks.sh's inode_order
 * and io_uring.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_long switches;

int getrusage(int who, struct rusage *ru)
{
	long r = syscall(SYS_getrusage, who, ru);
	if (r == 0) {
		/* More than a job has stats (LF_IOQ_STATS). */
		ru->ru_nvcsw += (atomic_fetch_add(&switches, 1) + 1) * 1024;
	}
	return (int)r;
}
