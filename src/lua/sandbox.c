/*
 * sandbox.c: Lua states for untrusted predicates and scripts (luafind.h's
 * lf_sandbox_*); luafind.sandbox{...}, which runs code in one from Lua, is
 * sandbox_object.c, and the bounded library functions sandbox_lib.c.
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
 * a window is paid before it starts:
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
 * An error raised from a hook leaves that thread's hooks off until a
 * protected call it is in returns (Lua sets allowhook = 0 around a hook
 * and a longjmp skips the reset), and Lua code that runs then is not
 * counted at all.  So no sandboxed Lua code may run in that state:
 *
 *   - the message handler of xpcall runs inside the raise: the handler is
 *     wrapped, and does not call the script's once a limit is hit;
 *   - a coroutine that dies of the error keeps its to-be-closed variables
 *     for coroutine.close (and for a wrap's function, which closes it),
 *     which would run their __close with hooks off: every coroutine body
 *     runs in a protected call inside the coroutine (co_body), which
 *     turns the hooks back on and closes the variables at once, under the
 *     budget, before the error goes on;
 *   - finalizers always run with hooks off (lgc.c, GCTM), also from
 *     lua_close: setmetatable refuses a metatable with a __gc field.  Lua
 *     marks an object for finalization only if its metatable has __gc
 *     when setmetatable is called, so a __gc added later is never called.
 *
 * Once the budget is exceeded the raising thread's window is one
 * instruction, and any pcall, xpcall, coroutine call or wrapped function
 * raises the error again before running anything, as does a resume's
 * return to its caller: the __close handlers met while the error unwinds
 * each run one instruction.
 *
 * The globals are built from an allowlist, and `luafind` is
 * lua/luafind/init.lua (embedded at build time, cmake/embed.cmake) run over
 * luafind.core, with what the limits do not allow taken out, behind a
 * read-only proxy: an empty table whose hidden metatable reads the real
 * one, whose pairs iterates it without handing it out, and that rawset
 * refuses.  The binding's own metatables are hidden too (__metatable), so
 * that a walker's __gc and __close cannot be taken away.  The binding
 * itself refuses e:delete, link and find's unsafe primaries in a sandbox
 * that does not allow them (entry.c, luafind.c, find.c), so holding the
 * functions is not enough, and it caps the walkers open at once and the
 * threads of each walk (lfb_sandbox_caps, walk.c).
 */
#include "lbind.h"
#include "luafind.h"

#include <errno.h>
#include <time.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

/* lua/luafind/init.lua, generated by cmake/embed.cmake. */
extern const unsigned char lfb_init_lua[];
extern const size_t lfb_init_lua_len;

#define STEP 1000      /* the longest window: instructions between hooks */
#define FIRST_STEP 100 /* a thread's first window in a call */

static const char msg_memory[] = "memory limit exceeded";
static const char msg_steps[] = "instruction budget exceeded";
static const char msg_time[] = "time limit exceeded";

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

static struct sandbox *get_sandbox(lua_State *L)
{
	void *ud;
	return lua_getallocf(L, &ud) == sb_alloc ? ud : NULL;
}

bool lfb_sandboxed(lua_State *L, unsigned *allow)
{
	struct sandbox *s = get_sandbox(L);
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
	struct sandbox *s = get_sandbox(L);
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
	struct sandbox *s = get_sandbox(L);
	if (s && s->limit && (now || s->since_gc > s->limit / 4)) {
		s->since_gc = 0;
		lua_gc(L, LUA_GCCOLLECT);
	}
}

int lfb_memory_error(lua_State *L)
{
	struct sandbox *s = get_sandbox(L);
	if (s) {
		s->mem_hit = true;
	}
	lua_pushliteral(L, "not enough memory"); /* Lua's own message: lf_sandbox_error_kind knows it */
	return lua_error(L);
}

bool lfb_sandbox_caps(lua_State *L, unsigned *max_walks, unsigned *max_threads)
{
	struct sandbox *s = get_sandbox(L);
	if (!s) {
		return false;
	}
	*max_walks = s->max_walks;
	*max_threads = s->max_threads;
	return true;
}

static void sb_hook(lua_State *L, lua_Debug *ar);

