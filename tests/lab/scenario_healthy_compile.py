#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a compile of this project.

configure and make -j2 of this source tree in a build directory of the lab's
own (removed after), the sources cold (drop_caches 1 first): many short
processes (the compiler, one a file) that read the same headers over and
over from the cache and write objects. check_bufcache, check_dblock and
check_disklatency must stay OK at their defaults while it runs and a window
after, and tunewatchd must raise no finding; tunewatch's read count is held
against pgpgin. tunewatchd runs in a network namespace of the lab's own (see
scenario_healthy_backup.py).
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-compile", "kind": "healthy",
        "symptom": "a compile of this project (configure, make -j2)"}


def run(lab):
    labcore.need("make", "cc")
    src = os.path.abspath(os.environ.get("top_srcdir", os.path.join(labcore.HERE, "..", "..")))
    if not os.path.exists(os.path.join(src, "configure")):
        raise labcore.Skip("no configure in %s: run autogen.sh first" % src)
    build = os.path.join("/tmp", labcache.name_of(lab, "build"))
    lab.journal.undo(["rm", "-rf", build], "remove %s" % build)
    os.mkdir(build)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the build on the host" % ns
    with labcore.Stack(lab, ns=ns) as stack:
        labcache.drop_caches(lab)
        meter = labcache.PgpginMeter(stack).start()

        def compile_it():
            log = os.path.join(build, "build.log")
            with open(log, "w") as fh:
                for argv in ([os.path.join(src, "configure"), "-q"], ["make", "-j2"]):
                    p = subprocess.Popen(argv, cwd=build, stdout=fh, stderr=subprocess.STDOUT)
                    lab.journal.proc(p.pid, argv[0])
                    rc = p.wait(timeout=900)
                    assert rc == 0, "%s failed (exit %d): see %s" % (" ".join(argv), rc, log)
            objs = sum(1 for _, _, fs in os.walk(build) for f in fs if f.endswith(".o"))
            lab.result.note("built %d objects" % objs)

        labcache.run_healthy(lab, stack, compile_it, "configure -q && make -j2 of this tree in "
                             "a build directory of its own, the page cache dropped first")
        meter.stop()
        labcache.pgpgin_note(lab, meter, least_mib=16)


if __name__ == "__main__":
    labcore.main(META, run)
