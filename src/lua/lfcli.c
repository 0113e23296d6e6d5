/*
 * lfcli.c: the Lua side of the luafind executable: a state with the module
 * preloaded, the --script runner (after lua.c's pmain/docall), and the -lua
 * primary.
 *
 * A -lua expression is compiled once as `return (EXPR)` with its own _ENV:
 * an empty table whose __index is a C closure that looks the name up in the
 * field-id table first (one lua_rawget of an interned string), so reading
 * `name` costs one C call and one string push, then in the helpers, then in
 * the globals.  Evaluating it is one lua_pcall per entry; the entry is the
 * CLI's own, borrowed through a walker userdata that is never closed here
 * and whose generation is bumped around each call, so nothing outlives it.
 * An expression of fields compared with constants has a C plan as well
 * (lfplan.h), which evaluates it without the call into Lua.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfcli.h"

#include "lbind.h"
#include "lfplan.h"
#include "luafind.h"
#include "lualex.h"
#include "names.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lualib.h>

#ifndef LUAFIND_INSTALL_LUADIR
#define LUAFIND_INSTALL_LUADIR "/usr/local/share/lua/5.4"
#endif

struct lf_lua_pred {
	lua_State *L;
	int fn_ref;   /* the compiled chunk */
	int walk_ref; /* the walker userdata wrapping the CLI's walker */
	int plan_ref; /* the userdata owning plan */
	struct lf_lua_plan *plan; /* the expression evaluated in C, or NULL (lfplan.h) */
	struct lfb_walk *lw;
	bool syntax_error; /* compiling: Lua's parser failed, and its message says where */
};

/*
 * Whether the running executable is the one in the build directory it was
 * built in (directly there: an install under that directory, as the
 * embed.relocate test makes, is an install).
 */
bool lf_lua_in_build_tree(void)
{
#if defined(LUAFIND_BUILD_BINDIR) && defined(LUAFIND_BUILD_LUADIR)
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len = strlen(LUAFIND_BUILD_BINDIR);
	if (n < 0) {
		return false;
	}
	exe[n] = '\0';
	return strncmp(exe, LUAFIND_BUILD_BINDIR, len) == 0 && exe[len] == '/' && !strchr(exe + len + 1, '/');
#else
	return false;
#endif
}

/*
 * The directory of the running executable into @buf, without a trailing
 * slash; false if /proc/self/exe cannot say, or if the directory has a
 * character that package.path would misread (";" or "?").
 */
static bool exe_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0) {
		return false;
	}
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash || strpbrk(buf, ";?")) {
		return false;
	}
	*slash = '\0';
	return true;
}

static int init_state(lua_State *L)
{
	struct lf_ctx *ctx = lua_touserdata(L, 1);
	if (ctx) {
		lfb_lend_ctx(L, ctx);
	}
	/*
	 * Walks make one short-lived string per field read: the generational
	 * collector handles that garbage about a quarter faster.
	 */
	lua_gc(L, LUA_GCGEN, 0, 0);
	luaL_openlibs(L);
	luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	lua_pop(L, 1);

	lua_getglobal(L, "package");
	int n = 0;
#ifdef LUAFIND_BUILD_LUADIR
	if (lf_lua_in_build_tree()) {
		lua_pushliteral(L, LUAFIND_BUILD_LUADIR "/?.lua;" LUAFIND_BUILD_LUADIR "/?/init.lua;");
		n++;
	}
#endif
#ifdef LUAFIND_REL_LUADIR
	/* Installed: PREFIX/bin/luafind finds PREFIX/share/lua/5.4, wherever PREFIX went. */
	char dir[PATH_MAX];
	if (exe_dir(dir, sizeof(dir))) {
		lua_pushfstring(L, "%s/" LUAFIND_REL_LUADIR "/?.lua;%s/" LUAFIND_REL_LUADIR "/?/init.lua;",
				dir, dir);
		n++;
	}
#endif
	lua_pushliteral(L, LUAFIND_INSTALL_LUADIR "/?.lua;" LUAFIND_INSTALL_LUADIR "/?/init.lua;");
	lua_getfield(L, -2 - n, "path");
	lua_concat(L, n + 2);
	lua_setfield(L, -2, "path");
	lua_pop(L, 1);
	return 0;
}

