/**
 * stats.h: --stats, the walks' syscall counters on standard error, in one
 * form for luafind and luafind-mpi (its sums and each rank's share).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_CLI_STATS_H
#define LF_CLI_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "walk.h"

/**
 * Print "PROGNAME: stats: LABELentries=N opens=N ..." on @fp: @label is ""
 * or says whose counters they are ("rank 1: ").
 */
void lf_cli_print_stats(FILE *fp, const char *progname, const char *label, const struct lf_counters *c,
			uint64_t entries);

#endif
