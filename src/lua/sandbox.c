/*
 * sandbox.c: the limits of a Lua state for untrusted predicates and scripts
 * (luafind.h's lf_sandbox_*): its memory, its instruction budget and its
 * CPU time.  What code in it sees, the globals wrapped so that the limits
 * hold, is sandbox_env.c; luafind.sandbox{...}, which runs code in one from
 * Lua, is sandbox_object.c, and the bounded library functions sandbox_lib.c.
 *
 * A sandbox is a state made by lua_newstate() with a counting allocator:
 * its userdata (struct sandbox) holds the limit and the current total, and
 * refuses what would go over the limit, which Lua raises as its memory
 * error after an emergency collection.  The allocator is also how the
 * binding recognises a sandbox (lfb_sandboxed): a Lua script cannot change
 * it, unlike anything in the registry or the globals.  The struct lives as
 * long as the state: the allocator frees it when the state frees its last
 * block (lua_close frees the global state last).
 *
 * The instruction budget (max_steps, per call: lf_sandbox_reset starts a
 * new one) is paid in advance, window by window.  Each Lua thread has its
 * own count hook, and a count hook fires only once its thread has run a
 * whole window of instructions: what a thread ran since its last hook is
 * invisible (lua_State.hookcount is not in the API).  A budget charged
 * when the hook fires would lose that remainder for every coroutine, and
 * short coroutines created in a loop never fire it at all (issue 20: three
 * levels of coroutine.wrap ran 1.4e9 instructions at max_steps 1e6).  So
 * a window is paid before it starts (the coroutine library's wrappers, in
 * sandbox_env.c, pay the coroutines'):
 *
 *   - lf_sandbox_reset pays a first window, FIRST_STEP instructions, for
 *     the thread it is given (and the main thread), and sets its hook;
 *   - coroutine.create and coroutine.wrap pay one for the new coroutine;
 *   - coroutine.resume, close and a wrap's function look up (in a weak
 *     table, `cos`) the reset generation the coroutine's window was paid
 *     in: one paid before this call's reset is void, and a new first
 *     window is paid and set, so that coroutines kept from an earlier call
 *     run nothing unpaid in this one;
 *   - when the hook fires, its thread's window is used up: it pays the
 *     next one, twice as long up to STEP (a thread that runs long soon
 *     costs no more hooks than a fixed STEP would), cut to what the
 *     budget has left.  With nothing left, the budget is exceeded.
 *
 * So the instructions a call runs are at most max_steps, whatever the
 * coroutines do; what a thread has not used of its window is lost, at
 * most FIRST_STEP for a coroutine that is created (or first resumed after
 * a reset) and runs little.  Time spent in C functions is not counted:
 * one step of lf.find over a large tree whose expression rejects
 * everything runs to its end.
 *
 * The binding also caps the walkers open at once and the threads of each
 * walk (lfb_sandbox_caps, walk.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "sandbox_impl.h"
#include "luafind.h"

#include <errno.h>
#include <time.h>
#include <limits.h>
#include <stdlib.h>

#define STEP 1000      /* the longest window: instructions between hooks */
#define FIRST_STEP 100 /* a thread's first window in a call */

static const char msg_memory[] = "memory limit exceeded";
const char lfb_sb_msg_steps[] = "instruction budget exceeded";
const char lfb_sb_msg_time[] = "time limit exceeded";

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct sandbox *s = ud;
	size_t old = ptr ? osize : 0;
	if (nsize == 0) {
		free(ptr);
		s->total -= old;
		if (s->total == 0 && s->owned) {
			free(s); /* lua_close freed the global state, the last block */
		}
		return NULL;
	}
	if (s->limit && nsize > old && s->total + s->charged - old + nsize > s->limit) {
		s->retry_armed = true;
		s->retry_hit_before = s->mem_hit;
		s->retry_ptr = ptr;
		s->retry_size = nsize;
		s->mem_hit = true;
		return NULL;
	}
	void *p = realloc(ptr, nsize);
	if (p) {
		s->total = s->total - old + nsize;
	}
	if (s->retry_armed) {
		if (p && ptr == s->retry_ptr && nsize == s->retry_size) {
			s->mem_hit = s->retry_hit_before;
		}
		s->retry_armed = false;
	}
	return p;
}

struct sandbox *lfb_sb_get_sandbox(lua_State *L)
{
	void *ud;
	return lua_getallocf(L, &ud) == sb_alloc ? ud : NULL;
}

bool lfb_sandboxed(lua_State *L, unsigned *allow)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (allow) {
		*allow = s ? s->allow : ~0u;
	}
	return s != NULL;
}

/*
 * The C-side account: memory the binding and the core take outside Lua's
 * allocator for this state (compiled regexes, walkers' buffers) counts
 * toward the same limit as the state's own.  Not counted in s->total, so
 * that the struct is still freed with the state's last block.
 */
