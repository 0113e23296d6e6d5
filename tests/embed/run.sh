#!/bin/sh
# run.sh: embedding tests against an installed luafind.
#
#	run.sh STEP BUILD WORK SRC LIBDIR CMODDIR LMODDIR LUA54 [CFLAGS]
#
# STEP is one of:
#   install  `cmake --install BUILD --prefix WORK/prefix` (a fresh prefix)
#   pkgconf  build tests/embed/{core,lua}_host.c with only
#            `pkg-config --cflags --libs luafind` (core_host with
#            luafind-core too), shared and static, and run them
#   stock    stock lua5.4 loads luafind from the prefix and walks
#   cmake    a CMake project using find_package(luafind) and luafind::lua,
#            shared and static (tests/embed/cmake)
#   core     a plain C host project using find_package(luafind) and
#            luafind::core with Lua 5.4 hidden from pkg-config: it
#            configures, builds, runs, and compiles with no Lua include
#            directory; asking for the lua component fails (tests/embed/core)
#   subdir   the same host doing add_subdirectory() of the source tree:
#            luafind::core builds, and luafind adds no test and no install
#            rule to the host's
#   symbols  every function declared in the installed headers is exported by
#            libluafind.so, and nothing else is; those of the core's headers
#            (all but luafind.h) by libluafind-core.so
#   headers  the installed headers compile as C99, C11 and C++17, each
#            alone, and link a call (the core's against libluafind-core
#            without Lua)
#   query    a host compiling find expressions through the C API prints what
#            `luafind TREE EXPR` prints, for a dozen expressions
#   records  a host describing files it lists itself as records
#            (tests/embed/records_host.c, lf_query_eval_record) prints what
#            `luafind TREE EXPR` prints, for a score of expressions on a
#            generated tree, with stat data and without
#   bridge   a host walking in C hands entries to users' Lua rules through
#            lf_lua_push_entry: lazy (no stat for a name rule, one per entry
#            for a size rule), stale after the walk moves on, SIGINT cancels
#   threads  two Lua states in two threads running luafind.find -printf
#            '%u %g %F %p' print what one thread prints (run it in a
#            -fsanitize=thread build to have ThreadSanitizer check it too)
#   relocate an install moved elsewhere, and a DESTDIR-staged one, run
#            --list-scripts, --run du and a --script requiring luafind
#   cleanup  remove WORK, unless a step failed (each failing step leaves
#            WORK/FAILED.STEP): then WORK is kept and named
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

# A failing step marks WORK for the cleanup step to keep.
if [ "$step" != cleanup ]; then
	mkdir -p "$work"
	# shellcheck disable=SC2154 # _lf_rc is set inside the trap
	trap '_lf_rc=$?; [ $_lf_rc -eq 0 ] || : >"$work/FAILED.$step"; exit $_lf_rc' EXIT
