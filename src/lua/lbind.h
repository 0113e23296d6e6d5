/*
 * lbind.h: what the files of the Lua binding share (not installed).
 *
 * The binding is luafind.c (luaopen_luafind_core and the module functions),
 * walk.c (the walker userdata and its iterator), entry.c (the entry
 * userdata and its fields), find.c (find(), a walker whose entries pass a
 * find expression compiled by the front end, src/find) and regex.c (regex
 * and glob userdata).  lfcli.c,
 * the glue the luafind executable calls, uses the same functions to show
 * the CLI's own walker to a -lua expression.
 *
 * Everything here has hidden visibility: the module and libluafind.so
 * export luaopen_luafind_core and nothing else from these files.  Names
 * carry the lfb_ prefix because the static library exposes them to the
 * host's linker all the same.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_LBIND_H
#define LF_LBIND_H

#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

#include "mem.h"
#include "walk.h"

#define LFB_HIDDEN __attribute__((visibility("hidden")))

/* Metatable names (registry keys). */
#define LFB_WALK "luafind.Walk"
#define LFB_ENTRY "luafind.Entry"
#define LFB_REGEX "luafind.Regex"
#define LFB_GLOB "luafind.Glob"
#define LFB_ERROR "luafind.error"

/* What the iterator does with an LF_VISIT_ERROR entry (walk option "errors"). */
enum lfb_errors {
	LFB_ERR_YIELD = 0, /* return it, with e.error set */
	LFB_ERR_SKIP,      /* drop it silently */
	LFB_ERR_WARN,      /* print "luafind: PATH: MESSAGE" on stderr, drop it */
	LFB_ERR_RAISE,     /* raise "PATH: MESSAGE" */
};

struct lfb_find;

/* Counters of one module instance, for luafind.stats(). */
struct lfb_state {
	struct lf_counters total; /* of the walks already closed */
	uint64_t entries;
	struct lfb_walk *open;    /* the walks still open */
	unsigned nopen;           /* how many (a sandbox caps it) */
};

/*
 * The walker userdata.  Its user values: LFB_UV_ENTRY0/1, the two entry
 * userdata it hands out alternately; LFB_UV_ROOTS, a table pinning the root
 * strings that roots[] points into (and for find(), the expression's words
 * after them); LFB_UV_STATE, the lfb_state userdata.
 */
struct lfb_walk {
	struct lf_walk *w;     /* NULL once closed */
	struct lf_entry *cur;  /* the entry handed out, NULL between steps */
	unsigned gen;          /* bumped on every step and on close */
	int symlinks;          /* enum lf_symlinks, or -1 when unknown (an entry view) */
	enum lfb_errors errors;
	struct lfb_state *st;  /* NULL for an entry view */
	struct lfb_walk *prev, *next; /* in st->open while open */
	struct lf_counters counters;  /* final values, once closed */
	uint64_t entries;             /* entries handed out */
	bool had_error;               /* final value, once closed */
	/*
	 * A walker with a filter (find()'s front end, find.c) sets these:
	 * its iterator step, its close, whether it failed so far; NULL for
	 * walk().  walk.c knows no more of it.
	 */
	int (*filter_step)(lua_State *L, struct lfb_walk *lw);
	void (*filter_close)(struct lfb_walk *lw, bool finish); /* finish: not from __gc */
	bool (*filter_failed)(const struct lfb_walk *lw);
	struct lfb_find *find;        /* the filter's state (find.c's) */
	bool find_failed;             /* the filter failed, once closed */
	bool cancelled;               /* ended by w:cancel() */
	bool stat_failed;             /* a stat field of the current entry could not be read */
	bool bridge;                  /* an entry view of lf_lua_push_entry: */
	uint64_t bridge_seq;          /* ...the walk's entry count at the push */
	size_t nroots;
	const char *roots[];
};

enum {
	LFB_UV_ENTRY0 = 1,
	LFB_UV_ENTRY1,
	LFB_UV_ROOTS,
	LFB_UV_STATE,
	LFB_WALK_NUV = LFB_UV_STATE,
};

/* The entry userdata: a view of its walker's current entry.  User value 1
 * pins the walker. */
struct lfb_entry {
	struct lfb_walk *lw;
	unsigned gen; /* the walker's gen when this view was handed out */
};

