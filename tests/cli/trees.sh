#!/bin/sh
# trees.sh: build the file trees every CLI and Lua test walks.
#
#	trees.sh DEST MKCHAIN
#
# DEST/basic       a small source-like tree with files, dirs, an empty dir
# DEST/links       symlinks to files and dirs, broken links, link chains, loops
# DEST/weirdnames  names with a newline, a tab, a leading dash, spaces, quotes,
#                  glob characters, a backslash, invalid UTF-8, 255 bytes;
#                  every byte 0x01-0xff, tricky UTF-8 sequences
# DEST/deep        a chain whose paths pass PATH_MAX (4096 bytes)
# DEST/perms       a directory that cannot be read or searched (mode 000), to
#                  be walked with the DAC capabilities dropped
# DEST/unsearch   directories that can be read but not searched, links into them
# DEST/special     a FIFO and a socket-free mix of types (fifo, device-free)
# DEST/linkdel     links to files with other sizes, times, modes, owners than
#                  their own, broken links, a self-loop: what -L changes for
#                  the tests; no link to a directory
# DEST/linkdirs    links to directories inside the tree and to an empty one,
#                  a link through a file ("f/")
# DEST/regexnames names with the characters regex syntaxes tell apart: + | { }
#                  ( ) [ ] ? * and backslashes, and "?:" (Emacs' shy groups)
# DEST/mbnames    multibyte and invalid names for -regex in a UTF-8 locale:
#                  é É café CAFÉ ω Ω 漢 漢字, bytes 0xff alone and within
#                  names, the same again in d/ (an ASCII name, for -delete)
# DEST/files0      NUL-separated lists of roots (relative to DEST) for
#                  -files0-from, with an empty name, a missing one, no final NUL
#
# Trees are generated, never committed.  The script is idempotent: DEST is
# wiped and rebuilt.
set -eu

dest=${1:?usage: trees.sh DEST MKCHAIN}
mkchain=${2:?usage: trees.sh DEST MKCHAIN}

if [ -d "$dest" ]; then
	chmod -R u+rwx "$dest" 2>/dev/null || true
	rm -rf "$dest"
fi
mkdir -p "$dest"
cd "$dest"

# basic
mkdir -p basic/src/core basic/src/cli basic/doc basic/empty basic/.hidden
for f in src/core/walk.c src/core/walk.h src/core/dir.c src/cli/main.c \
	 src/cli/parse.c doc/guide.txt Makefile README .hidden/secret; do
	printf 'content of %s\n' "$f" > "basic/$f"
