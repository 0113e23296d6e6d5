#!/bin/sh
# printf_golden.sh: -printf directive by directive, -ls and the output-file
# actions, on files whose times, sizes, modes and owners are set here.
#
#	printf_golden.sh LUAFIND WORKDIR
#
# GNU find is the golden: each case runs luafind and /usr/bin/find on the
# same fixture (WORKDIR/run/fx, from WORKDIR/run, where -fprint and friends
# write), and everything must be equal byte for byte, unsorted: standard
# output, standard error (program name unified), exit status and the files
# written (moved aside after each run).  A case line may start with NAME=VALUE words (no
# spaces in the value), set in the environment of both (TZ, POSIXLY_CORRECT),
# or with NODAC: run without the DAC capabilities (through capsh, when root),
# so that the mode-000 directory of WORKDIR/run/pz stops root too.
# Then luafind alone is checked for the stats its actions cost.
set -u
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: printf_golden.sh LUAFIND WORKDIR}
work=${2:?usage: printf_golden.sh LUAFIND WORKDIR}
find=/usr/bin/find
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
export LC_ALL=C
unset POSIXLY_CORRECT
need_gnu_find "the golden outputs"
need_nodac "the NODAC cases"

if [ -d "$work" ]; then
	chmod -R u+rwx "$work" 2>/dev/null
	rm -rf "$work"
fi
mkdir -p "$work/run/fx" || exit 1
clean_on_success "$work"
cd "$work/run/fx" || exit 1

# ---- the fixture --------------------------------------------------------
now=$(date +%s)
ago() { date -d "@$((now - $1))" '+%Y-%m-%d %H:%M:%S'; }

printf 'twelve bytes' > twelve
head -c 5000 /dev/zero > k5
truncate -s 1G sparse
: > empty
printf x > fract
touch -d '2021-03-04 05:06:07.123456789' fract
touch -d '1999-12-31 23:59:59.999999999' y2k
touch -d '1960-07-08 09:10:11.5' old1960
touch -d '1970-01-01 00:00:00' epoch
touch -d '2031-01-02 03:04:05' future
touch -d "$(ago 3600)" hour_ago
touch -d "$(ago $((180 * 86400 - 3600)))" recent_edge
touch -d "$(ago $((180 * 86400 + 3600)))" old_edge
touch -d "$(ago -1800)" soon
touch -d "$(ago -7200)" later
for m in 4755 2750 1777 6000 0 7777 4644 2644 1644 0421; do
	printf 'mode %s\n' "$m" > "m$m"
	chmod "$m" "m$m"
done
mkdir d d/sub sticky
chmod 1777 sticky
echo inner > d/sub/inner
touch -d '2020-02-02 02:02:02.020202020' d/sub/inner
mkfifo fifo
ln -s twelve l_file
ln -s d l_dir
ln -s nowhere l_broken
ln -s l_loop2 l_loop1
ln -s l_loop1 l_loop2
ln -s 'with space' l_space
printf 'n\n' > 'with space'
printf 'n\n' > "$(printf 'ctl\001\177\351')"
root=no
if [ "$(id -u)" = 0 ]; then
	root=yes
	touch ids nameless
	chown 65534:65534 ids
	chown 4242:4343 nameless
	mknod cdev c 1 3
	mknod bdev b 259 70000
	# An SELinux context, for %Z (a plain xattr without SELinux).
	python3 -c 'import os; os.setxattr("twelve", "security.selinux", b"ctx_t:s0\0")' 2>/dev/null
fi
# pz: links into a directory that cannot be searched (NODAC cases).
mkdir -p ../pz/closed
echo x >../pz/closed/f
ln -s closed/f ../pz/into
ln -s closed/f/x ../pz/below
chmod 000 ../pz/closed
# Directory times last: creating entries moves them.  Then read everything
# once, so that relatime moves the directories' atimes now, not between the
# two runs of a case.
touch -d '2022-05-06 07:08:09.5' d/sub d
ls -R . >/dev/null
cd "$work" || exit 1

