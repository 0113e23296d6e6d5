/*
 * mkchain: create a chain of nested directories of any depth, which mkdir -p
 * cannot (it passes whole paths to the kernel, so PATH_MAX stops it).
 *
 *	mkchain DIR DEPTH [NAME]
 *
 * creates DIR/NAME/NAME/.../NAME (DEPTH levels below DIR, NAME defaults to
 * "d") with mkdirat/openat one component at a time, holding two fds at most.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: mkchain DIR DEPTH [NAME]\n");
		return 2;
	}
	const char *name = argc == 4 ? argv[3] : "d";
	char *end;
	long depth = strtol(argv[2], &end, 10);
	if (*end || depth < 0) {
		fprintf(stderr, "mkchain: bad depth '%s'\n", argv[2]);
		return 2;
	}
	if (mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	int fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (long i = 0; i < depth; i++) {
		if (mkdirat(fd, name, 0755) != 0 && errno != EEXIST) {
			fprintf(stderr, "mkchain: level %ld: %s\n", i + 1, strerror(errno));
			return 1;
		}
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			fprintf(stderr, "mkchain: level %ld: %s\n", i + 1, strerror(errno));
			return 1;
		}
		close(fd);
		fd = next;
	}
	close(fd);
	return 0;
}
