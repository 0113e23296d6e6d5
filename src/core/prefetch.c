/*
 * prefetch.c: the stat-ahead thread.  See prefetch.h for the contract.
 *
 * Each name has a slot whose state is claimed by compare-and-swap, so the
 * walker and the thread never both stat a name.  The thread works on the
 * newest window (the walker is in the deepest directory), from its last name
 * backwards, while the walker stats from the front: they meet in the middle
 * and each makes about half of the stats.  Working in the same direction
 * would serialize them: the walker, which has less to do per entry, would
 * catch up with the thread and wait on every stat it has in flight.
 * The mutex guards the list of windows and which window the thread is in;
 * slot states are lock-free.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "prefetch.h"

#include "probe.h"
#include "spin.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum {
	SLOT_PENDING = 0, /* nobody has it yet */
	SLOT_BUSY,        /* the thread is statting it */
	SLOT_DONE,        /* the thread's result is ready */
	SLOT_TAKEN,       /* the walker has it (stats it itself, or took the result) */
	SLOT_WAITED,      /* busy, and the walker sleeps on it (futex) */
};

/*
 * How long the idle thread polls for the next window before it sleeps.
 * The walker submits a window per directory, a few microseconds apart.
 * Measured on the 500k-entry benchmark tree (2 cores): sleeping at once
 * (a futex wake per directory) left -size at 1.0x of one thread, a 6 us
 * poll 0.94x, 60 us to 800 us 0.75-0.80x.
 */
#define IDLE_SPIN_NS 100000

/*
 * The thread only pays when a core is idle: with one other busy process on
 * 2 cores, -size took 1.6x as long with it as without (the scheduler shares
 * the cores per thread, and the walker is the critical path).  So the walk
 * measures itself: PROBE_SLICES slices of SLICE_ENTRIES entries, with and
 * without the thread in turn (interleaved, so that both ways see the same
 * kind of directories), then RUN_SLICES slices the faster way, and again.
 * Phases of 8192 entries each way, not interleaved, chose wrongly in a
 * third of the runs on the benchmark tree.
 */
#define SLICE_ENTRIES 1024
#define PROBE_SLICES 16
#define RUN_SLICES 128
/*
 * How long the walker polls an in-flight stat before it sleeps on it: a
 * warm stat is done by then, a cold one waits for the disk, and the walker
 * spinning on it (or yielding a CPU that nobody else wants) burnt 1.2 s of
 * user time in a cold -size -j1 of the 200k-entry tree.
 */
#define BUSY_SPINS 2000

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

struct slot {
	atomic_int state;
	int err;
	unsigned nameoff;
	struct lf_stat st;
};

struct lf_pf_window {
	struct lf_pf_window *older, *newer; /* the live list, under the mutex */
	int dir_fd;
	unsigned count;
	unsigned left; /* names before the thread's cursor (it works downwards); the thread's own */
	atomic_bool cancelled;
	bool adopted; /* made by lf_prefetch_adopt() */
	char *names;
	struct slot slots[];
};

struct lf_prefetch {
	pthread_mutex_t lock;
	pthread_cond_t work;   /* a window arrived, or stop */
	pthread_cond_t left;   /* the thread left a window */
	pthread_t thread;
	bool started, stop, sleeping;
	atomic_uint submitted; /* polled by the idle thread */
	struct lf_pf_window *oldest, *newest;
	struct lf_pf_window *current; /* the window the thread is in */
	unsigned live;
	unsigned adopted; /* of the live windows, those lf_prefetch_adopt() made */

	struct lf_probe probe; /* the walker's own: with or without the thread */
};

/* The newest window with names nobody has started on; under the lock. */
static struct lf_pf_window *pick(struct lf_prefetch *pf)
{
	for (struct lf_pf_window *win = pf->newest; win; win = win->older) {
		if (!atomic_load_explicit(&win->cancelled, memory_order_relaxed) &&
		    win->left > 0) {
			return win;
		}
	}
	return NULL;
}

static void work_on(struct lf_pf_window *win)
{
	while (win->left > 0 && !atomic_load_explicit(&win->cancelled, memory_order_relaxed)) {
		struct slot *s = &win->slots[--win->left];
		int expect = SLOT_PENDING;
		if (!atomic_compare_exchange_strong_explicit(&s->state, &expect, SLOT_BUSY, memory_order_acquire,
							     memory_order_relaxed)) {
			win->left = 0; /* met the walker: it has the rest */
			return;
		}
		s->err = lf_stat_at(win->dir_fd, win->names + s->nameoff, false, &s->st) == 0 ? 0 : errno;
		if (atomic_exchange_explicit(&s->state, SLOT_DONE, memory_order_release) == SLOT_WAITED) {
			futex_wake(&s->state);
		}
	}
}

