/*
 * entry.c: the entry userdata, a view of its walker's current entry.
 *
 * It holds only {walker, generation}; nothing is copied when it is handed
 * out, and a field's value is computed when it is read.  __index is a C
 * closure whose first upvalue maps every key to a method or a small field
 * id (one lua_rawget: Lua strings are interned), then a switch dispatches.
 * name, path, depth, type, ino, visit, error and root cost no syscall; the
 * other fields come from one lf_entry_stat() per entry, cached by the core.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"
#include "luafind.h"

#include "ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lualib.h>

/* Registry keys (their addresses are unique). */
static const char field_ids_key = 0; /* its address is a registry key */

static const char *const field_names[LFB_F_COUNT] = {
	[LFB_F_ENTRY] = "e",
	[LFB_F_NAME] = "name",
	[LFB_F_PATH] = "path",
	[LFB_F_DEPTH] = "depth",
	[LFB_F_TYPE] = "type",
	[LFB_F_INO] = "ino",
	[LFB_F_VISIT] = "visit",
	[LFB_F_ERROR] = "error",
	[LFB_F_ROOT] = "root",
	[LFB_F_SIZE] = "size",
	[LFB_F_MODE] = "mode",
	[LFB_F_PERM] = "perm",
	[LFB_F_UID] = "uid",
	[LFB_F_GID] = "gid",
	[LFB_F_USER] = "user",
	[LFB_F_GROUP] = "group",
	[LFB_F_NLINK] = "nlink",
	[LFB_F_DEV] = "dev",
	[LFB_F_RDEV] = "rdev",
	[LFB_F_BLOCKS] = "blocks",
	[LFB_F_BLKSIZE] = "blksize",
	[LFB_F_ATIME] = "atime",
	[LFB_F_MTIME] = "mtime",
	[LFB_F_CTIME] = "ctime",
	[LFB_F_BTIME] = "btime",
	[LFB_F_ATIME_NSEC] = "atime_nsec",
	[LFB_F_MTIME_NSEC] = "mtime_nsec",
	[LFB_F_CTIME_NSEC] = "ctime_nsec",
	[LFB_F_BTIME_NSEC] = "btime_nsec",
};

/* enum lf_type -> find's -type letters. */
static const char type_letters[] = "?fdlpscb";

int lfb_stale(lua_State *L)
{
	return luaL_error(L, "luafind: entry used after the walk moved on (use e:snapshot() to keep it)");
}

/* The entry at @idx, which must be current. */
/*
 * Whether @le is not the entry its walker is at: a later one was handed
 * out, or (for a C host's walk, lf_lua_push_entry) the host moved on.
 */
static bool entry_stale(const struct lfb_entry *le)
{
	const struct lfb_walk *lw = le->lw;
	return le->gen != lw->gen || !lw->cur ||
	       (lw->bridge && lf_walk_counters(lw->w)->entries != lw->bridge_seq);
}

static struct lf_entry *check_entry(lua_State *L, int idx, struct lfb_walk **lwp)
{
	struct lfb_entry *le = luaL_checkudata(L, idx, LFB_ENTRY);
	struct lfb_walk *lw = le->lw;
	if (entry_stale(le)) {
		lfb_stale(L);
	}
	if (lwp) {
		*lwp = lw;
	}
	return lw->cur;
}

struct lf_entry *lfb_test_entry(lua_State *L, int idx)
{
	return luaL_testudata(L, idx, LFB_ENTRY) ? check_entry(L, idx, NULL) : NULL;
}

void lfb_push_entry(lua_State *L, int walk_idx)
{
	walk_idx = lua_absindex(L, walk_idx);
	struct lfb_walk *lw = lua_touserdata(L, walk_idx);
	lua_getiuservalue(L, walk_idx, LFB_UV_ENTRY0 + (lw->gen & 1));
	struct lfb_entry *le = lua_touserdata(L, -1);
	le->gen = lw->gen;
}

/* ---- fields ------------------------------------------------------------- */

/* The name: the last component, also for a root given as "a/b/" or "/". */
static void push_name(lua_State *L, const struct lf_entry *e)
{
	size_t len;
	const char *name = lf_entry_name(e, &len);
	lua_pushlstring(L, name, len);
}