/*
 * The budget is used up: raise its error in @L, whose window becomes one
 * instruction, so that what runs while the error unwinds is stopped at once.
 */
static int out_of_steps(lua_State *L, struct sandbox *s)
{
	s->steps_hit = true;
	s->used = s->max_steps;
	lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
	lua_pushstring(L, s->time_hit ? msg_time : msg_steps);
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
	struct sandbox *s = get_sandbox(L);
	if (s && (s->steps_hit || time_up(s))) {
		out_of_steps(L, s);
	}
	return s != NULL;
}

/* A charge worth reading the CPU clock for (a system call) before it runs. */
#define LARGE_CHARGE 1000000u

void lfb_sandbox_charge(lua_State *L, uint64_t steps)
{
	struct sandbox *s = get_sandbox(L);
	if (!s || !s->max_steps) {
		return;
	}
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || steps > left || time_up(s)) {
		out_of_steps(L, s);
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
			out_of_steps(L, s);
		}
	}
	s->used += steps;
}

/*
 * Pay for a first window of FIRST_STEP instructions, or of what is left if
 * that is less; raise the budget's error in @L if nothing is.
 * @return the window, for lua_sethook
 */
static int pay_first(lua_State *L, struct sandbox *s)
{
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || left == 0) {
		out_of_steps(L, s);
	}
	int n = left < FIRST_STEP ? (int)left : FIRST_STEP;
	s->used += (uint64_t)n;
	return n;
}

/* @L ran the window it had paid for: pay for the next one, or stop. */
static void sb_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	struct sandbox *s = get_sandbox(L);
	int cur = lua_gethookcount(L);
	uint64_t next = cur < STEP / 2 ? 2 * (uint64_t)cur : STEP;
	uint64_t left = s->max_steps - s->used;
	if (s->steps_hit || left == 0 || time_up(s)) {
		out_of_steps(L, s);
	}
	if (next > left) {
		next = left;
	}
	s->used += next;
	if (next != (uint64_t)cur) {
		lua_sethook(L, sb_hook, LUA_MASKCOUNT, (int)next);
	}
}

/* A first window for @L, paid: the thread a call starts in (not raising). */
static void arm_thread(lua_State *L, struct sandbox *s)
{
	uint64_t left = s->max_steps - s->used;
	int n = left < FIRST_STEP ? (int)left : FIRST_STEP;
	s->used += (uint64_t)n;
	lua_sethook(L, sb_hook, LUA_MASKCOUNT, n ? n : 1); /* 1: raises at once */
}

/* ---- the globals -------------------------------------------------------- */

/* load(chunk [, name [, mode [, env]]]): text chunks only. */
static int sb_load(lua_State *L)
{
	const char *mode = luaL_optstring(L, 3, "t");
	if (strchr(mode, 'b')) {
		return luaL_error(L, "load: binary chunks are not allowed in the sandbox");
	}
	int nargs = lua_gettop(L) >= 4 ? 4 : 3; /* an env given as nil is still given */
	lua_settop(L, 4);
	lua_pushliteral(L, "t");
	lua_replace(L, 3);
	lua_settop(L, nargs);
	lua_pushvalue(L, lua_upvalueindex(1)); /* the base library's load */
	lua_insert(L, 1);
	lua_call(L, nargs, LUA_MULTRET);
	return lua_gettop(L);
}

/* collectgarbage(["collect" | "count"]). */
static int sb_collectgarbage(lua_State *L)
{
	const char *opt = luaL_optstring(L, 1, "collect");
	if (strcmp(opt, "collect") != 0 && strcmp(opt, "count") != 0) {
		return luaL_error(L, "collectgarbage: '%s' is not allowed in the sandbox", opt);
	}
	lua_settop(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 1, 1);
	return 1;
}

/*
 * The limits end the call: once the budget is used up or the cap was hit,
 * what pcall, xpcall, coroutine.resume and coroutine.close caught is raised
 * again as the limit's error, so `while true do pcall(f) end` stops too.
 * Continuation of sb_catch (the wrapped function stays yieldable).
 */
