#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: a sustained writer faster than the disk.

A loop device with direct I/O over tests/fusedelay's file with writes
(labdisk.py): every request takes 20 ms, one at a time, so the device
writes what twenty requests a second carry and no more. A writer writes
to it through the page cache, 1 MiB a write, as fast as it can, for 40 s:
it fills the dirty limit and is held there (balance_dirty_pages), writing
at the device's pace. The host's dirty limits are set low for the run
(vm.dirty_bytes 32 MiB, vm.dirty_background_bytes 8 MiB, journalled, the
ratio form put back after), as a host with little memory would have them,
so that the writer reaches the limit within seconds, not after gigabytes.

That is harm (the writer waits, check_disklatency may page), but no knob
helps: lower dirty limits throttle the writer sooner at the same rate,
higher ones only grow the backlog (memory, then the same rate), and a
shorter queue only moves the wait. The right answer is "no tunable": the
device writes at its throughput. No finding and no tune: line may name a
dirty limit, nr_requests, a scheduler or wbt for it.
"""

import os
import time

import labcache
import labcore
import labdisk
import labneg

META = {"name": "neg-writer-faster", "kind": "negative",
        "symptom": "a writer faster than its disk, held at the dirty limit"}

SECONDS = 40
MIB = 512
DIRTY_BYTES = 32 << 20
BACKGROUND_BYTES = 8 << 20


def dirty_limits(lab):
    """Set the run's limits; the restore writes back the form in force
    (a bytes limit cannot be written back as 0: the ratio is)."""
    vm = {k: lab.read_sysctl("vm." + k) for k in ("dirty_bytes", "dirty_ratio",
                                                  "dirty_background_bytes",
                                                  "dirty_background_ratio")}
    for kind in ("", "background_"):
        b, r = vm["dirty_%sbytes" % kind], vm["dirty_%sratio" % kind]
        keep = "vm.dirty_%sbytes=%s" % (kind, b) if b != "0" else "vm.dirty_%sratio=%s" % (kind, r)
        lab.journal.undo(["sysctl", "-q", "-w", keep], "put back %s" % keep)
    with open("/proc/sys/vm/dirty_background_bytes", "w") as fh:
        fh.write("%d\n" % BACKGROUND_BYTES)
    with open("/proc/sys/vm/dirty_bytes", "w") as fh:
        fh.write("%d\n" % DIRTY_BYTES)


def run(lab):
    dev, _ = labdisk.fuse_device(lab, "slow", 20000, MIB, writes=True)
    name = os.path.basename(dev)
    dirty_limits(lab)
    res = lab.result
    res["where"] = "the host; %s over a fusedelay file (requests of 20 ms, one at a time)" % dev
    res["setup"] = "vm.dirty_bytes 32 MiB, vm.dirty_background_bytes 8 MiB; buffered writes " \
        "of 1 MiB to %s for %d s" % (dev, SECONDS)

    def wrong(x):
        if isinstance(x, dict):
            t = x.get("TUNABLE") or ""
            if t.startswith("vm.dirty") or (x.get("SUBJECT") == name and t):
                return "a knob for a writer faster than its device"
            return None
        if "vm.dirty" in x.line.split("(")[0] or name in x.line.split("(")[0]:
            return "a knob for a writer faster than its device"
        return None

    def expect(a):
        return a.line.startswith("no tunable: %s " % name) and "throughput" in a.line

    def work():
        s0 = labcache.disk_stat(dev)
        p = labcore.Workload(lab, labcore.workload_argv(__file__, "writer", dev, SECONDS))
        deadline = time.monotonic() + SECONDS + 60
        while p.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(1)
        p.stop()
        s1 = labcache.disk_stat(dev)
        mib_s = (s1[6] - s0[6]) / 2048.0 / SECONDS
        res["workload_figures"] = {"device_mib_s": round(mib_s, 1)}
        res.note("%s wrote %.1f MiB/s" % (name, mib_s))

    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        labneg.watch(lab, stack, work, wrong, "buffered writes of 1 MiB to %s for %d s" % (
            dev, SECONDS), expect=expect)


def writer(dev, seconds):
    """Write dev through the page cache, 1 MiB a write, wrapping around."""
    fd = os.open(dev, os.O_WRONLY)
    size = os.lseek(fd, 0, os.SEEK_END)
    block = b"w" * (1 << 20)
    t0 = time.monotonic()
    off = n = 0
    while time.monotonic() - t0 < float(seconds):
        os.pwrite(fd, block, off)
        off = (off + (1 << 20)) % size
        n += 1
    labcore.emit(mib=n)


if __name__ == "__main__":
    labcore.main(META, run, {"writer": writer})
