#!/bin/sh
# slowfs_smoke.sh: slowfs (slowfs.c) serves its source faithfully and slowly.
#
#	slowfs_smoke.sh SLOWFS WORKDIR
#
# Mounts a small tree (every file type, a hard link, a directory that takes
# several READDIR requests) through SLOWFS and checks that find -printf sees
# the same names, types, sizes, modes, inode numbers and link targets through
# the mount as in the source; that readdir(3) hands out the source's d_ino
# and d_type (through Python's ctypes); that a file reads back the same; that
# the mount is read-only; that a stat waits the delay; and that 32 stats in
# one directory wait it in parallel.  Skipped (77) without root or
# /dev/fuse; an empty or missing SLOWFS (libfuse3 not found at configure
# time) is skipped too, but a failure in CI, where tools/setup.sh installs
# libfuse3-dev.
set -eu
. "$(dirname "$0")/../cli/lib.sh"

slowfs=${1?usage: slowfs_smoke.sh SLOWFS WORKDIR}
work=${2:?usage: slowfs_smoke.sh SLOWFS WORKDIR}

if [ "$(id -u)" -ne 0 ]; then
	echo "skipped: mounting slowfs needs root"
	exit 77
fi
if [ ! -c /dev/fuse ]; then
	echo "skipped: no /dev/fuse (a kernel without FUSE)"
	exit 77
fi
if [ -z "$slowfs" ] || [ ! -x "$slowfs" ]; then
	skip_tool "slowfs (libfuse3-dev at configure time)" "the slowfs smoke test"
fi
need_cmd python3 "comparing d_ino and d_type through the mount"
need_gnu_find "comparing the trees"

src=$work/src
mnt=$work/mnt
pid=
rm_work "$work"
mkdir -p "$src" "$mnt"

# Unmount before anything is removed; keep the scratch files on failure.
cleanup() {
	rc=$1
	if mountpoint -q "$mnt"; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt"
	fi
	[ -z "$pid" ] || wait "$pid" 2>/dev/null || true
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then
		rm_work "$work"
	else
		echo "failed: scratch files kept in $work" >&2
	fi
	exit "$rc"
}
trap 'cleanup $?' EXIT
trap 'exit 1' INT TERM HUP

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# mount DELAY_US: mount src on mnt, slowfs in the foreground as a child.
mount_slowfs() {
	"$slowfs" -f -o "delay_us=$1" "$src" "$mnt" 2>"$work/slowfs.err" &
	pid=$!
	i=0
	until mountpoint -q "$mnt"; do
		kill -0 "$pid" 2>/dev/null || fail "slowfs exited before mounting: $(cat "$work/slowfs.err")"
		i=$((i + 1))
		[ "$i" -lt 500 ] || fail "slowfs did not mount $mnt in 5 s"
		sleep 0.01
	done
}

umount_slowfs() {
	umount "$mnt" || fail "cannot unmount $mnt"
	rc=0
	wait "$pid" || rc=$?
	pid=
	[ "$rc" -eq 0 ] || fail "slowfs exited with status $rc after the unmount: $(cat "$work/slowfs.err")"
}

# The source: every file type, odd names, sizes, modes, links.
mkdir -p "$src/d/e/f" "$src/empty" "$src/many"
printf 'hello\n' >"$src/d/hello.txt"
head -c 200000 /dev/urandom >"$src/d/e/random.bin"
: >"$src/zero"
printf x >"$src/with space"
printf y >"$src/-dash"
chmod 640 "$src/d/hello.txt"
chmod 700 "$src/d/e"
ln "$src/d/hello.txt" "$src/d/e/f/hardlink"
ln -s d/hello.txt "$src/symlink"
ln -s dangling "$src/d/dangling"
mkfifo "$src/d/fifo"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$src/d/socket"
i=0
while [ "$i" -lt 400 ]; do
	: >"$src/many/a_rather_long_file_name_to_fill_readdir_buffers_$i"
	i=$((i + 1))