fi

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
	rm -rf "$prefix" "$work"/FAILED.*
	cmake --install "$build" --prefix "$prefix" >"$work/install.log"
	for f in "$libdir/libluafind.a" "$libdir/libluafind.so" "$libdir/pkgconfig/luafind.pc" \
		 "$libdir/libluafind-core.a" "$libdir/libluafind-core.so" "$libdir/pkgconfig/luafind-core.pc" \
		 include/luafind/luafind.h include/luafind/walk.h include/luafind/stat.h \
		 include/luafind/mem.h include/luafind/isolate.h include/luafind/query.h include/luafind/error.h \
		 "$cmoddir/luafind/core.so" "$lmoddir/luafind/init.lua" \
		 "$libdir/cmake/luafind/luafindConfig.cmake" \
		 "$libdir/cmake/luafind/luafindConfigVersion.cmake" \
		 share/man/man3/luafind.3 share/man/man3/luafind-lua.3; do
		[ -e "$prefix/$f" ] || fail "not installed: $f"
	done
	# Relocatable: the prefix from the .pc file's own place, which
	# pkg-config resolves to the install prefix.
	grep -qx 'prefix=${pcfiledir}/\.\./\.\.' "$prefix/$libdir/pkgconfig/luafind.pc" ||
		fail "luafind.pc: not relative to its place: $(grep '^prefix=' "$prefix/$libdir/pkgconfig/luafind.pc")"
	[ "$(cd "$(pkg-config --variable=prefix luafind)" && pwd -P)" = "$(cd "$prefix" && pwd -P)" ] ||
		fail "luafind.pc: the prefix is $(pkg-config --variable=prefix luafind), not $prefix"
	for lib in libluafind.so libluafind-core.so; do
		if readelf -d "$prefix/$libdir/$lib" | grep NEEDED | grep -qi '\[liblua'; then
			fail "$lib is linked against liblua"
		fi
	done
	if nm -D -u "$prefix/$libdir/libluafind-core.so" | grep -q ' lua'; then
		fail "libluafind-core.so calls Lua: $(nm -D -u "$prefix/$libdir/libluafind-core.so" | grep ' lua' | head -3)"
	fi
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
	# The core alone: luafind-core.pc, shared and static, no Lua.
	flags=$(pkg-config --cflags --libs luafind-core) || fail "pkg-config luafind-core"
	case " $flags " in *lua5*) fail "pkg-config luafind-core names Lua: $flags" ;; esac
	# shellcheck disable=SC2086
	cc $cflags -o "$work/core_host_core" "$src/tests/embed/core_host.c" $flags
	slibs=$(pkg-config --libs --static luafind-core | sed 's/-lluafind-core/-l:libluafind-core.a/')
	# shellcheck disable=SC2086
	cc $cflags -o "$work/core_host_core_static" "$src/tests/embed/core_host.c" $sflags $slibs
	ldd "$work/core_host_core" | grep -q "$prefix/$libdir/libluafind-core.so" ||
		fail "not linked against the installed libluafind-core.so"
	if ldd "$work/core_host_core_static" | grep -q libluafind; then
		fail "the static core host needs a libluafind*.so"
	fi
	for h in core_host_core core_host_core_static; do
		if ldd "$work/$h" | grep -Eq 'liblua([0-9.-]|\.so)'; then
			fail "$h needs liblua"
		fi
		tree "$work/tree7"
		"$work/$h" "$work/tree7"
	done
	# luafind(3)'s link lines, as printed (LINKING): each builds a host that
	# runs, the core's core_host.c, libluafind's lua_host.c.
	sed -n '/^\.SH LINKING/,/^\.SH EXAMPLE/p' "$src/man/luafind.3" | sed 's/\\-/-/g' |
		awk '{ if (sub(/ *\\e$/, " ")) { acc = acc $0; next } print acc $0; acc = "" }' |
		grep '^cc host\.c ' >"$work/man-lines" || :
	[ "$(wc -l <"$work/man-lines")" -ge 4 ] || fail "luafind(3) LINKING: $(wc -l <"$work/man-lines") link lines"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		host=lua_host
		case $line in *luafind-core*) host=core_host ;; esac
		eval "cc $cflags -o \"\$work/man\$n\" \"\$src/tests/embed/\$host.c\" ${line#cc host.c }" ||
			fail "luafind(3)'s link line does not link: $line"
		tree "$work/tree9"
		"$work/man$n" "$work/tree9" || fail "$host built by luafind(3)'s line: $line"
	done <"$work/man-lines"
	echo "ok: luafind(3)'s $n link lines build hosts that run"
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
	echo "ok: find_package(luafind) with luafind::lua, luafind::lua_static and their aliases"
	;;