done
head -c 20000 /dev/zero > basic/src/big.bin
: > basic/src/empty.txt
# Read each file once now: under relatime the first read after a write moves
# the access time, and a test reading one while cli.output prints %a would
# have GNU find and luafind see two different times.
cat basic/src/*.* basic/src/*/* basic/doc/* basic/Makefile basic/README basic/.hidden/* >/dev/null

# links
mkdir -p links/dir/sub links/other
echo data > links/dir/file
echo more > links/dir/sub/inner
ln -s dir/file links/to-file
ln -s dir links/to-dir
ln -s nowhere links/broken
ln -s to-dir links/chain
ln -s .. links/dir/sub/up
ln -s .. links/other/loop2
ln -s self links/self
ln -s ../dir links/other/sibling

# weirdnames
mkdir -p weirdnames/sub
nl='
'
for n in "new${nl}line" "tab	tab" "-rf" "--" "with space" "it's" 'dq"uote' \
	 "star*" "q?mark" "[bracket]" 'back\slash' "$(printf 'bad\377utf8')" \
	 "$(printf 'caf\303\251')" ".dot" "..dots" "-" "é${nl}"; do
	echo x > "weirdnames/$n"
	mkdir -p "weirdnames/sub/$n"
done
# Every byte that UTF-8 rejects alone (0x80-0xff), every control character,
# and the UTF-8 sequences a decoder can get wrong: C1 and line separators,
# an encoded surrogate, an overlong '/', past U+10FFFF, a cut sequence.
bytes() { # bytes FIRST LAST: the bytes FIRST..LAST (decimal), via octal escapes
	_f= _i=$1
	while [ "$_i" -le "$2" ]; do _f="$_f\\$(printf %o "$_i")"; _i=$((_i + 1)); done
	printf "$_f"
}
for n in "hi$(bytes 128 191)" "lead$(bytes 192 255)" "ctl$(bytes 1 31)$(bytes 127 127)end" \
	 "$(printf 'c1\302\205ls\342\200\250sur\355\240\200over\300\257big\364\220\200\200emoji\360\237\230\200fffd\357\277\275cut\342\202')"; do
	echo x > "weirdnames/$n"
	mkdir -p "weirdnames/sub/$n"
done
long=$(printf '%0255d' 0 | tr 0 L)
echo x > "weirdnames/$long"
mkdir "weirdnames/sub/$long"
echo x > "weirdnames/sub/$long/inside"

# deep: 24 levels of 200-byte names, about 4,800 bytes of path
"$mkchain" deep 24 "$(printf '%0200d' 0 | tr 0 n)"

# perms: unreadable and unsearchable directories
mkdir -p perms/open perms/closed/inner perms/noexec/inner perms/noread
echo x > perms/open/f
echo x > perms/closed/inner/f
echo x > perms/noexec/inner/f
echo x > perms/noread/f
chmod 000 perms/closed
chmod 644 perms/noexec
chmod 311 perms/noread

# unsearch: directories that can be read but not searched (mode 644, 600),
# and links whose target cannot be checked (Permission denied), to be walked
# with the DAC capabilities dropped
mkdir -p unsearch/r644/d/sub unsearch/r600/d
echo x > unsearch/r644/f
echo x > unsearch/r644/d/x
echo x > unsearch/r600/f
ln -s f unsearch/r644/l
ln -s d unsearch/r644/ld
ln -s r644/f unsearch/to-f
ln -s r644/d unsearch/to-d
ln -s r644/nowhere unsearch/to-none
chmod 644 unsearch/r644
chmod 600 unsearch/r600

# special: a FIFO and an empty directory among files
mkdir -p special/d
mkfifo special/fifo
echo x > special/file
ln -s fifo special/fifo-link

# attrs: sizes at unit boundaries, modes, hard links, owners without names,
# times relative to now (far from the day boundaries the tests compare at)
mkdir -p attrs/sizes attrs/modes attrs/times attrs/owners attrs/empty-dir attrs/full-dir
touch attrs/full-dir/x
for n in 0 1 511 512 513 1023 1024 1025 2047 2048 16384 16385 1048575 1048576 1048577; do
	head -c "$n" /dev/zero > "attrs/sizes/s$n"
done
for m in 000 400 444 600 644 664 666 700 755 775 777 1777 2755 4755 6755 4000 2000 1000 111 222 333; do
	: > "attrs/modes/m$m"
	chmod "$m" "attrs/modes/m$m"
done
mkdir attrs/modes/dir711 attrs/modes/dir1777
chmod 711 attrs/modes/dir711
chmod 1777 attrs/modes/dir1777
: > attrs/links1
ln attrs/links1 attrs/links2
ln attrs/links1 attrs/links3
now=$(date +%s)
for h in 1 5 23 25 47 49 71 73 200 1000; do
	: > "attrs/times/h$h"
	touch -m -d "@$((now - h * 3600 - 1800))" "attrs/times/h$h"
	touch -a -d "@$((now - h * 3600 - 900))" "attrs/times/h$h"
done
for m in 2 10 59 61 119 121; do
	: > "attrs/times/m$m"
	touch -d "@$((now - m * 60 - 30))" "attrs/times/m$m"
done
touch -d "2001-02-03 04:05:06" attrs/times/old
# read after their last change (-used): one hour, a day and a bit, three days
for s in 3600 90000 250000; do
	: > "attrs/times/read$s"
	touch -a -d "@$((now + s))" "attrs/times/read$s"
done
# never read since created: its access time is its change time
: > attrs/times/read0
: > attrs/owners/nobody
: > attrs/owners/ghost
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 attrs/owners/nobody
	chown 54321:54321 attrs/owners/ghost
fi
ln -s ../sizes/s0 attrs/owners/link-to-s0
ln -s nowhere attrs/owners/dangling

# linkdel: each test that -L changes has a link whose target answers it
# differently from the link itself
mkdir -p linkdel/d/sub linkdel/empty
printf '%0100d' 0 > linkdel/d/inner
: > linkdel/f
head -c 20000 /dev/zero > linkdel/big
: > linkdel/m600
chmod 600 linkdel/m600
: > linkdel/ref
touch -d "2010-01-01 00:00:00" linkdel/ref
touch -d "2001-01-01 00:00:00" linkdel/big
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 linkdel/m600
fi
ln -s f linkdel/lf
ln -s lf linkdel/lchain
ln -s big linkdel/lbig
ln -s m600 linkdel/l600
ln -s ref linkdel/lref
ln -s nowhere linkdel/lbroken
ln -s lself linkdel/lself
ln -s ../f linkdel/d/lup

# linkdirs: links to directories of the same tree
mkdir -p linkdirs/d/sub linkdirs/empty linkdirs/e2
: > linkdirs/d/inner
: > linkdirs/f
ln -s d linkdirs/ld
ln -s empty linkdirs/lempty
ln -s ../e2 linkdirs/d/le2
ln -s f linkdirs/lf
ln -s f/ linkdirs/lnotdir

# regexnames: for -regextype, names that each syntax matches differently
mkdir regexnames
for n in a b aa aab ab abb a+b 'a|b' 'a{2}' 'a{2' '(a)' 'a(b' 'a)b' '[a]' 'a?' 'a*' '*a' \
	 '+a' '{' '}' 'a\b' 'a\+b' 'a\|b' 'a\{2\}' '\(a\)' 'a.b' 'a^b' 'a$b' 'A+B' 'AB' '?:ab' '?:a' '?a'; do
	: >"regexnames/$n"
done

# mbnames: characters of two and three bytes in UTF-8, cases that fold
# (é É, ω Ω), and bytes that are no UTF-8 (a lone 0xff, one between ASCII
# letters, one after a valid character)
mkdir -p mbnames/d
ff=$(printf '\377')
for n in é É café CAFÉ ω Ω 漢 漢字 ab "$ff" "a${ff}b" "é${ff}"; do
	: >"mbnames/$n"
	: >"mbnames/d/$n"
done

# files0: lists of roots for -files0-from, run from DEST
mkdir files0
printf '%s\0' basic links >files0/two
printf 'basic/src' >files0/noterm
printf '%s\0' basic '' attrs/sizes '' >files0/empty-names
printf '%s\0' basic nowhere weirdnames/-rf >files0/missing
printf '%s\0' weirdnames/- -print '(' '!' >files0/dashes
: >files0/none
