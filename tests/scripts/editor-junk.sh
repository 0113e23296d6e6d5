# editor-junk: the seeded junk and nothing else, in a dry run and with
# --apply; names with spaces, a leading dash and a newline; --exclude,
# --older-than; and laziness: no stat for a name that does not match
# (strace -f -c, against an empty tree; and the --stats counters).
. "$(dirname "$0")/lib.sh"
need_strace "counting the stat calls"

T=$work/t
mkdir -p "$T/sub/deep/more" "$T/dir~" "$T/bulk"
cd "$T"
touch a.c a.c~ .a.c.swp .a.c.swo '#a.c#' .DS_Store Thumbs.db 'with space~' ./-lead~ \
      a.swp '#a' 'a#' thumbs.db 'x~y' .swp 'dir~/b~' sub/deep/more/f~ sub/deep/more/keep
ln -s 'root@host.1234:1700000000' '.#a.c'       # an Emacs lock file is a link
echo data >sub/deep/more/f~
for d in 1 2 3 4 5 6 7 8 9 10; do
	mkdir bulk/d$d
	for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		: >bulk/d$d/f$f.c
	done
done
cd "$work"
cat >expected <<EOF2
$T/a.c~
$T/.a.c.swp
$T/.a.c.swo
$T/#a.c#
$T/.#a.c
$T/.DS_Store
$T/Thumbs.db
$T/with space~
$T/-lead~
$T/dir~/b~
$T/sub/deep/more/f~
EOF2
selected=$(wc -l <expected)

# Laziness first, while the junk is there.
mkdir empty
# stats TREE [OPTION...]: the stat calls on paths of a run, per strace (not
# fstat, which the C library calls on the stdout it writes to and on the
# files it opens: that is newfstatat(fd, "", ..., AT_EMPTY_PATH)).
stats() {
	st_tree=$1
	shift
	LUAFIND_IO_URING=0 strace -f -e trace=/stat -o strace.out "$luafind" --run editor-junk "$@" "$st_tree" >/dev/null 2>&1
	grep -E '^[0-9]+ +(newfstatat|fstatat64|statx|stat|lstat|stat64|lstat64)\(' strace.out |
		grep -c -v AT_EMPTY_PATH
}
for mode in "" --apply; do
	tree=$T
	if [ -n "$mode" ]; then
		tree=$work/copy
		cp -a "$T" "$tree"
	fi
	base=$(stats empty $mode)
	tree=$(stats "$tree" $mode)
	[ $((tree - base)) -eq "$selected" ] ||
		fail "laziness ${mode:-dry run}: $tree stat calls on the tree, $base on an empty one: $((tree - base)) for $selected matches"
	echo "strace ${mode:-dry run}: $base stat calls for an empty tree, $tree for $(find "$T" | wc -l) entries with $selected matches"
done
strace -f -c -o strace.out "$luafind" --run editor-junk "$T" >/dev/null 2>&1
echo "strace -f -c, dry run: $(awk '$NF ~ /stat/ { printf "%s %s, ", $NF, $4 }' strace.out)"
counter() { # counter TREE: the stats= counter of --stats
	run editor-junk --stats "$1" 2>&1 >/dev/null | sed -n 's/.* stats=\([0-9]*\) .*/\1/p'
}
[ $(( $(counter "$T") - $(counter empty) )) -eq "$selected" ] ||
	fail "laziness: --stats counts $(counter "$T") stats on the tree, $(counter empty) on an empty one"

# Output without -0: one path a line, and the summary.
run editor-junk "$T" >out 2>err
expect_status 0 "dry run" $?
sort out | cmp -s - "$(sort expected >e.sorted; echo e.sorted)" || fail "dry run output: $(cat out)"
grep -q "^editor-junk: would remove $selected files, 0 directories, 30 bytes (dry run: --apply removes them)$" err ||
	fail "summary: $(cat err)"

# --exclude: a name, and a directory (not entered).
run editor-junk -0 --exclude '*.swp' --exclude sub "$T" 2>/dev/null | tr '\0' '\n' | sort >out
grep -v -e '\.swp$' -e /sub/ expected | sort | cmp -s - out || fail "--exclude: $(cat out)"

# --older-than: only the old junk.
touch -h -d '3 days ago' "$T/a.c~" "$T/.#a.c"
run editor-junk --older-than 2d "$T" 2>/dev/null | sort >out
printf '%s\n' "$T/.#a.c" "$T/a.c~" | sort | cmp -s - out || fail "--older-than 2d: $(cat out)"

clean_test editor-junk "$T" expected

# A name with a newline, with -0.
N=$work/n
mkdir "$N"
touch "$N/new
line~" "$N/new
line"
run editor-junk -0 --apply "$N" >out 2>/dev/null
printf '%s\0' "$N/new
line~" | cmp -s - out || fail "-0 with a newline in a name"
[ -e "$N/new
line" ] && [ ! -e "$N/new
line~" ] || fail "newline name: wrong file removed"

finish
