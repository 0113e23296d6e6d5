#!/bin/sh
# gitignore.sh: -gitignore against git itself, on generated repositories.
#
#	gitignore.sh LUAFIND WORKDIR
#
# Three repositories (nested .gitignore files, negations, directory-only
# and anchored patterns, "**", escapes and trailing spaces; info/exclude,
# core.excludesFile from $GIT_CONFIG_GLOBAL, tracked files that patterns
# match, untracked directories, index versions 2 to 4; the default
# $XDG_CONFIG_HOME/git/ignore, a repository's own core.excludesFile, a
# nested repository, a root below the top) are made with git in WORKDIR,
# HOME and XDG_CONFIG_HOME pointing there so that no user configuration
# leaks in.  The files "luafind ROOT -gitignore -type f" lists (none is
# under .git/) must be exactly "git ls-files --others --cached
# --exclude-standard" in ROOT, depth-first, with -depth, and breadth-first
# through lf.walk; and "git check-ignore" must ignore none of them and every
# other file.  Skipped (77) without git; a failure in CI (tools/setup.sh
# installs it).
set -eu
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: gitignore.sh LUAFIND WORKDIR}
work=${2:?}
need_cmd git "the reference for -gitignore"
rm_work "$work"
mkdir -p "$work/home" "$work/xdg/git"
clean_on_success "$work"
work=$(cd "$work" && pwd -P)

export HOME="$work/home" XDG_CONFIG_HOME="$work/xdg" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
# WORKDIR may be in a work tree itself (a build directory in a checkout).
export GIT_CEILING_DIRECTORIES="$work"
unset GIT_CONFIG_GLOBAL GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_DISCOVERY_ACROSS_FILESYSTEM
failed=0
passed=0

fail() {
	echo "FAIL: $*" >&2
	failed=$((failed + 1))
}

# touch_all FILE...: create each file, and its directories.
touch_all() {
	for f in "$@"; do
		mkdir -p "$(dirname "$f")"
		: >"$f"
	done
}

# The files under the current directory, relative, outside .git/ (sorted).
all_files() {
	find . -name .git -prune -o \( -type f -o -type l \) -print | sed 's|^\./||' | LC_ALL=C sort
}

# same NAME EXPECTED ACTUAL: report a difference.
same() {
	if LC_ALL=C cmp -s "$2" "$3"; then
		passed=$((passed + 1))
	else
		fail "$1: luafind (+) differs from git (-):"
		LC_ALL=C diff "$2" "$3" | sed -n '/^[<>]/s/^/    /p' | sed 's/^    </    -/; s/^    >/    +/' >&2
	fi
}

# compare NAME DIR: luafind against git ls-files and git check-ignore in DIR.
compare() {
	name=$1
	dir=$2
	(cd "$dir" && git ls-files -z --others --cached --exclude-standard) | tr '\0' '\n' | LC_ALL=C sort -u \
		>"$work/expected"
	(cd "$dir" && "$luafind" . -gitignore \( -type f -o -type l \) -printf '%P\n') | LC_ALL=C sort >"$work/actual"
	same "$name" "$work/expected" "$work/actual"
	(cd "$dir" && "$luafind" . -depth -gitignore \( -type f -o -type l \) -printf '%P\n') | LC_ALL=C sort \
		>"$work/actual"
	same "$name (-depth)" "$work/expected" "$work/actual"
	(cd "$dir" && "$luafind" --script "$work/breadth.lua") | LC_ALL=C sort >"$work/actual"
	same "$name (breadth-first)" "$work/expected" "$work/actual"
	# git check-ignore: untracked files in ignored directories included.
	(cd "$dir" && all_files | git check-ignore --stdin || true) | LC_ALL=C sort >"$work/ignored"
	(cd "$dir" && all_files) | LC_ALL=C comm -23 - "$work/ignored" >"$work/expected"
	(cd "$dir" && "$luafind" . -gitignore \( -type f -o -type l \) -printf '%P\n') | LC_ALL=C sort >"$work/actual"
	same "$name (check-ignore)" "$work/expected" "$work/actual"
}

