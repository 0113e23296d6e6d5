# Failures: a file that cannot be removed (its directory is read-only) is
# reported once, everything else goes, the exit status is 1; the
# directories above it are not tried (no ENOTEMPTY cascade); a directory
# that cannot be read is reported and never counts as empty.  Runs without
# CAP_DAC_OVERRIDE when root, so that permissions stop it.
. "$(dirname "$0")/lib.sh"

nodac() {
	if [ "$(id -u)" -eq 0 ]; then
		capsh --drop=cap_dac_override,cap_dac_read_search -- -c 'exec "$0" "$@"' "$@"
	else
		"$@"
	fi
}
need_nodac "dropping root's DAC capabilities"

T=$work/t
mkdir -p "$T/ro/sub" "$T/ok" "$T/proj/ro/__pycache__" "$T/u/inner" "$T/ro/e"
touch "$T/ro/x~" "$T/ro/sub/y~" "$T/ok/z~" "$T/proj/ro/__pycache__/a.pyc" "$T/u/inner/w~"
chmod 555 "$T/ro" "$T/proj/ro"
chmod 000 "$T/u"

# editor-junk: ro/x~ fails once, the others go; u is reported.
nodac "$luafind" --run editor-junk --apply "$T" >out 2>err
expect_status 1 "editor-junk with failures" $?
[ "$(grep -c "x~: Permission denied" err)" -eq 1 ] || fail "x~ failure reported $(grep -c "x~" err) times: $(cat err)"
grep -q "^luafind: editor-junk: $T/u: Permission denied$" err || fail "unreadable u: $(cat err)"
[ -e "$T/ro/x~" ] && [ ! -e "$T/ro/sub/y~" ] && [ ! -e "$T/ok/z~" ] || fail "editor-junk removed the wrong files"
printf '%s\n' "$T/ok/z~" "$T/ro/sub/y~" | cmp -s - "$(sort out >out.s; echo out.s)" || fail "printed: $(cat out)"
grep -q "^editor-junk: removed 2 files, 0 directories, 0 bytes; 1 could not be removed, 1 read error$" err ||
	fail "summary: $(cat err)"

# A dry run removes nothing: its summary speaks of what could not be read
# only (it said "some files could not be removed or read"); so do the
# reports'.
touch "$T/ok/z~"
nodac "$luafind" --run editor-junk "$T" >out 2>err
expect_status 1 "editor-junk dry run with an unreadable directory" $?
grep -q "^editor-junk: would remove 2 files, 0 directories, 0 bytes; 1 read error (dry run: --apply removes them)$" err ||
	fail "dry-run summary: $(cat err)"
grep -q "removed" err && fail "dry-run summary speaks of removing: $(cat err)"
for report in du big-files duplicates; do
	nodac "$luafind" --run $report "$T" >out 2>err
	expect_status 1 "$report with an unreadable directory" $?
	grep -q "^$report: .*; 1 read error" err || fail "$report summary: $(cat err)"
	grep -q "removed" err && fail "$report summary speaks of removing: $(cat err)"
done
rm -f "$T/ok/z~"

# build-artifacts: the cache's contents go, the cache itself cannot: one
# message for it.
nodac "$luafind" --run build-artifacts --apply "$T/proj" >out 2>err
expect_status 1 "build-artifacts with failures" $?
[ "$(grep -c . err)" -eq 2 ] && grep -q "__pycache__: Permission denied" err || fail "build-artifacts: $(cat err)"
[ -d "$T/proj/ro/__pycache__" ] && [ ! -e "$T/proj/ro/__pycache__/a.pyc" ] || fail "build-artifacts: cache"

# empty-dirs: ro/e, ro/sub and proj/ro/__pycache__ fail (once each), ro is
# then not empty and not tried; u cannot be read so it is not empty, nor
# its parent.
nodac "$luafind" --run empty-dirs "$T" >dry 2>err
expect_status 1 "empty-dirs dry run" $?
grep -q "$T/u" dry && fail "empty-dirs would remove the unreadable u"
nodac "$luafind" --run empty-dirs --apply "$T" >out 2>err
expect_status 1 "empty-dirs with failures" $?
grep -q "^luafind: empty-dirs: $T/ro/e: Permission denied$" err || fail "empty-dirs: $(cat err)"
for p in ro/e ro/sub proj/ro/__pycache__ u; do
	[ "$(grep -c "^luafind: empty-dirs: $T/$p: Permission denied$" err)" -eq 1 ] || fail "empty-dirs: $p: $(cat err)"
done
[ "$(grep -c "^luafind: " err)" -eq 4 ] || fail "empty-dirs: $(cat err)"
grep -q -e ENOTEMPTY -e "not empty" err && fail "empty-dirs tried a non-empty directory: $(cat err)"
[ -d "$T/u" ] && [ -d "$T/ro/e" ] && [ ! -e "$T/ok" ] || fail "empty-dirs: wrong directories"

chmod -R u+rwx "$T"
finish
