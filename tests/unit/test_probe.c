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

static void test_keeps_to_help_when_faster(void **state)
{
	(void)state;
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	assert_true(p.on); /* the first slice helps */
	unsigned with, without;
	/* warm-up and probe (5 slices), then the run of 20 slices. */
	run(&p, SLICE * (1 + PROBE), 2000, 20000, &with, &without);
	assert_int_equal(without, SLICE * PROBE / 2);
	run(&p, SLICE * RUN_ON - 1, 2000, 20000, &with, &without);
	assert_int_equal(without, 0);
	assert_false(p.probing);
	assert_true(lf_probe_tick(&p)); /* a probe again, with the help first */
	assert_true(p.probing);
}

static void test_goes_without_when_slower(void **state)
{
	(void)state;
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	unsigned with, without;
	run(&p, SLICE * (1 + PROBE), 20000, 2000, &with, &without);
	/* The shorter run without (a slice's units follow the tick that
	 * starts it), then a probe again, with the help first. */
	run(&p, SLICE * RUN_OFF - 1, 20000, 2000, &with, &without);
	assert_int_equal(with, 0);
	assert_false(p.probing);
	assert_true(lf_probe_tick(&p));
	assert_true(p.probing);
}

static void test_first_slice_untimed(void **state)
{
	(void)state;
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	unsigned with, without;
	/* A first slice 100 times as slow as the rest, with the help, which is
	 * otherwise faster: it must not count against the help. */
	run(&p, SLICE - 1, 400000, 400000, &with, &without);
	assert_int_equal(with, SLICE - 1);
	run(&p, SLICE * PROBE + 1, 2000, 6000, &with, &without);
	assert_true(p.on);
	assert_false(p.probing);
}

static void test_slack_keeps_help(void **state)
{
	(void)state;
	struct lf_probe p;
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	lf_probe_slack(&p, 30);
	unsigned with, without;
	/* Going without is faster, but by less than the slack: keep helping. */
	run(&p, SLICE * (1 + PROBE) + 1, 20000, 16000, &with, &without);
	assert_true(p.on);
	assert_false(p.probing);
	/* Faster by more than the slack: go without. */
	lf_probe_init(&p, SLICE, PROBE, RUN_ON, RUN_OFF);
	lf_probe_slack(&p, 30);
	run(&p, SLICE * (1 + PROBE) + 1, 20000, 6000, &with, &without);
	assert_false(p.on);
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
