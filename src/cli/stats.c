/*
 * stats.c: --stats (stats.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "stats.h"

#include <inttypes.h>

void lf_cli_print_stats(FILE *fp, const char *progname, const char *label, const struct lf_counters *c,
			uint64_t entries)
{
	fprintf(fp,
		"%s: stats: %sentries=%" PRIu64 " opens=%" PRIu64 " reopens=%" PRIu64 " closes=%" PRIu64
		" getdents=%" PRIu64 " stats=%" PRIu64 " stats_follow=%" PRIu64 " fd_stats=%" PRIu64
		" unlinks=%" PRIu64 " stats_ahead=%" PRIu64 " dirs_ahead=%" PRIu64 " dirs_ahead_unused=%" PRIu64
		" stats_ring=%" PRIu64 " tags=%" PRIu64 "\n",
		progname, label, entries, c->opens, c->reopens, c->closes, c->getdents, c->stats, c->stats_follow,
		c->fd_stats, c->unlinks, c->stats_ahead, c->dirs_ahead, c->dirs_ahead_unused, c->stats_ring,
		c->tags);
}
