#!/usr/bin/env python3
"""The sample with 500 cgroups (issue 15), before and after a change, side
by side in one run: bench/sample_cost of the build before
(--orig-builddir) and of this one (--builddir), interleaved, --rounds
times, on part 7's root (bench/mkroot.py: the fixture's /proc, 10 disks,
8 CPUs, 500 cgroup v2 services) and with this machine's /proc, with and
without cgroups; 120 warm samples a run (two walks, at the default
cgroupRescan of 300 s and interval of 5 s). Then instructions per warm
sample (callgrind, 61 - 1 samples over 60, one walk) of both builds on the
fixture root, which load on the other core does not move.

    python3 bench/cgroups_compare.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkroot  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
COMMON = ["--interval", "5", "--window", "60"]


def run(prog, proc, sys_root, extra):
    out = subprocess.run([prog, "--proc-root", proc, "--sys-root", sys_root, "--samples",
                          "120"] + COMMON + extra, capture_output=True, text=True,
                         check=True, timeout=600).stdout
    ns = json.loads(out)["samples_ns"]
    return sum(ns) / len(ns) / 1e6, statistics.median(ns) / 1e6, max(ns) / 1e6


def instr(prog, proc, sys_root, extra, tmp):
    counts = []
    for n in (1, 61):
        log = os.path.join(tmp, "cg.log")
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                        "--callgrind-out-file=" + os.path.join(tmp, "cg.out"),
                        "--log-file=" + log, prog, "--proc-root", proc, "--sys-root",
                        sys_root, "--samples", str(n)] + COMMON + extra,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(log) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
    return (counts[1] - counts[0]) / 60.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="twcgcmp-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    try:
        root = mkroot.make_root(os.path.join(tmp, "root"), 10, 8,
                                os.path.join(TOP, "tests", "fixtures"))
        mkroot.add_cgroups(root, 500)
        proc, sys_root = os.path.join(root, "proc"), os.path.join(root, "sys")
        builds = [("before", os.path.join(a.orig_builddir, "bench", "sample_cost")),
                  ("after", os.path.join(a.builddir, "bench", "sample_cost"))]
        cases = [("fixture /proc, no cgroups", proc, ["--no-cgroups"]),
                 ("fixture /proc, 500 cgroups", proc, []),
                 ("this machine's /proc, no cgroups", "/proc", ["--no-cgroups"]),
                 ("this machine's /proc, 500 cgroups", "/proc", [])]
        res = {}
        for _ in range(a.rounds):
            for b, prog in builds:
                for name, p, extra in cases:
                    res.setdefault((b, name), []).append(run(prog, p, sys_root, extra))
        print("| build | root | mean ms | median ms | max ms (a walk) | M instr per sample |")
        print("|---|---|---|---|---|---|")
        for b, prog in builds:
            for name, p, extra in cases:
                med = [statistics.median(r[i] for r in res[(b, name)]) for i in range(3)]
                ins = "%.3f" % (instr(prog, p, sys_root, extra, tmp) / 1e6) \
                    if p == proc else ""
                print("| %s | %s | %.3f | %.3f | %.3f | %s |" % (b, name, med[0], med[1],
                                                               med[2], ins))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