/* User or group name of @id, from the state's context (ctx.h); nil if it has none. */
static void push_owner(lua_State *L, bool group, uint32_t id)
{
	const char *name = lf_idnames_get(&lfb_ctx(L)->ids, group, id);
	if (name) {
		lua_pushstring(L, name);
	} else if (errno) {
		luaL_error(L, "%s name of %d: %s", group ? "group" : "user", (int)id, strerror(errno));
	} else {
		lua_pushnil(L);
	}
}

static lua_Integer time_field(const struct timespec *ts, bool nsec)
{
	return nsec ? (lua_Integer)ts->tv_nsec : (lua_Integer)ts->tv_sec;
}

bool lfb_stat_integer(const struct lf_stat *st, int id, lua_Integer *v)
{
	switch (id) {
	case LFB_F_SIZE: *v = st->size; return true;
	case LFB_F_MODE: *v = st->mode; return true;
	case LFB_F_PERM: *v = st->mode & 07777; return true;
	case LFB_F_UID: *v = st->uid; return true;
	case LFB_F_GID: *v = st->gid; return true;
	case LFB_F_NLINK: *v = (lua_Integer)st->nlink; return true;
	case LFB_F_DEV: *v = (lua_Integer)st->dev; return true;
	case LFB_F_RDEV: *v = (lua_Integer)st->rdev; return true;
	case LFB_F_BLOCKS: *v = st->blocks; return true;
	case LFB_F_BLKSIZE: *v = st->blksize; return true;
	case LFB_F_ATIME: *v = time_field(&st->atime, false); return true;
	case LFB_F_MTIME: *v = time_field(&st->mtime, false); return true;
	case LFB_F_CTIME: *v = time_field(&st->ctime, false); return true;
	case LFB_F_ATIME_NSEC: *v = time_field(&st->atime, true); return true;
	case LFB_F_MTIME_NSEC: *v = time_field(&st->mtime, true); return true;
	case LFB_F_CTIME_NSEC: *v = time_field(&st->ctime, true); return true;
	case LFB_F_BTIME:
	case LFB_F_BTIME_NSEC:
		*v = st->has_btime ? time_field(&st->btime, id == LFB_F_BTIME_NSEC) : 0;
		return st->has_btime;
	default: return false; /* user, group: names */
	}
}

/* Push stat field @id of @st.  64-bit unsigned values above 2^63 wrap. */
static void push_stat_field(lua_State *L, const struct lf_stat *st, int id)
{
	lua_Integer v;
	if (id == LFB_F_USER || id == LFB_F_GROUP) {
		push_owner(L, id == LFB_F_GROUP, id == LFB_F_GROUP ? st->gid : st->uid);
	} else if (lfb_stat_integer(st, id, &v)) {
		lua_pushinteger(L, v);
	} else {
		lua_pushnil(L); /* no birth time */
	}
}

const char *lfb_type_letter(const struct lf_entry *e)
{
	/* The core resolved a DT_UNKNOWN type before returning the entry. */
	return &type_letters[(unsigned)e->type <= LF_BLK ? e->type : 0];
}

int lfb_push_field(lua_State *L, struct lfb_walk *lw, int id)
{
	struct lf_entry *e = lw->cur;
	switch (id) {
	case LFB_F_NAME:
		push_name(L, e);
		return 1;
	case LFB_F_PATH:
		lua_pushlstring(L, e->path, e->pathlen);
		return 1;
	case LFB_F_DEPTH:
		lua_pushinteger(L, e->depth);
		return 1;
	case LFB_F_TYPE:
		lua_pushlstring(L, lfb_type_letter(e), 1);
		return 1;
	case LFB_F_INO:
		lua_pushinteger(L, (lua_Integer)e->ino);
		return 1;
	case LFB_F_VISIT:
		lua_pushstring(L, e->visit == LF_VISIT_PRE ? "pre" : e->visit == LF_VISIT_POST ? "post" : "error");
		return 1;
	case LFB_F_ERROR:
		if (e->visit != LF_VISIT_ERROR) {
			lua_pushnil(L);
			return 1;
		}
		lua_pushlstring(L, e->path, e->pathlen);
		lua_pushfstring(L, ": %s", strerror(e->error));
		lua_concat(L, 2);
		return 1;
	case LFB_F_ROOT:
		lua_pushinteger(L, (lua_Integer)e->root + 1);
		return 1;
	default:
		break;
	}
	const struct lf_stat *st = e->visit == LF_VISIT_ERROR ? NULL : lf_entry_stat(e, LF_FOLLOW_WALK);
	if (!st) {
		lw->stat_failed = true; /* -lua makes it the entry's error */
		lua_pushnil(L); /* a lazy field is one value: e:stat() tells why */
		return 1;
	}
	push_stat_field(L, st, id);
	return 1;
}