static int sb_catch_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	struct sandbox *s = get_sandbox(L);
	if (lua_type(L, 1) == LUA_TBOOLEAN && !lua_toboolean(L, 1)) {
		if (s->steps_hit) {
			return out_of_steps(L, s);
		}
		if (s->mem_hit) {
			lua_pushliteral(L, "not enough memory"); /* Lua's own, already interned */
			return lua_error(L);
		}
	}
	return lua_gettop(L);
}

/*
 * Before the coroutine at @idx (if it is one) runs in this call: a window
 * paid in this call, unless it has one (@cos maps each coroutine to the
 * reset generation its window was paid in).
 */
static void arm_co(lua_State *L, struct sandbox *s, int idx, int cos)
{
	lua_State *co = lua_tothread(L, idx);
	if (!co || !s->max_steps) {
		return;
	}
	lua_pushvalue(L, idx);
	if (lua_rawget(L, cos) == LUA_TNUMBER && (uint64_t)lua_tointeger(L, -1) == s->gen) {
		lua_pop(L, 1);
		return;
	}
	lua_pop(L, 1);
	lua_sethook(co, sb_hook, LUA_MASKCOUNT, pay_first(L, s));
	lua_pushvalue(L, idx);
	lua_pushinteger(L, (lua_Integer)s->gen);
	lua_rawset(L, cos);
}

/*
 * A function that catches errors (upvalue 1), under sb_catch_k's rule;
 * coroutine.resume and close have the coroutines' table as upvalue 2, and
 * arm the coroutine first.  Nothing runs once the budget is used up.
 */
static int sb_catch(lua_State *L)
{
	struct sandbox *s = get_sandbox(L);
	if (s->steps_hit) {
		return out_of_steps(L, s);
	}
	if (lua_type(L, lua_upvalueindex(2)) == LUA_TTABLE) {
		arm_co(L, s, 1, lua_upvalueindex(2));
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, sb_catch_k);
	return sb_catch_k(L, LUA_OK, 0);
}

static void wrap_catcher(lua_State *L, int table, const char *name, int cos)
{
	lua_getfield(L, table, name);
	if (cos) {
		lua_pushvalue(L, cos);
	}
	lua_pushcclosure(L, sb_catch, cos ? 2 : 1);
	lua_setfield(L, table, name);
}

/*
 * xpcall's message handler (upvalue 1: the script's).  Lua calls it inside
 * the raise, also for an error raised by the hook, with the hooks off: once
 * a limit is hit, it returns the error as it is without running the
 * script's handler, which nothing would stop.
 */
static int sb_msgh(lua_State *L)
{
	struct sandbox *s = get_sandbox(L);
	if (s->steps_hit || s->mem_hit) {
		lua_settop(L, 1);
		return 1;
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/* xpcall(f, msgh, ...): sb_catch over xpcall (upvalue 1), msgh wrapped. */
static int sb_xpcall(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TFUNCTION) {
		lua_pushvalue(L, 2);
		lua_pushcclosure(L, sb_msgh, 1);
		lua_replace(L, 2);
	}
	return sb_catch(L);
}

/* ---- coroutines --------------------------------------------------------- */

#if LUA_VERSION_RELEASE_NUM >= 50406
#define close_thread(co, from) lua_closethread((co), (from))
#else
#define close_thread(co, from) ((void)(from), lua_resetthread(co))
#endif

/*
 * The body of every coroutine: its function (upvalue 1) in a protected
 * call inside the coroutine, so that an error raised by the hook is caught
 * where Lua turns the hooks back on and closes the to-be-closed variables
 * at once, under the budget; then the error goes on.  (Left to
 * coroutine.close, or to a wrap's function, which closes a coroutine that
 * failed, those would run with the hooks off.)
 */
static int co_body_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)ctx;
	if (status != LUA_OK && status != LUA_YIELD) {
		return lua_error(L);
	}
	return lua_gettop(L);
}

static int co_body(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	return co_body_k(L, lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, co_body_k), 0);
}

