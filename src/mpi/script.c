/*
 * script.c: luafind-mpi --run SCRIPT, a cleanup script on every rank.
 *
 * Every rank runs the script (lua/luafind/runner.lua, as luafind --run
 * does) in its own Lua state, with the same arguments.  The script's walk
 * is the job's one walk: luafind.mpi's walk() hands each rank's script the
 * entries its walkers visit (walk.c), so each script sees a part of the
 * tree, whole directories at a time, and the framework (luafind.script)
 * adds the parts up: counters summed (sum, max), lists gathered at rank 0
 * (gather), and what a directory's post-order visit needs from parts walked
 * elsewhere carried to it (keep, up, claim: join.c).
 *
 * The script runs in a coroutine.  Its walk's iterator yields to C: the
 * first time to start the walk, then for each entry; C resumes it with the
 * entry from inside the walk (lfm_script_entry), and with nothing at the
 * end.  A collective call (sum, gather...) made while this rank's walk is
 * still going waits (the coroutine yields) until the walk is over on every
 * rank, as does a script that leaves its loop early.  The ranks must make
 * the same collective calls in the same order: each one first checks that
 * all ranks are at the same call, and ends the job with a clear message
 * if not, rather than hang.
 *
 * Output: the script's io.stdout writes into the run's writer (forward.c
 * carries it to rank 0 in whole writes); before the walk the other ranks'
 * standard output and error are dropped (rank 0 says the usage error or
 * prints the help once); after it, what the framework prints once (the
 * summary), rank 0 prints.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include "diag.h"
#include "lfcli.h"
#include "luafind.h"
#include "prim_lua.h"

#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum walk_phase { WALK_NONE, WALK_ASKED, WALK_RUNNING, WALK_OVER };
enum want { WANT_NOTHING, WANT_WALK, WANT_ENTRY, WANT_PARKED };
/* The collective calls, as the ranks check they make the same one. */
enum call { CALL_WALK = 1, CALL_SUM, CALL_MAX, CALL_GATHER, CALL_STATS, CALL_END };

struct lfm_script {
	struct lfm *m;
	lua_State *T;      /* the script's coroutine */
	enum walk_phase phase;
	enum want want;    /* why T yielded */
	bool ended;        /* T returned or raised */
	int status;
	/* The walk asked for. */
	char **roots;
	size_t nroots;
	int order;
	int symlinks;
	bool xdev, gitignore;
	bool skip_errors;
	int64_t lost; /* what a directory that cannot be walked sends up (walk{lost =}) */
	/* The entry being handed over (valid during lfm_script_entry only). */
	struct lf_entry *cur;
	enum lfm_how how;
	struct lfm_deferred *rec;
	struct lfm_target target;
};

