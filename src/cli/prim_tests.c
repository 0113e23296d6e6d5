/*
 * prim_tests.c: find's tests (-name, -type, ...): parse functions, evaluation
 * functions and their table.  Tests that need stat data ask the core for it
 * (lf_entry_stat, cached per entry) only when evaluation reaches them.
 */
#include "diag.h"
#include "expr.h"
#include "parse.h"
#include "primary.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* ---- -name ------------------------------------------------------------ */

static struct lf_expr *parse_name(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->str = args[0];
		if (strchr(args[0], '/') && strcmp(args[0], "/") != 0 && lf_parser_warn(p)) {
			lf_diag_warn("'%s' matches against basenames only, but the given pattern contains a "
				     "directory separator ('/'), thus the expression will evaluate to false all "
				     "the time.  Did you mean '-wholename'?",
				     prim->name);
		}
	}
	return x;
}

/* ---- -type ------------------------------------------------------------ */

/* -type f,d,l: a set of enum lf_type bits. */
static struct lf_expr *parse_type(struct lf_parser *p, const struct lf_primary *prim, char **args)
{
	static const char letters[] = "fdlpscb";
	static const enum lf_type types[] = {LF_REG, LF_DIR, LF_LNK, LF_FIFO, LF_SOCK, LF_CHR, LF_BLK};
	const char *a = args[0];
	unsigned mask = 0;
	for (size_t i = 0;; i += 2) {
		const char *l = a[i] ? strchr(letters, a[i]) : NULL;
		if (!l) {
			lf_parse_error(p, 1, "Unknown argument to %s: %c", prim->name, a[i] ? a[i] : ' ');
			return NULL;
		}
		unsigned bit = 1u << types[l - letters];
		if (mask & bit) {
			lf_parse_error(p, 1, "Duplicate file type '%c' in the argument list to %s.", a[i], prim->name);
			return NULL;
		}
		mask |= bit;
		if (a[i + 1] == '\0') {
			break;
		}
		if (a[i + 1] != ',') {
			lf_parse_error(p, 1, "Must separate multiple arguments to %s using: ','", prim->name);
			return NULL;
		}
		if (a[i + 2] == '\0') {
			lf_parse_error(p, 1,
				       "Last file type in list argument to %s is missing, i.e., list is ending on: ','",
				       prim->name);
			return NULL;
		}
	}
	struct lf_expr *x = lf_parse_node(p, prim);
	if (x) {
		x->mask = mask;
	}
	return x;
}

const struct lf_primary lf_prims_tests[] = {
	{"-name", LF_PRIM_TEST, 1, parse_name, lf_eval_name, false},
	{"-type", LF_PRIM_TEST, 1, parse_type, lf_eval_type, false},
	{NULL, 0, 0, NULL, NULL, false},
};
