/*
 * lfplan.c: -lua expressions evaluated in C (lfplan.h).
 *
 * Lua spends about 0.3 us an entry on `type == "f" and size > 16384`: a
 * protected call, two __index calls through the environment's metatable, a
 * string pushed for the type.  Expressions of that shape are common, and
 * their meaning is simple enough to reproduce exactly in C:
 *
 *   plan  := plan "or" plan | plan "and" plan | "not" plan | "(" plan ")"
 *          | value | value CMP value
 *   value := FIELD | constant
 *
 * A FIELD is a name the environment resolves to an entry field (fields come
 * first there: no global or helper can hide them): the string fields name,
 * path, type and visit, and the integer ones (depth, ino, root and the stat
 * fields but user and group).  A constant is a string literal, nil, true,
 * false, or numbers, the numeric helpers (KiB... weeks, now) and the
 * arithmetic and bitwise operators over them, which Lua itself evaluates
 * once, here: only numbers meet, so no metamethod can be involved and the
 * value is what the chunk would compute for every entry.  An order
 * comparison ("<" ...) is of two integers (a float constant only when it
 * has an integer's exact value, which Lua compares exactly); "==" and "~="
 * take any two values (of different types they differ, as in Lua).
 * Anything else (calls, methods, indexing, concatenation, arithmetic on a
 * field, strings ordered by strcoll, a float with a fraction in an order
 * comparison) has no plan: the expression runs in Lua as before, errors and
 * all.
 *
 * Evaluation follows Lua's: left to right, and/or short-circuit, a value's
 * truth is "neither nil nor false"; a stat field calls lf_entry_stat() when
 * read, as env_index does, so the stats are the same.  The one value that
 * may be nil, btime without a birth time, is compared in C with "==" and
 * "~="; an order comparison of it sends the entry to Lua, which raises its
 * own message.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfplan.h"

#include "lbind.h"
#include "lualex.h"

#include <string.h>

/* Bounds of what is planned: longer or deeper expressions run in Lua. */
enum { MAX_NODES = 128, MAX_DEPTH = 32 };

/* ---- tokens --------------------------------------------------------------- */

enum tok {
	TK_END,
	TK_NAME,
	TK_NUMBER,
	TK_STRING,
	TK_NIL,
	TK_TRUE,
	TK_FALSE,
	TK_NOT,
	TK_OP,     /* a binary operator, or "-" / "~" / "#" (unary too) */
	TK_LPAREN,
	TK_RPAREN,
	TK_OTHER,  /* anything else: never part of a plan */
};

/* Operators, binary then unary. */
enum op {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_MOD, OP_POW, OP_DIV, OP_IDIV,
	OP_BAND, OP_BOR, OP_BXOR, OP_SHL, OP_SHR, OP_CONCAT,
	OP_EQ, OP_LT, OP_LE, OP_NE, OP_GT, OP_GE,
	OP_AND, OP_OR,
	OP_NOT, OP_NEG, OP_LEN, OP_BNOT,
};

/* lparser.c's priorities: left, right; and UNARY_PRIORITY. */
static const struct {
	unsigned char left, right;
} priority[] = {
	[OP_ADD] = {10, 10}, [OP_SUB] = {10, 10}, [OP_MUL] = {11, 11}, [OP_MOD] = {11, 11},
	[OP_POW] = {14, 13}, [OP_DIV] = {11, 11}, [OP_IDIV] = {11, 11}, [OP_BAND] = {6, 6},
	[OP_BOR] = {4, 4},   [OP_BXOR] = {5, 5},  [OP_SHL] = {7, 7},    [OP_SHR] = {7, 7},
	[OP_CONCAT] = {9, 8}, [OP_EQ] = {3, 3},   [OP_LT] = {3, 3},     [OP_LE] = {3, 3},
	[OP_NE] = {3, 3},    [OP_GT] = {3, 3},    [OP_GE] = {3, 3},     [OP_AND] = {2, 2},
	[OP_OR] = {1, 1},
};
#define UNARY_PRIORITY 12

