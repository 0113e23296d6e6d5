# recent-big: the tutorial script written on lf.find and lf.walk alone, in a
# generated git repository: regular files of at least --min-size (bounds
# exact) modified less than --days ago, not ignored by git (ignored
# directories, ignored patterns and .git left out; a tracked file that a
# pattern matches listed), in path order, with sizes; the list is checked
# against git ls-files as well; ignored files cost no stat (--stats);
# --exclude, -0, --help, usage errors (status 2); an unreadable directory
# (without root's DAC capabilities) reported, status 1, the rest listed.
. "$(dirname "$0")/lib.sh"
need_cmd git "making the repository"
need_nodac "dropping root's DAC capabilities"
export HOME="$work/home" XDG_CONFIG_HOME="$work/xdgc" GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES="$work"
unset GIT_CONFIG_GLOBAL GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

R=$work/r
mkdir -p "$R/build/deep" "$R/src/vendor" "$R/docs"
git -C "$R" init -q || fail "git init"
printf 'build/\n*.iso\n' >"$R/.gitignore"
mb() { head -c "$2" /dev/zero >"$R/$1"; }
mb build/deep/big.o 2000000          # in an ignored directory
mb a.iso 2000000                     # ignored by a pattern
mb tracked.iso 2000000               # ... but tracked: git does not ignore it
git -C "$R" add -f tracked.iso || fail "git add"
mb .git/big.pack 2000000             # .git is never entered
mb src/new.dat 2000000               # untracked, not ignored
mb src/exact 1048576                 # exactly --min-size 1M
mb src/under 1048575                 # a byte short
mb src/vendor/lib.bin 3000000        # for --exclude vendor
mb docs/small 1000
truncate -s 3G "$R/docs/sparse3g"    # apparent size counts
mb old.dat 5000000
touch -d '10 days ago' "$R/old.dat"  # older than --days 7
ln -s src/new.dat "$R/link"          # links are not regular files
for i in 1 2 3 4 5 6 7 8 9 10; do mb "src/ignored$i.iso" 1500000; done

run recent-big "$R" >out 2>err
expect_status 0 "recent-big" $?
cat >expected <<EOF2
3.0G	$R/docs/sparse3g
1.0M	$R/src/exact
2.0M	$R/src/new.dat
2.9M	$R/src/vendor/lib.bin
2.0M	$R/tracked.iso
EOF2
cmp -s expected out || fail "recent-big (diff expected got):
$(diff expected out)"
grep -q -x "recent-big: 5 files, 3229274048 bytes (3.1G)" err || fail "summary: $(cat err)"

# The same list from git itself: what it tracks or would add (not what it
# ignores), as regular files, at least 1 MiB, modified within 7 days.
(cd "$R" && git ls-files -co --exclude-standard) | while IFS= read -r f; do
	[ -f "$R/$f" ] && [ ! -L "$R/$f" ] && printf '%s\n' "$R/$f"
done | sort >git.files
while IFS= read -r f; do find "$f" -maxdepth 0 -size +1048575c -mtime -7; done <git.files | sort >git.expected
[ -s git.expected ] || fail "git ls-files: nothing to compare with"
cut -f2 out | sort | cmp -s git.expected - || fail "recent-big and git ls-files differ (diff git recent-big):
$(cut -f2 out | sort | diff git.expected -)"

# Lazy stat: one stat for the PATH check, one for the root, one per
# regular file git does not ignore (the ten ignored .iso files, build/ and
# .git cost none; directories and the link need none).
files=$(wc -l <git.files)
run recent-big --stats "$R" >/dev/null 2>err
want=$((files + 2))
grep -q "^recent-big: stats: entries=[0-9]* opens=[0-9]* getdents=[0-9]* stats=$want stats_follow=0 unlinks=0$" err ||
	fail "--stats: expected stats=$want (2 + $files files): $(cat err)"

