#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A real write-latency problem, which must still page: a database's
commits on a slow device.

The device is a loop device with direct I/O over tests/fusedelay's file
(labdisk.py), whose every write takes 150 ms and which serves one request
at a time. A committer writes 4 KiB with O_DIRECT and O_DSYNC, one after
the other, for 30 s, as a database's log writer does: each commit waits
for its write, a few a second. (Measured: the loop driver sends each such
4 KiB write to the file as two requests of 2 KiB, which /proc/diskstats
counts, so w_await is about half the delay: at 60 ms, 34.5 ms, under
check_disklatency's 50.) No writer is held at the dirty limit,
so check_disklatency judges the writes at the device's own time per
request (tw_judge_write_bound), which here is the whole of w_await.

check_disklatency (polled every 2 s with the others, tunewatchd on the
host, 1 s samples over 10 s, loop devices watched) must page on the
device (WARNING or CRITICAL), and its answer must be "no tunable: the
device itself is slow", with no finding or tune: line naming a knob for
it: the queue is one request deep, and no queue, scheduler or writeback
knob makes a write shorter than the device takes.
"""

import mmap
import os
import time

import labcore
import labdisk
import labneg

META = {"name": "disk-write-latency", "kind": "negative",
        "symptom": "a committer's O_DSYNC writes on a device that takes 150 ms a write"}

DELAY_US = 150000
SECONDS = 30


def run(lab):
    dev, _ = labdisk.fuse_device(lab, "slow", DELAY_US, 256, writes=True)
    name = os.path.basename(dev)
    res = lab.result
    res["where"] = "the host; %s over a fusedelay file (writes of 150 ms, one at a time)" % dev
    res["setup"] = "scheduler %s, nr_requests %s" % (labdisk.queue_attr(dev, "scheduler"),
                                                     labdisk.queue_attr(dev, "nr_requests"))

    def wrong(x):
        if isinstance(x, dict):
            if x.get("SUBJECT") == name and x.get("TUNABLE"):
                return "a knob for a device that is slow itself"
            return None
        return "a knob for a device that is slow itself" if name in x.line else None

    def expect(a):
        return a.line.startswith("no tunable: %s takes " % name) and "per write" in a.line and \
            "the device itself is slow" in a.line

    def work():
        w = labcore.Workload(lab, labcore.workload_argv(__file__, "commits", dev, SECONDS))
        try:
            deadline = time.monotonic() + SECONDS + 30
            while w.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(1)
        finally:
            w.stop()
        done = [r for r in w.records if "commits" in r]
        assert done, "the committer reported nothing: %r" % w.errors
        res["workload_figures"] = done[-1]
        res.note("%d commits in %.1f s: %.1f ms each" % (
            done[-1]["commits"], done[-1]["seconds"],
            1000.0 * done[-1]["seconds"] / max(1, done[-1]["commits"])))

    with labcore.Stack(lab, agent_conf="diskExclude ^(ram|zram|fd)[0-9]+$\n") as stack:
        labneg.watch(lab, stack, work, wrong, "4 KiB O_DIRECT|O_DSYNC writes one after the "
                     "other on %s for %d s" % (dev, SECONDS), expect=expect)
    assert res["worst"]["check_disklatency"] in ("WARNING", "CRITICAL"), \
        "check_disklatency did not page on a device that takes 150 ms a write: %s" % (
            res["worst"],)


# ---- the committer -----------------------------------------------------------


def commits(dev, seconds):
    """4 KiB writes with O_DIRECT and O_DSYNC, one after the other, for
    seconds; print how many."""
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT | os.O_DSYNC)
    buf = mmap.mmap(-1, 4096)
    buf.write(b"c" * 4096)
    t0 = time.monotonic()
    n = 0
    try:
        while time.monotonic() - t0 < float(seconds):
            os.pwrite(fd, buf, (n % 4096) * 4096)
            n += 1
    finally:
        labcore.emit(commits=n, seconds=round(time.monotonic() - t0, 2))
        os.close(fd)


if __name__ == "__main__":
    labcore.main(META, run, {"commits": commits})
