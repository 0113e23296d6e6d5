# duplicates: exactly the groups a brute-force comparison finds (sha256 of
# every non-empty file, paths to one inode counted once); same-size files
# differing after the first 4 KiB; the dry run changes nothing; --apply
# makes each group one inode (not across owners/permissions), atomically,
# and changes no contents.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/a" "$T/b" "$T/c/d" "$T/e f"
cd "$T"
head -c 10000 /dev/urandom >a/r1
cp a/r1 b/r1copy
cp a/r1 "c/d/r1 copy"
head -c 6000 /dev/urandom >x1             # same first 4 KiB, differ at byte 5000
cp x1 a/x2
{ head -c 5000 x1; printf 'Z'; tail -c 999 x1; } >b/x3
head -c 6000 /dev/urandom >b/x4           # same size, other contents
printf hello >s1
printf hello >"e f/s 2"
ln s1 a/s1link                            # the same inode: listed, not a duplicate
printf world >h1                          # hard links only: no group
ln h1 b/h2
: >empty1
: >a/empty2                               # empty files: never a group
printf perm >p1
printf perm >p2
chmod 600 p2                              # a group, but --apply leaves p2 alone
ln -s a/r1 link                           # links are not files
i=0
while [ $i -lt 60 ]; do                   # colliding sizes, a few real duplicates
	printf 'x%02d\n' $((i % 23)) >"c/n$i"
	i=$((i + 1))
done
cd "$work"

# The brute force: sha256 of every non-empty regular file; a group is a
# hash with at least two inodes; a group is printed as its sorted paths on
# one line, "|"-separated.
find "$T" -type f -size +0 -printf '%i\t%p\n' | sort -t "$(printf '\t')" -k2 >inodes
cut -f2 inodes | while IFS= read -r p; do
	printf '%s\t%s\n' "$(sha256sum <"$p" | cut -c1-64)" "$p"
done | sort >hashes
awk -F '\t' 'NR == FNR { ino[$2] = $1; next }
	{ paths[$1] = paths[$1] "|" $2; n[$1]++
	  if (!(($1, ino[$2]) in seen)) { seen[$1, ino[$2]] = 1; inodes[$1]++ } }
	END { for (h in n) if (inodes[h] > 1) print substr(paths[h], 2) }' inodes hashes |
	while IFS= read -r line; do
		printf '%s\n' "$line" | tr '|' '\n' | sort | tr '\n' '|'
		echo
	done | sort >expected.groups
[ "$(wc -l <expected.groups)" -ge 20 ] || fail "the seeded tree has too few groups: $(cat expected.groups)"

# groups FILE: the script's output (groups separated by empty lines) in the
# same form.
groups() {
	awk 'BEGIN { RS = ""; FS = "\n" } { line = ""; for (i = 1; i <= NF; i++) print $i | "sort | tr \"\\n\" \"|\"; echo"; close("sort | tr \"\\n\" \"|\"; echo") }' "$1" | sort
}

snapshot "$T" >before
run duplicates "$T" >out 2>err
expect_status 0 "dry run" $?
snapshot "$T" >after
cmp -s before after || fail "the dry run changed the tree: $(diff before after)"
groups out >got.groups
cmp -s expected.groups got.groups || fail "groups (diff brute-force script):
$(diff expected.groups got.groups)"
grep -q "^duplicates: $(wc -l <expected.groups) groups, " err || fail "summary: $(cat err)"

# -0: the same records, NUL-terminated, an empty record between groups.
run duplicates -0 "$T" 2>/dev/null | tr '\0' '\n' >out0
cmp -s out out0 || fail "-0 output differs"

# --apply: each group becomes one inode (p2 excepted), contents unchanged.
find "$T" -type f -printf '%p\n' | sort >files.before
run duplicates --apply "$T" >out 2>err
expect_status 0 "--apply" $?
grep -q "p2: not linked: owner or permissions differ" err || fail "p2: $(cat err)"
find "$T" -type f -printf '%p\n' | sort >files.after
cmp -s files.before files.after || fail "--apply changed the set of files: $(diff files.before files.after)"
cut -f2 hashes | while IFS= read -r p; do
	printf '%s\t%s\n' "$(sha256sum <"$p" | cut -c1-64)" "$p"
done | sort | cmp -s - hashes || fail "--apply changed contents"
tr '|' '\n' <expected.groups | grep -v -x -e '' -e "$T/p1" -e "$T/p2" >grouped
while IFS= read -r group; do
	printf '%s\n' "$group" | tr '|' '\n' | grep -v -x -e '' -e "$T/p2" |
		while IFS= read -r p; do stat -c %i "$p"; done | sort -u | wc -l
done <expected.groups | sort -u >inode.counts
[ "$(cat inode.counts)" = 1 ] || fail "a group still has several inodes"
[ "$(stat -c %i "$T/p1")" != "$(stat -c %i "$T/p2")" ] || fail "p2 was linked"
ls -a "$T" "$T/a" | grep -q luafind-link && fail "a temporary link was left behind"
run duplicates "$T" 2>/dev/null >out
[ "$(groups out)" = "$T/p1|$T/p2|" ] || fail "after --apply: $(cat out)"

finish
