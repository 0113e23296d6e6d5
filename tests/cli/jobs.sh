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
#   share   a warm walk that shares its directories with the workers
#           (LUAFIND_SHARE=1, with -j2 and the default -j), and one that
#           chooses by timing (no LUAFIND_SHARE), print what -j1 prints, in
#           the same order, with the same messages, exit status and --stats
#           counters (those of the threads' shares aside), on a generated
#           40,000-entry tree and on the cli.trees ones; sharing reads
#           directories ahead (dirs_ahead) where there are two CPUs.
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

# A tree of about 40,000 entries: 3 levels of 12 directories, 27 files in
# each directory of the last two, sizes 0 to 4 KiB.
make_big_tree() {
	python3 - "$1" <<'PY'
import os, sys
root = sys.argv[1]
for a in range(12):
    for b in range(12):
        for c in range(12):
            d = os.path.join(root, f"a{a}", f"b{b}", f"c{c}")
            os.makedirs(d, exist_ok=True)
            for f in range(20):
                with open(os.path.join(d, f"f{f}.{'ch'[f % 2]}"), "wb") as fh:
                    fh.write(b"x" * (f * 211))
        for f in range(7):
            open(os.path.join(root, f"a{a}", f"b{b}", f"g{f}"), "w").close()
PY
}

# The --stats line of $1 (stderr) without the counters of the threads' shares.
stats_of() {
	grep '^luafind: stats: ' "$1" | sed 's/ stats_ahead=[0-9]*//; s/ dirs_ahead=[0-9]*//; s/ dirs_ahead_unused=[0-9]*//; s/ stats_ring=[0-9]*//'
}

check_share() {
	[ -d "$trees/basic" ] || fail "no trees in $trees (the cli.trees fixture)"
	make_big_tree "$work/big"
	set -f
	n=0
	shared=0
	for tree in "$work/big" $tree_list; do
		case $tree in /*) ;; *) tree=$trees/$tree ;; esac
		for q in "" "-name *.c" "-size +1k" "-type f -size -1k" "-mindepth 2 -maxdepth 3" "-printf %d:%p:%s\\n" \
			"-empty" "-newer $tree"; do
			# shellcheck disable=SC2086
			LUAFIND_SHARE=0 LC_ALL=C "$luafind" --stats -j1 "$tree" $q >"$work/r.out" 2>"$work/r.err" && rrc=0 || rrc=$?
			stats_of "$work/r.err" >"$work/r.stats"
			grep -v '^luafind: stats: ' "$work/r.err" >"$work/r.msgs" || true
			for mode in "LUAFIND_SHARE=1 -j2" "LUAFIND_SHARE=1 -j8" "LUAFIND_SHARE= -j2" "LUAFIND_SHARE=auto -j8"; do
				env=${mode% *}
				j=${mode#* }
				# shellcheck disable=SC2086
				env "$env" LC_ALL=C "$luafind" --stats $j "$tree" $q >"$work/s.out" 2>"$work/s.err" && src=0 || src=$?
				what="$env luafind $j $tree $q"
				[ $src -eq $rrc ] || fail "$what: exit status $src, $rrc with -j1"
				cmp -s "$work/s.out" "$work/r.out" ||
					fail "$what: output differs from -j1's: $(diff "$work/r.out" "$work/s.out" | head -5)"
				grep -v '^luafind: stats: ' "$work/s.err" >"$work/s.msgs" || true
				cmp -s "$work/s.msgs" "$work/r.msgs" ||
					fail "$what: messages differ from -j1's: $(diff "$work/r.msgs" "$work/s.msgs" | head -5)"
				stats_of "$work/s.err" | cmp -s - "$work/r.stats" ||
					fail "$what: counters differ from -j1's: $(stats_of "$work/s.err") against $(cat "$work/r.stats")"
				if [ "$env" = LUAFIND_SHARE=1 ] && [ "$tree" = "$work/big" ]; then
					ahead=$(sed -n 's/.* dirs_ahead=\([0-9]*\).*/\1/p' "$work/s.err")
					[ "${ahead:-0}" -gt 0 ] && shared=$((shared + 1))
				fi
				n=$((n + 1))
			done
		done
	done
	if [ "$(nproc)" -ge 2 ] && [ $shared -eq 0 ]; then
		fail "LUAFIND_SHARE=1 never read a directory ahead (dirs_ahead=0 in every run on two CPUs or more)"
	fi
	echo "ok: $n shared or timed walks print, report and count what -j1 does ($shared of the forced ones on the big tree read ahead)"
}

"check_$check"
