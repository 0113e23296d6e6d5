#!/bin/sh
# setup.sh: install what is missing (Debian 12 packages, and bfs 4.1 built
# from ../shared/anchors when it is there), then configure and build
# luafind with a CMake preset (default: release).
#
#	tools/setup.sh [PRESET]
#
# Runs apt-get only when a package is missing, through sudo unless already
# root.  Never downloads anything but Debian packages.
#
# SPDX-License-Identifier: MIT
set -eu

preset=${1:-release}
cd "$(dirname "$0")/.."

packages="cmake gcc make pkg-config liblua5.4-dev lua5.4 libpcre2-dev libcmocka-dev liburing-dev
libcap2-bin strace bfs g++ libacl1-dev libcap-dev libonig-dev python3 git
man-db time bash-completion zsh fish libfuse3-dev libseccomp-dev jq attr acl"

# OpenMPI for the mpi preset alone (luafind-mpi, -DLUAFIND_MPI=ON): nothing
# else needs it.
if [ "$preset" = mpi ]; then
	packages="$packages libopenmpi-dev openmpi-bin"
fi

missing=
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "setup: installing$missing" >&2
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

# bfs 4.1, the reference where luafind follows POSIX over GNU find (Debian 12
# ships bfs 2.6), built once from the archive in ../shared/anchors when the
# checkout has it beside it, into build/tools.
bfs4=build/tools/bfs-4.1.4/bin/bfs
anchor=../shared/anchors/build-bfs4.sh
if [ ! -x "$bfs4" ] && [ -f "$anchor" ]; then
	echo "setup: building bfs 4.1.4 into build/tools" >&2
	sh "$anchor" "$PWD/build/tools" >/dev/null
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
