#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: a disk at its throughput with a deep queue.

A loop device with direct I/O over tests/fusedelay's file (labdisk.py)
whose reads take 2 ms each, four at a time: 2,000 reads of 4 KiB a
second is all it does. fio reads it at random, 4 KiB, O_DIRECT, libaio,
128 requests in flight, for 30 s: the queue stays as deep as nr_requests
(128) and each read waits its turn, some 64 ms.

That is harm (check_disklatency may page: reads wait), but no knob helps:
a shorter queue (nr_requests) only moves the wait into fio, a scheduler
orders nothing for a device that does not seek, and no writeback is
there to throttle. The right answer is "no tunable: ... the device is
saturated": no finding and no tune: line may name a knob for the device.
"""

import json
import os
import subprocess

import labcache
import labcore
import labdisk
import labneg

META = {"name": "neg-disk-throughput", "kind": "negative",
        "symptom": "a device at its throughput with a queue as deep as nr_requests"}

SECONDS = 30
DEPTH = 128


def run(lab):
    labcore.need("fio")
    dev, _ = labdisk.fuse_device(lab, "busy", 2000, 256, threads=4)
    name = os.path.basename(dev)
    res = lab.result
    res["where"] = "the host; %s over a fusedelay file (reads of 2 ms, four at a time)" % dev
    res["setup"] = "scheduler %s, nr_requests %s; fio randread 4 KiB, iodepth %d" % (
        labdisk.queue_attr(dev, "scheduler"), labdisk.queue_attr(dev, "nr_requests"), DEPTH)

    def wrong(x):
        if isinstance(x, dict):
            return "a knob for a device at its throughput" if (
                x.get("SUBJECT") == name and x.get("TUNABLE")) else None
        return "a knob for a device at its throughput" if name in x.line else None

    def expect(a):
        return a.line.startswith("no tunable: %s " % name) and "saturated" in a.line

    def work():
        argv = ["fio", "--name=deep", "--filename=" + dev, "--rw=randread", "--bs=4k",
                "--direct=1", "--ioengine=libaio", "--iodepth=%d" % DEPTH, "--runtime=%d" % SECONDS,
                "--time_based", "--output-format=json"]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lab.journal.proc(p.pid, "fio")
        out, err = p.communicate(timeout=SECONDS + 60)
        assert p.returncode == 0, "fio failed: %s" % err.strip()
        job = json.loads(out)["jobs"][0]["read"]
        res["workload_figures"] = {"iops": round(job["iops"], 1),
                                   "clat_mean_ms": round(job["clat_ns"]["mean"] / 1e6, 1)}
        res.note("fio: %.0f reads/s, %.1f ms each on average" % (
            job["iops"], job["clat_ns"]["mean"] / 1e6))

    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        labneg.watch(lab, stack, work, wrong, "fio randread 4 KiB, depth %d, %d s on %s" % (
            DEPTH, SECONDS, dev), expect=expect)


if __name__ == "__main__":
    labcore.main(META, run)
