# chain: the report and cleanup scripts over the shared 100,000-level chain
# ($LUAFIND_TEST_CHAIN, made by the cli.chain_setup fixture) cost memory
# and time linear in the depth:
#   - du: peak RSS under 64 MiB (/usr/bin/time -f %M), where keeping every
#     directory's path took memory growing with the square of the depth
#     (10 GB here); under ulimit -v 1 GiB, so that a regression fails at
#     once instead of eating the machine;
#   - build-artifacts: under 10 s of user CPU time (/usr/bin/time -f %U;
#     the walks themselves take well under a second of it), where looking
#     paths up in its notes took time growing with the square of the depth
#     (31 s here).
. "$(dirname "$0")/lib.sh"

c=${LUAFIND_TEST_CHAIN:-}
[ -n "$c" ] && [ -d "$c/d" ] || { echo "FAIL: no chain at '$c' (LUAFIND_TEST_CHAIN)" >&2; exit 1; }
[ -x /usr/bin/time ] || skip_tool "GNU time (/usr/bin/time, package time)" "measuring du's peak RSS"

# AddressSanitizer reserves terabytes of address space and keeps freed
# blocks in quarantine: there the limits below do not apply (the bounds
# are the release build's), the rest is checked all the same.
vlimit=1048576 sanitized=false
if ldd "$luafind" 2>/dev/null | grep -q -e libasan -e libtsan; then
	vlimit=unlimited sanitized=true
fi

(ulimit -v $vlimit && exec /usr/bin/time -f %M -o rss "$luafind" --run du --top 3 "$c") >out 2>err
expect_status 0 "du --top 3 on the chain" $?
rss=$(tail -n 1 rss)
case $rss in '' | *[!0-9]*) fail "no peak RSS measured: $(cat rss)" ; rss=0 ;; esac
$sanitized || [ "$rss" -lt 65536 ] || fail "du on a 100,000-level chain: peak RSS $rss KiB, expected under 64 MiB"
printf '%s\n%s\n%s\n' "$c" "$c/d" "$c/d/d" >expected
cut -f2 out | cmp -s expected - || fail "du --top 3 on the chain printed: $(cut -c1-200 out)"
grep -q "^du: 100001 directories, " err || fail "du summary: $(cut -c1-200 err)"
echo "du --top 3 on a 100,000-level chain: peak RSS $rss KiB"

(ulimit -v $vlimit && exec /usr/bin/time -f %U -o cpu "$luafind" --run build-artifacts "$c") >out 2>err
expect_status 0 "build-artifacts on the chain" $?
cpu=$(tail -n 1 cpu)
case $cpu in '' | *[!0-9.]*) fail "no CPU time measured: $(cat cpu)" ; cpu=0 ;; esac
[ "${cpu%.*}" -lt 10 ] || fail "build-artifacts on a 100,000-level chain: $cpu s of user CPU time, expected under 10"
[ ! -s out ] || fail "build-artifacts on the chain printed: $(cut -c1-200 out)"
echo "build-artifacts on a 100,000-level chain: $cpu s of user CPU time"
finish
