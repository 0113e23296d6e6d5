#!/bin/sh
# symbols.sh: luafind/core.so is never linked against liblua and exports
# luaopen_luafind_core and nothing else (STYLE 3.9, 3.10).
set -eu
so=${1:?usage: symbols.sh CORE_SO}
if ldd "$so" | grep -i 'liblua'; then
	echo "FAIL: $so is linked against liblua" >&2
	exit 1
fi
if readelf -d "$so" | grep NEEDED | grep -i lua; then
	echo "FAIL: $so needs a Lua library" >&2
	exit 1
fi
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort)
if [ "$exported" != "luaopen_luafind_core" ]; then
	echo "FAIL: $so exports more than luaopen_luafind_core:" >&2
	echo "$exported" >&2
	exit 1
fi
undefined=$(nm -D --undefined-only "$so" | awk '{ print $2 }' | grep -c '^lua' || true)
echo "ok: $so needs no liblua, exports luaopen_luafind_core only, $undefined Lua symbols from the host"
