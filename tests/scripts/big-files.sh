# big-files: the N largest regular files, largest first, ties by path,
# sizes in bytes or human-readable; links and directories never listed;
# nothing changes; no --apply.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/a/b" "$T/c"
cd "$T"
head -c 1536 /dev/zero >a/k15
head -c 2097152 /dev/zero >a/b/m2
head -c 10485761 /dev/zero >c/m10
truncate -s 3G sparse3g                   # apparent size counts
head -c 500 /dev/zero >tie1
head -c 500 /dev/zero >a/tie0
head -c 499 /dev/zero >small
ln -s c/m10 link
cd "$work"

run big-files --bytes --top 0 "$T" >out 2>err
expect_status 0 "big-files" $?
cat >expected <<EOF2
3221225472	$T/sparse3g
10485761	$T/c/m10
2097152	$T/a/b/m2
1536	$T/a/k15
500	$T/a/tie0
500	$T/tie1
499	$T/small
EOF2
cmp -s expected out || fail "--bytes --top 0 (diff expected got):
$(diff expected out)"
grep -q "^big-files: 7 of 7 files, " err || fail "summary: $(cat err)"

run big-files --top 4 "$T" >out 2>/dev/null
cat >expected <<EOF2
3.0G	$T/sparse3g
11M	$T/c/m10
2.0M	$T/a/b/m2
1.5K	$T/a/k15
EOF2
cmp -s expected out || fail "--top 4 (diff expected got):
$(diff expected out)"
[ "$(run big-files "$T" 2>/dev/null | wc -l)" -eq 7 ] || fail "default --top 20"
[ "$(run big-files --top=2 --exclude c "$T" 2>/dev/null | cut -f2)" = "$T/sparse3g
$T/a/b/m2" ] || fail "--top=2 --exclude c"

touch -d '10 days ago' "$T/a/k15" "$T/small"
[ "$(run big-files --older-than 1w "$T" 2>/dev/null | cut -f2)" = "$T/a/k15
$T/small" ] || fail "--older-than 1w"

for bad in "--apply" "--top" "--top x" "--top -1"; do
	run big-files $bad "$T" >/dev/null 2>err
	expect_status 2 "big-files $bad" $?
	grep -q "^luafind: big-files: " err || fail "big-files $bad: $(cat err)"
done
touch -d '10 days ago' "$T/a/k15" "$T/small"
snapshot "$T" >after.touch
run big-files "$T" >/dev/null 2>&1
snapshot "$T" | cmp -s after.touch - || fail "big-files changed the tree"

finish
