/*
 * walk.c: luafind.walk(), the walker userdata and its iterator.
 *
 *	for e in luafind.walk{".", maxdepth = 2} do ... end
 *
 * walk() returns the iterator, the walker, nil and the walker again, so the
 * walker is the loop's to-be-closed value: a break, a return or an error
 * closes it and every fd it holds.  __close, close() and __gc share one
 * idempotent close, as liolib's files do, and a walk that reaches its end
 * is closed by the iterator at once.  Only __gc does not finish a find's
 * expression: the collector releases, it runs no -exec ... + batch, as
 * liolib's f_gc only closes (a host's collection must not spawn commands).
 *
 * The walker hands out two entry userdata alternately, created with it, so
 * walking allocates nothing per entry, and an entry kept from the previous
 * step is stale (its generation is behind the walker's) and raises instead
 * of silently describing the next file.
 *
 * luafind.find (find.c) returns the same walker userdata with a filter
 * attached (lw->filter_*): the iterator and the close below hand over to
 * it, so find's walker has every method and closing rule of
 * walk's.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"
#include "luafind.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void lfb_state_totals(const struct lfb_state *st, struct lf_counters *c, uint64_t *entries)
{
	*c = st->total;
	*entries = st->entries;
	for (const struct lfb_walk *lw = st->open; lw; lw = lw->next) {
		lf_counters_add(c, lf_walk_counters(lw->w));
		*entries += lw->entries;
	}
}

/* The counters' names in Lua ("entries" is the walk's, kept apart). */
static const struct {
	char name[24];
	size_t off;
} counter_fields[] = {
	{"opens", offsetof(struct lf_counters, opens)},
	{"reopens", offsetof(struct lf_counters, reopens)},
	{"closes", offsetof(struct lf_counters, closes)},
	{"getdents", offsetof(struct lf_counters, getdents)},
	{"stats", offsetof(struct lf_counters, stats)},
	{"stats_follow", offsetof(struct lf_counters, stats_follow)},
	{"fd_stats", offsetof(struct lf_counters, fd_stats)},
	{"unlinks", offsetof(struct lf_counters, unlinks)},
	{"stats_ahead", offsetof(struct lf_counters, stats_ahead)},
	{"dirs_ahead", offsetof(struct lf_counters, dirs_ahead)},
	{"dirs_ahead_unused", offsetof(struct lf_counters, dirs_ahead_unused)},
	{"stats_ring", offsetof(struct lf_counters, stats_ring)},
	{"tags", offsetof(struct lf_counters, tags)},
};

void lfb_push_counters(lua_State *L, const struct lf_counters *c, uint64_t entries)
{
	size_t n = sizeof(counter_fields) / sizeof(counter_fields[0]);
	lua_createtable(L, 0, (int)n + 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		memcpy(&v, (const char *)c + counter_fields[i].off, sizeof(v));
		lua_pushinteger(L, (lua_Integer)v);
		lua_setfield(L, -2, counter_fields[i].name);
	}
	lua_pushinteger(L, (lua_Integer)entries);
	lua_setfield(L, -2, "entries");
}

void lfb_read_counters(lua_State *L, int idx, struct lf_counters *c)
{
	idx = lua_absindex(L, idx);
	for (size_t i = 0; i < sizeof(counter_fields) / sizeof(counter_fields[0]); i++) {
		lua_getfield(L, idx, counter_fields[i].name);
		uint64_t v = (uint64_t)lua_tointeger(L, -1);
		memcpy((char *)c + counter_fields[i].off, &v, sizeof(v));
		lua_pop(L, 1);
	}
	lua_getfield(L, idx, "entries");
	c->entries = (uint64_t)lua_tointeger(L, -1);
	lua_pop(L, 1);
}

/* ---- closing ------------------------------------------------------------ */

/*
 * Close the core walker, keeping its counters; idempotent.  A find walker
 * first finishes its expression (pending -exec ... + batches, output)
 * when @finish, as every close does but the collector's.
 */
