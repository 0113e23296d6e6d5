#!/bin/sh
# run.sh: embedding tests against an installed luafind.
#
#	run.sh STEP BUILD WORK SRC LIBDIR CMODDIR LMODDIR LUA54 [CFLAGS]
#
# STEP is one of:
#   install  `cmake --install BUILD --prefix WORK/prefix` (a fresh prefix)
#   pkgconf  build tests/embed/{core,lua}_host.c with only
#            `pkg-config --cflags --libs luafind` and run them
#   stock    stock lua5.4 loads luafind from the prefix and walks
#   cmake    a CMake project using find_package(luafind), shared and static
#
# LIBDIR, CMODDIR and LMODDIR are relative to the prefix.  CFLAGS are added
# to every host build (the sanitizer flags in an instrumented build, whose
# library needs them); LUAFIND_TEST_PRELOAD then names the ASan runtime that
# stock lua5.4 must preload.
set -eu

step=$1 build=$2 work=$3 src=$4 libdir=$5 cmoddir=$6 lmoddir=$7 lua=$8
cflags=${9:-}
prefix=$work/prefix
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
export LD_LIBRARY_PATH="$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# A fresh tree DIR/a/x.c DIR/a/y.c DIR/b/z.txt.
tree() {
	rm -rf "$1"
	mkdir -p "$1/a" "$1/b"
	printf hello > "$1/a/x.c"
	printf bye > "$1/a/y.c"
	printf z > "$1/b/z.txt"
}

case $step in
install)
	rm -rf "$prefix"
	cmake --install "$build" --prefix "$prefix" >"$work/install.log"
	for f in "$libdir/libluafind.a" "$libdir/libluafind.so" "$libdir/pkgconfig/luafind.pc" \
		 include/luafind/luafind.h include/luafind/walk.h include/luafind/stat.h \
		 "$cmoddir/luafind/core.so" "$lmoddir/luafind/init.lua" \
		 "$libdir/cmake/luafind/luafindConfig.cmake" \
		 "$libdir/cmake/luafind/luafindConfigVersion.cmake" \
		 share/man/man3/luafind.3 share/man/man3/luafind-lua.3; do
		[ -e "$prefix/$f" ] || fail "not installed: $f"
	done
	grep -qx "prefix=$prefix" "$prefix/$libdir/pkgconfig/luafind.pc" ||
		fail "luafind.pc does not name the install prefix"
	if readelf -d "$prefix/$libdir/libluafind.so" | grep NEEDED | grep -qi lua; then
		fail "libluafind.so is linked against liblua"
	fi
	extra=$(nm -D --defined-only "$prefix/$libdir/libluafind.so" |
		awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^(lf_(walk|entry|stat)_|lf_type_from_mode$|luaopen_luafind_core$)/ { print $3 }')
	[ -z "$extra" ] || fail "libluafind.so exports more than its API: $extra"
	echo "ok: installed into $prefix"
	;;
pkgconf)
	flags=$(pkg-config --cflags --libs luafind) || fail "pkg-config luafind"
	echo "pkg-config --cflags --libs luafind: $flags"
	# shellcheck disable=SC2086
	cc $cflags -o "$work/core_host" "$src/tests/embed/core_host.c" $flags
	# shellcheck disable=SC2086
	cc $cflags -o "$work/lua_host" "$src/tests/embed/lua_host.c" $flags
	tree "$work/tree1"
	"$work/core_host" "$work/tree1"
	[ ! -e "$work/tree1/b/z.txt" ] || fail "core_host did not delete b/z.txt"
	tree "$work/tree2"
	"$work/lua_host" "$work/tree2" "$prefix/$lmoddir"
	ldd "$work/lua_host" | grep -q "$prefix/$libdir/libluafind.so" || fail "not linked against the installed libluafind.so"
	# Static: pkg-config --static, libluafind.a only.
	sflags=$(pkg-config --cflags luafind)
	slibs=$(pkg-config --libs --static luafind | sed 's/-lluafind/-l:libluafind.a/')
	# shellcheck disable=SC2086
	cc $cflags -o "$work/lua_host_static" "$src/tests/embed/lua_host.c" $sflags $slibs
	if ldd "$work/lua_host_static" | grep -q libluafind; then
		fail "the static host needs libluafind.so"
	fi
	tree "$work/tree3"
	"$work/lua_host_static" "$work/tree3"
	;;
stock)
	tree "$work/tree4"
	out=$(cd "$work/tree4" &&
		LD_PRELOAD=${LUAFIND_TEST_PRELOAD:-} ASAN_OPTIONS=detect_leaks=0 \
		LUA_PATH="$prefix/$lmoddir/?.lua;$prefix/$lmoddir/?/init.lua" \
		LUA_CPATH="$prefix/$cmoddir/?.so" \
		"$lua" -e 'for e in require("luafind").walk(".") do end
			local n = 0
			for e in require("luafind").walk(".") do n = n + 1 end
			print(n, package.searchpath("luafind", package.path), package.searchpath("luafind.core", package.cpath))')
	[ "$out" = "$(printf '6\t%s\t%s' "$prefix/$lmoddir/luafind/init.lua" "$prefix/$cmoddir/luafind/core.so")" ] ||
		fail "stock lua5.4: $out"
	echo "ok: stock $lua walks with the installed module: $out"
	;;
cmake)
	rm -rf "$work/cmake-build"
	cmake -S "$src/tests/embed/cmake" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_C_FLAGS="$cflags" -DCMAKE_BUILD_TYPE=Debug >"$work/cmake.log" ||
		{ cat "$work/cmake.log"; fail "configure"; }
	cmake --build "$work/cmake-build" >>"$work/cmake.log" 2>&1 ||
		{ cat "$work/cmake.log"; fail "build"; }
	for h in core_host core_host_static; do
		tree "$work/tree5"
		"$work/cmake-build/$h" "$work/tree5"
	done
	for h in lua_host lua_host_static; do
		tree "$work/tree6"
		"$work/cmake-build/$h" "$work/tree6" "$prefix/$lmoddir"
	done
	ldd "$work/cmake-build/core_host" | grep -q "$prefix/$libdir/libluafind.so" ||
		fail "luafind::luafind is not the installed libluafind.so"
	echo "ok: find_package(luafind) with luafind::luafind and luafind::luafind_static"
	;;
*)
	fail "unknown step $step"
	;;
esac
