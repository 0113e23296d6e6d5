#!/usr/bin/env python3
"""zsh_complete.py: what zsh's completion system makes of a command line.

    zsh_complete.py FPATH_DIR LINE...

Starts an interactive `zsh -f` on a pseudo-terminal with FPATH_DIR first in
$fpath and compinit run, then for each LINE types it followed by a Tab
(twice, so that a list of matches is shown) and prints what the terminal
showed, escape sequences removed, between "=== LINE" markers.  Errors of
the completion functions show there too.
"""
import os
import pty
import re
import select
import sys
import time

ANSI = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78DME])")


def read_for(fd, seconds, until=None):
    """What fd gives within seconds, stopping once it has been quiet for
    0.5 s after some output (or after until appeared)."""
    out = b""
    deadline = time.monotonic() + seconds
    end = deadline
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if until is None or until in out:
                end = min(deadline, time.monotonic() + 0.5)
    return out


def main():
    fpath, lines = sys.argv[1], sys.argv[2:]
    env = dict(os.environ, TERM="xterm", PS1="zsh> ", HISTFILE="/dev/null")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe("zsh", ["zsh", "-f", "-i"], env)
    os.write(fd, ("PS1='zsh> '; fpath=(%s $fpath); autoload -Uz compinit; compinit -u -D; "
                  "zstyle ':completion:*' list-prompt ''; echo READ''Y\n" % fpath).encode())
    read_for(fd, 10, b"READY\r\n")
    for line in lines:
        os.write(fd, line.encode() + b"\t")
        out = read_for(fd, 5)
        os.write(fd, b"\t")
        out += read_for(fd, 2)
        text = ANSI.sub(b"", out).replace(b"\r", b"").replace(b"\a", b"").decode("utf-8", "replace")
        print("=== " + line)
        print(text)
        os.write(fd, b"\x03")  # Ctrl-C: a fresh line
        read_for(fd, 2)
    os.write(fd, b"exit\n")
    read_for(fd, 1)
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