static struct lfm_script *self(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* All ranks at the same collective call (@call, @n), or the job ends. */
static void agree(struct lfm_script *ms, int call, long long n)
{
	struct lfm *m = ms->m;
	long long mine[4] = {call, -call, n, -n}, all[4];
	if (MPI_Allreduce(mine, all, 4, MPI_LONG_LONG, MPI_MAX, m->comm) != MPI_SUCCESS) {
		lfm_mpi_error(m, "MPI_Allreduce", MPI_ERR_OTHER);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (all[0] != -all[1] || all[2] != -all[3]) {
		static const char *const names[] = {"", "walk", "sum", "max", "gather", "stats", "the end"};
		fprintf(stderr,
			"%s: rank %d: the ranks' scripts went different ways (this one is at %s): "
			"luafind.mpi's collective calls must be made by every rank in the same order\n",
			m->progname, m->rank, names[call]);
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* ---- the walk ------------------------------------------------------------ */

static int step_k(lua_State *T, int status, lua_KContext base)
{
	(void)status;
	return lua_gettop(T) - (int)base;
}

/* The iterator: yield to C for the next entry (the first time, for the walk). */
static int step(lua_State *T)
{
	struct lfm_script *ms = self(T);
	if (ms->phase == WALK_OVER || ms->ended) {
		return 0;
	}
	ms->want = ms->phase == WALK_NONE ? WANT_WALK : WANT_ENTRY;
	if (ms->phase == WALK_NONE) {
		ms->phase = WALK_ASKED;
	}
	return lua_yieldk(T, 0, (lua_KContext)lua_gettop(T), step_k);
}

static int64_t check_int(lua_State *L, int idx);

static bool opt_bool(lua_State *L, const char *name)
{
	if (!lua_isboolean(L, -1)) {
		luaL_error(L, "luafind.mpi.walk: bad option '%s' (expected a boolean, got %s)", name,
			   luaL_typename(L, -1));
	}
	return lua_toboolean(L, -1);
}

static int opt_enum(lua_State *L, const char *name, const char *const *list)
{
	const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
	for (int i = 0; list[i]; i++) {
		if (strcmp(v, list[i]) == 0) {
			return i;
		}
	}
	return luaL_error(L, "luafind.mpi.walk: bad option '%s' (%s)", name, luaL_tolstring(L, -1, NULL));
}

/*
 * walk{ROOT..., order =, follow =, xdev =, gitignore =, errors =, lost =}:
 * the job's walk, as luafind.walk's options say (the others have no
 * meaning across ranks: they are refused); lost: the value a directory
 * that could not be opened safely sends up in the script's stead
 * (default 0).  Returns the iterator, nil, nil and
 * the walk's object, whose methods (keep, up, hold, claim) apply to the
 * entry just returned.
 */
static int l_walk(lua_State *L)
{
	static const char *const follow[] = {"never", "roots", "always", NULL};
	static const char *const order[] = {"pre", "post", "both", NULL};
	static const char *const errors[] = {"yield", "skip", NULL};
	struct lfm_script *ms = self(L);
	if (ms->phase != WALK_NONE || ms->roots) {
		return luaL_error(L, "luafind.mpi.walk: luafind-mpi runs one walk per script");
	}
	luaL_checktype(L, 1, LUA_TTABLE);
	size_t n = lua_rawlen(L, 1);
	if (n == 0) {
		return luaL_error(L, "luafind.mpi.walk: no root given");
	}
	ms->order = LF_ORDER_PRE;
	ms->symlinks = LF_PHYSICAL;
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		if (lua_type(L, -2) == LUA_TSTRING) {
			const char *k = lua_tostring(L, -2);
			if (strcmp(k, "order") == 0) {
				ms->order = opt_enum(L, k, order);
			} else if (strcmp(k, "follow") == 0) {
				ms->symlinks = opt_enum(L, k, follow);
			} else if (strcmp(k, "errors") == 0) {
				ms->skip_errors = opt_enum(L, k, errors) == 1;
			} else if (strcmp(k, "xdev") == 0) {
				ms->xdev = opt_bool(L, k);
			} else if (strcmp(k, "gitignore") == 0) {
				ms->gitignore = opt_bool(L, k);
			} else if (strcmp(k, "lost") == 0) {
				ms->lost = check_int(L, -1);
			} else {
				return luaL_error(L, "luafind.mpi.walk: option '%s' is not available in luafind-mpi", k);
			}
		} else if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || (size_t)lua_tointeger(L, -2) > n ||
			   lua_type(L, -1) != LUA_TSTRING) {
			return luaL_error(L, "luafind.mpi.walk: the roots must be strings at 1..%d", (int)n);
		}
		lua_pop(L, 1);
	}
	char **roots = calloc(n, sizeof(*roots));
	if (!roots) {
		return luaL_error(L, "not enough memory");
	}
	for (size_t i = 0; i < n; i++) {
		lua_rawgeti(L, 1, (lua_Integer)i + 1);
		size_t len;
		const char *r = lua_tolstring(L, -1, &len);
		roots[i] = strlen(r) == len ? strdup(r) : NULL;
		lua_pop(L, 1);
		if (!roots[i]) {
			for (size_t j = 0; j < i; j++) {
				free(roots[j]);
			}
			free(roots);
			return luaL_error(L, "luafind.mpi.walk: root %d is not a path", (int)i + 1);
		}
	}
	ms->roots = roots;
	ms->nroots = n;
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushcclosure(L, step, 1);
	lua_pushnil(L);
	lua_pushnil(L);
	lua_pushvalue(L, lua_upvalueindex(2)); /* the walk's object */
	return 4;
}

/* The entry the method is about, or an error. */
static struct lfm_script *current(lua_State *L, const char *method)
{
	struct lfm_script *ms = self(L);
	if (!ms->cur) {
		luaL_error(L, "luafind.mpi: %s: no entry is being visited", method);
	}
	return ms;
}

static int64_t check_int(lua_State *L, int idx)
{
	int isint;
	lua_Integer v = lua_tointegerx(L, idx, &isint);
	if (!isint) {
		luaL_typeerror(L, idx, "integer");
	}
	return (int64_t)v;
}

/* w:keep(n [, tag]): on a "partial" post-order visit, what the script has of it so far. */
static int l_keep(lua_State *L)
{
	struct lfm_script *ms = current(L, "keep");
	int64_t n = check_int(L, 2), tag = lua_isnoneornil(L, 3) ? 0 : check_int(L, 3);
	if (ms->how != LFM_PARTIAL || !ms->rec) {
		return luaL_error(L, "luafind.mpi: keep: only on a \"partial\" post-order visit");
	}
	ms->rec->acc += n;
	ms->rec->tag = tag;
	return 0;
}

/* w:up(n): on a "top" or joined post-order visit, its result, added to its parent's. */
static int l_up(lua_State *L)
{
	struct lfm_script *ms = current(L, "up");
	int64_t n = check_int(L, 2);
	if (ms->how != LFM_TOP && ms->how != LFM_JOINED) {
		return luaL_error(L, "luafind.mpi: up: only on a \"top\" or joined post-order visit");
	}
	if (lfm_join_up(ms->m, &ms->target, n) != 0) {
		return luaL_error(L, "not enough memory");
	}
	return 0;
}

/* w:hold(): the directory just visited (pre-order) is walked here to the end. */
static int l_hold(lua_State *L)
{
	struct lfm_script *ms = current(L, "hold");
	if (ms->cur->visit != LF_VISIT_PRE || ms->cur->type != LF_DIR) {
		return luaL_error(L, "luafind.mpi: hold: only on a directory's pre-order visit");
	}
	lfm_hold(ms->m);
	return 0;
}

/*
 * w:claim(key, n): n goes to the directory holding this entry, unless
 * another rank's directory claims key too and comes first; that
 * directory's post-order visit waits for the deferred phase.
 */
static int l_claim(lua_State *L)
{
	struct lfm_script *ms = current(L, "claim");
	size_t len;
	const char *key = luaL_checklstring(L, 2, &len);
	int64_t n = check_int(L, 3);
	struct lfm_target t;
	if (lfm_hold_dir(ms->m, ms->cur, &t) != 0) {
		return luaL_error(L, "luafind.mpi: claim: only on an entry below a root, not a directory, "
				     "in a walk of order \"both\" or \"post\"");
	}
	if (lfm_join_claim(ms->m, &t, key, len, n) != 0) {
		return luaL_error(L, "not enough memory");
	}
	return 0;
}

/* ---- collective calls ------------------------------------------------------ */

/* During this rank's walk a collective call waits for its end (the coroutine yields). */
static bool park(lua_State *L, lua_KFunction k)
{
	struct lfm_script *ms = self(L);
	if (ms->phase != WALK_ASKED && ms->phase != WALK_RUNNING) {
		return false;
	}
	ms->want = WANT_PARKED;
	lua_yieldk(L, 0, 0, k);
	return true; /* not reached */
}

static int sum_k(lua_State *L, int status, lua_KContext ctx);

/* sum{n1, n2...}: the sums over the ranks, on every rank. */
static int l_sum(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	if (park(L, sum_k)) {
		return 0;
	}
	return sum_k(L, LUA_OK, 0);
}

static int sum_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	struct lfm_script *ms = self(L);
	lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
	agree(ms, CALL_SUM, n);
	long long *v = lua_newuserdatauv(L, 2 * (size_t)(n ? n : 1) * sizeof(*v), 0);
	for (lua_Integer i = 0; i < n; i++) {
		lua_rawgeti(L, 1, i + 1);
		int isint;
		v[i] = lua_tointegerx(L, -1, &isint);
		lua_pop(L, 1);
		if (!isint) {
			v[i] = 0; /* checked after the call: every rank must take part in it */
		}
	}
	if (MPI_Allreduce(v, v + n, (int)n, MPI_LONG_LONG, MPI_SUM, ms->m->comm) != MPI_SUCCESS) {
		return luaL_error(L, "luafind.mpi.sum: MPI_Allreduce failed");
	}
	lua_createtable(L, (int)n, 0);
	for (lua_Integer i = 0; i < n; i++) {
		lua_pushinteger(L, v[n + i]);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int max_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	struct lfm_script *ms = self(L);
	agree(ms, CALL_MAX, 1);
	long long mine = (long long)luaL_optinteger(L, 1, 0), all = mine;
	if (MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_MAX, ms->m->comm) != MPI_SUCCESS) {
		return luaL_error(L, "luafind.mpi.max: MPI_Allreduce failed");
	}
	lua_pushinteger(L, all);
	return 1;
}

/* max(n): the largest over the ranks, on every rank. */
static int l_max(lua_State *L)
{
	if (park(L, max_k)) {
		return 0;
	}
	return max_k(L, LUA_OK, 0);
}

/* One value of gather's list, into @b: a tag byte, then 8 bytes or a length and the bytes. */
static int gather_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	struct lfm_script *ms = self(L);
	struct lfm *m = ms->m;
	lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
	agree(ms, CALL_GATHER, 0);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (lua_Integer i = 0; i < n; i++) {
		lua_rawgeti(L, 1, i + 1);
		size_t len = 0;
		char tag = lua_isinteger(L, -1) ? 'i' : 's';
		long long v = tag == 'i' ? (long long)lua_tointeger(L, -1) : 0;
		const char *s = tag == 's' ? lua_tolstring(L, -1, &len) : NULL;
		lua_pop(L, 1); /* the list keeps the string */
		uint64_t l64 = len;
		luaL_addchar(&b, s || tag == 'i' ? tag : 'n');
		if (tag == 'i') {
			luaL_addlstring(&b, (const char *)&v, sizeof(v));
		} else {
			luaL_addlstring(&b, (const char *)&l64, sizeof(l64));
			if (s) {
				luaL_addlstring(&b, s, len);
			}
		}
	}
	luaL_pushresult(&b);
	size_t mylen;
	const char *mine = lua_tolstring(L, -1, &mylen);
	int len = mylen <= INT_MAX ? (int)mylen : -1;
	int *lens = m->rank == 0 ? lua_newuserdatauv(L, 2 * (size_t)m->size * sizeof(int), 0) : NULL;
	if (MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, m->comm) != MPI_SUCCESS) {
		return luaL_error(L, "luafind.mpi.gather: MPI_Gather failed");
	}
	char *all = NULL;
	long long total = 0;
	bool bad = len < 0;
	if (m->rank == 0) {
		for (int r = 0; r < m->size; r++) {
			bad |= lens[r] < 0;
			lens[m->size + r] = (int)total;
			total += lens[r] > 0 ? lens[r] : 0;
		}
		bad |= total > INT_MAX;
		all = bad ? NULL : lua_newuserdatauv(L, total ? (size_t)total : 1, 0);
	}
	int b0 = bad, anybad = 0;
	if (MPI_Allreduce(&b0, &anybad, 1, MPI_INT, MPI_MAX, m->comm) != MPI_SUCCESS ||
	    (!anybad && MPI_Gatherv(mine, len, MPI_BYTE, all, lens, lens ? lens + m->size : NULL, MPI_BYTE, 0,
				   m->comm) != MPI_SUCCESS)) {
		return luaL_error(L, "luafind.mpi.gather: MPI_Gatherv failed");
	}
	if (anybad) {
		return luaL_error(L, "luafind.mpi.gather: more than 2 GiB to gather");
	}
	if (m->rank != 0) {
		lua_pushnil(L);
		return 1;
	}
	lua_newtable(L);
	lua_Integer k = 0;
	for (const char *p = all, *end = all + total; p < end;) {
		char tag = *p++;
		if (tag == 'i') {
			long long v;
			memcpy(&v, p, sizeof(v));
			p += sizeof(v);
			lua_pushinteger(L, v);
		} else {
			uint64_t l64;
			memcpy(&l64, p, sizeof(l64));
			p += sizeof(l64);
			if (tag == 's') {
				lua_pushlstring(L, p, (size_t)l64);
			} else {
				lua_pushboolean(L, false);
			}
			p += tag == 's' ? l64 : 0;
		}
		lua_rawseti(L, -2, ++k);
	}
	return 1;
}