done

mount_slowfs 0

listing() {
	(cd "$1" && find . -printf '%p %y %s %m %n %i %l\n' | LC_ALL=C sort)
}
listing "$src" >"$work/src.txt"
listing "$mnt" >"$work/mnt.txt"
[ "$(wc -l <"$work/src.txt")" -eq 416 ] || fail "the source has $(wc -l <"$work/src.txt") entries, not 416"
diff "$work/src.txt" "$work/mnt.txt" >&2 || fail "find -printf differs through the mount (< source, > mount)"

# d_ino and d_type as readdir(3) hands them out (os.scandir would stat when
# d_type is DT_UNKNOWN, hiding it).
scandir() {
	python3 - "$1" <<-'EOF'
		import ctypes, os, sys
		class Dirent(ctypes.Structure):
		    _fields_ = [("d_ino", ctypes.c_uint64), ("d_off", ctypes.c_int64),
		                ("d_reclen", ctypes.c_ushort), ("d_type", ctypes.c_ubyte),
		                ("d_name", ctypes.c_char * 256)]
		libc = ctypes.CDLL(None, use_errno=True)
		libc.opendir.restype = ctypes.c_void_p
		libc.opendir.argtypes = [ctypes.c_char_p]
		libc.readdir.restype = ctypes.POINTER(Dirent)
		libc.readdir.argtypes = [ctypes.c_void_p]
		libc.closedir.argtypes = [ctypes.c_void_p]
		def walk(top, rel):
		    d = libc.opendir(top)
		    if not d:
		        sys.exit(f"opendir {top}: {os.strerror(ctypes.get_errno())}")
		    subdirs = []
		    while True:
		        e = libc.readdir(d)
		        if not e:
		            break
		        name = e.contents.d_name
		        if name in (b".", b".."):
		            continue
		        print(os.path.join(rel, name.decode()), e.contents.d_ino, e.contents.d_type)
		        if e.contents.d_type == 4:
		            subdirs.append(name)
		    libc.closedir(d)
		    for name in subdirs:
		        walk(os.path.join(top, name), os.path.join(rel, name.decode()))
		walk(sys.argv[1].encode(), ".")
	EOF
}
scandir "$src" | LC_ALL=C sort >"$work/src.scandir"
scandir "$mnt" | LC_ALL=C sort >"$work/mnt.scandir"
diff "$work/src.scandir" "$work/mnt.scandir" >&2 || fail "readdir's d_ino or d_type differs through the mount"

cmp "$src/d/e/random.bin" "$mnt/d/e/random.bin" || fail "a file reads back different through the mount"
[ "$(readlink "$mnt/symlink")" = d/hello.txt ] || fail "readlink through the mount"
if (: >"$mnt/new") 2>/dev/null; then
	fail "created a file on the read-only mount"
fi
umount_slowfs

# 50 ms a request: one stat waits at least that; 32 stats in 32 threads
# would take 1.6 s or more one after the other, well under half that at once.
mount_slowfs 50000
python3 - "$mnt/many" <<-'EOF' || fail "slowfs does not delay, or does not delay in parallel"
	import os, sys, time
	from concurrent.futures import ThreadPoolExecutor
	top = sys.argv[1]
	names = sorted(os.listdir(top))[:33]
	t = time.monotonic()
	os.lstat(os.path.join(top, names[0]))
	one = time.monotonic() - t
	t = time.monotonic()
	with ThreadPoolExecutor(32) as pool:
	    list(pool.map(lambda n: os.lstat(os.path.join(top, n)), names[1:]))
	many = time.monotonic() - t
	print(f"one stat {one:.3f} s, 32 in parallel {many:.3f} s")
	sys.exit(0 if one >= 0.05 and many < 0.8 else 1)
EOF
umount_slowfs
echo "slowfs: the tree through the mount matches its source"