/* Push a new coroutine running the function at 1, its first window paid. */
static lua_State *new_co(lua_State *L, int cos)
{
	struct sandbox *s = get_sandbox(L);
	luaL_checktype(L, 1, LUA_TFUNCTION);
	if (s->steps_hit) {
		out_of_steps(L, s);
	}
	int window = s->max_steps ? pay_first(L, s) : 0;
	lua_State *co = lua_newthread(L);
	int idx = lua_gettop(L);
	if (window) {
		lua_sethook(co, sb_hook, LUA_MASKCOUNT, window);
		lua_pushvalue(L, idx);
		lua_pushinteger(L, (lua_Integer)s->gen);
		lua_rawset(L, cos);
	}
	lua_pushvalue(L, 1);
	lua_pushcclosure(L, co_body, 1);
	lua_xmove(L, co, 1);
	return co;
}

/* coroutine.create(f) (upvalue 1: the coroutines' table). */
static int sb_co_create(lua_State *L)
{
	new_co(L, lua_upvalueindex(1));
	return 1;
}

/* lcorolib.c's auxresume: resume @co with @narg arguments; -1 on error. */
static int auxresume(lua_State *L, lua_State *co, int narg)
{
	int nres;
	if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
		lua_pushliteral(L, "cannot resume dead coroutine");
		return -1;
	}
	if (!lua_checkstack(co, narg)) {
		lua_pushliteral(L, "too many arguments to resume");
		return -1;
	}
	lua_xmove(L, co, narg);
	int status = lua_resume(co, L, narg, &nres);
	if (status == LUA_OK || status == LUA_YIELD) {
		if (!lua_checkstack(L, nres + 1)) {
			lua_pop(co, nres);
			lua_pushliteral(L, "too many results to resume");
			return -1;
		}
		lua_xmove(co, L, nres);
		return nres;
	}
	lua_xmove(co, L, 1);
	return -1;
}

/*
 * The function coroutine.wrap returns (upvalues: the coroutine, the
 * coroutines' table, the reset generation it last armed the coroutine in):
 * lcorolib.c's auxwrap, with the coroutine armed first and the limits'
 * errors raised as they are.  A generator resumed in a loop looks its
 * coroutine up in the table once per call, not once per resume.
 */
static int sb_auxwrap(lua_State *L)
{
	struct sandbox *s = get_sandbox(L);
	lua_State *co = lua_tothread(L, lua_upvalueindex(1));
	if (s->steps_hit) {
		return out_of_steps(L, s);
	}
	if ((uint64_t)lua_tointeger(L, lua_upvalueindex(3)) != s->gen) {
		arm_co(L, s, lua_upvalueindex(1), lua_upvalueindex(2));
		lua_pushinteger(L, (lua_Integer)s->gen);
		lua_replace(L, lua_upvalueindex(3));
	}
	int r = auxresume(L, co, lua_gettop(L));
	if (r >= 0) {
		return r;
	}
	if (s->steps_hit) {
		return out_of_steps(L, s);
	}
	if (s->mem_hit) {
		lua_pushliteral(L, "not enough memory");
		return lua_error(L);
	}
	int stat = lua_status(co);
	if (stat != LUA_OK && stat != LUA_YIELD) { /* an error in the coroutine */
		stat = close_thread(co, L);
		lua_xmove(co, L, 1);
	}
	if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
		luaL_where(L, 1);
		lua_insert(L, -2);
		lua_concat(L, 2);
	}
	return lua_error(L);
}

/* coroutine.wrap(f) (upvalue 1: the coroutines' table). */
static int sb_co_wrap(lua_State *L)
{
	new_co(L, lua_upvalueindex(1));
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushinteger(L, (lua_Integer)get_sandbox(L)->gen); /* new_co armed it */
	lua_pushcclosure(L, sb_auxwrap, 3);
	return 1;
}

/* The coroutine library at @lib, made to count (see the opening comment). */
static void wrap_coroutines(lua_State *L, int lib)
{
	lua_newtable(L); /* the coroutines: the generation of their window */
	int cos = lua_gettop(L);
	lua_createtable(L, 0, 1);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, cos);
	lua_pushvalue(L, cos);
	lua_pushcclosure(L, sb_co_create, 1);
	lua_setfield(L, lib, "create");
	lua_pushvalue(L, cos);
	lua_pushcclosure(L, sb_co_wrap, 1);
	lua_setfield(L, lib, "wrap");
	wrap_catcher(L, lib, "resume", cos);
	wrap_catcher(L, lib, "close", cos);
	lua_pop(L, 1);
}

/* ---- the rest of the globals -------------------------------------------- */