struct lexer {
	const char *p;     /* after the current token */
	enum tok t;        /* the current token */
	enum op op;        /* TK_OP: which (the binary one for "-" and "~") */
	const char *start; /* the current token's text */
	const char *end;
};

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const struct {
	char text[4];
	enum tok t;
	enum op op;
} symbols[] = {
	/* Longest first. */
	{"...", TK_OTHER, OP_NONE}, {"..", TK_OP, OP_CONCAT}, {"==", TK_OP, OP_EQ},
	{"~=", TK_OP, OP_NE},       {"<=", TK_OP, OP_LE},     {">=", TK_OP, OP_GE},
	{"<<", TK_OP, OP_SHL},      {">>", TK_OP, OP_SHR},    {"//", TK_OP, OP_IDIV},
	{"+", TK_OP, OP_ADD},       {"-", TK_OP, OP_SUB},     {"*", TK_OP, OP_MUL},
	{"/", TK_OP, OP_DIV},       {"%", TK_OP, OP_MOD},     {"^", TK_OP, OP_POW},
	{"#", TK_OP, OP_LEN},       {"&", TK_OP, OP_BAND},    {"~", TK_OP, OP_BXOR},
	{"|", TK_OP, OP_BOR},       {"<", TK_OP, OP_LT},      {">", TK_OP, OP_GT},
	{"(", TK_LPAREN, OP_NONE},  {")", TK_RPAREN, OP_NONE},
};

/*
 * The next token, as Lua 5.4's llex.c splits them.  The text compiled
 * already, so it is valid Lua: only token boundaries matter here.
 */
static void next(struct lexer *lx)
{
	const char *p = lx->p;
	for (;;) {
		p += strspn(p, " \t\n\r\f\v");
		if (p[0] != '-' || p[1] != '-') {
			break;
		}
		int level = lf_lualex_long_bracket(p + 2);
		p = level >= 0 ? lf_lualex_skip_long(p + 2, level) : p + strcspn(p, "\n");
	}
	lx->start = p;
	lx->op = OP_NONE;
	if (!*p) {
		lx->t = TK_END;
	} else if (is_alpha(*p)) {
		while (is_alpha(*p) || is_digit(*p)) {
			p++;
		}
		static const struct {
			const char *word;
			enum tok t;
			enum op op;
		} words[] = {
			{"nil", TK_NIL, OP_NONE},  {"true", TK_TRUE, OP_NONE}, {"false", TK_FALSE, OP_NONE},
			{"not", TK_NOT, OP_NOT},   {"and", TK_OP, OP_AND},     {"or", TK_OP, OP_OR},
			{"break", TK_OTHER, 0},    {"do", TK_OTHER, 0},        {"else", TK_OTHER, 0},
			{"elseif", TK_OTHER, 0},   {"end", TK_OTHER, 0},       {"for", TK_OTHER, 0},
			{"function", TK_OTHER, 0}, {"goto", TK_OTHER, 0},      {"if", TK_OTHER, 0},
			{"in", TK_OTHER, 0},       {"local", TK_OTHER, 0},     {"repeat", TK_OTHER, 0},
			{"return", TK_OTHER, 0},   {"then", TK_OTHER, 0},      {"until", TK_OTHER, 0},
			{"while", TK_OTHER, 0},
		};
		size_t len = (size_t)(p - lx->start);
		lx->t = TK_NAME;
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			if (strlen(words[i].word) == len && memcmp(words[i].word, lx->start, len) == 0) {
				lx->t = words[i].t;
				lx->op = words[i].op;
				break;
			}
		}
	} else if (is_digit(*p) || (p[0] == '.' && is_digit(p[1]))) {
		/* llex.c's read_numeral */
		const char *expo = "Ee";
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			expo = "Pp";
			p += 2;
		}
		for (;;) {
			if (*p && strchr(expo, *p)) {
				p++;
				p += *p == '+' || *p == '-';
			} else if (is_xdigit(*p) || *p == '.') {
				p++;
			} else {
				break;
			}
		}
		lx->t = TK_NUMBER;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (*p && *p != q) {
			p += p[0] == '\\' && p[1] ? 2 : 1;
		}
		p += *p != '\0';
		lx->t = TK_STRING;
	} else if (lf_lualex_long_bracket(p) >= 0) {
		p = lf_lualex_skip_long(p, lf_lualex_long_bracket(p));
		lx->t = TK_STRING;
	} else {
		lx->t = TK_OTHER;
		for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
			size_t len = strlen(symbols[i].text);
			if (strncmp(p, symbols[i].text, len) == 0) {
				lx->t = symbols[i].t;
				lx->op = symbols[i].op;
				p += len - 1;
				break;
			}
		}
		p++;
	}
	lx->end = p;
	lx->p = p;
}

/* ---- the syntax tree -------------------------------------------------------- */

