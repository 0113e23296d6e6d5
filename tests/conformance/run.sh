#!/bin/sh
# run.sh: GNU findutils' own DejaGnu testsuite (find/testsuite: find.posix,
# find.gnu) run against GNU find and against luafind, and compared.
#
#	run.sh [--user NAME] [--keep] FINDUTILS_SRC LUAFIND [GNU_FIND]
#
# FINDUTILS_SRC is an unpacked findutils source tree (4.9.0: see README.md);
# GNU_FIND defaults to /usr/bin/find.  Needs runtest (dejagnu) and expect.
# With --user the suite runs as that user (root must start the script):
# access.exp and fprint-unwritable.exp are skipped under root, as find
# itself skips them.  --keep keeps the work directory (runtest's find.sum
# and find.log for each program) and prints where it is.
#
# A test is one .exp file, run by the suite at -O0 to -O3; it passes when
# none of its results is FAIL, XPASS, UNRESOLVED or ERROR.  The last lines
# say whether luafind passes every POSIX-level test GNU find passes and at
# least as many GNU-level tests; the exit status is 0 if so.
set -eu

user=
keep=no
while [ $# -gt 0 ]; do
	case $1 in
	--user) user=${2:?--user needs a name}; shift 2 ;;
	--keep) keep=yes; shift ;;
	*) break ;;
	esac
done
src=${1:?usage: run.sh [--user NAME] [--keep] FINDUTILS_SRC LUAFIND [GNU_FIND]}
luafind=${2:?usage: run.sh [--user NAME] [--keep] FINDUTILS_SRC LUAFIND [GNU_FIND]}
gnufind=${3:-/usr/bin/find}

suite=$src/find/testsuite
[ -f "$suite/config/unix.exp" ] || { echo "run.sh: no $suite/config/unix.exp" >&2; exit 2; }
command -v runtest >/dev/null || { echo "run.sh: runtest not found (apt-get install dejagnu)" >&2; exit 2; }
# unix.exp runs the program by the name it is given, from the test's directory.
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
luafind=$(abs "$luafind")
gnufind=$(abs "$gnufind")

work=$(mktemp -d)
if [ $keep = no ]; then
	trap 'rm -rf "$work"' EXIT
fi
# DejaGnu takes the directory named "testsuite" as the suite's root; a copy
# also keeps the source tree clean and lets --user own everything.
cp -R "$suite" "$work/testsuite"
mkdir "$work/gnu" "$work/luafind"
if [ -n "$user" ]; then
	chown -R "$user" "$work"
fi

run() { # run DIR PROGRAM
	if [ -n "$user" ]; then
		(cd "$1" && LC_ALL=C runuser -u "$user" -- \
			runtest --tool find --srcdir "$work/testsuite" FTSFIND="$2") >"$1/runtest.out" 2>&1 || true
	else
		(cd "$1" && LC_ALL=C runtest --tool find --srcdir "$work/testsuite" FTSFIND="$2") \
			>"$1/runtest.out" 2>&1 || true
	fi
	[ -f "$1/find.sum" ] || { echo "run.sh: runtest left no find.sum; see $1/runtest.out" >&2; exit 2; }
}

# status FIND_SUM: "LEVEL TEST STATUS" per .exp file, sorted; then per
# result kind "LEVEL - KIND COUNT" for the testcases.
status() {
	awk '
	/^Running .*\/find\.(posix|gnu)\/[^\/]*\.exp \.\.\.$/ {
		n = split($2, parts, "/")
		level = parts[n - 1] == "find.posix" ? "posix" : "gnu"
		test = parts[n]
		sub(/\.exp$/, "", test)
		key = level " " test
		seen[key] = 1
		next
	}
	key == "" { next }
	/^(PASS|XFAIL|KFAIL):/ { good[key]++; count[level " " substr($1, 1, length($1) - 1)]++; next }
	/^(FAIL|XPASS|KPASS|UNRESOLVED|ERROR):/ { bad[key]++; count[level " " substr($1, 1, length($1) - 1)]++; next }
	/^(UNTESTED|UNSUPPORTED):/ { skipped[key]++; count[level " " substr($1, 1, length($1) - 1)]++; next }
	END {
		for (k in seen) {
			if (bad[k]) s = "FAIL"
			else if (good[k]) s = "PASS"
			else if (skipped[k]) s = "UNTESTED"
			else s = "FAIL" # no result at all
			print k, s
		}
		for (c in count) {
			split(c, f, " ")
			print f[1], "-", f[2], count[c]
		}
	}' "$1" | sort
}

run "$work/gnu" "$gnufind"
run "$work/luafind" "$luafind"
status "$work/gnu/find.sum" >"$work/gnu.status"
status "$work/luafind/find.sum" >"$work/luafind.status"

tally() { # tally STATUS_FILE LEVEL STATUS
	awk -v l="$2" -v s="$3" '$1 == l && $2 != "-" && $3 == s { n++ } END { print n + 0 }' "$1"
}
cases() { # cases STATUS_FILE LEVEL: the testcase counts, "PASS 160, FAIL 2"
	awk -v l="$2" '$1 == l && $2 == "-" { printf "%s%s %s", sep, $3, $4; sep = ", " } END { print "" }' "$1"
}

verdict=0
for level in posix gnu; do
	dir=find.$level
	total=$(awk -v l=$level '$1 == l && $2 != "-"' "$work/gnu.status" | wc -l)
	printf '%s-level tests (%s, %d .exp files):\n' "$([ $level = posix ] && echo POSIX || echo GNU)" \
		$dir "$total"
	for who in gnu luafind; do
		p=$(tally "$work/$who.status" $level PASS)
		f=$(tally "$work/$who.status" $level FAIL)
		u=$(tally "$work/$who.status" $level UNTESTED)
		printf '  %-9s %3d passed, %3d failed, %d untested   (testcases: %s)\n' \
			"$([ $who = gnu ] && echo 'GNU find' || echo luafind)" "$p" "$f" "$u" \
			"$(cases "$work/$who.status" $level)"
	done
	# Tests whose status differs, side by side.
	awk -v l=$level '$1 == l && $2 != "-" { print $2, $3 }' "$work/gnu.status" >"$work/g"
	awk -v l=$level '$1 == l && $2 != "-" { print $2, $3 }' "$work/luafind.status" >"$work/l"
	join -a 1 -a 2 -e MISSING -o 0,1.2,2.2 "$work/g" "$work/l" |
		awk '$2 != $3 { printf "    %-32s GNU find %-8s luafind %s\n", $1, $2, $3 }'
	regressions=$(join -a 1 -e MISSING -o 0,1.2,2.2 "$work/g" "$work/l" |
		awk '$2 == "PASS" && $3 != "PASS" { print $1 }')
	gp=$(tally "$work/gnu.status" $level PASS)
	lp=$(tally "$work/luafind.status" $level PASS)
	if [ $level = posix ]; then
		if [ -n "$regressions" ]; then
			echo "  NOT MET: GNU find passes, luafind fails: $(echo "$regressions" | tr '\n' ' ')"
			verdict=1
		else
			echo "  met: luafind passes every POSIX-level test GNU find passes"
		fi
	elif [ "$lp" -ge "$gp" ]; then
		echo "  met: luafind passes $lp GNU-level tests, GNU find $gp"
	else
		echo "  NOT MET: luafind passes $lp GNU-level tests, GNU find $gp"
		verdict=1
	fi
done
if [ $keep = yes ]; then
	echo "runtest's results: $work/gnu/find.sum $work/luafind/find.sum (and find.log)"
fi
exit $verdict