/* gather{v1, v2...}: rank 0 gets every rank's lists, in rank order (integers and strings); the others nil. */
static int l_gather(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	if (park(L, gather_k)) {
		return 0;
	}
	return gather_k(L, LUA_OK, 0);
}

static int stats_k(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	struct lfm_script *ms = self(L);
	struct lfm *m = ms->m;
	agree(ms, CALL_STATS, 0);
	/* The job's walk, and rank 0's own walks (the framework's checks of
	 * the PATHs), as many as luafind's script makes. */
	struct lf_counters own = {0}, sum = m->total;
	if (m->rank == 0) {
		lf_lua_stats(L, &own);
		lf_counters_add(&sum, &own);
	}
	const struct lf_counters *c = &sum;
	long long mine[8] = {(long long)(m->entries + own.entries), (long long)c->opens, (long long)c->getdents,
			     (long long)c->stats, (long long)c->stats_follow, (long long)c->unlinks,
			     (long long)c->closes, (long long)c->fd_stats};
	long long all[8];
	if (MPI_Allreduce(mine, all, 8, MPI_LONG_LONG, MPI_SUM, m->comm) != MPI_SUCCESS) {
		return luaL_error(L, "luafind.mpi.stats: MPI_Allreduce failed");
	}
	static const char *const names[8] = {"entries", "opens",   "getdents", "stats",
					     "stats_follow", "unlinks", "closes", "fd_stats"};
	lua_createtable(L, 0, 8);
	for (int i = 0; i < 8; i++) {
		lua_pushinteger(L, all[i]);
		lua_setfield(L, -2, names[i]);
	}
	return 1;
}

