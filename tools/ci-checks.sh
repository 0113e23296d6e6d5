#!/bin/sh
# ci-checks.sh: the checks CI runs after the README's two commands, one
# stage or all of them, each failing the run when it fails:
#
#	tools/ci-checks.sh [slow] [asan] [fuzz] [tsan] [deb] [mpi]	(default: all six)
#
#   slow  the tests of the slow label, which the README's run leaves out:
#         a 1,000,000-level chain deleted (ctest --preset release-slow)
#   asan  the whole suite built with AddressSanitizer and UBSan, every
#         finding fatal (-fno-sanitize-recover=all), skips of installed
#         tools failing as in CI
#   fuzz  each libFuzzer target of tests/fuzz for FUZZ_SECONDS (60) on a
#         scratch copy of its seed corpus, two at a time; a crash, leak,
#         timeout or sanitizer report fails, and the input that did it is
#         kept in build/fuzz/artifacts
#   tsan  the walker, deletion and embedding tests under ThreadSanitizer
#   deb   the Debian packages (tools/deb.sh: dpkg-buildpackage, lintian
#         with no error or warning), installed with apt-get, the
#         autopkgtests' scripts (debian/tests) run on them, then removed,
#         leaving nothing (dpkg -L of each package empty).  It installs
#         into the system (run it on a machine where luafind's packages
#         may come and go: CI's is fresh)
#   mpi   luafind-mpi (the mpi preset, OpenMPI installed when missing)
#         against luafind with 1 to 4 ranks on this machine: queries,
#         deletions, a killed rank (ctest --preset mpi: tests/mpi)
#
# It installs what it needs (clang and libFuzzer's runtime, the
# Build-Depends, lintian, the autopkgtests' Depends) through
# tools/setup.sh's rule: Debian packages only, apt-get only when missing.
#
# SPDX-License-Identifier: MIT
set -eu
cd "$(dirname "$0")/.."

stages=${*:-slow asan fuzz tsan deb mpi}
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

stage_slow() {
	start=$(date +%s)
	tools/setup.sh release
	CI=true ctest --preset release-slow --no-tests=error
	elapsed slow "$start"
}

stage_mpi() {
	start=$(date +%s)
	tools/setup.sh mpi
	CI=true ctest --preset mpi --no-tests=error
	elapsed mpi "$start"
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
		-R '^(unit\.(walk|delete|dir|stat|ring)|cli\.io_uring|embed\.(install|threads|bridge)|cli\.jobs_(output|share)|lua\.(host|script)\.threads)$'
	elapsed tsan "$start"
}

# The packages debian/control builds, and the autopkgtests' scripts and
# what they depend on (debian/tests/control).
deb_packages() {
	sed -n 's/^Package: *//p' debian/control
}
deb_tests() {
	sed -n 's/^Tests: *//p' debian/tests/control | tr ', ' '\n\n' | grep -v '^$'
}
deb_test_depends() {
	sed -n 's/^Depends: *//p' debian/tests/control | tr ', ' '\n\n' | grep -v '^$' |
		grep -vxF "$(deb_packages)" | sort -u
}

stage_deb() {
	start=$(date +%s)
	tools/deb.sh
	arch=$(dpkg-architecture -qDEB_HOST_ARCH)
	version=$(dpkg-parsechangelog -S Version)
	debs=
	for p in $(deb_packages); do
		debs="$debs ./build/deb/${p}_${version}_$arch.deb"
	done
	# shellcheck disable=SC2046
	need $(deb_test_depends)
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "ci-checks: apt-get install$debs" >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $debs >/dev/null
	failed=0
	for t in $(deb_tests); do
		if (unset AUTOPKGTEST_TMP; "debian/tests/$t"); then
			echo "ci-checks: autopkgtest $t: PASS" >&2
		else
			echo "ci-checks: autopkgtest $t: FAIL" >&2
			failed=1
		fi
	done
	# shellcheck disable=SC2046
	DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq $(deb_packages) >/dev/null
	for p in $(deb_packages); do
		left=$(dpkg -L "$p" 2>/dev/null || true)
		if [ -n "$left" ]; then
			echo "ci-checks: apt-get remove left $p's files: $left" >&2
			failed=1
		fi
	done
	elapsed deb "$start"
	return "$failed"
}

for s in $stages; do
	case $s in
	slow | asan | fuzz | tsan | deb | mpi) ;;
	*)
		echo "ci-checks: unknown stage '$s' (slow, asan, fuzz, tsan, deb or mpi)" >&2
		exit 2
		;;
	esac
done
for s in $stages; do
	echo "ci-checks: stage $s" >&2
	"stage_$s"
done
