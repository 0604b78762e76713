#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a burst of a thousand short-lived processes.

A shell starts 1,000 processes, eight at a time, each of which reads a small
file of its own (made and dropped from the cache first, so that each reads
from the disk) and exits: each is born and reaped between two of
tunewatchd's samples or across one, which is what the read count's
accounting of new and reaped processes (issue 25) has to get right.
check_bufcache, check_dblock and check_disklatency must stay OK at their
defaults while it runs and a window after, and tunewatchd must raise no
finding; tunewatch's read count is held against pgpgin. tunewatchd runs in a
network namespace of the lab's own (see scenario_healthy_backup.py).
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-fork", "kind": "healthy",
        "symptom": "a burst of a thousand short-lived processes"}

PROCS = 1000
FILE_KIB = 256


def run(lab):
    d = os.path.join("/var/tmp", labcache.name_of(lab, "files"))
    lab.journal.undo(["rm", "-rf", d], "remove %s" % d)
    os.mkdir(d)
    block = os.urandom(FILE_KIB << 10)
    for i in range(PROCS):
        with open(os.path.join(d, "f%d" % i), "wb") as fh:
            fh.write(block)
    subprocess.run(["sync"], timeout=120)
    for i in range(PROCS):
        fd = os.open(os.path.join(d, "f%d" % i), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the processes on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        meter = labcache.PgpginMeter(stack).start()

        def burst():
            # cat reads its file and exits; xargs starts eight at a time.
            r = subprocess.run("ls %s | xargs -P 8 -I@ cat %s/@ > /dev/null" % (d, d),
                               shell=True, timeout=300)
            assert r.returncode == 0, "the processes failed"

        labcache.run_healthy(lab, stack, burst, "%d processes (cat of a %d KiB file each, "
                             "cold), 8 at a time" % (PROCS, FILE_KIB))
        meter.stop()
        labcache.pgpgin_note(lab, meter, least_mib=64)


if __name__ == "__main__":
    labcore.main(META, run)
