#!/usr/bin/env python3
"""hyperlink.py: -hyperlink, OSC 8 file:// links around colored names.

    hyperlink.py LUAFIND WORKDIR

The exact bytes of -print, -ls and -printf under -hyperlink -color, for
names with a space, a non-ASCII character, a byte that is not UTF-8 and
the characters URIs reserve, from absolute and relative roots ("." , "..",
"./", a trailing slash); the URL of every name against GNU ls
--hyperlink=always's (the same bytes kept, hex digits in either case, ST
for ls 9.1's BEL); where links are not written (no colors: a pipe,
-nocolor, NO_COLOR, a -fprint file); on a terminal by default; and no
system call per entry (strace).  Exit 77 if a tool is missing.
"""
import os
import re
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from on_pty import on_pty  # noqa: E402

luafind, work = sys.argv[1], sys.argv[2]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def encode(b):
    """Percent-encoding as -hyperlink does it: RFC 3986's unreserved and '/' kept."""
    keep = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/"
    return b"".join(bytes([c]) if c in keep else b"%%%02X" % c for c in b)


def environ(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("LS_COLORS", "NO_COLOR", "COLORTERM")}
    # Directories blue, nothing else colored: the bytes stay short.
    env.update(TERM="xterm", LC_ALL="C.UTF-8", LS_COLORS="di=01;34:ln=01;36:ex=00:su=00:sg=00:mh=00")
    env.update(extra)
    return env


def run(args, cwd, **extra):
    return subprocess.run([luafind] + args, env=environ(**extra), cwd=cwd, capture_output=True).stdout


tree = os.path.join(work, "h")
shutil.rmtree(tree, ignore_errors=True)
os.makedirs(os.path.join(tree, "a b"))
os.chdir(tree)
cwd = os.getcwd().encode()  # getcwd's, as luafind's: no symbolic link in it
host = encode(socket.gethostname().encode())
cafe = "a b/caf\u00e9".encode()
odd = b"a b/x\xff"
reserved = b"a b/q?#%&=+;,:@!$'()*[]~_.-"
for name in (cafe, odd, reserved):
    open(name, "wb").close()
os.symlink("caf\u00e9", "a b/ln")

START, END = b"\033]8;;file://", b"\033]8;;\033\\"
DI, LN, RS = b"\033[01;34m", b"\033[01;36m", b"\033[0m"


def link(path):
    return START + host + encode(path) + b"\033\\"


# ---- exact bytes -------------------------------------------------------------------

cases = [
    # (cwd, args, expected)
    (tree, [".", "-name", "caf*"], link(cwd + b"/" + cafe) + DI + b"./a b/" + RS + "caf\u00e9".encode() + END + b"\n"),
    (tree, ["a b", "-name", "x*"], link(cwd + b"/" + odd) + DI + b"a b/" + RS + b"x?" + END + b"\n"),
    (tree, ["./a b/", "-name", "q*"], link(cwd + b"/" + reserved) + DI + b"./a b/" + RS + reserved[4:] + END + b"\n"),
    (tree, [cwd.decode() + "/a b", "-name", "caf*"],
     link(cwd + b"/" + cafe) + DI + cwd + b"/a b/" + RS + "caf\u00e9".encode() + END + b"\n"),
    # ".." at the start goes up from the working directory; "." is the directory itself.
    (os.path.join(tree, "a b"), ["../a b", "-name", "caf*"],
     link(cwd + b"/" + cafe) + DI + b"../a b/" + RS + "caf\u00e9".encode() + END + b"\n"),
    (os.path.join(tree, "a b"), [".", "-maxdepth", "0"], link(cwd + b"/a b") + DI + b"." + RS + END + b"\n"),
    (tree, [".//a b/../a b", "-maxdepth", "0"], link(cwd + b"/a b/../a b") + DI + b".//a b/../a b" + RS + END + b"\n"),
    ("/", [".", "-maxdepth", "0"], link(b"/") + DI + b"." + RS + END + b"\n"),
    ("/", ["..", "-maxdepth", "0"], link(b"/") + DI + b".." + RS + END + b"\n"),
    # -ls: the name is a link, not its target; -printf: %p %f %P each to the whole file, not %h.
    (tree, ["a b", "-name", "ln", "-printf", "%p|%f|%P|%h|%l\\n"],
     link(cwd + b"/a b/ln") + DI + b"a b/" + RS + LN + b"ln" + RS + END + b"|" +
     link(cwd + b"/a b/ln") + LN + b"ln" + RS + END + b"|" +
     link(cwd + b"/a b/ln") + LN + b"ln" + RS + END + b"|" +
     DI + b"a b" + RS + b"|caf\xc3\xa9\n"),
]
for where, args, want in cases:
    for spelling in ("-hyperlink", "--hyperlink"):
        got = run(args + [spelling, "-color"], where)
        if got != want:
            fail("%s %s in %s:\n  got  %r\n  want %r" % (" ".join(args), spelling, where, got, want))
out = run(["a b", "-name", "ln", "-hyperlink", "-color", "-ls"], tree)
if not out.endswith(b" " + link(cwd + b"/a b/ln") + DI + b"a\\ b/" + RS + LN + b"ln" + RS + END +
                    b" -> caf\\303\\251\n"):
    fail("-ls: %r" % out)
