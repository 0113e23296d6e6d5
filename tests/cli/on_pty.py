"""on_pty.py: run a command with its standard output and error on one
pseudo-terminal, as a user's terminal is, and take what it wrote: imported
by the color tests (colors.py, hyperlink.py).

SPDX-License-Identifier: MIT
"""
import os
import pty
import select


def on_pty(argv, env, cwd):
    """stdout and stderr of argv, both on one pty (\\r\\n made \\n)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execve(argv[0], argv, env)
    out = b""
    while True:
        try:
            r, _, _ = select.select([fd], [], [], 30)
            if not r:
                break
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    os.waitpid(pid, 0)
    os.close(fd)
    return out.replace(b"\r\n", b"\n")
