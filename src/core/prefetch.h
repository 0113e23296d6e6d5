/*
 * prefetch.h: stat a directory's entries in a second thread, ahead of the
 * walk (LF_WALK_STAT_AHEAD).  Private to the core, not installed.
 *
 * The walker hands over a window of names in one open directory; the thread
 * stats them (not following links) in order while the walker goes on.  Each
 * entry is stat'ed exactly once: the walker claims an entry the thread has
 * not reached yet and stats it itself, so the two never both stat a name and
 * a query that stats every entry costs the same number of stats as without
 * the thread.  Callers only ask for this when every entry will be stat'ed
 * anyway; it would break the laziness of the core otherwise.
 *
 * The walker owns every window it submitted until it releases it: it must
 * keep the window's directory fd open until then, and release a window
 * before closing that fd.  All functions are for the walker's thread.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_PREFETCH_H
#define LF_PREFETCH_H

#include "stat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lf_prefetch;
struct lf_pf_window;

/** Names in one window: a window never holds more. */
#define LF_PF_WINDOW 256

/** Live windows at once, not counting lf_prefetch_adopt()'s (about 40 KiB each at most): lf_prefetch_submit
 *  declines more. */
#define LF_PF_MAX_WINDOWS 64

/**
 * A prefetcher with no thread yet: the thread starts with the first window.
 * @return NULL with errno set on failure, or ENOTSUP if this process may
 *         run on one CPU only (a second thread could only slow it down)
 */
struct lf_prefetch *lf_prefetch_new(void);

/**
 * The most memory a prefetcher holds (its windows at their largest, not
 * counting lf_prefetch_adopt()'s, which the I/O queue bounds), for a
 * memory account.
 */
size_t lf_prefetch_memory(void);

/**
 * Count one more entry of the walk, and say whether to submit windows now.
 * The walk goes in phases with and without the thread, and keeps to the
 * faster way: on a busy machine one thread can be faster than two.
 */
bool lf_prefetch_tick(struct lf_prefetch *pf);

/**
 * The walk went on some other way since the last lf_prefetch_tick() (the I/O
 * queue's jobs statted for it): leave that time out of the measurement.
 */
void lf_prefetch_restart(struct lf_prefetch *pf);

/**
 * Stop the thread, release every window still live, free @pf (NULL is fine).
 * Stats the thread made that nobody took are added to *@wasted.
 */
void lf_prefetch_free(struct lf_prefetch *pf, uint64_t *wasted);

/**
 * Start statting @names[0, @count) relative to @dir_fd.  The names are
 * copied.
 *
 * @return the window, or NULL with errno set: EBUSY if LF_PF_MAX_WINDOWS
 *         are live, or the thread or the memory could not be had.  The
 *         caller then stats by itself; nothing is lost.
 */
struct lf_pf_window *lf_prefetch_submit(struct lf_prefetch *pf, int dir_fd, const char *const *names,
					unsigned count);

/**
 * A window whose @count names were stat'ed already (by the I/O queue):
 * st[i] and err[i] (0 or an errno) are the results for name @i, copied.
 * No fd is kept, and LF_PF_MAX_WINDOWS does not apply: the caller bounds
 * these windows (lf_prefetch_adopted()).  @return the window, or NULL with
 * errno set
 */
struct lf_pf_window *lf_prefetch_adopt(struct lf_prefetch *pf, unsigned count, const struct lf_stat *st,
				       const int *err);

/** How many windows lf_prefetch_adopt() made are live. */
unsigned lf_prefetch_adopted(const struct lf_prefetch *pf);

/** How many names the window holds. */
unsigned lf_pf_window_count(const struct lf_pf_window *win);

/**
 * The result for name @idx of @win.  If the thread has not started on it,
 * it never will: the caller stats it by itself.  If the thread is statting
 * it, this waits for the result.
 *
 * @return -1: the caller must stat it; 0: *@st is filled in; or the errno
 *         of the thread's failed stat
 */
int lf_pf_take(struct lf_pf_window *win, unsigned idx, struct lf_stat *st);

/**
 * Stop work on @win and wait until the thread has left it: the window's fd
 * may be closed afterwards.  Results already made can still be taken; for
 * the other names lf_pf_take returns -1.
 */
void lf_prefetch_stop(struct lf_prefetch *pf, struct lf_pf_window *win);

/**
 * Stop work on @win (as lf_prefetch_stop) and free it.  Stats the thread
 * made for names nobody took are added to *@wasted.
 */
void lf_prefetch_release(struct lf_prefetch *pf, struct lf_pf_window *win, uint64_t *wasted);

#endif