struct lua_State *lf_lua_new(struct lf_ctx *ctx)
{
	lua_State *L = luaL_newstate();
	if (!L) {
		errno = ENOMEM;
		return NULL;
	}
	lua_pushcfunction(L, init_state);
	lua_pushlightuserdata(L, ctx);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		lua_close(L);
		errno = ENOMEM;
		return NULL;
	}
	return L;
}

struct lua_State *lf_lua_new_sandbox(struct lf_ctx *ctx, const struct lf_sandbox_limits *lim)
{
	return lfb_sandbox_new(lim, ctx);
}

/* ---- --script ----------------------------------------------------------- */

/* lua.c's message handler: the message with a traceback. */
static int msghandler(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (!msg) {
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
			return 1;
		}
		msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

struct script {
	const char *file;
	int argc;
	char **argv;
};

/* Build `arg`, load the file, push the chunk and its arguments. */
static int prepare_script(lua_State *L)
{
	const struct script *s = lua_touserdata(L, 1);
	lua_settop(L, 0);
	lua_createtable(L, s->argc, 1);
	lua_pushstring(L, s->file);
	lua_rawseti(L, -2, 0);
	for (int i = 0; i < s->argc; i++) {
		lua_pushstring(L, s->argv[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setglobal(L, "arg");
	const char *name = strcmp(s->file, "-") == 0 ? NULL : s->file;
	if (luaL_loadfilex(L, name, lfb_sandboxed(L, NULL) ? "t" : NULL) != LUA_OK) {
		return lua_error(L);
	}
	luaL_checkstack(L, s->argc, "too many arguments to script");
	for (int i = 0; i < s->argc; i++) {
		lua_pushstring(L, s->argv[i]);
	}
	return s->argc + 1;
}

static void report(lua_State *L)
{
	const char *msg = lfb_error_text(L, -1);
	fflush(stdout);
	fprintf(stderr, "luafind: %s\n", msg ? msg : "(error object is not a string)");
	fflush(stderr);
	lua_pop(L, 1);
}

void lf_lua_stats(lua_State *L, struct lf_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (!L) {
		return;
	}
	int base = lua_gettop(L);
	lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	if (lua_getfield(L, -1, "luafind.core") == LUA_TTABLE && lua_getfield(L, -1, "stats") == LUA_TFUNCTION &&
	    lua_pcall(L, 0, 1, 0) == LUA_OK && lua_istable(L, -1)) {
		lfb_read_counters(L, -1, c);
	}
	lua_settop(L, base);
}

/*
 * The exit status a script's return value @idx asks for, as the runner of
 * --run takes it (lua/luafind/runner.lua): nil or true 0, an integer from 0
 * to 255 itself, anything else (false) 1.
 */
static int script_status(lua_State *L, int idx)
{
	if (lua_isnil(L, idx) || (lua_isboolean(L, idx) && lua_toboolean(L, idx))) {
		return 0;
	}
	if (lua_isinteger(L, idx)) {
		lua_Integer n = lua_tointeger(L, idx);
		return n >= 0 && n <= 255 ? (int)n : 1;
	}
	return 1;
}

int lf_lua_run_script(struct lua_State *L, const char *file, int argc, char **argv)
{
	struct script s = {file, argc, argv};
	int base = lua_gettop(L);
	lua_pushcfunction(L, msghandler);
	lua_pushcfunction(L, prepare_script);
	lua_pushlightuserdata(L, &s);
	if (lua_pcall(L, 1, LUA_MULTRET, 0) != LUA_OK) {
		report(L);
		lua_settop(L, base);
		return 1;
	}
	int nargs = lua_gettop(L) - base - 2;
	int status = lf_sandbox_pcall(L, nargs, 1, base + 1); /* lua_pcall unless a sandbox */
	if (status == LUA_OK) {
		int exit_status = script_status(L, -1);
		lua_settop(L, base);
		return exit_status;
	}
	{
		int kind = lf_sandbox_error_kind(L, -1);
		if (kind != LF_SANDBOX_ERR_LUA) {
			fflush(stdout);
			fprintf(stderr, "luafind: %s: %s\n", file, lf_sandbox_error_message(kind));
			fflush(stderr);
			lua_pop(L, 1);
		} else {
			report(L);
		}
	}
	lua_settop(L, base);
	return 1;
}

/* ---- -lua --------------------------------------------------------------- */

/*
 * The text of the error on top, as Lua made it: an error of the expression
 * itself says where ("-lua:1: attempt to compare nil with number"); one
 * raised by a C function, or by an error object, does not.
 */
static const char *error_text(lua_State *L)
{
	const char *msg = lfb_error_text(L, -1);
	return msg ? msg : "(error object is not a string)";
}

/* ---- free names of -lua expressions ------------------------------------ */

/* The closest string key of table @t to @name, or NULL: at most 2 edits away. */
static const char *closest_key(lua_State *L, int t, const char *name, const char *best, size_t *best_d)
{
	size_t len = strlen(name);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING) {
			size_t klen;
			const char *k = lua_tolstring(L, -1, &klen);
			size_t d = lf_edit_distance(name, len, k, klen);
			if (d < *best_d && d <= 2 && d < len && k[0] != '_') {
				*best_d = d;
				best = k; /* a key of t, which outlives the call */
			}
		}
	}
	return best;
}

/*
 * Raise "unknown name 'NAME'", with the closest field, helper or global as a
 * suggestion.  @fields, @helpers and @globals are stack indices.
 */
static int unknown_name(lua_State *L, const char *name, int fields, int helpers, int globals)
{
	size_t d = SIZE_MAX;
	const char *best = closest_key(L, fields, name, NULL, &d);
	best = closest_key(L, helpers, name, best, &d);
	best = closest_key(L, globals, name, best, &d);
	if (best) {
		return luaL_error(L, "unknown name '%s' (did you mean '%s'?)", name, best);
	}
	return luaL_error(L, "unknown name '%s' (not an entry field, a helper or a global: see luafind-lua(3))", name);
}

/* A token of a -lua expression. */
enum tok { T_END, T_NAME, T_OTHER, T_DOT, T_COLON, T_DCOLON, T_ASSIGN, T_LPAREN, T_RPAREN, T_COMMA, T_LT, T_GT };

struct lexer {
	const char *p;
	const char *name; /* T_NAME */
	size_t len;
};

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* The next token (Lua 5.4's lexer, as much of it as finding names needs). */
static enum tok next_token(struct lexer *lx)
{
	const char *p = lx->p;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
			p++;
		}
		if (p[0] == '-' && p[1] == '-') {
			int level = lf_lualex_long_bracket(p + 2);
			if (level >= 0) {
				p = lf_lualex_skip_long(p + 2, level);
			} else {
				p += strcspn(p, "\n");
			}
			continue;
		}
		break;
	}
	enum tok t = T_OTHER;
	if (!*p) {
		t = T_END;
	} else if (is_name_start(*p)) {
		lx->name = p;
		while (is_name_char(*p)) {
			p++;
		}
		lx->len = (size_t)(p - lx->name);
		t = T_NAME;
	} else if ((*p >= '0' && *p <= '9') || (p[0] == '.' && p[1] >= '0' && p[1] <= '9')) {
		while (is_name_char(*p) || *p == '.' ||
		       ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))) {
			p++;
		}
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (*p && *p != q) {
			p += (*p == '\\' && p[1]) ? 2 : 1;
		}
		p += *p != '\0';
	} else if (lf_lualex_long_bracket(p) >= 0) {
		p = lf_lualex_skip_long(p, lf_lualex_long_bracket(p));
	} else if (p[0] == '.') {
		size_t n = strspn(p, ".");
		n = n > 3 ? 3 : n;
		t = n == 1 ? T_DOT : T_OTHER;
		p += n;
	} else if (p[0] == ':') {
		t = p[1] == ':' ? T_DCOLON : T_COLON;
		p += p[1] == ':' ? 2 : 1;
	} else if (p[0] == '=' || p[0] == '~' || p[0] == '<' || p[0] == '>' || p[0] == '/') {
		if (p[1] == '=' || (p[0] == p[1] && p[0] != '~')) {
			p += 2;
		} else {
			t = p[0] == '=' ? T_ASSIGN : p[0] == '<' ? T_LT : p[0] == '>' ? T_GT : T_OTHER;
			p++;
		}
	} else {
		t = *p == '(' ? T_LPAREN : *p == ')' ? T_RPAREN : *p == ',' ? T_COMMA : T_OTHER;
		p++;
	}
	lx->p = p;
	return t;
}