static void walk_close_core(struct lfb_walk *lw, bool finish)
{
	lw->gen++;
	lw->cur = NULL;
	if (lw->filter_close) {
		lw->filter_close(lw, finish);
	}
	if (!lw->w) {
		return;
	}
	lw->counters = *lf_walk_counters(lw->w);
	lw->had_error = lf_walk_had_error(lw->w) || lw->find_failed;
	if (lw->st) {
		lf_counters_add(&lw->st->total, &lw->counters);
		lw->st->entries += lw->entries;
		if (lw->prev) {
			lw->prev->next = lw->next;
		} else {
			lw->st->open = lw->next;
		}
		if (lw->next) {
			lw->next->prev = lw->prev;
		}
		lw->prev = lw->next = NULL;
		lw->st->nopen--;
	}
	lf_walk_close(lw->w);
	lw->w = NULL;
}

static struct lfb_walk *check_walk(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, LFB_WALK);
}

/* __gc: release only. */
static int walk_gc(lua_State *L)
{
	walk_close_core(check_walk(L, 1), false);
	return 0;
}

/* __close: the end of the loop's scope, a close as w:close(). */
static int walk_tbc(lua_State *L)
{
	walk_close_core(check_walk(L, 1), true);
	return 0;
}

/* w:close() */
static int walk_close(lua_State *L)
{
	walk_close_core(check_walk(L, 1), true);
	lua_pushboolean(L, 1);
	return 1;
}

/* ---- iteration ---------------------------------------------------------- */

int lfb_walk_advance(lua_State *L, struct lfb_walk *lw, bool stop, const char *fn, struct lf_entry **e)
{
	lw->gen++;
	lw->cur = NULL;
	if (stop) {
		walk_close_core(lw, true);
	}
	if ((lw->gen & 255) == 0 && lw->w) {
		/* A filter's loop (find) runs in C: a sandbox's clock is read here. */
		lfb_sandbox_check(L);
	}
	if (!lw->w) {
		lua_pushnil(L);
		return 0;
	}
	int r = lf_walk_next(lw->w, e);
	if (r <= 0) {
		int err = errno;
		if (r < 0 && err == ECANCELED) {
			lw->cancelled = true; /* w:cancel(): the loop just ends */
			r = 0;
		}
		walk_close_core(lw, true);
		if (r < 0 && err == ENOMEM && lfb_sandbox_mem(L)) {
			return lfb_memory_error(L); /* the sandbox's limit */
		}
		if (r < 0) {
			return luaL_error(L, "%s: %s", fn, strerror(err));
		}
		lua_pushnil(L);
		return 0;
	}
	return 1;
}

bool lfb_walk_keep_error(lua_State *L, struct lfb_walk *lw, const struct lf_entry *e,
			 void (*warn)(struct lfb_walk *lw, const struct lf_entry *e))
{
	switch (lw->errors) {
	case LFB_ERR_YIELD:
		return true;
	case LFB_ERR_SKIP:
		return false;
	case LFB_ERR_WARN:
		warn(lw, e);
		return false;
	case LFB_ERR_RAISE:
		break;
	}
	lfb_push_file_error(L, e->path, e->pathlen, e->error);
	return lua_error(L);
}

/* errors = "warn" for walk(): "luafind: PATH: MESSAGE", after what Lua printed. */
static void warn_error(struct lfb_walk *lw, const struct lf_entry *e)
{
	(void)lw;
	fflush(stdout);
	fputs("luafind: ", stderr);
	fwrite(e->path, 1, e->pathlen, stderr);
	fprintf(stderr, ": %s\n", strerror(e->error));
}

/*
 * The iterator: walk_iter(w) returns the next entry, or nil at the end.
 * Upvalue 1 is the walker metatable, compared directly: cheaper than
 * luaL_checkudata's registry lookup on every step.
 */
static int walk_iter(lua_State *L)
{
	struct lfb_walk *lw = lua_touserdata(L, 1);
	if (!lw || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(1))) {
		return luaL_typeerror(L, 1, LFB_WALK);
	}
	lua_settop(L, 1);
	if (lw->filter_step) {
		return lw->filter_step(L, lw);
	}
	for (;;) {
		struct lf_entry *e;
		if (!lfb_walk_advance(L, lw, false, "luafind.walk", &e)) {
			return 1;
		}
		if (e->visit == LF_VISIT_ERROR && !lfb_walk_keep_error(L, lw, e, warn_error)) {
			continue;
		}
		lw->entries++;
		lw->cur = e;
		lfb_push_entry(L, 1);
		return 1;
	}
}

