/*
 * probe.h: choose between two ways of doing the same work by timing them
 * in turn, for the core's helper threads (the stat-ahead thread, the I/O
 * queue's warm sharing), which only pay while a core is idle.  Private to
 * the core, not installed.
 *
 * The work is counted in units (entries of the walk).  A probe runs
 * @probe_slices slices of @slice_units units, with and without the help in
 * turn (interleaved, so that both ways see the same kind of directories),
 * then @run_on slices with the help if that was faster, else @run_off
 * without, and probes again: a machine that gets busy or idle mid-walk is
 * noticed within one cycle.  lf_probe_slack() makes the probe keep the
 * help unless going without was faster by a margin.  The first slice, with the help, is not timed:
 * it pays for starting it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PROBE_H
#define LF_PROBE_H

#include <stdbool.h>
#include <stdint.h>

struct lf_probe {
	bool on;              /**< help now */
	bool probing;         /**< measuring both ways, or running the faster */
	bool warming;         /**< in the first slice, with the help, untimed */
	unsigned slice_units, probe_slices, run_on, run_off;
	unsigned slack_pct;   /**< going without must be faster by more than this, in percent */
	unsigned slice_left;  /**< units left in this slice */
	unsigned slices_left; /**< slices left in this stage */
	uint64_t slice_start; /**< ns */
	uint64_t probe_ns[2]; /**< [on]: time spent each way in this probe */
};

/** Start probing now, with the help on in the first slice. */
void lf_probe_init(struct lf_probe *p, unsigned slice_units, unsigned probe_slices, unsigned run_on,
		   unsigned run_off);

/**
 * Keep the help unless the slices without it took less than 100 - @pct
 * percent of the time of those with it (0, the default: whichever was
 * faster).
 */
static inline void lf_probe_slack(struct lf_probe *p, unsigned pct)
{
	p->slack_pct = pct;
}

/** A slice is over: time it, and choose how the next one goes. */
void lf_probe_next_slice(struct lf_probe *p);

/**
 * Leave out of the measurement the time since the last unit (the work was
 * done some other way meanwhile): the current slice starts again now.
 */
void lf_probe_restart_slice(struct lf_probe *p);

/** Count one unit of work.  @return whether to help now. */
static inline bool lf_probe_tick(struct lf_probe *p)
{
	if (--p->slice_left == 0) {
		lf_probe_next_slice(p);
	}
	return p->on;
}

#endif