static bool name_is(const struct lexer *lx, const char *s)
{
	return strlen(s) == lx->len && memcmp(lx->name, s, lx->len) == 0;
}

static bool is_keyword(const struct lexer *lx)
{
	static const char *const words[] = {"and", "break", "do", "else", "elseif", "end", "false",
					    "for", "function", "goto", "if", "in", "local", "nil",
					    "not", "or", "repeat", "return", "then", "true", "until",
					    "while"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (name_is(lx, words[i])) {
			return true;
		}
	}
	return false;
}

/*
 * Fill table @bound with the names the expression declares or assigns
 * anywhere (locals, parameters, loop variables, assignments, table keys,
 * labels), and table @used with the names it reads from _ENV: names not
 * after "." or ":" and not keywords.  Scopes are not tracked: a name
 * bound anywhere is never reported, so a name is only reported when no
 * reading of the expression can make it anything but a free variable.
 */
static void scan_names(lua_State *L, const char *expr, int bound, int used)
{
	struct lexer lx = {expr, NULL, 0};
	enum tok prev = T_OTHER;
	enum { D_NONE, D_LOCAL, D_PARAMS, D_FOR } decl = D_NONE;
	int depth = 0; /* parentheses inside a declaration */
	for (enum tok t = next_token(&lx); t != T_END; prev = t, t = next_token(&lx)) {
		if (t == T_NAME && is_keyword(&lx)) {
			if (name_is(&lx, "local")) {
				decl = D_LOCAL;
			} else if (name_is(&lx, "for")) {
				decl = D_FOR;
			} else if (name_is(&lx, "function")) {
				decl = D_PARAMS;
				depth = 0;
			} else if (name_is(&lx, "goto")) {
				decl = D_LOCAL; /* its label */
			} else if (decl == D_FOR && name_is(&lx, "in")) {
				decl = D_NONE;
			}
			t = T_OTHER;
			continue;
		}
		if (decl == D_PARAMS) {
			if (t == T_LPAREN) {
				depth++;
			} else if (t == T_RPAREN && --depth <= 0) {
				decl = D_NONE;
			}
		} else if (decl != D_NONE && t != T_NAME && t != T_COMMA && t != T_LT && t != T_GT) {
			decl = D_NONE; /* "local a, b <const> =": the list ended */
		}
		if (t != T_NAME) {
			continue;
		}
		const char *start = lx.name;
		size_t len = lx.len;
		bool declared = decl != D_NONE || prev == T_DCOLON;
		struct lexer peek = lx;
		enum tok after = next_token(&peek);
		if (after == T_ASSIGN || after == T_DCOLON) {
			declared = true;
		}
		if (declared) {
			lua_pushlstring(L, start, len);
			lua_pushboolean(L, 1);
			lua_rawset(L, bound);
		} else if (prev != T_DOT && prev != T_COLON && !(len == 4 && memcmp(start, "_ENV", 4) == 0)) {
			lua_pushlstring(L, start, len);
			lua_pushboolean(L, 1);
			lua_rawset(L, used);
		}
	}
}

