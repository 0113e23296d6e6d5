#!/bin/sh
# mpi_scaling.sh: luafind-mpi's scaling, the figures of luafind-mpi(1).
#
#	mpi_scaling.sh LUAFIND LUAFIND_MPI SLOWFS MKTREE RESULTS [fuse|tmpfs]...
#
#   fuse   the 20,001-entry tree (mktree -s 1 -d 1000 -f 19000) through
#          slowfs at 500 us a request, nothing cached: plain luafind and
#          1, 2, 4, 8 ranks, each at -j1, then at the default -j, listing
#          and -size +16k (hyperfine, medians of interleaved runs)
#   tmpfs  the 500,002-entry tree on /dev/shm: plain luafind -j1 and 1, 2, 4
#          ranks at -j1, wall time and the CPU time summed over the ranks
#          (--stats' cpu=), listing and -size +16k
#
# Needs root, /dev/fuse and hyperfine; trees and mounts under $SCRATCH
# (default /dev/shm: a tmpfs with room for 520,000 inodes), removed at the
# end.  mpirun runs with --bind-to none: bound to one core, a rank (np 1
# above all) gets no stat-ahead thread, which plain luafind has; and
# $MPIRUN_FLAGS (say "--mca pml ob1", which on one node saves 0.2 s
# of MPI_Init per run).  The machine's other work makes the figures noisy:
# read the medians, and compare within one run.
#
# SPDX-License-Identifier: MIT
set -eu
lf=$1 mpi=$2 slowfs=$3 mktree=$4 results=$5
shift 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$results"
scratch=$(mktemp -d "${SCRATCH:-/dev/shm}/luafind-mpi-bench.XXXXXX")
mpirun="mpirun --bind-to none ${MPIRUN_FLAGS:-}"
mnt=$scratch/mnt
pid=
cleanup() {
	if mountpoint -q "$mnt" 2>/dev/null; then
		umount "$mnt" || umount -l "$mnt"
	fi
	[ -z "$pid" ] || wait "$pid" 2>/dev/null || true
	rm -rf -- "$scratch"
}
trap cleanup EXIT INT TERM

fuse() {
	"$mktree" -s 1 -d 1000 -f 19000 "$scratch/src" >/dev/null
	mkdir -p "$mnt"
	"$slowfs" -f -o delay_us=500 "$scratch/src" "$mnt" </dev/null >"$scratch/slowfs.log" 2>&1 &
	pid=$!
	i=0
	until mountpoint -q "$mnt"; do
		i=$((i + 1))
		[ "$i" -lt 500 ] || { echo "slowfs did not mount" >&2; exit 1; }
		sleep 0.01
	done
	for j in -j1 ""; do
		for q in "" "-size +16k"; do
			name=fuse$j-$(echo "${q:-list}" | tr -d ' +')
			# shellcheck disable=SC2086
			hyperfine -N --warmup 1 --runs 5 --export-json "$results/$name.json" \
				-n luafind "$lf $j $mnt $q" \
				-n "1 rank" "$mpirun -np 1 $mpi $j $mnt $q" \
				-n "2 ranks" "$mpirun -np 2 $mpi $j $mnt $q" \
				-n "4 ranks" "$mpirun -np 4 $mpi $j $mnt $q" \
				-n "8 ranks" "$mpirun -np 8 $mpi $j $mnt $q" \
				2>&1 | tee "$results/$name.txt"
		done
	done
	umount "$mnt"
	wait "$pid" || true
	pid=
}

# Wall and CPU seconds of one run: "WALL CPU".
cpu_run() {
	start=$(date +%s.%N)
	"$@" >/dev/null 2>"$scratch/stats"
	end=$(date +%s.%N)
	cpu=$(sed -n 's/.*stats: cpu=\([0-9.]*\) s.*/\1/p' "$scratch/stats")
	echo "$start $end $cpu" | awk '{printf "%.3f %s\n", $2 - $1, $3}'
}

tmpfs() {
	"$mktree" -s 1 "$scratch/big" >/dev/null
	out=$results/tmpfs.txt
	: >"$out"
	for q in "" "-size +16k"; do
		name=$(echo "${q:-list}" | tr -d ' +-')
		for round in 1 2 3 4 5; do
			# Interleaved: one run of each in turn.  luafind's CPU time from time(1).
			# shellcheck disable=SC2086
			t=$(/usr/bin/time -f '%e %U %S' "$lf" -j1 "$scratch/big" $q 2>&1 >/dev/null | tail -1)
			echo "$name luafind $t" | awk '{printf "%s %s wall %.3f cpu %.3f\n", $1, $2, $3, $4 + $5}' >>"$out"
			for n in 1 2 4; do
				# shellcheck disable=SC2086
				r=$(cpu_run $mpirun -np $n "$mpi" --stats -j1 "$scratch/big" $q)
				echo "$name np$n $r" | awk '{printf "%s %s wall %.3f cpu %.3f\n", $1, $2, $3, $4}' >>"$out"
				# What MPI_Init and the rest of a run cost with no walk.
				r=$(cpu_run $mpirun -np $n "$mpi" --stats -j1 "$scratch/big" -maxdepth 0 -false)
				echo "$name np$n-startup $r" | awk '{printf "%s %s wall %.3f cpu %.3f\n", $1, $2, $3, $4}' >>"$out"
			done
		done
	done
	# Medians.
	python3 - "$out" <<-'PY' | tee "$results/tmpfs-medians.txt"
		import sys, statistics
		runs = {}
		for line in open(sys.argv[1]):
		    f = line.split()
		    k = (f[0], f[1])
		    runs.setdefault(k, []).append((float(f[-3]), float(f[-1])))
		for (q, who), v in sorted(runs.items()):
		    print(f"{q:5} {who:8} median wall {statistics.median(x for x, _ in v):.3f} s,"
		          f" cpu {statistics.median(y for _, y in v):.3f} s ({len(v)} runs)")
	PY
}

[ $# -gt 0 ] || set -- fuse tmpfs
for stage in "$@"; do
	"$stage"
done
