# The runner and the framework's options: --list-scripts (the nine, with
# descriptions; user scripts marked and first); --help of each; --run of a
# file; unknown scripts and options; missing PATHs; / refused with
# --apply; a script's error and its exit status; -- before PATHs; find's
# options and --stats before --run and --script.
. "$(dirname "$0")/lib.sh"

bundled="big-files broken-links build-artifacts du duplicates editor-junk empty-dirs old-files recent-big"

"$luafind" --list-scripts >list 2>err
expect_status 0 "--list-scripts" $?
for s in $bundled; do
	grep -q "^$s  *[a-z].*" list || fail "--list-scripts: $s missing or without a description"
	run "$s" --help >help 2>err
	expect_status 0 "$s --help" $?
	head -n 1 help | grep -q "^usage: luafind --run $s \[OPTIONS\] \[PATH\.\.\.\]$" || fail "$s --help: $(head -n 1 help)"
	grep -q -e '--exclude GLOB' help || fail "$s --help: no --exclude"
	desc=$(grep "^$s " list | sed 's/^[^ ]*  *//')
	sed -n 2p help | grep -q -F -x "$desc" || fail "$s --help: no description"
	run "$s" -h >help2 2>&1
	cmp -s help help2 || fail "$s -h"
done
bundled_count=$(wc -l <list)
[ "$bundled_count" -ge 8 ] || fail "--list-scripts: $(cat list)"

# User scripts: listed first-come (the user's directory first), marked.
U=$XDG_DATA_HOME/luafind/scripts
mkdir -p "$U"
cat >"$U/mine.lua" <<'EOF2'
-- mine: my own cleanup
local script = require "luafind.script"
local s = script.new{apply = "remove them", options = {{"name", arg = "NAME", help = "the name"}}}
return s:clean{select = function(e) return e.name == s.options.name end}
EOF2
cat >"$U/du.lua" <<'EOF2'
#!/usr/bin/env luafind
-- du: my du
print("my du", ...)
return 3
EOF2
"$luafind" --list-scripts >list
grep -q "^mine  *my own cleanup (user)$" list || fail "user script: $(cat list)"
grep -q "^du  *my du (user, replaces the bundled one)$" list || fail "user du: $(cat list)"
[ "$(wc -l <list)" -eq $((bundled_count + 1)) ] || fail "--list-scripts with user scripts: $(cat list)"
out=$(run du a 'b c')
expect_status 3 "user du's status" $?
[ "$out" = "my du	a	b c" ] || fail "user du's arguments: $out"
mkdir -p t/x
touch t/x/victim t/keep
run mine --name victim --apply t >out 2>/dev/null
expect_status 0 "mine" $?
[ ! -e t/x/victim ] && [ -e t/keep ] && [ "$(cat out)" = "t/x/victim" ] || fail "mine --apply: $(cat out)"
rm -r "$U"

# --run FILE: a path (with a "/" or ending in .lua) runs that file.
cp "$here/../../share/luafind/scripts/editor-junk.lua" ./my-junk.lua
touch t/a~
[ "$(run ./my-junk.lua t 2>/dev/null)" = "t/a~" ] || fail "--run ./my-junk.lua"
[ "$(run my-junk.lua t 2>/dev/null)" = "t/a~" ] || fail "--run my-junk.lua"
run ./my-junk.lua --help | head -n 1 | grep -q "^usage: luafind --run my-junk " || fail "--help of a file"

# Errors.
check() { # check STATUS MESSAGE-REGEX ARGS...
	want=$1 re=$2
	shift 2
	"$luafind" "$@" >out 2>err
	expect_status "$want" "luafind $*" $?
	grep -q -e "$re" err || fail "luafind $*: message: $(cat err)"
}
check 2 "^luafind: --run: no script named 'nope' " --run nope
check 2 "^luafind: --run: cannot read 'nope.lua'" --run nope.lua
check 2 "^luafind: editor-junk: unknown option '--bogus' (see luafind --run editor-junk --help)$" --run editor-junk --bogus
! grep -q "did you mean" err || fail "--bogus: a suggestion: $(cat err)"
check 2 "^luafind: editor-junk: unknown option '-x' " --run editor-junk t -x
check 2 "^luafind: editor-junk: option '--apply' takes no value$" --run editor-junk --apply=yes
check 2 "^luafind: editor-junk: option '--exclude' needs GLOB$" --run editor-junk --exclude
check 2 "^luafind: editor-junk: nope: No such file or directory$" --run editor-junk t nope
check 2 "^luafind: editor-junk: refusing to work on '/': it is the root directory /$" --run editor-junk --apply /
check 2 "^luafind: empty-dirs: refusing to work on '/tmp/..': it is the root directory /$" --run empty-dirs /tmp/.. --apply
check 2 "^luafind: duplicates: refusing to work on '//'" --run duplicates --apply //
check 2 "^luafind: big-files: unknown option '--apply'" --run big-files --apply t
# A misspelt option of the script's own, or a common one: the nearest.
check 2 "^luafind: du: unknown option '--tpo' (see luafind --run du --help)$" --run du --tpo 3 t
grep -q "^luafind: did you mean '--top'?$" err || fail "du --tpo: no suggestion: $(cat err)"
check 2 "^luafind: did you mean '--top'?$" --run du --tpo=3 t
check 2 "^luafind: did you mean '--exclude'?$" --run editor-junk --exlcude '*~' t
check 2 "^luafind: did you mean '--older-than'?$" --run old-files --older-tahn 3d t
# Options around --run (issue 12): a usage error exits 2, nothing is
# silently ignored; --stats before --run prints the script's walk counters.
check 2 "^luafind: --run needs a script name" --run
check 2 "^luafind: did you mean 'build-artifacts'?$" --run build-artfacts t
check 2 "^luafind: --list-scripts takes no arguments (got 'extra')" --list-scripts extra
for opt in -L -H -O3 "-D stat"; do
	# shellcheck disable=SC2086
	check 2 "^luafind: ${opt% *} applies to find expressions, not to --run" $opt --run du t
	[ -s out ] && fail "luafind $opt --run du printed: $(cat out)"
	# shellcheck disable=SC2086
	check 2 "^luafind: ${opt% *} applies to find expressions, not to --script" $opt --script ./my-junk.lua t
done
check 0 "^luafind: stats: entries=[1-9][0-9]* opens=[1-9]" --stats --run du t
grep -q "^du: " err || fail "--stats --run du: no summary: $(cat err)"
[ "$(head -n 1 out | cut -f2)" = "t" ] || fail "--stats --run du: $(cat out)"
check 0 "^luafind: stats: entries=[1-9]" -P --stats --run du t
printf 'local lf = require "luafind"\nfor e in lf.walk(...) do end\n' >walk.lua
check 0 "^luafind: stats: entries=[1-9]" --stats --script walk.lua t

printf 'error("boom")\n' >boom.lua
check 1 "^luafind: ./boom.lua:1: boom$" --run ./boom.lua
grep -q "traceback" err || fail "no traceback for a script error"
printf 'return (\n' >syntax.lua
check 1 "^luafind: --run: syntax.lua:2: " --run syntax.lua

# -- ends the options: a PATH starting with "-".
mkdir -- -dir
touch -- -dir/x~
[ "$(run editor-junk -- -dir 2>/dev/null)" = "-dir/x~" ] || fail "-- -dir"
# Options after PATHs; PATH defaults to ".".
[ "$(cd t && run editor-junk 2>/dev/null)" = "./a~" ] || fail "default PATH"
[ "$(run editor-junk t --exclude 'a*' 2>/dev/null)" = "" ] || fail "option after PATH"

finish
