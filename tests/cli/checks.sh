#!/bin/sh
# checks.sh: targeted CLI checks that a differential test cannot express.
#
#	checks.sh LUAFIND MKCHAIN WORKDIR CHECK
#
# Each CHECK is a function below; it exits non-zero with a message on failure,
# 77 (skipped) when a tool it needs is missing (a failure when CI is set:
# see lib.sh).  WORKDIR is created, and removed unless the check fails.
# check_chain walks $LUAFIND_TEST_CHAIN, a 100,000-level chain made by
# MKCHAIN (the cli.chain_setup fixture) if set, else its own in WORKDIR.
set -eu
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: checks.sh LUAFIND MKCHAIN WORKDIR CHECK}
mkchain=${2:?}
work=${3:?}
check=${4:?}
mkdir -p "$work"
clean_on_success "$work"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The value of counter $1 in a --stats line on stdin.
counter() {
	sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

# Stat-family syscalls made by "luafind $@", in all threads, counted by
# strace: none through io_uring, whose requests kernel threads make.
stat_calls() {
	# LeakSanitizer cannot run under ptrace.
	LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/strace.txt" "$luafind" "$@" >/dev/null
	awk '$NF ~ /^(newfstatat|statx|lstat|stat|fstat|fstatat64)$/ { s += $4 } END { print s + 0 }' "$work/strace.txt"
}

# A listing of 10,000 entries costs zero stats beyond the root's one.
check_zero_stats() {
	need_strace "counting the stat calls"
	t=$work/wide
	rm -rf "$t"
	mkdir -p "$t"
	i=0
	while [ $i -lt 100 ]; do
		mkdir "$t/d$i"
		(cd "$t/d$i" && seq 1 99 | sed 's/^/f/' | xargs touch)
		i=$((i + 1))
	done
	for args in "" "-depth" "-maxdepth 5" "-mindepth 2" "-print0"; do
		# shellcheck disable=SC2086
		stats=$("$luafind" --stats "$t" $args 2>&1 >/dev/null)
		entries=$(echo "$stats" | counter entries)
		want=10001
		[ "$args" = "-mindepth 2" ] && want=9900
		[ "$entries" -eq $want ] || fail "$args: $entries entries, expected $want"
		for c in stats stats_follow fd_stats; do
			n=$(echo "$stats" | counter $c)
			want=0
			[ $c = stats ] && want=1 # the root
			[ "$n" -eq $want ] || fail "$args: $c=$n, expected $want ($stats)"
		done
		opens=$(echo "$stats" | counter opens)
		[ "$opens" -eq 101 ] || fail "$args: opens=$opens, expected 101"
	done
	echo "ok: 10,001 entries listed with one stat (the root)"
	# Name and type tests need no stat; -size one per entry, -size after
	# -name only one per name match (the cheap test runs first).
	for args in "-name f1*" "-type d" "-type f -name *7" "-iname F1* -o -path */d1/*" "! -name x -print0"; do
		# shellcheck disable=SC2086
		n=$("$luafind" --stats "$t" $args 2>&1 >/dev/null | counter stats)
		[ "$n" -eq 1 ] || fail "$args made $n stats, expected 1 (the root)"
	done
	n=$("$luafind" --stats "$t" -size +0 2>&1 >/dev/null | counter stats)
	[ "$n" -eq 10001 ] || fail "-size made $n stats, expected 10001"
	n=$("$luafind" --stats "$t" -size -1k -name 'f1' 2>&1 >/dev/null | counter stats)
	[ "$n" -eq 101 ] || fail "-size -1k -name f1 made $n stats, expected 101 (reordered)"
	for args in "-type f -size +0" "-mtime -1 -o -name x" "-newer $t -print0" "! -perm -000" "-ls" "-printf %s\n"; do
		# shellcheck disable=SC2086
		stats=$("$luafind" --stats "$t" $args 2>&1 >/dev/null)
		n=$(echo "$stats" | counter stats)
		want=10001
		case $args in -type*) want=9901 ;; esac
		[ "$n" -eq $want ] || fail "$args made $n stats, expected $want ($stats)"
		ahead=$(echo "$stats" | counter stats_ahead)
		[ "$ahead" -le "$n" ] || fail "$args: stats_ahead=$ahead > stats=$n"
		[ "$want" -eq 10001 ] || [ "$ahead" -eq 0 ] || fail "$args: stat-ahead ran for a test that skips entries"
	done
	echo "ok: -name/-type make no stat, -size one per entry, cheap tests first"
	# -hidden and -nohidden (which leaves hidden directories unopened)
	# read names only: one stat, the root's, and no more than -name alone.
	h=$work/hidden
	mkdir -p "$h/.h/d" "$h/d/.g" "$h/d/e"
	: > "$h/.f"
	: > "$h/d/f"
	: > "$h/.h/d/f"
	n0=$("$luafind" --stats "$h" -name x 2>&1 >/dev/null | counter stats)
	for args in "-nohidden -name x" "-hidden" "-hidden -prune -o -name x" "-exclude -hidden -name x"; do
		# shellcheck disable=SC2086
		stats=$("$luafind" --stats "$h" $args 2>&1 >/dev/null)
		n=$(echo "$stats" | counter stats)
		[ "$n" -eq 1 ] && [ "$n" -eq "$n0" ] || fail "$args made $n stats, expected 1 as -name x alone ($stats)"
	done
	n=$("$luafind" --stats "$h" -nohidden 2>&1 >/dev/null | counter opens)
	[ "$n" -eq 3 ] || fail "-nohidden opened $n directories, expected 3 (no hidden one)"
	echo "ok: -hidden, -nohidden make no stat, and -nohidden opens no hidden directory"
	# -limit: no stat either, and the walk ends at the Nth match.
	stats=$("$luafind" --stats "$t" -name 'f1*' -print -limit 5 2>&1 >"$work/limit.out")
	[ "$(wc -l <"$work/limit.out")" -eq 5 ] || fail "-print -limit 5 printed $(wc -l <"$work/limit.out") lines"
	[ "$(echo "$stats" | counter stats)" -eq 1 ] || fail "-limit made stats: $stats"
	[ "$(echo "$stats" | counter entries)" -lt 200 ] || fail "-limit 5 did not end the walk: $stats"
	echo "ok: -limit makes no stat and ends the walk at the 5th match"
	# The stat calls of walking 10,001 entries, minus those of walking
	# an empty directory (the runtime's own), must be zero.
	mkdir -p "$work/empty"
	# With the I/O queue's workers (the default, and -j8) and without (-j1).
	for j in "" -j1 -j8; do
		# shellcheck disable=SC2086
		n=$(stat_calls $j "$t")
		# shellcheck disable=SC2086
		base=$(stat_calls $j "$work/empty")
		[ "$n" -eq "$base" ] || fail "strace $j: $n stat calls for 10,001 entries, $base for an empty dir"
		echo "ok: strace counted $n stat calls for 10,001 entries, as for an empty directory ($j)"
		# -size stats every entry, in other threads ahead of the walk:
		# still exactly one stat per entry, whichever thread makes it.
		# shellcheck disable=SC2086
		n=$(stat_calls $j "$t" -size +0)
		[ "$n" -eq $((base + 10000)) ] || fail "strace $j: -size made $n stat calls, expected $base + 10000"
		# shellcheck disable=SC2086
		n=$(stat_calls $j "$t" -type f -size +0)
		[ "$n" -eq $((base + 9900)) ] || fail "strace $j: -type f -size made $n stat calls, expected $base + 9900"
		echo "ok: strace counted one stat per entry for -size, one per file for -type f -size ($j)"
	done
}

# The deepest entry of a 100,000-level chain, under ulimit -n 16.  The
# chain is only read: the cli.chain_setup fixture makes it once per run.
check_chain() {
	c=${LUAFIND_TEST_CHAIN:-}
	if [ -z "$c" ]; then
		c=$work/chain
		"$mkchain" "$c" 100000
	fi
	[ -d "$c/d" ] || fail "no chain at $c"
	out=$(ulimit -n 16 && "$luafind" "$c" -mindepth 100000)
	want=$(printf '%s' "$c"; i=0; while [ $i -lt 1000 ]; do printf '/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d'; i=$((i + 1)); done)
	[ "$out" = "$want" ] || fail "wrong deepest entry (${#out} bytes, expected ${#want})"
	echo "ok: deepest entry of a 100,000-level chain under ulimit -n 16"
	n=$(ulimit -n 16 && "$luafind" "$c" -depth -maxdepth 100000 -mindepth 99990 | wc -l)
	[ "$n" -eq 11 ] || fail "-depth under ulimit -n 16 printed $n lines, expected 11"
	stats=$(ulimit -n 16 && "$luafind" --stats "$c" -depth -mindepth 100001 2>&1 >/dev/null)
	[ "$(echo "$stats" | counter reopens)" -gt 0 ] || fail "no reopens under -depth: $stats"
	echo "ok: -depth walks back up the chain under ulimit -n 16 ($stats)"
}

# -L on a chain deeper than PATH_MAX: GNU find gives up, luafind must not.
check_deep_logical() {
	need_cmd bfs "comparing the -L listing with bfs's"
	c=$work/deepL
	rm -rf "$c"
	"$mkchain" "$c" 40 "$(printf '%0200d' 0 | tr 0 x)"
	ln -s "$(basename "$c")" "$work/deepL-link"
	n=$(cd "$work" && "$luafind" -L deepL-link | wc -l)
	[ "$n" -eq 41 ] || fail "-L listed $n entries, expected 41"
	(cd "$work" && "$luafind" -L deepL-link | sort) >"$work/l.txt"
	(cd "$work" && bfs -L deepL-link | sort) >"$work/b.txt"
	cmp -s "$work/l.txt" "$work/b.txt" || fail "-L listing differs from bfs's"
	echo "ok: -L through a chain deeper than PATH_MAX"
}

