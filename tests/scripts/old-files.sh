# old-files: files and links not modified for --older-than (default 30
# days, by mtime; a link's own time), directories stay.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/a/b" "$T/olddir"
cd "$T"
touch new a/new a/b/new olddir/new
touch -d '40 days ago' old a/old a/b/old olddir
touch -d '20 days ago' mid a/mid
touch -d '3 hours ago' hours
ln -s new oldlink
touch -h -d '40 days ago' oldlink
ln -s old newlink        # new link to an old file: the link's time counts
cd "$work"

printf '%s\n' "$T/old" "$T/a/old" "$T/a/b/old" "$T/oldlink" >expected
cp -a "$T" "$work/t2"
cp -a "$T" "$work/t3"
clean_test old-files "$T" expected

printf '%s\n' "$work/t2/old" "$work/t2/a/old" "$work/t2/a/b/old" "$work/t2/oldlink" \
       "$work/t2/mid" "$work/t2/a/mid" >expected
clean_test old-files "$work/t2" expected --older-than 2w

printf '%s\n' "$work/t3/old" "$work/t3/a/old" "$work/t3/a/b/old" "$work/t3/oldlink" \
       "$work/t3/mid" "$work/t3/a/mid" "$work/t3/hours" >expected
clean_test old-files "$work/t3" expected --older-than=2h

for age in 90m 7200 1.5d 1w 45s; do
	run old-files --older-than "$age" "$T" >/dev/null 2>&1
	expect_status 0 "--older-than $age" $?
done
for age in 3x 1d2h -5 "" d; do
	run old-files --older-than "$age" "$T" >/dev/null 2>err
	expect_status 2 "--older-than '$age'" $?
	grep -q "^luafind: old-files: --older-than: bad age" err || fail "--older-than '$age': $(cat err)"
done

finish