core)
	# pkg-config finds what the static core links (PCRE2...), never Lua.
	pc=$work/core-pc
	rm -rf "$pc" "$work/core-build" "$work/core-build-lua"
	mkdir -p "$pc"
	for m in libpcre2-8 libacl libcap liburing libseccomp; do
		d=$(pkg-config --variable=pcfiledir $m 2>/dev/null) && ln -s "$d/$m.pc" "$pc/$m.pc"
	done
	if PKG_CONFIG_LIBDIR=$pc PKG_CONFIG_PATH=$pc pkg-config --exists lua5.4 lua-5.4 lua54; then
		fail "Lua is not hidden from pkg-config"
	fi
	tree "$work/tree8"
	PKG_CONFIG_LIBDIR=$pc PKG_CONFIG_PATH=$pc cmake -S "$src/tests/embed/core" -B "$work/core-build" \
		-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="$cflags" -DCMAKE_BUILD_TYPE=Debug \
		-DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DLUAFIND_EXPECT_LUA=OFF -DLUAFIND_TEST_TREE="$work/tree8" \
		>"$work/core.log" 2>&1 || { cat "$work/core.log"; fail "configure without Lua"; }
	cmake --build "$work/core-build" >>"$work/core.log" 2>&1 || { cat "$work/core.log"; fail "build"; }
	# No Lua include directory in any compile command.
	cc_json=$work/core-build/compile_commands.json
	[ -s "$cc_json" ] || fail "no $cc_json"
	luainc=$(pkg-config --cflags-only-I lua5.4 2>/dev/null || :)
	for i in $luainc; do
		if grep -qF -- "$i" "$cc_json"; then
			fail "a Lua include directory ($i) in $cc_json"
		fi
	done
	if grep -q '/lua5\.4\|/lua-5\.4\|/lua54' "$cc_json"; then
		fail "Lua in $cc_json: $(grep -o '[^ ]*lua5[^ ]*' "$cc_json" | head -1)"
	fi
	(cd "$work/core-build" && ctest --output-on-failure >>"$work/core.log" 2>&1) ||
		{ cat "$work/core.log"; fail "core_host (luafind::core)"; }
	tree "$work/tree8"
	"$work/core-build/core_host_static" "$work/tree8"
	out=$("$work/core-build/query_host" "$work/tree8" -name '*.c' | sort)
	[ "$out" = "$(printf '%s\n' "$work/tree8/a/x.c" "$work/tree8/a/y.c")" ] || fail "query_host: $out"
	for h in core_host core_host_static query_host; do
		if ldd "$work/core-build/$h" | grep -Eq 'liblua([0-9.-]|\.so)'; then
			fail "$h needs liblua"
		fi
	done
	ldd "$work/core-build/core_host" | grep -q "$prefix/$libdir/libluafind-core.so" ||
		fail "luafind::core is not the installed libluafind-core.so"
	# Asking for luafind::lua without Lua fails, and says why.
	if PKG_CONFIG_LIBDIR=$pc PKG_CONFIG_PATH=$pc cmake -S "$src/tests/embed/core" -B "$work/core-build-lua" \
		-DCMAKE_PREFIX_PATH="$prefix" -DLUAFIND_COMPONENTS=lua >"$work/core-lua.log" 2>&1; then
		fail "find_package(luafind COMPONENTS lua) succeeded without Lua"
	fi
	grep -q "luafind::lua needs Lua 5.4" "$work/core-lua.log" || { cat "$work/core-lua.log"; fail "no reason given"; }
	rm -rf "$pc" "$work/core-build" "$work/core-build-lua"
	echo "ok: find_package(luafind) and luafind::core without Lua: built, ran, no Lua include directory"
	;;