/* Field ids.  LFB_F_ENTRY is the entry itself, a -lua free variable only. */
enum lfb_field {
	LFB_F_ENTRY = 0,
	LFB_F_NAME,
	LFB_F_PATH,
	LFB_F_DEPTH,
	LFB_F_TYPE,
	LFB_F_INO,
	LFB_F_VISIT,
	LFB_F_ERROR,
	LFB_F_ROOT,
	LFB_F_FIRST_STAT, /* the fields below need lf_entry_stat() */
	LFB_F_SIZE = LFB_F_FIRST_STAT,
	LFB_F_MODE,
	LFB_F_PERM,
	LFB_F_UID,
	LFB_F_GID,
	LFB_F_USER,
	LFB_F_GROUP,
	LFB_F_NLINK,
	LFB_F_DEV,
	LFB_F_RDEV,
	LFB_F_BLOCKS,
	LFB_F_BLKSIZE,
	LFB_F_ATIME,
	LFB_F_MTIME,
	LFB_F_CTIME,
	LFB_F_BTIME,
	LFB_F_ATIME_NSEC,
	LFB_F_MTIME_NSEC,
	LFB_F_CTIME_NSEC,
	LFB_F_BTIME_NSEC,
	LFB_F_COUNT,
};

/* ---- luafind.c ---------------------------------------------------------- */

/*
 * Hide the metatable at @idx from Lua code: getmetatable returns @name
 * instead, and setmetatable refuses (its __metatable field).  Every
 * metatable of the binding's objects is hidden, so that a sandboxed script
 * cannot take a walker's __gc and __close away, nor change the methods
 * other code uses.  lua_getmetatable (C) still sees it; so does
 * debug.getmetatable, which a sandbox does not have.
 */
LFB_HIDDEN void lfb_hide_metatable(lua_State *L, int idx, const char *name);

/* Push fail, "PATH: strerror(err)", err; returns 3.  @err is a saved errno. */
LFB_HIDDEN int lfb_fail(lua_State *L, const char *path, size_t len, int err);

struct lf_ctx;

/*
 * The find library's context of this Lua state (src/find/ctx.h): lf.find's
 * messages, -fprint files and the uid/gid names of the user and group
 * fields.  One per state, made by luaopen_luafind_core unless a host lent
 * its own first (lfb_lend_ctx); it lives as long as the state.
 */
LFB_HIDDEN struct lf_ctx *lfb_ctx(lua_State *L);

/*
 * Make @ctx the context of @L (borrowed: the caller frees it after closing
 * @L), before luafind.core is opened in it.  Raises an error on ENOMEM.
 */
LFB_HIDDEN void lfb_lend_ctx(lua_State *L, struct lf_ctx *ctx);

/* ---- walk.c ------------------------------------------------------------- */

/* Add walk() to the module table on top (upvalue: the state at @state). */
LFB_HIDDEN void lfb_open_walk(lua_State *L, int state);

/*
 * Push a new, closed walker userdata for @nroots roots, with its entry
 * views and its state; roots[] and LFB_UV_ROOTS are the caller's to set.
 * Call it from a module function whose upvalues are (1) the walker
 * metatable and (2) the state, as walk() and find() are built.
 */
LFB_HIDDEN struct lfb_walk *lfb_walk_new(lua_State *L, size_t nroots);

/*
 * Check the first argument of walk() or find() (@fn, for messages): a root,
 * or a table of roots whose string keys are options, each passed to
 * @option with its value on top of the stack (@table names the table in
 * messages: "argument", "roots").
 *
 * @return the number of roots; raises on a bad argument
 */
LFB_HIDDEN size_t lfb_check_roots(lua_State *L, const char *fn, const char *table,
				  void (*option)(lua_State *L, void *ud, const char *opt), void *ud);

/*
 * The value on top of the stack as the threads option of @fn (walk or
 * find): an integer from 1 to LF_WALK_THREADS_MAX; raises otherwise.
 */
LFB_HIDDEN int lfb_opt_threads(lua_State *L, const char *fn);

/*
 * Pin the roots that lfb_check_roots() accepted (argument 1) in a new table
 * with room for @extra more strings, set as LFB_UV_ROOTS of the walker at
 * stack index @walk, and point lw->roots[] into it.  The table is left on
 * top, for find() to add the expression's words.
 */
LFB_HIDDEN void lfb_walk_pin_roots(lua_State *L, struct lfb_walk *lw, int walk, int extra);

/*
 * Open the core walker of @lw with @opts (whose roots must live as long as
 * @lw) and count it in its state; raises "FN: reason" on failure.
 */
LFB_HIDDEN void lfb_walk_start(lua_State *L, struct lfb_walk *lw, const struct lf_walk_opts *opts,
			       const char *fn);