all_letters='a A b B c C d D e F g G h H I j k l m M n p r R s S t T u U V w W x X y Y z Z + @ %'
every_time=''
for k in $all_letters; do
	every_time="$every_time%A$k|%C$k|%T$k|"
done

cases=$work/cases
cat >"$cases" <<EOF
# Path directives on the fixture and on roots of every shape
fx -printf '%p|%f|%h|%H|%P|%d|%y\n'
fx/ -printf '%p|%f|%h|%H|%P|%d\n'
fx// fx/d/ fx/d// ./fx fx/./d -printf '%p|%f|%h|%H|%P|%d\n'
fx/d/sub/inner fx/twelve -printf '%p|%f|%h|%H|%P|%d\n'

# Sizes, blocks, sparseness, links, ids, modes
fx -printf '%p %s %k %b %S %n\n'
fx -printf '%p %m %M %#m %04m %-6m|\n'
fx -printf '%p %u %g %U %G\n'
fx -printf '%p %i %D %F\n'
fx -printf '%p [%10s] [%-10k] [%010b] [%.3S] [%+5n] [%#x]\n'

# Types and links under -P, -H, -L
fx -printf '%p %y %Y [%l]\n'
-H fx fx/l_dir fx/l_broken fx/l_loop1 -printf '%p %y %Y [%l]\n'
-L fx -printf '%p %y %Y [%l]\n'

# Times: ctime format, every strftime letter, nanoseconds, time zones
fx -printf '%p|%a|%c|%t\n'
fx -printf '%p|$every_time\n'
TZ=UTC0 fx -printf '%p|$every_time\n'
TZ=America/New_York fx -printf '%p|%t|%T+|%Tc|%Tz|%TZ|%Ts|%T@\n'
TZ=XYZ-5:30 fx -printf '%p|%t|%T+|%Tc|%Tz|%TZ\n'
TZ=Australia/Lord_Howe fx -printf '%p|%t|%T+|%Tz|%TZ\n'
fx -printf '%p|%B@|%BY|%B+|\n'
fx -printf '[%40t][%-40T+][%.6T@][%5TY][%-5Tm][%3Tq][%T%]\n'

# Escapes, unknown escapes and directives, \c
fx/twelve -printf 'a\tb\\\\c\n\0\a\b\f\r\v|\101\1012\7777|\q|%q|%-3q|\n'
fx/twelve -printf 'before %p\c after %p'
fx/twelve -printf '%p\n' -printf '%Tq%TE\n' -printf '\n'
fx/twelve -printf '%'
fx/twelve -printf '%5'
fx/twelve -printf '%{'
fx/twelve -printf 'end\'

# SELinux context (an xattr here), errors when there is none
fx/twelve fx/empty -printf '%p [%Z]\n'

# -ls: widths that grow (the order of roots is fixed), devices, old, future
fx -ls
fx/fract fx/nameless fx/ids fx/k5 fx/sparse fx/cdev fx/bdev fx/empty -ls
fx/recent_edge fx/old_edge fx/soon fx/later fx/future fx/old1960 fx/epoch -ls
TZ=America/New_York fx -ls
POSIXLY_CORRECT=1 fx -ls
-L fx -ls
-H fx/l_file fx/l_broken fx/l_space -ls

# Output files: created and truncated at parse time, shared by name and inode
fx -fprint out1 -fprint0 out2 -fls out3 -fprintf out4 '%f %s\n'
fx -fprint same -fprintf same '[%f]\n' -fls ./same -fprint0 ./same
fx -name '*e*' -fprint a -o -fprint b
fx -maxdepth 0 -fprint existing
fx -false -fprint created_anyway
fx -fprint /dev/stdout -print -fprintf /dev/stdout 'X %p\n'
fx -fprint /dev/stderr -fls /dev/stderr -printf 'out %p\n'
fx -fprintf f '%p\c' -fprint g
fx -fprint /nonexistent/file
fx -fprintf bad '%{'
fx -fprintf
fx -fprintf onlyfile
fx -maxdepth 0 -fprint /dev/full
fx -maxdepth 0 -fls /dev/full -fprintf /dev/full '%p'