subdir)
	# add_subdirectory() of the source tree (a build of its own, -O0).
	s=$work/subdir
	rm -rf "$s"
	mkdir -p "$s"
	tree "$s/tree"
	# The host runs the library built here (its RUNPATH), not the installed
	# one that LD_LIBRARY_PATH names for the other steps.
	unset LD_LIBRARY_PATH
	cmake -S "$src/tests/embed/core" -B "$s/build" -DLUAFIND_SOURCE_DIR="$src" -DLUAFIND_EXPECT_LUA=ON \
		-DLUAFIND_TEST_TREE="$s/tree" >"$s/log" 2>&1 || { cat "$s/log"; fail "configure"; }
	cmake --build "$s/build" -j 2 >>"$s/log" 2>&1 || { cat "$s/log"; fail "build"; }
	# The host's tests alone, and its build type its own.
	tests=$(cd "$s/build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')
	[ "$tests" = host.core ] || fail "the host's ctest lists: $tests"
	grep -q '^CMAKE_BUILD_TYPE:STRING=.' "$s/build/CMakeCache.txt" && fail "luafind set the host's CMAKE_BUILD_TYPE"
	(cd "$s/build" && ctest --output-on-failure >>"$s/log" 2>&1) || { cat "$s/log"; fail "core_host (luafind::core)"; }
	tree "$s/tree"
	"$s/build/core_host_static" "$s/tree"
	# No install rule of luafind's: its install script installs nothing.
	inst=$s/build/luafind/cmake_install.cmake
	[ -f "$inst" ] || fail "no $inst"
	if grep -q 'file(INSTALL' "$inst"; then
		fail "luafind has install rules in the host's build: $(grep -o 'DESTINATION "[^"]*"' "$inst" | head -3)"
	fi
	rm -rf "$s"
	echo "ok: add_subdirectory(luafind): luafind::core built and ran, no test or install rule of luafind's"
	;;
symbols)
	inc=$prefix/include/luafind
	# Function declarations of the installed headers: a name followed by
	# "(" on a line that starts a declaration (inline helpers excluded).
	# libluafind.so: all of them; libluafind-core.so: all but luafind.h's.
	for lib in luafind luafind-core; do
		headers=$(ls "$inc"/*.h)
		[ $lib = luafind ] || headers=$(ls "$inc"/*.h | grep -v '/luafind\.h$')
		# shellcheck disable=SC2086 # the headers' paths have no space
		grep -hv '^typedef\|^static inline' $headers |
			sed -n 's/^[A-Za-z_][A-Za-z0-9_ *]*[ *]\(l[a-z0-9_]*\)(.*/\1/p' | sort -u >"$work/declared.$lib"
		so=$prefix/$libdir/lib$lib.so
		nm -D --defined-only "$so" | awk '$2 ~ /^[TW]$/ { print $3 }' | sort -u >"$work/exported.$lib"
		[ -s "$work/declared.$lib" ] || fail "no declaration found in $inc"
		if ! cmp -s "$work/declared.$lib" "$work/exported.$lib"; then
			diff "$work/declared.$lib" "$work/exported.$lib" |
				sed 's/^</declared, not exported:/; s/^>/exported, not declared:/'
			fail "lib$lib.so does not export exactly its headers' functions"
		fi
		data=$(nm -D --defined-only "$so" | awk '$2 !~ /^[TWA]$/ { print $3 }')
		[ -z "$data" ] || fail "lib$lib.so exports data: $data"
		echo "ok: lib$lib.so exports the $(wc -l <"$work/declared.$lib") functions of its headers and nothing else"
	done
	grep -q '^lf_walk_open$' "$work/declared.luafind-core" && ! grep -q '^luaopen_' "$work/declared.luafind-core" ||
		fail "the core's headers: $(tr '\n' ' ' <"$work/declared.luafind-core")"
	;;
headers)
	printf '#include <luafind/luafind.h>\nint main(void) { return 0; }\n' >"$work/headers.c"
	cp "$work/headers.c" "$work/headers.cc"
	for std in c99 c11; do
		cc -std=$std -pedantic -Wall -Wextra -Werror -I"$prefix/include" $(pkg-config --cflags lua5.4) \
			-c -o "$work/headers.o" "$work/headers.c" || fail "the headers do not compile as $std"
	done
	command -v c++ >/dev/null 2>&1 || fail "no C++ compiler (g++) to check the headers with"
	c++ -std=c++17 -pedantic -Wall -Wextra -Werror -I"$prefix/include" \
		-c -o "$work/headers.o" "$work/headers.cc" || fail "the headers do not compile as C++17"
	echo "ok: <luafind/luafind.h> compiles as C99, C11 and C++17"
	# Each public header alone, as C99 and as C++17, with one of its calls
	# linked against the installed library: a header that needs another
	# included first, or lacks its extern "C", fails here.  The core's
	# headers with libluafind-core and no Lua at all, luafind.h with
	# libluafind and Lua.
	for h in "$prefix/include/luafind"/*.h; do
		name=$(basename "$h")
		lib=-lluafind-core
		lua_cflags=
		lua_libs=
		if [ "$name" = luafind.h ]; then
			lib=-lluafind
			lua_cflags=$(pkg-config --cflags lua5.4)
			lua_libs=$(pkg-config --libs lua5.4)
		fi
		case $name in
		walk.h) call='struct lf_walk_opts o = LF_WALK_OPTS_INIT; return lf_walk_open(&o) != 0;' ;;
		stat.h) call='struct lf_stat st; return lf_stat_fd(0, &st);' ;;
		query.h) call='struct lf_ctx *c = lf_ctx_new(); lf_ctx_free(c); return 0;' ;;
		error.h) call='lf_report_fn *fn = 0; return fn != 0;' ;;
		isolate.h) call='struct lf_isolate_result r; r.end = LF_ISOLATE_CPU; char b[8]; return lf_isolate_describe(&r, b, sizeof(b)) == 0;' ;;
		mem.h) call='return !lf_mem_charge(0, 1);' ;;
		luafind.h) call='return lf_sandbox_error_message(LF_SANDBOX_ERR_STEPS) == 0;' ;;
		*) fail "$name: a public header the headers step does not know (add a call for it)" ;;
		esac
		for lang in c99 c++17; do
			src_file=$work/alone.c
			compiler=cc
			if [ $lang = c++17 ]; then
				src_file=$work/alone.cc
				compiler=c++
			fi
			printf '#include <luafind/%s>\nint main(void) { %s }\n' "$name" "$call" >"$src_file"
			# shellcheck disable=SC2086 # pkg-config's words
			$compiler -std=$lang -pedantic -Wall -Wextra -Werror -Wno-missing-field-initializers \
				-I"$prefix/include" $lua_cflags -o "$work/alone" "$src_file" \
				-L"$prefix/$libdir" $lib $lua_libs ||
				fail "<luafind/$name> alone does not compile and link as $lang with $lib"
		done
	done
	echo "ok: each public header alone compiles and links a call as C99 and C++17 (the core's without Lua)"
	;;
query)
	flags=$(pkg-config --cflags --libs luafind) || fail "pkg-config luafind"
	# shellcheck disable=SC2086
	cc $cflags -o "$work/query_host" "$src/tests/embed/query_host.c" $flags
	tree "$work/qtree"
	mkdir -p "$work/qtree/a/empty" "$work/qtree/c/d"
	ln -s ../a "$work/qtree/c/link"
	touch -d "2001-01-01" "$work/qtree/a/x.c"
	n=0
	while IFS= read -r expr; do
		n=$((n + 1))
		eval "set -- $expr"
		# luafind takes -H/-L/-P before the paths; the C API in the expression.
		case $1 in
		-[HLP]) want=$(opt=$1 && shift && "$build/luafind" "$opt" "$work/qtree" "$@" 2>&1; echo "status $?") ;;
		*) want=$("$build/luafind" "$work/qtree" "$@" 2>&1; echo "status $?") ;;
		esac
		got=$("$work/query_host" "$work/qtree" "$@" 2>&1; echo "status $?")
		[ "$got" = "$want" ] || fail "query_host $expr:
--- luafind:
$want
--- query_host:
$got"
	done <<-'EXPRS'
		-true
		-name '*.c'
		-type d
		-size +0
		-maxdepth 1
		-mindepth 2 -type f
		-depth -name '*z*'
		-newer "$work/qtree/a/x.c" -o -name y.c
		! -name '*.c' -type f
		-name a -prune -o -type f
		-empty
		-regex '.*\.txt'
		-L -type f
		-H -type l
	EXPRS
	if out=$("$work/query_host" "$work/qtree" -nmae x 2>&1); then
		fail "query_host took -nmae"
	fi
	case $out in *"unknown predicate \`-nmae' (expression word 1)"*) ;; *) fail "usage error: $out" ;; esac
	echo "ok: the C API prints what luafind prints for $n expressions"
	;;
records)
	flags=$(pkg-config --cflags --libs luafind) || fail "pkg-config luafind"
	# shellcheck disable=SC2086
	cc $cflags -o "$work/records_host" "$src/tests/embed/records_host.c" $flags
	# A generated tree: three levels of directories, files of several
	# sizes, ages and modes, links to a file, a directory and nowhere.
	rt=$work/rtree
	rm -rf "$rt"
	for d in a b c; do
		for e in d e; do
			mkdir -p "$rt/$d/$e/f"
			for f in x.c y.h "z z.txt"; do
				printf '%*s' "$(( ${#d} * 700 + ${#f} * 100 ))" '' >"$rt/$d/$e/$f"
				printf 'k' >"$rt/$d/$e/f/$f"
			done
		done
	done
	mkdir -p "$rt/empty"
	: >"$rt/a/nothing"
	chmod 600 "$rt/a/d/x.c"
	chmod 755 "$rt/b/e/y.h"
	touch -d "2001-01-01" "$rt/c/d/x.c" "$rt/a/e"
	touch -d "2010-01-01" "$rt/ref"
	ln -s ../a/d/x.c "$rt/b/lnk"
	ln -s ../c "$rt/a/dlnk"
	ln -s nowhere "$rt/broken"
	n=0
	while IFS= read -r expr; do
		n=$((n + 1))
		eval "set -- $expr"
		# luafind takes -H/-L/-P before the paths, the C API in the expression.
		opt=
		case $1 in -[HLP]) opt=$1 && shift ;; esac
		# shellcheck disable=SC2086 # $opt is one word or none
		want=$({ "$build/luafind" $opt "$rt" "$@" 2>&1; echo "status $?"; } | sort)
		for mode in "" --unknown; do
			# shellcheck disable=SC2086
			got=$({ "$build/luafind" $opt "$rt" -print0 |
				"$work/records_host" $mode --root "$rt" - $opt "$@" 2>&1; echo "status $?"; } | sort)
			[ "$got" = "$want" ] || fail "records_host $mode $opt $expr:
--- luafind:
$want
--- records_host:
$got"
		done
	done <<-'EXPRS'
		-true
		-name '*.c'
		-iname 'Z*'
		-type d
		-type l -o -type f -empty
		-size +1k
		-size -2 -type f
		-maxdepth 1
		-mindepth 2 -type f -name '*.h'
		-newer "$rt/ref" -name x.c
		! -newer "$rt/ref"
		-perm -u=x -type f
		-perm 600
		-user "$(id -un)" -name '*.txt'
		-regex '.*/[ab]/d/.*'
		-path '*/e/*' -prune -o -name 'y*'
		-depth -type d -name '[de]'
		-empty
		-links +1 -type d
		-L -type f -name x.c
		-L -xtype l
		-printf '%H|%P|%d|%y|%s\n' -name '*.c'
		-name x.c -ls
		-name y.h -exec echo found {} +
	EXPRS
	if out=$("$build/luafind" "$rt" -print0 | "$work/records_host" --root "$rt" - -name x.c -delete 2>&1); then
		fail "records_host took -delete"
	fi
	case $out in *"-delete: not available on records"*) ;; *) fail "-delete: $out" ;; esac
	[ -e "$rt/a/d/x.c" ] || fail "-delete on records removed a file"
	rm -rf "$rt"
	echo "ok: records_host prints what luafind prints for $n expressions, with and without stat data"
	;;