void lfb_push_field_ids(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &field_ids_key);
}

/*
 * __index: upvalue 1 maps keys to methods or field ids, upvalue 2 is the
 * metatable, compared directly to check the type cheaply.
 */
static int entry_index(lua_State *L)
{
	struct lfb_entry *le = lua_touserdata(L, 1);
	if (!le || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, LFB_ENTRY);
	}
	lua_settop(L, 2);
	lua_pushvalue(L, 2);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (t == LUA_TNUMBER) {
		if (entry_stale(le)) {
			return lfb_stale(L);
		}
		return lfb_push_field(L, le->lw, (int)lua_tointeger(L, -1));
	}
	if (t != LUA_TNIL) {
		return 1; /* a method */
	}
	if (lua_type(L, 2) == LUA_TSTRING) {
		return luaL_error(L, "luafind: entry has no field '%s'", lua_tostring(L, 2));
	}
	return luaL_error(L, "luafind: entry has no field %s", luaL_tolstring(L, 2, NULL));
}

static int entry_newindex(lua_State *L)
{
	return luaL_error(L, "luafind: entry fields are read-only (assigning '%s')",
			  luaL_tolstring(L, 2, NULL));
}

static int entry_tostring(lua_State *L)
{
	struct lfb_entry *le = luaL_checkudata(L, 1, LFB_ENTRY);
	if (entry_stale(le)) {
		lua_pushliteral(L, "luafind.Entry (stale)");
	} else {
		lua_pushlstring(L, le->lw->cur->path, le->lw->cur->pathlen);
	}
	return 1;
}

/* ---- methods ------------------------------------------------------------ */

/* An error entry names a file that could not be reached: report that. */
static int fail_error_entry(lua_State *L, const struct lf_entry *e)
{
	return lfb_fail(L, e->path, e->pathlen, e->error);
}

/* Whether open() must not follow the entry when it is a symbolic link. */
static bool nofollow(const struct lfb_walk *lw, const struct lf_entry *e)
{
	if (e->type == LF_LNK) {
		return true; /* the walk does not follow it (or it is broken) */
	}
	switch (lw->symlinks) {
	case LF_PHYSICAL: return true;
	case LF_COMFOLLOW: return e->depth > 0;
	default: return false; /* following, or unknown: as the walk saw it */
	}
}

/* e:prune() -> true */
static int entry_prune(lua_State *L)
{
	struct lfb_walk *lw;
	check_entry(L, 1, &lw);
	lf_walk_prune(lw->w);
	lua_pushboolean(L, 1);
	return 1;
}

/* Fill the table on top with the stat fields of @st (and ino, type). */
static void set_stat_fields(lua_State *L, const struct lf_stat *st)
{
	for (int id = LFB_F_FIRST_STAT; id < LFB_F_COUNT; id++) {
		push_stat_field(L, st, id);
		lua_setfield(L, -2, field_names[id]);
	}
	lua_pushinteger(L, (lua_Integer)st->ino);
	lua_setfield(L, -2, "ino");
	lua_pushlstring(L, &type_letters[lf_type_from_mode(st->mode)], 1);
	lua_setfield(L, -2, "type");
}

/*
 * e:stat([follow]) -> table, or fail, "PATH: message", errno.  follow nil:
 * as the walk treats the entry; true: the link's target; false: the link.
 */
static int entry_stat(lua_State *L)
{
	struct lf_entry *e = check_entry(L, 1, NULL);
	enum lf_follow how = LF_FOLLOW_WALK;
	if (!lua_isnoneornil(L, 2)) {
		how = lua_toboolean(L, 2) ? LF_FOLLOW : LF_NOFOLLOW;
	}
	if (e->visit == LF_VISIT_ERROR) {
		return fail_error_entry(L, e);
	}
	const struct lf_stat *st = lf_entry_stat(e, how);
	if (!st) {
		return lfb_fail(L, e->path, e->pathlen, errno);
	}
	lua_createtable(L, 0, LFB_F_COUNT);
	set_stat_fields(L, st);
	return 1;
}

