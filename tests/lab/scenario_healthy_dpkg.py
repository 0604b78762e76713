#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: installing a big local package.

A Debian package of some 200 MiB (2,000 files of 100 KiB under /opt, made
with dpkg-deb before tunewatchd starts, uncompressed, and dropped from the
cache) is installed with dpkg -i, as a large application's update is:
dpkg reads the archive once and writes each file, syncing as it goes
(dpkg's own fsyncs), then the package is purged by the restore. Small
synchronous writes and one large read, nothing read twice, no writer held
back. check_bufcache, check_dblock and check_disklatency must stay OK at
their defaults while it runs and a window after, and tunewatchd must raise
no finding. tunewatchd runs in a network namespace of the lab's own (see
scenario_healthy_backup.py). dpkg takes its own lock: another dpkg or apt
running on the machine makes this scenario fail with dpkg's words.
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-dpkg", "kind": "healthy",
        "symptom": "dpkg -i of a local 200 MiB package"}

FILES = 2000
FILE_KIB = 100


def make_deb(lab, top, name):
    root = os.path.join(top, "root")
    lab.journal.undo(["rm", "-rf", top], "remove %s" % top)
    os.makedirs(os.path.join(root, "DEBIAN"))
    with open(os.path.join(root, "DEBIAN", "control"), "w") as fh:
        fh.write("Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: tunewatch lab "
                 "<lab@localhost>\nDescription: the lab's big package\n a healthy workload of "
                 "tunewatch's lab, purged after\n" % name)
    data = os.path.join(root, "opt", name)
    os.makedirs(data)
    block = os.urandom(FILE_KIB << 10)
    for i in range(FILES):
        with open(os.path.join(data, "part%04d" % i), "wb") as fh:
            fh.write(block[i % 97:] + block[:i % 97])
    deb = os.path.join(top, name + ".deb")
    subprocess.run(["dpkg-deb", "-Znone", "--root-owner-group", "--build", root, deb],
                   check=True, capture_output=True, timeout=600)
    subprocess.run(["rm", "-rf", root], check=True, timeout=120)
    fd = os.open(deb, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    return deb


def run(lab):
    labcore.need("dpkg", "dpkg-deb")
    name = labcache.name_of(lab, "big")
    top = os.path.join("/var/tmp", name)
    deb = make_deb(lab, top, name)
    lab.journal.undo(["sh", "-c", 'dpkg -s "$0" >/dev/null 2>&1 || exit 0; dpkg --purge "$0"',
                      name], "purge %s" % name)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; dpkg on the host" % ns
    lab.result["setup"] = "%s: %d files of %d KiB under /opt/%s, uncompressed" % (
        os.path.basename(deb), FILES, FILE_KIB, name)
    with labcore.Stack(lab, ns=ns) as stack:
        def install():
            r = subprocess.run(["dpkg", "-i", deb], capture_output=True, text=True, timeout=900)
            assert r.returncode == 0, "dpkg -i: %s" % (r.stderr.strip() or r.stdout.strip())
            lab.result.note("installed %s (%d MiB)" % (name, os.path.getsize(deb) >> 20))

        labcache.run_healthy(lab, stack, install, "dpkg -i of a %d MiB package" % (
            FILES * FILE_KIB >> 10))


if __name__ == "__main__":
    labcore.main(META, run)