print("ok: -print, -ls, -printf: exact bytes from absolute and relative roots")

# ---- the same URLs as GNU ls ----------------------------------------------------------


def ls_url(name):
    out = subprocess.run(["ls", "-d", "--hyperlink=always", "--", name], env=environ(), cwd=tree,
                         capture_output=True).stdout
    m = re.match(rb"\033\]8;;(file://[^\a\033]*)(\a|\033\\)", out)
    return m.group(1) if m else None


def unhex(url):
    return re.sub(rb"%[0-9a-fA-F]{2}", lambda m: m.group(0).upper(), url)


if shutil.which("ls") and b"GNU coreutils" in subprocess.run(["ls", "--version"], capture_output=True).stdout:
    n = 0
    for name in (cafe, odd, reserved, b"a b"):
        out = run([name.decode("utf-8", "surrogateescape"), "-maxdepth", "0", "-hyperlink", "-color"], tree)
        m = re.match(rb"\033\]8;;(file://[^\033]*)\033\\", out)
        got = m.group(1) if m else None
        want = ls_url(name.decode("utf-8", "surrogateescape"))
        if got is None or want is None or unhex(got) != unhex(want):
            fail("%r: luafind's URL %r, ls's %r" % (name, got, want))
        n += 1
    print("ok: %d URLs as ls --hyperlink=always writes them (hex digits in upper case)" % n)
else:
    print("FAIL: GNU ls is missing: the reference URLs")
    sys.exit(1)

# ---- where links go -------------------------------------------------------------------------

osc = b"\033]8;"
if osc in run([".", "-color"], tree):
    fail("a link without -hyperlink")
if osc in run([".", "-hyperlink"], tree):
    fail("a link in a pipe without -color")
if osc in run([".", "-hyperlink", "-nocolor"], tree):
    fail("a link under -nocolor")
fprint = os.path.join(work, "f.txt")
run([".", "-hyperlink", "-color", "-fprint", fprint], tree)
if osc in open(fprint, "rb").read():
    fail("a link in a -fprint file")
env = environ()
out = on_pty([luafind, ".", "-name", "caf*", "-hyperlink"], env, tree)
if out != link(cwd + b"/" + cafe) + DI + b"./a b/" + RS + "caf\u00e9".encode() + END + b"\n":
    fail("on a terminal: %r" % out)
out = on_pty([luafind, ".", "-hyperlink"], environ(NO_COLOR="1"), tree)
if osc in out or b"\033[" in out:
    fail("NO_COLOR=1 on a terminal: %r" % out)
out = on_pty([luafind, ".", "-name", "caf*"], env, tree)
if osc in out:
    fail("a link on a terminal without -hyperlink: %r" % out)
print("ok: links where names are colored and -hyperlink is given, nowhere else")

# A working directory that is gone: a warning; absolute paths are links, relative ones not.
gone = os.path.join(work, "gone")
os.makedirs(gone, exist_ok=True)
p = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && exec "$0" "$2" . -maxdepth 0 -hyperlink -color',
                    luafind, gone, tree], env=environ(), capture_output=True)
want = link(cwd) + DI + cwd + RS + END + b"\n" + DI + b"." + RS + b"\n"
if p.stdout != want or b"-hyperlink: cannot read the working directory: No such file or directory" not in p.stderr:
    fail("a removed working directory: %r %r" % (p.stdout, p.stderr))
print("ok: without a working directory, links for absolute paths only, and a warning")

# ---- no system call per entry ----------------------------------------------------------------

if not shutil.which("strace"):
    print("FAIL: strace is missing: counting the system calls")
    sys.exit(1)
wide = os.path.join(work, "wide")
shutil.rmtree(wide, ignore_errors=True)
os.makedirs(wide)
for i in range(20):
    os.mkdir(os.path.join(wide, "d%d" % i))
    for j in range(30):
        open(os.path.join(wide, "d%d" % i, "f%d" % j), "w").close()


def calls(args):
    log = os.path.join(work, "strace.txt")
    subprocess.run(["strace", "-f", "-c", "-o", log, luafind] + args, env=environ(LUAFIND_IO_URING="0",
                   ASAN_OPTIONS="detect_leaks=0"), cwd=work, stdout=subprocess.DEVNULL)
    total = {}
    for line in open(log):
        f = line.split()
        if len(f) >= 5 and f[-1] not in ("total", "syscall") and f[3].isdigit():
            total[f[-1]] = int(f[3])
    return total


# One thread (-j1): the threads reading ahead make a varying number of calls.
plain, linked = calls(["-j1", "wide", "-color"]), calls(["-j1", "wide", "-color", "-hyperlink"])
extra = {k: linked.get(k, 0) - plain.get(k, 0) for k in set(plain) | set(linked)}
extra = {k: v for k, v in extra.items() if v and k not in ("write", "brk", "mmap", "munmap")}
if any(v > 1 for v in extra.values()) or sum(extra.values()) > 2:
    fail("-hyperlink costs system calls per entry (621 entries): %r" % extra)
print("ok: no system call per entry: %r more for the run" % extra)

print("%d failed" % failures)
sys.exit(1 if failures else 0)
