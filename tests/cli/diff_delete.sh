#!/bin/sh
# diff_delete.sh: differential tests of luafind's deletions against GNU find.
#
#	diff_delete.sh LUAFIND TREES CASES [--nodac|--dac] [REFERENCE]
#
# Each case line is "TREE ARGS...": TREE is copied afresh (cp -a) for each
# program, both run ARGS inside their copy's parent with LC_ALL=C
# (LUAFIND_TEST_LOCALE if set: lib.sh), and their outputs, messages, exit
# statuses and what is left of the tree must match.
# The reference is GNU find unless named (bfs, where luafind follows bfs):
# with another reference only exit statuses and what is left are compared,
# as its messages and the paths it reaches through links are its own.
set -u
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: diff_delete.sh LUAFIND TREES CASES [--nodac]}
trees=${2:?}
cases=${3:?}
nodac=${4:---dac}
ref=${5:-/usr/bin/find}
parts="out err rc left"
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
if [ "$ref" = /usr/bin/find ]; then
	need_gnu_find "the reference of $(basename "$cases")"
else
	need_cmd "$ref" "the reference of $(basename "$cases")"
	parts="rc left"
fi
[ "$nodac" = --dac ] || need_nodac "--nodac, to drop root's DAC capabilities"
need_test_locale "$(basename "$cases")"
work=$(mktemp -d)
clean_on_success "$work"

one() { # one NAME PROGRAM TREE ARGS...
	name=$1 prog=$2 tree=$3
	shift 3
	dir=$work/$name
	chmod -R u+rwx "$dir" 2>/dev/null
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -a "$trees/$tree" "$dir/"
	(cd "$dir" && LC_ALL=$test_locale run_as "$nodac" "$prog" "$@") >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
	normalize_err "$work/$name.err"
	chmod -R u+rwx "$dir" 2>/dev/null
	(cd "$dir" && /usr/bin/find . | sort) >"$work/$name.left"
	sort -o "$work/$name.out" "$work/$name.out"
	sort -o "$work/$name.err" "$work/$name.err"
}

failures=0
total=0
while IFS= read -r line || [ -n "$line" ]; do
	case $line in '' | '#'*) continue ;; esac
	total=$((total + 1))
	eval "set -- $line"
	tree=$1
	shift
	one l "$luafind" "$tree" "$@"
	one f "$ref" "$tree" "$@"
	ok=yes
	for part in $parts; do
		if ! cmp -s "$work/l.$part" "$work/f.$part"; then
			ok=no
			printf 'FAIL (%s): %s\n' "$part" "$line"
			diff "$work/l.$part" "$work/f.$part" | head -10 | cut -c1-200 | sed 's/^/    /'
		fi
	done
	if [ $ok = yes ]; then
		printf 'ok: %s\n' "$line"
	else
		failures=$((failures + 1))
	fi
done <"$cases"

echo "$((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
