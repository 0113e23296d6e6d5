#!/bin/sh
# json.sh: -json, --json and -fjson, read back by a real JSON parser
# (Python's json module).
#
#	json.sh LUAFIND TREES WORKDIR CHECK
#
# CHECK is one of:
#   roundtrip  every name of the generated trees (weirdnames has every byte
#              0x01-0xff) comes back byte for byte: json.loads, then
#              os.fsencode (surrogateescape), compared with GNU find -print0;
#              valid UTF-8 is written as it is, no control byte raw
#   fields     -json FIELDS: exactly those keys, in order, with the values
#              os.lstat/os.stat, pwd, grp and os.readlink give; the default
#              set, the same keys for every entry; -fjson FILE; the action
#              suppresses the implied -print
#   lazy       a field list stats only when a field needs it, once per
#              entry (strace and --stats): path,name,depth,type none, the
#              default set one, shared with the expression's tests
#   jq         luafind DIR -json | jq 'select(.size > 1000)' selects what
#              find -size +1000c does (issue 22: it found only the root)
#   nulls      a stat that fails: the object is written all the same, its
#              stat fields null, the error reported, exit status 1; quiet
#              under -noerror (still status 1)
#   errors     unknown (with the list of fields), repeated and empty
#              fields, a path after --json, -fjson without a file; what
#              follows -json is a list only when it cannot be the expression
set -eu
. "$(dirname "$0")/lib.sh"

luafind=${1:?usage: json.sh LUAFIND TREES WORKDIR CHECK}
trees=${2:?}
work=${3:?}
check=${4:?}
mkdir -p "$work"
clean_on_success "$work"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

need_cmd python3 "parsing the JSON output"

# Stat-family syscalls made by "luafind $@", counted by strace (as checks.sh).
stat_calls() {
	LUAFIND_IO_URING=0 ASAN_OPTIONS=detect_leaks=0 strace -f -c -o "$work/strace.txt" "$luafind" "$@" >/dev/null
	awk '$NF ~ /^(newfstatat|statx|lstat|stat|fstat|fstatat64)$/ { s += $4 } END { print s + 0 }' "$work/strace.txt"
}

