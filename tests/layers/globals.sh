#!/bin/sh
# globals.sh: below the executable nothing keeps writable global state: nm of
# the find library lists no b/B/d/D symbol, and the core none but its
# atomic one-time probe (statx_missing, stat.c).
#
#	globals.sh LIBLF_FIND LIBLF_CORE
set -u
find_lib=${1:?usage: globals.sh LIBLF_FIND LIBLF_CORE}
core_lib=${2:?}
. "$(dirname "$0")/../cli/lib.sh"
need_cmd nm "listing the libraries' symbols (binutils)"
# A check whose input is missing fails: no library is not a clean one.
for lib in "$find_lib" "$core_lib"; do
	if [ ! -f "$lib" ] || ! nm "$lib" >/dev/null 2>&1 || [ -z "$(nm "$lib" 2>/dev/null | grep ' [TtDdBbRr] ')" ]; then
		echo "FAIL: $lib is missing or has no symbols"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
failed=0
bad=$(nm -A "$find_lib" | grep ' [bBdD] ')
if [ -n "$bad" ]; then
	echo "FAIL: writable symbols in the find library:"
	echo "$bad"
	failed=$((failed + 1))
else
	echo "ok: the find library has no writable global or static symbol"
fi
bad=$(nm -A "$core_lib" | grep ' [bBdD] ' | grep -v ':stat\.c\.o:[0-9a-f]* b statx_missing$')
if [ -n "$bad" ]; then
	echo "FAIL: writable symbols in the core:"
	echo "$bad"
	failed=$((failed + 1))
else
	echo "ok: the core has no writable global or static symbol but its one-time probe"
fi
echo "$((2 - failed)) passed, $failed failed"
[ $failed -eq 0 ]
