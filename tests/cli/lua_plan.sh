#!/bin/sh
# lua_plan.sh: -lua expressions evaluated in C (src/lua/lfplan.c) against
# the same expressions evaluated in Lua, and against the find primaries they
# mean.
#
#	lua_plan.sh LUAFIND TREES WORK
#
# LUAFIND_LUA_PLAN=must makes an expression that has no plan a usage error,
# so every case below is known to run in C; LUAFIND_LUA_PLAN=0 runs the same
# one in Lua.  The two runs must print the same lines in the same order,
# the same messages and the same --stats line (so the same stats), with the
# same exit status.  "||| ARGS" after a case gives the find primaries it
# means: same lines and status, same messages, the same number of stats.
# Then the expressions that must stay in Lua (no plan, so their errors are
# Lua's), and the stat failures (unsearchable directories, with the DAC
# capabilities dropped), where "!" must not turn an error into a match.
set -u
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: lua_plan.sh LUAFIND TREES WORK}
trees=${2:?}
work=${3:?}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
rm_work "$work"
mkdir -p "$work"
clean_on_success "$work"

failures=0
total=0
runner=""

fail() {
	failures=$((failures + 1))
	printf 'FAIL: %s\n' "$*"
}

# run NAME PLAN ARGS...: luafind --stats ARGS in TREES with LUAFIND_LUA_PLAN=PLAN,
# into $work/NAME.{out,err,rc}.
run() {
	name=$1 plan=$2
	shift 2
	(cd "$trees" && LUAFIND_LUA_PLAN=$plan $runner "$luafind" --stats "$@") >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
}

# The number of stats in a --stats line, and the messages without it.
stats_of() {
	sed -n 's/^luafind: stats: .* stats=\([0-9]*\) .*/\1/p' "$1"
}
messages_of() {
	grep -v '^luafind: stats: ' "$1"
}

# check LINE: one case, "ARGS... -lua EXPR [||| FIND-ARGS]" (shell words).
check() {
	line=$1
	total=$((total + 1))
	largs=${line%%|||*}
	eval "set -- $largs"
	run fast must "$@"
	run slow 0 "$@"
	ok=true
	for f in out err rc; do
		cmp -s "$work/fast.$f" "$work/slow.$f" || ok=false
	done
	if ! $ok; then
		fail "C and Lua differ: $largs"
		for f in out err rc; do
			diff "$work/fast.$f" "$work/slow.$f" | head -6 | cut -c1-200 | sed "s/^/    $f: /"
		done
		return
	fi
	case $line in *'|||'*) ;; *)
		printf 'ok: %s\n' "$largs"
		return
		;;
	esac
	fargs=${line#*|||}
	eval "set -- $fargs"
	run find 0 "$@"
	messages_of "$work/fast.err" >"$work/fast.msg"
	messages_of "$work/find.err" >"$work/find.msg"
	if cmp -s "$work/fast.out" "$work/find.out" && cmp -s "$work/fast.rc" "$work/find.rc" &&
	   cmp -s "$work/fast.msg" "$work/find.msg" &&
	   [ "$(stats_of "$work/fast.err")" = "$(stats_of "$work/find.err")" ]; then
		printf 'ok: %s\n' "$line"
	else
		fail "-lua and find differ: $line"
		diff "$work/fast.out" "$work/find.out" | head -6 | cut -c1-200 | sed 's/^/    out: /'
		diff "$work/fast.err" "$work/find.err" | head -6 | cut -c1-200 | sed 's/^/    err: /'
		echo "    status: $(cat "$work/fast.rc") and $(cat "$work/find.rc")"
	fi
}

