# broken-links: links to nothing (missing target, a file on the way, a
# loop), printed with their target; links that work stay; one stat per
# link and none for anything else.
. "$(dirname "$0")/lib.sh"

T=$work/t
mkdir -p "$T/d/sub" "$T/dir"
touch "$T/file" "$T/d/sub/f"
cd "$T"
ln -s nowhere bl
ln -s ../missing d/rel
ln -s loop2 loop1
ln -s loop1 loop2
ln -s self self
ln -s file/sub notdir
ln -s /nonexistent/x abs
ln -s dir okdir
ln -s ../file d/okfile
ln -s sub/f d/okrel
ln -s "$T/file" okabs
ln -s bl chain          # a link to a broken link is broken too
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do touch "dir/f$i"; done
cd "$work"

cat >expected <<EOF2
$T/bl
$T/d/rel
$T/loop1
$T/loop2
$T/self
$T/notdir
$T/abs
$T/chain
EOF2

run broken-links "$T" 2>/dev/null | sort >out
grep -q -x "$T/d/rel -> ../missing" out || fail "no target printed: $(cat out)"
grep -q -x "$T/abs -> /nonexistent/x" out || fail "no target printed: $(cat out)"

# One stat (following) per link, none for the 23 other entries.
mkdir empty
counts() {
	run broken-links --stats "$1" 2>&1 >/dev/null | sed -n 's/.* stats=\([0-9]*\) stats_follow=\([0-9]*\) .*/\1 \2/p'
}
set -- $(counts "$T")
tree_stats=$1 tree_follow=$2
set -- $(counts empty)
links=$(find "$T" -type l | wc -l)
[ "$tree_follow" -eq "$links" ] || fail "$tree_follow stats following links, for $links links"
[ $((tree_stats - $1)) -eq "$(wc -l <expected)" ] ||
	fail "$((tree_stats - $1)) stats not following links, for $(wc -l <expected) broken ones (their size)"

clean_test broken-links "$T" expected
[ -f "$T/file" ] && [ -d "$T/dir" ] || fail "a target went"

finish
