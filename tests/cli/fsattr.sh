#!/bin/sh
# fsattr.sh: bfs's -xattr, -xattrname, -acl and -capable against bfs 4.1.4,
# on a tree of extended attributes, ACLs and capabilities this script makes.
#
#	fsattr.sh LUAFIND WORKDIR DRIVER CASES [--nodac|--dac] REFERENCE
#
# The tree is WORKDIR/trees/fsattr (below), on the build tree's file system;
# then DRIVER (diff_find.sh or diff_delete.sh, beside this script) runs the
# CASES in WORKDIR/trees.  The shared trees (trees.sh) carry no attributes:
# a file system that cannot hold them skips these tests (exit 77, on a CI
# run too, as the machine's, not a missing tool's), never the others.
#
# fsattr/
#   plain            no extended attribute
#   user             user.color=red            hard: a hard link of it
#   two              user.a, user.b            empty-value: user.e=""
#   dir/             user.dir, and dir/inner with user.color
#   acl              an ACL for uid 65534      acl-mask: a mask entry only
#   acl-gone         an ACL set, then removed (setfacl -b): trivial again
#   defacl/          a default ACL only; defacl/child inherits it as its ACL
#   cap              cap_net_raw+ep            cap-empty: capabilities, every set empty
#   l-user l-acl l-cap l-dir -> user acl cap dir     broken -> nowhere
#   secret           user.s, mode 000          closed/: mode 600, closed/f with user.f
# WORKDIR is removed when the driver passes (or skips).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

luafind=${1:?usage: fsattr.sh LUAFIND WORKDIR DRIVER CASES [--nodac|--dac] REFERENCE}
work=${2:?}
driver=${3:?}
cases=${4:?}
nodac=${5:?}
ref=${6:?}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
need_reference "$ref" "the reference of $(basename "$cases")"
need_cmd setfattr "setting extended attributes (Debian's attr)"
need_cmd setfacl "setting ACLs (Debian's acl)"
need_cmd setcap "setting file capabilities (Debian's libcap2-bin)"

rm_work "$work"
mkdir -p "$work/trees/fsattr"
clean_on_success "$work"
cd "$work/trees/fsattr" || exit 1

# What the file system and this user can do; a skip otherwise.
: >probe
setfattr -n user.probe -v 1 probe 2>/dev/null ||
	{ echo "skipped: $work holds no user.* extended attributes (its file system: $(stat -f -c %T .))"; exit 77; }
setfacl -m u:65534:r probe 2>/dev/null ||
	{ echo "skipped: $work holds no POSIX ACLs (its file system: $(stat -f -c %T .))"; exit 77; }
setcap cap_net_raw+ep probe 2>/dev/null ||
	{ echo "skipped: cannot set file capabilities here (root, CAP_SETFCAP, needed)"; exit 77; }
rm probe

set -e
: >plain
echo red >user
setfattr -n user.color -v red user
ln user hard
: >two
setfattr -n user.a -v 1 two
setfattr -n user.b -v 2 two
: >empty-value
setfattr -n user.e empty-value
mkdir dir
setfattr -n user.dir -v 1 dir
: >dir/inner
setfattr -n user.color -v blue dir/inner
: >acl
setfacl -m u:65534:r acl
: >acl-mask
setfacl -m m::r acl-mask
: >acl-gone
setfacl -m u:65534:r acl-gone
setfacl -b acl-gone
mkdir defacl
setfacl -d -m u:65534:rx defacl
: >defacl/child
: >cap
setcap cap_net_raw+ep cap
: >cap-empty
setcap = cap-empty
ln -s user l-user
ln -s acl l-acl
ln -s cap l-cap
ln -s dir l-dir
ln -s nowhere broken
: >secret
setfattr -n user.s -v 1 secret
chmod 000 secret
mkdir closed
: >closed/f
setfattr -n user.f -v 1 closed/f
chmod 600 closed
set +e

sh "$here/$driver" "$luafind" "$work/trees" "$cases" "$nodac" "$ref"