/* Raised by env_index for a stat field whose stat failed: its address. */
static const char stat_failed_key = 0;

/*
 * _ENV's __index.  Upvalues: 1 the field ids, 2 the helpers, 3 the globals,
 * 4 the walker userdata, 5 the names the expression binds itself.
 */
static int env_index(lua_State *L)
{
	lua_settop(L, 2);
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNUMBER) {
		struct lfb_walk *lw = lua_touserdata(L, lua_upvalueindex(4));
		if (!lw->cur) {
			return lfb_stale(L);
		}
		int id = (int)lua_tointeger(L, -1);
		if (id == LFB_F_ENTRY) {
			lfb_push_entry(L, lua_upvalueindex(4));
			return 1;
		}
		lfb_push_field(L, lw, id);
		if (lw->stat_failed && id >= LFB_F_FIRST_STAT && lua_isnil(L, -1)) {
			/* Not nil to compare with: the entry's error (lf_lua_pred_eval). */
			lua_pushlightuserdata(L, (void *)&stat_failed_key);
			return lua_error(L);
		}
		return 1;
	}
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) {
		return 1;
	}
	lua_pushvalue(L, 2);
	if (lua_gettable(L, lua_upvalueindex(3)) == LUA_TNIL && lua_type(L, 2) == LUA_TSTRING) {
		/* Not a misspelt field silently nil (and false): an error. */
		lua_pushvalue(L, 2);
		if (lua_rawget(L, lua_upvalueindex(5)) == LUA_TNIL) {
			return unknown_name(L, lua_tostring(L, 2), lua_upvalueindex(1), lua_upvalueindex(2),
					    lua_upvalueindex(3));
		}
		lua_pop(L, 1);
	}
	return 1;
}

