/*
 * probe.c: timing two ways of doing the same work in turn.  See probe.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "probe.h"

#include "spin.h"

void lf_probe_init(struct lf_probe *p, unsigned slice_units, unsigned probe_slices, unsigned run_on,
		   unsigned run_off)
{
	*p = (struct lf_probe){
		.on = true,
		.probing = true,
		.slice_units = slice_units,
		.probe_slices = probe_slices,
		.run_on = run_on,
		.run_off = run_off,
		.slice_left = slice_units,
		.slices_left = probe_slices,
		.slice_start = lf_now_ns(),
		.warming = true,
	};
}

void lf_probe_restart_slice(struct lf_probe *p)
{
	p->slice_start = lf_now_ns();
	p->slice_left = p->slice_units;
}

void lf_probe_next_slice(struct lf_probe *p)
{
	uint64_t now = lf_now_ns();
	if (p->warming) {
		/* The first slice starts the help (a thread, its memory): not timed. */
		p->warming = false;
		p->slice_start = now;
		p->slice_left = p->slice_units;
		return;
	}
	if (p->probing) {
		p->probe_ns[p->on] += now - p->slice_start;
	}
	p->slice_start = now;
	p->slice_left = p->slice_units;
	if (--p->slices_left > 0) {
		if (p->probing) {
			p->on = !p->on;
		}
		return;
	}
	if (p->probing) {
		p->on = p->probe_ns[0] * 100 >= p->probe_ns[1] * (100 - p->slack_pct) ||
			p->probe_ns[1] < p->probe_ns[0];
		p->slices_left = p->on ? p->run_on : p->run_off;
	} else {
		p->on = true;
		p->probe_ns[0] = p->probe_ns[1] = 0;
		p->slices_left = p->probe_slices;
	}
	p->probing = !p->probing;
}
