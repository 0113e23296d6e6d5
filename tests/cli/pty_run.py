#!/usr/bin/env python3
"""pty_run.py: run a command on a pseudo-terminal and save what it wrote.

    pty_run.py OUT COLS ROWS [AT:ACTION]... -- COMMAND [ARG...]

The command's standard input, output and error are the terminal (redirect
inside COMMAND, e.g. with sh -c, to make one of them something else), an
xterm ($TERM) of COLS x ROWS from the start.  Each AT:ACTION happens AT seconds after
the start: "int" and "term" send SIGINT or SIGTERM to the command, "C,R"
resizes the terminal (the kernel sends SIGWINCH).  Everything the command
wrote goes to OUT, raw; the exit status is the command's, or 128 + N when
signal N ended it.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def main():
    out_path, cols, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rest = sys.argv[4:]
    sep = rest.index("--")
    actions = []
    for a in rest[:sep]:
        at, what = a.split(":", 1)
        actions.append((float(at), what))
    actions.sort()
    argv = rest[sep + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            # Python ignores SIGPIPE and SIGXFSZ, which exec would keep.
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            os.environ["TERM"] = "xterm"
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    set_size(fd, cols, rows)
    start = time.monotonic()
    data = bytearray()
    status = None
    while True:
        elapsed = time.monotonic() - start
        while actions and actions[0][0] <= elapsed:
            _, what = actions.pop(0)
            if what == "int":
                os.kill(pid, signal.SIGINT)
            elif what == "term":
                os.kill(pid, signal.SIGTERM)
            else:
                c, r = what.split(",")
                set_size(fd, int(c), int(r))
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the command and its children are gone
                chunk = b""
            if not chunk:
                break
            data += chunk
        if status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
        if elapsed > 60:
            os.kill(pid, signal.SIGKILL)
    if status is None:
        _, status = os.waitpid(pid, 0)
    with open(out_path, "wb") as f:
        f.write(data)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
