# du: every directory's total equals du's, in blocks (du -B1) and in
# apparent sizes (du --apparent-size -B1): a sparse file, hard links
# counted once, links, empty directories; sorted largest first; --top.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/a/b/c" "$T/d" "$T/empty" "$T/many"
cd "$T"
head -c 100000 /dev/urandom >a/big
head -c 3000 /dev/urandom >a/b/mid
printf x >a/b/c/tiny
truncate -s 5M d/sparse                   # 5 MiB apparent, no blocks
printf 'some bytes' >>d/sparse
head -c 20000 /dev/urandom >d/hard
ln d/hard d/hard2                         # counted once
ln -s a/big link
i=0
while [ $i -lt 50 ]; do
	head -c $((i * 97)) /dev/zero >many/f$i
	i=$((i + 1))
done
cd "$work"

for mode in "" --apparent-size; do
	run du --bytes --top 0 $mode "$T" >out 2>err
	expect_status 0 "du $mode" $?
	du -B1 $mode "$T" | sort >expected
	sort out | cmp -s expected - || fail "du --bytes --top 0 $mode (diff du luafind):
$(sort out | diff expected -)"
	sort -s -t "$(printf '\t')" -k1,1nr out | cmp -s out - || fail "du $mode: not sorted: $(cat out)"
	[ "$(head -n 1 out)" = "$(du -s -B1 $mode "$T")" ] || fail "du $mode: first line $(head -n 1 out)"
done

# The top N, human-readable.
run du --top 2 "$T" >out 2>/dev/null
[ "$(wc -l <out)" -eq 2 ] || fail "--top 2: $(cat out)"
run du --apparent-size --top 1 "$T" >out 2>/dev/null
[ "$(cut -f1 out)" = "$(du -s --apparent-size -h "$T" | cut -f1)" ] || fail "human size $(cat out) vs $(du -s --apparent-size -h "$T")"

# A PATH that is a file; several PATHs.
[ "$(run du --bytes "$T/a/big" 2>/dev/null)" = "$(du -B1 "$T/a/big")" ] || fail "a file PATH"
run du --bytes --top 0 "$T/a" "$T/d" 2>/dev/null | sort >out
{ du -B1 "$T/a"; du -B1 "$T/d"; } | sort | cmp -s - out || fail "two PATHs: $(cat out)"

# --exclude: as du --exclude.
run du --bytes --top 0 --exclude b --exclude 'hard*' "$T" 2>/dev/null | sort >out
du -B1 --exclude b --exclude 'hard*' "$T" | sort | cmp -s - out || fail "--exclude: $(cat out)"

# Ties in path order, as the strings sort (LC_ALL=C), names that are
# prefixes of others included: --apparent-size makes every empty
# directory the same size.  And --top on a 20,000-level chain of equal
# sizes stays linear (it used to build two paths per comparison: 55 s):
# on a tmpfs, where every directory's total is 0 blocks.
E=$work/ties
mkdir -p "$E/a/x" "$E/a-b" "$E/a.b" "$E/ab/y/z" "$E/a/x-" "$E/b" "$E/a/x/q" "$E/Z"
run du --bytes --apparent-size --top 0 "$E" >all 2>/dev/null
LC_ALL=C sort -s -t "$(printf '\t')" -k1,1nr -k2,2 all | cmp -s all - || fail "du: ties not in path order: $(cat all)"
run du --bytes --apparent-size --top 3 "$E" >out 2>/dev/null
head -n 3 all | cmp -s - out || fail "du --top 3 on ties: $(cat out), expected $(head -n 3 all)"
chain=$work/chain
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	chain=$(mktemp -d /dev/shm/luafind-du.XXXXXX)/chain
fi
python3 - "$chain" <<'EOF'
import os, sys
os.mkdir(sys.argv[1])
fd = os.open(sys.argv[1], os.O_RDONLY)
for _ in range(20000):
    os.mkdir("d", dir_fd=fd)
    up, fd = fd, os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(up)
EOF
start=$(date +%s)
run du --top 3 "$chain" >out 2>/dev/null
took=$(($(date +%s) - start))
rm -rf "${chain%/chain}"
[ $took -lt 20 ] || fail "du --top 3 on a 20,000-level chain took $took s"

# du only reports: no --apply, no --older-than.
for opt in --apply "--older-than 1d"; do
	run du $opt "$T" >/dev/null 2>err
	expect_status 2 "du $opt" $?
	grep -q "^luafind: du: unknown option '${opt%% *}'" err || fail "du $opt: $(cat err)"
done

finish