/*
 * setmetatable(t, mt) (upvalue 1: the base library's): no __gc field in mt.
 * Finalizers run with the hooks off, so nothing would stop one (also from
 * lua_close, in the host).  Lua marks t for finalization only if mt has a
 * __gc field now: one set later is never called.
 */
static int sb_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL) {
			return luaL_error(L, "setmetatable: __gc metamethods are not allowed in the sandbox");
		}
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

static int readonly(lua_State *L)
{
	return luaL_error(L, "luafind: the module is read-only in the sandbox");
}

/* rawset(t, k, v) (upvalues: the base library's, the set of proxies). */
static int sb_rawset(lua_State *L)
{
	lua_pushvalue(L, 1);
	if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) {
		return readonly(L);
	}
	lua_pop(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/* require(name): the preloaded modules (upvalue 1) and nothing else. */
static int sb_require(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	if (lua_getfield(L, lua_upvalueindex(1), name) == LUA_TNIL) {
		return luaL_error(L, "module '%s' is not available in the sandbox", name);
	}
	return 1;
}

/* init.lua's require: luafind.core only. */
static int core_require(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	return 1;
}

/* A proxy's next(_, key) over the real table (upvalue 1), never handed out. */
static int proxy_next(lua_State *L)
{
	lua_settop(L, 2);
	if (lua_next(L, lua_upvalueindex(1))) {
		return 2;
	}
	lua_pushnil(L);
	return 1;
}

/* A proxy's __pairs (upvalue 1: its proxy_next): proxy_next, the proxy, nil. */
static int proxy_pairs(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

/*
 * Push a read-only proxy of the table at @real, whose table fields become
 * proxies first (@real must hold no cycle), each added to the set of
 * proxies at @proxies, which rawset refuses.  A proxy is an empty table:
 * its hidden metatable reads @real (__index), refuses writes (__newindex)
 * and iterates @real through proxy_next (__pairs).
 */
static void push_proxy(lua_State *L, int real, int proxies)
{
	real = lua_absindex(L, real);
	lua_pushnil(L);
	while (lua_next(L, real)) {
		if (lua_type(L, -1) == LUA_TTABLE) {
			lua_pushvalue(L, -2);
			push_proxy(L, -2, proxies);
			lua_rawset(L, real); /* an existing key: allowed during lua_next */
		}
		lua_pop(L, 1);
	}
	lua_newtable(L);
	lua_createtable(L, 0, 4);
	lua_pushvalue(L, real);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, readonly);
	lua_setfield(L, -2, "__newindex");
	lua_pushvalue(L, real);
	lua_pushcclosure(L, proxy_next, 1);
	lua_pushcclosure(L, proxy_pairs, 1);
	lua_setfield(L, -2, "__pairs");
	lua_pushliteral(L, "luafind (read-only)");
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
	lua_pushvalue(L, -1);
	lua_pushboolean(L, 1);
	lua_rawset(L, proxies);
}

/*
 * Push the sandbox's luafind: init.lua over luafind.core, trimmed, behind a
 * read-only proxy recorded in the set at @proxies.
 */
static void push_luafind(lua_State *L, unsigned allow, int proxies)
{
	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	int core = lua_gettop(L);
	if (luaL_loadbufferx(L, (const char *)lfb_init_lua, lfb_init_lua_len, "=luafind/init.lua", "t") !=
	    LUA_OK) {
		lua_error(L);
	}
	lua_createtable(L, 0, 2); /* init.lua's _ENV: require and os.time */
	lua_pushvalue(L, core);
	lua_pushcclosure(L, core_require, 1);
	lua_setfield(L, -2, "require");
	lua_getglobal(L, "os");
	lua_setfield(L, -2, "os");
	lua_setupvalue(L, -2, 1);
	lua_call(L, 0, 1);
	int lf = lua_gettop(L);
	const char *drop[] = {"core", "sandbox", allow & LF_SANDBOX_ALLOW_LINK ? NULL : "link",
			      allow & LF_SANDBOX_ALLOW_DELETE ? NULL : "remove_tree"};
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		if (drop[i]) {
			lua_pushnil(L);
			lua_setfield(L, lf, drop[i]);
		}
	}
	push_proxy(L, lf, proxies);
	lua_replace(L, core);
	lua_settop(L, core);
}

