#!/bin/sh
# readme.sh: README.md's examples run as shown.
#
#	sh readme.sh LUAFIND SRCDIR BUILDDIR WORKDIR
#
# The examples are taken from README.md itself, block by block, so that an
# edited example is what gets run:
#   - ```sh blocks: shell commands.  The first (tools/setup.sh, then the
#     whole test suite) is what .ci/run executes, so it is skipped here; in
#     the others, each `cmake --install build/release ...` line runs with
#     the build under test for build/release, PREFIX=/usr and DESTDIR
#     under WORKDIR, then the luafind it installed runs --run du;
#   - plain ``` blocks whose lines start with "$ ": the command runs (in
#     sh, from a scratch directory) and its standard output and error must
#     be the lines shown, where "..." and "<...>" stand for any text;
#     plain blocks without "$ " (usage synopses, the layout, the asan
#     build) are not commands and are not run;
#   - ```lua blocks: run by `luafind --script` in a generated tree holding
#     what they name (a.txt, Makefile, build/, C files);
#   - indented blocks (4 spaces) of `luafind ...` lines: each runs and must
#     exit 0, in a generated project (objects, caches, a big old file), with
#     HOME a scratch directory.
# Then the scripts' options as README states them are checked against each
# script's --help (see below), and README must give the install command.
# luafind is the build under test, first on PATH.
set -u
luafind=${1:?usage: readme.sh LUAFIND SRCDIR BUILDDIR WORKDIR}
src=${2:?} build=${3:?} work=${4:?}
. "$src/tests/cli/lib.sh"
rm_work "$work"
mkdir -p "$work/bin" "$work/home" "$work/cwd" && cd "$work" || exit 1
clean_on_success "$work"
ln -s "$luafind" "$work/bin/luafind"
export PATH="$work/bin:$PATH" HOME="$work/home" LC_ALL=C LUAFIND_PROGRESS=never
unset XDG_DATA_HOME

