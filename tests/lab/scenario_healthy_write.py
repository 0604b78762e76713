#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a sequential write within the dirty limits.

A process writes 1 GiB to a new file on this machine's disk in 1 MiB writes,
at the host's own dirty limits (its dirty_ratio of its memory, some 4 GB
here: the write never reaches them), and then waits for writeback (fsync):
the flusher writes it out behind the writer, who is never paused.
check_bufcache, check_dblock and check_disklatency must stay OK at their
defaults while it runs and a window after, and tunewatchd must raise no
finding. tunewatchd runs in a network namespace of the lab's own (see
scenario_healthy_backup.py).
"""

import os
import time

import labcache
import labcore

META = {"name": "healthy-write", "kind": "healthy",
        "symptom": "a sequential write of 1 GiB within the dirty limits"}

MIB = 1024


def run(lab):
    path = os.path.join("/var/tmp", labcache.name_of(lab, "written"))
    lab.journal.undo(["rm", "-f", path], "remove %s" % path)
    limit = labcache.vmstat("nr_dirty_threshold") * os.sysconf("SC_PAGE_SIZE")
    assert limit > 2 * (MIB << 20), "this host's dirty limit (%d MiB) is not above the write" % (
        limit >> 20)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the write on the host" % ns
    lab.result["setup"] = "the host's dirty limit %d MiB (nr_dirty_threshold)" % (limit >> 20)
    with labcore.Stack(lab, ns=ns) as stack:
        def write():
            block = b"w" * (1 << 20)
            t0 = time.monotonic()
            with open(path, "wb") as fh:
                for _ in range(MIB):
                    fh.write(block)
                t1 = time.monotonic()
                fh.flush()
                os.fsync(fh.fileno())
            t2 = time.monotonic()
            lab.result.note("wrote %d MiB in %.2f s, written back %.2f s later" % (
                MIB, t1 - t0, t2 - t1))
            os.unlink(path)

        labcache.run_healthy(lab, stack, write, "1 GiB written in 1 MiB writes, then fsync")


if __name__ == "__main__":
    labcore.main(META, run)
