#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a process that reads a file set that fits the cache,
twice.

Eight files of 64 MiB (512 MiB, far less than this host's free memory),
dropped from the cache first, read from start to end twice by one process:
the first pass from the disk, the second from the cache, so the hit ratio is
about half and nothing is read back (no refault). check_bufcache,
check_dblock and check_disklatency must stay OK at their defaults while it
runs and a window after, and tunewatchd must raise no finding; tunewatch's
read count is held against pgpgin. tunewatchd runs in a network namespace of
the lab's own (see scenario_healthy_backup.py).
"""

import os

import labcache
import labcore
import twtest

META = {"name": "healthy-reread", "kind": "healthy",
        "symptom": "a file set that fits the cache, read twice"}

FILES = 8
FILE_MIB = 64


def run(lab):
    d = os.path.join("/var/tmp", labcache.name_of(lab, "set"))
    lab.journal.undo(["rm", "-rf", d], "remove %s" % d)
    os.mkdir(d)
    paths = [os.path.join(d, "f%d" % i) for i in range(FILES)]
    for p in paths:
        twtest.cold_file(p, FILE_MIB)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the reader on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        meter = labcache.PgpginMeter(stack).start()

        def reread():
            for _ in range(2):
                for p in paths:
                    with open(p, "rb", buffering=0) as fh:
                        while fh.read(1 << 20):
                            pass

        labcache.run_healthy(lab, stack, reread, "%d files of %d MiB, cold, read twice" % (
            FILES, FILE_MIB))
        meter.stop()
        labcache.pgpgin_note(lab, meter)


if __name__ == "__main__":
    labcore.main(META, run)