bridge)
	flags=$(pkg-config --cflags --libs luafind) || fail "pkg-config luafind"
	# shellcheck disable=SC2086
	cc $cflags -o "$work/rules_host" "$src/tests/embed/rules_host.c" $flags
	tree "$work/btree"
	mkdir -p "$work/btree/c/d"
	printf 'return function(e) return e.name:match("%%.c$") ~= nil end\n' >"$work/name.lua"
	printf 'return function(e) return e.size > 3 and e.type == "f" end\n' >"$work/size.lua"
	out=$("$work/rules_host" -v "$work/name.lua" "$work/btree" 2>"$work/err") || fail "name rule: $(cat "$work/err")"
	[ "$out" = "$(printf '%s\n' "$work/btree/a/x.c" "$work/btree/a/y.c" | sort)" ] ||
		[ "$(echo "$out" | sort)" = "$(printf '%s\n' "$work/btree/a/x.c" "$work/btree/a/y.c")" ] ||
		fail "name rule selected: $out"
	grep -q "entries=8 stats=1 stats_follow=0" "$work/err" || fail "a name rule stats: $(cat "$work/err")"
	out=$("$work/rules_host" -v "$work/size.lua" "$work/btree" 2>"$work/err") || fail "size rule: $(cat "$work/err")"
	[ "$out" = "$work/btree/a/x.c" ] || fail "size rule selected: $out"
	grep -q "entries=8 stats=8 stats_follow=0" "$work/err" || fail "a size rule stats: $(cat "$work/err")"
	if command -v strace >/dev/null 2>&1; then
		# A rule that reads only the name and selects nothing (so stdio never
		# stats standard output): the whole tree costs what an empty one does.
		mkdir -p "$work/empty"
		printf 'return function(e) return e.name == "none" end\n' >"$work/none.lua"
		base=$(LUAFIND_IO_URING=0 strace -f -c -e trace=statx,newfstatat,lstat,stat "$work/rules_host" "$work/none.lua" "$work/empty" 2>&1 >/dev/null |
			awk '$NF ~ /^(statx|newfstatat|lstat|stat)$/ { n += $4 } END { print n + 0 }')
		n=$(LUAFIND_IO_URING=0 strace -f -c -e trace=statx,newfstatat,lstat,stat "$work/rules_host" "$work/none.lua" "$work/btree" 2>&1 >/dev/null |
			awk '$NF ~ /^(statx|newfstatat|lstat|stat)$/ { n += $4 } END { print n + 0 }')
		[ "$n" -eq "$base" ] || fail "strace: a name rule made $n stat calls, an empty walk $base"
	fi
	# An entry kept past its turn is stale: a clear error, not the next file.
	printf '%s\n' 'local prev' 'return function(e)' '  if prev then' \
		'    local ok, err = pcall(function() return prev.name end)' \
		'    assert(not ok and tostring(err):find("moved on"), tostring(err))' '  end' \
		'  prev = e' '  return false' 'end' >"$work/stale.lua"
	"$work/rules_host" "$work/stale.lua" "$work/btree" >/dev/null 2>"$work/err" || fail "stale: $(cat "$work/err")"
	# The rules run in a sandbox: no io, no os.execute.
	printf '%s\n' 'return function(e) return io ~= nil or os.execute ~= nil end' >"$work/escape.lua"
	out=$("$work/rules_host" "$work/escape.lua" "$work/btree" 2>"$work/err") || fail "escape: $(cat "$work/err")"
	[ -z "$out" ] || fail "a rule reached io or os.execute"
	printf '%s\n' 'return function(e) while true do end end' >"$work/loop.lua"
	"$work/rules_host" "$work/loop.lua" "$work/btree" >/dev/null 2>"$work/err" && fail "an endless rule: status 0"
	grep -q "instruction budget exceeded" "$work/err" || fail "an endless rule: $(cat "$work/err")"
	# SIGINT during a slow walk: cancelled, every fd closed, status 130.
	i=0
	while [ $i -lt 200 ]; do : >"$work/btree/c/d/f$i"; i=$((i + 1)); done
	printf '%s\n' 'return function(e) for i = 1, 2e6 do end return true end' >"$work/slow.lua"
	"$work/rules_host" -v "$work/slow.lua" "$work/btree" >"$work/out" 2>"$work/err" &
	pid=$!
	sleep 0.5
	kill -INT $pid
	st=0
	wait $pid || st=$?
	[ $st -eq 130 ] || fail "SIGINT: status $st: $(cat "$work/err")"
	grep -q "interrupted" "$work/err" && ! grep -q "fds left open" "$work/err" || fail "SIGINT: $(cat "$work/err")"
	[ "$(wc -l <"$work/out")" -lt 208 ] || fail "SIGINT did not stop the walk"
	echo "ok: the bridge hands lazy entries to Lua rules; SIGINT cancels"
	;;
