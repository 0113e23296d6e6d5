#!/bin/sh
# man.sh: every page in man/ renders without a warning, and whatis indexes
# it under its own name.
#
#	sh man.sh SRCDIR
#
# For each man/NAME.SECTION:
#   - `man --warnings -l PAGE >/dev/null` prints nothing, at 80 columns (a
#     terminal's usual width; MANWIDTH) and at 60 and 120;
#   - `groff -ww -z -man` (every warning, no output) prints nothing;
#   - lexgrog (what mandb and whatis read) names the page NAME, unless its
#     NAME lists C functions (lf_*), as luafind.3 does: then it is indexed
#     under them.
# Skipped (77) without man-db and groff (a failure when CI is set:
# tools/setup.sh installs man-db).
set -u
src=${1:?usage: man.sh SRCDIR}
. "$src/tests/cli/lib.sh"
need_cmd man "rendering the man pages"
need_cmd groff "checking the man pages with groff -ww"
need_cmd lexgrog "checking what whatis indexes"

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

n=0
for page in "$src"/man/*.[1-9]; do
	n=$((n + 1))
	base=$(basename "$page")
	name=${base%.*}
	for width in 80 60 120; do
		out=$(MANWIDTH=$width LC_ALL=C.UTF-8 man --warnings -l "$page" 2>&1 >/dev/null)
		[ -z "$out" ] || fail "$base at $width columns: $out"
	done
	out=$(groff -ww -z -man -Tutf8 "$page" 2>&1)
	[ -z "$out" ] || fail "$base: groff -ww: $out"
	names=$(lexgrog "$page" | sed -n 's/^[^:]*: "\([^"]*\) - .*"$/\1/p')
	[ -n "$names" ] || fail "$base: lexgrog found no NAME line: $(lexgrog "$page" 2>&1)"
	case $names in
	lf_*) ;;
	"$name") ;;
	*) fail "$base: whatis indexes it as '$names', not '$name'" ;;
	esac
done
[ "$n" -ge 4 ] || fail "only $n pages in $src/man"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: $n man pages render without warnings and are indexed under their names"
