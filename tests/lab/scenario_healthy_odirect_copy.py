#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: an O_DIRECT copy of a 1 GiB image.

A disk image of 1 GiB (random data, written before tunewatchd starts and
dropped from the cache) is copied with dd, 1 MiB a block, O_DIRECT both
ways (iflag=direct oflag=direct), as a VM image is copied: no page cache,
one request at a time, the disk busy throughout. Its reads are its own
size, 1 MiB, past any read-ahead window, and its writes wait for the disk
one at a time, as fast as it takes them. check_bufcache, check_dblock and
check_disklatency must stay OK at their defaults while it runs and a window
after, and tunewatchd must raise no finding. tunewatchd runs in a network
namespace of the lab's own (see scenario_healthy_backup.py).
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-odirect-copy", "kind": "healthy",
        "symptom": "an O_DIRECT copy of a 1 GiB image with dd"}

MIB = 1024


def run(lab):
    labcore.need("dd")
    src = os.path.join("/var/tmp", labcache.name_of(lab, "image") + ".img")
    dst = os.path.join("/var/tmp", labcache.name_of(lab, "copy") + ".img")
    labcache.cold_file(lab, src, MIB)
    lab.journal.undo(["rm", "-f", dst], "remove %s" % dst)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the copy on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        def copy():
            r = subprocess.run(["dd", "if=" + src, "of=" + dst, "bs=1M", "iflag=direct",
                                "oflag=direct"], capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, r.stderr
            lab.result.note("dd: %s" % r.stderr.strip().splitlines()[-1])
            os.unlink(dst)

        labcache.run_healthy(lab, stack, copy, "dd bs=1M iflag=direct oflag=direct of a %d MiB "
                             "image" % MIB)


if __name__ == "__main__":
    labcore.main(META, run)
