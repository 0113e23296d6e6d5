#!/bin/sh
# diff_pairs.sh: luafind queries against equivalent GNU find queries.
#
#	diff_pairs.sh LUAFIND TREES CASES
#
# Each case line is "LUAFIND-ARGS ||| FIND-ARGS" (shell words); both run in
# TREES with LC_ALL=C (LUAFIND_TEST_LOCALE if set: lib.sh), and their sorted
# outputs and exit statuses must match.
# This is how -lua expressions are checked against the find expressions
# they mean.
set -u
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: diff_pairs.sh LUAFIND TREES CASES}
trees=${2:?}
cases=${3:?}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
need_gnu_find "the find queries the -lua ones mean"
need_test_locale "$(basename "$cases")"
work=$(mktemp -d)
clean_on_success "$work"

failures=0
total=0
while IFS= read -r line || [ -n "$line" ]; do
	case $line in '' | '#'*) continue ;; esac
	total=$((total + 1))
	largs=${line%%|||*}
	fargs=${line#*|||}
	eval "set -- $largs"
	(cd "$trees" && LC_ALL=$test_locale "$luafind" "$@") 2>"$work/l.err" | sort >"$work/l.out"
	eval "set -- $fargs"
	(cd "$trees" && LC_ALL=$test_locale /usr/bin/find "$@") 2>"$work/f.err" | sort >"$work/f.out"
	normalize_err "$work/l.err" "$work/f.err"
	if cmp -s "$work/l.out" "$work/f.out" && cmp -s "$work/l.err" "$work/f.err"; then
		printf 'ok: %s\n' "$line"
	else
		failures=$((failures + 1))
		printf 'FAIL: %s\n' "$line"
		diff "$work/l.out" "$work/f.out" | head -10 | cut -c1-200 | sed 's/^/    /'
		diff "$work/l.err" "$work/f.err" | head -5 | cut -c1-200 | sed 's/^/    /'
	fi
done <"$cases"

echo "$((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