/* The units of luafind/init.lua, so that -lua works even without it. */
static const struct {
	const char *name;
	lua_Integer value;
} units[] = {
	{"KiB", 1024},
	{"MiB", 1024 * 1024},
	{"GiB", 1024 * 1024 * 1024},
	{"TiB", 1024LL * 1024 * 1024 * 1024},
	{"minutes", 60},
	{"hours", 60 * 60},
	{"days", 24 * 60 * 60},
	{"weeks", 7 * 24 * 60 * 60},
};

/* lf: require "luafind", or the C module alone if the Lua part is missing. */
static int load_module(lua_State *L)
{
	lua_getglobal(L, "require");
	lua_pushliteral(L, "luafind");
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		lua_pop(L, 1);
		luaL_requiref(L, "luafind.core", luaopen_luafind_core, 0);
	}
	return lua_gettop(L);
}

static int compile_protected(lua_State *L)
{
	struct lf_lua_pred *p = lua_touserdata(L, 1);
	lua_pushstring(L, lua_touserdata(L, 2)); /* here: it may run out of memory */
	lua_replace(L, 2);
	lua_settop(L, 2);

	int mod = load_module(L);
	lua_createtable(L, 0, 16);
	int helpers = lua_gettop(L);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		lua_pushinteger(L, units[i].value);
		lua_setfield(L, helpers, units[i].name);
	}
	lua_getfield(L, mod, "regex");
	lua_setfield(L, helpers, "regex");
	lua_getfield(L, mod, "glob");
	lua_setfield(L, helpers, "glob");
	lua_pushinteger(L, (lua_Integer)time(NULL));
	lua_setfield(L, helpers, "now");
	lua_pushvalue(L, mod);
	lua_setfield(L, helpers, "lf");

	p->lw = lfb_entry_view_new(L);
	int walk = lua_gettop(L);

	lua_newtable(L); /* _ENV */
	int env = lua_gettop(L);
	lua_newtable(L);
	int bound = lua_gettop(L);
	lua_newtable(L);
	int used = lua_gettop(L);
	lfb_push_field_ids(L);
	int fields = lua_gettop(L);
	lua_pushglobaltable(L);
	int globals = lua_gettop(L);
	lua_createtable(L, 0, 1);
	lfb_push_field_ids(L);
	lua_pushvalue(L, helpers);
	lua_pushglobaltable(L);
	lua_pushvalue(L, walk);
	lua_pushvalue(L, bound);
	lua_pushcclosure(L, env_index, 5);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, env);

	/*
	 * "return EXPR" first, for its messages and so that "a) or (b" is not
	 * taken for one expression; then "return (EXPR)", which refuses a list
	 * ("name, size").  The first is the one run: its lines are the
	 * expression's, where the second's ")" is on a line of its own, so
	 * that EXPR may end with a -- comment.
	 */
	for (int paren = 0; paren <= 1; paren++) {
		lua_pushstring(L, paren ? "return (" : "return ");
		lua_pushvalue(L, 2);
		lua_pushstring(L, paren ? "\n)" : "");
		lua_concat(L, 3);
		size_t len;
		const char *code = lua_tolstring(L, -1, &len);
		if (luaL_loadbufferx(L, code, len, "=-lua", "t") != LUA_OK) {
			p->syntax_error = true; /* "-lua:1: ')' expected near ','" */
			return lua_error(L);
		}
		lua_remove(L, -2);
		if (paren) {
			lua_pop(L, 1);
		}
	}
	/*
	 * Every name the expression reads from _ENV must be a field, a helper
	 * or a global: a misspelt one is reported now, before the walk (and
	 * env_index raises for one this scan cannot see, such as _ENV[k]).
	 */
	scan_names(L, lua_tostring(L, 2), bound, used);
	lua_pushnil(L);
	while (lua_next(L, used)) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		if (lua_rawget(L, bound) == LUA_TNIL) {
			lua_pushvalue(L, -2);
			bool known = lua_rawget(L, fields) != LUA_TNIL;
			lua_pushvalue(L, -3);
			known |= lua_rawget(L, helpers) != LUA_TNIL;
			lua_pushvalue(L, -4);
			known |= lua_gettable(L, globals) != LUA_TNIL;
			if (!known) {
				return unknown_name(L, lua_tostring(L, -5), fields, helpers, globals);
			}
			lua_pop(L, 3);
		}
		lua_pop(L, 1);
	}
	lua_pushvalue(L, env);
	lua_setupvalue(L, -2, 1);
	/* Fields compared with constants: evaluated in C, without Lua. */
	p->plan = lf_lua_plan_compile(L, lua_tostring(L, 2), fields, helpers);
	if (p->plan) {
		p->plan_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	}
	lua_pushvalue(L, walk);
	p->walk_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	p->fn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

