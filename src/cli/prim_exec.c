/*
 * prim_exec.c: find's command actions (-exec, -execdir, -ok, -okdir).
 */
#include "primary.h"

const struct lf_primary lf_prims_exec[] = {
	{NULL, 0, 0, NULL, NULL, false},
};