/*
 * Begin a step of the iterator of @lw (at stack index 1): move the
 * generation on, drop the current entry and fetch the next one into *e.
 * With @stop (find's -quit) the walker is closed first.  A walk that
 * failed is closed and raises "FN: reason" (@fn is walk()'s or find()'s
 * name); walk() and find() differ only in what they do with the entry.
 *
 * @return 1 with *e set, or 0 with nil pushed at the end (or once closed)
 */
LFB_HIDDEN int lfb_walk_advance(lua_State *L, struct lfb_walk *lw, bool stop, const char *fn,
				struct lf_entry **e);

/*
 * Apply the errors= option of @lw to its error entry @e.  "warn" calls
 * @warn, which prints the entry in its iterator's format.
 *
 * @return true to hand @e out ("yield"), false to drop it ("skip", "warn");
 *	raises "PATH: MESSAGE" for "raise"
 */
LFB_HIDDEN bool lfb_walk_keep_error(lua_State *L, struct lfb_walk *lw, const struct lf_entry *e,
				    void (*warn)(struct lfb_walk *lw, const struct lf_entry *e));

/*
 * Push an entry view of a walk owned by C (the CLI's -lua): the owner of
 * the entry userdata a C host hands to Lua, with no walker methods (it is
 * not a walker: nothing in Lua can step, prune or close the C walk).  The
 * caller sets ->w and ->cur and bumps ->gen around each use.
 */
LFB_HIDDEN struct lfb_walk *lfb_entry_view_new(lua_State *L);

/* Sum of the counters of every walk of @st, open or closed. */
LFB_HIDDEN void lfb_state_totals(const struct lfb_state *st, struct lf_counters *c,
				 uint64_t *entries);

/* Push a table of counters. */
LFB_HIDDEN void lfb_push_counters(lua_State *L, const struct lf_counters *c, uint64_t entries);

/* Fill *@c from a table of counters at @idx (as lfb_push_counters made it). */
LFB_HIDDEN void lfb_read_counters(lua_State *L, int idx, struct lf_counters *c);

/* ---- entry.c ------------------------------------------------------------ */

/* Create the entry metatable and the field tables (once per state). */
LFB_HIDDEN void lfb_open_entry(lua_State *L);

/*
 * Push the entry view of the walker at @walk_idx for its current entry
 * (lw->cur must be set), stamping it with the walker's generation.
 */
LFB_HIDDEN void lfb_push_entry(lua_State *L, int walk_idx);

/* Push field @id of lw->cur (which must be set); returns 1. */
LFB_HIDDEN int lfb_push_field(lua_State *L, struct lfb_walk *lw, int id);

/*
 * The type field of @e, one letter of find's -type ("f", "d"...; "?" for a
 * type the core does not know): a pointer to that letter, not terminated.
 */
LFB_HIDDEN const char *lfb_type_letter(const struct lf_entry *e);

/*
 * Stat field @id of @st as the integer the field holds (unsigned values
 * above 2^63 wrap, as lua_pushinteger shows them): false for a field that
 * is not an integer (user, group) or that @st lacks (btime without a birth
 * time), which the field shows as nil.
 */
LFB_HIDDEN bool lfb_stat_integer(const struct lf_stat *st, int id, lua_Integer *v);

/* Push the table mapping each field name (and "e") to its id. */
LFB_HIDDEN void lfb_push_field_ids(lua_State *L);

/* Raise the stale-entry error. */
LFB_HIDDEN int lfb_stale(lua_State *L);

/* The current entry of the entry userdata at @idx, or NULL if @idx holds
 * something else; raises the stale-entry error for an entry left behind. */
LFB_HIDDEN struct lf_entry *lfb_test_entry(lua_State *L, int idx);

/* ---- find.c ------------------------------------------------------------- */

/* Add find() to the module table on top (upvalue: the state at @state);
 * after lfb_open_walk(), whose iterator and metatable it shares. */
LFB_HIDDEN void lfb_open_find(lua_State *L, int state);


/* ---- sandbox.c ---------------------------------------------------------- */

struct lf_sandbox_limits;

/*
 * Whether @L is a sandbox (lf_sandbox_new), with its LF_SANDBOX_ALLOW_*
 * bits in *@allow (every bit when it is not), if @allow is not NULL.
 */
LFB_HIDDEN bool lfb_sandboxed(lua_State *L, unsigned *allow);

/*
 * In a sandbox whose budget or CPU time is used up, raise its error
 * (for the binding's own loops: a walk checks every 256 entries).
 * @return whether @L is a sandbox
 */
LFB_HIDDEN bool lfb_sandbox_check(lua_State *L);

/*
 * Charge @steps instructions to a sandbox's budget for work a C function
 * does, raising its error if they are more than what is left; nothing
 * outside a sandbox, or in one without a budget.
 */