/* stats(): the walk's counters summed over the ranks (as luafind.stats()). */
static int l_stats(lua_State *L)
{
	if (park(L, stats_k)) {
		return 0;
	}
	return stats_k(L, LUA_OK, 0);
}

/* ---- standard output and error -------------------------------------------- */

/* out:write(...): into the run's writer; before the walk, only rank 0's. */
static int l_write(lua_State *L)
{
	struct lfm_script *ms = self(L);
	bool stdout_ = lua_toboolean(L, lua_upvalueindex(2));
	bool drop = ms->m->rank != 0 && ms->phase == WALK_NONE;
	int n = lua_gettop(L);
	for (int i = 2; i <= n; i++) {
		size_t len;
		const char *s = luaL_checklstring(L, i, &len);
		if (drop) {
			continue;
		}
		if (stdout_) {
			lf_out_write(ms->m->out, s, len);
		} else {
			fwrite(s, 1, len, stderr);
		}
	}
	lua_settop(L, 1);
	return 1;
}

static int l_flush(lua_State *L)
{
	struct lfm_script *ms = self(L);
	if (lua_toboolean(L, lua_upvalueindex(2))) {
		if (ms->m->rank == 0) {
			lf_out_flush(ms->m->out);
		}
	} else {
		fflush(stderr);
	}
	lua_settop(L, 1);
	return 1;
}

