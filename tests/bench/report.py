#!/usr/bin/env python3
"""report.py: turn bench.sh's raw results into tables (stdlib only).

    report.py times [--entries N] TITLE REF LINES_FILE JSON...
        One table for a query from hyperfine --export-json files (several
        files are rounds of the same query; their run times are pooled).
        Prints each command's median, the ratio of medians to the command
        named REF, the interquartile spread and the output line count from
        LINES_FILE (lines "name<TAB>count"); with --entries, the tree's
        N entries over each median too, in millions of entries a second
        (a throughput to set beside published figures).  Never a single
        run's time.

    report.py strace TITLE ENTRIES DIRS NAME=FILE...
        Syscall counts from `strace -f -c -o FILE` outputs, per entry of the
        tree (and per directory for the directory syscalls).
"""
import json
import statistics
import sys

STAT_CALLS = {"statx", "newfstatat", "fstatat64", "stat", "lstat", "fstat",
              "stat64", "lstat64", "fstat64"}


def quartiles(times):
    if len(times) < 2:
        return times[0], times[0], times[0]
    q = statistics.quantiles(times, n=4, method="inclusive")
    return q[0], statistics.median(times), q[2]


def times_table(title, ref, lines_file, json_files, entries=None):
    lines = {}
    with open(lines_file) as f:
        for row in f:
            name, _, count = row.rstrip("\n").partition("\t")
            lines[name] = count
    pooled = {}  # command name -> run times, in first-seen order
    for path in json_files:
        with open(path) as f:
            for result in json.load(f)["results"]:
                pooled.setdefault(result["command"], []).extend(result["times"])
    medians = {name: statistics.median(t) for name, t in pooled.items()}
    ref_median = medians.get(ref)

    print(f"\n== {title}" + (f" ({entries} entries)" if entries else ""))
    print(f"{'command':<12} {'median s':>10} {'vs find':>8} {'IQR/med':>8} "
          f"{'runs':>5} {'lines':>9}" + (f" {'M entries/s':>12}" if entries else ""))
    for name, t in pooled.items():
        q1, med, q3 = quartiles(t)
        ratio = f"{med / ref_median:8.2f}" if ref_median else f"{'-':>8}"
        spread = f"{100 * (q3 - q1) / med:7.1f}%" if med else f"{'-':>8}"
        rate = f" {entries / med / 1e6:12.2f}" if entries and med else ""
        print(f"{name:<12} {med:10.4f} {ratio} {spread} {len(t):5d} "
              f"{lines.get(name, '?'):>9}{rate}")
    for name, count in lines.items():
        if name not in pooled:
            print(f"{name:<12} {'skipped: ' + count}")


def read_strace(path):
    calls = {}
    with open(path) as f:
        for row in f:
            fields = row.split()
            # "% time seconds usecs/call calls [errors] syscall"
            if len(fields) in (5, 6) and fields[3].isdigit():
                calls[fields[-1]] = int(fields[3])
    return calls


def strace_table(title, entries, dirs, pairs):
    print(f"\n== syscalls: {title}: {entries} entries, {dirs} directories")
    print(f"{'command':<12} {'total':>9} {'/entry':>7} {'stats':>8} "
          f"{'/entry':>7} {'openat/dir':>10} {'getdents/dir':>12} "
          f"{'close/dir':>9}  other (/entry)")
    for pair in pairs:
        name, _, path = pair.partition("=")
        calls = read_strace(path)
        total = calls.pop("total", sum(calls.values()))
        stats = sum(n for c, n in calls.items() if c in STAT_CALLS)
        known = STAT_CALLS | {"openat", "getdents64", "close"}
        others = sorted(((n, c) for c, n in calls.items() if c not in known),
                        reverse=True)[:3]
        other = ", ".join(f"{c} {n / entries:.3f}" for n, c in others)
        print(f"{name:<12} {total:9d} {total / entries:7.3f} {stats:8d} "
              f"{stats / entries:7.3f} {calls.get('openat', 0) / dirs:10.2f} "
              f"{calls.get('getdents64', 0) / dirs:12.2f} "
              f"{calls.get('close', 0) / dirs:9.2f}  {other}")


def main(argv):
    if len(argv) >= 7 and argv[1] == "times" and argv[2] == "--entries":
        times_table(argv[4], argv[5], argv[6], argv[7:], int(argv[3]))
    elif len(argv) >= 5 and argv[1] == "times":
        times_table(argv[2], argv[3], argv[4], argv[5:])
    elif len(argv) >= 5 and argv[1] == "strace":
        strace_table(argv[2], int(argv[3]), int(argv[4]), argv[5:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
