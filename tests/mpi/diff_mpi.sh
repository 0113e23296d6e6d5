#!/bin/sh
# diff_mpi.sh: luafind-mpi against plain luafind on generated trees.
#
#	diff_mpi.sh LUAFIND_MPI LUAFIND MKTREE MKCHAIN WORK [GROUP]
#
# GROUP (default: all) is one of:
#   queries  each query of queries.cases run with 1, 2, 3 or 4 ranks (in
#            turn, half of them with LUAFIND_MPI_EAGER=1: every directory
#            becomes a work item), sorted stdout, sorted stderr (with the
#            program's name made luafind's) and exit status equal
#   delete   deletions: the paths that survive are the same; a 100,000-level
#            chain and a wide tree go; / is refused
#   kill     a rank killed mid-walk (LUAFIND_MPI_FAULT): the job fails with a
#            message, and the tree's top directory is still there
#   scripts  --run: the cleanup scripts (old-files, empty-dirs, editor-junk,
#            broken-links, big-files, du) with 1 to 4 ranks, every directory
#            shared or not: sorted output (du's and big-files' ranked lists
#            as they are), the summary, the exit status and, with --apply,
#            the paths that survive, equal to luafind's
#   race     a shared directory replaced with a link to outside the tree
#            while the rank that will walk it waits (LUAFIND_MPI_TEST_DELAY_MS):
#            -delete reports it and leaves the outside alone
#   swap     a middle component of deferred directories' paths replaced,
#            between the walk and the deferred phase
#            (LUAFIND_MPI_TEST_DEFER_PAUSE_MS), with a link to outside the
#            tree or with another directory of the same names: -delete and
#            -depth -exec report each deferred path, touch nothing outside
#            and remove the rest
#
# Exits 77 (skipped) when mpirun is missing.  Scratch in /dev/shm (or under
# WORK), removed on success, kept (and named) on failure.
#
# SPDX-License-Identifier: MIT
set -u
mpi=$1 lf=$2 mktree=$3 mkchain=$4 work=$5 group=${6:-all}
here=$(cd "$(dirname "$0")" && pwd)

command -v mpirun >/dev/null 2>&1 || { echo "diff_mpi: mpirun missing (apt-get install openmpi-bin)"; exit 77; }
# As root (CI), on one machine with more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export LC_ALL=C
run_mpi() { # NP ARGS...
	np=$1
	shift
	timeout 120 mpirun --oversubscribe -np "$np" "$mpi" "$@" </dev/null
}

# On tmpfs when there is one: the 100,000-level chain costs seconds on a disk.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	dir=$(mktemp -d /dev/shm/luafind-mpi-test.XXXXXX) || exit 1
else
	dir=$work/$group
	rm -rf "$dir"
	mkdir -p "$dir"
fi
cd "$dir" || exit 1
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# The tree: mktree's shape, with links (to a file, to a directory, broken,
# back to an ancestor), an empty directory, and a reference file.
mktree_t() { # DIR
	"$mktree" -s 7 -d 150 -f 1500 "$1" >/dev/null &&
		mkdir -p "$1/empty" "$1/deep/a/b/c/d/e/f" &&
		printf 'x' >"$1/deep/a/b/one" &&
		ln -s a/b/one "$1/deep/tofile" &&
		ln -s ../.. "$1/deep/a/up" &&
		ln -s nowhere "$1/deep/broken" &&
		ln -s deep/a "$1/toa" &&
		touch -d '2020-01-01' "$1/deep/old"
}