/* A file-like table for io.stdout (@is_stdout) or io.stderr. */
static void push_stream(lua_State *L, int ms_idx, bool is_stdout)
{
	static const struct luaL_Reg methods[] = {{"write", l_write}, {"flush", l_flush}, {NULL, NULL}};
	lua_newtable(L);
	for (const luaL_Reg *r = methods; r->name; r++) {
		lua_pushvalue(L, ms_idx);
		lua_pushboolean(L, is_stdout);
		lua_pushcclosure(L, r->func, 2);
		lua_setfield(L, -2, r->name);
	}
}

/* ---- the state ---------------------------------------------------------------- */

static int noop(lua_State *L)
{
	(void)L;
	return 0;
}

/* package.loaded["luafind.mpi"], io.stdout and io.stderr; no progress line. */
static int setup(lua_State *L)
{
	struct lfm_script *ms = lua_touserdata(L, 1);
	lua_pushlightuserdata(L, ms);
	int msi = lua_gettop(L);

	static const struct luaL_Reg fns[] = {{"sum", l_sum}, {"max", l_max}, {"gather", l_gather},
					     {"stats", l_stats}, {NULL, NULL}};
	static const struct luaL_Reg wfns[] = {{"keep", l_keep}, {"up", l_up}, {"hold", l_hold},
					      {"claim", l_claim}, {NULL, NULL}};
	lua_newtable(L); /* the module */
	int mod = lua_gettop(L);
	for (const luaL_Reg *r = fns; r->name; r++) {
		lua_pushvalue(L, msi);
		lua_pushcclosure(L, r->func, 1);
		lua_setfield(L, mod, r->name);
	}
	lua_newtable(L); /* the walk's object */
	for (const luaL_Reg *r = wfns; r->name; r++) {
		lua_pushvalue(L, msi);
		lua_pushcclosure(L, r->func, 1);
		lua_setfield(L, -2, r->name);
	}
	lua_newtable(L); /* its metatable: a to-be-closed value with nothing to close */
	lua_pushcfunction(L, noop);
	lua_setfield(L, -2, "__close");
	lua_setmetatable(L, -2);
	int wobj = lua_gettop(L);
	lua_pushvalue(L, msi);
	lua_pushvalue(L, wobj);
	lua_pushcclosure(L, l_walk, 2);
	lua_setfield(L, mod, "walk");
	lua_settop(L, mod);
	lua_pushinteger(L, ms->m->rank);
	lua_setfield(L, mod, "rank");
	lua_pushinteger(L, ms->m->size);
	lua_setfield(L, mod, "size");

	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	lua_pushvalue(L, mod);
	lua_setfield(L, -2, "luafind.mpi");
	lua_pushnil(L);
	lua_setfield(L, -2, "luafind.status"); /* no progress line: no rank has the terminal */
	lua_getglobal(L, "package");
	lua_getfield(L, -1, "preload");
	lua_pushnil(L);
	lua_setfield(L, -2, "luafind.status");
	lua_settop(L, mod);

	lua_getglobal(L, "io");
	push_stream(L, msi, true);
	lua_setfield(L, -2, "stdout");
	push_stream(L, msi, false);
	lua_setfield(L, -2, "stderr");
	return 0;
}

