#!/bin/sh
# ci-checks.sh: the checks CI runs after the README's two commands, one
# stage or all of them, each failing the run when it fails:
#
#	tools/ci-checks.sh [asan] [fuzz] [tsan]	(default: all three)
#
#   asan  the whole suite built with AddressSanitizer and UBSan, every
#         finding fatal (-fno-sanitize-recover=all), skips of installed
#         tools failing as in CI
#   fuzz  each libFuzzer target of tests/fuzz for FUZZ_SECONDS (60) on a
#         scratch copy of its seed corpus, two at a time; a crash, leak,
#         timeout or sanitizer report fails, and the input that did it is
#         kept in build/fuzz/artifacts
#   tsan  the walker, deletion and embedding tests under ThreadSanitizer
#
# It installs what it needs (clang and libFuzzer's runtime) through
# tools/setup.sh's rule: Debian packages only, apt-get only when missing.
#
# SPDX-License-Identifier: MIT
set -eu
cd "$(dirname "$0")/.."

stages=${*:-asan fuzz tsan}
fuzz_seconds=${FUZZ_SECONDS:-60}
jobs=$(nproc)

need() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "ci-checks: installing$missing" >&2
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

elapsed() {
	echo "ci-checks: $1 took $(($(date +%s) - $2)) s" >&2
}

stage_asan() {
	start=$(date +%s)
	tools/setup.sh asan
	CI=true ctest --preset asan --no-tests=error
	elapsed asan "$start"
}

# One target: FUZZ_SECONDS on a scratch corpus seeded from the committed
# one (libFuzzer adds what it finds to its first directory, which must not
# be the source tree).  Prints the executions it ran.
fuzz_one() {
	name=$1
	dir=build/fuzz/run/$name
	rm -rf "$dir"
	mkdir -p "$dir/corpus" build/fuzz/artifacts
	status=0
	dict=tests/fuzz/dict_$name.txt # a target's own, or the shared one
	[ -f "$dict" ] || dict=tests/fuzz/dict.txt
	build/fuzz/fuzz_"$name" -dict="$dict" -max_total_time="$fuzz_seconds" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="build/fuzz/artifacts/$name-" \
		"$dir/corpus" "tests/fuzz/corpus/$name" >"$dir/log" 2>&1 || status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
	if [ "$status" -ne 0 ]; then
		echo "ci-checks: fuzz_$name FAILED (exit $status) after ${runs:-?} executions:" >&2
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
			"$dir/log" >&2 || tail -n 30 "$dir/log" >&2
		return 1
	fi
	echo "ci-checks: fuzz_$name: $runs executions in $fuzz_seconds s, no finding" >&2
	rm -rf "$dir"
}

stage_fuzz() {
	start=$(date +%s)
	need clang libclang-rt-14-dev
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz -j "$jobs"
	failed=0
	set -- expr lua datetime regex
	while [ $# -gt 0 ]; do
		# Two at a time: each target is single-threaded.
		fuzz_one "$1" & first=$!
		second=
		if [ $# -gt 1 ]; then
			fuzz_one "$2" & second=$!
			shift
		fi
		shift
		wait "$first" || failed=1
		[ -z "$second" ] || wait "$second" || failed=1
	done
	elapsed fuzz "$start"
	return "$failed"
}

stage_tsan() {
	start=$(date +%s)
	cmake --preset tsan >/dev/null
	cmake --build --preset tsan -j "$jobs"
	# ThreadSanitizer's shadow memory needs the fixed layout ASLR breaks.
	CI=true setarch -R ctest --preset tsan --no-tests=error \
		-R '^(unit\.(walk|delete|dir|stat|ring)|cli\.io_uring|embed\.(install|threads|bridge)|cli\.jobs_output|lua\.(host|script)\.threads)$'
	elapsed tsan "$start"
}

for s in $stages; do
	case $s in
	asan | fuzz | tsan) ;;
	*)
		echo "ci-checks: unknown stage '$s' (asan, fuzz or tsan)" >&2
		exit 2
		;;
	esac
done
for s in $stages; do
	echo "ci-checks: stage $s" >&2
	"stage_$s"
done