group_queries() {
	mktree_t t || { fail "mktree"; return; }
	ln -s t tlink
	printf 't/deep\0t/empty\0' >list0
	i=0
	while IFS= read -r q; do
		case $q in '' | '#'*) continue ;; esac
		i=$((i + 1))
		np=$((i % 4 + 1))
		eager=$((i % 2))
		words=false
		case $q in *'{} +'*) words=true ;; esac
		eval "set -- $q"
		"$lf" "$@" >ref.out 2>ref.err
		rs=$?
		LUAFIND_MPI_EAGER=$eager run_mpi "$np" "$@" >mpi.out 2>mpi.err
		ms=$?
		for f in ref mpi; do
			if $words; then
				# Batches are per rank: one "found" per batch, the files the same.
				tr ' \0' '\n\n' <$f.out | grep -vx found | sort >$f.sorted
			else
				tr '\0' '\n' <$f.out | sort >$f.sorted
			fi
			# Messages only: not luafind's caret lines, nor mpirun's own.
			sed -n 's/^luafind\(-mpi\)\{0,1\}: /luafind: /p' $f.err | grep -v '^luafind: stats' |
				sort >$f.esorted
		done
		if [ "$rs" != "$ms" ] || ! cmp -s ref.sorted mpi.sorted || ! cmp -s ref.esorted mpi.esorted; then
			fail "np=$np eager=$eager: $q (status $rs vs $ms)"
			diff ref.sorted mpi.sorted | head -5
			diff ref.esorted mpi.esorted | head -5
		fi
		for f in out1 out2; do
			[ -f "$f" ] || continue
			sort "$f" >"$f.ref"
			mv "$f" "$f.keep"
		done
		case $q in *-fprint*)
			# The file -fprint wrote: luafind's run above, then ours.
			"$lf" "$@" >/dev/null 2>&1
			sort out1 >out1.ref
			LUAFIND_MPI_EAGER=$eager run_mpi "$np" "$@" >/dev/null 2>&1
			sort out1 >out1.mpi
			cmp -s out1.ref out1.mpi || fail "np=$np: $q: the -fprint file differs"
			rm -f out1 out1.*
			;;
		esac
		rm -f out1.keep out2.keep out1.ref out2.ref
	done <"$here/queries.cases"
	echo "queries: $i run"
	[ "$i" -ge 40 ] || fail "fewer than 40 queries"
	# The errors: a bad expression reported once, -ok refused.
	run_mpi 3 t -name >mpi.out 2>mpi.err
	s=$?
	[ "$s" -ne 0 ] && [ "$(grep -c 'luafind-mpi:' mpi.err)" -eq 1 ] || fail "bad expression: status $s, $(cat mpi.err)"
	for p in "-ok echo {} ;" "-okdir echo {} ;" "-quit"; do
		# shellcheck disable=SC2086
		run_mpi 2 t $p >mpi.out 2>mpi.err
		s=$?
		[ "$s" -ne 0 ] && grep -q "not available in luafind-mpi" mpi.err && [ ! -s mpi.out ] ||
			fail "$p not refused: status $s"
	done
	# --stats: the sum of the ranks' entries is plain luafind's.
	want=$("$lf" --stats t 2>&1 >/dev/null | sed -n 's/.*stats: entries=\([0-9]*\).*/\1/p')
	got=$(LUAFIND_MPI_EAGER=1 run_mpi 4 --stats t 2>&1 >/dev/null | sed -n 's/.*stats: entries=\([0-9]*\).*/\1/p')
	[ "$want" = "$got" ] || fail "--stats: entries $want vs $got"
}

# Delete with both, compare what survives.
del_case() { # NP EAGER ARGS... (t is the tree)
	np=$1 eager=$2
	shift 2
	rm -rf a b
	mkdir a && mktree_t a/t && cp -a a b
	(cd a && "$lf" t "$@" >/dev/null 2>../ref.err)
	rs=$?
	(cd b && LUAFIND_MPI_EAGER=$eager run_mpi "$np" t "$@" >/dev/null 2>../mpi.err)
	ms=$?
	(cd a && find . | sort) >ref.left
	(cd b && find . | sort) >mpi.left
	[ "$rs" = "$ms" ] && cmp -s ref.left mpi.left ||
		{ fail "delete np=$np eager=$eager: $* (status $rs vs $ms)"; diff ref.left mpi.left | head -5; }
}

