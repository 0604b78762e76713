#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: an O_DIRECT reader at read_ahead_kb 64.

A loop device over a cold file of 1 GiB (labcache.loop_device) at
read_ahead_kb 64 (journalled), under the kernel's default of 128. A reader
reads it from start to end with O_DIRECT, 1 MiB a read, as `dd
iflag=direct bs=1M` or a database does, for 30 s: no page cache, no
read-ahead; the device's requests are the reader's, far past the window. A
small window whose reads "fill" it once named read_ahead_kb up, which an
O_DIRECT reader never uses.

The right answer: no finding and no tune: line naming read_ahead_kb. The
reads must have been there: 100 a second or more, of 512 KiB or more.
"""

import mmap
import os
import time

import labcache
import labcore
import labneg

META = {"name": "neg-odirect-ra64", "kind": "negative",
        "symptom": "an O_DIRECT reader of 1 MiB at read_ahead_kb 64"}

SECONDS = 30
MIB = 1024


def run(lab):
    backing = os.path.join("/var/tmp", labcache.name_of(lab, "disk"))
    dev = labcache.loop_device(lab, backing, MIB)
    name = os.path.basename(dev)
    lab.write("/sys/block/%s/queue/read_ahead_kb" % name, "64")
    res = lab.result
    res["where"] = "the host; %s over a cold file of %d MiB on this machine's disk" % (dev, MIB)
    res["setup"] = "read_ahead_kb 64; O_DIRECT reads of 1 MiB from start to end for %d s" % (
        SECONDS)

    def wrong(x):
        t = x.get("TUNABLE", "") if isinstance(x, dict) else x.line
        return "read-ahead for an O_DIRECT reader" if "read_ahead_kb" in (t or "") else None

    def work():
        s0 = labcache.disk_stat(dev)
        p = labcore.Workload(lab, labcore.workload_argv(__file__, "direct", dev, SECONDS))
        deadline = time.monotonic() + SECONDS + 30
        while p.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(1)
        p.stop()
        s1 = labcache.disk_stat(dev)
        reads, sectors = s1[0] - s0[0], s1[2] - s0[2]
        res["workload_figures"] = {"reads_s": round(reads / SECONDS, 1),
                                   "kib_per_read": round(sectors / 2.0 / max(1, reads), 1)}
        res.note("%s: %.0f reads/s of %.1f KiB on average" % (
            name, reads / SECONDS, sectors / 2.0 / max(1, reads)))
        assert reads / SECONDS >= 100 and sectors / 2.0 / max(1, reads) >= 512, \
            "the reads were not the symptom's: %r" % res["workload_figures"]

    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        labneg.watch(lab, stack, work, wrong, "O_DIRECT reads of 1 MiB on %s for %d s" % (
            dev, SECONDS))


def direct(dev, seconds):
    """Read dev from start to end with O_DIRECT, 1 MiB a read, over again."""
    fd = os.open(dev, os.O_RDONLY | os.O_DIRECT)
    size = os.lseek(fd, 0, os.SEEK_END)
    buf = mmap.mmap(-1, 1 << 20)
    t0 = time.monotonic()
    off = n = 0
    while time.monotonic() - t0 < float(seconds):
        os.preadv(fd, [buf], off)
        off = (off + (1 << 20)) % size
        n += 1
    labcore.emit(reads=n)


if __name__ == "__main__":
    labcore.main(META, run, {"direct": direct})