struct lf_lua_pred *lf_lua_pred_compile(struct lua_State *L, const char *expr, char *errbuf,
					size_t errlen)
{
	struct lf_lua_pred *p = malloc(sizeof(*p));
	if (!p) {
		snprintf(errbuf, errlen, "-lua: %s", strerror(errno));
		return NULL;
	}
	p->L = L;
	p->fn_ref = LUA_NOREF;
	p->walk_ref = LUA_NOREF;
	p->plan_ref = LUA_NOREF;
	p->plan = NULL;
	p->lw = NULL;
	p->syntax_error = false;
	int base = lua_gettop(L);
	lua_pushcfunction(L, compile_protected);
	lua_pushlightuserdata(L, p);
	lua_pushlightuserdata(L, (void *)expr);
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
		/* Lua's parser names the chunk, -lua, and the line. */
		snprintf(errbuf, errlen, p->syntax_error ? "%s" : "-lua: %s", error_text(L));
		lua_settop(L, base);
		lf_lua_pred_free(p);
		return NULL;
	}
	lua_settop(L, base);
	return p;
}

int lf_lua_pred_eval(struct lf_lua_pred *p, struct lf_walk *w, struct lf_entry *e, char *errbuf,
		     size_t errlen)
{
	if (p->plan) {
		int r = lf_lua_plan_eval(p->plan, e);
		if (r == -2) {
			lf_entry_stat(e, LF_FOLLOW_WALK); /* as below: sets its errno */
			return -2;
		}
		if (r != LF_LUA_PLAN_LUA) {
			return r;
		}
	}
	lua_State *L = p->L;
	struct lfb_walk *lw = p->lw;
	lw->w = w;
	lw->cur = e;
	lw->gen++;
	lw->stat_failed = false;
	lua_rawgeti(L, LUA_REGISTRYINDEX, p->fn_ref);
	int status = lua_pcall(L, 0, 1, 0);
	lw->gen++;
	lw->cur = NULL;
	lw->w = NULL;
	if (lw->stat_failed) {
		/* Whatever the expression made of it (a pcall, "size == nil"):
		 * the entry could not be examined. */
		lua_pop(L, 1);
		lf_entry_stat(e, LF_FOLLOW_WALK); /* cached: sets its errno, no syscall */
		return -2;
	}
	if (status != LUA_OK) {
		snprintf(errbuf, errlen, "%.*s: %s", (int)(e->pathlen < INT_MAX ? e->pathlen : INT_MAX),
			 e->path, error_text(L));
		lua_pop(L, 1);
		return -1;
	}
	int r = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return r;
}

void lf_lua_pred_free(struct lf_lua_pred *p)
{
	if (!p) {
		return;
	}
	luaL_unref(p->L, LUA_REGISTRYINDEX, p->fn_ref);
	luaL_unref(p->L, LUA_REGISTRYINDEX, p->walk_ref);
	luaL_unref(p->L, LUA_REGISTRYINDEX, p->plan_ref);
	free(p);
}

bool lf_lua_pred_planned(const struct lf_lua_pred *p)
{
	return p->plan != NULL;
}

void lf_lua_pred_unplan(struct lf_lua_pred *p)
{
	luaL_unref(p->L, LUA_REGISTRYINDEX, p->plan_ref);
	p->plan_ref = LUA_NOREF;
	p->plan = NULL;
}
