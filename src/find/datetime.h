/**
 * datetime.h: dates as GNU find's -newerXt reads them (gnulib's
 * parse_datetime, the parser of GNU date -d), without the library.
 *
 * Accepted: "@SECONDS[.FRACTION]"; calendar dates (2024-03-05, 20240305,
 * 3/5/2024, 2024/03/05, 5 Mar 2024, March 5, 2024, 5-Mar-2024); times of day
 * (14:30, 14:30:15.25, 2pm, 2:30 a.m.) with an optional numeric zone (+01:00,
 * +0100, -05); ISO 8601 "DATE T TIME"; zone names (Z, UTC, GMT, EST, CEST,
 * military letters, the local zone's own abbreviations, each optionally with
 * DST); weekdays (monday, mon, last friday, next tue, 2 wed); relative items
 * (now, today, yesterday, tomorrow, [N|+N|-N|last|next|first..twelfth] unit,
 * with "ago" or "hence", units year, month, fortnight, week, day, hour,
 * minute/min, second/sec, each also plural); parenthesised comments.  Items
 * combine as GNU combines them, quirks included ("10:00 +1 hour" is 10:00 at
 * UTC+1, plus one hour; "1 day 2 hours ago" is a day ahead, two hours back).
 *
 * Not accepted: a leading TZ="ZONE" (it would need the process's TZ changed).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_DATETIME_H
#define LF_DATETIME_H

#include <time.h>

/**
 * Parse the date @s relative to @now, in the local time zone (TZ, through
 * localtime_r() and mktime()).  Reads no other state and keeps none.
 * @return 0 with the time in *@out, or -1 if @s is not a date GNU's
 *         parse_datetime accepts, or names a time outside time_t or struct tm
 *         (*@out is then unchanged)
 */
int lf_datetime_parse(const char *s, const struct timespec *now, struct timespec *out);

#endif
