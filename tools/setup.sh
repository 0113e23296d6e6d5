#!/bin/sh
# setup.sh: install what is missing (Debian 12 packages), then configure and
# build luafind with a CMake preset (default: release).
#
#	tools/setup.sh [PRESET]
#
# Runs apt-get only when a package is missing, through sudo unless already
# root.  Never downloads anything but Debian packages.
set -eu

preset=${1:-release}
cd "$(dirname "$0")/.."

packages="cmake gcc make pkg-config liblua5.4-dev lua5.4 libpcre2-dev libcmocka-dev
libcap2-bin strace bfs g++"

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

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