/* runner.main (lua/luafind/runner.lua), for the coroutine's body. */
static int runner_main(lua_State *L)
{
	lua_getglobal(L, "require");
	lua_pushliteral(L, "luafind.runner");
	lua_call(L, 1, 1);
	if (lua_getfield(L, -1, "main") != LUA_TFUNCTION) {
		return luaL_error(L, "the script runner has no main()");
	}
	return 1;
}

/* The status the script returned, as the runner gives it (an integer; else 1). */
static int status_of(lua_State *T)
{
	if (lua_isinteger(T, -1)) {
		lua_Integer s = lua_tointeger(T, -1);
		return s >= 0 && s <= 255 ? (int)s : 1;
	}
	return lua_isnil(T, -1) || (lua_isboolean(T, -1) && lua_toboolean(T, -1)) ? 0 : 1;
}

/* T stopped (returned or raised, @rc): note its status and say what went wrong. */
static void finished(struct lfm_script *ms, int rc)
{
	ms->ended = true;
	ms->want = WANT_NOTHING;
	if (rc == LUA_OK) {
		ms->status = status_of(ms->T);
		return;
	}
	const char *msg = lua_tostring(ms->T, -1);
	fflush(stdout);
	fprintf(stderr, "%s: rank %d: %s\n", ms->m->progname, ms->m->rank, msg ? msg : "(error object is not a string)");
	ms->status = 1;
}

/* Resume T with @nargs values pushed on it. */
static void resume(struct lfm_script *ms, lua_State *L, int nargs)
{
	int nres;
	int rc = lua_resume(ms->T, L, nargs, &nres);
	if (rc == LUA_YIELD) {
		lua_pop(ms->T, nres);
		if (ms->want == WANT_NOTHING) {
			/* coroutine.yield outside any coroutine of the script's own */
			lua_pushliteral(ms->T, "attempt to yield from outside a coroutine");
			finished(ms, LUA_ERRRUN);
		}
		return;
	}
	finished(ms, rc);
}

