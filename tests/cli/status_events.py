#!/usr/bin/env python3
"""status_events.py: what a status line did on a terminal, one event a line.

    status_events.py FILE

FILE holds what a program wrote to a terminal (pty_run.py).  Printed, in
order: "region N" when the scrolling region became rows 1 to N (the line
is shown, or moved after a resize), "draw ROW WIDTH TEXT" for each drawing
of the line on row ROW (WIDTH: its columns, the text's characters), "reset"
when the whole screen scrolls again and the line is erased, and "output"
for each run of other printed text (without escape sequences).
"""
import re
import sys

EVENTS = re.compile(
    rb"\x1b7\x1b\[(\d+);1H\x1b\[K\x1b\[7m(.*?)\x1b\[27m\x1b8"  # a drawing
    rb"|\x1bD\x1b\[1A\x1b7\x1b\[1;(\d+)r\x1b8\x1b\[J"         # the region set
    rb"|\x1b7\x1b\[r\x1b8\x1b\[J",                             # the reset
    re.S)


def main():
    data = open(sys.argv[1], "rb").read()
    pos = 0
    for m in EVENTS.finditer(data):
        if data[pos:m.start()].strip():
            print("output")
        pos = m.end()
        if m.group(1) is not None:
            text = m.group(2).decode("utf-8", "replace")
            print("draw %s %d %s" % (m.group(1).decode(), len(text), text))
        elif m.group(3) is not None:
            print("region %s" % m.group(3).decode())
        else:
            print("reset")
    if data[pos:].strip():
        print("output")


if __name__ == "__main__":
    main()