threads)
	flags=$(pkg-config --cflags --libs luafind) || fail "pkg-config luafind"
	# shellcheck disable=SC2086
	cc $cflags -pthread -o "$work/threads_host" "$src/tests/embed/threads_host.c" $flags
	tree "$work/ttree"
	"$work/threads_host" "$work/ttree" "$prefix/$lmoddir" 1 >"$work/one" || fail "one thread"
	"$work/threads_host" "$work/ttree" "$prefix/$lmoddir" 2 >"$work/two" || fail "two threads"
	sort "$work/one" "$work/one" >"$work/one2"
	sort "$work/two" >"$work/two2"
	[ "$(wc -l <"$work/one")" -ge 240 ] || fail "one thread printed too little: $(wc -l <"$work/one")"
	cmp -s "$work/one2" "$work/two2" || { diff "$work/one2" "$work/two2" | head; fail "two threads differ from one"; }
	echo "ok: two Lua states in two threads print what one prints ($(wc -l <"$work/two") lines)"
	;;
relocate)
	# An install moved elsewhere, and one staged with DESTDIR, find their Lua
	# files and scripts beside the executable: --list-scripts, --run du and
	# a --script that requires luafind work; no message names a chunk of
	# luafind's own ([string "..."]).
	r=$work/relocate
	rm -rf "$r"
	mkdir -p "$r"
	tree "$r/t"
	printf 'local lf = require "luafind"\nlocal n = 0\nfor e in lf.walk(...) do n = n + 1 end\nprint(n)\n' >"$r/count.lua"
	cmake --install "$build" --prefix "$r/prefix" >"$r/install.log" || fail "install into $r/prefix"
	mv "$r/prefix" "$r/moved"
	DESTDIR=$r/stage cmake --install "$build" --prefix /usr/local >"$r/stage.log" || fail "DESTDIR install"
	for exe in "$r/moved/bin/luafind" "$r/stage/usr/local/bin/luafind"; do
		"$exe" --list-scripts >"$r/out" 2>"$r/err" || fail "$exe --list-scripts: $(cat "$r/err")"
		grep -q '^du  *disk usage' "$r/out" || fail "$exe --list-scripts: $(cat "$r/out")"
		"$exe" --run du --bytes --top 1 "$r/t" >"$r/out" 2>"$r/err" || fail "$exe --run du: $(cat "$r/err")"
		[ "$(cut -f2 "$r/out")" = "$r/t" ] || fail "$exe --run du: $(cat "$r/out")"
		grep -q '^du: 3 directories' "$r/err" || fail "$exe --run du: $(cat "$r/err")"
		[ "$("$exe" --script "$r/count.lua" "$r/t" 2>"$r/err")" = 6 ] ||
			fail "$exe --script with require \"luafind\": $(cat "$r/err")"
	done
	# Its .pc files find the moved prefix from their own place: a host
	# builds against the moved headers and library, and runs.
	flags=$(PKG_CONFIG_PATH="$r/moved/$libdir/pkgconfig" pkg-config --cflags --libs luafind-core) ||
		fail "pkg-config luafind-core in the moved prefix"
	case $flags in *"$r/moved/"*) ;; *) fail "luafind-core.pc does not point into the moved prefix: $flags" ;; esac
	case $flags in *"$r/prefix"*) fail "luafind-core.pc still names the old prefix: $flags" ;; esac
	# shellcheck disable=SC2086 # the flags are words
	cc $cflags -o "$r/query_host" "$src/tests/embed/query_host.c" $flags >"$r/cc.log" 2>&1 ||
		fail "a host with the moved luafind-core.pc: $(cat "$r/cc.log")"
	LD_LIBRARY_PATH="$r/moved/$libdir" "$r/query_host" "$r/t" -name x.c >"$r/out" 2>"$r/err" ||
		fail "the host of the moved prefix: $(cat "$r/err")"
	grep -q '/a/x.c$' "$r/out" || fail "the host of the moved prefix printed: $(cat "$r/out")"
	# Without the runner, the message says what is missing, and where it was
	# looked for (beside the executable first), with no chunk name of ours.
	rm "$r/moved/$lmoddir/luafind/runner.lua"
	"$r/moved/bin/luafind" --run du "$r/t" >"$r/out" 2>"$r/err" && fail "--run without runner.lua succeeded"
	grep -q "^luafind: --run: cannot load the script runner: module 'luafind.runner' not found" "$r/err" ||
		fail "--run without runner.lua: $(cat "$r/err")"
	grep -q "$r/moved/bin/../$lmoddir/luafind/runner.lua" "$r/err" || fail "not looked for beside the executable: $(cat "$r/err")"
	grep -q '\[string ' "$r/err" && fail "a chunk name in a message: $(cat "$r/err")"
	rm -rf "$r"
	echo "ok: a moved and a DESTDIR-staged install run --list-scripts, --run du, --script; a host builds with the moved .pc"
	;;
cleanup)
	if ls "$work"/FAILED.* >/dev/null 2>&1; then
		echo "kept for the failed step(s) $(cd "$work" && echo FAILED.* | sed 's/FAILED\.//g'): $work"
	else
		rm -rf "$work"
	fi
	;;
*)
	fail "unknown step $step"
	;;
esac
