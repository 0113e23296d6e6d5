/*
 * dtunknown.c: an LD_PRELOAD shim that erases d_type from every record
 * getdents64 returns, as filesystems without d_type support do, so the
 * tests can check that the core stats exactly once per DT_UNKNOWN entry.
 * The core calls syscall(SYS_getdents64, ...), so syscall() is wrapped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	if (!real) {
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	}
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++) {
		a[i] = va_arg(ap, long);
	}
	va_end(ap);
	long r = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (number == SYS_getdents64 && r > 0) {
		char *buf = (char *)a[1];
		for (long off = 0; off < r;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			buf[off + 18] = DT_UNKNOWN;
			off += reclen;
		}
	}
	return r;
}
