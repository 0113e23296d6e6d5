# build-artifacts: objects only in build trees; caches anywhere; CMake
# build trees but not in-source builds; Cargo target/ only beside a
# Cargo.toml; node_modules only with --node; never inside .git, virtual
# environments, site-packages; --exclude; laziness (--stats).
. "$(dirname "$0")/lib.sh"

T=$work/t
mk() { # mk FILE...: create files (and their directories), 100 bytes each
	for f; do
		mkdir -p "$(dirname "$T/$f")"
		head -c 100 /dev/zero >"$T/$f"
	done
}
mk proj/Makefile proj/main.c proj/main.o proj/src/a.o proj/src/lib.a proj/src/x.so \
   proj/src/deep/er/d.o proj/src/keep.h \
   loose/b.o loose/b.a loose/c.pyc loose/c.py \
   py/setup.py py/pkg/__pycache__/m.cpython-311.pyc py/.pytest_cache/v/cache/x \
   py/.mypy_cache/3.11/y.json py/pkg/mod.py \
   cm/CMakeLists.txt cm/build/CMakeCache.txt cm/build/CMakeFiles/p.dir/x.o cm/build/build.ninja \
   insrc/CMakeLists.txt insrc/CMakeCache.txt insrc/foo.c insrc/foo.o \
   rs/Cargo.toml rs/src/main.rs rs/target/debug/app rs/target/debug/deps/x.rlib \
   other/target/keep other/__pycache__.txt \
   js/package.json js/index.js js/node_modules/x/index.js js/node_modules/x/package.json \
   js/node_modules/x/build/Release/obj.target/addon.o \
   py/.venv/pyvenv.cfg py/.venv/lib/python3.11/site-packages/np/core.cpython-311.so \
   py/.venv/lib/python3.11/site-packages/np/__pycache__/a.pyc \
   py/site-packages/lib.so proj/.git/objects/pack/x.o proj/.git/hooks/__pycache__/h.pyc
ln -s lib.a "$T/proj/src/liblink.so"
mkdir -p "$T/py/empty/__pycache__"

cat >expected <<EOF2
$T/proj/main.o
$T/proj/src/a.o
$T/proj/src/lib.a
$T/proj/src/x.so
$T/proj/src/liblink.so
$T/proj/src/deep/er/d.o
$T/loose/c.pyc
$T/py/pkg/__pycache__
$T/py/empty/__pycache__
$T/py/.pytest_cache
$T/py/.mypy_cache
$T/cm/build
$T/insrc/foo.o
$T/rs/target
EOF2

# Laziness: the selected files and what is inside selected directories
# are stat'ed (for the byte count), nothing else.
inside=$(find "$T/py/pkg/__pycache__" "$T/py/.pytest_cache" "$T/py/.mypy_cache" "$T/cm/build" \
	"$T/rs/target" "$T/py/empty/__pycache__" -mindepth 1 ! -type d | wc -l)
mkdir empty
counter() {
	run build-artifacts --stats "$1" 2>&1 >/dev/null | sed -n 's/.* stats=\([0-9]*\) .*/\1/p'
}
files=$(sed "s|^$T/||" expected | grep -c -v -e __pycache__ -e _cache -e '^cm/build$' -e '^rs/target$')
got=$(( $(counter "$T") - $(counter empty) ))
[ "$got" -eq $((files + inside)) ] || fail "laziness: $got stats, expected $files files + $inside inside directories"

# Summary: files, directories (the selected ones and those inside), bytes.
run build-artifacts "$T" >/dev/null 2>err
dirs=$(find "$T/py/pkg/__pycache__" "$T/py/.pytest_cache" "$T/py/.mypy_cache" "$T/cm/build" \
	"$T/rs/target" "$T/py/empty/__pycache__" -type d | wc -l)
grep -q "^build-artifacts: would remove $((files + inside)) files, $dirs directories, " err ||
	fail "summary: $(cat err), expected $((files + inside)) files and $dirs directories"

# --exclude: proj stays whole.
run build-artifacts -0 --exclude proj "$T" 2>/dev/null | tr '\0' '\n' | sort >out
grep -v /proj/ expected | sort | cmp -s - out || fail "--exclude proj: $(cat out)"

cp -a "$T" "$work/t2"
clean_test build-artifacts "$T" expected

# --node: node_modules too.
{ sed "s|^$T/|$work/t2/|" expected; echo "$work/t2/js/node_modules"; } >expected2
clean_test build-artifacts "$work/t2" expected2 --node

finish