enum akind { A_NUMBER, A_STRING, A_NIL, A_TRUE, A_FALSE, A_NAME, A_UNARY, A_BINARY };

struct anode {
	enum akind kind;
	enum op op;
	int a, b;               /* operands */
	const char *start, *end; /* its text, parentheses included */
};

struct parser {
	struct lexer lx;
	struct anode n[MAX_NODES];
	int count;
	int depth;
};

static int add(struct parser *ps, enum akind kind, enum op op, int a, int b, const char *start, const char *end)
{
	if (ps->count == MAX_NODES) {
		return -1;
	}
	ps->n[ps->count] = (struct anode){kind, op, a, b, start, end};
	return ps->count++;
}

static int subexpr(struct parser *ps, int limit);

/* lparser.c's simpleexp, less what a plan never holds; -1 for those. */
static int simpleexp(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	const char *start = lx->start, *end = lx->end;
	int x;
	switch (lx->t) {
	case TK_NUMBER: x = add(ps, A_NUMBER, OP_NONE, -1, -1, start, end); break;
	case TK_STRING: x = add(ps, A_STRING, OP_NONE, -1, -1, start, end); break;
	case TK_NIL: x = add(ps, A_NIL, OP_NONE, -1, -1, start, end); break;
	case TK_TRUE: x = add(ps, A_TRUE, OP_NONE, -1, -1, start, end); break;
	case TK_FALSE: x = add(ps, A_FALSE, OP_NONE, -1, -1, start, end); break;
	case TK_NAME:
		next(lx);
		/* A suffix ("." "[" ":" "(" "{" or a string): a call or an index. */
		if (lx->t == TK_OTHER || lx->t == TK_LPAREN || lx->t == TK_STRING) {
			return -1;
		}
		return add(ps, A_NAME, OP_NONE, -1, -1, start, end);
	case TK_LPAREN:
		next(lx);
		x = subexpr(ps, 0);
		if (x < 0 || lx->t != TK_RPAREN) {
			return -1;
		}
		ps->n[x].start = start;
		ps->n[x].end = lx->end;
		next(lx);
		if (lx->t == TK_OTHER || lx->t == TK_LPAREN || lx->t == TK_STRING) {
			return -1;
		}
		return x;
	default: return -1;
	}
	next(lx);
	return x;
}

/* lparser.c's subexpr: operators by priority, binary ones left of @limit. */
static int subexpr(struct parser *ps, int limit)
{
	struct lexer *lx = &ps->lx;
	if (++ps->depth > MAX_DEPTH) {
		return -1;
	}
	int x;
	if (lx->t == TK_NOT || (lx->t == TK_OP && (lx->op == OP_SUB || lx->op == OP_BXOR || lx->op == OP_LEN))) {
		enum op op = lx->t == TK_NOT ? OP_NOT : lx->op == OP_SUB ? OP_NEG : lx->op == OP_BXOR ? OP_BNOT : OP_LEN;
		const char *start = lx->start;
		next(lx);
		int a = subexpr(ps, UNARY_PRIORITY);
		x = a < 0 ? -1 : add(ps, A_UNARY, op, a, -1, start, ps->n[a].end);
	} else {
		x = simpleexp(ps);
	}
	while (x >= 0 && lx->t == TK_OP && lx->op != OP_LEN && priority[lx->op].left > limit) {
		enum op op = lx->op;
		next(lx);
		int b = subexpr(ps, priority[op].right);
		x = b < 0 ? -1 : add(ps, A_BINARY, op, x, b, ps->n[x].start, ps->n[b].end);
	}
	ps->depth--;
	return x;
}

/* ---- the plan ------------------------------------------------------------- */

enum pkind { P_CONST, P_FIELD, P_NOT, P_AND, P_OR, P_CMP };

/* The type of a value: a field's, or a constant's. */
enum vtype { V_NIL, V_BOOL, V_INT, V_FLOAT, V_STR, V_INT_OR_NIL /* btime */ };

struct pnode {
	enum pkind kind;
	enum op op;      /* P_CMP */
	enum vtype type;
	int a, b;        /* operands; P_FIELD: a is the field id */
	lua_Integer i;   /* V_INT, V_BOOL */
	const char *s;   /* V_STR: pinned by the plan's user value */
	size_t len;
};

struct lf_lua_plan {
	int count;
	int root;
	struct pnode n[];
};