/* w:prune(): do not descend into the current directory. */
static int walk_prune(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	if (!lw->cur) {
		return lfb_stale(L);
	}
	lf_walk_prune(lw->w);
	lua_pushboolean(L, 1);
	return 1;
}

/*
 * w:cancel(): the next step closes the walk's fds and ends the loop (no
 * pending -exec ... + batch runs).  Callable from anywhere the walker is
 * reachable: the loop body, a coroutine, a debug hook.
 */
static int walk_cancel(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	if (lw->w) {
		lf_walk_cancel(lw->w);
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* w:cancelled(): whether the walk ended through w:cancel(). */
static int walk_cancelled(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	lua_pushboolean(L, lw->cancelled);
	return 1;
}

/* w:stats(): this walk's counters, also after it is closed. */
static int walk_stats(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	lfb_push_counters(L, lw->w ? lf_walk_counters(lw->w) : &lw->counters, lw->entries);
	return 1;
}

/* w:had_error(): whether an error entry was met (returned or not). */
static int walk_had_error(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	lua_pushboolean(L, lw->w ? lf_walk_had_error(lw->w) || (lw->filter_failed && lw->filter_failed(lw)) : lw->had_error);
	return 1;
}

static int walk_tostring(lua_State *L)
{
	struct lfb_walk *lw = check_walk(L, 1);
	lua_pushfstring(L, "luafind.Walk (%s)", lw->w ? "open" : "closed");
	return 1;
}

/* ---- walk{...} ---------------------------------------------------------- */

struct walk_args {
	struct lf_walk_opts opts;
	enum lfb_errors errors;
	size_t nroots;
};

static int opt_enum(lua_State *L, const char *opt, const char *const names[], const char *expected)
{
	if (lua_type(L, -1) == LUA_TSTRING) {
		const char *v = lua_tostring(L, -1);
		for (int i = 0; names[i]; i++) {
			if (strcmp(names[i], v) == 0) {
				return i;
			}
		}
		return luaL_error(L, "luafind.walk: bad option '%s' (expected %s, got \"%s\")", opt,
				  expected, v);
	}
	return luaL_error(L, "luafind.walk: bad option '%s' (expected %s, got %s)", opt, expected,
			  luaL_typename(L, -1));
}

static int opt_depth(lua_State *L, const char *opt)
{
	int isint;
	lua_Integer v = lua_tointegerx(L, -1, &isint);
	if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < 0 || v > INT32_MAX) {
		return luaL_error(L, "luafind.walk: bad option '%s' (expected a non-negative integer, got %s)",
				  opt, luaL_tolstring(L, -1, NULL));
	}
	return (int)v;
}

int lfb_opt_threads(lua_State *L, const char *fn)
{
	int isint;
	lua_Integer v = lua_tointegerx(L, -1, &isint);
	if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < 1 || v > LF_WALK_THREADS_MAX) {
		return luaL_error(L, "%s: bad option 'threads' (expected an integer from 1 to %d, got %s)", fn,
				  LF_WALK_THREADS_MAX, luaL_tolstring(L, -1, NULL));
	}
	return (int)v;
}

static bool opt_bool(lua_State *L, const char *opt)
{
	if (!lua_isboolean(L, -1)) {
		return luaL_error(L, "luafind.walk: bad option '%s' (expected a boolean, got %s)", opt,
				  luaL_typename(L, -1));
	}
	return lua_toboolean(L, -1);
}