group_delete() {
	for np in 1 2 3 4; do
		del_case $np $((np % 2)) -name '*.o' -delete
		del_case $np $((1 - np % 2)) -delete
		del_case $np 1 -mindepth 1 -type d -name 'n*' -delete
	done
	del_case 3 1 -empty -delete
	del_case 4 1 -path '*deep*' -delete
	del_case 2 1 -exclude -name 'a*' -delete
	del_case 4 0 -type f -delete
	# A 100,000-level chain and a wide tree.
	rm -rf a b
	mkdir a && "$mkchain" a/chain 100000 >/dev/null && "$mktree" -s 3 -d 20 -f 20000 a/wide >/dev/null ||
		{ fail "mkchain"; return; }
	LUAFIND_MPI_EAGER=1 run_mpi 4 a/chain a/wide -delete >/dev/null 2>mpi.err
	s=$?
	[ "$s" -eq 0 ] && [ ! -e a/chain ] && [ ! -e a/wide ] || fail "chain and wide tree: status $s, $(head -3 mpi.err)"
	# / is refused, also behind a link under -H (-maxdepth 0 as a belt).
	ln -sf / slash
	for args in "/ -maxdepth 0 -delete" "-H slash -maxdepth 0 -delete"; do
		# shellcheck disable=SC2086
		run_mpi 2 $args >/dev/null 2>mpi.err
		s=$?
		[ "$s" -eq 1 ] && grep -q "refusing to delete" mpi.err || fail "$args: status $s, $(cat mpi.err)"
	done
}

group_kill() {
	mkdir a && "$mktree" -s 5 -d 400 -f 4000 a/t >/dev/null || { fail "mktree"; return; }
	LUAFIND_MPI_FAULT=1:300 LUAFIND_MPI_EAGER=1 run_mpi 3 a/t -delete >mpi.out 2>mpi.err
	s=$?
	[ "$s" -ne 0 ] || fail "killed rank: status 0"
	[ -d a/t ] || fail "killed rank: the top directory was deleted"
	grep -qiE 'signal 9|killed|failed' mpi.err || fail "killed rank: no message: $(head -5 mpi.err)"
	echo "kill: status $s; $(grep -ciE 'signal 9|killed|failed' mpi.err) lines say so"
}

# t/v/w is shared (every directory is, under LUAFIND_MPI_EAGER) and its
# walk waits LUAFIND_MPI_TEST_DELAY_MS before opening it.  Once t/v has
# been read (t/v/marker is deleted then), t/v is moved away and a link to
# ../outside put in its place, where outside/w holds canaries: opening
# "t/v/w" by its path would walk outside/w and delete them.  Resolved from
# t's fd without following links, it is an error, and they survive (or,
# if the rank kept t/v open from its walk of it, w is reached in t/v where
# it went, as luafind's walker reaches it through the fds it holds; then
# the deferred t/v, now a link, is the error).
group_race() {
	mkdir -p a/t/v/w/sub a/outside/w/sub a/aside &&
		touch a/t/v/marker a/t/v/w/f a/t/v/w/sub/g a/outside/w/canary a/outside/w/sub/canary ||
		{ fail "race: tree"; return; }
	(cd a && LUAFIND_MPI_EAGER=1 LUAFIND_MPI_TEST_DELAY_MS=2500 run_mpi 2 t -delete >../mpi.out 2>../mpi.err) &
	pid=$!
	n=0
	while [ -e a/t/v/marker ] && [ $n -lt 1500 ]; do
		sleep 0.02
		n=$((n + 1))
	done
	mv a/t/v a/aside/v && ln -s ../outside a/t/v
	wait $pid
	s=$?
	[ -e a/outside/w/canary ] && [ -e a/outside/w/sub/canary ] ||
		fail "race: a file outside the tree was deleted through a swapped link (status $s)"
	[ "$s" -ne 0 ] && grep -q "'t/v" mpi.err ||
		fail "race: the swapped path was not reported (status $s): $(head -3 mpi.err)"
	echo "race: status $s"
	head -3 mpi.err
}

# The scripts' tree: mktree's, with editor junk, broken links, old files,
# nested empty directories, a hard link across directories (du counts it
# once), an excluded name and an empty directory holding only an old one.
mktree_s() { # DIR
	mktree_t "$1" || return 1
	mkdir -p "$1/e1/e2/e3" "$1/e1/e4" "$1/keep/e5" "$1/old/o1/o2" "$1/deep/a/b/c/d/e/f/g" &&
		touch "$1/deep/a/x~" "$1/.y.swp" "$1/e1/e4/.#lock" "$1/keep/.DS_Store" "$1/deep/a/b/c/#auto#" &&
		ln -s gone "$1/e1/dangling" && ln "$1/deep/old" "$1/hardlink" &&
		head -c 9000 /dev/zero >"$1/deep/a/data" && ln "$1/deep/a/data" "$1/deep/a/data2" &&
		{ [ -z "${cross_links:-}" ] || ln "$1/deep/a/data" "$1/keep/data"; } &&
		touch -d '2019-06-01' "$1/old/o1/o2" "$1/old/o1" "$1/old/f" "$1/old" &&
		mkdir "$1/keep/node_modules" && touch "$1/keep/node_modules/m"
}