static bool sb_charge(void *data, size_t bytes)
{
	struct sandbox *s = data;
	if (s->limit && (bytes > s->limit || s->total + s->charged > s->limit - bytes)) {
		return false; /* the binding may collect and retry: lfb_memory_error sets mem_hit */
	}
	s->charged += bytes;
	s->since_gc += bytes;
	return true;
}

static void sb_uncharge(void *data, size_t bytes)
{
	struct sandbox *s = data;
	s->charged -= bytes < s->charged ? bytes : s->charged;
}

const struct lf_mem *lfb_sandbox_mem(lua_State *L)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	return s ? &s->mem : NULL;
}

/*
 * Lua's collector sees none of the C-side memory, and its emergency
 * collection at the limit runs no finalizer, the only thing that gives
 * back what a dropped regex or walker holds: so a full collection runs
 * before a binding function takes more once a quarter of the limit was
 * charged since the last one.  Garbage holds at most about that much.
 */
void lfb_sandbox_collect(lua_State *L, bool now)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (s && s->limit && (now || s->since_gc > s->limit / 4)) {
		s->since_gc = 0;
		lua_gc(L, LUA_GCCOLLECT);
	}
}

int lfb_memory_error(lua_State *L)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (s) {
		s->mem_hit = true;
	}
	lua_pushliteral(L, "not enough memory"); /* Lua's own message: lf_sandbox_error_kind knows it */
	return lua_error(L);
}

bool lfb_sandbox_caps(lua_State *L, unsigned *max_walks, unsigned *max_threads)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (!s) {
		return false;
	}
	*max_walks = s->max_walks;
	*max_threads = s->max_threads;
	return true;
}

/*
 * The budget is used up: raise its error in @L, whose window becomes one
 * instruction, so that what runs while the error unwinds is stopped at once.
 */
int lfb_sb_out_of_steps(lua_State *L, struct sandbox *s)
{
	s->steps_hit = true;
	s->used = s->max_steps;
	lua_sethook(L, lfb_sb_hook, LUA_MASKCOUNT, 1);
	lua_pushstring(L, s->time_hit ? lfb_sb_msg_time : lfb_sb_msg_steps);
	return lua_error(L);
}

/* The CPU time the calling thread has used, in nanoseconds. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
		return 0;
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Whether the call's CPU time is up (then it is marked so).  The thread's
 * CPU clock is a system call (0.5 us; a hook comes every few us): it is
 * read once every CPU_CHECK_NS of the monotonic clock, which the vDSO
 * reads in 20 ns.  So the call ends at most that long after its deadline.
 */
#define CPU_CHECK_NS 5000000u
static bool time_up(struct sandbox *s)
{
	if (s->time_hit) {
		return true;
	}
	if (!s->deadline_ns) {
		return false;
	}
	uint64_t now = monotonic_ns();
	if (now < s->next_check_ns) {
		return false;
	}
	s->next_check_ns = now + CPU_CHECK_NS;
	if (thread_cpu_ns() < s->deadline_ns) {
		return false;
	}
	s->time_hit = true;
	return true;
}

bool lfb_sandbox_check(lua_State *L)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (s && (s->steps_hit || time_up(s))) {
		lfb_sb_out_of_steps(L, s);
	}
	return s != NULL;
}

/* A charge worth reading the CPU clock for (a system call) before it runs. */
#define LARGE_CHARGE 1000000u

void lfb_sandbox_charge(lua_State *L, uint64_t steps)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (!s || !s->max_steps) {
		return;
	}
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || steps > left || time_up(s)) {
		lfb_sb_out_of_steps(L, s);
	}
	/*
	 * Under a time limit alone the budget is all but endless: a large
	 * charge is also weighed against the CPU time left, at 1 ns a step
	 * (a C loop's step costs more), since nothing interrupts the C call.
	 */
	if (s->deadline_ns && steps > LARGE_CHARGE) {
		uint64_t now = thread_cpu_ns();
		if (now >= s->deadline_ns || steps > s->deadline_ns - now) {
			s->time_hit = true;
			lfb_sb_out_of_steps(L, s);
		}
	}
	s->used += steps;
}

/*
 * Pay for a first window of FIRST_STEP instructions, or of what is left if
 * that is less; raise the budget's error in @L if nothing is.
 * @return the window, for lua_sethook
 */
int lfb_sb_pay_first(lua_State *L, struct sandbox *s)
{
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || left == 0) {
		lfb_sb_out_of_steps(L, s);
	}
	int n = left < FIRST_STEP ? (int)left : FIRST_STEP;
	s->used += (uint64_t)n;
	return n;
}

/* @L ran the window it had paid for: pay for the next one, or stop. */
void lfb_sb_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	struct sandbox *s = lfb_sb_get_sandbox(L);
	int cur = lua_gethookcount(L);
	uint64_t next = cur < STEP / 2 ? 2 * (uint64_t)cur : STEP;
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || left == 0 || time_up(s)) {
		lfb_sb_out_of_steps(L, s);
	}
	if (next > left) {
		next = left;
	}
	s->used += next;
	if (next != (uint64_t)cur) {
		lua_sethook(L, lfb_sb_hook, LUA_MASKCOUNT, (int)next);
	}
}

