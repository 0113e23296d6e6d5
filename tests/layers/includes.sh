#!/bin/sh
# includes.sh: the layers are folders, each knowing only those below it:
# core < find < lua < cli.  Fails when a file of a lower layer includes a
# header that lives in a higher one.
#
#	includes.sh SOURCE_DIR
set -u
src=${1:?usage: includes.sh SOURCE_DIR}/src
# A check whose input is missing fails: no sources are not clean ones.
for layer in core find lua cli; do
	if ! ls "$src/$layer"/*.c >/dev/null 2>&1; then
		echo "FAIL: no C sources in $src/$layer"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
up=
for layer in core find lua; do
	case $layer in
	core) higher="find lua cli" ;;
	find) higher="lua cli" ;;
	lua) higher="cli" ;;
	esac
	for f in "$src/$layer"/*.c "$src/$layer"/*.h; do
		[ -f "$f" ] || continue
		for h in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			b=$(basename "$h")
			[ -f "$src/$layer/$b" ] && continue
			for hl in $higher; do
				if [ -f "$src/$hl/$b" ]; then
					up="$up
  src/$layer/$(basename "$f") includes src/$hl/$b"
				fi
			done
		done
	done
done
if [ -n "$up" ]; then
	echo "FAIL: includes that run up the layers (core < find < lua < cli):$up"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "ok: no file includes a header of a higher layer"
echo "1 passed, 0 failed"
