/*
 * swapper.c: the attacker of the deletion race tests.  Exchanges two paths
 * (renameat2 RENAME_EXCHANGE: atomically, a directory and a symbolic link
 * trade places) as fast as it can, until killed or for SECONDS at most.
 *
 *	swapper PATH1 PATH2 [SECONDS]
 *
 * Prints "ready" on stdout once the first exchange went through.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: swapper PATH1 PATH2 [SECONDS]\n");
		return 2;
	}
	double seconds = argc == 4 ? strtod(argv[3], NULL) : 60;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (unsigned long n = 0;; n++) {
		if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
			if (errno == ENOENT && n > 0) {
				return 0; /* the deletion got one of them: the race is over */
			}
			fprintf(stderr, "swapper: %s <-> %s: %s\n", argv[1], argv[2], strerror(errno));
			return 1;
		}
		if (n == 0) {
			puts("ready");
			fflush(stdout);
		}
		if ((n & 1023) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 > seconds) {
				return 0;
			}
		}
	}
}