/* A first window for @L, paid: the thread a call starts in (not raising). */
static void arm_thread(lua_State *L, struct sandbox *s)
{
	uint64_t left = s->max_steps - s->used;
	int n = left < FIRST_STEP ? (int)left : FIRST_STEP;
	s->used += (uint64_t)n;
	lua_sethook(L, lfb_sb_hook, LUA_MASKCOUNT, n ? n : 1); /* 1: raises at once */
}

lua_State *lfb_sandbox_new(const struct lf_sandbox_limits *lim, struct lf_ctx *ctx)
{
	struct sandbox *s = calloc(1, sizeof(*s));
	if (!s) {
		return NULL;
	}
	s->max_walks = LF_SANDBOX_MAX_WALKS;
	s->max_threads = LF_SANDBOX_MAX_THREADS;
	s->mem = (struct lf_mem){sb_charge, sb_uncharge, s};
	if (lim) {
		s->limit = lim->max_memory;
		s->max_steps = lim->max_steps;
		s->allow = lim->allow;
		s->max_walks = lim->max_walks ? lim->max_walks : LF_SANDBOX_MAX_WALKS;
		s->max_threads = lim->max_threads ? lim->max_threads : LF_SANDBOX_MAX_THREADS;
		/*
		 * A budget bounds time too: without max_time_ms, 1 us of CPU
		 * per instruction of the budget, 1 s at least (Lua runs an
		 * instruction in 5-50 ns; what takes longer is a C function).
		 */
		uint64_t ms = lim->max_time_ms;
		if (!ms && lim->max_steps) {
			ms = lim->max_steps / 1000 > 1000 ? lim->max_steps / 1000 : 1000;
		}
		s->max_time_ns = ms > UINT64_MAX / 1000000u ? UINT64_MAX / 2 : ms * 1000000u;
		if (ms && !s->max_steps) {
			s->max_steps = UINT64_MAX / 2; /* the hook, for the clock */
		}
	}
	lua_State *L = lua_newstate(sb_alloc, s);
	if (!L) {
		free(s); /* nothing was allocated: the allocator holds no block */
		errno = ENOMEM;
		return NULL;
	}
	s->owned = true;
	lua_pushcfunction(L, lfb_sb_init);
	lua_pushlightuserdata(L, ctx);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		lua_close(L);
		errno = ENOMEM;
		return NULL;
	}
	lf_sandbox_reset(L);
	return L;
}

LF_PUBLIC lua_State *lf_sandbox_new(const struct lf_sandbox_limits *lim)
{
	return lfb_sandbox_new(lim, NULL);
}

LF_PUBLIC void lf_sandbox_reset(lua_State *L)
{
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (!s) {
		return;
	}
	s->used = 0;
	s->gen++;
	s->mem_hit = false;
	s->retry_armed = false;
	s->steps_hit = false;
	s->time_hit = false;
	s->deadline_ns = s->max_time_ns ? thread_cpu_ns() + s->max_time_ns : 0;
	s->next_check_ns = 0;
	if (s->max_steps) {
		arm_thread(L, s);
		lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
		lua_State *main = lua_tothread(L, -1);
		lua_pop(L, 1);
		if (main != L) {
			arm_thread(main, s);
		}
	}
}

LF_PUBLIC int lf_sandbox_pcall(lua_State *L, int nargs, int nresults, int msgh)
{
	lf_sandbox_reset(L);
	return lua_pcall(L, nargs, nresults, msgh);
}

LF_PUBLIC int lf_sandbox_error_kind(lua_State *L, int idx)
{
	/*
	 * By what the sandbox refused, never by the text: once a limit is hit,
	 * nothing in the call can catch its error (sb_catch_k, sandbox_env.c,
	 * raises it again), so the error that ends the call is the limit's,
	 * whatever a message handler made of it.
	 */
	(void)idx;
	struct sandbox *s = lfb_sb_get_sandbox(L);
	if (!s) {
		return LF_SANDBOX_ERR_LUA;
	}
	if (s->mem_hit) {
		return LF_SANDBOX_ERR_MEMORY;
	}
	if (s->time_hit) {
		return LF_SANDBOX_ERR_TIME;
	}
	return s->steps_hit ? LF_SANDBOX_ERR_STEPS : LF_SANDBOX_ERR_LUA;
}

LF_PUBLIC const char *lf_sandbox_error_message(int kind)
{
	switch (kind) {
	case LF_SANDBOX_ERR_MEMORY: return msg_memory;
	case LF_SANDBOX_ERR_STEPS: return lfb_sb_msg_steps;
	case LF_SANDBOX_ERR_TIME: return lfb_sb_msg_time;
	default: return "error";
	}
}