static int sb_init(lua_State *L)
{
	struct sandbox *s = get_sandbox(L);
	struct lf_ctx *ctx = lua_touserdata(L, 1);
	lua_settop(L, 0);
	if (ctx) {
		lfb_lend_ctx(L, ctx);
	}
	lua_newtable(L); /* the modules require returns */
	int mods = lua_gettop(L);
	lua_newtable(L); /* the read-only proxies */
	int proxies = lua_gettop(L);
	/* The budget's error, interned for good: raising it allocates nothing. */
	lua_pushstring(L, msg_steps);
	lua_rawsetp(L, LUA_REGISTRYINDEX, msg_steps);
	lua_pushstring(L, msg_time);
	lua_rawsetp(L, LUA_REGISTRYINDEX, msg_time);

	luaL_requiref(L, "_G", luaopen_base, 1);
	int g = lua_gettop(L);
	static const char *const dropped[] = {"dofile", "loadfile"};
	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++) {
		lua_pushnil(L);
		lua_setfield(L, g, dropped[i]);
	}
	lua_getfield(L, g, "load");
	lua_pushcclosure(L, sb_load, 1);
	lua_setfield(L, g, "load");
	lua_getfield(L, g, "collectgarbage");
	lua_pushcclosure(L, sb_collectgarbage, 1);
	lua_setfield(L, g, "collectgarbage");
	lua_getfield(L, g, "setmetatable");
	lua_pushcclosure(L, sb_setmetatable, 1);
	lua_setfield(L, g, "setmetatable");
	lua_getfield(L, g, "rawset");
	lua_pushvalue(L, proxies);
	lua_pushcclosure(L, sb_rawset, 2);
	lua_setfield(L, g, "rawset");
	wrap_catcher(L, g, "pcall", 0);
	lua_getfield(L, g, "xpcall");
	lua_pushcclosure(L, sb_xpcall, 1);
	lua_setfield(L, g, "xpcall");
	lua_settop(L, proxies);

	static const luaL_Reg libs[] = {
		{LUA_COLIBNAME, luaopen_coroutine}, {LUA_STRLIBNAME, luaopen_string},
		{LUA_TABLIBNAME, luaopen_table},    {LUA_MATHLIBNAME, luaopen_math},
		{LUA_UTF8LIBNAME, luaopen_utf8},
	};
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		luaL_requiref(L, libs[i].name, libs[i].func, 1);
		if (libs[i].func == luaopen_coroutine) {
			wrap_coroutines(L, lua_gettop(L));
		}
		lua_setfield(L, mods, libs[i].name);
	}
	lua_getfield(L, mods, LUA_STRLIBNAME);
	lua_getfield(L, mods, LUA_TABLIBNAME);
	lfb_sandbox_bound_libs(L, -2, -1);
	lua_pop(L, 2);

	/* os: the clock and the calendar only (not in require: "os" is not the module). */
	lua_pushcfunction(L, luaopen_os);
	lua_call(L, 0, 1);
	lua_createtable(L, 0, 4);
	static const char *const os_kept[] = {"time", "clock", "date", "difftime"};
	for (size_t i = 0; i < sizeof(os_kept) / sizeof(os_kept[0]); i++) {
		lua_getfield(L, -2, os_kept[i]);
		lua_setfield(L, -2, os_kept[i]);
	}
	lua_setglobal(L, "os");
	lua_pop(L, 1);

	push_luafind(L, s->allow, proxies);
	lua_setfield(L, mods, "luafind");

	lua_pushvalue(L, mods);
	lua_pushcclosure(L, sb_require, 1);
	lua_setglobal(L, "require");
	return 0;
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
	lua_pushcfunction(L, sb_init);
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
	struct sandbox *s = get_sandbox(L);
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
	 * nothing in the call can catch its error (sb_catch_k raises it again),
	 * so the error that ends the call is the limit's, whatever a message
	 * handler made of it.
	 */
	(void)idx;
	struct sandbox *s = get_sandbox(L);
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
	case LF_SANDBOX_ERR_STEPS: return msg_steps;
	case LF_SANDBOX_ERR_TIME: return msg_time;
	default: return "error";
	}
}
