#!/usr/bin/env bash
# bench.sh: the benchmark harness of luafind (not part of ctest).
#
# Compares luafind with GNU find, bfs and fd on the trees of DESIGN.md, "Where
# the bar is": a deterministic 500,002-entry synthetic source tree (32,001
# directories), a 1,000,000-level directory chain and a directory of 1,000,000
# files, on tmpfs; and a 200,001-entry tree of the same kind on a disk
# filesystem (ext4), warm or, with --cold, with the page cache dropped before
# every run; and, with --only fuse-list,fuse-size, a 20,001-entry tree of the
# same kind served through slowfs (slowfs.c), a FUSE passthrough that delays
# every request like a network filesystem's round trip.  Each query is one
# hyperfine invocation over all the tools; the tables give medians and ratios
# of medians to GNU find, never single times.
# Run with --help for the options.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/../.." && pwd)

BENCH_DIR=${LUAFIND_BENCH_DIR:-/dev/shm/luafind-bench}
TREE=$BENCH_DIR/tree
CHAIN=$BENCH_DIR/chain
WIDE=$BENCH_DIR/wide
WIDE_DIR=$BENCH_DIR/wide1m
WIDE_FILES=1000000
BIN=$BENCH_DIR/bin
SEED=1
CHAIN_DEPTH=1000000
DISK_DIR=${LUAFIND_BENCH_DISK:-/var/tmp/luafind-bench}
DISK_TREE=$DISK_DIR/tree
# A tree the size of chromium's source (2.1M entries; bfs publishes 2.12M
# files listed in 532 ms), with the 500k tree's share of directories.
BIG=$BENCH_DIR/big
BIG_DIRS=134000
BIG_FILES=1966000
ENTRIES=""
DISK_DIRS=12800
DISK_FILES=187200
BFS4=${LUAFIND_BFS4:-$REPO/build/tools/bfs-4.1.4/bin/bfs}
COLD=0
DROP_CACHES=/proc/sys/vm/drop_caches
FUSE_SRC=$BENCH_DIR/fuse-src
FUSE_MNT=$BENCH_DIR/fuse-mnt
FUSE_DIRS=1000
FUSE_FILES=19000
FUSE_DELAY=500
FUSE_TIMEOUT=0
FUSE_RUNS=5
SLOWFS=${LUAFIND_SLOWFS:-}

LUAFIND=$REPO/build/release/luafind
RUNS=10
WARMUP=2
CHAIN_RUNS=3
DELETE_RUNS=5
ROUNDS=1
ONLY=""
SYSCALLS=0
FAILED=()