/* io.open's mode check and its open(2) flags. */
static int open_flags(const char *mode, int *flags)
{
	int f;
	switch (*mode++) {
	case 'r': f = O_RDONLY; break;
	case 'w': f = O_WRONLY | O_CREAT | O_TRUNC; break;
	case 'a': f = O_WRONLY | O_CREAT | O_APPEND; break;
	default: return -1;
	}
	if (*mode == '+') {
		f = (f & ~(O_RDONLY | O_WRONLY)) | O_RDWR;
		mode++;
	}
	mode += strspn(mode, "b");
	*flags = f;
	return *mode == '\0' ? 0 : -1;
}

static int file_close(lua_State *L)
{
	luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
	errno = 0;
	int res = fclose(p->f);
	return luaL_fileresult(L, res == 0, NULL);
}

/*
 * e:open([mode]) -> a Lua file, or fail, "PATH: message", errno.
 * openat() relative to the entry's directory; O_NOFOLLOW unless the walk
 * follows this entry.
 */
static int entry_open(lua_State *L)
{
	struct lfb_walk *lw;
	struct lf_entry *e = check_entry(L, 1, &lw);
	const char *mode = luaL_optstring(L, 2, "r");
	int flags;
	if (open_flags(mode, &flags) != 0) {
		return luaL_argerror(L, 2, "invalid mode");
	}
	if (e->visit == LF_VISIT_ERROR) {
		return fail_error_entry(L, e);
	}
	/* The file handle first, closed, so a memory error leaks no fd. */
	luaL_Stream *p = lua_newuserdatauv(L, sizeof(*p), 0);
	p->f = NULL;
	p->closef = NULL;
	if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TNIL) {
		return luaL_error(L, "luafind: e:open() needs the io library");
	}
	lua_setmetatable(L, -2);

	flags |= O_CLOEXEC | O_NOCTTY | (nofollow(lw, e) ? O_NOFOLLOW : 0);
	int fd = openat(e->at_fd, e->at_name, flags, 0666);
	if (fd < 0) {
		return lfb_fail(L, e->path, e->pathlen, errno);
	}
	p->f = fdopen(fd, mode);
	if (!p->f) {
		int err = errno;
		close(fd);
		return lfb_fail(L, e->path, e->pathlen, err);
	}
	p->closef = file_close;
	return 1;
}

/* e:readlink() -> the link's contents, or fail, "PATH: message", errno */
static int entry_readlink(lua_State *L)
{
	struct lf_entry *e = check_entry(L, 1, NULL);
	if (e->visit == LF_VISIT_ERROR) {
		return fail_error_entry(L, e);
	}
	char buf[PATH_MAX];
	ssize_t n = readlinkat(e->at_fd, e->at_name, buf, sizeof(buf));
	if (n < 0) {
		return lfb_fail(L, e->path, e->pathlen, errno);
	}
	if ((size_t)n == sizeof(buf)) {
		return lfb_fail(L, e->path, e->pathlen, ENAMETOOLONG);
	}
	lua_pushlstring(L, buf, (size_t)n);
	return 1;
}

/*
 * e:realpath() -> the absolute path with every symbolic link resolved (the
 * entry itself included, as realpath(3) does), or fail, message, errno.
 * Opens the entry with O_PATH relative to its directory and reads
 * /proc/self/fd/N, so no path is handed to the kernel; without /proc it
 * falls back to realpath(3) on e.path.  The kernel cannot name a path
 * longer than a page this way: that fails with ENAMETOOLONG.
 */
static int entry_realpath(lua_State *L)
{
	struct lf_entry *e = check_entry(L, 1, NULL);
	if (e->visit == LF_VISIT_ERROR) {
		return fail_error_entry(L, e);
	}
	/* The buffer first, so that a memory error cannot leak the fd. */
	luaL_Buffer b;
	size_t cap = PATH_MAX + 1;
	char *buf = luaL_buffinitsize(L, &b, cap);
	int fd = openat(e->at_fd, e->at_name, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		return lfb_fail(L, e->path, e->pathlen, errno);
	}
	char link[32];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, cap);
	int err = errno;
	close(fd);
	if (n >= 0 && (size_t)n < cap) {
		luaL_pushresultsize(&b, (size_t)n);
		return 1;
	}
	if (n >= 0) {
		err = ENAMETOOLONG;
	} else if (err == ENOENT) {
		char path[PATH_MAX];
		if (realpath(e->path, path)) {
			luaL_pushresultsize(&b, 0);
			lua_pushstring(L, path);
			return 1;
		}
		err = errno;
	}
	return lfb_fail(L, e->path, e->pathlen, err);
}

