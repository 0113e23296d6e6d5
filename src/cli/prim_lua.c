/*
 * prim_lua.c: the -lua primary, a Lua expression evaluated per entry.
 */
#include "primary.h"

const struct lf_primary lf_prims_lua[] = {
	{NULL, 0, 0, NULL, NULL, false},
};