# Usage errors: message on stderr, exit status 1, nothing on stdout.
check_errors() {
	for args in "-foo" "-maxdepth" "-maxdepth x" "-mindepth -1" "( -print" "-print )" "!" \
		    "-print -o" "-a -print" "( )" "-print ,"; do
		# shellcheck disable=SC2086
		if out=$(cd "$work" && "$luafind" . $args 2>"$work/err"); then
			fail "'$args' succeeded"
		fi
		[ -z "$out" ] || fail "'$args' printed to stdout"
		grep -q '^luafind: ' "$work/err" || fail "'$args': no message"
	done
	# Messages carry the name it was run as, without the directory: "find:"
	# when installed as find.
	ln -sf "$luafind" "$work/find"
	"$work/find" "$work/none" 2>"$work/err" && fail "a missing root succeeded"
	[ "$(cat "$work/err")" = "find: '$work/none': No such file or directory" ] ||
		fail "run as find: $(cat "$work/err")"
	"$luafind" . -maxdepth 0 -prnt 2>"$work/err" && fail "-prnt succeeded"
	grep -q "did you mean \`-print'" "$work/err" || fail "no suggestion for -prnt"
	# A double-dash spelling: the primary with one dash less (not -iname).
	"$luafind" . -maxdepth 0 --name foo 2>"$work/err" && fail "--name succeeded"
	grep -q "did you mean \`-name'" "$work/err" || fail "suggestion for --name: $(cat "$work/err")"
	"$luafind" . -maxdepth 0 --nme foo 2>"$work/err" && fail "--nme succeeded"
	grep -q "did you mean \`-name'" "$work/err" || fail "suggestion for --nme: $(cat "$work/err")"
	# luafind's own options after the paths: said to go before them, with
	# no suggestion of a predicate (--stats is not -status).
	for opt in --stats "--max-time 1" --run; do
		# shellcheck disable=SC2086
		"$luafind" "$work" $opt -name x 2>"$work/err" && fail "$opt after the paths succeeded"
		grep -q "^luafind: ${opt%% *} is an option of luafind, not of find's expression: it goes before the paths$" \
			"$work/err" || fail "$opt after the paths: $(cat "$work/err")"
		! grep -q "did you mean" "$work/err" || fail "$opt after the paths: $(cat "$work/err")"
	done
	"$luafind" --help | grep -q '^Usage: ' || fail "--help"
	"$luafind" --version | grep -q '^luafind [0-9]' || fail "--version"
	if [ -w /dev/full ]; then
		"$luafind" "$work" >/dev/full 2>"$work/err" && fail "write error not reported"
		grep -q 'write error' "$work/err" || fail "no write error message"
	fi
	# Closed standard output: nothing may be written into a directory fd.
	(cd "$work" && "$luafind" . -maxdepth 0 >&- 2>/dev/null) && fail "closed stdout accepted"
	echo "ok: usage errors"
}

# -noerror (bfs, issue 22): no message about the files walked (a missing
# root, a loop under -L, a failed deletion, an unreadable directory or a
# failed stat), and exit status 0 for them, as bfs 4.1.4 gives it; under
# -warn, one warning with their number; other errors are still reported.
# At `ulimit -n 5` (two descriptors beside the standard ones) every entry
# is listed, in every order, and -delete deletes them all: directories are
# evicted, the roots too, and reopened by ".." or by the names from the
# root's path when there are too few descriptors to climb (issue 22).
check_low_fds() {
	need_cmd python3 "running luafind with RLIMIT_NOFILE 5 and no inherited descriptor"
	# As `ulimit -n 5` in a fresh shell: nothing open but 0, 1 and 2 (CTest
	# and CI runners leave descriptors of their own to their children).
	five() {
		python3 -c 'import os, resource, sys
os.closerange(3, 1 << 16)
resource.setrlimit(resource.RLIMIT_NOFILE, (5, 5))
os.execv(sys.argv[1], sys.argv[1:])' "$@"
	}
	t=$work/t
	rm_work "$t"
	for i in 1 2 3 4; do
		for j in 1 2 3; do
			mkdir -p "$t/d$i/e$j/f/g/h"
			: >"$t/d$i/e$j/f/g/h/x"
			: >"$t/d$i/e$j/y"
		done
	done
	mkdir -p "$t/wide"
	(cd "$t/wide" && seq 1 3000 | sed 's/^/w/' | xargs mkdir)
	for args in "" "-d" "-S bfs" "-s" "-L" "-s -d" "-S bfs -s"; do
		# shellcheck disable=SC2086
		"$luafind" $args "$t" "$t/d2" | sort >"$work/want"
		# shellcheck disable=SC2086
		five "$luafind" $args "$t" "$t/d2" >"$work/got" 2>"$work/err" ||
			fail "ulimit -n 5, $args: exit status $?: $(head -3 "$work/err")"
		[ ! -s "$work/err" ] || fail "ulimit -n 5, $args: $(head -3 "$work/err")"
		sort "$work/got" | cmp -s - "$work/want" ||
			fail "ulimit -n 5, $args: $(sort "$work/got" | comm -13 - "$work/want" | wc -l) entries missing"
	done
	five "$luafind" "$t" -mindepth 1 -delete 2>"$work/err" ||
		fail "ulimit -n 5, -delete: exit status $?: $(head -3 "$work/err")"
	[ -z "$(ls -A "$t")" ] || fail "ulimit -n 5, -delete: left $(find "$t" | wc -l) entries"
	echo "ok: every entry at ulimit -n 5, in every order, and -delete"
}

# -exclude-caches: nothing below a directory whose CACHEDIR.TAG starts with
# the signature; the directory itself listed (tar's --exclude-caches-under).
# A tag without the signature, a short one, a link, a FIFO or a directory
# named so do not count (the FIFO is never opened: no hang); an unreadable
# tag is an error (exit status 1) and its directory's contents are skipped.
# The tag is opened only where the name is listed: the same opens and no
# tag read in a tree without one (--stats, strace).
check_cachedir() {
	t=$work/t
	rm_work "$t"
	sig='Signature: 8a477f597d28d172789f06886806bc55'
	mkdir -p "$t/cache/sub" "$t/nested/ok/cache2" "$t/fake" "$t/short" "$t/link" "$t/fifo" "$t/dir/CACHEDIR.TAG" "$t/plain"
	printf '%s\n# made by a test\n' "$sig" >"$t/cache/CACHEDIR.TAG"
	printf '%s' "$sig" >"$t/nested/ok/cache2/CACHEDIR.TAG"
	printf 'Signature: 8a477f597d28d172789f06886806bc5' >"$t/short/CACHEDIR.TAG"
	printf 'signature: 8a477f597d28d172789f06886806bc55' >"$t/fake/CACHEDIR.TAG"
	ln -s ../cache/CACHEDIR.TAG "$t/link/CACHEDIR.TAG"
	mkfifo "$t/fifo/CACHEDIR.TAG"
	for d in cache cache/sub nested/ok nested/ok/cache2 fake short link fifo dir plain; do
		: >"$t/$d/file"
	done
	want=$(cd "$work" && find t -path t/cache/\* -prune -o -path t/nested/ok/cache2/\* -prune -o -print | sort)
	for args in "" "-s" "-S bfs" "-d" "-s -S bfs -j1"; do
		# shellcheck disable=SC2086
		got=$(cd "$work" && timeout 20 "$luafind" $args t -exclude-caches | sort) ||
			fail "-exclude-caches $args: exit status $?"
		[ "$got" = "$want" ] || fail "-exclude-caches $args: listed
$got
where find lists
$want"
	done
	stats=$("$luafind" --stats "$t" -exclude-caches 2>&1 >/dev/null)
	[ "$(echo "$stats" | counter tags)" -eq 4 ] || fail "-exclude-caches: tags read: $stats"
	# -delete keeps what is below a cache directory.
	"$luafind" "$t" -exclude-caches -name file -delete || fail "-exclude-caches -delete: exit status $?"
	[ -f "$t/cache/file" ] && [ -f "$t/cache/sub/file" ] && [ -f "$t/nested/ok/cache2/file" ] ||
		fail "-exclude-caches -delete deleted below a cache directory"
	[ ! -e "$t/plain/file" ] && [ ! -e "$t/fake/file" ] || fail "-exclude-caches -delete left other files"
	# In Lua, as lf.walk's option and in lf.find's expression.
	n=$(LUA_PATH= "$luafind" --script /dev/stdin "$t" <<-'EOF'
	local lf = require "luafind"
	local n, m = 0, 0
	for e in lf.walk{arg[1], exclude_caches = true} do n = n + 1 end
	for e in lf.find(arg[1], "-exclude-caches") do m = m + 1 end
	print(n == m and n or -1)
	EOF
	) || fail "lf.walk{exclude_caches = true}: exit status $?"
	[ "$n" -eq "$("$luafind" "$t" -exclude-caches | wc -l)" ] || fail "lf.walk{exclude_caches = true}: $n entries"
	# An unreadable tag: an error, and nothing below it.
	need_nodac "an unreadable CACHEDIR.TAG"
	chmod 000 "$t/cache/CACHEDIR.TAG"
	run_as --nodac "$luafind" "$t" -exclude-caches >"$work/out" 2>"$work/err" &&
		fail "an unreadable tag: exit status 0"
	grep -q "cache/CACHEDIR.TAG': Permission denied" "$work/err" || fail "an unreadable tag: said $(cat "$work/err")"
	! grep -q "^$t/cache/" "$work/out" || fail "an unreadable tag: its directory's contents listed"
	chmod 644 "$t/cache/CACHEDIR.TAG"
	# No tag listed, no tag read: the same opens as without the option.
	plain=$("$luafind" --stats "$t/plain" "$t/nested" -exclude-caches 2>&1 >/dev/null)
	without=$("$luafind" --stats "$t/plain" "$t/nested" -j1 2>&1 >/dev/null)
	[ "$(echo "$plain" | counter opens)" -eq "$(echo "$without" | counter opens)" ] ||
		fail "-exclude-caches opens more: $plain / $without"
	need_strace "counting the opens"
	LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$work/strace.txt" \
		"$luafind" "$t/plain" "$t/fake" -exclude-caches >/dev/null
	! grep -q 'plain/CACHEDIR' "$work/strace.txt" || fail "a directory without a tag: its tag opened"
	[ "$(grep -c 'CACHEDIR.TAG' "$work/strace.txt")" -eq 1 ] || fail "the tag of fake/ not opened once"
}

