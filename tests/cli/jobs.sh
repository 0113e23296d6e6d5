#!/bin/sh
# jobs.sh: -j N, the walk's threads (issue 11).
#
#	jobs.sh LUAFIND TREES WORKDIR CHECK
#
# CHECK is one of:
#   usage   bad values of -j (before the paths and in the expression) are
#           usage errors naming the argument, with exit status 1 and no
#           output; good ones are accepted wherever bfs and GNU put options;
#           -j among luafind's own options, refused before --script; --stats
#           prints the queue's counters.
#   output  on the generated trees (cli.trees), for a few queries, the output
#           with -j1, -j2, -j 8 and -j in the expression is the output
#           without -j, in the same order, with the same messages and exit
#           status, and sorted it is GNU find's.
# WORKDIR is created, and removed unless the check fails.
set -eu
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: jobs.sh LUAFIND TREES WORKDIR CHECK}
trees=${2:?}
work=${3:?}
check=${4:?}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
mkdir -p "$work"
clean_on_success "$work"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# bad WANT ARG...: "luafind ARG..." fails with status 1, no output, and a
# message containing WANT.
bad() {
	want=$1
	shift
	rc=0
	"$luafind" "$@" >"$work/out" 2>"$work/err" || rc=$?
	[ $rc -eq 1 ] || fail "luafind $*: exit status $rc, expected 1 ($(cat "$work/err"))"
	[ ! -s "$work/out" ] || fail "luafind $*: printed $(head -c 200 "$work/out")"
	grep -qF -- "$want" "$work/err" || fail "luafind $*: no '$want' in: $(cat "$work/err")"
}

check_usage() {
	mkdir -p "$work/t/d"
	t=$work/t
	bad "Expected a positive decimal integer argument to -j, but got '0'" -j0 "$t"
	bad "but got '-1'" -j -1 "$t"
	bad "unknown predicate \`-jx'" -jx "$t"
	bad "but got 'x'" -j x "$t"
	bad "but got '1x'" -j1x "$t"
	bad "-j: 65 threads is too many (at most 64)" -j 65 "$t"
	bad "-j: 65 threads is too many (at most 64)" -j65 "$t"
	bad "99999999999999999999 threads is too many" -j99999999999999999999 "$t"
	bad "missing argument to \`-j'" -j
	bad "missing argument to \`-j'" "$t" -j
	bad "but got '0'" "$t" -j 0
	bad "but got '-1'" "$t" -j -1
	bad "-j: 65 threads is too many" "$t" -name d -j 65
	# The caret is under the bad value.
	"$luafind" -j 65 "$t" 2>&1 | sed -n 3p | grep -q '^             ^~$' ||
		fail "-j 65: the caret is not under 65: $("$luafind" -j 65 "$t" 2>&1)"

	want=$(printf '%s\n%s\n' "$t" "$t/d")
	for args in "-j1 $t" "-j 2 $t" "-j64 $t" "$t -j 3" "$t -j4" "-j2 -j3 $t" "-L -j2 $t" "-j2 -O1 $t" \
		"$t -maxdepth 5 -j 2 -mindepth 0"; do
		# shellcheck disable=SC2086
		out=$("$luafind" $args) || fail "luafind $args: exit status $?"
		[ "$out" = "$want" ] || fail "luafind $args: printed '$out'"
	done
	# Among luafind's own leading options.
	out=$("$luafind" -j2 --stats "$t" 2>"$work/err") || fail "-j2 --stats: exit status $?"
	[ "$out" = "$want" ] || fail "-j2 --stats: printed '$out'"
	grep -q ' dirs_ahead=[0-9]* dirs_ahead_unused=[0-9]* stats_ring=[0-9]* tags=[0-9]*$' "$work/err" ||
		fail "--stats shows no dirs_ahead counters: $(cat "$work/err")"
	out=$("$luafind" --stats -j 2 "$t" 2>/dev/null) || fail "--stats -j 2: exit status $?"
	[ "$out" = "$want" ] || fail "--stats -j 2: printed '$out'"
	# A warning after a test, as for any global option.
	"$luafind" "$t" -warn -name d -j2 >/dev/null 2>"$work/err" </dev/null
	grep -q 'global option -j2 after the argument d,' "$work/err" ||
		fail "no global-option warning for -j2 after -name: $(cat "$work/err")"
	# A script chooses its own threads.
	echo 'print(1)' >"$work/s.lua"
	rc=0
	"$luafind" -j2 --script "$work/s.lua" >/dev/null 2>"$work/err" || rc=$?
	[ $rc -eq 2 ] && grep -q "threads option" "$work/err" ||
		fail "-j2 --script: status $rc, $(cat "$work/err")"
	"$luafind" --help | grep -q -- '-jN' || fail "--help does not mention -jN"
	echo "ok: -j's usage errors name the argument; -jN, -j N accepted before the paths and in the expression"
}

# The trees the output check walks (perms needs the DAC capabilities dropped:
# walk.cases covers it).
tree_list="basic links weirdnames deep linkdirs unsearch special regexnames"

check_output() {
	need_gnu_find "the reference of -j's output"
	[ -d "$trees/basic" ] || fail "no trees in $trees (the cli.trees fixture)"
	set -f # the queries' patterns are find's
	n=0
	for tree in $tree_list; do
		for q in "" "-type d" "-depth" "-mindepth 1 -maxdepth 2" "-type f -size -1k" "-name *a* -o -type l" \
			"-name b* -prune -o -print" "-empty -quit"; do
			# shellcheck disable=SC2086
			(cd "$trees" && LC_ALL=C /usr/bin/find "$tree" $q) >"$work/f.out" 2>/dev/null && frc=0 || frc=$?
			# shellcheck disable=SC2086
			(cd "$trees" && LC_ALL=C "$luafind" "$tree" $q) >"$work/l.out" 2>"$work/l.err" && lrc=0 || lrc=$?
			[ $lrc -eq $frc ] || fail "$tree $q: luafind exit status $lrc, find's $frc"
			sort "$work/f.out" >"$work/f.sorted"
			sort "$work/l.out" | cmp -s - "$work/f.sorted" || fail "$tree $q: luafind differs from find"
			for j in "-j1 $tree" "-j2 $tree" "-j 8 $tree" "$tree -j 2"; do
				# shellcheck disable=SC2086
				(cd "$trees" && LC_ALL=C "$luafind" $j $q) >"$work/j.out" 2>"$work/j.err" && jrc=0 || jrc=$?
				[ $jrc -eq $lrc ] || fail "$j $q: exit status $jrc, $lrc without -j"
				cmp -s "$work/j.out" "$work/l.out" ||
					fail "$j $q: output differs from that without -j: $(diff "$work/l.out" "$work/j.out" | head -5)"
				cmp -s "$work/j.err" "$work/l.err" ||
					fail "$j $q: messages differ from those without -j: $(diff "$work/l.err" "$work/j.err" | head -5)"
				n=$((n + 1))
			done
		done
	done
	echo "ok: $n runs with -j1, -j2, -j 8 and -j in the expression print what luafind without -j and find print"
}

"check_$check"
