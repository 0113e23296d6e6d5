/*
 * errno.c: luafind.errno, the system's errno values by their symbolic
 * names and back (lbind.h's lfb_push_errno), so that no script writes
 * Linux's numbers: lf.errno.ENOENT is 2 here, lf.errno[2] is "ENOENT".
 * Names the C library does not define are left out; where two names have
 * one value (EAGAIN and EWOULDBLOCK), the number maps back to the first.
 * luafind.strerror gives the system's message for a value.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lbind.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define E(name) {#name, name}

static const struct {
	char name[16];
	int value;
} names[] = {
	E(EPERM),     E(ENOENT),    E(ESRCH),        E(EINTR),     E(EIO),       E(ENXIO),
	E(E2BIG),     E(ENOEXEC),   E(EBADF),        E(ECHILD),    E(EAGAIN),    E(ENOMEM),
	E(EACCES),    E(EFAULT),    E(EBUSY),        E(EEXIST),    E(EXDEV),     E(ENODEV),
	E(ENOTDIR),   E(EISDIR),    E(EINVAL),       E(ENFILE),    E(EMFILE),    E(ENOTTY),
	E(ETXTBSY),   E(EFBIG),     E(ENOSPC),       E(ESPIPE),    E(EROFS),     E(EMLINK),
	E(EPIPE),     E(EDOM),      E(ERANGE),       E(EDEADLK),   E(ENAMETOOLONG), E(ENOLCK),
	E(ENOSYS),    E(ENOTEMPTY), E(ELOOP),        E(ENODATA),   E(ENOLINK),   E(EOVERFLOW),
	E(EILSEQ),    E(ENOTSUP),   E(EOPNOTSUPP),   E(ETIMEDOUT), E(ECANCELED), E(ESTALE),
	E(EDQUOT),    E(ENOTCONN),  E(ECONNREFUSED), E(EWOULDBLOCK), E(EREMOTEIO), E(EMEDIUMTYPE),
};

void lfb_push_errno(lua_State *L)
{
	size_t n = sizeof(names) / sizeof(names[0]);
	lua_createtable(L, (int)n, (int)n);
	for (size_t i = 0; i < n; i++) {
		lua_pushinteger(L, names[i].value);
		lua_setfield(L, -2, names[i].name);
		if (lua_rawgeti(L, -1, names[i].value) == LUA_TNIL) {
			lua_pop(L, 1);
			lua_pushstring(L, names[i].name);
			lua_rawseti(L, -2, names[i].value);
		} else {
			lua_pop(L, 1);
		}
	}
}

const char *lfb_errno_name(int err)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].value == err) {
			return names[i].name;
		}
	}
	return NULL;
}

/* luafind.strerror(errno) -> the system's message for it ("No such file or directory") */
int lfb_strerror(lua_State *L)
{
	lua_Integer err = luaL_checkinteger(L, 1);
	luaL_argcheck(L, err >= 0 && err <= INT32_MAX, 1, "not an errno value");
	char buf[256];
	/* The GNU strerror_r: the message may be a static string, not buf. */
	lua_pushstring(L, strerror_r((int)err, buf, sizeof(buf)));
	return 1;
}
