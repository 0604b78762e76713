#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a backup, a one-pass cold read of a large tree.

tar reads /usr/share (some 1.4 GB in 74,000 files here) into a pipe that a
second process drains, after the page cache was dropped (drop_caches 1):
every file is read once and none twice. The hit ratio the estimate gives is
low (the pipe's reads count as hits, the files' as misses: the issue
measured 36.84 % on /usr), and before issue 25 check_bufcache said CRITICAL
and tunewatchd raised a finding nobody could act on. Nothing hurts: no page
is read back. check_bufcache, check_dblock and check_disklatency must stay
OK at their defaults while it runs and a window after, and tunewatchd must
raise no finding; tunewatch's read count is held against pgpgin.

tunewatchd runs in a network namespace of the lab's own, where the host's
memory, disks and processes are what it sees and other users' network
tests are not (their drops are theirs, counted in their namespaces).
"""

import subprocess

import labcache
import labcore

META = {"name": "healthy-backup", "kind": "healthy",
        "symptom": "a one-pass cold read of /usr/share into a pipe (a backup)"}

TREE = "/usr/share"


def run(lab):
    labcore.need("tar")
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the read on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        labcache.drop_caches(lab)
        meter = labcache.PgpginMeter(stack).start()

        def backup():
            tar = subprocess.Popen(["tar", "-cf", "-", TREE], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
            lab.journal.proc(tar.pid, "tar")
            sink = subprocess.run(["wc", "-c"], stdin=tar.stdout, capture_output=True,
                                  text=True, timeout=600)
            tar.stdout.close()
            tar.wait(timeout=60)
            lab.result.note("tar read %s bytes of %s" % (sink.stdout.strip(), TREE))

        labcache.run_healthy(lab, stack, backup, "tar -cf - %s | wc -c, the page cache dropped "
                             "first" % TREE)
        meter.stop()
        labcache.pgpgin_note(lab, meter)


if __name__ == "__main__":
    labcore.main(META, run)
