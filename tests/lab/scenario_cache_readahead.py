#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The read-ahead window of a sequential reader: a device whose
read_ahead_kb is 4, read through by a process in small reads.

A loop device with direct I/O over tests/fusedelay's file (labdisk.py),
one request at a time, each answered DELAY_US after the daemon gets it,
with read_ahead_kb 4. The reader reads the device from start to end in
4 KiB reads, the pages dropped (posix_fadvise DONTNEED) before each pass,
over and over: each read waits for a request that carries one page, where
a window of the kernel's default (128 KiB) carries 32 in one wait.

Not a loop device over a file on this machine's disk (as up to the run at
e8fc9b2): a request's time was then vda's, a virtual disk shared with
everyone's I/O and the hypervisor's cache, and the same read_ahead_kb 4
streamed 4.9 MiB/s in one phase and 84 MiB/s in another (its no-change
control 1.14, 0.20-11.4). A fusedelay request takes its delay plus the
wake-ups of the loop worker, the daemon and the reader, and on a loaded
machine those took as long as the delay (3 ms requests at load 18 on 2
CPUs: before 0.43-0.95 MiB/s, control 0.62-0.92, 1.35 (0.78-1.72)); so
the daemon and the reader run at SCHED_FIFO (probe_common.realtime_threads()), as a
disk waits for no CPU: at load 26 before 0.97-1.03 MiB/s, control
0.94-1.02, 0.97 (0.92-1.03), after 36.1-38.1. The loop worker's wake-up
still waits for a CPU: the note says the load average over the run.

The symptom's counter is the device's reads beyond what the bytes it read
take at the kernel's default window, one request a 128 KiB (from its
stat: reads less sectors read / 256): the requests the small window costs,
which fall to none when the window is the default however fast the stream
then goes (the reads themselves need not fall: a faster stream makes as
many larger ones). tunewatchd, in the host's namespace at its
defaults, must raise low-hit-sequential on the device (at 4 KiB a read,
some 250 reads/s: over the rule's 100); check_bufcache's
advice is the device's read_ahead_kb, 4 -> 128 (at least the kernel's
default, one ticket: a doubling took five); its apply: line is run exactly.
The change is recorded on the device's reads per MiB, which must fall by
90 % or more (r_await, the figure of the other queue attributes, rises with
larger reads), and the stream must get faster.

tunewatch's read count (twBcPhysicalReadBytes) is held against pgpgin over
the run: both count the reader's requests to the loop device once (the
loop driver's reads of a FUSE file are no block I/O, so neither counts
them again).
"""

import os
import signal
import statistics
import time

import labcache
import labcore
import labdisk
import labproblem
import probe_common

META = {"name": "cache-readahead", "kind": "problem",
        "symptom": "a sequential reader held to a 4 KiB read-ahead window (read_ahead_kb)"}

DEVICE_MIB = 512
WINDOW_KB = 4
DELAY_US = 3000


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

    def __init__(self, dev, script):
        self.dev = dev
        self.name = os.path.basename(dev)
        self.script = script
        self.tunable = "/sys/block/%s/queue/read_ahead_kb" % self.name

    def start(self, lab):
        workload = labcore.Workload(lab, labcore.workload_argv(self.script, "stream", self.dev))
        why = probe_common.realtime_threads(workload.proc.pid)
        if why:
            lab.result.note("the reader at its ordinary priority: " + why)
        return workload

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
        # Three significant digits: at 4 KiB a read the stream moves some
        # 0.6 MiB/s, where tenths of a MiB/s are steps of 20 %.
        mbps = float("%.3g" % statistics.median(r["mib_s"] for r in records))
        return labcore.figure(mbps, "MiB/s", "the stream read %s MiB/s (median of "
                              "%d seconds)" % (labcore.fmt(mbps), len(records)))


def run(lab):
    dev, _ = labdisk.fuse_device(lab, "ra", DELAY_US, DEVICE_MIB, fifo=True)
    name = os.path.basename(dev)
    lab.write("/sys/block/%s/queue/read_ahead_kb" % name, WINDOW_KB)
    lab.result.note("starts from read_ahead_kb %d, not the stock 128: the rule turns "
                    "read_ahead_kb only below the kernel's default window (a stream that "
                    "fills 128 KiB or more gets no tunable, lib/advice/evidence.c)" % WINDOW_KB)
    lab.result["setup"] = ("%s (loop, direct I/O, %d MiB over a fusedelay file: %g ms a "
                           "request, one at a time) at read_ahead_kb %d" % (
                               name, DEVICE_MIB, DELAY_US / 1000.0, WINDOW_KB))
    lab.result["where"] = "the host's namespaces; tunewatchd watches loop devices (diskExclude)"
    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        meter = labcache.PgpginMeter(stack).start()
        load0 = os.getloadavg()[0]
        labproblem.run_problem(lab, stack, ReadAhead(dev, __file__))
        meter.stop()
        lab.result.note("a request takes %g ms in fusedelay, plus the wake-up of the loop "
                        "worker, which waits for a CPU (the daemon and the reader do not: "
                        "SCHED_FIFO); the 1-minute load average was %.2f at the start, %.2f at "
                        "the end" % (DELAY_US / 1000.0, load0, os.getloadavg()[0]))
        labcache.pgpgin_note(lab, meter)


# ---- the workload --------------------------------------------------------------


def stream(dev):
    """Read dev from start to end in 4 KiB reads, cold each pass; a record
    a second: MiB/s. SIGHUP: open it again where it stands (a file takes
    its read-ahead window when it is opened)."""
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
