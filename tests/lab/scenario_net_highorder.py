#!/usr/bin/env python3
"""High-order allocation failures (compaction fails while free blocks of
32 KiB and more run out): not provoked here, and the row says why with
this machine's figures.

To provoke it, memory must be fragmented until no block of order 3 or more
is free outside DMA while tasks stall in reclaim. On this machine that
means filling most of its memory with pinned, scattered pages: every
other process on it (eight engineers' builds and tests share it) would
stall with the lab's, and nothing a scenario journals could give them
their time back. The scenario reads what the lab would start from
(/proc/buddyinfo, /proc/vmstat compact_fail) and skips with it.
"""

import labcore

META = {"name": "net-highorder", "kind": "problem",
        "symptom": "high-order allocation failures (compact_fail, free blocks of order 3+)"}


def free_high_order():
    """Free blocks of order 3 or more (32 KiB with 4 KiB pages) outside DMA."""
    total = 0
    with open("/proc/buddyinfo") as fh:
        for line in fh:
            f = line.split()
            if len(f) < 5 or f[3] == "DMA":
                continue
            total += sum(int(x) for x in f[4 + 3:])
    return total


def run(lab):
    with open("/proc/vmstat") as fh:
        vm = dict(l.split() for l in fh if l.strip())
    with open("/proc/meminfo") as fh:
        mem = dict((l.split(":")[0], l.split()[1]) for l in fh)
    raise labcore.Skip(
        "it needs memory fragmented until no block of 32 KiB or more is free while tasks stall "
        "in reclaim; here %s blocks of order 3+ are free outside DMA, %s MiB of %s MiB "
        "available, compact_fail %s since boot: getting there would stall every process on "
        "this shared machine, which no restore can undo" % (
            "{:,}".format(free_high_order()), "{:,}".format(int(mem["MemAvailable"]) // 1024),
            "{:,}".format(int(mem["MemTotal"]) // 1024), vm.get("compact_fail", "?")))


if __name__ == "__main__":
    labcore.main(META, run)