/* A value read for a comparison. */
struct value {
	enum vtype type; /* V_NIL, V_INT or V_STR */
	lua_Integer i;
	const char *s;
	size_t len;
};

static enum vtype field_type(int id)
{
	switch (id) {
	case LFB_F_NAME:
	case LFB_F_PATH:
	case LFB_F_TYPE:
	case LFB_F_VISIT: return V_STR;
	case LFB_F_DEPTH:
	case LFB_F_INO:
	case LFB_F_ROOT: return V_INT;
	case LFB_F_BTIME:
	case LFB_F_BTIME_NSEC: return V_INT_OR_NIL;
	case LFB_F_ENTRY:
	case LFB_F_ERROR:
	case LFB_F_USER:
	case LFB_F_GROUP: return V_NIL; /* not planned */
	default: return id >= LFB_F_FIRST_STAT && id < LFB_F_COUNT ? V_INT : V_NIL;
	}
}

struct compiler {
	lua_State *L;
	struct parser *ps;
	struct lf_lua_plan *pl;
	int fields, helpers, pins;
};

static int emit(struct compiler *c, struct pnode node)
{
	if (c->pl->count == MAX_NODES) {
		return -1;
	}
	c->pl->n[c->pl->count] = node;
	return c->pl->count++;
}

/* The field id of name node @x, or -1 (pushes nothing). */
static int field_id(struct compiler *c, const struct anode *x)
{
	lua_pushlstring(c->L, x->start, (size_t)(x->end - x->start));
	int id = lua_rawget(c->L, c->fields) == LUA_TNUMBER ? (int)lua_tointeger(c->L, -1) : -1;
	lua_pop(c->L, 1);
	return id;
}

/*
 * Whether @x is numbers only: numerals, numeric helpers that are no fields,
 * and the arithmetic and bitwise operators over them.
 */
static bool numeric_constant(struct compiler *c, int x)
{
	const struct anode *a = &c->ps->n[x];
	switch (a->kind) {
	case A_NUMBER: return true;
	case A_NAME: {
		if (field_id(c, a) >= 0) {
			return false;
		}
		lua_pushlstring(c->L, a->start, (size_t)(a->end - a->start));
		bool number = lua_rawget(c->L, c->helpers) == LUA_TNUMBER;
		lua_pop(c->L, 1);
		return number;
	}
	case A_UNARY: return (a->op == OP_NEG || a->op == OP_BNOT) && numeric_constant(c, a->a);
	case A_BINARY:
		return a->op >= OP_ADD && a->op <= OP_SHR && numeric_constant(c, a->a) && numeric_constant(c, a->b);
	default: return false;
	}
}

/*
 * The value of the constant @x, computed by Lua over the helpers, as a
 * P_CONST node; -1 if evaluating it raises (1//0...).
 */
static int constant(struct compiler *c, int x)
{
	lua_State *L = c->L;
	const struct anode *a = &c->ps->n[x];
	struct pnode node = {.kind = P_CONST};
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	luaL_addstring(&b, "return (");
	luaL_addlstring(&b, a->start, (size_t)(a->end - a->start));
	luaL_addstring(&b, "\n)");
	luaL_pushresult(&b);
	size_t len;
	const char *code = lua_tolstring(L, -1, &len);
	if (luaL_loadbufferx(L, code, len, "=-lua", "t") != LUA_OK) {
		lua_pop(L, 2);
		return -1;
	}
	lua_remove(L, -2);
	lua_pushvalue(L, c->helpers);
	lua_setupvalue(L, -2, 1); /* its _ENV: the helpers */
	if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
		lua_pop(L, 1);
		return -1;
	}
	switch (lua_type(L, -1)) {
	case LUA_TNIL: node.type = V_NIL; break;
	case LUA_TBOOLEAN:
		node.type = V_BOOL;
		node.i = lua_toboolean(L, -1);
		break;
	case LUA_TNUMBER: {
		if (lua_isinteger(L, -1)) {
			node.type = V_INT;
			node.i = lua_tointeger(L, -1);
			break;
		}
		/*
		 * Lua compares an integer with a float exactly: a float with an
		 * integer's value is that integer; any other float has no plan
		 * in a comparison (its truth is all it may give).
		 */
		lua_Number f = lua_tonumber(L, -1);
		if (lua_numbertointeger(f, &node.i) && (lua_Number)node.i == f) {
			node.type = V_INT;
		} else {
			node.type = V_FLOAT;
		}
		break;
	}
	case LUA_TSTRING:
		node.type = V_STR;
		node.s = lua_tolstring(L, -1, &node.len);
		lua_rawseti(L, c->pins, (lua_Integer)lua_rawlen(L, c->pins) + 1); /* pinned */
		return emit(c, node);
	default: lua_pop(L, 1); return -1;
	}
	lua_pop(L, 1);
	return emit(c, node);
}