static void *thread_main(void *arg)
{
	struct lf_prefetch *pf = arg;
	pthread_mutex_lock(&pf->lock);
	while (!pf->stop) {
		struct lf_pf_window *win = pick(pf);
		if (win) {
			pf->current = win;
			pthread_mutex_unlock(&pf->lock);
			work_on(win);
			pthread_mutex_lock(&pf->lock);
			pf->current = NULL;
			pthread_cond_broadcast(&pf->left);
			continue;
		}
		unsigned seen = atomic_load(&pf->submitted);
		pthread_mutex_unlock(&pf->lock);
		uint64_t until = lf_now_ns() + IDLE_SPIN_NS;
		for (unsigned k = 1; atomic_load_explicit(&pf->submitted, memory_order_relaxed) == seen; k++) {
			lf_cpu_relax();
			if (k % 64 == 0 && lf_now_ns() > until) {
				break;
			}
		}
		pthread_mutex_lock(&pf->lock);
		if (!pf->stop && atomic_load(&pf->submitted) == seen) {
			pf->sleeping = true;
			pthread_cond_wait(&pf->work, &pf->lock);
			pf->sleeping = false;
		}
	}
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct lf_prefetch *lf_prefetch_new(void)
{
	cpu_set_t cpus;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_COUNT(&cpus) < 2) {
		errno = ENOTSUP;
		return NULL;
	}
	struct lf_prefetch *pf = calloc(1, sizeof(*pf));
	if (!pf) {
		return NULL;
	}
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->work, NULL);
	pthread_cond_init(&pf->left, NULL);
	lf_probe_init(&pf->probe, SLICE_ENTRIES, PROBE_SLICES, RUN_SLICES, RUN_SLICES);
	return pf;
}

bool lf_prefetch_tick(struct lf_prefetch *pf)
{
	return lf_probe_tick(&pf->probe);
}

void lf_prefetch_restart(struct lf_prefetch *pf)
{
	lf_probe_restart_slice(&pf->probe);
}

/* Stats the thread made that nobody took. */
static uint64_t count_untaken(const struct lf_pf_window *win)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < win->count; i++) {
		n += atomic_load_explicit(&win->slots[i].state, memory_order_relaxed) == SLOT_DONE;
	}
	return n;
}

/* Under the lock. */
static void stop_locked(struct lf_prefetch *pf, struct lf_pf_window *win)
{
	atomic_store(&win->cancelled, true);
	while (pf->current == win) {
		pthread_cond_wait(&pf->left, &pf->lock);
	}
}

void lf_prefetch_stop(struct lf_prefetch *pf, struct lf_pf_window *win)
{
	pthread_mutex_lock(&pf->lock);
	stop_locked(pf, win);
	pthread_mutex_unlock(&pf->lock);
}

void lf_prefetch_release(struct lf_prefetch *pf, struct lf_pf_window *win, uint64_t *wasted)
{
	pthread_mutex_lock(&pf->lock);
	stop_locked(pf, win);
	if (win->older) {
		win->older->newer = win->newer;
	} else {
		pf->oldest = win->newer;
	}
	if (win->newer) {
		win->newer->older = win->older;
	} else {
		pf->newest = win->older;
	}
	pf->live--;
	pf->adopted -= win->adopted;
	pthread_mutex_unlock(&pf->lock);
	*wasted += count_untaken(win);
	free(win);
}

void lf_prefetch_free(struct lf_prefetch *pf, uint64_t *wasted)
{
	if (!pf) {
		return;
	}
	while (pf->oldest) {
		lf_prefetch_release(pf, pf->oldest, wasted);
	}
	if (pf->started) {
		pthread_mutex_lock(&pf->lock);
		pf->stop = true;
		pthread_cond_signal(&pf->work);
		pthread_mutex_unlock(&pf->lock);
		pthread_join(pf->thread, NULL);
	}
	pthread_cond_destroy(&pf->left);
	pthread_cond_destroy(&pf->work);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}

/* Put @win in the live list, as the newest; under the lock. */
static void link_live(struct lf_prefetch *pf, struct lf_pf_window *win)
{
	win->newer = NULL;
	win->older = pf->newest;
	if (pf->newest) {
		pf->newest->newer = win;
	} else {
		pf->oldest = win;
	}
	pf->newest = win;
	pf->live++;
}