# One script run both ways on copies of the tree (NP ranks, EAGER), what they
# print and leave compared; RANKED: true, the output's order counts; roots,
# only du's lines of the PATHs t/deep and t/keep are compared; false, sorted.
script_case() { # NP EAGER RANKED SCRIPT ARGS...
	np=$1 eager=$2 ranked=$3
	shift 3
	rm -rf a b
	# Made twice, not copied: cp fills the holes of mktree's sparse files.
	mkdir a b && mktree_s a/t && mktree_s b/t || { fail "scripts: tree"; return; }
	(cd a && "$lf" --run "$@" >../ref.out 2>../ref.err)
	rs=$?
	(cd b && LUAFIND_MPI_EAGER=$eager run_mpi "$np" --run "$@" >../mpi.out 2>../mpi.err)
	ms=$?
	for f in ref mpi; do
		case $ranked in
		true) cp $f.out $f.sorted ;;
		roots) grep -P '\tt/(deep|keep)$' $f.out >$f.sorted ;; # a PATH's total, not where a link counts
		*) tr '\0' '\n' <$f.out | sed 's/^usage: mpirun -np N luafind-mpi /usage: luafind /' | sort >$f.sorted ;;
		esac
		# The counters but the entries differ: ranks open the directories they were given.
		sed 's/^luafind-mpi: rank [0-9]*: /luafind: /; s/\(: stats: entries=[0-9]*\) .*/\1/' $f.err |
			grep -v '^---\|^mpirun\|^Primary\|^  \|^a non-zero\|^the job\|^$' | sort >$f.esorted
	done
	(cd a && find . | sort) >ref.left
	(cd b && find . | sort) >mpi.left
	if [ "$rs" != "$ms" ] || ! cmp -s ref.sorted mpi.sorted || ! cmp -s ref.esorted mpi.esorted ||
		! cmp -s ref.left mpi.left; then
		fail "scripts np=$np eager=$eager: --run $* (status $rs vs $ms)"
		diff ref.sorted mpi.sorted | head -5
		diff ref.esorted mpi.esorted | head -5
		diff ref.left mpi.left | head -5
	fi
	scripts_run=$((scripts_run + 1))
}

group_scripts() {
	scripts_run=0
	for np in 1 2 3 4; do
		e=$((np % 2))
		script_case $np $e false old-files t
		script_case $np $((1 - e)) false old-files --apply --exclude 'f' t
		script_case $np $e false empty-dirs t
		script_case $np $((1 - e)) false empty-dirs --apply t
		script_case $np $e false empty-dirs --apply --older-than 365d t
		script_case $np 1 false empty-dirs --exclude e3 t
		script_case $np $e false editor-junk --apply t
		script_case $np $((1 - e)) false editor-junk -0 t/deep t/keep
		script_case $np $e false broken-links t
		script_case $np $((1 - e)) false broken-links --apply t
		script_case $np $e true big-files --top 10 t
		script_case $np $((1 - e)) true big-files --top 0 --bytes t
		script_case $np $e true du --top 0 t
		script_case $np $((1 - e)) true du --apparent-size --bytes --top 0 t t/deep
		script_case $np 1 true du --top 5 --exclude 'b*' t
	done
	script_case 3 1 true du --stats --top 3 t
	# A file linked from two directories: counted once, in either (luafind-mpi: by path).
	cross_links=1
	script_case 3 1 roots du --top 0 t/deep t/keep
	script_case 4 0 roots du --top 0 --apparent-size t/keep t/deep
	cross_links=""
	script_case 2 1 false empty-dirs --help
	script_case 2 1 false empty-dirs --bogus t
	script_case 2 1 false du nowhere
	script_case 2 1 false no-such-script t
	echo "scripts: $scripts_run runs"
	# --list-scripts lists once; a walk that another rank's script does not make ends the job.
	rm -rf t && mktree_s t
	run_mpi 3 --list-scripts >mpi.out 2>mpi.err
	[ $? -eq 0 ] && [ "$(grep -c '^du ' mpi.out)" -eq 1 ] || fail "--list-scripts: $(head -3 mpi.out mpi.err)"
	# Scripts whose own walk does not add up the ranks' parts are refused.
	for sc in duplicates recent-big; do
		run_mpi 2 --run $sc t >mpi.out 2>mpi.err
		s=$?
		[ "$s" -ne 0 ] && grep -q "not written for luafind-mpi\|would walk the whole tree on every rank" mpi.err &&
			[ ! -s mpi.out ] || fail "--run $sc under luafind-mpi: status $s, $(head -3 mpi.err)"
	done
	cat >split.lua <<-'EOF'
		local mpi = require "luafind.mpi"
		if mpi.rank == 1 then return 0 end
		for e in mpi.walk{"t"} do end
		return 0
	EOF
	run_mpi 2 --run ./split.lua >mpi.out 2>mpi.err
	s=$?
	[ "$s" -ne 0 ] && grep -q "went different ways" mpi.err || fail "diverging scripts: status $s, $(head -3 mpi.err)"
}