usage() {
	cat <<EOF
Usage: tests/bench/bench.sh [--luafind PATH] [--runs N] [--quick] [--only NAME]
                            [--rounds K] [--cold] [--syscalls] [--slowfs PATH]
                            [--fuse-delay US] [--fuse-timeout S] [--help]

Benchmark luafind against GNU find, bfs (2.6, and 4.1 if built) and fd
(fdfind), warm on tmpfs; on a disk filesystem, warm or cold; through a FUSE
filesystem with a network's latency.

Queries (NAME for --only; a comma-separated list works too):
  list    list everything:  luafind T | find T | bfs T | fdfind -uu -j1 . T
  name    -name '*.c'       (fd: fdfind -uu -j1 -g '*.c' T)
  size    -size +16k        (fd: fdfind -uu -j1 -S +16k . T)
  big-list, big-name, big-size
          the same three on a $((BIG_DIRS + BIG_FILES + 1))-entry tree of the same kind on tmpfs, the
          size of chromium's source tree (about 2 GiB of memory)
  disk-list, disk-name, disk-size
          the same three on a $((DISK_DIRS + DISK_FILES + 1))-entry tree of the same kind on disk
          (\$LUAFIND_BENCH_DISK, default $DISK_DIR: it must not be
          tmpfs); warm, or cold with --cold
  fuse-list, fuse-size
          list, and -size +16k, on a $((FUSE_DIRS + FUSE_FILES + 1))-entry tree of the same kind
          ($FUSE_DIRS directories) on tmpfs, read through slowfs (tests/bench/slowfs.c,
          built with luafind when libfuse3 is there), which sleeps --fuse-delay
          microseconds in every request (lookup, getattr, readdir...) as a
          network filesystem's round trip, and serves up to 128 at once.
          Commands: luafind, luafind -j1 (no workers), env LUAFIND_IO_URING=0
          luafind (workers stat one by one), find, bfs 2.6, bfs 4.1, and
          fdfind -uu with its own threads (list only).  Every run is cold:
          slowfs is mounted afresh before each run (hyperfine --prepare, not
          timed), so neither the kernel nor slowfs keeps a dentry, inode or
          attribute from the run before; within a run the timeouts are 0, so
          every lookup and every stat is a request, as on NFS mounted with
          noac; directories are never cached; the source is on tmpfs, so the
          only waits are slowfs's (no drop_caches: it would change nothing).
          Needs root and /dev/fuse: skipped (exit 77) otherwise.  Not run
          unless --only names them; $FUSE_RUNS runs per command by default.
          peak RSS doing it
  chain   -mindepth $CHAIN_DEPTH on a $CHAIN_DEPTH-level chain (luafind, find,
          bfs), then peak RSS (/usr/bin/time -f %M), luafind also under
          ulimit -n 16
  delete-tree   -delete and -name '*.o' -delete on fresh copies of the tree
                (luafind, find, bfs; rm -rf for the whole tree), then the stat
                calls strace counts for luafind -delete
  delete-wide   -delete of a fresh wide tree (1,000 dirs, 100,000 files)
  delete-chain  -delete of a fresh $CHAIN_DEPTH-level chain (luafind under
                ulimit -n 32), then luafind's peak RSS

Options:
  --luafind PATH  the binary to measure (default: build/release/luafind)
  --runs N        hyperfine runs per command (default $RUNS; chain: $CHAIN_RUNS)
  --quick         3 runs, 1 warmup, 2 chain runs: a smoke test, not a result
  --only NAME     run only these queries (list, name, size, chain)
  --rounds K      repeat each query's hyperfine invocation K times and pool the
                  runs (default 1); hyperfine runs each command's runs back to
                  back, so K > 1 interleaves the tools against drift
  --cold          drop the page cache (sync; echo 3 > $DROP_CACHES) before
                  every run of the disk queries, and no warmup: needs root;
                  refused otherwise.  Without --only, runs the disk queries
                  only (cold tmpfs means nothing)
  --syscalls      also count syscalls with strace -f -c for each tree query
                  and print them per entry (slow: strace costs ~10x)
  --slowfs PATH   the slowfs binary for the fuse queries (default
                  \$LUAFIND_SLOWFS, else tests/slowfs beside the luafind
                  binary's build, else compiled into the bench directory)
  --fuse-delay US microseconds slowfs sleeps in each request (default $FUSE_DELAY)
  --fuse-timeout S
                  entry and attribute timeout of the slowfs mount, in
                  seconds (default $FUSE_TIMEOUT: every lookup and stat asks slowfs)
  --help          this text

Trees live in \$LUAFIND_BENCH_DIR (default /dev/shm/luafind-bench) and are
reused while their stamp files match (the disk tree in \$LUAFIND_BENCH_DISK
likewise); results (hyperfine JSON, strace
outputs, tables.txt) go to \$LUAFIND_BENCH_DIR/results/DATE.  Every command's
output goes to /dev/null; the "lines" column counts it once per command (fd
omits the root, so its count is one lower).  A luafind that lacks a predicate is skipped for
that query (detected with: luafind DIR PREDICATE -quit).

Build luafind first:
  cmake -S $REPO -B $REPO/build/release -DCMAKE_BUILD_TYPE=Release
  cmake --build $REPO/build/release -j2
EOF
}

die() {
	echo "bench.sh: error: $*" >&2
	exit 1
}

warn() {
	echo "bench.sh: warning: $*" >&2
}

parse_args() {
	local quick=0 runs=""
	while (($#)); do
		case $1 in
		--luafind) (($# >= 2)) || die "--luafind needs a path"; LUAFIND=$2; shift ;;
		--runs) (($# >= 2)) || die "--runs needs a number"; runs=$2; shift ;;
		--rounds) (($# >= 2)) || die "--rounds needs a number"; ROUNDS=$2; shift ;;
		--quick) quick=1 ;;
		--only) (($# >= 2)) || die "--only needs a query name"; ONLY=$2; shift ;;
		--syscalls) SYSCALLS=1 ;;
		--cold) COLD=1 ;;
		--slowfs) (($# >= 2)) || die "--slowfs needs a path"; SLOWFS=$2; shift ;;
		--fuse-delay) (($# >= 2)) || die "--fuse-delay needs a number"; FUSE_DELAY=$2; shift ;;
		--fuse-timeout) (($# >= 2)) || die "--fuse-timeout needs a number"; FUSE_TIMEOUT=$2; shift ;;
		-h | --help) usage; exit 0 ;;
		*) die "unknown argument '$1' (see --help)" ;;
		esac
		shift
	done
	if ((quick)); then
		RUNS=3 WARMUP=1 CHAIN_RUNS=2 DELETE_RUNS=2 FUSE_RUNS=2
	fi
	if [[ -n $runs ]]; then
		[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs: not a positive number: $runs"
		RUNS=$runs
		((CHAIN_RUNS <= RUNS)) || CHAIN_RUNS=$RUNS
		FUSE_RUNS=$RUNS
	fi
	[[ $FUSE_DELAY =~ ^[0-9]+$ ]] || die "--fuse-delay: not a number of microseconds: $FUSE_DELAY"
	[[ $FUSE_TIMEOUT =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--fuse-timeout: not a number of seconds: $FUSE_TIMEOUT"
	[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds: not a positive number: $ROUNDS"
	local q
	for q in ${ONLY//,/ }; do
		[[ $q =~ ^(list|name|size|big-list|big-name|big-size|disk-list|disk-name|disk-size|fuse-list|fuse-size|wide|chain|delete-tree|delete-wide|delete-chain)$ ]] ||
			die "--only: unknown query '$q' (list, name, size, big-list, big-name, big-size, disk-list, disk-name, disk-size, fuse-list, fuse-size, wide, chain, delete-tree, delete-wide, delete-chain)"
	done
	if ((COLD)); then
		[[ -n $ONLY ]] || ONLY=disk-list,disk-name,disk-size
		wanted disk-list || wanted disk-name || wanted disk-size ||
			die "--cold applies to the disk queries (disk-list, disk-name, disk-size), none of which --only names"
		[[ $(id -u) == 0 ]] ||
			die "--cold drops the page cache before every run (echo 3 > $DROP_CACHES), which needs root; run as root, or without --cold"
		[[ -w $DROP_CACHES ]] ||
			die "--cold: cannot write $DROP_CACHES (a read-only /proc/sys, as in an unprivileged container?); run without --cold"
	fi
}

# True if any disk query was asked for.
wanted_disk() {
	wanted disk-list || wanted disk-name || wanted disk-size
}

# True if query $1 was asked for.
wanted() {
	[[ -z $ONLY || ",$ONLY," == *",$1,"* ]]
}

# True if a fuse query was asked for: only by name (--only).
wanted_fuse() {
	[[ ",$ONLY," == *",fuse-list,"* || ",$ONLY," == *",fuse-size,"* ]]
}

# The fuse queries cannot run here: say why, and exit as a skipped test does.
skip_fuse() {
	echo "bench.sh: skipped: the fuse queries (fuse-list, fuse-size) $*" >&2
	exit 77
}

need() {
	command -v "$1" >/dev/null 2>&1 || die "$1 not found; install it with: apt-get install -y $2"
}

check_prereqs() {
	need hyperfine hyperfine
	need find findutils
	need bfs bfs
	need fdfind fd-find
	need cc gcc
	need python3 python3
	need sha256sum coreutils
	if wanted chain || wanted wide || wanted delete-chain; then
		[[ -x /usr/bin/time ]] || die "/usr/bin/time not found; install it with: apt-get install -y time"
	fi
	if ((SYSCALLS)); then
		need strace strace
	fi
	[[ -x $LUAFIND ]] || die "luafind binary '$LUAFIND' not found or not executable; build it with:
  cmake -S $REPO -B $REPO/build/release -DCMAKE_BUILD_TYPE=Release && cmake --build $REPO/build/release -j2
or pass --luafind PATH"
	LUAFIND=$(cd "$(dirname "$LUAFIND")" && pwd)/$(basename "$LUAFIND")
	mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
	local fs
	fs=$(stat -f -c %T "$BENCH_DIR")
	[[ $fs == tmpfs ]] || warn "$BENCH_DIR is on $fs, not tmpfs: results are not comparable with DESIGN.md"
	if wanted_disk; then
		mkdir -p "$DISK_DIR" || die "cannot create $DISK_DIR"
		fs=$(stat -f -c %T "$DISK_DIR")
		[[ $fs != tmpfs && $fs != ramfs ]] ||
			die "$DISK_DIR is on $fs: the disk queries need a disk filesystem (set LUAFIND_BENCH_DISK)"
	fi
	[[ -x $BFS4 ]] || BFS4=""
	if wanted_fuse; then
		check_fuse
	fi
}

# The fuse queries need root (slowfs mounts with mount(2)), /dev/fuse, and
# slowfs: given, built beside luafind, or compiled here with libfuse3.
check_fuse() {
	[[ $(id -u) == 0 ]] || skip_fuse "need root: slowfs mounts by itself (mount(2)); run as root"
	[[ -c /dev/fuse ]] || skip_fuse "need /dev/fuse (a kernel with FUSE, and the device in this container)"
	need mountpoint util-linux
	need umount mount
	local built src=$SCRIPT_DIR/slowfs.c
	built=$(dirname "$LUAFIND")/tests/slowfs
	if [[ -z $SLOWFS && -x $built && ! $src -nt $built ]]; then
		SLOWFS=$built
	elif [[ -z $SLOWFS ]]; then
		pkg-config --exists fuse3 2>/dev/null ||
			skip_fuse "need libfuse3 to build slowfs: apt-get install -y libfuse3-dev (or pass --slowfs PATH)"
		SLOWFS=$BIN/slowfs
		if [[ ! -x $SLOWFS || $src -nt $SLOWFS ]]; then
			mkdir -p "$BIN"
			echo "building $SLOWFS"
			# shellcheck disable=SC2046 # pkg-config prints words
			cc -O2 -Wall -Wextra -o "$SLOWFS" "$src" $(pkg-config --cflags --libs fuse3) ||
				die "cannot compile $src"
		fi
	fi
	[[ -x $SLOWFS ]] || die "slowfs '$SLOWFS' not found or not executable"
	local fs
	fs=$(stat -f -c %T "$BENCH_DIR")
	[[ $fs == tmpfs ]] ||
		warn "$BENCH_DIR is on $fs, not tmpfs: the fuse queries also wait for the source's own I/O"
}

# Compile tool $1 from source $2 into $BIN unless it is up to date.
build_tool() {
	local out=$BIN/$1 src=$2
	[[ -f $src ]] || die "missing source $src"
	if [[ ! -x $out || $src -nt $out ]]; then
		mkdir -p "$BIN"
		echo "building $out"
		cc -O2 -Wall -o "$out" "$src" || die "cannot compile $src"
	fi
}

# Make sure directory $1 was built by the command whose description is $2
# (recorded in $1.stamp); otherwise rebuild it by running the rest of the args.
ensure_built() {
	local dir=$1 stamp_text=$2
	shift 2
	if [[ -d $dir && -f $dir.stamp && $(<"$dir.stamp") == "$stamp_text" ]]; then
		echo "reusing $dir"
		return
	fi
	rm -f "$dir.stamp"
	if [[ -e $dir ]]; then
		echo "removing stale $dir"
		rm -rf -- "$dir"
	fi
	echo "building $dir: $*"
	"$@" || die "cannot build $dir"
	printf '%s\n' "$stamp_text" >"$dir.stamp"
}

prepare_trees() {
	build_tool mktree "$SCRIPT_DIR/mktree.c"
	build_tool mkchain "$REPO/tests/tools/mkchain.c"
	if wanted list || wanted name || wanted size; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$TREE" "mktree $sum -s $SEED" "$BIN/mktree" -s "$SEED" "$TREE"
	fi
	if wanted delete-tree && ! wanted list && ! wanted name && ! wanted size; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$TREE" "mktree $sum -s $SEED" "$BIN/mktree" -s "$SEED" "$TREE"
	fi
	if wanted big-list || wanted big-name || wanted big-size; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$BIG" "mktree $sum -s $SEED -d $BIG_DIRS -f $BIG_FILES" \
			"$BIN/mktree" -s "$SEED" -d "$BIG_DIRS" -f "$BIG_FILES" "$BIG"
	fi
	if wanted delete-wide; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$WIDE" "mktree $sum wide" "$BIN/mktree" -s "$SEED" -d 1000 -f 100000 "$WIDE"
	fi
	if wanted chain; then
		local sum
		sum=$(sha256sum <"$REPO/tests/tools/mkchain.c" | cut -c1-16)
		ensure_built "$CHAIN" "mkchain $sum $CHAIN_DEPTH" "$BIN/mkchain" "$CHAIN" "$CHAIN_DEPTH"
	fi
	if wanted wide; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$WIDE_DIR" "mktree $sum -d 0 -f $WIDE_FILES" "$BIN/mktree" -s "$SEED" -d 0 -f "$WIDE_FILES" "$WIDE_DIR"
	fi
	if wanted_disk; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$DISK_TREE" "mktree $sum -s $SEED -d $DISK_DIRS -f $DISK_FILES" \
			"$BIN/mktree" -s "$SEED" -d "$DISK_DIRS" -f "$DISK_FILES" "$DISK_TREE"
		sync
	fi
	if wanted_fuse; then
		local sum
		sum=$(sha256sum <"$SCRIPT_DIR/mktree.c" | cut -c1-16)
		ensure_built "$FUSE_SRC" "mktree $sum -s $SEED -d $FUSE_DIRS -f $FUSE_FILES" \
			"$BIN/mktree" -s "$SEED" -d "$FUSE_DIRS" -f "$FUSE_FILES" "$FUSE_SRC"
	fi
	mkdir -p "$BENCH_DIR/probe"
}

# slowfs over $FUSE_SRC on $FUSE_MNT: fuse_remount mounts it afresh (and is
# hyperfine's --prepare for every run of a fuse query), fuse_unmount takes it
# away; both wait for the daemon of the previous mount to exit.  The daemon
# runs in the foreground (-f) in the background of the script, so that its pid
# is known; its messages go to $RESULTS/slowfs.log.
write_fuse_scripts() {
	local pidfile=$BENCH_DIR/slowfs.pid
	cat >"$BIN/fuse-unmount.sh" <<-SH
		#!/bin/sh
		# fuse-unmount.sh: unmount slowfs from $FUSE_MNT, wait for its daemon
		if mountpoint -q "$FUSE_MNT"; then
			umount "$FUSE_MNT" 2>/dev/null || umount -l "$FUSE_MNT"
		fi
		if [ -f "$pidfile" ]; then
			pid=\$(cat "$pidfile")
			i=0
			while kill -0 "\$pid" 2>/dev/null; do
				i=\$((i + 1))
				if [ "\$i" -ge 1000 ]; then
					echo "fuse-unmount.sh: slowfs (pid \$pid) still running 10 s after the unmount" >&2
					exit 1
				fi
				sleep 0.01
			done
			rm -f "$pidfile"
		fi
	SH
	cat >"$BIN/fuse-remount.sh" <<-SH
		#!/bin/sh
		# fuse-remount.sh: mount slowfs afresh: $FUSE_SRC on $FUSE_MNT
		set -e
		"$BIN/fuse-unmount.sh"
		mkdir -p "$FUSE_MNT"
		"$SLOWFS" -f -o delay_us=$FUSE_DELAY,timeout=$FUSE_TIMEOUT "$FUSE_SRC" "$FUSE_MNT" \
			</dev/null >>"$RESULTS/slowfs.log" 2>&1 &
		echo \$! >"$pidfile"
		i=0
		until mountpoint -q "$FUSE_MNT"; do
			i=\$((i + 1))
			if ! kill -0 \$! 2>/dev/null || [ "\$i" -ge 1000 ]; then
				echo "fuse-remount.sh: slowfs did not mount $FUSE_MNT (see $RESULTS/slowfs.log)" >&2
				exit 1
			fi
			sleep 0.01
		done
	SH
	chmod +x "$BIN/fuse-unmount.sh" "$BIN/fuse-remount.sh"
}

# At exit, whatever happened: no slowfs mount left behind.
fuse_cleanup() {
	if [[ -x $BIN/fuse-unmount.sh ]]; then
		"$BIN/fuse-unmount.sh" || true
	fi
}

# True if luafind accepts the predicate given as arguments.
luafind_supports() {
	"$LUAFIND" "$BENCH_DIR/probe" "$@" -quit >/dev/null 2>&1
}

print_environment() {
	local rev
	rev=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [[ -n $(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
		rev+=" (with uncommitted changes)"
	fi
	echo "date:      $(date -Is)"
	echo "machine:   $(uname -srm), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "luafind:   $LUAFIND (built $(date -r "$LUAFIND" -Is)), checkout $rev"
	# shellcheck disable=SC2185 # --version, not a path
	echo "find:      $(find --version | head -n1)"
	echo "bfs:       $(bfs --version | head -n1)${BFS4:+; bfs4: $BFS4}"
	echo "fd:        $(fdfind --version)"
	echo "hyperfine: $(hyperfine --version)"
	echo "settings:  runs $RUNS, warmup $WARMUP, chain runs $CHAIN_RUNS, rounds $ROUNDS$( ((COLD)) && echo ", cold (disk queries)")"
	if wanted_disk; then
		echo "disk tree: $DISK_TREE on $(stat -f -c %T "$DISK_DIR") ($(df --output=source "$DISK_DIR" | tail -n1))"
	fi
	if wanted_fuse; then
		echo "slowfs:    $SLOWFS: $FUSE_SRC on $FUSE_MNT, delay $FUSE_DELAY us, timeout $FUSE_TIMEOUT s, runs $FUSE_RUNS"
	fi
	echo "results:   $RESULTS"
}

# The query's commands, as parallel arrays of names and command lines (in
# hyperfine's shell-words syntax, which bash's eval reads the same way).
NAMES=()
CMDS=()

add_cmd() {
	NAMES+=("$1")
	CMDS+=("$2")
}

# Run each command of the query once, counting its output lines into
# $RESULTS/$1.lines; drop a command that fails (reported in the table and in
# the exit status).
check_cmds() {
	local query=$1 i lines rc names=() cmds=()
	: >"$RESULTS/$query.lines"
	for i in "${!CMDS[@]}"; do
		rc=0
		lines=$(eval "${CMDS[i]}" 2>"$RESULTS/$query.${NAMES[i]}.err" | wc -l) || rc=$?
		if ((rc != 0)); then
			warn "$query: ${NAMES[i]} failed (exit $rc): $(head -c 200 "$RESULTS/$query.${NAMES[i]}.err")"
			printf '%s\tfailed (exit %s): %s\n' "${NAMES[i]}" "$rc" "${CMDS[i]}" >>"$RESULTS/$query.lines"
			FAILED+=("$query/${NAMES[i]}")
			continue
		fi
		printf '%s\t%s\n' "${NAMES[i]}" "$lines" >>"$RESULTS/$query.lines"
		names+=("${NAMES[i]}")
		cmds+=("${CMDS[i]}")
	done
	NAMES=("${names[@]}")
	CMDS=("${cmds[@]}")
}

# Benchmark the commands in NAMES/CMDS as query $1 ($2: its title) with $3
# runs, then print its table.
run_query() {
	local query=$1 title=$2 runs=$3 warmup=$WARMUP round i args=() jsons=() prep=()
	echo
	echo "### $title"
	check_cmds "$query"
	((${#CMDS[@]})) || { FAILED+=("$query"); return; }
	for i in "${!CMDS[@]}"; do
		echo "  ${NAMES[i]}: ${CMDS[i]}"
		args+=(--command-name "${NAMES[i]}" "${CMDS[i]}")
	done
	[[ $query != chain ]] || warmup=1
	if ((COLD)) && [[ $query == disk-* ]]; then
		warmup=0
		prep=(--prepare "sh -c 'sync && echo 3 > $DROP_CACHES'")
	fi
	if [[ $query == fuse-* ]]; then
		warmup=0
		prep=(--prepare "$BIN/fuse-remount.sh")
	fi
	for ((round = 1; round <= ROUNDS; round++)); do
		local json=$RESULTS/$query.round$round.json
		if ! hyperfine -N --warmup "$warmup" --runs "$runs" --output null "${prep[@]}" \
			--export-json "$json" "${args[@]}"; then
			warn "$query: hyperfine failed"
			FAILED+=("$query")
			return
		fi
		jsons+=("$json")
	done
	local entries=()
	[[ -z $ENTRIES ]] || entries=(--entries "$ENTRIES")
	python3 "$SCRIPT_DIR/report.py" times "${entries[@]}" "$title" find "$RESULTS/$query.lines" "${jsons[@]}" |
		tee -a "$RESULTS/tables.txt"
	ENTRIES="" # tree_query's, for this query only
}

# The tree queries: $1 is the query name (disk-*: the same on the disk tree).
tree_query() {
	local q=$1 T=$TREE
	NAMES=() CMDS=()
	if [[ $q == disk-* ]]; then
		T=$DISK_TREE
		q=${q#disk-}
	elif [[ $q == big-* ]]; then
		T=$BIG
		q=${q#big-}
	fi
	ENTRIES=$(tree_entries "$T")
	case $q in
	list)
		add_cmd luafind "$LUAFIND $T"
		add_cmd find "find $T"
		add_cmd bfs "bfs $T"
		[[ -z $BFS4 ]] || add_cmd bfs4 "$BFS4 $T"
		add_cmd fd "fdfind -uu -j1 --color never . $T"
		;;
	name)
		if luafind_supports -name x; then
			add_cmd luafind "$LUAFIND $T -name '*.c'"
		else
			printf 'luafind\tno -name yet\n' >"$RESULTS/$1.unsupported"
		fi
		add_cmd find "find $T -name '*.c'"
		add_cmd bfs "bfs $T -name '*.c'"
		[[ -z $BFS4 ]] || add_cmd bfs4 "$BFS4 $T -name '*.c'"
		add_cmd fd "fdfind -uu -j1 --color never -g '*.c' $T"
		;;
	size)
		if luafind_supports -size +16k; then
			add_cmd luafind "$LUAFIND $T -size +16k"
		else
			printf 'luafind\tno -size yet\n' >"$RESULTS/$1.unsupported"
		fi
		add_cmd find "find $T -size +16k"
		add_cmd bfs "bfs $T -size +16k"
		[[ -z $BFS4 ]] || add_cmd bfs4 "$BFS4 $T -size +16k"
		add_cmd fd "fdfind -uu -j1 --color never -S +16k . $T"
		;;
	esac
}

# The fuse queries ($1: fuse-list or fuse-size) on the slowfs mount.
fuse_query() {
	local T=$FUSE_MNT pred=()
	NAMES=() CMDS=()
	[[ $1 == fuse-size ]] && pred=(-size +16k)
	add_cmd luafind "$LUAFIND $T ${pred[*]}"
	add_cmd luafind-j1 "$LUAFIND -j1 $T ${pred[*]}"
	add_cmd lf-nouring "env LUAFIND_IO_URING=0 $LUAFIND $T ${pred[*]}"
	add_cmd find "find $T ${pred[*]}"
	add_cmd bfs "bfs $T ${pred[*]}"
	[[ -z $BFS4 ]] || add_cmd bfs4 "$BFS4 $T ${pred[*]}"
	[[ $1 == fuse-size ]] || add_cmd fd "fdfind -uu --color never . $T"
}

# The number of entries of tree $1, the root included (counted once, kept
# beside its stamp).
tree_entries() {
	if [[ ! -s $1.entries || $1.entries -ot $1.stamp ]]; then
		find "$1" | wc -l >"$1.entries"
	fi
	cat "$1.entries"
}

# Title of a tree query.
tree_title() {
	local where=""
	if [[ $1 == disk-* ]]; then
		where=", disk tree ($( ((COLD)) && echo cold || echo warm))"
	elif [[ $1 == big-* ]]; then
		where=", chromium-sized tree"
	elif [[ $1 == fuse-* ]]; then
		where=", slowfs tree ($FUSE_DELAY us a request, timeout $FUSE_TIMEOUT s, remounted every run)"
	fi
	case ${1#*-} in
	list) echo "list all$where" ;;
	name) echo "-name '*.c'$where" ;;
	size) echo "-size +16k$where" ;;
	esac
}

run_tree_queries() {
	local q
	for q in list name size big-list big-name big-size disk-list disk-name disk-size; do
		wanted "$q" || continue
		tree_query "$q"
		run_query "$q" "$(tree_title "$q")" "$RUNS"
		if [[ -f $RESULTS/$q.unsupported ]]; then
			echo "luafind      skipped: $(cut -f2 "$RESULTS/$q.unsupported")" |
				tee -a "$RESULTS/tables.txt"
		fi
	done
	for q in fuse-list fuse-size; do
		[[ ",$ONLY," == *",$q,"* ]] || continue
		fuse_query "$q"
		# Mounted for check_cmds' run; hyperfine remounts before each run.
		"$BIN/fuse-remount.sh" || die "cannot mount slowfs on $FUSE_MNT"
		run_query "$q" "$(tree_title "$q")" "$FUSE_RUNS"
		"$BIN/fuse-unmount.sh" || warn "cannot unmount $FUSE_MNT"
	done
}

# Peak RSS in KiB of the command given as arguments, run with $1 open fds at
# most ("" for the default limit); prints "RSS exit-status".
peak_rss() {
	local nofile=$1 out=$RESULTS/rss.out rc=0
	shift
	(
		[[ -z $nofile ]] || ulimit -n "$nofile"
		exec /usr/bin/time -f %M -o "$out" "$@" >/dev/null 2>"$RESULTS/rss.err"
	) || rc=$?
	echo "$(tail -n1 "$out") $rc"
}

# A directory of $WIDE_FILES files: listing time, then peak RSS.
run_wide() {
	NAMES=() CMDS=()
	add_cmd luafind "$LUAFIND $WIDE_DIR"
	add_cmd find "find $WIDE_DIR"
	add_cmd bfs "bfs $WIDE_DIR"
	[[ -z $BFS4 ]] || add_cmd bfs4 "$BFS4 $WIDE_DIR"
	add_cmd fd "fdfind -uu -j1 --color never . $WIDE_DIR"
	run_query wide "list a directory of $WIDE_FILES files" "$RUNS"

	printf '\n== peak RSS listing the wide directory (/usr/bin/time -f %%M)\n' | tee -a "$RESULTS/tables.txt"
	local i r
	for i in "${!CMDS[@]}"; do
		# shellcheck disable=SC2086 # the command line is words
		r=$(peak_rss "" ${CMDS[i]})
		printf '%-8s %8s KiB  exit %s\n' "${NAMES[i]}" "${r% *}" "${r#* }" | tee -a "$RESULTS/tables.txt"
	done
}

run_chain() {
	local pred=(-mindepth "$CHAIN_DEPTH")
	NAMES=() CMDS=()
	add_cmd luafind "$LUAFIND $CHAIN ${pred[*]}"
	add_cmd find "find $CHAIN ${pred[*]}"
	add_cmd bfs "bfs $CHAIN ${pred[*]}"
	run_query chain "$CHAIN_DEPTH-level chain, -mindepth $CHAIN_DEPTH" "$CHAIN_RUNS"

	printf '\n== peak RSS on the chain (/usr/bin/time -f %%M)\n' | tee -a "$RESULTS/tables.txt"
	local name limit r
	for name in luafind:16 luafind: find: bfs:; do
		limit=${name#*:}
		name=${name%%:*}
		case $name in
		luafind) r=$(peak_rss "$limit" "$LUAFIND" "$CHAIN" "${pred[@]}") ;;
		*) r=$(peak_rss "$limit" "$name" "$CHAIN" "${pred[@]}") ;;
		esac
		printf '%-8s ulimit -n %-8s %8s KiB  exit %s\n' "$name" "${limit:-$(ulimit -n)}" \
			"${r% *}" "${r#* }" | tee -a "$RESULTS/tables.txt"
	done
}

# Deletion: each run deletes a fresh copy (made by hyperfine's --prepare, not
# timed) of the ~500k-entry tree, a wide tree or a 1,000,000-level chain;
# luafind -delete against GNU find -delete, bfs -delete and rm -rf.
run_delete() {
	local fresh=$BIN/fresh.sh copy=$BENCH_DIR/victim
	cat >"$fresh" <<-SH
		#!/bin/sh
		# fresh.sh KIND: recreate $copy as a copy of a benchmark tree
		set -e
		rm -rf "$copy"
		case \$1 in
		tree) cp -a "$TREE" "$copy" ;;
		wide) cp -a "$WIDE" "$copy" ;;
		chain) "$BIN/mkchain" "$copy" "$CHAIN_DEPTH" ;;
		esac
	SH
	chmod +x "$fresh"
	local kind title pred tool runs
	for kind in tree:all tree:o wide:all chain:all; do
		pred=()
		title="-delete"
		[[ ${kind#*:} == o ]] && pred=(-name "'*.o'") && title="-name '*.o' -delete"
		kind=${kind%%:*}
		wanted "delete-$kind" || continue
		runs=$DELETE_RUNS
		local args=() json=$RESULTS/delete-$kind${pred:+-o}.json
		for tool in luafind find bfs rm; do
			local cmd
			case $tool in
			luafind) cmd="$LUAFIND $copy ${pred[*]} -delete" ;;
			rm) ((${#pred[@]})) && continue; cmd="rm -rf $copy" ;;
			*) cmd="$tool $copy ${pred[*]} -delete" ;;
			esac
			[[ $tool == luafind && $kind == chain ]] && cmd="sh -c 'ulimit -n 32 && exec $cmd'"
			args+=(--command-name "$tool" --prepare "$fresh $kind" "$cmd")
		done
		echo
		echo "### $title on a fresh copy of the $kind"
		printf '%s\t-\n' luafind find bfs rm >"$RESULTS/delete-$kind.lines"
		hyperfine --runs "$runs" --warmup 0 --output null --export-json "$json" "${args[@]}" ||
			{ warn "delete-$kind: hyperfine failed"; FAILED+=("delete-$kind"); continue; }
		python3 "$SCRIPT_DIR/report.py" times "$title, fresh $kind" find \
			"$RESULTS/delete-$kind.lines" "$json" | tee -a "$RESULTS/tables.txt"
	done
	if wanted delete-chain; then
		"$fresh" chain
		printf '\n== peak RSS deleting the chain under ulimit -n 32: ' | tee -a "$RESULTS/tables.txt"
		peak_rss 32 "$LUAFIND" "$copy" -delete | tee -a "$RESULTS/tables.txt"
	fi
	if wanted delete-tree && command -v strace >/dev/null; then
		"$fresh" tree
		strace -f -c -o "$RESULTS/strace.delete" "$LUAFIND" "$copy" -delete
		printf '== stat calls of luafind -delete on the tree: %s\n' \
			"$(awk '$NF ~ /stat/ { s += $4 } END { print s + 0 }' "$RESULTS/strace.delete")" |
			tee -a "$RESULTS/tables.txt"
	fi
	rm -rf "$copy"
}

# Count syscalls of each tool on the tree queries with strace -f -c.
run_syscalls() {
	local entries dirs q i pairs t
	for q in list name size big-list big-name big-size disk-list disk-name disk-size; do
		wanted "$q" || continue
		t=$TREE
		[[ $q != disk-* ]] || t=$DISK_TREE
		entries=$(find "$t" | wc -l)
		dirs=$(find "$t" -type d | wc -l)
		tree_query "$q"
		pairs=()
		for i in "${!CMDS[@]}"; do
			local out=$RESULTS/strace.$q.${NAMES[i]}
			eval "strace -f -c -o $out ${CMDS[i]}" >/dev/null 2>&1 ||
				warn "syscalls: ${NAMES[i]} failed on $q"
			pairs+=("${NAMES[i]}=$out")
		done
		python3 "$SCRIPT_DIR/report.py" strace "$(tree_title "$q")" "$entries" "$dirs" \
			"${pairs[@]}" | tee -a "$RESULTS/tables.txt"
	done
}

main() {
	parse_args "$@"
	check_prereqs
	RESULTS=$BENCH_DIR/results/$(date +%Y%m%d-%H%M%S)
	mkdir -p "$RESULTS"
	if wanted_fuse; then
		mkdir -p "$BIN"
		write_fuse_scripts
		trap fuse_cleanup EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
	prepare_trees
	print_environment | tee "$RESULTS/tables.txt"
	run_tree_queries
	if wanted wide; then
		run_wide
	fi
	if wanted chain; then
		run_chain
	fi
	run_delete
	if ((SYSCALLS)) && { wanted list || wanted name || wanted size || wanted_disk; }; then
		run_syscalls
	fi
	echo
	echo "===== summary (also in $RESULTS/tables.txt)"
	cat "$RESULTS/tables.txt"
	if ((${#FAILED[@]})); then
		die "failed: ${FAILED[*]}"
	fi
}

main "$@"
