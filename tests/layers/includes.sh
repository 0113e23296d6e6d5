#!/bin/sh
# includes.sh: the layers are folders, each knowing only those below it:
# core < find < lua < cli.  The public headers live together in
# include/luafind, each belonging to one layer (below).  Fails when a file
# of a lower layer includes a header that belongs to a higher one, whether
# as "name.h" or as <luafind/name.h>.
#
#	includes.sh SOURCE_DIR
set -u
root=${1:?usage: includes.sh SOURCE_DIR}
src=$root/src
pub=$root/include/luafind

fail() {
	echo "FAIL: $*"
	echo "0 passed, 1 failed"
	exit 1
}

# The layer of each public header.
public_layer() {
	case $1 in
	walk.h | mem.h | stat.h | isolate.h) echo core ;;
	query.h | error.h) echo find ;;
	luafind.h) echo lua ;;
	*) return 1 ;;
	esac
}

# A check whose input is missing fails: no sources are not clean ones.
for layer in core find lua cli; do
	ls "$src/$layer"/*.c >/dev/null 2>&1 || fail "no C sources in $src/$layer"
done
ls "$pub"/*.h >/dev/null 2>&1 || fail "no public headers in $pub"
for h in "$pub"/*.h; do
	public_layer "$(basename "$h")" >/dev/null ||
		fail "include/luafind/$(basename "$h"): a public header whose layer includes.sh does not know"
done

# The layers a header named $1 belongs to: its folder's, or its entry above.
layers_of() {
	if [ -f "$pub/$1" ]; then
		public_layer "$1"
	fi
	for l in core find lua cli; do
		[ -f "$src/$l/$1" ] && echo "$l"
	done
}

# check FILE LAYER HIGHER: FILE, of LAYER, includes no header of HIGHER.
up=
check() {
	for h in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p
		s/^#[[:space:]]*include[[:space:]]*<luafind\/\([^>]*\)>.*/\1/p' "$1"); do
		b=$(basename "$h")
		where=$(layers_of "$b")
		case " $(echo $where) " in *" $2 "*) continue ;; esac
		for hl in $3; do
			case " $(echo $where) " in
			*" $hl "*) up="$up
  ${1#"$root"/} ($2) includes $b ($hl)" ;;
			esac
		done
	done
}

for layer in core find lua; do
	case $layer in
	core) higher="find lua cli" ;;
	find) higher="lua cli" ;;
	lua) higher="cli" ;;
	esac
	for f in "$src/$layer"/*.c "$src/$layer"/*.h; do
		[ -f "$f" ] && check "$f" $layer "$higher"
	done
	for f in "$pub"/*.h; do
		[ "$(public_layer "$(basename "$f")")" = $layer ] && check "$f" $layer "$higher"
	done
done
if [ -n "$up" ]; then
	fail "includes that run up the layers (core < find < lua < cli):$up"
fi
echo "ok: no file includes a header of a higher layer"
echo "1 passed, 0 failed"
