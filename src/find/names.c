/*
 * names.c: how find shows names, modes and link targets (GNU's qmark_chars,
 * strmode and readlink), for -print, -ls and -printf.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

/*
 * GNU's qmark_chars(), applied to names written to a terminal: a byte (or a
 * multibyte character) that cannot be displayed becomes '?'.
 * @return the new length (a multibyte character shrinks to one '?')
 */
size_t lf_qmark(char *buf, size_t len)
{
	if (MB_CUR_MAX == 1) {
		for (size_t i = 0; i < len; i++) {
			if (!isprint((unsigned char)buf[i])) {
				buf[i] = '?';
			}
		}
		return len;
	}
	const char *p = buf, *end = buf + len;
	char *q = buf;
	while (p < end) {
		mbstate_t mbs;
		memset(&mbs, 0, sizeof(mbs));
		do {
			wchar_t wc;
			size_t n = mbrtowc(&wc, p, (size_t)(end - p), &mbs);
			if (n == (size_t)-1) {
				p++;
				*q++ = '?';
				break;
			}
			if (n == (size_t)-2) {
				p = end;
				*q++ = '?';
				break;
			}
			if (n == 0) {
				n = 1;
			}
			if (wcwidth(wc) >= 0) {
				memmove(q, p, n);
				q += n;
			} else {
				*q++ = '?';
			}
			p += n;
		} while (!mbsinit(&mbs) && p < end);
	}
	return (size_t)(q - buf);
}

/* gnulib's strmode(): "drwxr-xr-x " (eleven characters and a NUL). */
void lf_mode_string(uint32_t mode, char str[12])
{
	char t = '?';
	switch (mode & S_IFMT) {
	case S_IFREG: t = '-'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	}
	str[0] = t;
	str[1] = mode & S_IRUSR ? 'r' : '-';
	str[2] = mode & S_IWUSR ? 'w' : '-';
	str[3] = mode & S_ISUID ? (mode & S_IXUSR ? 's' : 'S') : (mode & S_IXUSR ? 'x' : '-');
	str[4] = mode & S_IRGRP ? 'r' : '-';
	str[5] = mode & S_IWGRP ? 'w' : '-';
	str[6] = mode & S_ISGID ? (mode & S_IXGRP ? 's' : 'S') : (mode & S_IXGRP ? 'x' : '-');
	str[7] = mode & S_IROTH ? 'r' : '-';
	str[8] = mode & S_IWOTH ? 'w' : '-';
	str[9] = mode & S_ISVTX ? (mode & S_IXOTH ? 't' : 'T') : (mode & S_IXOTH ? 'x' : '-');
	str[10] = ' ';
	str[11] = '\0';
}

/* readlinkat into a malloc'd string; NULL with errno set. */
char *lf_read_link(const struct lf_entry *e)
{
	size_t size = 128;
	for (;;) {
		char *buf = malloc(size);
		if (!buf) {
			return NULL;
		}
		ssize_t n = readlinkat(e->at_fd, e->at_name, buf, size);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		size *= 2;
	}
}

size_t lf_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	if (la > 64 || lb > 64) {
		return SIZE_MAX;
	}
	/* Rows i-2, i-1 and i of the table, rolled. */
	size_t rows[3][65];
	for (size_t j = 0; j <= lb; j++) {
		rows[0][j] = j;
	}
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < best) {
				best = prev[j] + 1;
			}
			if (cur[j - 1] + 1 < best) {
				best = cur[j - 1] + 1;
			}
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best) {
				best = prev2[j - 2] + 1;
			}
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}
