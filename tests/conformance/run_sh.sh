#!/bin/sh
# run_sh.sh: GNU findutils' shell-based tests of find (tests/find/*.sh, on
# gnulib's tests/init.sh) run against GNU find and against luafind, and
# compared script by script.
#
#	run_sh.sh [--user NAME] [--expensive] [--keep] FINDUTILS_SRC LUAFIND [GNU_FIND]
#
# FINDUTILS_SRC is an unpacked findutils source tree (4.9.0: see README.md);
# GNU_FIND defaults to /usr/bin/find.  --user runs the scripts as that user
# (root must start run_sh.sh): depth-unreadable-dir.sh skips under root, and
# type_list.sh skips unless root.  --expensive runs the scripts marked
# expensive (many-dir-entries-vs-OOM.sh), which skip otherwise.  --keep
# keeps the work directory (each script's log) and prints where it is.
#
# A script passes with exit status 0, is skipped with 77, and fails
# otherwise.  The exit status is 0 when luafind passes every script GNU find
# passes.
set -eu

usage='usage: run_sh.sh [--user NAME] [--expensive] [--keep] FINDUTILS_SRC LUAFIND [GNU_FIND]'
user=
expensive=no
keep=no
while [ $# -gt 0 ]; do
	case $1 in
	--user) user=${2:?--user needs a name}; shift 2 ;;
	--expensive) expensive=yes; shift ;;
	--keep) keep=yes; shift ;;
	*) break ;;
	esac
done
src=${1:?$usage}
luafind=${2:?$usage}
gnufind=${3:-/usr/bin/find}

[ -f "$src/tests/init.sh" ] && [ -f "$src/init.cfg" ] \
	|| { echo "run_sh.sh: $src has no tests/init.sh or init.cfg" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
luafind=$(abs "$luafind")
gnufind=$(abs "$gnufind")
[ -x "$luafind" ] || { echo "run_sh.sh: $luafind is not executable" >&2; exit 2; }
[ -x "$gnufind" ] || { echo "run_sh.sh: $gnufind is not executable" >&2; exit 2; }
version=$(sed -n 's/^PACKAGE_VERSION=//p' "$src/configure" 2>/dev/null | tr -d "'" | head -n 1)

work=$(mktemp -d)
if [ $keep = no ]; then
	trap 'rm -rf "$work"' EXIT
fi

# Each program gets a tree shaped as findutils' build directory is when
# automake runs the tests: the scripts source "$srcdir/tests/init.sh", which
# reads "$srcdir/init.cfg", and "find" in DIR/find is the program under test.
# The copies keep the source tree clean and let --user own everything.
setup() { # setup DIR PROGRAM
	mkdir -p "$1/find"
	cp -R "$src/tests" "$1/tests"
	cp "$src/init.cfg" "$1/init.cfg"
	ln -s "$2" "$1/find/find"
}
setup "$work/gnu" "$gnufind"
setup "$work/luafind" "$luafind"
if [ -n "$user" ]; then
	chown -R "$user" "$work"
fi

# run DIR SCRIPT: the exit status of one script, run from DIR as
# tests/local.mk's TESTS_ENVIRONMENT runs it (srcdir=., the variables
# init.cfg reads, DIR/find first in PATH, fd 9 for init.sh's diagnostics),
# with its output in DIR/SCRIPT.log.  TESTS_ENVIRONMENT's PATH matters:
# fu_path_prepend_ adds "$srcdir/find" only after init.sh has made srcdir
# relative to the script's temporary directory ("../."), which misses it.
run() {
	set +e
	(
		cd "$1" || exit 99
		. tests/lang-default
		. tests/envvar-check
		TMPDIR=/tmp
		RUN_EXPENSIVE_TESTS=$expensive
		export TMPDIR RUN_EXPENSIVE_TESTS
		export VERSION="$version" PACKAGE_VERSION="$version" \
			abs_top_builddir="$1" abs_top_srcdir="$1" abs_srcdir="$1/tests" \
			built_programs='find xargs frcode locate updatedb' \
			fail=0 srcdir=. top_srcdir=. AWK=awk EGREP='grep -E' EXEEXT= \
			SHELL=/bin/sh
		PATH="$1/find:$PATH"
		export PATH
		if [ -n "$user" ]; then
			exec runuser -u "$user" -- /bin/sh "tests/find/$2.sh" 9>&2
		fi
		exec /bin/sh "tests/find/$2.sh" 9>&2
	) >"$1/$2.log" 2>&1 </dev/null
	rc=$?
	set -e
	return $rc
}

verdict() {
	case $1 in
	0) echo PASS ;;
	77) echo SKIP ;;
	*) echo FAIL ;;
	esac
}

printf '%-28s %-6s %-6s\n' SCRIPT GNU LUAFIND
regressions=0
counts=
for script in "$src"/tests/find/*.sh; do
	name=$(basename "$script" .sh)
	g=0; run "$work/gnu" "$name" || g=$?
	l=0; run "$work/luafind" "$name" || l=$?
	gv=$(verdict $g)
	lv=$(verdict $l)
	mark=
	if [ "$gv" = PASS ] && [ "$lv" != PASS ]; then
		mark='  <- luafind fails where GNU find passes'
		regressions=$((regressions + 1))
	fi
	printf '%-28s %-6s %-6s%s\n' "$name" "$gv" "$lv" "$mark"
	counts="$counts
gnu $gv
luafind $lv"
done

echo
for prog in gnu luafind; do
	printf '%s:' "$prog"
	for v in PASS FAIL SKIP; do
		n=$(printf '%s\n' "$counts" | grep -c "^$prog $v\$" || true)
		printf ' %s %s' "$n" "$v"
	done
	echo
done
if [ $keep = yes ]; then
	echo "logs: $work/gnu/*.log, $work/luafind/*.log"
fi
if [ $regressions -eq 0 ]; then
	echo 'luafind passes every script GNU find passes'
	exit 0
fi
echo "luafind fails $regressions script(s) GNU find passes"
exit 1
