#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: an anonymous leak in a limited cgroup.

A service (a cgroup v1 memory cgroup of the lab's own, named as systemd
names a service's, at memory.limit_in_bytes 64M) re-reads a 24 MiB file it
holds open while it leaks 2 MiB of anonymous memory a second, written, 36
MiB in all on top of its own 10-odd, and ends there (before the kernel's
OOM killer would: what is left for the cache is then less than its file),
as a leaking service ends when it is killed. Its cache is
squeezed out and its file is read back over and over: refaults at its
limit, which tunewatch's cgroup-cache-bounded finding would once have
answered with a bigger MemoryLimit=, which the leak fills the same way
(and the next ticket raises again: a ratchet to the host's memory).

The right answer is no tunable, with why: tunewatchd (1 s samples over a
10 s window, cgroupMax 256) and check_bufcache --cgroup UNIT, polled every
2 s while it runs and a window after, must name no MemoryLimit= for it
(no tune: line, no finding with a tunable), and must at least once say
"no tunable" because its memory besides the cache rose: a control that
never reached its symptom would prove nothing.
"""

import os
import subprocess
import time

import labcache
import labcore
import labneg

META = {"name": "neg-anon-leak", "kind": "negative",
        "symptom": "a service's cache squeezed by its own anonymous leak at its memory limit"}

LIMIT = "64M"
FILE_MIB = 24
LEAK_MIB_S = 2
LEAK_TO_MIB = 44


def run(lab):
    memcg = labcache.cgroup(lab, labcache.MEMCG, labcache.name_of(lab, "leaky") + ".service")
    unit = os.path.basename(memcg)
    data = os.path.join("/var/tmp", labcache.name_of(lab, "data"))
    labcache.cold_file(lab, data, FILE_MIB)
    with open(os.path.join(memcg, "memory.limit_in_bytes"), "w") as fh:
        fh.write(LIMIT + "\n")
    res = lab.result
    res["where"] = "the host's namespaces; the service's cgroup %s (v1 memory)" % unit
    res["setup"] = ("cgroup v1 memory.limit_in_bytes %s; it re-reads a %d MiB file while it "
                    "leaks %d MiB/s of anonymous memory to %d MiB" % (
                        LIMIT, FILE_MIB, LEAK_MIB_S, LEAK_TO_MIB))
    conf = labcache.WITH_LOOPS + "cgroupMax 256\n"

    def wrong(x):
        if isinstance(x, dict):
            if x.get("SUBJECT") == memcg and x.get("TUNABLE"):
                return "a bigger limit for a leak"
            return None
        return "a bigger limit for a leak" if x.line.startswith("tune: %s " % unit) else None

    def expect(a):
        return a.line.startswith("no tunable: %s: " % unit) and "rose by" in a.line

    def work():
        p = subprocess.Popen(labcore.workload_argv(__file__, "leaky", data),
                             preexec_fn=lambda: labcache.join([memcg]))
        lab.journal.proc(p.pid, "leaky service")
        rc = p.wait(timeout=120)
        with open(os.path.join(memcg, "memory.oom_control")) as fh:
            oom = dict(l.split() for l in fh if l.strip())
        assert rc == 0 and oom.get("oom_kill", "0") == "0", \
            "the service did not end as it should: exit %d, oom_kill %s" % (
                rc, oom.get("oom_kill"))

    with labcore.Stack(lab, agent_conf=conf) as stack:
        labneg.watch(lab, stack, work, wrong, "a %d MiB file re-read while %d MiB/s leaks to "
                     "%d MiB, at %s" % (FILE_MIB, LEAK_MIB_S, LEAK_TO_MIB, LIMIT),
                     expect=expect, extra={"check_bufcache": ["--cgroup", unit]})


# ---- the service ------------------------------------------------------------


def leaky(path):
    """Re-read path (held open) while leaking LEAK_MIB_S MiB a second of
    written anonymous memory; end at LEAK_TO_MIB MiB."""
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    kept = []
    t0 = time.monotonic()
    while 8 + len(kept) * 2 < LEAK_TO_MIB:
        for off in range(0, size, 1 << 20):
            os.pread(fd, 1 << 20, off)
        want = int((time.monotonic() - t0) * LEAK_MIB_S) + 8
        while 8 + len(kept) * 2 < min(want, LEAK_TO_MIB):
            kept.append(bytearray(b"\x01") * (2 << 20))


if __name__ == "__main__":
    labcore.main(META, run, {"leaky": leaky})