cat >"$work/breadth.lua" <<'EOF'
local lf = require "luafind"
for e in lf.walk{".", order = "breadth", gitignore = true, errors = "raise"} do
  if e.type == "f" or e.type == "l" then print((e.path:gsub("^%./", ""))) end
end
EOF

# ---- 1: patterns ------------------------------------------------------------
r=$work/one
mkdir -p "$r"
git -C "$r" init -q
cat >"$r/.gitignore" <<'EOF'
# a comment, then patterns of every kind
*.log
!keep.log
build/
/root-only.txt
doc/*.html
**/tmp/**
a/**/z.txt
deep/**
**/from-anywhere
mid/dle/exact.txt
\#hash.txt
\!bang.txt
trailing.txt   
sp\ 
logs/
!logs/important.txt
foo/*
!foo/bar.txt
cache
*.o
!/lib/*.o
[abc]x.dat
q?.dat
*.[!c]pp
[[:digit:]]*.num
linkdir/
EOF
cat >"$r/sub.gitignore" <<'EOF'
!y.log
*.tmp
/only-here.txt
EOF
(
	cd "$r"
	touch_all x.log keep.log sub/y.log sub/z.log sub/keep.log build/out.bin sub/build/out.bin other/build \
		root-only.txt sub/root-only.txt doc/a.html doc/sub/b.html tmp/x.txt q/tmp/y.txt tmp.txt \
		a/z.txt a/b/z.txt a/b/c/z.txt a/y.txt deep/1/2.txt deep.txt z/y/from-anywhere from-anywhere \
		mid/dle/exact.txt x/mid/dle/exact.txt '#hash.txt' '!bang.txt' 'hash#.txt' trailing.txt \
		'trailing.txt ' 'sp ' sp logs/important.txt logs/other.txt foo/bar.txt foo/baz.txt cache/c1 \
		sub/cache lib/a.o x/a.o ax.dat dx.dat q1.dat q12.dat m.bpp m.cpp 1.num x1.num \
		sub/a.tmp sub/d/b.tmp sub/only-here.txt sub/d/only-here.txt sub/d/e/x.txt sub/d/e/keep/k.txt \
		sub/d/e/keep/k.log target/t.txt
	mv sub.gitignore sub/.gitignore
	printf '!*.tmp\n' >sub/d/.gitignore
	printf '/*\r\n!/keep\r\n' >sub/d/e/.gitignore # CRLF
	ln -s target linkdir
	ln -s target sub/linkdir2
)
compare "patterns" "$r"
# lf.find takes -gitignore in its expression.
cat >"$work/find.lua" <<'EOF'
local lf = require "luafind"
for e in lf.find(".", "-gitignore", "(", "-type", "f", "-o", "-type", "l", ")") do
  print((e.path:gsub("^%./", "")))
end
EOF
(cd "$r" && git ls-files -z --others --cached --exclude-standard) | tr '\0' '\n' | LC_ALL=C sort -u >"$work/expected"
(cd "$r" && "$luafind" --script "$work/find.lua") | LC_ALL=C sort >"$work/actual"
same "patterns (lf.find)" "$work/expected" "$work/actual"

# ---- 2: info/exclude, core.excludesFile, tracked files, index versions ------
r=$work/two
mkdir -p "$r"
git -C "$r" init -q
printf '[core]\n\texcludesFile = "~/global ignore"  ; a comment\n' >"$work/global.config"
export GIT_CONFIG_GLOBAL="$work/global.config"
printf '*.swp\n' >"$HOME/global ignore"
printf 'secret/\n*.bak\n' >"$r/.git/info/exclude"
printf '*.o\nvendor/\n!keep.swp\ngen?x/\n' >"$r/.gitignore"
(
	cd "$r"
	touch_all a.swp d/b.swp keep.swp secret/s.txt x.bak a.o tracked.o vendor/lib/lib.c vendor/untracked.c \
		vendor/lib/other.c gen-x/deep/g.c newdir/n.txt newdir/deeper/m.txt plain.c d/e/f.c intent.txt
	mkdir -p emptydir
	git add .gitignore plain.c d/e/f.c
	git add -f tracked.o vendor/lib/lib.c
	git commit -q -m one
	git add -N intent.txt # an extended flag: index version 3
	printf '!untracked.c\n!other.c\n' >vendor/.gitignore # inside an ignored directory: no effect
)
compare "excludes" "$r"
git -C "$r" update-index --index-version 2
compare "excludes, index v2" "$r"
git -C "$r" update-index --index-version 4
compare "excludes, index v4" "$r"
compare "a root below the top" "$r/d"
compare "a root in an ignored directory" "$r/vendor"
compare "a root below an ignored directory" "$r/gen-x/deep"
# The same, with the root as given on the command line.
(cd "$r/vendor" && "$luafind" . -gitignore -type f) >"$work/actual"
printf './lib/lib.c\n' >"$work/expected"
same "a root in an ignored directory (paths)" "$work/expected" "$work/actual"
unset GIT_CONFIG_GLOBAL

# ---- 3: the default excludes file, the repository's own, nested repositories
r=$work/three
mkdir -p "$r"
git -C "$r" init -q
printf '*.xdg\n' >"$XDG_CONFIG_HOME/git/ignore"
printf '*.local\n' >"$r/.git/local-ignore"
printf 'ignored-dir\n' >"$r/.gitignore"
(
	cd "$r"
	touch_all a.xdg b.local c.txt ignored-dir/x.txt nested/n.txt nested/n.xdg nested/skip.me nested/sub/s.txt \
		untracked/u.txt
	git init -q nested
	printf 'skip.me\n' >nested/.gitignore
	printf 'sub/\n' >nested/.git/info/exclude
)
# Outside the nested repository: git lists it as "nested/", -type f as nothing.
(cd "$r" && git ls-files -z --others --cached --exclude-standard) | tr '\0' '\n' | grep -v '^nested/$' |
	LC_ALL=C sort >"$work/expected"
(cd "$r" && "$luafind" . -path ./nested -prune -o -gitignore -type f -printf '%P\n') | LC_ALL=C sort >"$work/actual"
same "default excludes file" "$work/expected" "$work/actual"
compare "a nested repository" "$r/nested"
(cd "$r" && "$luafind" nested -gitignore -type f) | LC_ALL=C sort >"$work/actual"
(cd "$r/nested" && git ls-files --others --cached --exclude-standard) | sed 's|^|nested/|' | LC_ALL=C sort \
	>"$work/expected"
same "a nested repository seen from the outer one" "$work/expected" "$work/actual"
git -C "$r" config core.excludesFile .git/local-ignore
(cd "$r" && git ls-files -z --others --cached --exclude-standard) | tr '\0' '\n' | grep -v '^nested/$' |
	LC_ALL=C sort >"$work/expected"
(cd "$r" && "$luafind" . -path ./nested -prune -o -gitignore -type f -printf '%P\n') | LC_ALL=C sort >"$work/actual"
same "the repository's core.excludesFile" "$work/expected" "$work/actual"

# ---- outside a repository, and errors ---------------------------------------
mkdir -p "$work/plain/.git-not" "$work/plain/d"
printf '*\n' >"$work/plain/.gitignore"
: >"$work/plain/d/f"
"$luafind" "$work/plain" -gitignore -type f | LC_ALL=C sort >"$work/actual"
printf '%s\n' "$work/plain/.gitignore" "$work/plain/d/f" >"$work/expected"
same "outside a repository, .gitignore files are not read (as fd and rg)" "$work/expected" "$work/actual"

if [ "$(id -u)" -ne 0 ] || { command -v capsh >/dev/null && capsh --drop=cap_dac_override -- -c true 2>/dev/null; }; then
	r=$work/one
	chmod 000 "$r/sub/.gitignore"
	rc=0
	run_as --nodac "$luafind" "$r" -gitignore -type f >"$work/actual" 2>"$work/err" || rc=$?
	chmod 644 "$r/sub/.gitignore"
	if [ $rc -ne 1 ] || ! grep -q "sub/.gitignore.*Permission denied" "$work/err" ||
		! grep -q '/sub/a.tmp$' "$work/actual"; then
		fail "an unreadable .gitignore: exit 1 ($rc), a message naming it, the walk going on"
		cat "$work/err" >&2
	else
		passed=$((passed + 1))
	fi
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