# Under LUAFIND_MPI_EAGER every directory is shared, so every directory
# with a subdirectory is deferred: after the walk, t, t/keep, t/keep/k,
# t/keep/k/l, t/v, t/v/w, t/v/w/x and t/v/w/x/y are left, empty of files.
# While the ranks wait before the deferred phase, t/v (a middle component
# of t/v/w, t/v/w/x and t/v/w/x/y) is moved to aside/v and replaced:
#   link     with a link to ../outside, which holds w/x/y (empty, so an
#            rmdir through the link would remove it) and canaries;
#   relink   with a link to ../aside/v, the very directories found: their
#            identities match, only the refusal to follow links stops it;
#   renamed  with new/, a directory holding the same names (other inodes):
#            only the identities stop it.
# Each deferred directory below t/v must be resolved again from t: through
# the link it is ELOOP (ESTALE before Linux 5.6), in new/ ESTALE.  Nothing
# outside (nor in new/, nor in aside/v, out of the tree since) is removed
# or visited, the deferred paths are reported, the status is 1, t/keep
# goes.
swap_case() { # HOW(link|relink|renamed) ARGS...
	how=$1
	shift
	rm -rf a
	mkdir -p a/t/v/w/x/y/z a/t/keep/k/l/m a/outside/w/x/y a/new/w/x/y a/aside || { fail "swap: tree"; return; }
	for d in t t/v t/v/w t/v/w/x t/v/w/x/y t/v/w/x/y/z t/keep t/keep/k t/keep/k/l t/keep/k/l/m; do
		touch "a/$d/f"
	done
	touch a/outside/w/canary a/outside/w/x/canary a/new/w/canary a/new/w/x/canary
	(cd a/outside && find . | sort) >outside.before
	(cd a/new && find . | sort) >new.before
	rm -f swap.out swap.err
	(cd a && LUAFIND_MPI_EAGER=1 LUAFIND_MPI_TEST_DEFER_PAUSE_MS=2500 run_mpi 2 t "$@" >../swap.out 2>../swap.err) &
	pid=$!
	wait_pause $pid
	grep -q 'deferred phase in' swap.err 2>/dev/null ||
		fail "swap $how $*: no pause after the walk: $(head -3 swap.err | tr '\n' ' ')"
	case $* in *-delete*)
		# The walk removed what it could; y waits, z went.
		[ -d a/t/v/w/x/y ] && [ ! -e a/t/v/w/x/y/z ] && [ ! -e a/t/v/f ] ||
			fail "swap $how $*: t/v/w/x/y not deferred: $(cd a && find t | tr '\n' ' ')"
		;;
	esac
	case $how in
	link) mv a/t/v a/aside/v && ln -s ../outside a/t/v ;;
	relink) mv a/t/v a/aside/v && ln -s ../aside/v a/t/v ;;
	renamed) mv a/t/v a/aside/v && mv a/new a/t/v ;;
	esac || fail "swap $how $*: swapped too late (the deferred phase had begun?)"
	wait $pid
	s=$?
	(cd a/aside/v && find . | sort) >aside.after
	(cd a/outside && find . | sort) >outside.after
	cmp -s outside.before outside.after ||
		fail "swap $how $*: outside the tree changed through the link: $(diff outside.before outside.after)"
	if [ "$how" = renamed ]; then
		(cd a/t/v && find . | sort) >new.after
		cmp -s new.before new.after ||
			fail "swap $how $*: the renamed-in directory changed: $(diff new.before new.after)"
	fi
	! grep -q canary swap.out || fail "swap $how $*: a command ran outside the tree: $(grep canary swap.out)"
	[ "$s" -ne 0 ] || fail "swap $how $*: status 0"
	for p in t/v/w t/v/w/x t/v/w/x/y; do
		grep -qE "'$p': (Too many levels of symbolic links|Stale file handle)" swap.err ||
			fail "swap $how $*: '$p' not reported: $(grep '^luafind-mpi: [^t]' swap.err | head -3 | tr '\n' ' ')"
	done
	case $* in *-delete*)
		# The moved original is out of the tree now: left as the walk left it.
		printf '.\n./w\n./w/x\n./w/x/y\n' | cmp -s - aside.after ||
			fail "swap $how $*: t/v's original, moved out, was acted on: $(tr '\n' ' ' <aside.after)"
		[ "$(ls -A a/t)" = v ] || fail "swap $how $*: t holds more than v: $(ls -A a/t | tr '\n' ' ')"
		;;
	esac
	echo "swap $how $*: status $s"
	grep '^luafind-mpi: [^t]' swap.err | head -5
}