static bool is_value(const struct pnode *n)
{
	return n->kind == P_CONST || n->kind == P_FIELD;
}

static bool is_int(enum vtype t)
{
	return t == V_INT || t == V_INT_OR_NIL;
}

/* The plan node of syntax node @x, or -1 if it has none. */
static int lower(struct compiler *c, int x)
{
	const struct anode *a = &c->ps->n[x];
	if (numeric_constant(c, x) || a->kind == A_STRING) {
		return constant(c, x);
	}
	switch (a->kind) {
	case A_NIL: return emit(c, (struct pnode){.kind = P_CONST, .type = V_NIL});
	case A_TRUE:
	case A_FALSE: return emit(c, (struct pnode){.kind = P_CONST, .type = V_BOOL, .i = a->kind == A_TRUE});
	case A_NAME: {
		int id = field_id(c, a);
		if (id < 0 || field_type(id) == V_NIL) {
			return -1; /* a global, a helper that is not a number, e, user... */
		}
		return emit(c, (struct pnode){.kind = P_FIELD, .type = field_type(id), .a = id});
	}
	case A_UNARY: {
		if (a->op != OP_NOT) {
			return -1;
		}
		int l = lower(c, a->a);
		return l < 0 ? -1 : emit(c, (struct pnode){.kind = P_NOT, .a = l});
	}
	case A_BINARY: break;
	default: return -1;
	}
	int l = lower(c, a->a);
	int r = l < 0 ? -1 : lower(c, a->b);
	if (r < 0) {
		return -1;
	}
	if (a->op == OP_AND || a->op == OP_OR) {
		return emit(c, (struct pnode){.kind = a->op == OP_AND ? P_AND : P_OR, .a = l, .b = r});
	}
	if (a->op < OP_EQ || a->op > OP_GE) {
		return -1; /* arithmetic or concatenation with a field */
	}
	const struct pnode *pl = &c->pl->n[l], *pr = &c->pl->n[r];
	if (!is_value(pl) || !is_value(pr)) {
		return -1; /* "(a < b) == c" */
	}
	bool ints = is_int(pl->type) && is_int(pr->type);
	bool eq = (a->op == OP_EQ || a->op == OP_NE) && !(pl->type == V_FLOAT && pr->type == V_FLOAT);
	if (!ints && !eq) {
		return -1; /* ordered: strings (strcoll), mixed types, a fraction, nil */
	}
	return emit(c, (struct pnode){.kind = P_CMP, .op = a->op, .a = l, .b = r});
}

struct compile_args {
	const char *expr;
	struct lf_lua_plan *pl;
};

/* Arguments: the compile_args, the field ids, the helpers. */
static int compile_protected(lua_State *L)
{
	struct compile_args *args = lua_touserdata(L, 1);
	struct parser *ps = lua_newuserdatauv(L, sizeof(*ps), 0); /* scratch, collected */
	memset(ps, 0, sizeof(*ps));
	ps->lx.p = args->expr;
	next(&ps->lx);
	int root = subexpr(ps, 0);
	if (root < 0 || ps->lx.t != TK_END) {
		return 0;
	}
	struct lf_lua_plan *pl = lua_newuserdatauv(L, sizeof(*pl) + MAX_NODES * sizeof(pl->n[0]), 1);
	pl->count = 0;
	int plan = lua_gettop(L);
	lua_newtable(L); /* the strings the plan points into */
	lua_pushvalue(L, -1);
	lua_setiuservalue(L, plan, 1);
	struct compiler c = {L, ps, pl, 2, 3, lua_gettop(L)};
	pl->root = lower(&c, root);
	if (pl->root < 0) {
		return 0;
	}
	args->pl = pl;
	lua_settop(L, plan);
	return 1;
}