size_t lf_prefetch_memory(void)
{
	size_t window = sizeof(struct lf_pf_window) + LF_PF_WINDOW * (sizeof(struct slot) + NAME_MAX + 1);
	return sizeof(struct lf_prefetch) + LF_PF_MAX_WINDOWS * window;
}

struct lf_pf_window *lf_prefetch_submit(struct lf_prefetch *pf, int dir_fd, const char *const *names,
					unsigned count)
{
	if (count == 0 || count > LF_PF_WINDOW) {
		errno = EINVAL;
		return NULL;
	}
	if (pf->live - pf->adopted >= LF_PF_MAX_WINDOWS) { /* adopted ones are bounded by their maker */
		errno = EBUSY;
		return NULL;
	}
	size_t namebytes = 0;
	for (unsigned i = 0; i < count; i++) {
		namebytes += strlen(names[i]) + 1;
	}
	struct lf_pf_window *win = malloc(sizeof(*win) + count * sizeof(struct slot) + namebytes);
	if (!win) {
		return NULL;
	}
	win->dir_fd = dir_fd;
	win->count = count;
	win->left = count;
	atomic_init(&win->cancelled, false);
	win->adopted = false;
	win->names = (char *)&win->slots[count];
	size_t off = 0;
	for (unsigned i = 0; i < count; i++) {
		size_t len = strlen(names[i]) + 1;
		memcpy(win->names + off, names[i], len);
		atomic_init(&win->slots[i].state, SLOT_PENDING);
		win->slots[i].nameoff = (unsigned)off;
		off += len;
	}

	pthread_mutex_lock(&pf->lock);
	if (!pf->started) {
		int err = pthread_create(&pf->thread, NULL, thread_main, pf);
		if (err) {
			pthread_mutex_unlock(&pf->lock);
			free(win);
			errno = err;
			return NULL;
		}
		pf->started = true;
	}
	link_live(pf, win);
	atomic_fetch_add(&pf->submitted, 1);
	if (pf->sleeping) {
		pthread_cond_signal(&pf->work);
	}
	pthread_mutex_unlock(&pf->lock);
	return win;
}

struct lf_pf_window *lf_prefetch_adopt(struct lf_prefetch *pf, unsigned count, const struct lf_stat *st,
				       const int *err)
{
	if (count == 0) {
		errno = EINVAL;
		return NULL;
	}
	struct lf_pf_window *win = malloc(sizeof(*win) + count * sizeof(struct slot));
	if (!win) {
		return NULL;
	}
	win->dir_fd = -1;
	win->count = count;
	win->left = 0; /* nothing for the thread */
	atomic_init(&win->cancelled, false);
	win->names = NULL;
	win->adopted = true;
	pf->adopted++;
	for (unsigned i = 0; i < count; i++) {
		win->slots[i].st = st[i];
		win->slots[i].err = err[i];
		win->slots[i].nameoff = 0;
		atomic_init(&win->slots[i].state, SLOT_DONE);
	}
	pthread_mutex_lock(&pf->lock);
	link_live(pf, win);
	pthread_mutex_unlock(&pf->lock);
	return win;
}

unsigned lf_prefetch_adopted(const struct lf_prefetch *pf)
{
	return pf->adopted;
}

unsigned lf_pf_window_count(const struct lf_pf_window *win)
{
	return win->count;
}

int lf_pf_take(struct lf_pf_window *win, unsigned idx, struct lf_stat *st)
{
	struct slot *s = &win->slots[idx];
	int expect = SLOT_PENDING;
	/* Acquire on failure too: a DONE read here publishes the result. */
	if (atomic_compare_exchange_strong_explicit(&s->state, &expect, SLOT_TAKEN, memory_order_acquire,
						    memory_order_acquire)) {
		return -1;
	}
	for (int k = 0; expect == SLOT_BUSY && k < BUSY_SPINS; k++) {
		lf_cpu_relax();
		expect = atomic_load_explicit(&s->state, memory_order_acquire);
	}
	if (expect == SLOT_BUSY) {
		atomic_compare_exchange_strong_explicit(&s->state, &expect, SLOT_WAITED, memory_order_acquire,
							memory_order_acquire);
	}
	while (expect == SLOT_BUSY || expect == SLOT_WAITED) {
		futex_wait(&s->state, SLOT_WAITED);
		expect = atomic_load_explicit(&s->state, memory_order_acquire);
	}
	if (expect != SLOT_DONE) {
		return -1; /* taken twice: the caller's own stat is still right */
	}
	*st = s->st;
	atomic_store_explicit(&s->state, SLOT_TAKEN, memory_order_relaxed);
	return s->err;
}