/*
 * e:snapshot([with_stat]) -> a plain table of the fields that need no
 * syscall; with_stat adds the stat fields (one stat, cached as for the
 * fields; absent if it fails).
 */
static int entry_snapshot(lua_State *L)
{
	struct lfb_walk *lw;
	struct lf_entry *e = check_entry(L, 1, &lw);
	bool with_stat = lua_toboolean(L, 2);
	lua_createtable(L, 0, with_stat ? LFB_F_COUNT : LFB_F_FIRST_STAT);
	for (int id = LFB_F_NAME; id < LFB_F_FIRST_STAT; id++) {
		lfb_push_field(L, lw, id);
		lua_setfield(L, -2, field_names[id]);
	}
	if (with_stat && e->visit != LF_VISIT_ERROR) {
		const struct lf_stat *st = lf_entry_stat(e, LF_FOLLOW_WALK);
		if (st) {
			for (int id = LFB_F_FIRST_STAT; id < LFB_F_COUNT; id++) {
				push_stat_field(L, st, id);
				lua_setfield(L, -2, field_names[id]);
			}
		}
	}
	return 1;
}

/*
 * e:delete() -> true, or fail, "PATH: message", errno.  unlinkat() by
 * d_type, never following a link; a directory must be empty (walk with
 * order = "post"), and deleting one on its pre-order visit prunes it.
 */
static int entry_delete(lua_State *L)
{
	struct lf_entry *e = check_entry(L, 1, NULL);
	unsigned allow;
	if (lfb_sandboxed(L, &allow) && !(allow & LF_SANDBOX_ALLOW_DELETE)) {
		return luaL_error(L, "e:delete: not allowed in the sandbox");
	}
	if (e->visit == LF_VISIT_ERROR) {
		return fail_error_entry(L, e);
	}
	if (lf_entry_delete(e) != 0) {
		return lfb_fail(L, e->path, e->pathlen, errno);
	}
	lua_pushboolean(L, 1);
	return 1;
}

static const luaL_Reg entry_meth[] = {
	{"prune", entry_prune},
	{"stat", entry_stat},
	{"open", entry_open},
	{"readlink", entry_readlink},
	{"realpath", entry_realpath},
	{"snapshot", entry_snapshot},
	{"delete", entry_delete},
	{NULL, NULL},
};

static const luaL_Reg entry_metameth[] = {
	{"__index", NULL}, /* the closure over the key table, set below */
	{"__newindex", entry_newindex},
	{"__tostring", entry_tostring},
	{NULL, NULL},
};

void lfb_open_entry(lua_State *L)
{
	if (!luaL_newmetatable(L, LFB_ENTRY)) {
		lua_pop(L, 1); /* a second luaopen in the same state */
		return;
	}
	int mt = lua_gettop(L);
	luaL_setfuncs(L, entry_metameth, 0);
	lfb_hide_metatable(L, mt, LFB_ENTRY);

	/* The keys of __index: every field and method. */
	lua_createtable(L, 0, LFB_F_COUNT + 8);
	luaL_setfuncs(L, entry_meth, 0);
	for (int id = LFB_F_NAME; id < LFB_F_COUNT; id++) {
		lua_pushinteger(L, id);
		lua_setfield(L, -2, field_names[id]);
	}
	lua_pushvalue(L, mt);
	lua_pushcclosure(L, entry_index, 2);
	lua_setfield(L, mt, "__index");

	/* The free variables of a -lua expression: the fields and "e". */
	lua_createtable(L, 0, LFB_F_COUNT);
	for (int id = LFB_F_ENTRY; id < LFB_F_COUNT; id++) {
		lua_pushinteger(L, id);
		lua_setfield(L, -2, field_names[id]);
	}
	lua_rawsetp(L, LUA_REGISTRYINDEX, &field_ids_key);
	lua_settop(L, mt - 1);
}