LFB_HIDDEN void lfb_sandbox_charge(lua_State *L, uint64_t steps);

/* Push luafind.errno: errno values by name, and names by value (errno.c). */
LFB_HIDDEN void lfb_push_errno(lua_State *L);

/* The symbolic name of errno value @err ("ENOENT"), or NULL (errno.c). */
LFB_HIDDEN const char *lfb_errno_name(int err);

/* luafind.strerror(errno): the system's message (errno.c). */
LFB_HIDDEN int lfb_strerror(lua_State *L);

/*
 * Push the error object of @list (error.c): its message is the messages
 * joined with "; " (@fallback if there are none but warnings), after the
 * caller's position and "@fn: " when @fn is not NULL; its fields are those
 * of the first problem, and errors lists them all.
 */
struct lf_error_list;
LFB_HIDDEN void lfb_push_errors(lua_State *L, const struct lf_error_list *list, const char *fallback,
				const char *fn);

/* Push the error object of a file error: "path: reason", kind "file" (error.c). */
LFB_HIDDEN void lfb_push_file_error(lua_State *L, const char *path, size_t pathlen, int err);

/*
 * The text of the error value at @idx: a string, or the message of one of
 * our error objects; NULL for anything else (no __tostring of a script's
 * is run).
 */
LFB_HIDDEN const char *lfb_error_text(lua_State *L, int idx);

/* In a new sandbox: wrap the library functions no hook bounds (sandbox_lib.c). */
LFB_HIDDEN void lfb_sandbox_bound_libs(lua_State *L, int strlib, int tablib);

/* What a Lua pattern search is: find's and match's, gmatch's or gsub's. */
enum lfb_pattern_op {
	LFB_PATTERN_FIND,
	LFB_PATTERN_GMATCH,
	LFB_PATTERN_GSUB,
};

/*
 * Count the steps Lua's matcher makes for the search @op of pattern @p
 * (@plen bytes) in @s (@len bytes) from byte @init, giving up past @limit
 * (pattern_cost.c).  A malformed pattern stops the count where Lua would
 * raise.  @return whether *@steps stayed within @limit
 */
LFB_HIDDEN bool lfb_pattern_cost(const char *s, size_t len, const char *p, size_t plen, size_t init,
				 enum lfb_pattern_op op, uint64_t limit, uint64_t *steps);

/*
 * Whether @L is a sandbox, with its caps on the walkers open at once and
 * on the threads of one walk (lf_sandbox_limits.max_walks, max_threads,
 * their defaults applied) in *@max_walks and *@max_threads if it is.
 */
LFB_HIDDEN bool lfb_sandbox_caps(lua_State *L, unsigned *max_walks, unsigned *max_threads);

/*
 * The memory account of the sandbox @L, for the core (lf_walk_opts.mem,
 * lf_regex_compile_mem): what it charges counts toward max_memory with the
 * state's own memory; what would go over is refused, and the core fails
 * with ENOMEM.  NULL when @L is not a sandbox.  It lives as long as the
 * state.
 */
LFB_HIDDEN const struct lf_mem *lfb_sandbox_mem(lua_State *L);

/*
 * In a sandbox with a memory limit, run a full collection (finalizers
 * included, which give back what dropped regexes and walkers charged) if
 * @now, or if a quarter of the limit was charged since the last one; call
 * it before taking C-side memory, from a function Lua called.  Nothing
 * outside a sandbox.
 */
LFB_HIDDEN void lfb_sandbox_collect(lua_State *L, bool now);

/*
 * Raise Lua's memory error ("not enough memory"), after the core failed
 * with ENOMEM: in a sandbox, it is "memory limit exceeded"
 * (lf_sandbox_error_kind), and the call ends as at the state's own limit.
 */
LFB_HIDDEN int lfb_memory_error(lua_State *L);

/* lf_sandbox_new() lending @ctx (NULL: the state's own), as lfb_lend_ctx. */
LFB_HIDDEN lua_State *lfb_sandbox_new(const struct lf_sandbox_limits *lim, struct lf_ctx *ctx);

/* Add sandbox() to the module table on top. */
LFB_HIDDEN void lfb_open_sandbox(lua_State *L);

/* ---- regex.c ------------------------------------------------------------ */

/* Add regex() and glob() to the module table on top. */
LFB_HIDDEN void lfb_open_regex(lua_State *L);

/* ---- json.c ------------------------------------------------------------- */

/* Add json() to the module table on top. */
LFB_HIDDEN void lfb_open_json(lua_State *L);

#endif