struct lf_lua_plan *lf_lua_plan_compile(lua_State *L, const char *expr, int fields, int helpers)
{
	struct compile_args args = {expr, NULL};
	int base = lua_gettop(L);
	fields = lua_absindex(L, fields);
	helpers = lua_absindex(L, helpers);
	if (!lua_checkstack(L, 8)) {
		return NULL;
	}
	lua_pushcfunction(L, compile_protected);
	lua_pushlightuserdata(L, &args);
	lua_pushvalue(L, fields);
	lua_pushvalue(L, helpers);
	if (lua_pcall(L, 3, 1, 0) != LUA_OK || !args.pl) {
		lua_settop(L, base);
		return NULL;
	}
	return args.pl;
}

/* ---- evaluation ---------------------------------------------------------- */

/* Read value node @n for @e into @v: 0, or -2 if its stat failed. */
static int read_value(const struct pnode *n, struct lf_entry *e, struct value *v)
{
	if (n->kind == P_CONST) {
		v->type = n->type;
		v->i = n->i;
		v->s = n->s;
		v->len = n->len;
		return 0;
	}
	v->type = n->type == V_STR ? V_STR : V_INT;
	switch (n->a) {
	case LFB_F_NAME: v->s = lf_entry_name(e, &v->len); return 0;
	case LFB_F_PATH:
		v->s = e->path;
		v->len = e->pathlen;
		return 0;
	case LFB_F_TYPE:
		v->s = lfb_type_letter(e);
		v->len = 1;
		return 0;
	case LFB_F_VISIT:
		v->s = e->visit == LF_VISIT_PRE ? "pre" : e->visit == LF_VISIT_POST ? "post" : "error";
		v->len = strlen(v->s);
		return 0;
	case LFB_F_DEPTH: v->i = e->depth; return 0;
	case LFB_F_INO: v->i = (lua_Integer)e->ino; return 0;
	case LFB_F_ROOT: v->i = (lua_Integer)e->root + 1; return 0;
	default: break;
	}
	/* entry.c's lfb_push_field */
	const struct lf_stat *st = e->visit == LF_VISIT_ERROR ? NULL : lf_entry_stat(e, LF_FOLLOW_WALK);
	if (!st) {
		return -2;
	}
	if (!lfb_stat_integer(st, n->a, &v->i)) {
		v->type = V_NIL;
	}
	return 0;
}

/*
 * Lua's == of two values: of different types false (a float here never has
 * an integer's value), else raw equality (no metamethods for these types).
 */
static bool equal(const struct value *l, const struct value *r)
{
	if (l->type != r->type) {
		return false;
	}
	switch (l->type) {
	case V_NIL: return true;
	case V_STR: return l->len == r->len && memcmp(l->s, r->s, l->len) == 0;
	default: return l->i == r->i; /* V_BOOL, V_INT (V_FLOAT == V_FLOAT has no plan) */
	}
}

static int compare(enum op op, const struct value *l, const struct value *r)
{
	if (op == OP_EQ || op == OP_NE) {
		return equal(l, r) == (op == OP_EQ);
	}
	if (l->type != V_INT || r->type != V_INT) {
		return LF_LUA_PLAN_LUA; /* a nil btime: "attempt to compare nil with number" */
	}
	switch (op) {
	case OP_LT: return l->i < r->i;
	case OP_LE: return l->i <= r->i;
	case OP_GT: return l->i > r->i;
	default: return l->i >= r->i; /* OP_GE */
	}
}

/* The truth of node @i: 1, 0, -2 (a stat failed) or LF_LUA_PLAN_LUA. */
static int truth(const struct lf_lua_plan *pl, int i, struct lf_entry *e)
{
	const struct pnode *n = &pl->n[i];
	struct value l, r;
	int t;
	switch (n->kind) {
	case P_CONST: return n->type != V_NIL && !(n->type == V_BOOL && !n->i);
	case P_FIELD:
		t = read_value(n, e, &l);
		return t < 0 ? t : l.type != V_NIL;
	case P_NOT:
		t = truth(pl, n->a, e);
		return t < 0 ? t : !t;
	case P_AND:
		t = truth(pl, n->a, e);
		return t <= 0 ? t : truth(pl, n->b, e);
	case P_OR:
		t = truth(pl, n->a, e);
		return t != 0 ? t : truth(pl, n->b, e);
	case P_CMP:
		if ((t = read_value(&pl->n[n->a], e, &l)) < 0 || (t = read_value(&pl->n[n->b], e, &r)) < 0) {
			return t;
		}
		return compare(n->op, &l, &r);
	}
	return LF_LUA_PLAN_LUA;
}

int lf_lua_plan_eval(const struct lf_lua_plan *pl, struct lf_entry *e)
{
	return truth(pl, pl->root, e);
}
