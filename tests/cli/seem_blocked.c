/*
 * seem_blocked.c: an LD_PRELOAD shim under which every getrusage() call
 * counts one more voluntary context switch, so that each of the I/O
 * queue's jobs seems to have blocked on I/O, as on a cold cache: the queue
 * wakes up and its workers run, on tmpfs and without dropping the page
 * cache (which needs root), for checks.sh's inode_order.
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
		ru->ru_nvcsw += atomic_fetch_add(&switches, 1) + 1;
	}
	return (int)r;
}