check_noerror() {
	t=$work/t
	rm_work "$t"
	mkdir -p "$t/a/d/keep" "$t/loop"
	: >"$t/a/f"
	ln -s .. "$t/loop/up"
	# expect_quiet WHAT CMD...: CMD says nothing, and exits with 1: the
	# status still tells that something failed (bfs 4.1.4 exits with 0).
	expect_quiet() {
		_what=$1
		shift
		_rc=0
		"$@" >"$work/out" 2>"$work/err" || _rc=$?
		[ $_rc -eq 1 ] || fail "$_what: exit status $_rc: $(cat "$work/err")"
		[ ! -s "$work/err" ] || fail "$_what: said $(cat "$work/err")"
	}
	"$luafind" "$t" -noerror >/dev/null 2>&1 || fail "-noerror, nothing failing: exit status $?"
	"$luafind" "$work/missing" "$t" >/dev/null 2>"$work/err" && fail "a missing root: exit status 0 without -noerror"
	[ -s "$work/err" ] || fail "a missing root: no message without -noerror"
	expect_quiet "a missing root" "$luafind" "$work/missing" "$t" -noerror
	[ "$(wc -l <"$work/out")" -eq 7 ] || fail "a missing root: the rest not listed: $(cat "$work/out")"
	expect_quiet "-noerror first" "$luafind" "$work/missing" -noerror -print
	expect_quiet "a loop under -L" "$luafind" -L "$t/loop" -noerror
	"$luafind" -L "$t/loop" >/dev/null 2>"$work/err" && fail "a loop: exit status 0 without -noerror"
	expect_quiet "-delete failing" "$luafind" "$t/a" -name d -delete -noerror
	[ -d "$t/a/d/keep" ] || fail "-delete -noerror deleted a non-empty directory"
	"$luafind" "$work/missing" "$work/missing2" -noerror -warn >/dev/null 2>"$work/err" &&
		fail "-warn: exit status 0"
	[ "$(cat "$work/err")" = "luafind: warning: -noerror suppressed 2 errors" ] ||
		fail "-noerror -warn said: $(cat "$work/err")"
	# Not about the files walked: still reported, exit status 1.
	"$luafind" "$t" -noerror -exec false {} + >/dev/null 2>&1 && fail "-exec false {} + under -noerror: exit status 0"
	"$luafind" "$t" -noerror -newer "$work/missing" >/dev/null 2>"$work/err" && fail "-newer missing: exit status 0"
	[ -s "$work/err" ] || fail "-newer missing under -noerror: no message"
	"$luafind" "$t" -noerror -fprint "$work/missing/x" >/dev/null 2>"$work/err" && fail "-fprint: exit status 0"
	[ -s "$work/err" ] || fail "-fprint into a missing directory under -noerror: no message"
	echo "ok: -noerror: missing roots, loops, failed deletions quiet, with status 1; the rest reported"
	# An unreadable directory and a stat failing in a test (modes stop root
	# only with its DAC capabilities dropped).
	need_nodac "-noerror on unreadable directories"
	mkdir -p "$t/closed/x" "$t/nosearch"
	: >"$t/nosearch/f"
	chmod 000 "$t/closed"
	chmod 644 "$t/nosearch"
	run_as --nodac "$luafind" "$t" -name '[cf]*' -size -1k >/dev/null 2>"$work/err" &&
		fail "unreadable: exit status 0 without -noerror"
	[ "$(grep -c 'Permission denied' "$work/err")" -eq 2 ] || fail "unreadable: $(cat "$work/err")"
	expect_quiet "an unreadable directory, a failed stat" run_as --nodac "$luafind" "$t" -name '[cf]*' -size -1k \
		-noerror
	[ "$(cat "$work/out")" = "$t/a/f" ] || fail "-noerror: $(cat "$work/out"), expected $t/a/f alone"
	expect_quiet "an unreadable directory" run_as --nodac "$luafind" "$t" -noerror
	grep -q "^$t/closed\$" "$work/out" || fail "-noerror: the unreadable directory not listed"
	grep -q "^$t/nosearch/f\$" "$work/out" || fail "-noerror: the file in an unsearchable directory not listed"
	chmod 755 "$t/closed" "$t/nosearch"
	echo "ok: -noerror: unreadable directories and failed stats quiet, with status 1"
}

# --isolate (issue 20): the same results from a confined child; writing,
# a new process and -delete stopped by the filter with a clear message and
# nothing changed; --max-cpu and --deadline end a spinning script.
check_isolate() {
	t=$work/iso
	rm -rf "$t"
	mkdir -p "$t/tree/a" "$t/tree/b"
	: >"$t/tree/a/x.c"
	: >"$t/tree/b/y.c"
	: >"$t/tree/b/z.h"
	if ! "$luafind" --isolate "$t/tree" -maxdepth 0 >/dev/null 2>"$work/err"; then
		grep -q "built without libseccomp" "$work/err" && skip_tool libseccomp "luafind --isolate"
		fail "--isolate: $(cat "$work/err")"
	fi
	"$luafind" "$t/tree" -name '*.c' -lua 'size >= 0' | sort >"$work/want"
	"$luafind" --isolate "$t/tree" -name '*.c' -lua 'size >= 0' | sort >"$work/got"
	cmp -s "$work/want" "$work/got" || fail "--isolate: other results: $(cat "$work/got")"
	echo 'local lf = require "luafind"
for e in lf.find(arg[1], "-name", "*.h") do print(e.name) end' >"$t/find.lua"
	out=$("$luafind" --sandbox --isolate --script "$t/find.lua" "$t/tree") || fail "--sandbox --isolate --script: failed"
	[ "$out" = z.h ] || fail "--sandbox --isolate --script: printed $out"
	expect_stopped() { # WHAT MESSAGE ARGS...
		what=$1 msg=$2
		shift 2
		status=0
		timeout 20 "$luafind" --isolate "$@" >/dev/null 2>"$work/err" || status=$?
		[ "$status" -eq 1 ] || fail "$what: status $status: $(cat "$work/err")"
		grep -q -e "$msg" "$work/err" || fail "$what: said $(cat "$work/err")"
	}
	echo 'io.open(arg[1], "w")' >"$t/write.lua"
	expect_stopped "a file opened for writing" "--isolate: the filter stopped system call openat" --script "$t/write.lua" "$t/written"
	[ ! -e "$t/written" ] || fail "--isolate: the file was written"
	echo 'os.execute("touch " .. arg[1])' >"$t/exec.lua"
	expect_stopped "os.execute" "the filter stopped a system call made with signals blocked" --script "$t/exec.lua" "$t/touched"
	[ ! -e "$t/touched" ] || fail "--isolate: a command ran"
	expect_stopped "-delete" "the filter stopped system call unlinkat" "$t/tree" -name '*.c' -delete
	[ -e "$t/tree/a/x.c" ] || fail "--isolate -delete deleted"
	echo 'while true do end' >"$t/spin.lua"
	expect_stopped "--max-cpu 1" "--isolate: CPU time limit exceeded" --max-cpu 1 --script "$t/spin.lua"
	expect_stopped "--deadline 1" "--isolate: time limit exceeded" --deadline 1 --script "$t/spin.lua"
	"$luafind" --isolate --max-cpu 0 --script "$t/spin.lua" 2>"$work/err" && fail "--max-cpu 0 accepted"
	grep -q "invalid number of seconds '0'" "$work/err" || fail "--max-cpu 0: $(cat "$work/err")"
	echo "ok: --isolate: the same results, writes, commands and -delete stopped, CPU and wall limits"
}

# Out of memory anywhere (issue 20, item 13): a shim (MALLOC_FAIL) makes
# the allocator fail from the Nth call on, for every N of a -lua query (every
# 5th or 15th N of longer runs: a script, the sandbox, --run): an error message and a non-zero
# status, or the same output as without it, never an abort or a crash
# (Lua's "PANIC: unprotected error" aborted).
check_malloc_fail() {
	[ -n "${MALLOC_FAIL:-}" ] || fail "MALLOC_FAIL (the allocator shim) is not set"
	if ldd "$luafind" | grep -q libasan; then
		echo "skipped: the sanitizers' allocator cannot be replaced"
		exit 77
	fi
	t=$work/mf
	rm -rf "$t"
	mkdir -p "$t/d"
	: >"$t/d/a"
	echo 'local lf = require "luafind"
for e in lf.find(arg[1], "-type", "f") do print(e.path) end
for e in lf.walk{arg[1]} do print(e.name, e.size) end' >"$t/s.lua"
	total=0
	one() { # STEP CMD... (STEP times LF_MALLOC_STRIDE: the default run's 3, the slow label's 1)
		step=$(($1 * ${LF_MALLOC_STRIDE:-1}))
		shift
		MALLOC_COUNT_FILE=$t/count LD_PRELOAD=$MALLOC_FAIL "$@" >"$t/want" 2>"$t/err" || fail "$*: fails without a failing allocator"
		calls=$(cat "$t/count")
		[ "$calls" -gt 100 ] || fail "$*: the shim counted $calls allocations"
		n=1
		while [ "$n" -le $((calls + 2)) ]; do
			status=0
			MALLOC_FAIL_AT=$n LD_PRELOAD=$MALLOC_FAIL "$@" >"$t/got" 2>"$t/err" || status=$?
			[ "$status" -lt 128 ] || fail "$* with allocation $n failing: killed (status $status): $(head -c 300 "$t/err")"
			if [ "$status" -ne 0 ]; then
				[ -s "$t/err" ] || fail "$* with allocation $n failing: status $status and no message"
			elif ! cmp -s "$t/want" "$t/got"; then
				fail "$* with allocation $n failing: status 0 and other output: $(head -c 300 "$t/got")"
			fi
			n=$((n + step))
			total=$((total + 1))
		done
	}
	one 1 "$luafind" "$t/d" -lua 'size > 3'
	one 5 "$luafind" "$t/d" -name 'a*' -printf '%p %s\n' -exec echo {} +
	one 1 "$luafind" "$t/d" "$t/missing" -noerror -nohidden -hidden -o -printf '%p %s\n' -limit 2
	one 1 "$luafind" "$t/d" "$t/d" -unique -xattr -o -acl -o -capable -o -since 2001-01-01 -printf '%p %s\n'
	one 5 "$luafind" --script "$t/s.lua" "$t/d"
	one 5 "$luafind" --sandbox --max-memory 8M --script "$t/s.lua" "$t/d"
	one 15 "$luafind" --run du "$t/d"
	echo "ok: $total runs out of memory at every allocation: messages and statuses, no abort"
}

# A -lua stat field whose stat fails (issue 20, item 12): find's -size
# behaviour, the file's errno reported, the entry false even under "!", the
# walk completed, exit 1; with and without -lua-errors skip.
check_lua_stat_errors() {
	need_gnu_find "-size's errors to compare with"
	need_nodac "a stat that fails as root"
	t=$work/lse
	rm -rf "$t"
	mkdir -p "$t/a" "$t/d" "$t/z"
	: >"$t/a/f"
	: >"$t/d/f"
	: >"$t/z/f"
	chmod 600 "$t/d" # readable, not searchable: d/f is listed, its stat fails
	LC_ALL=C run_as --nodac /usr/bin/find "$t" -type f -size -1000c >"$work/want" 2>"$work/want.err" && fail "find: status 0"
	for q in "-lua size<1000" "-lua-errors skip -lua size<1000" "-lua e.size<1000" "-lua (size==nil)"; do
		status=0
		# shellcheck disable=SC2086 # the words of q
		run_as --nodac "$luafind" "$t" -type f $q >"$work/got" 2>"$work/got.err" || status=$?
		[ "$status" -eq 1 ] || fail "$q: status $status"
		normalize_err "$work/got.err" "$work/want.err"
		if [ "$q" = "-lua (size==nil)" ]; then
			[ ! -s "$work/got" ] || fail "$q: printed $(cat "$work/got")"
		else
			sort -o "$work/got" "$work/got"
			sort "$work/want" | cmp -s - "$work/got" || fail "$q: printed $(cat "$work/got")"
		fi
		cmp -s "$work/want.err" "$work/got.err" || fail "$q: said $(cat "$work/got.err")"
	done
	out=$(run_as --nodac "$luafind" "$t" -type f ! -lua 'size < 1000' 2>/dev/null) && fail "! -lua: status 0"
	[ -z "$out" ] || fail "! -lua made the failed entry true: $out"
	chmod 700 "$t/d"
	echo "ok: a -lua stat field whose stat fails is the entry's error, as for -size"
}

# WORD repeated N times, one argument each (words without glob characters).
rep() {
	awk -v w="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s ", w }'
}

