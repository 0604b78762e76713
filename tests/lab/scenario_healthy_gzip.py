#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: compressing a rotated log of 1 GiB.

A log file of 1 GiB (lines of text, written before tunewatchd starts and
dropped from the cache) is compressed with gzip, as logrotate's compress
does: read once, from start to end, and a file a tenth its size written
beside it within the dirty limits, the original then removed. CPU-bound on
this machine; nothing is read twice and no writer is held back.
check_bufcache, check_dblock and check_disklatency must stay OK at their
defaults while it runs and a window after, and tunewatchd must raise no
finding. tunewatchd runs in a network namespace of the lab's own (see
scenario_healthy_backup.py).
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-gzip", "kind": "healthy",
        "symptom": "gzip of a rotated 1 GiB log"}

MIB = 1024


def make_log(lab, path):
    lab.journal.undo(["rm", "-f", path, path + ".gz"], "remove %s" % path)
    line = b"Dec  7 06:00:00 web1 app[4242]: GET /item/%08d 200 1234 0.004 \"Mozilla/5.0\"\n"
    chunk = b"".join(line % i for i in range(16384))
    with open(path, "wb") as fh:
        while fh.tell() < MIB << 20:
            fh.write(chunk)
        fh.flush()
        os.fsync(fh.fileno())
        os.posix_fadvise(fh.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def run(lab):
    labcore.need("gzip")
    path = os.path.join("/var/tmp", labcache.name_of(lab, "app") + ".log.1")
    make_log(lab, path)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; gzip on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        def compress():
            r = subprocess.run(["gzip", "-6", path], capture_output=True, text=True,
                               timeout=900)
            assert r.returncode == 0, r.stderr
            lab.result.note("%d MiB compressed to %d MiB" % (
                MIB, os.path.getsize(path + ".gz") >> 20))
            os.unlink(path + ".gz")

        labcache.run_healthy(lab, stack, compress, "gzip -6 of a %d MiB log" % MIB)


if __name__ == "__main__":
    labcore.main(META, run)
