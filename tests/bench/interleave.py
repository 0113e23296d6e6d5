#!/usr/bin/env python3
"""interleave.py: compare commands in interleaved hyperfine rounds (not part of ctest).

    interleave.py ROUNDS RUNS NAME=COMMAND...

Runs `hyperfine -N -w 1 -r RUNS` over all the commands ROUNDS times, the
commands' order reversed every other round so that drift on a shared
machine falls on all of them alike, and prints each command's median over
all its runs and the ratio to the first command's.  COMMAND is split as
hyperfine -N splits it (quote arguments with spaces).  Stop other work on
the machine first: the medians are only as quiet as the machine.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) < 4 or not argv[1].isdigit() or not argv[2].isdigit():
        sys.exit(__doc__)
    rounds, runs = int(argv[1]), int(argv[2])
    cmds = [a.split("=", 1) for a in argv[3:]]
    if any(len(c) != 2 for c in cmds):
        sys.exit("interleave.py: each command is NAME=COMMAND")
    times = {name: [] for name, _ in cmds}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "round.json")
        for r in range(rounds):
            args = ["hyperfine", "-N", "-w", "1", "-r", str(runs), "--output", "null", "--export-json", out]
            for name, cmd in (cmds if r % 2 == 0 else cmds[::-1]):
                args += ["--command-name", name, cmd]
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            with open(out) as f:
                for res in json.load(f)["results"]:
                    times[res["command"]].extend(res["times"])
    ref = statistics.median(times[cmds[0][0]])
    for name, _ in cmds:
        med = statistics.median(times[name])
        print(f"{name:<14} median {med * 1000:8.1f} ms  ratio to {cmds[0][0]}: {med / ref:5.3f}  "
              f"n={len(times[name])}")


if __name__ == "__main__":
    main(sys.argv)
