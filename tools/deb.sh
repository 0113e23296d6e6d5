#!/bin/sh
# deb.sh: build luafind's Debian packages from this clone and check them
# with lintian.
#
#	tools/deb.sh
#
# Installs the Build-Depends that are missing (apt-get build-dep, through
# sudo unless root) and lintian, then builds from the tracked files as they
# are in the working tree (committed or not; untracked files are left out)
# in build/deb/luafind-VERSION, with `dpkg-buildpackage -us -uc -b`, and
# leaves the packages in build/deb:
#
#	build/deb/luafind_VERSION_ARCH.deb, lua-luafind_..., libluafind-dev_...
#	build/deb/luafind_VERSION_ARCH.changes, .buildinfo, build.log, lintian.log
#
# Fails when debian/changelog's upstream version is not CMakeLists.txt's
# project VERSION, when the build fails, or when lintian (-I --pedantic)
# reports an error or a warning; prints lintian's other tags.  The source
# copy is removed after a successful build; nothing is written outside
# build/deb.  debian/README.source says what the packages hold and why.
#
# SPDX-License-Identifier: MIT
set -eu
cd "$(dirname "$0")/.."

fail() {
	echo "deb: $*" >&2
	exit 1
}

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
apt_install() {
	echo "deb: installing $*" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
for p in dpkg-dev lintian; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || apt_install "$p"
done
if ! dpkg-checkbuilddeps 2>/dev/null; then
	echo "deb: installing the Build-Depends (apt-get build-dep ./)" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get build-dep -y -qq ./ >/dev/null
	dpkg-checkbuilddeps || fail "Build-Depends still unmet"
fi

version=$(dpkg-parsechangelog -S Version)
upstream=${version%-*}
project=$(sed -n 's/^project(luafind VERSION \([^ ]*\) .*/\1/p' CMakeLists.txt)
[ "$upstream" = "$project" ] ||
	fail "debian/changelog says $version, CMakeLists.txt's project VERSION is $project"

out=build/deb
src=$out/luafind-$upstream
rm -rf "$out"
mkdir -p "$out"
# The working tree's tracked files: a stash commit (no ref, no change to the
# index or the tree) when there are changes, HEAD when there are none.
tree=$(git -c user.name=deb.sh -c user.email=deb.sh@localhost stash create)
git archive --prefix="luafind-$upstream/" "${tree:-HEAD}" | tar -x -C "$out"

echo "deb: dpkg-buildpackage -us -uc -b in $src (log: $out/build.log)" >&2
if ! (cd "$src" && dpkg-buildpackage -us -uc -b -Jauto) >"$out/build.log" 2>&1; then
	tail -n 60 "$out/build.log" >&2
	fail "dpkg-buildpackage failed (the whole log: $out/build.log)"
fi
rm -rf "$src"

changes=$out/luafind_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).changes
[ -f "$changes" ] || fail "no $changes"
status=0
lintian -I --pedantic --fail-on error,warning "$changes" >"$out/lintian.log" 2>&1 || status=$?
cat "$out/lintian.log" >&2
if [ "$status" -ne 0 ] || grep -q '^[EW]: ' "$out/lintian.log"; then
	fail "lintian failed (exit $status) or reports errors or warnings (above)"
fi
echo "deb: lintian: no error, no warning; $(grep -c '^[IP]: ' "$out/lintian.log") info or pedantic tag(s) (debian/README.source)" >&2
ls "$out"/*.deb
