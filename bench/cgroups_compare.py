#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The sample with 500 cgroups (issue 15), before and after a change, side
by side in one run: bench/sample_cost of the build before
(--orig-builddir) and of this one (--builddir), interleaved, --rounds
times, on part 7's root (bench/mkroot.py: the fixture's /proc, 10 disks,
8 CPUs, 500 cgroup v2 services) and with this machine's /proc, with and
without cgroups; and on a second root like it where each service's
cgroup.procs lists a process of its own in the fixture's /proc
(mkroot.add_cgroup_processes: a host with 500 services has at least 500
processes, which every sample reads), with and without cgroups; and on a
third where every service does I/O between samples (sample_cost
--cgroups-busy, untimed), so that each walk reads every io.stat, the
walk's worst case (the other roots' counters stand still, so a walk
after the first reads only the top level's). 120 warm
samples a run (two walks, at the default cgroupRescan of 300 s and
interval of 5 s). Then instructions per warm sample (callgrind, 61 - 1
samples over 60, one walk) of both builds on the fixture roots, which
load on the other core does not move, and (with strace) the system
calls a sample makes.

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


def syscalls(prog, proc, sys_root, extra, tmp):
    """System calls a warm sample makes (strace), the mean of 120 samples
    (two walks) and the most in one (a walk): a figure load on the other
    core does not move. Each sample follows its 2-ms pause's
    clock_nanosleep; the 121st, which holds the exit, is left out."""
    log = os.path.join(tmp, "strace.log")
    subprocess.run(["strace", "-o", log, prog, "--proc-root", proc, "--sys-root", sys_root,
                    "--samples", "121"] + COMMON + extra, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    counts = []
    with open(log) as fh:
        for line in fh:
            if line.startswith("clock_nanosleep"):
                counts.append(0)
            elif counts:
                counts[-1] += 1
    if "--cgroups-busy" in extra:
        # Each sample follows a second pause, after the writes
        # (sample_cost --cgroups-busy): the writes are not counted.
        counts = counts[1::2]
    counts = counts[:120]
    return sum(counts) / len(counts), max(counts)


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
        host = mkroot.make_root(os.path.join(tmp, "host"), 10, 8,
                                os.path.join(TOP, "tests", "fixtures"))
        mkroot.add_cgroups(host, 500)
        mkroot.add_cgroup_processes(host, 500)
        hproc, hsys = os.path.join(host, "proc"), os.path.join(host, "sys")
        # Every service doing I/O between walks (sample_cost --cgroups-busy,
        # untimed): no subtree is quiet, every io.stat is read.
        busy = mkroot.make_root(os.path.join(tmp, "busy"), 10, 8,
                                os.path.join(TOP, "tests", "fixtures"))
        mkroot.add_cgroups(busy, 500)
        bproc, bsys = os.path.join(busy, "proc"), os.path.join(busy, "sys")
        builds = [("before", os.path.join(a.orig_builddir, "bench", "sample_cost")),
                  ("after", os.path.join(a.builddir, "bench", "sample_cost"))]
        # (name, proc root, sys root, options, instructions counted)
        cases = [("fixture /proc, no cgroups", proc, sys_root, ["--no-cgroups"], True),
                 ("fixture /proc, 500 cgroups", proc, sys_root, [], True),
                 ("this machine's /proc, no cgroups", "/proc", sys_root, ["--no-cgroups"],
                  False),
                 ("this machine's /proc, 500 cgroups", "/proc", sys_root, [], False),
                 ("fixture /proc + a process per service, no cgroups", hproc, hsys,
                  ["--no-cgroups"], True),
                 ("fixture /proc + a process per service, 500 cgroups", hproc, hsys, [],
                  True),
                 ("fixture /proc, no cgroups (busy root)", bproc, bsys,
                  ["--no-cgroups", "--cgroups-busy"], True),
                 ("fixture /proc, 500 cgroups all doing I/O", bproc, bsys,
                  ["--cgroups-busy"], True)]
        res = {}
        for _ in range(a.rounds):
            for b, prog in builds:
                for name, p, sr, extra, _ in cases:
                    res.setdefault((b, name), []).append(run(prog, p, sr, extra))
        print("| build | root | mean ms | median ms | max ms (a walk) | M instr per sample |")
        print("|---|---|---|---|---|---|")
        mean, ins = {}, {}
        for b, prog in builds:
            for name, p, sr, extra, counted in cases:
                med = [statistics.median(r[i] for r in res[(b, name)]) for i in range(3)]
                mean[(b, name)] = med[0]
                if counted:
                    ins[(b, name)] = instr(prog, p, sr, extra, tmp)
                print("| %s | %s | %.3f | %.3f | %.3f | %s |" % (
                    b, name, med[0], med[1], med[2],
                    "%.3f" % (ins[(b, name)] / 1e6) if counted else ""))
        if shutil.which("strace"):
            print()
            print("| build | root | system calls a sample, mean | in a walk's sample |")
            print("|---|---|---|---|")
            for b, prog in builds:
                for name, p, sr, extra, counted in cases:
                    if counted:
                        mean_calls, walk_calls = syscalls(prog, p, sr, extra, tmp)
                        print("| %s | %s | %.1f | %d |" % (b, name, mean_calls, walk_calls))
        # Each "500 cgroups" row against the "no cgroups" row before it.
        print()
        print("| ratio, 500 cgroups / none (same build) | before | after |")
        print("|---|---|---|")
        for none, cg in zip(cases[0::2], cases[1::2]):
            print("| %s, mean | %.2fx | %.2fx |" % (
                cg[0], mean[("before", cg[0])] / mean[("before", none[0])],
                mean[("after", cg[0])] / mean[("after", none[0])]))
            if cg[4]:
                print("| %s, instructions | %.2fx | %.2fx |" % (
                    cg[0], ins[("before", cg[0])] / ins[("before", none[0])],
                    ins[("after", cg[0])] / ins[("after", none[0])]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
