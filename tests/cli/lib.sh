# shellcheck shell=sh
# lib.sh: helpers shared by the CLI test scripts and the cleanup scripts'
# tests (sourced).

# in_ci: whether this is a CI run (CI set, as CI services set it, to
# anything but "", "false" or "0").  There tools/setup.sh has installed
# every tool a test needs, so a missing one is an error, not a skip.
in_ci() {
	case ${CI:-} in '' | false | 0) return 1 ;; esac
	return 0
}

# skip_tool TOOL WHY: the test cannot run without TOOL, which tools/setup.sh
# installs (or Debian always has): skipped (exit 77, CTest's SKIP_RETURN_CODE
# here), but a failure (exit 1) in CI.  Exits the script: call it from the
# script's own shell, not from a $(...) or a pipeline.
skip_tool() {
	if in_ci; then
		echo "FAIL: $1 is missing or unusable, and CI=$CI: tools/setup.sh provides it, so nothing may be skipped (needed for: $2)" >&2
		exit 1
	fi
	echo "skipped: $1 is missing or unusable (needed for: $2)"
	exit 77
}

# need_cmd COMMAND WHY: skip_tool unless COMMAND is on the PATH.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip_tool "$1" "$2"
}

# need_reference BIN WHY: BIN, the reference a differential test compares
# with, must run; bfs 4 is not a Debian 12 package, so say how to get it.
need_reference() {
	[ -x "$1" ] && return 0
	case $1 in
	*bfs*) skip_tool "$1 (bfs 4.1 or later: tools/setup.sh builds bfs 4.1.4 into build/tools when bfs's sources are beside the checkout, as CI has them; or configure with -DLUAFIND_BFS4=PATH to one you built)" "$2" ;;
	*) skip_tool "$1" "$2" ;;
	esac
}

# need_gnu_find WHY: /usr/bin/find must be GNU find (findutils).
need_gnu_find() {
	[ -x /usr/bin/find ] && /usr/bin/find . -maxdepth 0 --version 2>/dev/null | grep -q 'GNU findutils' ||
		skip_tool "GNU find (/usr/bin/find)" "$1"
}

# need_strace WHY: strace on the PATH, and allowed to trace.
need_strace() {
	need_cmd strace "$1"
	strace -f -o /dev/null true 2>/dev/null || skip_tool "strace (it cannot trace here)" "$1"
}

# need_nodac WHY: as root, capsh must be able to drop the DAC capabilities
# (run_as --nodac); other users have none to drop.
need_nodac() {
	[ "$(id -u)" -eq 0 ] || return 0
	need_cmd capsh "$1"
	capsh --drop=cap_dac_override,cap_dac_read_search -- -c true 2>/dev/null ||
		skip_tool "capsh (it cannot drop capabilities here)" "$1"
}

# rm_work DIR: remove a scratch directory, mode-000 subdirectories included.
rm_work() {
	chmod -R u+rwx "$1" 2>/dev/null || true
	rm -rf "$1"
}

# clean_on_success DIR: at exit, remove DIR if the script succeeded or was
# skipped; keep it and say where it is if it failed.
clean_on_success() {
	_lf_clean_dir=$1
	# shellcheck disable=SC2154 # _lf_rc is set inside the trap
	trap '_lf_rc=$?; if [ $_lf_rc -eq 0 ] || [ $_lf_rc -eq 77 ]; then rm_work "$_lf_clean_dir"; else echo "failed: scratch files kept in $_lf_clean_dir" >&2; fi; exit $_lf_rc' EXIT
}

# run_as [--nodac|--dac] CMD...: run CMD, with the DAC capabilities dropped
# if asked, so that mode-000 directories stop even root (others have no DAC
# capabilities: CMD runs as it is).
run_as() {
	if [ "$1" = --nodac ] && [ "$(id -u)" -eq 0 ]; then
		shift
		capsh --drop=cap_dac_override,cap_dac_read_search -- -c 'exec "$0" "$@"' "$@"
	else
		shift
		"$@"
	fi
}

# normalize_err FILE...: make find's and luafind's messages comparable: one
# program name, and without luafind's own additions (typo suggestions, the
# command line with a caret under the bad argument).  GNU find's quotes in a
# UTF-8 locale (U+2018, U+2019) become the C locale's, which luafind uses
# whatever the locale (luafind(1), DIFFERENCES).
normalize_err() {
	LC_ALL=C sed -i -e 's/^[^:]*find: /luafind: /' -e '/^luafind: did you mean /d' \
	       -e '/^luafind:  /d' -e '/^ *\^~*$/d' -e "s/\xe2\x80[\x98\x99]/'/g" "$@"
}

# test_locale: the LC_ALL the differential tests (diff_*.sh) run both
# programs under: C, or LUAFIND_TEST_LOCALE (C.UTF-8 for the runs that
# check characters, as tests/CMakeLists.txt sets it).
test_locale=${LUAFIND_TEST_LOCALE:-C}

# need_test_locale WHY: skip_tool unless $test_locale exists (glibc 2.35
# and later build C.UTF-8 in; Debian's libc-bin ships it anyway).
need_test_locale() {
	[ "$test_locale" = C ] && return 0
	[ -z "$(LC_ALL=$test_locale locale charmap 2>&1 >/dev/null)" ] ||
		skip_tool "the locale $test_locale" "$1"
}