while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	check "$line"
done <<'EOF'
# Types, sizes, the benchmark's query, in find's order (same stats).
basic -lua 'type == "f" and size > 16384' ||| basic -type f -size +16384c
basic -lua 'type == "f" and size > 16*KiB' ||| basic -type f -size +16384c
basic -lua 'size > 16384 and type == "f"'
basic -lua 'type == "d"' ||| basic -type d
basic -lua 'not (type == "f")' ||| basic ! -type f
basic -lua 'type == "d" or type == "l"' ||| basic \( -type d -o -type l \)
basic -lua 'type ~= "f" and type ~= "d"' ||| basic ! -type f ! -type d
basic -lua 'size == 0' ||| basic -size 0c
basic -lua 'size >= 1e3' ||| basic -size +999c
basic -lua 'size > 2^10' ||| basic -size +1024c
basic -lua '16384 < size' ||| basic -size +16384c
basic -lua 'size < 0x20' ||| basic -size -32c
basic -lua 'size == 20000.0'
basic -lua 'size <= 1.5*KiB'
basic -lua 'size ~= 21 and size ~= 0'
basic -lua 'size > -1 and size < 1 << 20'
basic -lua 'size > (3 + 4) * 5 // 2 % 7 - -1'
# Names and paths: exact strings, escapes, long strings, comments.
basic -lua 'name == "Makefile"' ||| basic -name Makefile
basic -lua 'name == "\x4dakefile"' ||| basic -name Makefile
basic -lua 'name == [[walk.c]] or name == [==[dir.c]==]' ||| basic \( -name walk.c -o -name dir.c \)
basic -lua 'name ~= "README" -- a comment' ||| basic ! -name README
basic -lua '--[[ comment ]] name == ".hidden"' ||| basic -name .hidden
basic -lua 'path == "basic/src/core/walk.c"' ||| basic -path basic/src/core/walk.c
basic -lua 'name == path'
basic -lua "name == 'it\\'s'"
weirdnames -lua 'name == "new\nline"'
weirdnames -lua 'name == "-rf" or name == "star*" or name == "bad\255utf8"'
weirdnames -lua 'name ~= "x"'
weirdnames -lua 'name == "--" or name == "-" or name == "with space" or name == "a\0b"'
basic -lua 'size > 0x1p4 and size < 1e+5 and size ~= 0xA'
weirdnames -lua 'type == "d" and name == "\u{E9}\n"'
# Depth, links, inodes, owners, modes.
basic -lua 'depth >= 2' ||| basic -mindepth 2
basic -lua 'depth <= 1' ||| basic -maxdepth 1
basic -lua 'depth == 1 and type == "d"' ||| basic -mindepth 1 -maxdepth 1 -type d
basic -lua 'nlink == 1' ||| basic -links 1
basic -lua 'nlink > 2' ||| basic -links +2
basic -lua 'uid == 0' ||| basic -uid 0
basic -lua 'gid ~= 0' ||| basic ! -gid 0
basic -lua 'perm == 420' ||| basic -perm 644
basic -lua 'perm == 0x1ed and type == "d"'
basic -lua 'ino > 0 and root == 1 and visit == "pre"'
basic -lua 'mode > 0 and dev ~= -1 and rdev >= 0 and blocks >= 0 and blksize > 0'
# Times, now and the time units.
basic -lua 'mtime > now - 7*days'
basic -lua 'mtime <= now + 1*weeks and atime > 0 and ctime >= mtime'
basic -lua 'mtime_nsec >= 0 and atime_nsec < 1000000000 and ctime_nsec >= 0'
basic -lua 'btime == nil or btime > 0'
basic -lua 'btime_nsec ~= nil'
# == and ~= of values of different types: false and true, as in Lua.
basic -lua 'size == "0" or type == 102 or name == nil'
basic -lua 'size ~= "0" and depth ~= true'
basic -lua 'KiB == nil or size == 1.5 or size ~= nil'
basic -lua 'true ~= false and 1.5 ~= 1 and nil == nil and type ~= false'
# Values that are not booleans: and, or and not return operands.
basic -lua 'type == "d" or size'
basic -lua 'size and name'
basic -lua 'not name'
basic -lua 'nil or false or type == "l"'
basic -lua 'true'
basic -lua 'false' ||| basic -false
basic -lua 'nil'
basic -lua '1.5'
basic -lua 'btime or depth'
basic -lua 'not not (depth == 0)' ||| basic -maxdepth 0
# -lua among find's primaries, -depth, several roots.
basic -name '*.c' -lua 'size > 10' ||| basic -name '*.c' -size +10c
basic -lua 'type == "f"' -o -lua 'name == "doc"' ||| basic -type f -o -name doc
basic -depth -lua 'visit == "post" or depth == 0'
basic links -lua 'root == 2 and type == "l"'
# Symbolic links: -P, -L (loops, broken links), -H.
links -lua 'type == "l"' ||| links -type l
links -lua 'size > 3' ||| links -size +3c
-L links -lua 'type == "l"' ||| -L links -type l
-L links -lua 'type == "d" and nlink > 1'
-L links -lua 'size > 3' ||| -L links -size +3c
-H links/to-dir links -lua 'type == "d"' ||| -H links/to-dir links -type d
linkdel -lua 'type == "f" and size > 2'
-L linkdel -lua 'size > 2 or mtime < now'
-L linkdirs -lua 'type == "d"' ||| -L linkdirs -type d
special -lua 'type == "p" or type == "s"' ||| special \( -type p -o -type s \)
# procfs has no birth time: btime is nil, and an order comparison of it
# raises Lua's error (the entry goes to Lua).
/proc/version -lua 'btime == nil and btime_nsec ~= 0'
/proc/version -lua 'btime or depth == 0'
/proc/version -lua 'size >= 0 and btime > 0'
/proc/version -lua 'depth > 0 and btime < 0'
EOF