void lfm_script_entry(struct lfm *m, struct lf_walk *w, struct lf_entry *e, enum lfm_how how,
		      struct lfm_deferred *rec, const struct lfm_target *t)
{
	struct lfm_script *ms = m->script;
	if (ms->ended || ms->want != WANT_ENTRY) {
		return; /* it left the loop, or waits in a collective call */
	}
	if (e->visit == LF_VISIT_ERROR && ms->skip_errors) {
		return;
	}
	lua_State *T = ms->T;
	if (!lua_checkstack(T, 4)) {
		return;
	}
	lf_lua_push_entry(T, w, e);
	int n = 1;
	switch (how) {
	case LFM_PLAIN:
		break;
	case LFM_PARTIAL:
		lua_pushliteral(T, "partial");
		n = 2;
		break;
	case LFM_TOP:
		lua_pushliteral(T, "top");
		n = 2;
		break;
	case LFM_JOINED:
		lua_pushinteger(T, rec->acc);
		lua_pushinteger(T, rec->tag);
		n = 3;
		break;
	}
	ms->cur = e;
	ms->how = how;
	ms->rec = how == LFM_PARTIAL ? rec : NULL;
	if (t) {
		ms->target = *t;
	}
	ms->want = WANT_NOTHING;
	resume(ms, NULL, n);
	ms->cur = NULL;
	ms->rec = NULL;
	if (ms->ended && ms->status != 0 && ms->phase == WALK_RUNNING) {
		/* A script that failed goes no further, here or elsewhere. */
		m->run->ev.stop = true;
	}
}

void lfm_script_lost(struct lfm *m, const struct lfm_target *t)
{
	if (m->script->lost && lfm_join_up(m, t, m->script->lost) != 0) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
	}
}

void lfm_script_walk_done(struct lfm *m, struct lf_walk *w)
{
	lf_lua_walk_done(m->script->T, w);
}

/* The walk the script asked for, on every rank. */
static void walk(struct lfm_script *ms)
{
	struct lfm *m = ms->m;
	struct lf_cmdline *cmd = m->cmd;
	agree(ms, CALL_WALK, (long long)ms->nroots);
	cmd->roots = realloc(cmd->roots, ms->nroots * sizeof(*cmd->roots));
	if (!cmd->roots) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size_t i = 0; i < ms->nroots; i++) {
		cmd->roots[i] = ms->roots[i];
	}
	cmd->nroots = ms->nroots;
	cmd->opts.order = ms->order;
	cmd->opts.symlinks = ms->symlinks;
	unsigned f = cmd->opts.flags & ~(unsigned)(LF_WALK_XDEV | LF_WALK_GITIGNORE);
	cmd->opts.flags = f | (ms->xdev ? LF_WALK_XDEV : 0) | (ms->gitignore ? LF_WALK_GITIGNORE : 0);
	ms->phase = WALK_RUNNING;
	ms->want = WANT_ENTRY; /* the iterator asked for the first one */
	lfm_run_walk(m, 1);
	ms->phase = WALK_OVER;
	lfm_forward(m, false);
}

/* Rank 0: --list-scripts. */
static int list_scripts(struct lfm *m, lua_State *L)
{
	int status = 0;
	if (m->rank == 0) {
		lua_getglobal(L, "require");
		lua_pushliteral(L, "luafind.runner");
		if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_getfield(L, -1, "main") != LUA_TFUNCTION) {
			fprintf(stderr, "%s: cannot load the script runner\n", m->progname);
			return 1;
		}
		lua_pushliteral(L, "list");
		lf_cli_push_script_dirs(L);
		lua_pushliteral(L, "");
		lua_newtable(L);
		status = lua_pcall(L, 4, 1, 0) == LUA_OK ? status_of(L) : 1;
		lua_settop(L, 0);
	}
	return status;
}

