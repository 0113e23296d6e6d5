#!/bin/sh
# licence.sh: the licence is stated: LICENSE exists and names MIT, and every
# source file (src/, include/, lua/, the bundled scripts, tools/) carries
# the SPDX line "SPDX-License-Identifier: MIT".
#
#	licence.sh SOURCE_DIR
#
# SPDX-License-Identifier: MIT
set -u
src=${1:?usage: licence.sh SOURCE_DIR}
failed=0
if ! grep -q '^MIT License$' "$src/LICENSE" 2>/dev/null; then
	echo "FAIL: $src/LICENSE is missing or is not the MIT licence"
	failed=$((failed + 1))
fi
n=0
missing=
for f in "$src"/src/*/*.[ch] "$src"/include/luafind/*.h "$src"/lua/luafind/*.lua \
	"$src"/share/luafind/scripts/*.lua "$src"/tools/*.sh; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	grep -q 'SPDX-License-Identifier: MIT' "$f" || missing="$missing ${f#"$src"/}"
done
# A check whose input is missing fails: no file is not a licensed tree.
if [ "$n" -lt 50 ]; then
	echo "FAIL: only $n source files under $src"
	failed=$((failed + 1))
elif [ -n "$missing" ]; then
	echo "FAIL: no SPDX line in:$missing"
	failed=$((failed + 1))
else
	echo "ok: LICENSE is MIT, and all $n source files say so"
fi
[ "$failed" -eq 0 ] && echo "1 passed" || echo "0 passed, $failed failed"
exit "$failed"
