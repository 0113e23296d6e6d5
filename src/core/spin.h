/*
 * spin.h: what the core's threads use to wait briefly for one another (the
 * stat-ahead thread, the I/O queue): a monotonic clock in nanoseconds and a
 * spin-loop hint.  Private to the core, not installed.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_SPIN_H
#define LF_SPIN_H

#include <stdint.h>
#include <time.h>

/** CLOCK_MONOTONIC in nanoseconds (vDSO: no syscall). */
static inline uint64_t lf_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** Tell the CPU this is a spin loop (the other hyperthread gets the core). */
static inline void lf_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

#endif