int lfm_script_main(struct lfm *m, struct lf_ctx *ctx, const char *name, int argc, char **argv)
{
	/* A find command line that walks nothing, for the run's parts (output, -delete's refusals). */
	char *fargv[] = {(char *)m->progname, (char *)"-false", NULL};
	struct lf_cmdline cmd;
	lf_ctx_set_reporter(ctx, lf_report_stderr, ctx, NULL, NULL); /* the walk's errors, each rank its own */
	if (lf_parse(ctx, 2, fargv, &cmd) != 0) {
		return 1;
	}
	m->cmd = &cmd;
	struct lf_out out;
	struct lf_run r;
	if (lfm_run_open(m, &cmd, &out, &r) != 0) {
		lf_cmdline_free(&cmd);
		return 1;
	}
	struct lfm_script ms = {.m = m};
	int status = 1;
	lua_State *L = lf_cli_lua(ctx);
	if (!L) {
		lf_diag(ctx, "cannot create a Lua state: %s", strerror(errno));
		goto out;
	}
	lua_pushcfunction(L, setup);
	lua_pushlightuserdata(L, &ms);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		lf_diag(ctx, "%s", lua_tostring(L, -1));
		goto out;
	}
	if (!name) {
		status = list_scripts(m, L);
		goto out;
	}
	/*
	 * luafind.walk and luafind.find would walk the whole tree on every
	 * rank (N times the output, N ranks deleting the same files): only
	 * the short walks stay (maxdepth 0 or 1: the framework's checks of
	 * the PATHs, the runner's look into the script directories); the
	 * tree's walk is luafind.mpi.walk's.
	 */
	if (luaL_dostring(L, "local lf = require 'luafind'\n"
			     "local walk = lf.walk\n"
			     "local msg = 'luafind-mpi: luafind.%s would walk the whole tree on every rank: walk it with "
			     "the framework (s:clean, s:walk) or luafind.mpi.walk'\n"
			     "lf.walk = function(o, ...)\n"
			     "  if type(o) == 'table' and math.type(o.maxdepth) == 'integer' and o.maxdepth <= 1 then\n"
			     "    return walk(o, ...)\n"
			     "  end\n"
			     "  error(msg:format('walk'), 2)\n"
			     "end\n"
			     "lf.find = function() error(msg:format('find'), 2) end\n") != LUA_OK) {
		lf_diag(ctx, "%s", lua_tostring(L, -1));
		goto out;
	}
	lua_pushcfunction(L, runner_main);
	if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
		lf_diag(ctx, "--run: cannot load the script runner: %s", lua_tostring(L, -1));
		lua_settop(L, 0);
		goto out;
	}
	m->script = &ms;
	ms.T = lua_newthread(L);
	int tref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_State *T = ms.T;
	lua_xmove(L, T, 1); /* runner.main */
	lua_pushliteral(T, "run");
	lf_cli_push_script_dirs(T);
	lua_pushstring(T, name);
	lua_createtable(T, argc, 0);
	for (int i = 0; i < argc; i++) {
		lua_pushstring(T, argv[i]);
		lua_rawseti(T, -2, i + 1);
	}
	resume(&ms, L, 4);
	while (!ms.ended) {
		if (ms.want == WANT_WALK) {
			walk(&ms);
			/* The end of the walk: the loop gets nil; a parked call goes on. */
			if (!ms.ended) {
				resume(&ms, L, 0);
			}
		} else if (ms.want == WANT_ENTRY || ms.want == WANT_PARKED) {
			resume(&ms, L, 0); /* the walk is over: nothing more */
		} else {
			break;
		}
	}
	status = ms.status;
	/* Every rank at the end: a rank whose script took another way is caught here. */
	agree(&ms, CALL_END, 0);
	luaL_unref(L, LUA_REGISTRYINDEX, tref);
	m->script = NULL;
out:;
	int run_status = lfm_run_close(m, 1, &out);
	for (size_t i = 0; i < ms.nroots; i++) {
		free(ms.roots[i]);
	}
	free(ms.roots);
	/* The roots were the script's: the command line frees only its array. */
	lf_cmdline_free(&cmd);
	lfm_join_free(m);
	m->cmd = NULL;
	return status > run_status ? status : run_status;
}