/* Parse one option, its value on top and its name at -2. */
static void parse_option(lua_State *L, void *ud, const char *opt)
{
	struct walk_args *a = ud;
	static const char *const follow[] = {"never", "roots", "always", NULL};
	static const char *const order[] = {"pre", "post", "both", "breadth", NULL};
	static const char *const errors[] = {"yield", "skip", "warn", "raise", NULL};

	if (strcmp(opt, "maxdepth") == 0) {
		a->opts.maxdepth = opt_depth(L, opt);
	} else if (strcmp(opt, "mindepth") == 0) {
		a->opts.mindepth = opt_depth(L, opt);
	} else if (strcmp(opt, "follow") == 0) {
		/* The indexes are LF_PHYSICAL, LF_COMFOLLOW, LF_LOGICAL. */
		a->opts.symlinks = opt_enum(L, opt, follow, "\"never\", \"roots\" or \"always\"");
	} else if (strcmp(opt, "order") == 0) {
		/* The indexes are LF_ORDER_PRE, _POST, _BOTH, _BREADTH. */
		a->opts.order = opt_enum(L, opt, order, "\"pre\", \"post\", \"both\" or \"breadth\"");
	} else if (strcmp(opt, "errors") == 0) {
		a->errors = opt_enum(L, opt, errors, "\"yield\", \"skip\", \"warn\" or \"raise\"");
	} else if (strcmp(opt, "sort") == 0) {
		a->opts.flags = opt_bool(L, opt) ? a->opts.flags | LF_WALK_SORT : a->opts.flags & ~LF_WALK_SORT;
	} else if (strcmp(opt, "xdev") == 0) {
		a->opts.flags = opt_bool(L, opt) ? a->opts.flags | LF_WALK_XDEV : a->opts.flags & ~LF_WALK_XDEV;
	} else if (strcmp(opt, "gitignore") == 0) {
		a->opts.flags = opt_bool(L, opt) ? a->opts.flags | LF_WALK_GITIGNORE : a->opts.flags & ~LF_WALK_GITIGNORE;
	} else if (strcmp(opt, "exclude_caches") == 0) {
		a->opts.flags = opt_bool(L, opt) ? a->opts.flags | LF_WALK_EXCLUDE_CACHES
						 : a->opts.flags & ~LF_WALK_EXCLUDE_CACHES;
	} else if (strcmp(opt, "max_fds") == 0) {
		a->opts.max_fds = opt_depth(L, opt);
	} else if (strcmp(opt, "threads") == 0) {
		a->opts.threads = lfb_opt_threads(L, "luafind.walk");
	} else if (strcmp(opt, "io_uring") == 0) {
		a->opts.flags = opt_bool(L, opt) ? a->opts.flags & ~LF_WALK_NO_IO_URING : a->opts.flags | LF_WALK_NO_IO_URING;
	} else {
		luaL_error(L, "luafind.walk: unknown option '%s'", opt);
	}
}

static void check_root(lua_State *L, int idx, const char *fn, const char *what)
{
	size_t len;
	if (lua_type(L, idx) != LUA_TSTRING) {
		luaL_error(L, "%s: %s must be a string, got %s", fn, what, luaL_typename(L, idx));
	}
	const char *s = lua_tolstring(L, idx, &len);
	if (strlen(s) != len) {
		luaL_error(L, "%s: %s contains a NUL byte", fn, what);
	}
}