# Until the run says (LUAFIND_MPI_TEST_DEFER_PAUSE_MS) that the walk is
# over and the deferred phase waits, or ends, or 30 s have gone.
wait_pause() { # PID
	n=0
	while ! grep -q 'deferred phase in' swap.err 2>/dev/null && kill -0 "$1" 2>/dev/null && [ $n -lt 1500 ]; do
		sleep 0.02
		n=$((n + 1))
	done
}

# --run empty-dirs: t/a/b, deferred (t/a/b/c went to the other rank), is
# replaced before the deferred phase: reported, and t/a, which held it, is
# not reported (dry run) nor removed (--apply) as empty (mpi.walk's lost).
swap_script() { # ARGS...
	rm -rf a && mkdir -p a/t/a/b/c a/aside && touch a/t/x || { fail "swap script: tree"; return; }
	rm -f swap.out swap.err
	(cd a && LUAFIND_MPI_EAGER=1 LUAFIND_MPI_TEST_DEFER_PAUSE_MS=2500 run_mpi 2 --run empty-dirs "$@" t \
		>../swap.out 2>../swap.err) &
	pid=$!
	wait_pause $pid
	mv a/t/a/b a/aside/b && mkdir a/t/a/b
	wait $pid
	s=$?
	[ "$s" -eq 1 ] && [ "$(cat swap.out)" = t/a/b/c ] && grep -q "'t/a/b': Stale file handle" swap.err &&
		! grep -q 'not empty' swap.err && [ -d a/t/a/b ] || fail "swap script $*: status $s, printed $(tr '\n' ' ' <swap.out), $(grep luafind swap.err | head -3)"
}

group_swap() {
	swap_script
	swap_script --apply
	swap_case link -delete
	swap_case relink -delete
	swap_case renamed -delete
	swap_case link -depth -type d -exec ls -A {} ';'
}

case $group in
queries) group_queries ;;
scripts) group_scripts ;;
delete) group_delete ;;
kill) group_kill ;;
race) group_race ;;
swap) group_swap ;;
*)
	group_queries
	group_scripts
	group_delete
	group_kill
	group_race
	group_swap
	;;
esac
if [ "$fails" -ne 0 ]; then
	echo "diff_mpi $group: $fails failure(s); scratch kept in $dir"
	exit 1
fi
cd / && rm -rf -- "$dir"
echo "diff_mpi $group: all passed"
