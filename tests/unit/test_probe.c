/*
 * test_probe.c: the choice between two ways of doing the same work
 * (src/core/probe.c): the probe keeps to the faster way, times the first
 * slice of neither, probes again after a run, for as long as the run
 * asked for each way, and keeps the help within its slack.
 *
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "probe.h"
#include "spin.h"

/* Spend @ns of wall time, as a unit of work does. */
static void work_for(uint64_t ns)
{
	uint64_t until = lf_now_ns() + ns;
	while (lf_now_ns() < until) {
		lf_cpu_relax();
	}
}

/*
 * Run @units units, each costing @on_ns with the help and @off_ns without;
 * count the units done each way in *@with and *@without.
 */
static void run(struct lf_probe *p, unsigned units, uint64_t on_ns, uint64_t off_ns, unsigned *with,
		unsigned *without)
{
	*with = *without = 0;
	for (unsigned i = 0; i < units; i++) {
		bool on = lf_probe_tick(p);
		work_for(on ? on_ns : off_ns);
		if (on) {
			(*with)++;
		} else {
			(*without)++;
		}
	}
}

/* 4 probe slices of 10 units (the first untimed), then 20 on or 5 off. */
#define SLICE 10
#define PROBE 4
#define RUN_ON 20
#define RUN_OFF 5

/*
 * The choices depend on wall time, which a preemption on a loaded machine
 * can upset for one attempt: a scenario passes if one of 5 attempts goes
 * as it must.  A probe that chooses wrongly fails all of them.
 */
#define ATTEMPTS 5

static bool keeps_to_help_when_faster(void)
{
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	unsigned with, without;
	/* The warm-up and the probe (5 slices), then the run of 20 slices. */
	run(&p, SLICE * (1 + PROBE), 2000, 20000, &with, &without);
	if (without != SLICE * PROBE / 2) {
		return false;
	}
	run(&p, SLICE * RUN_ON - 1, 2000, 20000, &with, &without);
	if (without != 0 || p.probing) {
		return false;
	}
	return lf_probe_tick(&p) && p.probing; /* a probe again, with the help first */
}

static bool goes_without_when_slower(void)
{
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	unsigned with, without;
	run(&p, SLICE * (1 + PROBE), 20000, 2000, &with, &without);
	/* The shorter run without (a slice's units follow the tick that
	 * starts it), then a probe again, with the help first. */
	run(&p, SLICE * RUN_OFF - 1, 20000, 2000, &with, &without);
	if (with != 0 || p.probing) {
		return false;
	}
	return lf_probe_tick(&p) && p.probing;
}

static bool first_slice_untimed(void)
{
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	unsigned with, without;
	/* A first slice 100 times as slow as the rest, with the help, which is
	 * otherwise faster: it must not count against the help. */
	run(&p, SLICE - 1, 400000, 400000, &with, &without);
	run(&p, SLICE * PROBE + 1, 2000, 6000, &with, &without);
	return p.on && !p.probing;
}

static bool slack_keeps_help(void)
{
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	lf_probe_slack(&p, 30);
	unsigned with, without;
	/* Going without is faster, but by less than the slack: keep helping. */
	run(&p, SLICE * (1 + PROBE) + 1, 20000, 16000, &with, &without);
	if (!p.on || p.probing) {
		return false;
	}
	/* Faster by more than the slack: go without. */
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	lf_probe_slack(&p, 30);
	run(&p, SLICE * (1 + PROBE) + 1, 20000, 6000, &with, &without);
	return !p.on;
}

static bool some_attempt(bool (*scenario)(void))
{
	for (int k = 0; k < ATTEMPTS; k++) {
		if (scenario()) {
			return true;
		}
	}
	return false;
}

static void test_keeps_to_help_when_faster(void **state)
{
	(void)state;
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	assert_true(p.on); /* the first slice helps */
	assert_true(some_attempt(keeps_to_help_when_faster));
}

static void test_goes_without_when_slower(void **state)
{
	(void)state;
	assert_true(some_attempt(goes_without_when_slower));
}

static void test_first_slice_untimed(void **state)
{
	(void)state;
	assert_true(some_attempt(first_slice_untimed));
}

static void test_slack_keeps_help(void **state)
{
	(void)state;
	assert_true(some_attempt(slack_keeps_help));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keeps_to_help_when_faster),
		cmocka_unit_test(test_goes_without_when_slower),
		cmocka_unit_test(test_first_slice_untimed),
		cmocka_unit_test(test_slack_keeps_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