size_t lfb_check_roots(lua_State *L, const char *fn, const char *table,
		       void (*option)(lua_State *L, void *ud, const char *opt), void *ud)
{
	if (lua_type(L, 1) == LUA_TSTRING) {
		check_root(L, 1, fn, "the root");
		return 1;
	}
	if (lua_type(L, 1) != LUA_TTABLE) {
		luaL_typeerror(L, 1, "string or table");
	}
	size_t nroots = lua_rawlen(L, 1);
	if (nroots == 0) {
		luaL_error(L, "%s: no root given", fn);
	}
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		if (lua_type(L, -2) == LUA_TSTRING) {
			option(L, ud, lua_tostring(L, -2));
		} else {
			lua_Integer i = lua_isinteger(L, -2) ? lua_tointeger(L, -2) : 0;
			if (i < 1 || (size_t)i > nroots) {
				lua_pushvalue(L, -2);
				luaL_error(L, "%s: unexpected key %s in the %s table", fn,
					   luaL_tolstring(L, -1, NULL), table);
			}
			lua_pushfstring(L, "root %d", (int)i);
			check_root(L, -2, fn, lua_tostring(L, -1));
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	return nroots;
}

/* Validate walk()'s argument; everything that can raise happens here, before
 * any resource is taken. */
static void parse_args(lua_State *L, struct walk_args *a)
{
	struct lf_walk_opts init = LF_WALK_OPTS_INIT;
	a->opts = init;
	a->errors = LFB_ERR_YIELD;
	if (lua_gettop(L) > 1) {
		luaL_error(L, "luafind.walk: expected one argument (a root or a table), got %d",
			   lua_gettop(L));
	}
	a->opts.threads = 1; /* no workers unless asked */
	a->nroots = lfb_check_roots(L, "luafind.walk", "argument", parse_option, a);
	if (a->opts.threads > 1) {
		/* The caller asked: what it prunes or changes is its business (luafind-lua(3)). */
		a->opts.flags |= LF_WALK_READ_AHEAD;
	}
}

/*
 * The walker's two entry objects, handed out alternately (no allocation per
 * entry; an entry kept from the previous step is detected as stale).  Each
 * pins the walker at stack index @walk in its user value.
 */
static void make_entries(lua_State *L, struct lfb_walk *lw, int walk)
{
	for (int i = LFB_UV_ENTRY0; i <= LFB_UV_ENTRY1; i++) {
		struct lfb_entry *le = lua_newuserdatauv(L, sizeof(*le), 1);
		le->lw = lw;
		le->gen = 0;
		luaL_setmetatable(L, LFB_ENTRY);
		lua_pushvalue(L, walk);
		lua_setiuservalue(L, -2, 1);
		lua_setiuservalue(L, walk, i);
	}
}

struct lfb_walk *lfb_walk_new(lua_State *L, size_t nroots)
{
	struct lfb_walk *lw = lua_newuserdatauv(L, sizeof(*lw) + nroots * sizeof(char *), LFB_WALK_NUV);
	memset(lw, 0, sizeof(*lw));
	lw->symlinks = LF_PHYSICAL;
	lw->st = lua_touserdata(L, lua_upvalueindex(2));
	lw->nroots = nroots;
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_setmetatable(L, -2);
	int walk = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(2));
	lua_setiuservalue(L, walk, LFB_UV_STATE);
	make_entries(L, lw, walk);
	return lw;
}