# Deep expressions (issue 20): nesting costs the parser no stack, so GNU
# find 4.9's 30,000 nested parentheses parse; a tree nested deeper than
# 1000 levels of operators is a usage error at the operator, not a crash.
check_deep_expressions() {
	set -f
	expect() { # WHAT EXPECTED ARGS...: luafind . -maxdepth 0 ARGS prints EXPECTED, exit 0
		what=$1 want=$2
		shift 2
		out=$(cd "$work" && "$luafind" . -maxdepth 0 "$@" 2>"$work/err") ||
			fail "$what: exit $? ($(head -c 300 "$work/err"))"
		[ "$out" = "$want" ] || fail "$what: printed '$out'"
	}
	# shellcheck disable=SC2046 # the words are meant to be split
	expect "30,000 nested parentheses" . $(rep '(' 30000) -true $(rep ')' 30000)
	# shellcheck disable=SC2046
	expect "30,001 !" . $(rep '!' 30001) -false
	# shellcheck disable=SC2046
	expect "30,000 -not" "" $(rep -not 30000) -false
	# shellcheck disable=SC2046
	expect "-true -a ( nested 30,000 deep" . $(rep '-true -a (' 30000) -true $(rep ')' 30000)
	# shellcheck disable=SC2046
	expect "-exclude of 30,000 nested parentheses" . -exclude $(rep '(' 30000) -false $(rep ')' 30000)
	# shellcheck disable=SC2046
	expect "a chain of 50,000 -o" . $(rep '-false -o' 50000) -true
	# -o in -a in -o...: 998 levels of operators and the primary.
	# shellcheck disable=SC2046
	set -- $(rep '-false -o ( -true -a (' 499) -true $(rep ') )' 499)
	expect "998 levels of -o and -a" . "$@"
	if [ -x /usr/bin/find ]; then
		gnu=$(cd "$work" && /usr/bin/find . -maxdepth 0 "$@") || fail "GNU find failed on 998 levels"
		[ "$gnu" = . ] || fail "GNU find printed '$gnu' for 998 levels"
	fi
	# shellcheck disable=SC2046
	set -- $(rep '-false -o ( -true -a (' 501) -true $(rep ') )' 501)
	if out=$(cd "$work" && "$luafind" . -maxdepth 0 "$@" 2>"$work/err"); then
		fail "1002 levels succeeded"
	fi
	[ -z "$out" ] || fail "1002 levels printed to stdout"
	[ "$(head -n 1 "$work/err")" = "luafind: expression nested too deeply (over 1000 levels)" ] ||
		fail "1002 levels: $(head -c 300 "$work/err")"
	# The caret under the operator that went over.
	[ "$(sed -n 3p "$work/err" | tr -d ' ')" = "^~" ] || fail "1002 levels: no caret under an operator"
	echo "ok: 30,000 nested ( and !, 50,000 -o, 998 levels of operators; 1002 refused"
}

# -delete refuses /, keeps a root of ".", refuses roots ending in "." or "..".
check_delete_refusals() {
	d=$work/refuse
	rm -rf "$d"
	mkdir -p "$d/keep/sub"
	touch "$d/keep/sub/f"
	for root in / // /tmp/.. "$d/../../../../../../../../../../.."; do
		if "$luafind" "$root" -maxdepth 0 -delete 2>"$work/err"; then
			fail "-delete of '$root' succeeded"
		fi
		grep -q "refusing to delete" "$work/err" || fail "no refusal for '$root'"
	done
	[ -d / ] || fail "/ is gone"
	(cd "$d/keep" && "$luafind" . -delete) || fail "find . -delete failed"
	[ -d "$d/keep" ] && [ ! -e "$d/keep/sub" ] || fail ". was not emptied and kept"
	for root in "$d/keep/." "$d/keep/sub/.."; do
		mkdir -p "$d/keep/sub"
		"$luafind" "$root" -delete 2>"$work/err" && fail "-delete of '$root' succeeded"
		grep -q "cannot delete .*Invalid argument" "$work/err" || fail "no EINVAL for '$root'"
	done
	[ -d "$d/keep" ] || fail "a root ending in . or .. was removed"
	# A symlink to / is followed under -H and -L: refused there (-maxdepth 0,
	# so that were it not, only rmdir of the link would fail; cli.refuse_root
	# tries the whole walk in a chroot).  Under -P it is only a link.
	ln -s / "$d/slash"
	for mode in -H -L; do
		if "$luafind" "$mode" "$d/slash" -maxdepth 0 -delete 2>"$work/err"; then
			fail "-delete of a link to / under $mode succeeded"
		fi
		grep -q "refusing to delete '$d/slash': it is the root directory /" "$work/err" ||
			fail "no refusal for a link to / under $mode"
	done
	"$luafind" "$d/slash" -delete || fail "deleting a link to / failed"
	[ ! -L "$d/slash" ] && [ -d /usr ] || fail "link to / not removed as a link"
	echo "ok: -delete refusals"
}

# Links inside the tree are deleted as links in every mode; targets survive.
check_delete_links() {
	for mode in -P -H -L; do
		d=$work/links$mode
		rm -rf "$d" "$work/outside"
		mkdir -p "$d/tree/sub" "$work/outside/dir"
		touch "$work/outside/file" "$work/outside/dir/keep"
		ln -s "$work/outside/dir" "$d/tree/to-dir"
		ln -s "$work/outside/file" "$d/tree/sub/to-file"
		ln -s "$work/outside" "$d/tree/sub/to-outside"
		"$luafind" $mode "$d/tree" -delete || fail "$mode: -delete failed"
		[ ! -e "$d/tree" ] || fail "$mode: tree left behind"
		[ -f "$work/outside/file" ] && [ -f "$work/outside/dir/keep" ] ||
			fail "$mode: something outside the tree was deleted"
	done
	echo "ok: links deleted as links under -P, -H and -L"
}

# A 1,000,000-level chain (the slow label) deleted under ulimit -n 16: every
# level unlinked, no stat, each level opened at most twice.
check_chain_million() {
	c=$work/mchain
	rm_work "$c"
	"$mkchain" "$c" 1000000
	stats=$(ulimit -n 16 && "$luafind" --stats "$c" -delete 2>&1) || fail "-delete failed: $stats"
	[ ! -e "$c" ] || fail "chain not removed"
	[ "$(echo "$stats" | counter unlinks)" -eq 1000001 ] || fail "unlinks: $stats"
	[ "$(echo "$stats" | counter stats)" -le 1 ] || fail "stats during deletion: $stats"
	[ "$(echo "$stats" | counter opens)" -le 2000002 ] || fail "opens: $stats"
	echo "ok: 1,000,000-level chain deleted under ulimit -n 16 ($stats)"
}

# A 100,000-level chain deleted under ulimit -n 16.
check_delete_chain() {
	c=$work/dchain
	rm -rf "$c"
	"$mkchain" "$c" 100000
	stats=$(ulimit -n 16 && "$luafind" --stats "$c" -delete 2>&1) || fail "-delete failed: $stats"
	[ ! -e "$c" ] || fail "chain not removed"
	[ "$(echo "$stats" | counter unlinks)" -eq 100001 ] || fail "unlinks: $stats"
	[ "$(echo "$stats" | counter stats)" -le 1 ] || fail "stats during deletion: $stats"
	# 9 syscalls a level: openat, 2 getdents64, a statx and a close when its
	# fd is evicted, then openat "..", a statx checking its identity, unlinkat
	# and close; each level evicted and reopened at most once.
	levels=100001
	calls=0
	for k in opens reopens closes getdents stats fd_stats unlinks; do
		calls=$((calls + $(echo "$stats" | counter $k)))
	done
	[ "$calls" -le $((9 * levels)) ] || fail "$calls syscalls deleting $levels levels, expected at most 9 a level: $stats"
	[ "$(echo "$stats" | counter reopens)" -le $levels ] || fail "a level reopened more than once: $stats"
	echo "ok: 100,000-level chain deleted under ulimit -n 16 ($stats)"
}

# A 100,000-entry directory is read through a bounded buffer, in many
# getdents64 calls, its peak memory not growing with its size; then deleted
# while it is being read, under ulimit -n 16.
check_wide_stream() {
	t=$work/wide100k
	rm -rf "$t"
	mkdir -p "$t/sub"
	(cd "$t" && seq 1 100000 | sed 's/^/f/' | xargs touch)
	(cd "$t/sub" && seq 1 3000 | sed 's/^/g/' | xargs touch)
	for args in "" "-depth"; do
		# shellcheck disable=SC2086
		stats=$("$luafind" --stats "$t" $args 2>&1 >/dev/null)
		[ "$(echo "$stats" | counter entries)" -eq 103002 ] || fail "$args: $stats"
		[ "$(echo "$stats" | counter stats)" -eq 1 ] || fail "$args: $stats"
		# shellcheck disable=SC2086
		dups=$("$luafind" "$t" $args | sort | uniq -d | wc -l)
		[ "$dups" -eq 0 ] || fail "$args: $dups entries listed twice"
	done
	# 3.2 MB of records: at least 40 reads of a 64 KiB buffer.
	n=$("$luafind" --stats "$t" 2>&1 >/dev/null | counter getdents)
	[ "$n" -ge 40 ] || fail "getdents=$n: the directory was not read in bounded chunks"
	echo "ok: a 100,000-entry directory listed in $n getdents64 calls"
	if [ -x /usr/bin/time ]; then
		mkdir -p "$work/empty"
		wide=$(/usr/bin/time -f %M "$luafind" "$t" 2>&1 >/dev/null | tail -1)
		empty=$(/usr/bin/time -f %M "$luafind" "$work/empty" 2>&1 >/dev/null | tail -1)
		[ $((wide - empty)) -lt 1536 ] || fail "peak RSS ${wide} KiB listing it, ${empty} KiB for an empty dir"
		echo "ok: peak RSS ${wide} KiB listing it, ${empty} KiB for an empty directory"
	fi
	stats=$(ulimit -n 16 && "$luafind" --stats "$t" -mindepth 1 -delete 2>&1) || fail "-delete: $stats"
	[ "$(echo "$stats" | counter unlinks)" -eq 103001 ] || fail "-delete: $stats"
	[ -z "$(ls -A "$t")" ] || fail "-delete left $(ls -A "$t" | wc -l) entries"
	echo "ok: deleted while read, under ulimit -n 16"
}

