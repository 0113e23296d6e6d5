#!/bin/sh
# refuse_root.sh: -delete on a symbolic link to / under -H and -L (issue 20,
# item 10), for real, where a failure can only cost a scratch tmpfs.
#
#	refuse_root.sh LUAFIND SRC BUILD
#
# In a private mount namespace, a tmpfs becomes the root of a chroot that
# holds /usr, SRC and BUILD read-only (bind mounts), /proc, a writable /victim
# with files in it, and /rootlink -> /.  There `luafind -H /rootlink
# -delete`, `-L`, `-L -j1`, and lf.find(... "-H", "-delete") through
# --script must each be refused with find's message and a non-zero exit,
# and /victim must still be whole.  Before the fix, they emptied the
# chroot's writable files.  Needs root (or unshare's user namespaces): a
# skip otherwise, outside CI.
set -eu
luafind=$1 src=$2 build=$3
. "$(dirname "$0")/lib.sh"

need_cmd unshare "a private mount namespace for a chroot"
need_cmd chroot "a chroot where -delete can do no harm"
if [ "$(id -u)" -ne 0 ]; then
	unshare -rm true 2>/dev/null || skip_tool "root or user namespaces" "a chroot of our own"
	exec unshare -rm sh "$0" "$@"
fi
unshare -m true 2>/dev/null || skip_tool "unshare -m (mount namespaces)" "a chroot of our own"

root=$(mktemp -d /tmp/lf-refuse-root.XXXXXX)
trap 'rmdir "$root" 2>/dev/null || true' EXIT

# The whole test runs in the new namespace: its mounts vanish with it.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m --propagation private sh -eu -c '
root=$1 luafind=$2 src=$3 build=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
mount -t tmpfs -o size=16m lf-refuse "$root"
bind_ro() {
	mkdir -p "$root$1"
	mount --bind "$1" "$root$1"
	mount -o remount,bind,ro "$root$1"
}
bind_ro /usr
for l in bin lib lib64 sbin; do
	[ -L "/$l" ] && ln -s "$(readlink "/$l")" "$root/$l"
	[ -d "/$l" ] && [ ! -L "/$l" ] && bind_ro "/$l"
done
bind_ro "$src"
[ -d "$root$build" ] || bind_ro "$build"
mkdir -p "$root/tmp" "$root/dev" "$root/proc" "$root/victim/sub"
mount -t proc -o ro lf-refuse-proc "$root/proc" # /proc/self/exe: luafind finds its Lua files
: >"$root/dev/null"
chmod 666 "$root/dev/null"
echo precious >"$root/victim/a"
echo precious >"$root/victim/sub/b"
ln -s / "$root/rootlink"
cat >"$root/tmp/find.lua" <<EOF
local lf = require "luafind"
local ok, err = pcall(function()
  for e in lf.find("/rootlink", "-H", "-delete") do end
end)
io.stderr:write(tostring(err), "\n")
os.exit(ok and 0 or 3)
EOF

intact() {
	[ -f "$root/victim/a" ] && [ -f "$root/victim/sub/b" ] && [ -L "$root/rootlink" ] ||
		fail "$1: files outside what was named are gone"
}
for args in "-H /rootlink" "-L /rootlink" "-L -j1 /rootlink" "-H /rootlink/" "-L /rootlink -name nomatch -o"; do
	# shellcheck disable=SC2086 # the words of args
	if chroot "$root" "$luafind" $args -delete 2>"$root/tmp/err"; then
		fail "luafind $args -delete succeeded"
	fi
	grep -q "refusing to delete .*: it is the root directory /" "$root/tmp/err" ||
		{ cat "$root/tmp/err" >&2; fail "luafind $args -delete: no refusal"; }
	intact "luafind $args -delete"
	echo "ok: luafind $args -delete refused"
done
status=0
chroot "$root" "$luafind" --script /tmp/find.lua 2>"$root/tmp/err" || status=$?
[ "$status" -eq 3 ] || { cat "$root/tmp/err" >&2; fail "lf.find(\"/rootlink\", \"-H\", \"-delete\"): status $status"; }
grep -q "refusing to delete .*it is the root directory /" "$root/tmp/err" ||
	{ cat "$root/tmp/err" >&2; fail "lf.find -H -delete: no refusal"; }
intact "lf.find -H -delete"
echo "ok: lf.find(\"/rootlink\", \"-H\", \"-delete\") refused"
# Under -P the link is only a link: it goes, and nothing else.
chroot "$root" "$luafind" /rootlink -delete || fail "luafind -P /rootlink -delete failed"
[ ! -L "$root/rootlink" ] && [ -f "$root/victim/a" ] || fail "-P: the link was not removed as a link"
echo "ok: -P removes the link to / as a link"
' sh "$root" "$luafind" "$src" "$build"
echo "ok: -delete refuses a link to / under -H and -L"