void lfb_walk_pin_roots(lua_State *L, struct lfb_walk *lw, int walk, int extra)
{
	lua_createtable(L, (int)lw->nroots + extra, 0);
	lua_pushvalue(L, -1);
	lua_setiuservalue(L, walk, LFB_UV_ROOTS);
	for (size_t i = 0; i < lw->nroots; i++) {
		if (lua_type(L, 1) == LUA_TSTRING) {
			lua_pushvalue(L, 1);
		} else {
			lua_rawgeti(L, 1, (lua_Integer)i + 1);
		}
		lw->roots[i] = lua_tostring(L, -1);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

void lfb_walk_start(lua_State *L, struct lfb_walk *lw, const struct lf_walk_opts *opts, const char *fn)
{
	unsigned max_walks, max_threads;
	struct lf_walk_opts capped = *opts;
	if (lfb_sandbox_caps(L, &max_walks, &max_threads)) {
		/* Each walk's directory fds too: 64 walks hold 1024 at most. */
		if (!capped.max_fds || capped.max_fds > LF_SANDBOX_WALK_FDS) {
			capped.max_fds = LF_SANDBOX_WALK_FDS;
		}
		opts = &capped;
		int threads = opts->threads ? opts->threads : LF_WALK_THREADS_DEFAULT;
		if ((unsigned)threads > max_threads) {
			luaL_error(L, "%s: %d threads, over the sandbox's limit of %d", fn, threads, (int)max_threads);
			return;
		}
		if (lw->st->nopen >= max_walks) {
			lua_gc(L, LUA_GCCOLLECT); /* the walkers dropped without a close */
		}
		if (lw->st->nopen >= max_walks) {
			luaL_error(L, "%s: too many open walks (the sandbox's limit is %d: close one, or end its loop)",
				   fn, (int)max_walks);
			return;
		}
	}
	/* In a sandbox the walker's memory is charged to its limit. */
	struct lf_walk_opts o = *opts;
	o.mem = lfb_sandbox_mem(L);
	lfb_sandbox_collect(L, false);
	lw->w = lf_walk_open(&o);
	if (!lw->w && errno == ENOMEM && o.mem) {
		lfb_sandbox_collect(L, true); /* walkers dropped without a close */
		lw->w = lf_walk_open(&o);
	}
	if (!lw->w) {
		if (errno == ENOMEM && o.mem) {
			lfb_memory_error(L);
		}
		luaL_error(L, "%s: %s", fn, strerror(errno));
		return;
	}
	struct lfb_state *st = lw->st;
	lw->next = st->open;
	if (st->open) {
		st->open->prev = lw;
	}
	st->open = lw;
	st->nopen++;
}

/*
 * walk(root) or walk{root..., option = value...}
 * Returns the iterator, the walker, nil, the walker.
 */
static int mod_walk(lua_State *L)
{
	struct walk_args a;
	parse_args(L, &a);

	/* A closed walker first, so that a memory error leaves nothing open. */
	struct lfb_walk *lw = lfb_walk_new(L, a.nroots);
	lw->symlinks = a.opts.symlinks;
	lw->errors = a.errors;
	int walk = lua_gettop(L);
	lfb_walk_pin_roots(L, lw, walk, 0);
	lua_pop(L, 1);

	a.opts.roots = lw->roots;
	a.opts.nroots = a.nroots;
	lfb_walk_start(L, lw, &a.opts, "luafind.walk");

	lua_pushvalue(L, lua_upvalueindex(3)); /* the iterator */
	lua_pushvalue(L, walk);
	lua_pushnil(L);
	lua_pushvalue(L, walk);
	return 4;
}

struct lfb_walk *lfb_entry_view_new(lua_State *L)
{
	struct lfb_walk *lw = lua_newuserdatauv(L, sizeof(*lw), LFB_WALK_NUV);
	memset(lw, 0, sizeof(*lw));
	lw->symlinks = -1;
	if (luaL_newmetatable(L, "luafind.EntryView")) { /* a name for messages, no methods */
		lfb_hide_metatable(L, -1, "luafind.EntryView");
	}
	lua_setmetatable(L, -2);
	int walk = lua_gettop(L);
	make_entries(L, lw, walk);
	return lw;
}

static const luaL_Reg walk_meth[] = {
	{"close", walk_close},
	{"cancel", walk_cancel},
	{"cancelled", walk_cancelled},
	{"prune", walk_prune},
	{"stats", walk_stats},
	{"had_error", walk_had_error},
	{"next", NULL}, /* the iterator, set below */
	{NULL, NULL},
};

static const luaL_Reg walk_metameth[] = {
	{"__index", NULL}, /* the methods, set below */
	{"__gc", walk_gc},
	{"__close", walk_tbc},
	{"__tostring", walk_tostring},
	{NULL, NULL},
};

void lfb_open_walk(lua_State *L, int state)
{
	int mod = lua_gettop(L);
	luaL_newmetatable(L, LFB_WALK);
	int mt = lua_gettop(L);
	luaL_setfuncs(L, walk_metameth, 0);
	luaL_newlibtable(L, walk_meth);
	luaL_setfuncs(L, walk_meth, 0);
	lua_pushvalue(L, mt);
	lua_pushcclosure(L, walk_iter, 1);
	int iter = lua_gettop(L);
	lua_pushvalue(L, iter);
	lua_setfield(L, -3, "next");
	lua_pushvalue(L, -2);
	lua_setfield(L, mt, "__index");
	lfb_hide_metatable(L, mt, LFB_WALK);

	lua_pushvalue(L, mt);
	lua_pushvalue(L, state);
	lua_pushvalue(L, iter);
	lua_pushcclosure(L, mod_walk, 3);
	lua_setfield(L, mod, "walk");
	lua_settop(L, mod);
}
