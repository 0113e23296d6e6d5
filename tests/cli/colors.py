#!/usr/bin/env python3
"""colors.py: luafind's colors against GNU ls's, on a pseudo-terminal.

    colors.py LUAFIND WORKDIR

A tree with every file type (a broken link, setuid and setgid files, sticky
and other-writable directories, a fifo, a socket, devices, hard links,
extensions in several cases) is listed by luafind on a pty, with the default
table (LS_COLORS unset) and with custom ones; for each name, the color
sequence luafind puts around it must be the one `ls -d --color=always NAME`
puts around it (the last lc..rc before the name, and what follows it).
Then: -nocolor, NO_COLOR (empty counts as unset), -color off a terminal,
-fprint, -ls, -printf, ca, and messages.  Exit 77 if a tool is missing.
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


def environ(ls_colors, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("LS_COLORS", "NO_COLOR", "COLORTERM")}
    env.update(TERM="xterm", LC_ALL="C")
    if ls_colors is not None:
        env["LS_COLORS"] = ls_colors
    env.update(extra)
    return env


def around(line, name, lc, rc):
    """(the last lc CODE rc before name, the bytes after it) in one line."""
    i = line.rfind(name)
    if i < 0:
        return None
    before, after = line[:i], line[i + len(name):]
    start = before.rfind(lc)
    code = None
    if start >= 0 and before.endswith(rc):
        code = before[start + len(lc):len(before) - len(rc)]
    return (code, after)


# ---- the tree ---------------------------------------------------------------

tree = os.path.join(work, "c")
shutil.rmtree(tree, ignore_errors=True)
os.makedirs(tree)
os.chdir(tree)
for d, mode in (("d", 0o755), ("sticky", 0o1755), ("ow", 0o777), ("tw", 0o1777)):
    os.mkdir(d)
    os.chmod(d, mode)
files = {"plain": 0o644, "x.c": 0o644, "Y.C": 0o644, "Mixed.Md": 0o644, "a.tar.gz": 0o644,
         "b.TAR.GZ": 0o644, "exe": 0o755, "exe.c": 0o755, "suid": 0o4755, "sgid": 0o2644,
         "hard1": 0o644, "README": 0o644}
for f, mode in files.items():
    open(f, "w").close()
    os.chmod(f, mode)
os.link("hard1", "hard2")
os.symlink("plain", "ln-file")
os.symlink("d", "ln-dir")
os.symlink("nowhere", "broken")
os.mkfifo("fifo")
s = socket.socket(socket.AF_UNIX)
s.bind("sock")
s.close()
if os.geteuid() == 0:
    os.mknod("chr", 0o644 | 0o020000, os.makedev(1, 3))
    os.mknod("blk", 0o644 | 0o060000, os.makedev(7, 0))
names = sorted(os.listdir("."))

# ---- luafind and ls choose the same colors -------------------------------------

tables = {
    "default": (None, "\033[", "m"),
    # ln=target, or, mi, ex, the types, extensions in other cases and a
    # later *.gz hiding an earlier *.tar.gz, mh, and rs.
    "custom": ("rs=0:di=01;33:ln=target:or=01;05;31:mi=01;37;41:ex=35:*.c=36:*.C=33:*.TAR.GZ=04;32:"
               "*.gz=01;31:*.md=32:*ME=01;36:pi=40;33:so=44:bd=45:cd=46:su=30;41:sg=30;46:tw=01;32:ow=34:"
               "st=04;34:mh=01;44:fi=00;37:do=01;35", "\033[", "m"),
    # lc, rc, ec and no with visible values; or set, no ln=target.
    "codes": ("lc=<:rc=>:ec=|:no=N:di=D:ln=L:or=O:ex=X:*.c=C:su=00:sg=0:tw=:ow=00:st=00", "<", ">"),
}
for tname, (ls_colors, lc, rc) in tables.items():
    env = environ(ls_colors)
    want = {}
    for n in names:
        out = subprocess.run(["ls", "-d", "--color=always", "--", n], env=env, capture_output=True).stdout
        line = out.decode("latin-1").split("\n")[0]
        want[n] = around(line, n, lc, rc)
    # As roots (stat'ed), and below one (d_type): both as ls colors them.
    roots = on_pty([luafind] + names + ["-maxdepth", "0"], env, tree).decode("latin-1").split("\n")
    below = on_pty([luafind, ".", "-mindepth", "1", "-printf", "%f\\n"], env, tree).decode("latin-1").split("\n")
    plain = re.compile("%s[^%s]*%s|\033\\[[0-9;]*m|[|]" % (re.escape(lc), re.escape(rc), re.escape(rc)))
    below = {plain.sub("", ln): ln for ln in below if ln}
    for i, n in enumerate(names):
        got = around(roots[i], n, lc, rc) if i < len(roots) else None
        if got != want[n]:
            fail("%s table, root %s: luafind %r, ls %r" % (tname, n, got, want[n]))
        got = around(below.get(n, ""), n, lc, rc)
        if got != want[n]:
            fail("%s table, ./%s: luafind %r, ls %r" % (tname, n, got, want[n]))
print("ok: colors of %d names as ls --color chooses them, with %d tables" % (len(names), len(tables)))

# ---- when colors are on -----------------------------------------------------------

esc = b"\033["
env = environ(None)
out = on_pty([luafind, ".", "-name", "x.c"], env, tree)
if out != b"\033[01;34m./\033[0mx.c\n":
    fail("-print on a terminal: %r" % out)
out = on_pty([luafind, ".", "-name", "d"], env, tree)
if out != b"\033[01;34m./d\033[0m\n":
    fail("-print of a directory: %r" % out)
for label, args, extra in (("-nocolor", ["-nocolor"], {}), ("NO_COLOR=1", [], {"NO_COLOR": "1"})):
    out = on_pty([luafind, ".", "-name", "d"] + args, environ(None, **extra), tree)
    if esc in out:
        fail("%s: colored: %r" % (label, out))
out = on_pty([luafind, ".", "-name", "d"], environ(None, NO_COLOR=""), tree)
if esc not in out:
    fail("an empty NO_COLOR turned colors off: %r" % out)
out = subprocess.run([luafind, ".", "-name", "d"], env=env, cwd=tree, capture_output=True).stdout
if esc in out:
    fail("colored off a terminal: %r" % out)
out = subprocess.run([luafind, ".", "-name", "d", "-color"], env=env, cwd=tree, capture_output=True).stdout
if out != b"\033[01;34m./d\033[0m\n":
    fail("-color off a terminal: %r" % out)
out = on_pty([luafind, ".", "-name", "d", "-fprint", os.path.join(work, "f.txt")], env, tree)
if esc in open(os.path.join(work, "f.txt"), "rb").read():
    fail("-fprint FILE colored")
print("ok: colors on a terminal unless -nocolor or NO_COLOR, always with -color, never in files")

# ---- -ls, -printf, ca ---------------------------------------------------------------

out = on_pty([luafind, ".", "-name", "ln-dir", "-ls"], env, tree)
if not out.endswith(b" \033[01;34m./\033[0m\033[01;36mln-dir\033[0m -> \033[01;34md\033[0m\n"):
    fail("-ls: %r" % out)
fmt = "%p|%f|%h|%H|%P|%l|%-6f|%10p\\n"
out = on_pty([luafind, ".", "-name", "ln-file", "-printf", fmt], env, tree)
di, ln, end = b"\033[01;34m", b"\033[01;36m", b"\033[0m"
want = (di + b"./" + end + ln + b"ln-file" + end + b"|" + ln + b"ln-file" + end + b"|" + di + b"." + end + b"|" +
        di + b"." + end + b"|" + ln + b"ln-file" + end + b"|plain|ln-file| ./ln-file\n")
if out != want:
    fail("-printf %r: %r, expected %r" % (fmt, out, want))
if shutil.which("setcap") and subprocess.run(["setcap", "cap_net_raw+ep", "plain"], capture_output=True).returncode == 0:
    # Debian's ls is built without libcap and never shows ca; GNU's and bfs's do.
    out = on_pty([luafind, "plain"], environ("ca=30;41"), tree)
    if out != b"\033[30;41mplain\033[0m\n":
        fail("ca: %r" % out)
    print("ok: ca for a file with capabilities")
print("ok: -ls and -printf color names as bfs does")

# ---- messages -------------------------------------------------------------------------

out = on_pty([luafind, "nowhere"], env, tree)
if out != b"\033[01;31mluafind:\033[0m 'nowhere': No such file or directory\n":
    fail("error message: %r" % out)
out = on_pty([luafind, ".", "-name", "x", "-maxdepth", "1", "-warn"], env, tree)
if b"\033[01;39mluafind:\033[0m \033[01;33mwarning:\033[0m you have specified" not in out:
    fail("warning: %r" % out)
out = on_pty([luafind, ".", "-naem", "x"], env, tree)
if b"\033[01;39m-naem\033[0m x\n" not in out or b"\033[01;31m^~~~~\033[0m\n" not in out:
    fail("usage error: %r" % out)
out = subprocess.run([luafind, "nowhere"], env=env, cwd=tree, capture_output=True).stderr
if esc in out:
    fail("message colored off a terminal: %r" % out)
print("ok: messages colored on a terminal as bfs colors them")

print("%d failed" % failures)
sys.exit(1 if failures else 0)
