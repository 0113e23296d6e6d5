#!/bin/sh
# shellcheck disable=SC2016,SC2034 # scripts for same_as_gnu are single-quoted
# exec_checks.sh: targeted checks of -exec, -execdir, -ok and -okdir that a
# sorted differential test cannot express.
#
#	exec_checks.sh LUAFIND MKCHAIN WORKDIR CHECK
#
# Each CHECK is a function below; it exits non-zero with a message on
# failure.  Outputs are compared with those of /usr/bin/find (GNU find 4.9)
# exactly, in order: a check that compares is skipped (77) without GNU find,
# as is check_noshell without strace (failures when CI is set: lib.sh).
# WORKDIR is created, and removed unless the check fails.
set -eu
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: exec_checks.sh LUAFIND MKCHAIN WORKDIR CHECK}
mkchain=${2:?}
work=${3:?}
check=${4:?}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
case $mkchain in /*) ;; *) mkchain=$PWD/$mkchain ;; esac
mkdir -p "$work"
work=$(cd "$work" && pwd)
clean_on_success "$work"
export LC_ALL=C
gnu=/usr/bin/find

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# same_as_gnu NAME SCRIPT: run SCRIPT (shell code naming the program
# "$FIND") once with luafind, once with GNU find, and compare stdout, stderr
# (program name unified, luafind's caret lines dropped) and the exit status.
# Scripts are single-quoted on purpose.  Without GNU find the check is
# skipped (need_gnu_find exits).
same_as_gnu() {
	name=$1
	script=$2
	need_gnu_find "$name"
	lrc=0 frc=0
	(FIND=$luafind && eval "$script") >"$work/l.out" 2>"$work/l.err" || lrc=$?
	(FIND=$gnu && eval "$script") >"$work/f.out" 2>"$work/f.err" || frc=$?
	sed -i -e 's/^[^:]*find: /luafind: /' -e '/^luafind:  /d' -e '/^ *\^~*$/d' "$work/l.err" "$work/f.err"
	cmp -s "$work/l.out" "$work/f.out" || { diff "$work/l.out" "$work/f.out" | head -20; fail "$name: stdout differs from GNU find's"; }
	cmp -s "$work/l.err" "$work/f.err" || { diff "$work/l.err" "$work/f.err" | head -20; fail "$name: stderr differs from GNU find's"; }
	[ $lrc -eq $frc ] || fail "$name: exit status $lrc, GNU find's $frc"
}

# A small tree: t/{a,b/{c,d/e},empty/}
small_tree() {
	rm -rf "$work/t"
	mkdir -p "$work/t/b/d" "$work/t/empty"
	echo a >"$work/t/a"
	echo c >"$work/t/b/c"
	echo e >"$work/t/b/d/e"
}

# "+" batches stop at GNU's limit (128 KiB of arguments, less when ARG_MAX
# minus the environment is smaller) and are split there, as GNU splits them.
check_batching() {
	d=$work/many
	if [ ! -d "$d" ]; then
		mkdir -p "$d.tmp"
		(cd "$d.tmp" && seq -f 'file-%05.0f' 1 20000 | xargs touch)
		mv "$d.tmp" "$d"
	fi
	# Each invocation prints its argument count and argument bytes.
	count='n=0; for a; do n=$((n + ${#a} + 1)); done; echo "$# $n"'
	(cd "$work" && "$luafind" many -exec sh -c "$count" sh {} +) >"$work/batches"
	batches=$(wc -l <"$work/batches")
	[ "$batches" -ge 2 ] || fail "20,001 paths in $batches batch(es)"
	total=$(awk '{ s += $1 } END { print s }' "$work/batches")
	[ "$total" -eq 20001 ] || fail "$total paths passed, expected 20001"
	max=$(awk '{ if ($2 > m) m = $2 } END { print m }' "$work/batches")
	[ "$max" -le $((128 * 1024)) ] || fail "a batch took $max bytes"
	same_as_gnu "-exec + batches" 'cd "$work" && "$FIND" many -exec sh -c "$count" sh {} +'
	same_as_gnu "-execdir + batches" 'cd "$work" && "$FIND" many -execdir sh -c "$count" sh {} +'
	same_as_gnu "-exec + batches, long prefix" \
		'cd "$work" && "$FIND" ./many/../many/ -exec echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx {} + | awk "{ print NF }"'
	echo "ok: 20,001 paths in $batches batches of at most $max bytes, as GNU find batches them"

	# A smaller ARG_MAX (ulimit -s 256: 128 KiB) less a 60 kB environment
	# leaves 69 kB for arguments; there the kernel also counts the pointers,
	# so it refuses GNU's batches (E2BIG): luafind halves them and retries.
	big=$(head -c 60000 /dev/zero | tr '\0' x)
	(cd "$work" && ulimit -s 256 && BIG=$big "$luafind" many -exec sh -c "$count" sh {} +) >"$work/batches" ||
		fail "-exec + under a small ARG_MAX failed"
	total=$(awk '{ s += $1 } END { print s }' "$work/batches")
	[ "$total" -eq 20001 ] || fail "small ARG_MAX: $total paths passed, expected 20001"
	max=$(awk '{ if ($2 > m) m = $2 } END { print m }' "$work/batches")
	[ "$max" -le $((131072 - 60004 - 2048)) ] || fail "small ARG_MAX: a batch took $max bytes"
	echo "ok: with a 60 kB environment and ARG_MAX 128 KiB, $(wc -l <"$work/batches") batches of at most $max bytes"
}

# {} anywhere inside a word, every time, for ";" (GNU's bc_do_insert).
check_braces() {
	small_tree
	out=$(cd "$work" && "$luafind" t/a -exec echo 'a{}b' '{}{}' '{' '}' '{}}' \;)
	[ "$out" = "at/ab t/at/a { } t/a}" ] || fail "{} in words: '$out'"
	out=$(cd "$work" && "$luafind" t/b/c -execdir echo 'a{}b' '{}{}' \;)
	[ "$out" = "a./cb ./c./c" ] || fail "{} in -execdir words: '$out'"
	same_as_gnu "{} in words" 'cd "$work" && "$FIND" t -exec echo "x{}y" "{}{}" \; -execdir echo "x{}y" \;'
	echo "ok: {} replaced inside words"
}

# -ok and -okdir: the prompt, answers from a pipe, the command's stdin.
check_ok() {
	small_tree
	for prim in -ok -okdir; do
		out=$(cd "$work" && printf 'y\nn\nyes\nY\nno\n' | "$luafind" t $prim echo {} \; 2>"$work/err")
		n=$(printf '%s\n' "$out" | wc -l)
		[ "$n" -eq 3 ] || fail "$prim: $n commands ran for 3 yes answers: $out"
		grep -q "^< echo \.\.\. t > ? < echo \.\.\. t/" "$work/err" || fail "$prim: prompt: $(cat "$work/err")"
		same_as_gnu "$prim answers" 'cd "$work" && printf "y\nn\nyes\nY\nno\n y\n" | "$FIND" t '$prim' echo {} \;'
		same_as_gnu "$prim without answers" 'cd "$work" && "$FIND" t '$prim' echo {} \; </dev/null'
		same_as_gnu "$prim false on no" 'cd "$work" && printf "n\ny\n" | "$FIND" t -maxdepth 1 '$prim' true \; -o -print'
	done
	# The command keeps standard input (POSIX, bfs; GNU closes it): the
	# answer is read up to its newline, and the command reads what follows.
	for prim in -ok -okdir; do
		out=$(cd "$work" && printf 'y\nhello\ny\nworld\n' |
			"$luafind" t -maxdepth 1 -name '[ab]' $prim sh -c 'read x; echo "got:$x"' \; 2>/dev/null)
		[ "$out" = "got:hello
got:world" ] || fail "$prim: the command did not read what follows the answers: '$out'"
	done
	# "+" is no terminator for -ok.
	(cd "$work" && "$luafind" t -ok echo {} + </dev/null 2>"$work/err") && fail "-ok ... + accepted"
	grep -q "missing argument to \`-ok'" "$work/err" || fail "-ok +: $(cat "$work/err")"
	echo "ok: -ok and -okdir prompts and answers"
}

# -execdir refuses a PATH with an empty, "." or relative entry, as GNU does.
check_execdir_path() {
	small_tree
	for p in "/bin:" ":/bin" "/usr/bin::/bin" "/bin:." "." "" "/bin:bin" "/bin:./x" "/bin:~/bin"; do
		for prim in -execdir -okdir; do
			if out=$(cd "$work" && PATH=$p "$luafind" t $prim echo {} \; 2>"$work/err" </dev/null); then
				fail "$prim with PATH='$p' accepted"
			fi
			[ -z "$out" ] || fail "$prim with PATH='$p' ran something"
			grep -q "is included in the PATH environment variable, which is insecure in combination with the $prim action of find" "$work/err" ||
				fail "$prim with PATH='$p': $(cat "$work/err")"
			same_as_gnu "$prim with PATH='$p'" 'cd "$work" && PATH="$p" "$FIND" t '$prim' echo {} \; </dev/null'
		done
	done
	(cd "$work" && PATH=/bin:foo "$luafind" t -maxdepth 0 -execdir echo {} 2>"$work/err") && fail "no PATH error"
	grep -q "The relative path 'foo'" "$work/err" || fail "PATH is not checked first: $(cat "$work/err")"
	out=$(cd "$work" && PATH=/usr/bin:/bin:bin "$luafind" t -maxdepth 0 -exec echo {} \;) || fail "-exec refused a relative PATH"
	[ "$out" = t ] || fail "-exec with a relative PATH: '$out'"
	out=$(cd "$work" && env -u PATH "$luafind" t -maxdepth 0 -execdir /bin/echo {} \;) || fail "-execdir without PATH"
	[ "$out" = ./t ] || fail "-execdir without PATH: '$out'"
	echo "ok: -execdir and -okdir refuse unsafe PATH entries"
}

# A command that cannot run: GNU's message; false for ";", status 1 for "+".
check_enoent() {
	small_tree
	# An error, whatever the terminator (POSIX, bfs; GNU exits 0 for ';').
	out=$(cd "$work" && "$luafind" t -maxdepth 0 -exec no-such-command-lf {} \; -o -print 2>"$work/err") &&
		fail "-exec ; with a missing command: exit status 0"
	[ "$out" = t ] || fail "-exec ; with a missing command was not false: '$out'"
	[ "$(cat "$work/err")" = "luafind: 'no-such-command-lf': No such file or directory" ] ||
		fail "message: $(cat "$work/err")"
	(cd "$work" && "$luafind" t -exec no-such-command-lf {} + 2>"$work/err") && fail "-exec + with a missing command: status 0"
	grep -q "'no-such-command-lf': No such file or directory" "$work/err" || fail "+: $(cat "$work/err")"
	(cd "$work" && "$luafind" t -maxdepth 0 -exec "$work/t" \; 2>"$work/err") && fail "EACCES: status 0"
	grep -q "Permission denied" "$work/err" || fail "EACCES: $(cat "$work/err")"
	echo "ok: commands that cannot run"
}

# -execdir on a root runs in the root's directory, opened for reading as
# GNU find and bfs open it: one that can be searched but not read (mode
# 111) is an error, fatal as in GNU find ("Failed to save working
# directory..."), and nothing runs there.
check_execdir_unreadable() {
	need_nodac "a directory that root can read"
	rm_work "$work/u"
	mkdir -p "$work/u/d" "$work/u/ok"
	: >"$work/u/d/f"
	: >"$work/u/ok/g"
	chmod 111 "$work/u/d"
	for cmd in "-execdir echo {} +" "-execdir echo {} ;" "-print -execdir echo {} ;" "-okdir echo {} ;"; do
		same_as_gnu "$cmd on u/d/f" 'cd "$work/u" && echo y | run_as --nodac "$FIND" ok/g d/f ok/g '"$cmd"
	done
	out=$(cd "$work/u" && run_as --nodac "$luafind" d/f -execdir echo {} + 2>"$work/err") && fail "-execdir: status 0"
	[ -z "$out" ] || fail "-execdir ran in a directory it could not read: $out"
	[ "$(cat "$work/err")" = "luafind: Failed to save working directory in order to run a command on 'd/f': Permission denied" ] ||
		fail "message: $(cat "$work/err")"
	# The current directory is luafind's own: run there, as bfs does
	# (GNU find opens "." and refuses it too).
	out=$(cd "$work/u/d" && run_as --nodac "$luafind" f -execdir echo {} +) || fail "-execdir in ./: status $?"
	[ "$out" = ./f ] || fail "-execdir in ./: '$out'"
	chmod 755 "$work/u/d"
	echo "ok: -execdir in a root's directory that cannot be read"
}

# Words reach the command as they are: no shell ever reads them.
check_noshell() {
	need_strace "tracing what -exec runs"
	need_gnu_find "a script without #!"
	small_tree
	out=$(cd "$work" && "$luafind" t/a -exec printf '[%s]\n' 'a;b' '$(echo no)' '`echo no`' '*' '"q"' "'s'" '\x' '$HOME' '|' {} \;)
	want='[a;b]
[$(echo no)]
[`echo no`]
[*]
["q"]
['"'s'"']
[\x]
[$HOME]
[|]
[t/a]'
	[ "$out" = "$want" ] || fail "words were changed: $out"
	(cd "$work" && "$luafind" t/a -exec 'echo hi; echo' \; 2>"$work/err") || true
	grep -q "'echo hi; echo': No such file or directory" "$work/err" || fail "a command line was run: $(cat "$work/err")"
	(cd "$work" && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=execve -o "$work/strace" \
		"$luafind" t/a -exec echo {} \; -exec echo {} + >/dev/null)
	if grep -v '"/usr/bin/echo"\|"/bin/echo"\|luafind' "$work/strace" | grep -q 'execve([^)]*= 0'; then
		fail "something else than echo ran: $(cat "$work/strace")"
	fi
	# A program without "#!" runs as a script, as execvp runs it in GNU find.
	printf 'echo "script: $1"\n' >"$work/script"
	chmod +x "$work/script"
	out=$(cd "$work" && "$luafind" t/a -exec ./script {} \;)
	[ "$out" = "script: t/a" ] || fail "script without #!: '$out'"
	same_as_gnu "script without #!" 'cd "$work" && "$FIND" t -exec ./script {} \; -exec ./script {} +'
	echo "ok: no shell reads the words"
}

# -execdir in directories deeper than PATH_MAX: luafind never chdirs, the
# child fchdirs to the walker's fd.
check_execdir_deep() {
	c=$work/deep
	rm -rf "$c"
	name=$(printf '%0200d' 0 | tr 0 n)
	"$mkchain" "$c" 30 "$name"
	# Put a file in the deepest directory, from its parent.
	(cd "$work" && "$luafind" deep -mindepth 30 -type d -execdir sh -c 'echo data >"$1/leaf"' sh {} \;) ||
		fail "-execdir at depth 30 failed"
	out=$(cd "$work" && "$luafind" deep -name leaf -execdir cat {} \;)
	[ "$out" = data ] || fail "-execdir cat at depth 31: '$out'"
	n=$(cd "$work" && "$luafind" deep -execdir test -e {} \; -print | wc -l)
	[ "$n" -eq 32 ] || fail "-execdir test -e {} true for $n of 32 entries"
	out=$(cd "$work" && "$luafind" deep -execdir echo {} + | wc -l)
	[ "$out" -eq 32 ] || fail "-execdir + made $out batches, expected 32 (one per directory)"
	out=$(cd "$work" && "$luafind" deep -name leaf -execdir sh -c 'test "$(cat ./leaf)" = data && echo ok' sh \; 2>&1)
	[ "$out" = ok ] || fail "-execdir ; without {} at depth 31: '$out'"
	same_as_gnu "deep -execdir ;" 'cd "$work" && "$FIND" deep -execdir sh -c "test -e \"\$1\" && echo \"\${#1}\"" sh {} \;'
	same_as_gnu "deep -execdir +" 'cd "$work" && "$FIND" deep -execdir echo {} +'
	echo "ok: -execdir beyond PATH_MAX ($(cd "$work" && "$luafind" deep -name leaf | wc -c) bytes of path)"
}

# Commands inherit stdin, stdout and stderr only: no directory fds, no
# batch directory fds.
check_fds() {
	c=$work/fdchain
	[ -d "$c" ] || "$mkchain" "$c" 50
	small_tree
	base=$(ls /proc/self/fd | tr '\n' ' ')
	for args in "-exec ls /proc/self/fd ;" "-execdir ls /proc/self/fd ;"; do
		# shellcheck disable=SC2086
		(cd "$work" && "$luafind" fdchain t -mindepth 2 $args) | paste -sd' ' - | sed 's/ /\n/g' >"$work/fds"
		bad=$(grep -cv '^[0-9]*$' "$work/fds" || true)
		[ "$bad" -eq 0 ] || fail "$args: $(cat "$work/fds")"
		# ls itself opens one fd for the directory it lists, as it did for $base.
		for fd in $(sort -un "$work/fds"); do
			case " $base " in *" $fd "*) ;; *) fail "$args: the command inherited fd $fd (base: $base)" ;; esac
		done
	done
	# A pending -execdir batch holds a duplicate of its directory fd.
	shbase=$(sh -c 'ls /proc/$$/fd' | tr '\n' ' ')
	(cd "$work" && "$luafind" fdchain t -mindepth 2 -execdir sh -c 'ls /proc/$$/fd' sh {} +) >"$work/fds"
	for fd in $(sort -un "$work/fds"); do
		case " $shbase " in *" $fd "*) ;; *) fail "-execdir +: the command inherited fd $fd (base: $shbase)" ;; esac
	done
	echo "ok: commands inherit no directory fds (base set: $base)"
}

# Our output and the commands' output interleave as in GNU find.
check_interleave() {
	small_tree
	out=$(cd "$work" && "$luafind" t -print -exec echo "X {}" \; | paste -sd' ' -)
	want=$(cd "$work" && "$luafind" t | while IFS= read -r p; do printf '%s X %s ' "$p" "$p"; done | sed 's/ $//')
	[ "$out" = "$want" ] || fail "interleaving: '$out'"
	same_as_gnu "interleaving ;" 'cd "$work" && "$FIND" t -print -exec echo "X {}" \; -execdir echo "Y {}" \;'
	same_as_gnu "interleaving +" 'cd "$work" && "$FIND" t -print -exec echo X {} + -exec echo "X {}" \;'
	same_as_gnu "execdir + per directory" 'cd "$work" && "$FIND" t -execdir echo {} +'
	same_as_gnu "execdir + after -quit" 'cd "$work" && "$FIND" t -execdir echo {} + -name c -quit'
	same_as_gnu "exec + after -quit" 'cd "$work" && "$FIND" t -exec echo {} + -name c -quit'
	same_as_gnu "exec + and print" 'cd "$work" && "$FIND" t -name b -exec echo {} + -print0'
	# A pending -execdir batch runs as soon as the walk leaves its
	# directory, before the next file is printed (GNU: at a level change).
	mkdir -p "$work/t/x/y/z" && touch "$work/t/x/f" "$work/t/x/y/g" "$work/t/x/y/z/h"
	for args in "-print -execdir echo {} +" "-name ? -execdir echo X {} + -o -print" \
		"-mindepth 2 -print -execdir echo {} +" "-depth -print -execdir echo {} +" \
		"-type f -execdir echo {} + -o -print" "-print -execdir echo A {} + -execdir echo B {} +"; do
		same_as_gnu "execdir + batches and $args" 'cd "$work" && "$FIND" t '"$args"
	done
	echo "ok: output interleaves with the commands' as in GNU find"
}

# Exit statuses: ";" failures only make the action false; "+" failures,
# including signals, make the status 1.
check_status() {
	small_tree
	(cd "$work" && "$luafind" t -exec false \;) || fail "-exec false ; made the status non-zero"
	(cd "$work" && "$luafind" t -exec false {} +) && fail "-exec false {} + left the status 0"
	(cd "$work" && "$luafind" t -exec sh -c 'kill -9 $$' sh {} + 2>"$work/err") && fail "signal in +: status 0"
	grep -q "^luafind: 'sh' terminated by signal 9$" "$work/err" || fail "signal message: $(cat "$work/err")"
	out=$(cd "$work" && "$luafind" t -exec false {} + -print | wc -l)
	[ "$out" -eq 7 ] || fail "-exec + was not true"
	for cmd in "-exec false ;" "-exec false {} +" "-exec true {} +" "-execdir false {} +" "-exec sh -c exit\ 7 ;"; do
		# shellcheck disable=SC2086
		same_as_gnu "status of $cmd" 'cd "$work" && "$FIND" t '"$cmd"
	done
	echo "ok: exit statuses"
}

"check_$check"