# -lua reads lazily, and a failing -lua query stops before doing harm.
check_lua() {
	need_strace "counting the stat calls of -lua"
	t=$work/lua
	rm -rf "$t"
	mkdir -p "$t"
	i=0
	while [ $i -lt 20 ]; do
		mkdir "$t/d$i"
		(cd "$t/d$i" && seq 1 49 | sed 's/$/.c/' | xargs touch)
		i=$((i + 1))
	done
	n=$("$luafind" --stats "$t" -lua 'name:match("%.c$")' 2>&1 >/dev/null | counter stats)
	[ "$n" -eq 1 ] || fail "-lua on name made $n stats, expected 1 (the root)"
	n=$("$luafind" --stats "$t" -lua 'type == "d" or depth > 5' 2>&1 >/dev/null | counter stats)
	[ "$n" -eq 1 ] || fail "-lua on type/depth made $n stats, expected 1"
	n=$("$luafind" --stats "$t" -lua 'size > 100' 2>&1 >/dev/null | counter stats)
	[ "$n" -eq 1001 ] || fail "-lua on size made $n stats, expected 1001"
	mkdir -p "$work/empty"
	base=$(LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/st" "$luafind" "$work/empty" \
		-lua 'name:match("%.c$")' >/dev/null && awk '$NF ~ /stat/ { s += $4 } END { print s + 0 }' "$work/st")
	n=$(LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/st" "$luafind" "$t" \
		-lua 'name:match("%.c$")' >/dev/null && awk '$NF ~ /stat/ { s += $4 } END { print s + 0 }' "$work/st")
	[ "$n" -eq "$base" ] || fail "strace: -lua on name made $n stat calls, $base for an empty dir"
	n=$(LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/st" "$luafind" "$t" \
		-lua 'size > 100' >/dev/null && awk '$NF ~ /stat/ { s += $4 } END { print s + 0 }' "$work/st")
	[ "$n" -eq $((base + 1000)) ] || fail "strace: -lua on size made $n stat calls, expected $base + 1000"
	# A syntax error is reported before the walk: nothing printed, status 1.
	out=$("$luafind" "$t" -lua 'name ==' 2>"$work/err") && fail "a syntax error was accepted"
	[ -z "$out" ] && grep -q -- '-lua' "$work/err" || fail "syntax error: output or message wrong"
	# A misspelt field is an error before the walk, with a suggestion.
	out=$("$luafind" "$t" -lua 'szie > 1' -delete 2>"$work/err") && fail "-lua 'szie > 1' was accepted"
	[ -z "$out" ] && grep -q "unknown name 'szie' (did you mean 'size'?)" "$work/err" ||
		fail "-lua 'szie > 1': $(cat "$work/err")"
	# A runtime error stops at once: nothing deleted, status 1, path named.
	"$luafind" "$t" -lua 'depth < 2 or nosuch.field' -delete 2>"$work/err" && fail "runtime error: status 0"
	grep -q 'nosuch' "$work/err" || fail "runtime error: no message"
	[ "$(find "$t" | wc -l)" -eq 1001 ] || fail "a failing -lua query deleted something"
	# Also under "!", which turns the failed query's false into true.
	"$luafind" "$t" ! -lua 'nosuch.field' -delete 2>"$work/err" && fail "! -lua error: status 0"
	[ "$(find "$t" | wc -l)" -eq 1001 ] || fail "! -lua error -delete deleted something"
	out=$("$luafind" "$t" ! -lua 'depth > 1 and nosuch.field' -print 2>/dev/null) && fail "! -lua error: status 0"
	[ "$(printf '%s\n' "$out" | wc -l)" -le 21 ] || fail "! -lua error: printed after the error"
	# -lua-errors skip: each failing entry reported once and false, the others
	# printed, status 1; with -delete the first error still stops everything.
	out=$("$luafind" "$t" -lua-errors skip -lua 'assert(not path:match("/d1/1[0-9]%.c$"), "bad")' 2>"$work/err") &&
		fail "-lua-errors skip: status 0"
	[ "$(echo "$out" | wc -l)" -eq 991 ] || fail "-lua-errors skip printed $(echo "$out" | wc -l) lines"
	[ "$(grep -c 'bad' "$work/err")" -eq 10 ] || fail "-lua-errors skip: $(grep -c bad "$work/err") messages"
	out=$("$luafind" "$t" -lua-errors skip ! -lua 'assert(not path:match("/d1/1[0-9]%.c$"), "bad")' 2>/dev/null) || true
	[ -z "$out" ] || fail "-lua-errors skip under '!' printed a failing entry: $(echo "$out" | head -3)"
	"$luafind" "$t" -lua-errors skip -lua 'depth < 2 or nosuch.field' -delete 2>"$work/err" && fail "skip+delete: status 0"
	[ "$(find "$t" | wc -l)" -eq 1001 ] || fail "-lua-errors skip with -delete deleted something"
	"$luafind" "$t" -lua-errors maybe -true 2>"$work/err" && fail "-lua-errors maybe was accepted"
	grep -q "invalid argument \`maybe' to \`-lua-errors'" "$work/err" || fail "-lua-errors maybe: $(cat "$work/err")"
	echo "ok: -lua is lazy, checks syntax first and never goes on after an error"
}

# On a terminal, -print shows undisplayable bytes as '?', as GNU find does
# (and as luafind does in colors, check_colors).
check_tty() {
	need_cmd script "a terminal (script(1), in bsdutils)"
	need_gnu_find "what GNU find shows on a terminal"
	d=$work/tty
	rm -rf "$d"
	mkdir -p "$d"
	nl='
'
	: >"$d/new${nl}line"
	: >"$d/$(printf 'bad\377byte')"
	: >"$d/$(printf 'tab\tname')"
	: >"$d/plain"
	# NO_COLOR: luafind colors names on a terminal (check_colors), find does not.
	(cd "$work" && NO_COLOR=1 LC_ALL=C script -qc "$luafind tty" /dev/null) | tr -d '\r' | sort >"$work/l.tty"
	(cd "$work" && LC_ALL=C script -qc "/usr/bin/find tty" /dev/null) | tr -d '\r' | sort >"$work/f.tty"
	cmp -s "$work/l.tty" "$work/f.tty" || fail "terminal output differs: $(diff "$work/l.tty" "$work/f.tty" | head -5)"
	grep -q 'new?line' "$work/l.tty" || fail "no ? for a newline on a terminal"
	# In a UTF-8 locale a UTF-8 name shows as it is (it was "caf??": -print
	# alone never took the user's locale), invalid bytes still as '?'.
	: >"$d/$(printf 'caf\303\251')"
	(cd "$work" && NO_COLOR=1 LC_ALL=C.UTF-8 script -qc "$luafind tty" /dev/null) | tr -d '\r' | sort >"$work/l.tty"
	(cd "$work" && LC_ALL=C.UTF-8 script -qc "/usr/bin/find tty" /dev/null) | tr -d '\r' | sort >"$work/f.tty"
	cmp -s "$work/l.tty" "$work/f.tty" || fail "terminal output (C.UTF-8) differs: $(diff "$work/l.tty" "$work/f.tty" | head -5)"
	grep -q "$(printf 'caf\303\251')" "$work/l.tty" || fail "a UTF-8 name not shown as it is in C.UTF-8"
	echo "ok: names on a terminal as GNU find shows them"
}

# Colors on a pseudo-terminal as GNU ls chooses them, every file type, the
# default table and custom ones (colors.py); -nocolor, NO_COLOR, messages.
check_colors() {
	need_cmd python3 "a pseudo-terminal and the comparison (colors.py)"
	need_cmd ls "the reference colors (GNU ls)"
	ls --version 2>/dev/null | grep -q 'GNU coreutils' || skip_tool "GNU ls" "the reference colors"
	python3 "$(dirname "$0")/colors.py" "$luafind" "$work"
}

# -hyperlink: OSC 8 links around colored names, byte for byte, against GNU
# ls --hyperlink's URLs, where they go and what they cost (hyperlink.py).
check_color_hyperlink() {
	need_cmd python3 "a pseudo-terminal and the comparison (hyperlink.py)"
	need_cmd ls "the reference URLs (GNU ls)"
	ls --version 2>/dev/null | grep -q 'GNU coreutils' || skip_tool "GNU ls" "the reference URLs"
	need_strace "counting the system calls of -hyperlink"
	python3 "$(dirname "$0")/hyperlink.py" "$luafind" "$work"
}

# Coloring stats nothing that LS_COLORS does not need: with a table that
# needs only types and names, a colored listing makes no stat; with ls's
# defaults under it (ex, su, sg: regular files need their mode), one stat
# per file printed, none for the others.
check_color_stats() {
	need_strace "counting the stat calls of colored output"
	t=$work/wide
	rm -rf "$t"
	mkdir -p "$t" "$work/empty"
	i=0
	while [ $i -lt 30 ]; do
		mkdir "$t/d$i"
		(cd "$t/d$i" && seq 1 27 | sed 's/^/f/' | xargs touch && seq 1 3 | sed 's/$/.c/' | xargs touch)
		ln -s d0 "$t/l$i"
		i=$((i + 1))
	done
	only='di=01;34:ln=01;36:*.c=01;33'
	off=':su=00:sg=00:ex=00:mh=00:st=00:ow=00:tw=00'
	for args in "-name *.c -color" "-color" "-color -printf %p|%f|%h
"; do
		# shellcheck disable=SC2086
		n=$(LS_COLORS="$only$off" stat_calls "$t" $args)
		# shellcheck disable=SC2086
		base=$(LS_COLORS="$only$off" stat_calls "$work/empty" $args)
		[ "$n" -eq "$base" ] || fail "strace: $args with LS_COLORS=$only$off made $n stat calls, $base for an empty dir"
	done
	out=$(LS_COLORS="$only$off" "$luafind" "$t/d1" -name 1.c -color)
	[ "$out" = "$(printf '[01;34m%s/[0m[01;33m1.c[0m' "$t/d1")" ] || fail "colored: $out"
	echo "ok: strace counted no stat for colors that need only types and names (LS_COLORS=$only$off)"
	n=$(LS_COLORS="$only" stat_calls "$t" -name '*.c' -color)
	base=$(LS_COLORS="$only" stat_calls "$work/empty" -name '*.c' -color)
	[ "$n" -eq $((base + 90)) ] || fail "strace: -name '*.c' -color with LS_COLORS=$only made $n stat calls, expected $base + 90"
	n=$(LS_COLORS="$only" stat_calls "$t" -name '*.c' -nocolor)
	nbase=$(LS_COLORS="$only" stat_calls "$work/empty" -name '*.c' -nocolor)
	[ "$n" -eq "$nbase" ] || fail "strace: -nocolor made $n stat calls, expected $nbase"
	n=$(LS_COLORS="$only:ln=target$off" stat_calls "$t" -name 'l*' -color)
	[ "$n" -eq $((base + 30)) ] || fail "strace: ln=target made $n stat calls, expected $base + 30 (the links)"
	echo "ok: with ls's defaults under LS_COLORS=$only, one stat per .c file printed (ex, su, sg), none without colors"
}

# -files0-from with the list on stdin, which diff_find.sh cannot give: the
# same output, messages and exit status as GNU find.
check_files0_stdin() {
	need_gnu_find "the reference"
	LC_ALL=C
	export LC_ALL
	cd "$work"
	rm -rf t && mkdir -p t/d/e && : >t/f
	printf '%s\0' t/d '' t/f >list
	i=0
	for cmd in "printf 't/d\\0\\0t/f\\0nowhere' | FIND -files0-from - -print" \
		   "printf 't' | FIND -files0-from - -maxdepth 1" \
		   "FIND -files0-from - <list" \
		   "FIND -files0-from - </dev/null" \
		   "FIND -files0-from list -ok echo {} \\; <list" \
		   "FIND -files0-from /dev/stdin -ok echo {} \\; <list" \
		   "FIND -files0-from - -okdir echo {} \\; <list"; do
		i=$((i + 1))
		lrc=0; frc=0
		eval "$(printf "%s\n" "$cmd" | sed "s|FIND|'$luafind'|")" >l.out 2>l.err || lrc=$?
		eval "$(printf "%s\n" "$cmd" | sed "s|FIND|/usr/bin/find|")" >f.out 2>f.err || frc=$?
		sed -i 's/^[^:]*find: /find: /' l.err f.err
		cmp -s l.out f.out || fail "$cmd: stdout differs: $(diff l.out f.out)"
		cmp -s l.err f.err || fail "$cmd: stderr differs: $(diff l.err f.err)"
		[ $lrc -eq $frc ] || fail "$cmd: exit status $lrc, GNU find $frc"
	done
	echo "ok: $i -files0-from runs on stdin as GNU find"
}

# -D errors end with GNU's "Try '... --help'" line, which names the program,
# so diff_find.sh cannot compare them: findutils' debug-missing-arg.sh.
check_debug_opts() {
	for args in "-D" "-D ," "-D ,,"; do
		# shellcheck disable=SC2086
		if "$luafind" $args >"$work/out" 2>"$work/err"; then
			fail "'$args' succeeded"
		fi
		[ -s "$work/out" ] && fail "'$args' printed to stdout"
		grep -q "^Try 'luafind --help' for more information\.$" "$work/err" \
			|| fail "'$args': no 'Try' line: $(cat "$work/err")"
	done
	"$luafind" -D 2>&1 | grep -qF "find: Missing argument after the -D option." || fail "-D: message"
	"$luafind" -D , 2>&1 | grep -qF "find: Empty argument to the -D option." || fail "-D ,: message"
	echo "ok: -D errors"
}

# -perm with symbolic modes whose clauses name no who letter: the umask
# leaves out its bits, as POSIX says (Austin Group bug 1392) and bfs 4 does,
# unlike GNU find 4.9.  Explicit expectations, then bfs 4.1 or later ($BFS4)
# on stdout and exit status.
check_perm_posix() {
	bfs4=${BFS4:-/tmp/bfs-4.1.4/bin/bfs}
	need_reference "$bfs4" "the reference for symbolic -perm"
	t=$work/perm
	chmod -R u+rwx "$t" 2>/dev/null || true
	rm -rf "$t"
	mkdir -p "$t/d755"
	chmod 755 "$t/d755"
	for m in 000 200 222 600 644 666 755 777 1777 2755 4755; do
		: >"$t/m$m"
		chmod "$m" "$t/m$m"
	done
	expect() { # expect UMASK MODE NAMES...
		um=$1 mode=$2
		shift 2
		got=$(cd "$t" && umask "$um" && "$luafind" . -perm "$mode" | sort | tr '\n' ' ')
		want=$(for n in "$@"; do echo "$n"; done | sort | tr '\n' ' ')
		[ "$got" = "$want" ] || fail "umask $um -perm $mode: got '$got', expected '$want'"
	}
	expect 022 +w ./m200
	expect 000 +w ./m222
	expect 022 a+w ./m222
	expect 022 =w ./m200
	expect 022 -+w ./m200 ./m222 ./m600 ./m644 ./m666 ./m755 ./m777 ./m1777 ./m2755 ./m4755 ./d755 .
	expect 077 /+rw ./m200 ./m222 ./m600 ./m644 ./m666 ./m755 ./m777 ./m1777 ./m2755 ./m4755 ./d755 .
	expect 022 /+x ./m755 ./m777 ./m1777 ./m2755 ./m4755 ./d755 .
	expect 077 /+x ./m755 ./m777 ./m1777 ./m2755 ./m4755 ./d755 .
	expect 022 =rx,+w ./m755 ./d755 .
	expect 022 -g+w,+w ./m222 ./m666 ./m777 ./m1777
	expect 022 +u=rw ./m644 # chmod's 644; bfs 4.1.4 says 666
	expect 022 -+t,+x ./m1777
	echo "ok: -perm symbolic modes without who leave out the umask"
	n=0
	for um in 022 027 077 000 777; do
		for mode in +w -+w /+w =w -=w a+w +s -+t +X -+x /+x =rx,+w -g+w,+w =X,+t \
			    +u,+r -o+r,+rw u=rwx,g=u,+x =r,g+w -u=w,+r,o+x 644 -644 /022; do
			l=$(cd "$t" && umask "$um" && { "$luafind" . -perm "$mode" 2>/dev/null; echo "status $?"; } | sort)
			b=$(cd "$t" && umask "$um" && { "$bfs4" . -perm "$mode" 2>/dev/null; echo "status $?"; } | sort)
			[ "$l" = "$b" ] || fail "umask $um -perm $mode: luafind and bfs 4 differ: $l / $b"
			n=$((n + 1))
		done
	done
	echo "ok: $n -perm runs as bfs 4"
}

# -H, -L and -P grouped in one argument ("-HL") and repeated: the last one
# wins (POSIX; bfs agrees, GNU find rejects the grouped forms).
check_follow_flags() {
	t=$work/follow
	rm -rf "$t"
	mkdir -p "$t/root/d"
	ln -s d "$t/root/ld"
	ln -s root "$t/lroot"
	for c in "-HL d" "-LH l" "-LP l" "-PHL d" "-HLH l" "-L:-H l" "-H:-L d" "-P:-HL d" "-LLP l"; do
		flags=$(printf '%s' "${c% *}" | tr : ' ')
		want=${c#* }
		# shellcheck disable=SC2086
		got=$(cd "$t" && "$luafind" $flags root -name ld -printf '%y') || fail "$flags: failed"
		[ "$got" = "$want" ] || fail "$flags: root/ld is '$got', expected '$want'"
	done
	# A root link is followed under -H, the last flag here.
	got=$(cd "$t" && "$luafind" -LPH lroot -maxdepth 0 -printf '%y')
	[ "$got" = d ] || fail "-LPH: the root is '$got', expected d"
	for bad in -HLx -Hx -H- -HL-; do
		if (cd "$t" && "$luafind" $bad lroot >/dev/null 2>&1); then
			fail "$bad was accepted"
		fi
	done
	echo "ok: grouped and repeated -H/-L/-P, the last one winning"
}

# A test that cannot decide for an entry at run time (a regex match error,
# an unreadable mount table) is an error that stops the walk at once, with
# status 1 and the path named: never "no match", which "!" would turn into
# true before -delete.
check_runtime_errors() {
	t=$work/rt
	rm -rf "$t"
	mkdir -p "$t/r"
	victim=$t/r/$(printf 'a%.0s' $(seq 40))b
	: >"$victim"
	# PCRE2's match limit.
	pat='(?:.*/(a+)+c|.*)'
	"$luafind" "$t/r" -regextype pcre2 ! -regex "$pat" -delete 2>"$work/err" && fail "pcre2 match error: status 0"
	[ -e "$victim" ] || fail "pcre2 match error: ! -regex -delete deleted the file"
	grep -qF "'$victim': -regex: match limit exceeded" "$work/err" || fail "pcre2 match error: $(cat "$work/err")"
	[ "$(wc -l <"$work/err")" -eq 1 ] || fail "pcre2 match error: not one message: $(cat "$work/err")"
	out=$("$luafind" "$t/r" -regextype pcre2 ! -iregex "$pat" -print 2>/dev/null) && fail "-iregex: status 0"
	[ -z "$out" ] || fail "pcre2 match error: printed $out"
	# glibc's re_match() failing (-2, out of memory), through a shim; the
	# ASan runtime, when luafind has one, must come first.
	[ -n "${REMATCH_FAIL:-}" ] || fail "REMATCH_FAIL (the re_match shim) is not set"
	asan=$(ldd "$luafind" | awk '/libasan/ { print $3 }')
	LD_PRELOAD=${asan:+$asan:}$REMATCH_FAIL "$luafind" "$t/r" ! -regex '.*' -delete 2>"$work/err" &&
		fail "GNU regex match error: status 0"
	[ -e "$victim" ] || fail "GNU regex match error: ! -regex -delete deleted the file"
	grep -qF "'$victim': -regex: regular expression matching failed" "$work/err" ||
		fail "GNU regex match error: $(cat "$work/err")"
	# -fstype without a mount table (its open fails, injected by strace):
	# without strace, a skip outside CI, as the other strace checks.
	need_strace "making the mount table unreadable"
	ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -P /proc/self/mountinfo -e trace=openat \
		-e inject=openat:error=EACCES "$luafind" "$t/r" ! -fstype nosuchfs -delete 2>"$work/err" &&
		fail "-fstype without a mount table: status 0"
	[ -e "$victim" ] || fail "-fstype without a mount table: ! -fstype -delete deleted the file"
	grep -qF "'$victim': -fstype: cannot read the mount table (/proc/self/mountinfo): Permission denied" \
		"$work/err" || fail "-fstype without a mount table: $(cat "$work/err")"
	echo "ok: regex match errors and an unreadable mount table stop the walk, nothing deleted"
	rm -rf "$t"
}

# -newerXY with a reference file that does not exist, birth time or not:
# GNU find's one message (as for -newer), status 1.
check_newer_missing() {
	[ -x /usr/bin/find ] || fail "no GNU find"
	LC_ALL=C
	export LC_ALL
	cd "$work"
	rm -rf t && mkdir t
	/usr/bin/find t -newer /nonexistent 2>gnu.err && fail "GNU find: status 0"
	want=$(sed 's/^[^:]*: //' gnu.err)
	for p in -newermB -newerBm -newerBB -neweraB -newercB -newermm -anewer; do
		"$luafind" t $p /nonexistent 2>lf.err && fail "$p /nonexistent: status 0"
		got=$(sed 's/^[^:]*: //' lf.err)
		[ "$got" = "$want" ] || fail "$p /nonexistent: '$got', GNU find says '$want'"
	done
	echo "ok: -newerXY of a missing file: GNU find's message only"
}

# -printf widths and precisions are capped at 4096 (luafind(1)): a larger
# one is a usage error naming the directive, before the walk.
check_printf_bounds() {
	rm -rf "$work/p" && mkdir -p "$work/p"
	for f in '%.666666666S' '%999999999d' '%4097s' '%.4097p' '%-05.4097TY' '%99999999999999999999999p'; do
		out=$(timeout 60 "$luafind" "$work/p" -printf "$f" 2>"$work/err") && fail "$f: status 0"
		[ -z "$out" ] || fail "$f: printed something"
		grep -qF "the width or precision of the format directive \`$f' is larger than 4096" "$work/err" ||
			fail "$f: $(cat "$work/err")"
	done
	out=$("$luafind" "$work/p" -printf '%4096d|%.4096p|%-4096.4096S|') || fail "4096: refused"
	[ ${#out} -eq $((4096 + 1 + ${#work} + 2 + 1 + 4096 + 1)) ] || fail "4096: ${#out} bytes"
	echo "ok: -printf widths and precisions above 4096 refused"
}

# -status and the scripts' progress line on a pseudo-terminal: drawn on the
# last row (outside the scrolling region), within the terminal's width
# (TIOCGWINSZ, not $COLUMNS), resized on SIGWINCH, erased at the end and on
# SIGINT and SIGTERM; never written when standard error is not a terminal.
check_status() {
	need_cmd python3 "a pseudo-terminal (python3's pty module)"
	# The output is compared as text: no colors on the pty.
	export NO_COLOR=1
	here=$(cd "$(dirname "$0")" && pwd)
	pty() { python3 "$here/pty_run.py" "$@"; }
	events() { python3 "$here/status_events.py" "$1"; }
	cd "$work"
	rm -rf t && mkdir t
	for f in a b c d e f; do : >"t/$f"; done
	i=0
	while [ $i -lt 100 ]; do
		mkdir -p "t/directory-number-$i/sub" && : >"t/directory-number-$i/f" && : >"t/directory-number-$i/sub/g"
		i=$((i + 1))
	done
	# Drawn from the first entry, on row 10 of 10, at most 49 columns of 50
	# (COLUMNS says otherwise: the terminal's size wins); erased at the end,
	# after which the output is complete.
	COLUMNS=200 pty out 50 10 -- "$luafind" t -status -name 'f' >/dev/null || fail "-status: exit status $?"
	events out >ev
	[ "$(sed -n 1p ev)" = "region 9" ] || fail "-status: no scrolling region first: $(head -3 ev)"
	grep -q '^draw 10 [0-9]* 1 entries, [0-9]*/s, 1 dirs left: t$' ev || fail "-status: first line: $(head -3 ev)"
	awk '$1 == "draw" && $3 > 49 { exit 1 }' ev || fail "-status: a line wider than 49 columns: $(grep draw ev)"
	[ "$(grep -v output ev | tail -1)" = reset ] || fail "-status: not erased at the end: $(tail -3 ev)"
	tr -d '\r' <out | grep -c '/f$' | grep -qx 101 || fail "-status: output lost"
	# Resized on SIGWINCH: a new region, lines on the new last row, narrower.
	pty out 60 12 0.5:30,6 -- "$luafind" t -maxdepth 1 -type f -status -exec sleep 0.2 ';' ||
		fail "-status resized: exit status $?"
	events out >ev
	grep -q '^region 11$' ev && grep -q '^region 5$' ev || fail "-status: no resize: $(cat ev)"
	awk '$1 == "region" { r = $2 } $1 == "draw" && ($2 != r + 1 || (r == 5 && $3 > 29)) { exit 1 }' ev ||
		fail "-status: a line off the last row or too wide after the resize: $(cat ev)"
	[ "$(tail -1 ev)" = reset ] || fail "-status resized: not erased: $(tail -3 ev)"
	# SIGINT and SIGTERM: erased, then the signal ends the program as before.
	for sig in int:130 term:143; do
		rc=0
		pty out 50 10 "0.6:${sig%:*}" -- "$luafind" t -maxdepth 1 -status -exec sleep 0.4 ';' || rc=$?
		[ $rc -eq "${sig#*:}" ] || fail "-status, SIG${sig%:*}: exit status $rc"
		events out >ev
		grep -q '^draw' ev && [ "$(tail -1 ev)" = reset ] || fail "-status, SIG${sig%:*}: not erased: $(cat ev)"
	done
	# SIGPIPE (the reader went away) mid-walk: erased too.
	rc=0
	pty out 50 10 -- sh -c "'$luafind' t -status -printf '%-2000p\\n' | head -c 1" || rc=$?
	events out >ev
	grep -q '^draw' ev && [ "$(grep -v output ev | tail -1)" = reset ] || fail "-status, SIGPIPE: not erased: $(cat ev)"
	# Standard error not a terminal: nothing written there, nothing drawn.
	pty out 50 10 -- sh -c "'$luafind' t -status 2>err" || fail "-status 2>file: exit status $?"
	[ ! -s err ] || fail "-status wrote to a file: $(od -c err | head -3)"
	! grep -q "$(printf '\033')" out || fail "-status drew with standard error a file"
	"$luafind" t -status 2>&1 | grep -q "$(printf '\033')" && fail "-status drew into a pipe"
	pty out 50 10 -- env TERM=dumb "$luafind" t -status >/dev/null || fail "-status, TERM=dumb: exit status $?"
	! grep -q "$(printf '\033')" out || fail "-status drew on a dumb terminal"
	# The scripts' line (LUAFIND_PROGRESS=always: from the start): the
	# script's name and counters kept whole, the path shortened in the middle,
	# du's real count; erased at the end.
	pty out 50 10 -- env LUAFIND_PROGRESS=always "$luafind" --run du --top 1 t >/dev/null || fail "du: exit status $?"
	events out >ev
	grep -q '^draw 10 49 du: 64 entries, [1-9][0-9]* directories: t/.*\.\.\.' ev ||
		fail "du's progress line: $(grep draw ev)"
	[ "$(grep -v output ev | tail -1)" = reset ] || fail "du: not erased: $(tail -3 ev)"
	pty out 44 10 -- env LUAFIND_PROGRESS=never "$luafind" --run du t >/dev/null || fail "du: exit status $?"
	! grep -q "$(printf '\033')" out || fail "LUAFIND_PROGRESS=never: drawn"
	echo "ok: -status and the scripts' line drawn, resized and erased on a terminal only"
}

# The I/O queue's workers stat a directory's names in inode order (seed
# 003): names renamed in a shuffled order, so that neither the records' order
# nor its reverse is the inodes' order; some worker thread must then stat a
# whole directory in ascending inode order, which a walk in the records'
# order cannot do by chance.  The queue works only while reading blocks on
# I/O: a shim ($SEEM_BLOCKED) makes every job seem to have blocked.
check_inode_order() {
	need_strace "tracing the order of the stat calls"
	need_cmd python3 "reading strace's output"
	# One directory above the others: a dormant queue's sample, whose
	# blocking wakes it up before the walk reaches the thirty.
	# A hundred directories in ten groups: on a loaded machine the walker
	# does itself the directories no worker has started (a dormant queue's
	# sample too), and each group offers the queue another sample.
	t=$work/ino
	rm -rf "$t"
	mkdir -p "$t/top"
	python3 - "$t/top" "$work/inodes" <<'PY'
import os, random, sys
top, out = sys.argv[1], open(sys.argv[2], "w")
for i in range(100, 200):
    g = "%s/g%d" % (top, i // 10)
    os.makedirs(g, exist_ok=True)
    d = "%s/d%d" % (g, i)
    os.mkdir(d)
    for n in range(100, 220):
        open("%s/a%d_%d" % (d, i, n), "w").close()
    order = list(range(100, 220))
    random.shuffle(order)
    for n in order:
        os.rename("%s/a%d_%d" % (d, i, n), "%s/f%d_%d" % (d, i, n))
        out.write("f%d_%d %d\n" % (i, n, os.lstat("%s/f%d_%d" % (d, i, n)).st_ino))
PY
	[ -n "${SEEM_BLOCKED:-}" ] || fail "SEEM_BLOCKED (the getrusage shim) is not set"
	asan=$(ldd "$luafind" | awk '/libasan/ { print $3 }')
	for attempt in 1 2 3; do
		# The workers' own stats: strace does not see io_uring's.
		LD_PRELOAD=${asan:+$asan:}$SEEM_BLOCKED ASAN_OPTIONS=detect_leaks=0 LUAFIND_IO_URING=0 \
			strace -f -qq -e trace=newfstatat,statx -o "$work/st" \
			"$luafind" -j4 "$t" -size +0 >/dev/null || fail "-j4 -size +0: exit status $?"
		found=$(python3 - "$work/st" "$work/inodes" <<'PY'
import re, sys
ino = dict(line.split() for line in open(sys.argv[2]))
main, runs, cur = None, [], {}
for line in open(sys.argv[1]):
    m = re.match(r'(\d+) +(?:statx|newfstatat)\((\d+), "(f(\d+)_\d+)"', line)
    if not m:
        continue
    pid, name, d = m.group(1), m.group(3), m.group(4)
    run = cur.get(pid)
    if run is None or run[0] != d:
        run = cur[pid] = [d, []]
        runs.append((pid, run))
    run[1].append(int(ino[name]))
first = open(sys.argv[1]).readline().split()[0]
whole = [r for pid, r in runs if pid != first and len(r[1]) == 120]
print(sum(r[1] == sorted(r[1]) for r in whole), len(whole))
PY
)
		[ "${found%% *}" -gt 0 ] && break
	done
	[ "${found%% *}" -gt 0 ] ||
		fail "no worker thread statted a directory in inode order (sorted/whole runs: $found)"
	echo "ok: a worker statted whole directories in ascending inode order (sorted/whole runs: $found)"
}

# The I/O queue's workers stat through io_uring where the kernel lets them:
# the output GNU find gives, one stat per entry, some through the rings.
# Without them (LUAFIND_IO_URING=0, or a kernel refusing io_uring_setup, as
# strace's fault injection makes it) the workers stat by themselves, with
# the same output.
check_io_uring() {
	need_cmd python3 "building the tree"
	need_gnu_find "the expected output"
	need_strace "refusing io_uring_setup"
	[ -n "${SEEM_BLOCKED:-}" ] || fail "SEEM_BLOCKED (the getrusage shim) is not set"
	t=$work/tree
	rm -rf "$t"
	python3 - "$t" <<'PY'
import os, sys
top = sys.argv[1]
for i in range(40):
    d = "%s/g%d/d%d" % (top, i % 5, i)
    os.makedirs(d)
    for n in range(150):
        with open("%s/f%d" % (d, n), "w") as f:
            f.write("x" * ((n * 37 + i) % 3000))
    os.symlink("f0", "%s/l" % d)
PY
	/usr/bin/find "$t" -size +1k | sort >"$work/want"
	asan=$(ldd "$luafind" | awk '/libasan/ { print $3 }')
	# run WHAT [ENV...]: -j4 --stats -size +1k, the queue awake (the shim).
	run() {
		what=$1
		shift
		env LD_PRELOAD="${asan:+$asan:}$SEEM_BLOCKED" ASAN_OPTIONS=detect_leaks=0 "$@" \
			"$luafind" -j4 --stats "$t" -size +1k >"$work/out" 2>"$work/err" ||
			fail "$what: exit status $? ($(cat "$work/err"))"
		sort "$work/out" | cmp -s - "$work/want" || fail "$what: not find's output"
		stats=$(counter stats <"$work/err")
		entries=$(counter entries <"$work/err")
		[ "$stats" -eq "$entries" ] || fail "$what: $stats stats for $entries entries"
		[ "$(counter dirs_ahead <"$work/err")" -gt 0 ] || fail "$what: the queue read nothing ahead"
		ring=$(counter stats_ring <"$work/err")
	}
	run "LUAFIND_IO_URING=0" LUAFIND_IO_URING=0
	[ "$ring" -eq 0 ] || fail "LUAFIND_IO_URING=0: $ring stats through io_uring"
	run "io_uring_setup refused" strace -f -qq -o /dev/null -e trace=io_uring_setup \
		-e inject=io_uring_setup:error=EPERM
	[ "$ring" -eq 0 ] || fail "io_uring_setup refused: $ring stats through io_uring"
	run "the default"
	# Whether this kernel lets a process set up an io_uring (425, the same
	# number on every architecture); kernel.io_uring_disabled or a seccomp
	# filter may not, which no package changes: then a skip.
	if ! why=$(python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.syscall(425, 4, ctypes.create_string_buffer(120))
if fd < 0:
    sys.exit(os.strerror(ctypes.get_errno()))
os.close(fd)' 2>&1); then
		[ "$ring" -eq 0 ] || fail "the default: $ring stats through io_uring, where io_uring_setup fails"
		echo "skipped: this kernel refuses io_uring_setup ($why)"
		exit 77
	fi
	[ "$ring" -gt 0 ] || fail "the default: no stat through io_uring, though the kernel has it"
	echo "ok: $ring of $stats stats through io_uring, the same output without it"
}

# The extended attribute calls made by "luafind $@" (strace -c), one
# "NAME COUNT" line per call made: getxattr, lgetxattr, listxattr, llistxattr.
xattr_calls() {
	LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/strace.txt" \
		-e trace=getxattr,lgetxattr,fgetxattr,listxattr,llistxattr,flistxattr "$luafind" "$@" >/dev/null
	awk '$NF ~ /xattr$/ && $4 ~ /^[0-9]+$/ { print $NF, $4 }' "$work/strace.txt" | sort
}

# bfs's -xattr, -xattrname, -acl and -capable (issue 22, item 4): a system
# call of their own per entry they are evaluated for, none without them;
# after the tests that need no stat and those that stat (-O1); a failure is
# an error for the entry, which is then neither true nor false.
check_fsattr() {
	need_strace "counting the extended attribute calls"
	need_cmd setfattr "setting extended attributes (Debian's attr)"
	t=$work/t
	rm_work "$t"
	mkdir -p "$t"
	i=0
	while [ $i -lt 10 ]; do
		mkdir "$t/d$i"
		(cd "$t/d$i" && seq 1 9 | sed 's/^/f/' | xargs touch && echo data >big)
		i=$((i + 1))
	done
	setfattr -n user.x -v 1 "$t/d3/f1" 2>/dev/null ||
		{ echo "skipped: $work holds no user.* extended attributes"; exit 77; }
	ln -s d3/f1 "$t/link"
	# 10 directories of 10 files, a link and the root: 112 entries.
	for args in "" "-name f1" "-size +0" "-type f -print" "-printf %p%s" "-ls" "-newer $t/d0" "-empty" \
		"-follow -type f" "-unique" "-since 2001-01-01"; do
		# shellcheck disable=SC2086
		n=$(xattr_calls "$t" $args)
		[ -z "$n" ] || fail "$args made extended attribute calls: $n"
	done
	echo "ok: queries without -xattr, -xattrname, -acl or -capable make no extended attribute call"
	n=$(xattr_calls "$t" -xattr)
	[ "$n" = "$(printf 'listxattr 111\nllistxattr 1')" ] || fail "-xattr: $n, expected one call per entry"
	n=$(xattr_calls -L "$t" -xattrname user.x)
	[ "$n" = "getxattr 112" ] || fail "-L -xattrname: $n, expected one getxattr per entry"
	out=$("$luafind" -L "$t" -xattrname user.x | sort | tr '\n' ' ')
	[ "$out" = "$t/d3/f1 $t/link " ] || fail "-L -xattrname user.x printed $out"
	n=$(xattr_calls "$t" -capable)
	[ "$n" = "getxattr 111" ] || fail "-capable: $n, expected one call per entry but the link"
	# Cheap tests first: -name, then the stat of -size, then the call.
	for args in "-xattr -name f1" "-name f1 -xattr" "-xattr ( -name f1 -o -name f2 )"; do
		# shellcheck disable=SC2086
		n=$(xattr_calls "$t" $args)
		want=10
		case $args in *f2*) want=20 ;; esac
		[ "$n" = "listxattr $want" ] || fail "$args: $n, expected $want calls (the tests without one first)"
	done
	n=$(xattr_calls "$t" -xattr -size +0 -type f)
	[ "$n" = "listxattr 10" ] || fail "-xattr -size +0 -type f: $n, expected 10 calls (the non-empty files)"
	stats=$("$luafind" --stats "$t" -xattr -name f1 2>&1 >/dev/null)
	[ "$(echo "$stats" | counter stats)" -eq 1 ] || fail "-xattr -name f1 made stats: $stats"
	echo "ok: one call per entry evaluated, after the tests that need none or a stat, and no stat"
	# A call that fails (EIO) is an error for the entry: reported, status
	# 1, and "!" does not make it true: nothing deleted.
	ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e trace=listxattr -e inject=listxattr:error=EIO \
		"$luafind" "$t/d5" ! -xattr -delete 2>"$work/err" && fail "-xattr failing: status 0"
	[ "$(ls "$t/d5" | wc -l)" -eq 10 ] || fail "! -xattr -delete deleted what could not be examined"
	grep -qF "luafind: '$t/d5/f1': Input/output error" "$work/err" || fail "-xattr failing: $(cat "$work/err")"
	[ "$(wc -l <"$work/err")" -eq 11 ] || fail "-xattr failing: not one message per entry: $(cat "$work/err")"
	out=$(ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e trace=getxattr \
		-e inject=getxattr:error=EACCES "$luafind" "$t/d5" -noerror ! -xattrname user.x 2>"$work/err") &&
		fail "-noerror: status 0, though the calls failed"
	[ -z "$out$(cat "$work/err")" ] || fail "-noerror ! -xattrname failing: printed $out $(cat "$work/err")"
	# No support (EOPNOTSUPP, ENOTSUP) or no attribute (ENODATA): false, no error.
	for e in EOPNOTSUPP ENODATA; do
		out=$(ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e trace=getxattr \
			-e inject=getxattr:error=$e "$luafind" "$t/d5" ! -xattrname user.x ! -capable -type f 2>"$work/err") ||
			fail "$e: status $?"
		[ "$(echo "$out" | wc -l)" -eq 10 ] && [ ! -s "$work/err" ] || fail "$e: printed $out $(cat "$work/err")"
	done
	# Without /proc/self/fd, nothing can be named below a root: the run stops.
	ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e trace=listxattr,access \
		-e inject=listxattr:error=ENOENT -e inject=access:error=ENOENT \
		"$luafind" "$t/d5" ! -xattr -delete 2>"$work/err" && fail "no /proc: status 0"
	[ "$(ls "$t/d5" | wc -l)" -eq 10 ] || fail "no /proc: ! -xattr -delete deleted"
	grep -q "^luafind: '$t/d5/[a-z0-9]*': -xattr: the file cannot be named through /proc/self/fd" "$work/err" &&
		[ "$(wc -l <"$work/err")" -eq 1 ] || fail "no /proc: $(cat "$work/err")"
	echo "ok: a failed call is an error for the entry (quiet under -noerror), ENOTSUP and ENODATA false"
}

# bfs's -since TIME and -Xsince TIME are -newermt TIME and -newerXt TIME:
# the same matches for every form of date -newermt reads (dates.cases checks
# those against GNU find, since-bfs.cases bfs's forms against bfs), and the
# same message for what is not a date.
check_since() {
	t=$work/t
	rm -rf "$t"
	mkdir -p "$t"
	now=$(date +%s)
	for h in 1 3 25 49 100; do
		: >"$t/h$h"
		touch -m -d "@$((now - h * 3600 - 1800))" "$t/h$h"
		touch -a -d "@$((now - h * 3600 + 900))" "$t/h$h"
	done
	: >"$t/old"
	touch -d "2001-02-03 04:05:06" "$t/old"
	n=0
	for d in '2001-02-03T04:05:05,5' '3 Feb 2001' 'Feb 3 2001 04:05' '2/3/2001' 'yesterday' '2 days ago' \
		'last monday' '4 hours ago' 'now' 'today 00:00' '@981173105.5' '2001-02-03 04:05:05 -03:30'; do
		for x in a B c m; do
			"$luafind" "$t" -newer${x}t "$d" | sort >"$work/want" || fail "-newer${x}t '$d': status $?"
			"$luafind" "$t" -${x}since "$d" | sort >"$work/got" || fail "-${x}since '$d': status $?"
			cmp -s "$work/want" "$work/got" || fail "-${x}since '$d' is not -newer${x}t '$d': $(cat "$work/got")"
			n=$((n + 1))
		done
		"$luafind" "$t" -since "$d" | sort >"$work/got" || fail "-since '$d': status $?"
		"$luafind" "$t" -newermt "$d" | sort | cmp -s - "$work/got" || fail "-since '$d' is not -newermt '$d'"
	done
	[ "$(wc -l <"$work/got")" -ge 2 ] || fail "the last date matched $(wc -l <"$work/got") files"
	"$luafind" "$t" -newermt 'no date' 2>"$work/want" && fail "-newermt 'no date': status 0"
	"$luafind" "$t" -since 'no date' 2>"$work/got" && fail "-since 'no date': status 0"
	[ "$(head -1 "$work/got")" = "$(head -1 "$work/want")" ] || fail "-since 'no date': $(cat "$work/got")"
	grep -q "^luafind: I cannot figure out how to interpret .no date. as a date or time" "$work/got" ||
		fail "-since 'no date': $(cat "$work/got")"
	echo "ok: -since and -asince, -Bsince, -csince, -msince are -newerXt for $n dates"
}

# -unique: a stat per entry when it is given (the identity it keeps),
# none without it; a file reached again under another name is left out
# whatever the expression says, and a directory reached again not opened.
check_unique() {
	t=$work/t
	rm -rf "$t"
	mkdir -p "$t/a/sub" "$t/b"
	: >"$t/a/f"
	ln "$t/a/f" "$t/a/g"
	: >"$t/a/sub/x"
	ln -s ../a "$t/b/to-a"
	ln -s . "$t/a/sub/dot"
	stats=$("$luafind" --stats "$t" -name x 2>&1 >/dev/null)
	[ "$(echo "$stats" | counter stats)" -eq 1 ] || fail "-name x made stats: $stats"
	stats=$("$luafind" --stats "$t" -unique -name x 2>&1 >/dev/null)
	entries=$(echo "$stats" | counter entries)
	[ "$(echo "$stats" | counter stats)" -eq "$entries" ] || fail "-unique: not one stat per entry: $stats"
	out=$("$luafind" "$t/a" -unique -name '[fg]' | wc -l)
	[ "$out" -eq 1 ] || fail "-unique printed $out of two hard links"
	# -L: b/to-a is a, sub/dot its own directory (a loop, said nothing about).
	out=$("$luafind" -L "$t" -unique 2>"$work/err") || fail "-L -unique: status $?: $(cat "$work/err")"
	[ ! -s "$work/err" ] || fail "-L -unique: $(cat "$work/err")"
	[ "$(echo "$out" | wc -l)" -eq 6 ] || fail "-L -unique printed $out"
	"$luafind" -L "$t" 2>"$work/err" >/dev/null && fail "-L: the loop is not reported"
	stats=$("$luafind" --stats -L "$t" -unique -name nomatch 2>&1 >/dev/null)
	[ "$(echo "$stats" | counter opens)" -eq 4 ] || fail "-L -unique opened a directory seen before (4 are t, a, sub, b): $stats"
	# -depth (and -delete): a directory seen before is neither entered nor
	# evaluated after its contents.
	"$luafind" -L "$t" -unique | sort >"$work/want"
	"$luafind" -L "$t" -unique -depth | sort >"$work/got"
	cmp -s "$work/want" "$work/got" || fail "-L -unique -depth printed $(cat "$work/got")"
	[ "$("$luafind" -L "$t" -unique -depth -name sub | wc -l)" -eq 1 ] || fail "-L -unique -depth: sub twice"
	echo "ok: -unique stats every entry and only with it, leaves out hard links and loops, opens no directory twice"
}

"check_$check"
