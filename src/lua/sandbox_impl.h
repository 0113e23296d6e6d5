/*
 * sandbox_impl.h: what the sandbox's two files share (not installed).
 *
 *   sandbox.c      the limits: the counting allocator and the C-side
 *                  memory account, the instruction budget and its count
 *                  hook, the CPU time; lf_sandbox_new, reset and pcall
 *   sandbox_env.c  what code in a sandbox sees: the globals, wrapped so
 *                  that the limits hold
 *
 * sandbox.c calls sandbox_env.c once, to build a new state's globals
 * (lfb_sb_init); the wrappers there read the limits' state and pay for a
 * coroutine's window or raise the budget's error through the functions
 * below.  Hidden, and lfb_ names, as everything in lbind.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_SANDBOX_IMPL_H
#define LF_SANDBOX_IMPL_H

#include "lbind.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sandbox {
	size_t limit, total;
	size_t charged;     /* C-side memory charged (lfb_sandbox_mem), within limit too */
	size_t since_gc;    /* charged since the last lfb_sandbox_collect */
	struct lf_mem mem;  /* the account lfb_sandbox_mem hands the core */
	uint64_t max_steps, used; /* used: paid for since the last reset */
	uint64_t gen;             /* the reset count: windows of older ones are void */
	unsigned allow;
	unsigned max_walks, max_threads;
	uint64_t max_time_ns;     /* CPU time per call (0: none) */
	uint64_t deadline_ns;     /* the calling thread's CPU clock at which the call ends */
	uint64_t next_check_ns;   /* the monotonic clock at which to read that clock again */
	bool mem_hit;   /* memory was refused since the last reset */
	/* The request refused last, which Lua asks again after an emergency
	 * collection: if that succeeds, nothing failed (mem_hit goes back). */
	bool retry_armed, retry_hit_before;
	void *retry_ptr;
	size_t retry_size;
	bool steps_hit; /* the budget or the time ran out since the last reset */
	bool time_hit;  /* of the two, the time */
	bool owned;     /* the state exists: free this with its last block */
};

/* The budget's and the time's error messages (sandbox.c). */
LFB_HIDDEN extern const char lfb_sb_msg_steps[];
LFB_HIDDEN extern const char lfb_sb_msg_time[];

/* The sandbox @L belongs to (its allocator's userdata), or NULL. */
LFB_HIDDEN struct sandbox *lfb_sb_get_sandbox(lua_State *L);

/* Raise the budget's (or the time's) error in @L, whose window becomes one
 * instruction.  Never returns. */
LFB_HIDDEN int lfb_sb_out_of_steps(lua_State *L, struct sandbox *s);

/* Pay for a coroutine's first window, raising the budget's error if nothing
 * is left.  @return the window, for lua_sethook with lfb_sb_hook */
LFB_HIDDEN int lfb_sb_pay_first(lua_State *L, struct sandbox *s);

/* The count hook of every thread of a sandbox with a budget. */
LFB_HIDDEN void lfb_sb_hook(lua_State *L, lua_Debug *ar);

/*
 * Build the globals of a new sandbox (sandbox_env.c): a lua_CFunction for
 * lua_pcall, given the lf_ctx to lend (NULL: the state's own) as a light
 * userdata.
 */
LFB_HIDDEN int lfb_sb_init(lua_State *L);

#endif