# Options: bounds, --days, --exclude (a directory pruned, a file skipped),
# -0, -- and several PATHs.
[ "$(run recent-big --min-size 1048577 "$R/src" 2>/dev/null | cut -f2)" = "$R/src/new.dat
$R/src/vendor/lib.bin" ] || fail "--min-size 1048577"
[ "$(run recent-big --min-size=1000 "$R/docs" 2>/dev/null | cut -f2)" = "$R/docs/small
$R/docs/sparse3g" ] || fail "--min-size=1000"
[ "$(run recent-big --min-size 1001 "$R/docs" 2>/dev/null | cut -f2)" = "$R/docs/sparse3g" ] || fail "--min-size 1001"
[ "$(run recent-big --min-size 0 "$R/docs" 2>/dev/null | wc -l)" -eq 2 ] || fail "--min-size 0"
[ "$(run recent-big --min-size 4M "$R" 2>/dev/null | cut -f2)" = "$R/docs/sparse3g" ] || fail "--min-size 4M"
run recent-big --days 30 --min-size 4M "$R" >out 2>/dev/null
[ "$(cut -f2 out)" = "$R/docs/sparse3g
$R/old.dat" ] || fail "--days 30: $(cat out)"
[ "$(run recent-big --exclude vendor --exclude 'sp*' --min-size 1500000 "$R" 2>/dev/null | cut -f2)" = "$R/src/new.dat
$R/tracked.iso" ] || fail "--exclude"
[ "$(run recent-big --exclude src "$R/src" 2>/dev/null | wc -l)" -eq 3 ] || fail "--exclude: a PATH itself is never excluded"
run recent-big -0 --min-size 1500000 -- "$R/src" "$R/tracked.iso" >out 2>/dev/null
printf '%s\0' "$R/src/new.dat" "$R/src/vendor/lib.bin" "$R/tracked.iso" | cmp -s - out || fail "-0: $(tr '\0' '\n' <out)"

# --help, as every bundled script's; usage errors: status 2, a message.
run recent-big --help >help 2>&1
expect_status 0 "--help" $?
head -n 1 help | grep -q -x "usage: luafind --run recent-big \[OPTIONS\] \[PATH\.\.\.\]" || fail "--help: $(head -n 1 help)"
for o in --min-size --days --exclude --xdev -0 --stats --help; do
	grep -q -e "^  $o[ =]" help || fail "--help does not list $o"
done
run recent-big -h | cmp -s help - || fail "-h"
for bad in "--apply" "--min-size" "--min-size 1X" "--min-size -1" "--days 0" "--days x" "--xdev=1" "-x" "nope"; do
	run recent-big $bad "$R" >out 2>err
	expect_status 2 "recent-big $bad" $?
	grep -q "^luafind: recent-big: " err || fail "recent-big $bad: $(cat err)"
	[ -s out ] && fail "recent-big $bad printed: $(cat out)"
done
grep -q -x "luafind: recent-big: nope: No such file or directory" err || fail "missing PATH: $(cat err)"

# An unreadable directory: reported once, counted, status 1; the rest is
# still listed.
mkdir "$R/locked"
mb locked/big 2000000
chmod 000 "$R/locked"
run_as --nodac "$luafind" --run recent-big --min-size 1500000 "$R" >out 2>err
expect_status 1 "recent-big with an unreadable directory" $?
[ "$(grep -c . err)" -eq 2 ] && grep -q -x "luafind: recent-big: $R/locked: Permission denied" err ||
	fail "unreadable directory: $(cat err)"
grep -q -x "recent-big: 4 files, [0-9]* bytes (.*); 1 read error" err || fail "summary with a read error: $(cat err)"
[ "$(cut -f2 out)" = "$R/docs/sparse3g
$R/src/new.dat
$R/src/vendor/lib.bin
$R/tracked.iso" ] || fail "with an unreadable directory, listed: $(cat out)"
chmod 755 "$R/locked"

finish
