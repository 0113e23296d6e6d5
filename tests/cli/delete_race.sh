#!/bin/sh
# delete_race.sh: -delete while another process swaps a directory inside
# the tree with a symbolic link to a directory outside it (issue 20, item
# 11).  Under -L, luafind(1) promises that nothing outside the trees named
# is removed; under -P and -H links below the roots are never followed.
#
#	delete_race.sh LUAFIND SWAPPER WORK [RUNS]
#
# For every mode below, RUNS times (default 40, or LF_RACE_RUNS: 1000 for
# a campaign): a fresh WORK/r/canary (three files) and WORK/r/tree with a
# directory d (files, a subdirectory) and a link l -> ../canary; SWAPPER
# exchanges tree/d and tree/l in a loop while `luafind MODE r/tree -delete`
# runs.  Any file of the canary lost fails the test, with the count per mode.
set -eu
luafind=$1 swapper=$2 work=$3
runs=${4:-${LF_RACE_RUNS:-40}}
. "$(dirname "$0")/lib.sh"

rm -rf "$work"
mkdir -p "$work"
clean_on_success "$work"

# A race that never happens would pass: the swapper must work here
# (renameat2's RENAME_EXCHANGE: not on every filesystem).
mkdir -p "$work/probe/a" && ln -s a "$work/probe/b"
if ! "$swapper" "$work/probe/a" "$work/probe/b" 0 | grep -q ready; then
	skip_tool "renameat2(RENAME_EXCHANGE) in $work" "swapping a directory and a link during -delete"
fi
rm -rf "$work/probe"

fresh() {
	rm -rf "$work/r"
	mkdir -p "$work/r/canary/keep" "$work/r/tree/d/sub"
	for f in precious other; do
		echo "$f" >"$work/r/canary/$f"
	done
	echo keep >"$work/r/canary/keep/precious"
	for f in f g h sub/i; do
		: >"$work/r/tree/d/$f"
	done
	ln -s ../canary "$work/r/tree/l"
}

lost_total=0
race() {
	cmd=$1
	lost_runs=0 lost_files=0 i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		fresh
		"$swapper" "$work/r/tree/d" "$work/r/tree/l" 20 >/dev/null 2>&1 &
		pid=$!
		# shellcheck disable=SC2086 # the command's words
		env $cmd "$work/r/tree" -delete >/dev/null 2>&1 || true
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		n=0
		for f in precious other keep/precious; do
			[ -e "$work/r/canary/$f" ] || n=$((n + 1))
		done
		if [ "$n" -gt 0 ]; then
			lost_runs=$((lost_runs + 1))
			lost_files=$((lost_files + n))
		fi
	done
	echo "$cmd: $lost_runs of $runs runs lost files outside the tree ($lost_files files)"
	lost_total=$((lost_total + lost_files))
}

for mode in "-L" "-L -j1" "-L -j8" "-L -name precious" "-P" "-H"; do
	race "$luafind $mode"
	race "LUAFIND_IO_URING=0 $luafind $mode"
done
rm -rf "$work/r"
[ "$lost_total" -eq 0 ] || {
	echo "FAIL: $lost_total files outside the tree were deleted" >&2
	exit 1
}
echo "ok: no file outside the tree deleted in $((runs * 12)) swap races"
