# empty-dirs: empty directories and those left empty once their empty
# subdirectories go, deepest first; never a PATH itself; a directory
# holding a file, a link or an --exclude'd name stays; no stat at all.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/e1" "$T/chain/a/b/c" "$T/wide/x" "$T/wide/y/z" "$T/mixed/e" "$T/mixed/f/g" \
         "$T/link/e" "$T/keep/e"
touch "$T/mixed/file" "$T/keep/.keep"
ln -s ../e1 "$T/link/l"

cat >expected <<EOF2
$T/e1
$T/chain/a/b/c
$T/chain/a/b
$T/chain/a
$T/chain
$T/wide/x
$T/wide/y/z
$T/wide/y
$T/wide
$T/mixed/e
$T/mixed/f/g
$T/mixed/f
$T/link/e
$T/keep/e
EOF2

# Deepest first: a directory is listed after what is inside it.
run empty-dirs "$T" >out 2>/dev/null
[ "$(grep -n -x "$T/chain/a/b/c" out | cut -d: -f1)" -lt "$(grep -n -x "$T/chain" out | cut -d: -f1)" ] ||
	fail "not in post-order: $(cat out)"

# No stat: an empty tree and this one cost the same.
mkdir empty
counter() {
	run empty-dirs --stats "$1" 2>&1 >/dev/null | sed -n 's/.* stats=\([0-9]*\) .*/\1/p'
}
[ "$(counter "$T")" -eq "$(counter empty)" ] || fail "empty-dirs stats: $(counter "$T") vs $(counter empty)"

# --exclude: a directory holding an excluded name is not empty, nor are
# its parents; an excluded empty directory stays.
run empty-dirs -0 --exclude c --exclude e1 "$T" 2>/dev/null | tr '\0' '\n' | sort >out
grep -v -x -e "$T/e1" -e "$T/chain.*" expected | sort | cmp -s - out || fail "--exclude: $(cat out)"

# A PATH is never removed, even empty; a PATH that is a subdirectory.
run empty-dirs --apply empty >out 2>/dev/null
[ -d empty ] && [ ! -s out ] || fail "an empty PATH was removed"

cp -a "$T" "$work/old"
clean_test empty-dirs "$T" expected

# --older-than: a directory's own age, taken before its contents go (so the
# dry run and --apply agree): chain is old, chain/a/b/c is new.
O=$work/old
touch -d '10 days ago' "$O/chain" "$O/chain/a" "$O/chain/a/b" "$O/e1"
printf '%s\n' "$O/e1" >expected.old
clean_test empty-dirs "$O" expected.old --older-than 5d
touch -d '10 days ago' "$O/chain/a/b/c"
printf '%s\n' "$O/chain" "$O/chain/a" "$O/chain/a/b" "$O/chain/a/b/c" >expected.old
clean_test empty-dirs "$O" expected.old --older-than 5d

finish