counter() {
	sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

check_roundtrip() {
	need_gnu_find "the reference list of names"
	cd "$trees"
	for root in weirdnames regexnames linkdirs special; do
		"$luafind" "$root" -json >"$work/out.json" || fail "$root: luafind -json failed"
		/usr/bin/find "$root" -print0 >"$work/ref.bin"
		python3 - "$work/out.json" "$work/ref.bin" "$root" <<'EOF' || fail "$root: the names did not round-trip"
import json, os, sys
out, ref, root = sys.argv[1:]
data = open(out, "rb").read()
assert data.endswith(b"\n"), "the output does not end with a newline"
lines = data[:-1].split(b"\n")
for line in lines:
    # NDJSON: one object per line, so no raw control byte inside (the names
    # hold every one of them), and no C1 control or U+2028/9 raw either.
    assert all(b >= 0x20 for b in line), "a raw control byte in %r" % line
    text = line.decode("utf-8")  # the text itself is always valid UTF-8
    assert not any(0x7f <= ord(c) <= 0x9f or c in "\u2028\u2029" for c in text), text
got = []
for line in lines:
    o = json.loads(line)
    path = os.fsencode(o["path"])
    name = os.fsencode(o["name"])
    assert path == name if path == root.encode() else path.endswith(b"/" + name), (path, name)
    try:
        valid = path.decode("utf-8")
    except UnicodeDecodeError:
        valid = None
    # A name that is valid UTF-8 is written as it is: no surrogate escape.
    if valid is not None:
        assert o["path"] == valid, (o["path"], valid)
    assert o["type"] in "fdlpscb" and len(o["type"]) == 1, o
    got.append(path)
want = [p for p in open(ref, "rb").read().split(b"\0") if p]
if sorted(got) != sorted(want):
    sys.exit("got %d names, want %d; missing %r, extra %r" % (
        len(got), len(want), sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
print("ok: %d names of %s round-trip" % (len(got), root))
EOF
	done
	# Every byte of the tree's names in one place: they must all be there.
	"$luafind" weirdnames -name 'hi*' -json name | python3 -c '
import json, os, sys
names = {os.fsencode(json.loads(l)["name"]) for l in sys.stdin}
assert names == {b"hi" + bytes(range(0x80, 0xc0))}, names
print("ok: bytes 0x80-0xbf come back as themselves")'
}

check_fields() {
	cd "$trees"
	f=path,name,depth,type,size,mode,perm,uid,gid,user,group,nlink,ino,dev,rdev,blocks,atime,mtime,ctime,btime,target
	for opt in "" -L; do
		# shellcheck disable=SC2086
		"$luafind" $opt linkdel linkdirs basic -json "$f" >"$work/out.json" || true
		python3 - "$work/out.json" "$f" "$opt" <<'EOF' || fail "-json $f ($opt): wrong values"
import grp, json, os, pwd, stat, sys
out, fields, opt = sys.argv[1:]
fields = fields.split(",")
types = {stat.S_IFREG: "f", stat.S_IFDIR: "d", stat.S_IFLNK: "l", stat.S_IFIFO: "p",
         stat.S_IFSOCK: "s", stat.S_IFCHR: "c", stat.S_IFBLK: "b"}
def tm(ns):  # seconds with nine fractional digits, as written
    return float("%d.%09d" % divmod(ns, 10**9)) if ns >= 0 else None
n = 0
for line in open(out, "rb"):
    o = json.loads(line)
    assert list(o) == fields, list(o)
    p = os.fsencode(o["path"])
    st = os.lstat(p)
    if opt == "-L":
        try:
            st = os.stat(p)
        except OSError:
            pass  # a broken link is described by itself
    assert o["name"] == os.path.basename(o["path"]) or o["depth"] == 0, o
    assert o["depth"] == o["path"].count("/"), o  # the roots have no slash
    assert o["type"] == types[stat.S_IFMT(st.st_mode)], (o, st)
    for k, v in [("size", st.st_size), ("mode", st.st_mode), ("perm", stat.S_IMODE(st.st_mode)),
                 ("uid", st.st_uid), ("gid", st.st_gid), ("nlink", st.st_nlink), ("ino", st.st_ino),
                 ("dev", st.st_dev), ("rdev", st.st_rdev), ("blocks", st.st_blocks)]:
        assert o[k] == v and type(o[k]) is int, (k, o[k], v)
    # Reading a directory or a link (target) may move its atime after luafind's stat.
    for k in ("atime", "mtime", "ctime") if o["type"] == "f" else ("mtime", "ctime"):
        assert o[k] == tm(getattr(st, "st_%s_ns" % k)), (k, o[k], getattr(st, "st_%s_ns" % k))
    assert o["btime"] is None or isinstance(o["btime"], float), o
    try:
        assert o["user"] == pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        assert o["user"] is None
    try:
        assert o["group"] == grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        assert o["group"] is None
    if o["type"] == "l":
        assert os.fsencode(o["target"]) == os.readlink(p), o
    else:
        assert o["target"] is None, o
    n += 1
assert n > 20, n
print("ok: %d entries, every field as os.stat says (%s)" % (n, opt or "-P"))
EOF
	done
	# The text of the times: nine fractional digits, exact.
	t=$work/t
	mkdir -p "$t"
	touch -d '@1700000000.123456789' "$t/f"
	touch -d '@-2.5' "$t/old" 2>/dev/null || true
	"$luafind" "$t/f" -json mtime | grep -qx '{"mtime":1700000000.123456789}' || fail "mtime is not written with nanoseconds"
	if [ "$(stat -c %Y "$t/old")" = -3 ]; then
		"$luafind" "$t/old" -json mtime | grep -qx '{"mtime":-2.500000000}' || fail "a time before 1970"
	fi
	# The default set: the same keys for every entry, whatever the
	# expression fetched before -json.
	"$luafind" "$t" -json >"$work/default.json"
	"$luafind" "$t" -name f -size -1k -json , ! -name f -json >>"$work/default.json"
	python3 - "$work/default.json" <<'EOF' || fail "the default set"
import json, os, sys
keys = ["path", "name", "depth", "type", "size", "mode", "uid", "gid", "nlink", "ino", "dev", "atime", "mtime", "ctime"]
n = 0
for line in open(sys.argv[1], "rb"):
    o = json.loads(line)
    assert list(o) == keys, list(o)
    st = os.lstat(os.fsencode(o["path"]))
    assert (o["size"], o["mode"], o["ino"]) == (st.st_size, st.st_mode, st.st_ino), o
    n += 1
assert n >= 6, n
print("ok: %d objects of the default set, all with its %d keys" % (n, len(keys)))
EOF
	# An action: no implied -print; with -print, both; --json is -json.
	out=$("$luafind" "$t" -name f -json path)
	[ "$out" = "{\"path\":\"$t/f\"}" ] || fail "-json printed more than the object: $out"
	out=$("$luafind" "$t" -name f --json path -print)
	[ "$out" = "{\"path\":\"$t/f\"}
$t/f" ] || fail "--json path -print: $out"
	# -fjson FILE [FIELDS], a file shared with -fprint.
	"$luafind" "$t" -name f -fjson "$work/f.json" path,size -fprint "$work/f.json" >"$work/stdout"
	[ ! -s "$work/stdout" ] || fail "-fjson wrote to standard output"
	[ "$(cat "$work/f.json")" = "{\"path\":\"$t/f\",\"size\":0}
$t/f" ] || fail "-fjson: $(cat "$work/f.json")"
	echo "ok: the default set, -json as an action, --json, -fjson, times to the nanosecond"
}

check_lazy() {
	need_strace "counting the stat calls of -json"
	t=$work/wide
	rm_work "$t"
	mkdir -p "$t/empty"
	i=0
	while [ $i -lt 20 ]; do
		mkdir "$t/d$i"
		(cd "$t/d$i" && seq 1 49 | sed 's/^/f/' | xargs touch)
		i=$((i + 1))
	done
	# 1,001 entries below $t: 20 directories, 980 files, one empty dir.
	for args in "-json path,name,depth,type" "--json path" "-name f1* -json name,type" "-json target" \
		"-json depth -fjson /dev/null path"; do
		# shellcheck disable=SC2086
		n=$(stat_calls "$t" $args)
		# shellcheck disable=SC2086
		base=$(stat_calls "$t/empty" $args)
		[ "$n" -eq "$base" ] || fail "strace: $args made $n stat calls, $base for an empty dir"
		# shellcheck disable=SC2086
		s=$("$luafind" --stats "$t" $args 2>&1 >/dev/null | counter stats)
		[ "$s" -eq 1 ] || fail "$args: stats=$s, expected 1 (the root)"
	done
	for args in "-json" "--json" "-json size" "-json path,mtime,user" "-size -1k -json" "-fjson /dev/null" \
		"-json -json size"; do
		# shellcheck disable=SC2086
		n=$(stat_calls "$t" $args)
		# shellcheck disable=SC2086
		base=$(stat_calls "$t/empty" $args) # user names: NSS stats its files
		[ "$n" -eq $((base + 1001)) ] || fail "strace: $args made $n stat calls, expected $base + 1001"
		# shellcheck disable=SC2086
		s=$("$luafind" --stats "$t" $args 2>&1 >/dev/null | counter stats)
		[ "$s" -eq 1002 ] || fail "$args: stats=$s, expected 1002 (one per entry)"
	done
	base=$(stat_calls "$t/empty" -type f -size -1k -json)
	n=$(stat_calls "$t" -type f -size -1k -json)
	[ "$n" -eq $((base + 980)) ] || fail "strace: -type f -size -1k -json made $n, expected $base + 980"
	echo "ok: strace: a field list stats only for stat fields, the default set once per entry"
}

check_jq() {
	need_cmd jq "the pipeline of issue 22"
	need_gnu_find "the reference selection (-size +1000c)"
	t=$work/sizes
	rm_work "$t"
	mkdir -p "$t/sub"
	head -c 5000 /dev/zero >"$t/big"
	head -c 1001 /dev/zero >"$t/just"
	head -c 1000 /dev/zero >"$t/edge"
	: >"$t/empty"
	ln -s big "$t/link"
	"$luafind" "$t" -maxdepth 1 -json | jq -r 'select(.size > 1000) | .path' | sort >"$work/got" ||
		fail "luafind -json | jq failed"
	/usr/bin/find "$t" -maxdepth 1 -size +1000c | sort >"$work/want"
	grep -qx "$t/big" "$work/want" && grep -qx "$t/just" "$work/want" || fail "find: $(cat "$work/want")"
	cmp -s "$work/got" "$work/want" || fail "jq 'select(.size > 1000)': $(cat "$work/got"), expected $(cat "$work/want")"
	# Under -L the link is its target.
	"$luafind" -L "$t" -maxdepth 1 -json | jq -r 'select(.size > 1000) | .path' | sort >"$work/got"
	/usr/bin/find -L "$t" -maxdepth 1 -size +1000c | sort >"$work/want"
	cmp -s "$work/got" "$work/want" || fail "-L: $(cat "$work/got"), expected $(cat "$work/want")"
	echo "ok: luafind DIR -json | jq 'select(.size > 1000)' selects what find -size +1000c does"
}

check_nulls() {
	need_nodac "a stat that fails as root"
	t=$work/nulls
	rm_work "$t"
	mkdir -p "$t/d" "$t/a"
	: >"$t/d/f"
	: >"$t/a/g"
	chmod 600 "$t/d" # readable, not searchable: d/f is listed, its stat fails
	for args in "-json" "-json path,size,type" "-fjson $work/out.f path,size,type"; do
		status=0
		# shellcheck disable=SC2086
		run_as --nodac "$luafind" "$t" $args >"$work/out" 2>"$work/err" || status=$?
		case $args in -fjson*) cp "$work/out.f" "$work/out" ;; esac
		[ "$status" -eq 1 ] || fail "$args: status $status, expected 1"
		[ "$(cat "$work/err")" = "luafind: '$t/d/f': Permission denied" ] || fail "$args: said $(cat "$work/err")"
		python3 - "$work/out" "$t" "$args" <<'EOF' || fail "$args: the failed entry"
import json, sys
out, t, args = sys.argv[1:]
objs = [json.loads(l) for l in open(out, "rb")]
assert len(objs) == 5, objs
keys = list(objs[0])
assert all(list(o) == keys for o in objs), objs  # never a key missing
f = [o for o in objs if o["path"] == t + "/d/f"]
assert len(f) == 1, objs  # never an entry dropped
f = f[0]
assert f["type"] == "f" and f["size"] is None, f
if args == "-json":
    assert all(f[k] is None for k in keys[4:]) and f["name"] == "f" and f["depth"] == 2, f
assert all(o["size"] is not None for o in objs if o is not f), objs
EOF
	done
	# -noerror: the same objects, no message, status 1 all the same.
	rc=0
	run_as --nodac "$luafind" "$t" -noerror -json >"$work/out" 2>"$work/err" || rc=$?
	[ $rc -eq 1 ] || fail "-noerror: status $rc"
	[ ! -s "$work/err" ] || fail "-noerror: said $(cat "$work/err")"
	grep -qF "{\"path\":\"$t/d/f\",\"name\":\"f\",\"depth\":2,\"type\":\"f\",\"size\":null," "$work/out" ||
		fail "-noerror: $(cat "$work/out")"
	# A test that stat'ed first: one message, not two.
	status=0
	run_as --nodac "$luafind" "$t" -name f -size -1k -json >"$work/out" 2>"$work/err" || status=$?
	[ "$status" -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] ||
		fail "-size then -json: status $status, $(cat "$work/err") $(cat "$work/out")"
	chmod 700 "$t/d"
	echo "ok: a stat that fails: null fields, the entry kept, the error reported (quiet under -noerror)"
}

check_errors() {
	cd "$trees"
	expect_error() { # expect_error MESSAGE ARGS...
		msg=$1
		shift
		if "$luafind" "$@" >"$work/out" 2>"$work/err"; then
			fail "$* succeeded"
		fi
		[ ! -s "$work/out" ] || fail "$*: wrote to standard output"
		grep -qF -- "$msg" "$work/err" || fail "$*: no '$msg' in: $(cat "$work/err")"
	}
	expect_error "-json: unknown field \`szie'" basic -json path,szie
	expect_error "did you mean \`size'?" basic -json path,szie
	expect_error "-json: repeated field \`path'" basic -json path,name,path
	expect_error "-json: empty field name in \`path,'" basic -json path,
	expect_error "paths come before the expression" --json basic
	expect_error "missing argument to \`-fjson'" basic -fjson
	expect_error "-fjson: unknown field \`x'" basic -fjson "$work/f" x
	all="path name depth type size mode uid gid nlink ino dev atime mtime ctime btime perm user group rdev blocks target"
	expect_error "fields: $all" basic -json xyzzy
	expect_error "fields: $all" basic -json path,szie
	expect_error "empty field name in \`'" basic -json ""
	for f in $all; do
		"$luafind" basic -maxdepth 0 -json "$f" >/dev/null || fail "the listed field $f is refused"
	done
	# shellcheck disable=SC2086
	[ "$(printf '%s\n' $all | wc -l)" -eq 21 ] || fail "the list has not every field"
	# What follows -json is the expression when it looks like it.
	"$luafind" basic -maxdepth 0 -json ! -name x >/dev/null || fail "-json ! -name x"
	"$luafind" basic -maxdepth 0 \( -json \) >/dev/null || fail "( -json )"
	out=$("$luafind" basic -maxdepth 0 -json -print) || fail "-json -print"
	[ "$(echo "$out" | sed -n 2p)" = basic ] || fail "-json -print: $out"
	out=$("$luafind" basic -maxdepth 0 -json , -print) || fail "-json , -print"
	[ "$(echo "$out" | sed -n 2p)" = basic ] || fail "-json , -print: $out"
	out=$("$luafind" basic -maxdepth 0 -json name -print) || fail "-json name -print"
	[ "$out" = '{"name":"basic"}
basic' ] || fail "-json name -print: $out"
	echo "ok: field lists are checked, with suggestions"
}

"check_$check"
