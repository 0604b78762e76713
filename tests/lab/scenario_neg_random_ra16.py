#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: random reads of 8-16 KiB at read_ahead_kb 16.

A loop device over a cold file of 1 GiB (labcache.loop_device) at
read_ahead_kb 16 (journalled). A reader reads it through the page cache at
random offsets, 8, 12 or 16 KiB at a time, for 30 s: reads the kernel
does not extend (mm/readahead.c reads a small random read as it is), so
the device's requests are the reader's, 12 KiB on average, under the
window. A window below the kernel's default that reads "fill" once named
read_ahead_kb up, which only drags in pages a random reader never asks for.

The right answer: no finding and no tune: line naming read_ahead_kb, either
way (check_bufcache may say the data is read once). The reads must have
been there: 100 a second or more, of 8 to 16 KiB on average.
"""

import os
import random
import time

import labcache
import labcore
import labneg

META = {"name": "neg-random-ra16", "kind": "negative",
        "symptom": "random reads of 8-16 KiB at read_ahead_kb 16"}

SECONDS = 30
MIB = 1024


def run(lab):
    backing = os.path.join("/var/tmp", labcache.name_of(lab, "disk"))
    dev = labcache.loop_device(lab, backing, MIB)
    name = os.path.basename(dev)
    lab.write("/sys/block/%s/queue/read_ahead_kb" % name, "16")
    res = lab.result
    res["where"] = "the host; %s over a cold file of %d MiB on this machine's disk" % (dev, MIB)
    res["setup"] = "read_ahead_kb 16; reads of 8, 12 or 16 KiB at random offsets for %d s" % (
        SECONDS)

    def wrong(x):
        t = x.get("TUNABLE", "") if isinstance(x, dict) else x.line
        return "read-ahead for random reads" if "read_ahead_kb" in (t or "") else None

    def work():
        s0 = labcache.disk_stat(dev)
        p = labcore.Workload(lab, labcore.workload_argv(__file__, "randread", dev, SECONDS))
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
        assert reads / SECONDS >= 100 and 8 <= sectors / 2.0 / max(1, reads) <= 16, \
            "the reads were not the symptom's: %r" % res["workload_figures"]

    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        labneg.watch(lab, stack, work, wrong, "random reads of 8-16 KiB on %s for %d s" % (
            dev, SECONDS))


def randread(dev, seconds):
    """pread 8, 12 or 16 KiB at random 4 KiB-aligned offsets, buffered."""
    fd = os.open(dev, os.O_RDONLY)
    pages = os.lseek(fd, 0, os.SEEK_END) // 4096 - 4
    rng = random.Random(32)
    t0 = time.monotonic()
    n = 0
    while time.monotonic() - t0 < float(seconds):
        os.pread(fd, rng.choice((8192, 12288, 16384)), rng.randrange(pages) * 4096)
        n += 1
    labcore.emit(reads=n)


if __name__ == "__main__":
    labcore.main(META, run, {"randread": randread})
