# gitignore: the scripts' --gitignore (the framework's walk, lf.walk's
# gitignore option) in a generated repository: big-files and empty-dirs
# skip what git ignores, .git included, and only with the option.
. "$(dirname "$0")/lib.sh"
need_cmd git "making the repository"
export HOME="$work/home" XDG_CONFIG_HOME="$work/xdgc" GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES="$work"
unset GIT_CONFIG_GLOBAL GIT_DIR GIT_WORK_TREE

R=$work/r
mkdir -p "$R/build/emptyd" "$R/src/emptyd" "$R/src/ignored-empty"
git -C "$R" init -q
printf 'build/\n*.iso\nignored-empty/\n' >"$R/.gitignore"
head -c 200000 /dev/zero >"$R/build/big.o"
head -c 200000 /dev/zero >"$R/a.iso"
head -c 200000 /dev/zero >"$R/src/big.dat"

run big-files --gitignore --top 100 "$R" >out 2>err || fail "big-files --gitignore: status $?"
printf '196K\t%s\n28\t%s\n' "$R/src/big.dat" "$R/.gitignore" >expected
diff expected out >/dev/null || fail "big-files --gitignore listed: $(cat out)"
run big-files --top 100 "$R" >out 2>err || fail "big-files: status $?"
grep -q "$R/a.iso" out && grep -q "$R/.git/" out || fail "big-files without --gitignore skipped files: $(cat out)"

run empty-dirs --gitignore "$R" >out 2>err || fail "empty-dirs --gitignore: status $?"
printf '%s\n' "$R/src/emptyd" >expected
diff expected out >/dev/null || fail "empty-dirs --gitignore listed: $(cat out)"
run empty-dirs "$R" >out 2>err
grep -q "$R/build/emptyd" out || fail "empty-dirs without --gitignore: $(cat out)"
finish
