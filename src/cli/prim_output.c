/*
 * prim_output.c: find's output actions (-printf, -fprintf, -ls, -fls, -fprint, -fprint0).
 */
#include "primary.h"

const struct lf_primary lf_prims_output[] = {
	{NULL, 0, 0, NULL, NULL, false},
};