fails=0 ran=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# Split README.md into blocks: block.N (the lines) and kind.N (sh, lua,
# plain, indented); a list item's continuation lines are not code.
awk -v dir="$work" '
	function open_block(kind) { n++; file = dir "/block." n; printf "%s\n", kind > (dir "/kind." n); close(dir "/kind." n) }
	/^```/ {
		if (!infence) { infence = 1; k = substr($0, 4); open_block(k == "" ? "plain" : k) }
		else { infence = 0; close(file) }
		indented = 0; next
	}
	infence { print > file; next }
	/^    [^ ]/ && (prev == "" || indented) {
		if (!indented) { indented = 1; open_block("indented") }
		print substr($0, 5) > file; prev = $0; next
	}
	{ if (indented) { close(file); indented = 0 } prev = $0 }
' "$src/README.md"

# The project the indented examples run in (~/src): a C build tree with
# objects, a Python cache, and a big file untouched for 40 days.
mkdir -p home/src/proj/build home/src/proj/__pycache__ home/src/data
printf 'all:\n' >home/src/proj/Makefile
printf 'int main(void) { return 0; }\n' >home/src/proj/main.c
printf 'obj' >home/src/proj/main.o
printf 'obj' >home/src/proj/build/lib.a
printf 'pyc' >home/src/proj/__pycache__/m.cpython-311.pyc
truncate -s 20M home/src/data/big.bin
touch -d '40 days ago' home/src/data/big.bin
# A small tree for the installed luafind's --run du.
mkdir -p root/usr/lib root/etc
head -c 5000 /dev/zero >root/usr/lib/libx.so
printf x >root/etc/hosts

# match EXPECTED ACTUAL: same number of lines, each actual line matching
# its expected one, "..." and "<...>" being wildcards.
match() {
	awk 'function pat(s) {
		gsub(/[][\\^$.|?*+(){}]/, "\\\\&", s)
		gsub(/\\\.\\\.\\\./, ".*", s)
		gsub(/<[^>]*>/, ".*", s)
		return "^" s "$"
	}
	NR == FNR { want[++n] = $0; next }
	{ got[++m] = $0 }
	END {
		if (n != m) exit 1
		for (i = 1; i <= n; i++) if (got[i] !~ pat(want[i])) exit 1
	}' "$1" "$2"
}

first_sh=1
i=1
while [ -f "block.$i" ]; do
	kind=$(cat "kind.$i")
	case $kind in
	sh)
		if [ "$first_sh" -eq 1 ]; then
			first_sh=0 # .ci/run's: setup and the whole suite
		else
			grep -v '^$' "block.$i" | while IFS= read -r line; do
				case $line in
				"DESTDIR="*) dest=$work/stage.$i.$(printf %s "$line" | cksum | cut -d' ' -f1) ;;
				*) dest=$work/dest.$i.$(printf %s "$line" | cksum | cut -d' ' -f1) ;;
				esac
				case $line in
				"cmake --install build/release"* | "DESTDIR="*"cmake --install build/release"*)
					cmd=$(printf '%s\n' "$line" | sed "s|^DESTDIR=[^ ]* ||; s|build/release|$build|")
					(export DESTDIR="$dest" PREFIX=/usr && eval "$cmd") >"install.$i.log" 2>&1 ||
						{ echo "FAIL: README: $line: $(cat "install.$i.log")" >&2; exit 1; }
					exe=$(find "$dest" -path '*/bin/luafind' -type f | head -n 1)
					[ -n "$exe" ] || { echo "FAIL: README: $line: no bin/luafind under $dest" >&2; exit 1; }
					"$exe" --run du --top 1 root >/dev/null 2>"install.$i.err" ||
						{ echo "FAIL: README: $line: the installed luafind: $(cat "install.$i.err")" >&2; exit 1; }
					rm -rf "$dest"
					;;
				*) echo "FAIL: README: a sh command this test does not know how to run: $line" >&2; exit 1 ;;
				esac
			done || fails=$((fails + 1))
			ran=$((ran + 1))
		fi
		;;
	plain)
		if grep -q '^\$ ' "block.$i"; then
			# One command, then its output, per "$ " line.
			awk -v dir="$work" -v b="$i" '
				/^\$ / { c++; print substr($0, 3) > (dir "/cmd." b "." c); close(dir "/cmd." b "." c)
				         printf "" > (dir "/want." b "." c); next }
				c { print >> (dir "/want." b "." c) }' "block.$i"
			c=1
			while [ -f "cmd.$i.$c" ]; do
				(cd cwd && sh "$work/cmd.$i.$c") >"got.$i.$c" 2>&1
				match "want.$i.$c" "got.$i.$c" || fail "README: \$ $(cat "cmd.$i.$c") printed:
$(cat "got.$i.$c")
where README shows:
$(cat "want.$i.$c")"
				c=$((c + 1))
				ran=$((ran + 1))
			done
		fi
		;;
	lua)
		t=$work/lua.$i
		mkdir -p "$t/build/sub" "$t/src" "$t/.git"
		printf 'data' >"$t/a.txt"
		printf 'all:\n' >"$t/Makefile"
		touch -d '1 hour ago' "$t/Makefile"
		printf 'int x;\n' >"$t/src/x.c"
		printf 'o' >"$t/build/sub/x.o"
		truncate -s 11M "$t/big.iso"
		(cd "$t" && luafind --script "$work/block.$i") >"lua.$i.out" 2>&1 ||
			fail "README: the Lua example (block $i) failed: $(cat "lua.$i.out")"
		[ "$(stat -c %i "$t/a.txt")" = "$(stat -c %i "$t/b.txt" 2>/dev/null)" ] ||
			fail "README: the Lua example did not link b.txt to a.txt"
		grep -q '^\./big\.iso$' "lua.$i.out" || fail "README: the Lua example did not print ./big.iso: $(cat "lua.$i.out")"
		grep -q '^\./src/x\.c' "lua.$i.out" || fail "README: the Lua example did not find ./src/x.c: $(cat "lua.$i.out")"
		ran=$((ran + 1))
		;;
	indented)
		while IFS= read -r line; do
			case $line in luafind*) ;; *) continue ;; esac
			(cd "$HOME/src" && eval "$line") >"ind.out" 2>"ind.err" ||
				fail "README: $line: exit status $?: $(cat ind.err)"
			case $line in
			*"-lua "*) grep -q "data/big.bin" ind.out || fail "README: $line: printed $(cat ind.out)" ;;
			*"--list-scripts"*) grep -q '^du ' ind.out || fail "README: $line: printed $(cat ind.out)" ;;
			*"--run build-artifacts --apply"*) [ ! -e "$HOME/src/proj/main.o" ] || fail "README: $line: main.o is still there" ;;
			*"--run build-artifacts"*) grep -q "proj/main.o" ind.out || fail "README: $line: printed $(cat ind.out)" ;;
			*"--run du"*) grep -q "	\.\$" ind.out || fail "README: $line: printed $(cat ind.out)" ;;
			esac
			ran=$((ran + 1))
		done <"block.$i"
		;;
	esac
	i=$((i + 1))
done

# The scripts' options as README states them, in the paragraph "Every
# script takes ...", sentence by sentence (README puts two spaces after a
# period): "Every script takes OPTS" (each in every script's --help),
# "SCRIPTS take `--apply`", "the reports SCRIPTS reject it", "Every script
# but SCRIPT takes `OPT`".  Script names and options (those starting with
# "-") are the backquoted words.
scripts=$(luafind --list-scripts | cut -d' ' -f1)
for s in $scripts; do luafind --run "$s" --help >"help.$s" 2>&1; done
has() { grep -q -e "^  $2[ =]" -e "^  $2\$" "help.$1"; }
quoted() { grep -o '`[^`]*`' | tr -d '`' | cut -d' ' -f1; }
awk '/^Every script takes/ { p = 1 } p && /^$/ { exit } p' "$src/README.md" | tr '\n' ' ' |
	sed 's/\.  /.\n/g' >sentences
[ -s sentences ] || fail "README: no paragraph \"Every script takes\""
claims=0
while IFS= read -r sentence; do
	case $sentence in
	"Every script takes"*)
		for o in $(printf '%s\n' "$sentence" | quoted | grep '^-'); do
			for s in $scripts; do has "$s" "$o" || fail "README says every script takes $o; $s does not"; done
			claims=$((claims + 1))
		done ;;
	"Every script but"*)
		but=$(printf '%s\n' "${sentence%%takes*}" | quoted | tr '\n' ' ')
		o=$(printf '%s\n' "${sentence#*takes}" | quoted | grep '^-' | head -n 1)
		for s in $scripts; do
			case " $but " in
			*" $s "*) has "$s" "$o" && fail "README says $s does not take $o; it does" ;;
			*) has "$s" "$o" || fail "README says $s takes $o; it does not" ;;
			esac
		done
		claims=$((claims + 1)) ;;
	esac
	case $sentence in
	*'take `--apply`'*)
		for s in $(printf '%s\n' "${sentence%%take \`--apply\`*}" | quoted); do
			[ -f "help.$s" ] || continue
			has "$s" --apply || fail "README says $s takes --apply; it does not"
			claims=$((claims + 1))
		done ;;
	esac
	case $sentence in
	*"reject it"*)
		r=${sentence#*take \`--apply\`}
		for s in $(printf '%s\n' "${r%%reject it*}" | quoted); do
			[ -f "help.$s" ] || continue
			has "$s" --apply && fail "README says $s rejects --apply; it takes it"
			claims=$((claims + 1))
		done ;;
	esac
done <sentences
[ "$claims" -ge 12 ] || fail "README: only $claims claims about the scripts' options found: $(cat sentences)"
grep -q 'cmake --install build/release' "$src/README.md" || fail "README gives no install command (cmake --install)"

[ "$ran" -ge 9 ] || fail "only $ran examples found in README.md"
if [ "$fails" -gt 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "ok: $ran examples of README.md run as shown, $claims claims about the scripts' options hold"
