#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The read-ahead window of a sequential reader: a device whose
read_ahead_kb is 4, read through by a process in small reads.

A loop device of the lab's own (losetup --direct-io=on over a 512 MiB file
on this machine's disk) with read_ahead_kb 4, under a cgroup v1 blkio
throttle of 100 MiB/s for its reader (a disk has a bandwidth; this one is
the host's disk, fast and shared, so the throttle gives the stream one of
its own). The reader reads the device from start to end in 4 KiB reads,
the pages dropped (posix_fadvise DONTNEED) before each pass, over and over:
each read waits for a request that carries one page, some 15,000 requests
a second where a window of the kernel's default (128 KiB) needs 800 for a
faster stream.

The symptom's counter is the device's reads beyond what the bytes it read
take at the kernel's default window, one request a 128 KiB (from its
stat: reads less sectors read / 256): the requests the small window costs,
which fall to none when the window is the default however fast the stream
then goes (the reads themselves need not fall: a faster stream makes as
many larger ones). tunewatchd, in the host's namespace at its
defaults, must raise low-hit-sequential on the device; check_bufcache's
advice is the device's read_ahead_kb, 4 -> 128 (at least the kernel's
default, one ticket: a doubling took five); its apply: line is run exactly.
The change is recorded on the device's reads per MiB, which must fall by
90 % or more (r_await, the figure of the other queue attributes, rises with
larger reads), and the stream must get faster.

tunewatch's read count (twBcPhysicalReadBytes) is held against pgpgin over
the run: a loop device with direct I/O reads its file from the disk below
it, which both count again, the same way.
"""

import os
import signal
import statistics
import time

import labcache
import labcore
import labproblem

META = {"name": "cache-readahead", "kind": "problem",
        "symptom": "a sequential reader held to a 4 KiB read-ahead window (read_ahead_kb)"}

DEVICE_MIB = 512
WINDOW_KB = 4
BPS = 100 << 20


class ReadAhead(labproblem.Problem):
    symptom_token = "low-hit-sequential"
    check = "check_bufcache"
    symptom_unit = "extra device reads/s"
    better = "higher"
    rounds_allowed = 1		# at least the kernel's default: one ticket
    figure_what = "the stream's throughput"
    coupled = ("queue/read_ahead_kb",)
    phase_s = 4.0
    settle_s = 1.5
    # Not the stock 128: the rule turns read_ahead_kb only below the
    # kernel's default window (evidence.c: a stream that fills a window of
    # 128 KiB or more gets "no tunable"), so the scenario starts below it.

    def cost_line(self, old, new):
        return ("each sequential stream on %s reads up to %s KiB ahead, not %s KiB: page cache "
                "taken by data read before it is asked for; a file keeps the window it was "
                "opened with, so readers must open it again" % (self.name, new, old))

    def __init__(self, dev, cg, script):
        self.dev = dev
        self.name = os.path.basename(dev)
        self.cg = cg
        self.script = script
        self.tunable = "/sys/block/%s/queue/read_ahead_kb" % self.name

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "stream", self.dev,
                                                           self.cg))

    def symptom_count(self, lab):
        # Requests merged past 128 KiB make the difference go back a little:
        # a count, it only grows.
        st = labcache.disk_stat(self.dev)
        self.extra = max(getattr(self, "extra", 0), st[0] - st[2] // 256)
        return self.extra

    def current_value(self, lab):
        with open(self.tunable) as fh:
            return fh.read().strip()

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return "then the reader opened the device again (SIGHUP), as the advice says: a file " \
            "keeps the read-ahead window it was opened with"

    def workload_figure(self, records):
        mbps = statistics.median(r["mib_s"] for r in records)
        return labcore.figure(round(mbps, 1), "MiB/s", "the stream read %s MiB/s (median of "
                              "%d seconds)" % (labcore.fmt(round(mbps, 1)), len(records)))


def run(lab):
    backing = os.path.join("/var/tmp", labcache.name_of(lab, "ra") + ".img")
    dev = labcache.loop_device(lab, backing, DEVICE_MIB)
    name = os.path.basename(dev)
    lab.write("/sys/block/%s/queue/read_ahead_kb" % name, WINDOW_KB)
    cg = labcache.cgroup(lab, labcache.BLKCG, labcache.name_of(lab, "reader"))
    with open("/sys/block/%s/dev" % name) as fh:
        majmin = fh.read().strip()
    with open(os.path.join(cg, "blkio.throttle.read_bps_device"), "w") as fh:
        fh.write("%s %d\n" % (majmin, BPS))
    lab.result.note("starts from read_ahead_kb %d, not the stock 128: the rule turns "
                    "read_ahead_kb only below the kernel's default window (a stream that "
                    "fills 128 KiB or more gets no tunable, lib/advice/evidence.c)" % WINDOW_KB)
    lab.result["setup"] = ("%s (loop, direct I/O, %d MiB) at read_ahead_kb %d, its reader "
                           "throttled to %d MiB/s (cgroup v1 blkio)" % (
                               name, DEVICE_MIB, WINDOW_KB, BPS >> 20))
    lab.result["where"] = "the host's namespaces; tunewatchd watches loop devices (diskExclude)"
    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        meter = labcache.PgpginMeter(stack).start()
        labproblem.run_problem(lab, stack, ReadAhead(dev, cg, __file__))
        meter.stop()
        labcache.pgpgin_note(lab, meter)


# ---- the workload --------------------------------------------------------------


def stream(dev, cg):
    """Read dev from start to end in 4 KiB reads, cold each pass, in cgroup
    cg; a record a second: MiB/s. SIGHUP: open it again where it stands
    (a file takes its read-ahead window when it is opened)."""
    labcache.join([cg])
    reopen = []
    signal.signal(signal.SIGHUP, lambda s, f: reopen.append(1))
    t_rec, n = time.monotonic(), 0
    while True:
        fd = os.open(dev, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            while True:
                if reopen:
                    del reopen[:]
                    at = os.lseek(fd, 0, os.SEEK_CUR)
                    os.close(fd)
                    fd = os.open(dev, os.O_RDONLY)
                    os.lseek(fd, at, os.SEEK_SET)
                b = os.read(fd, 4096)
                if not b:
                    break
                n += len(b)
                now = time.monotonic()
                if now - t_rec >= 1.0:
                    labcore.emit(mib_s=n / 1048576.0 / (now - t_rec))
                    t_rec, n = now, 0
        finally:
            os.close(fd)


if __name__ == "__main__":
    labcore.main(META, run, {"stream": stream})
