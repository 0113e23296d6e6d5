#!/bin/sh
# diff_find.sh: differential tests of luafind against GNU find.
#
#	diff_find.sh LUAFIND TREES CASES [--nodac|--dac] [REFERENCE]
#
# Every non-empty, non-comment line of the CASES file is a list of arguments
# (shell words: quotes work) given to both `luafind` and `/usr/bin/find`,
# run in TREES with LC_ALL=C (LUAFIND_TEST_LOCALE if set: lib.sh).  Standard
# output is compared sorted (NUL-split when the arguments say -print0),
# standard error sorted with the program name unified, and the exit statuses
# must be equal.  With --nodac both run
# with the DAC capabilities dropped, so mode-000 directories stop even root.
# The reference is GNU find unless named (bfs 4, where luafind follows POSIX
# and bfs over GNU): then only standard output and exit statuses are
# compared, as its messages are its own.  With LF_DIFF_ORDERED=1 in the
# environment standard output is compared in order, not sorted (-s); with
# LF_DIFF_STATUS=1, luafind's exit status must be the reference's without
# -noerror (bfs exits with 0 after the errors -noerror kept quiet, luafind
# with 1).
set -u
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: diff_find.sh LUAFIND TREES CASES [--nodac]}
trees=${2:?}
cases=${3:?}
nodac=${4:---dac}
find=${5:-/usr/bin/find}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
if [ "$find" = /usr/bin/find ]; then
	need_gnu_find "the reference of $(basename "$cases")"
else
	need_reference "$find" "the reference of $(basename "$cases")"
fi
[ "$nodac" = --dac ] || need_nodac "--nodac, to drop root's DAC capabilities"
need_test_locale "$(basename "$cases")"
work=$(mktemp -d)
clean_on_success "$work"

sorted() { # sorted FILE NUL?
	if [ "${LF_DIFF_ORDERED:-}" = 1 ]; then
		tr '\0' '\n' <"$1"
	elif [ "$2" = yes ]; then
		sort -z "$1" | tr '\0' '\n'
	else
		sort "$1"
	fi
}

# run_both ARG...: luafind, then the reference, on the case; same_out=yes
# if their outputs are the same (sorted in $work/[lf].sorted where they
# differ as written), messages normalized, exit statuses in lrc/frc.  The
# sorts and the normalizing run only where they can change the answer: a
# differential case costs the two runs and a cmp when all is well.
run_both() {
	(cd "$trees" && LC_ALL=$test_locale run_as "$nodac" "$luafind" "$@") >"$work/l.out" 2>"$work/l.err"
	lrc=$?
	(cd "$trees" && LC_ALL=$test_locale run_as "$nodac" "$find" "$@") >"$work/f.out" 2>"$work/f.err"
	frc=$?
	if [ "${LF_DIFF_STATUS:-}" = 1 ]; then
		# The reference's status without -noerror: whether errors were met.
		for _a in "$@"; do
			shift
			[ "$_a" = -noerror ] || set -- "$@" "$_a"
		done
		(cd "$trees" && LC_ALL=C run_as "$nodac" "$find" "$@") >/dev/null 2>&1
		frc=$?
	fi
	if [ -s "$work/l.err" ] || [ -s "$work/f.err" ]; then
		normalize_err "$work/f.err" "$work/l.err"
	fi
	same_out=no
	if cmp -s "$work/l.out" "$work/f.out"; then
		same_out=yes
	else
		sorted "$work/l.out" $nul >"$work/l.sorted"
		sorted "$work/f.out" $nul >"$work/f.sorted"
		! cmp -s "$work/l.sorted" "$work/f.sorted" || same_out=yes
	fi
}

failures=0
total=0
while IFS= read -r line || [ -n "$line" ]; do
	case $line in '' | '#'*) continue ;; esac
	total=$((total + 1))
	eval "set -- $line"
	nul=no
	case " $line " in *" -print0 "* | *" -print0") nul=yes ;; esac

	run_both "$@"
	# A test of times relative to now (-mmin -60 on a file 59.5 minutes
	# old) can see a boundary pass between the two runs: once, again.
	case " $line " in *min\ * | *time\ * | *-used\ * | *-daystart\ *)
		if [ $same_out = no ]; then
			printf 'again (a time boundary may have passed between the runs): %s\n' "$line"
			run_both "$@"
		fi
		;;
	esac

	ok=yes
	if [ $same_out = no ]; then
		ok=no
		printf 'FAIL (stdout): %s\n' "$line"
		diff "$work/l.sorted" "$work/f.sorted" | head -20 | sed 's/^/    /'
	fi
	if [ "$find" = /usr/bin/find ] && { [ -s "$work/l.err" ] || [ -s "$work/f.err" ]; }; then
		sort "$work/l.err" >"$work/l.serr"
		sort "$work/f.err" >"$work/f.serr"
		if ! cmp -s "$work/l.serr" "$work/f.serr"; then
			ok=no
			printf 'FAIL (stderr): %s\n' "$line"
			diff "$work/l.serr" "$work/f.serr" | head -20 | sed 's/^/    /'
		fi
	fi
	if [ $lrc -ne $frc ]; then
		ok=no
		echo "FAIL (exit status luafind=$lrc find=$frc): $line"
	fi
	if [ $ok = yes ]; then
		printf 'ok: %s\n' "$line"
	else
		failures=$((failures + 1))
	fi
done <"$cases"

echo "$((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