# Links whose targets cannot be reached: %Y is '?' with a message, -ls and
# %l still read the link
NODAC pz -printf '%p %y %Y [%l]\n' -ls
NODAC -L pz -printf '%p %y %Y [%l]\n'
EOF

# run_one DIR --dac|--nodac PROGRAM ARGS...: run in WORKDIR/run with the
# leading NAME=VALUE words of ARGS in the environment; the output goes to
# DIR.out, DIR.err, DIR.rc, and the files it wrote to DIR.
run_one() {
	dir=$1 dac=$2 prog=$3
	shift 3
	envs=
	while [ $# -gt 0 ]; do
		case $1 in
		[A-Z]*=*) envs="$envs $1"; shift ;;
		*) break ;;
		esac
	done
	mkdir -p "$dir"
	printf 'stale contents\n' >"$work/run/existing"
	(cd "$work/run" && run_as "$dac" env $envs "$prog" "$@") >"$dir.out" 2>"$dir.err"
	echo $? >"$dir.rc"
	for f in "$work/run"/* "$work/run"/.[!.]*; do
		case $f in "$work/run/fx" | "$work/run/pz" | *'/.[!.]*' | *'/*') ;; *) mv "$f" "$dir/" ;; esac
	done
}

failures=0
total=0
while IFS= read -r line || [ -n "$line" ]; do
	case $line in '' | '#'*) continue ;; esac
	eval "set -- $line"
	dac=--dac
	if [ "$1" = NODAC ]; then
		shift
		dac=--nodac
	fi
	total=$((total + 1))
	rm -rf "$work/l" "$work/f"
	run_one "$work/l" $dac "$luafind" "$@"
	run_one "$work/f" $dac "$find" "$@"
	normalize_err "$work/f.err" "$work/l.err"
	ok=yes
	for part in out err rc; do
		if ! cmp -s "$work/l.$part" "$work/f.$part"; then
			ok=no
			printf 'FAIL (%s): %s\n' "$part" "$line"
			diff "$work/l.$part" "$work/f.$part" | head -10 | sed 's/^/    /'
		fi
	done
	if ! diff -r "$work/l" "$work/f" >/dev/null 2>&1; then
		ok=no
		printf 'FAIL (files): %s\n' "$line"
		diff -r "$work/l" "$work/f" 2>&1 | head -10 | sed 's/^/    /'
	fi
	if [ $ok = yes ]; then
		printf 'ok: %s\n' "$line"
	else
		failures=$((failures + 1))
	fi
done <"$cases"

# ---- stats: what the actions cost (luafind only) -------------------------
# stats_of ARGS...: the stats= and stats_follow= counters of a run on fx.
stats_of() {
	(cd "$work/run" && "$luafind" --stats fx "$@" 2>&1 >/dev/null) |
		sed -n 's/.*entries=\([0-9]*\).* stats=\([0-9]*\) stats_follow=\([0-9]*\).*/\1 \2 \3/p'
}
check_stats() { # check_stats WANT DESCRIPTION ARGS...: WANT is "none" or "each"
	want=$1 desc=$2
	shift 2
	total=$((total + 1))
	set -- $(stats_of "$@")
	entries=$1 stats=$2 follow=$3
	# The root is stat'ed by the walk itself, whatever the expression.
	case $want in
	none) [ "$stats" -le 1 ] && [ "$follow" -eq 0 ] ;;
	each) [ "$stats" -eq "$entries" ] && [ "$follow" -eq 0 ] ;;
	esac
	if [ $? -eq 0 ]; then
		printf 'ok: stats %s (%s)\n' "$desc" "$want"
	else
		printf 'FAIL (stats): %s: entries=%s stats=%s stats_follow=%s, want %s\n' \
		       "$desc" "$entries" "$stats" "$follow" "$want"
		failures=$((failures + 1))
	fi
}
check_stats none "-printf %p" -printf '%p\n'
check_stats none "-printf names" -printf '%f %h %H %P %d %y %%\n'
check_stats none "-fprint0" -fprint0 /dev/null
check_stats each "-printf %s" -printf '%s\n'
check_stats each "-printf many" -printf '%s %m %u %T@ %i\n'
check_stats each "-ls" -ls

echo "$((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