# Expressions that have no plan: they run in Lua, errors and all.
while IFS= read -r expr; do
	case $expr in '' | '#'*) continue ;; esac
	total=$((total + 1))
	(cd "$trees" && LUAFIND_LUA_PLAN=must "$luafind" basic -lua "$expr") >/dev/null 2>"$work/must.err"
	if grep -q 'not evaluated in C' "$work/must.err"; then
		printf 'ok: no plan: %s\n' "$expr"
	else
		fail "planned, but should not be: $expr"
	fi
done <<'EOF'
size > "x"
type < "g"
name < path
not size > 5
size > 1.25
size > 1//0
size + 0 > 1
-size < 0
name:match("%.c$")
name .. "" == "x"
e.size > 0
user == "root"
group ~= nil
true == not nil
error == nil
size > math.huge
lf.KiB < size
glob("*.c"):match(name)
(function() return true end)()
EOF

# The same errors from C and Lua, as values of both: a comparison Lua refuses.
for expr in 'size > "x"' 'type == "f" and name < 1' 'btime > 0 and size >= 0'; do
	total=$((total + 1))
	run fast 1 basic -lua "$expr"
	run slow 0 basic -lua "$expr"
	if cmp -s "$work/fast.err" "$work/slow.err" && cmp -s "$work/fast.rc" "$work/slow.rc" &&
	   cmp -s "$work/fast.out" "$work/slow.out"; then
		printf 'ok: same error: %s\n' "$expr"
	else
		fail "different errors: $expr"
		diff "$work/fast.err" "$work/slow.err" | head -4 | sed 's/^/    /'
	fi
done

# Stats that fail: an unsearchable directory's entries can be listed but not
# stat'ed.  Each failure is the entry's error, never a false that "!" makes
# true.
need_nodac "stats failing in -lua expressions evaluated in C"
runner="run_as --nodac"
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	check "$line"
done <<'EOF'
unsearch -lua 'size >= 0' ||| unsearch -size -100000000c
unsearch ! -lua 'size >= 0'
unsearch -lua 'type == "f" and size > 0' ||| unsearch -type f -size +0c
unsearch -lua 'name == "f" or nlink > 0' ||| unsearch \( -name f -o -links +0 \)
unsearch -lua 'type == "d" or not (size > 1)'
unsearch -lua 'size' ||| unsearch -size -100000000c
unsearch -lua 'depth < 2 or mtime > 0'
-L unsearch -lua 'type == "l"' ||| -L unsearch -type l
-L unsearch -lua 'size > 0' ||| -L unsearch -size +0c
unsearch -lua-errors skip ! -lua 'size > 0'
unsearch -lua-errors skip -lua 'btime == nil or depth > 5'
EOF

echo "$((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
