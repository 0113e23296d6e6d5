/**
 * sink.h: where find's output actions write (sink.c): standard output, a
 * file named by -fprint and its kin (shared by the actions of a context
 * that name the same file), or standard error.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_SINK_H
#define LF_SINK_H

#include <stdbool.h>

#include "expr.h"
#include "output.h"

struct lf_parser;
struct lf_sink;

/**
 * The sink for @name (argument @argoff of the primary being parsed by @p),
 * opened (created, truncated) now, or the open one of the same file.
 * @return the sink, or NULL after reporting "'name': reason"
 */
struct lf_sink *lf_sink_open(struct lf_parser *p, int argoff, const char *name);

/** The writer for the current entry (ev->out for standard output). */
struct lf_out *lf_sink_begin(struct lf_sink *s, struct lf_eval *ev);

/** After writing an entry: standard error is flushed at once. */
void lf_sink_end(struct lf_sink *s);

/** Whether the sink is a terminal (names are then shown with '?'). */
bool lf_sink_tty(const struct lf_sink *s);

/**
 * Report a failure to write to @s: "'name': reason", with GNU's names for
 * the standard streams; the exit status becomes 1.
 */
void lf_sink_report(const struct lf_sink *s, struct lf_eval *ev, int err);

/**
 * One user of @s is done with its walk: flush, and close when it was the
 * last; report the first write error.
 */
void lf_sink_finish(struct lf_sink *s, struct lf_eval *ev);

/**
 * One user of @s lets go of it (@unfinished: before its walk finished);
 * the last frees it, flushing quietly what an abandoned walk left.
 */
void lf_sink_release(struct lf_sink *s, bool unfinished);

/**
 * The writers of the files the output actions of @ctx write (-fprint FILE
 * and its kin; not standard output or error), in an order that is the same
 * for every context that parsed the same expression: at most @max of them
 * in @outs.  With @capture, each file is closed (it was created and
 * truncated while parsing) and its writer collects in memory instead
 * (lf_out_init_mem): the host takes o->buf and o->len between entries and
 * carries them elsewhere (luafind-mpi sends them to the rank that writes
 * the file); the finish hook then frees it, writing nothing.
 *
 * @return how many files there are (possibly more than @max), or
 *         (size_t)-1 with errno set (ENOMEM) when a capture failed
 */
size_t lf_sink_files(struct lf_ctx *ctx, struct lf_out **outs, size_t max, bool capture);

#endif
