#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The socket owner search, before and after, side by side (issue 15).

Makes the root bench/sockets.py makes as C (16 disks, 8 CPUs, 10,000 UDP
sockets, 5,000 processes with 10 fds each, each with a stat as Linux
prints it: the search reads the start time of the process a run stops in)
in /dev/shm, then runs
bench/sockowner_cost of the build before (--orig-builddir) and of this one
(--builddir) alternately, --rounds times, each timing --runs searches for a
socket no process holds (every fd read). Prints, as medians of the rounds
(each round's figure the median of its runs), in ms of thread CPU time:

  before search      the whole search in one go, as the build before does it
  after search       the same, this build, without a budget
  before/after run   one run of the search under the budget: what a sample
                     pays while a search is under way (the target)
  before/after whole the whole search under the budget, run after run
  runs per search    how many samples that whole search spans
  quiet step         a sample of the socket watcher when no drops grew (us)

and the ratios after / before. --budget is given to both builds. --proc
/proc adds this machine's own /proc, both builds alternating (its processes
come and go between the rounds; the fixture is the comparable part)."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "bench"))
import mkroot  # noqa: E402


def add_stats(proc):
    """A stat for each process of the fixture, as Linux 6.1 prints it, with
    start times that grow with the pid (field 22)."""
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        pid = int(name)
        with open(os.path.join(proc, name, "stat"), "w") as fh:
            fh.write("%d (worker) S 1 %d %d 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0 %d "
                     "8482816 896 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 "
                     "0 0 0 0 0 0 0 0 0 0\n" % (pid, pid, pid, 1000 + pid))


def cost(binary, proc, runs, extra=()):
    r = subprocess.run([binary, "--proc-root", proc, "--runs", str(runs)] + list(extra),
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def med_ms(ns):
    return statistics.median(ns) / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir", required=True)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--budget", type=int, help="ms; default: sockOwnerBudget's default")
    ap.add_argument("--proc", help="also this /proc, both builds")
    args = ap.parse_args()
    new = os.path.join(args.builddir, "bench", "sockowner_cost")
    old = os.path.join(args.orig_builddir, "bench", "sockowner_cost")
    extra = ["--budget", str(args.budget)] if args.budget is not None else []
    tmp = tempfile.mkdtemp(prefix="tw-ownerbench-",
                           dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        c = os.path.join(tmp, "c")
        mkroot.make_root(c, 16, 8, os.path.join(TOP, "tests", "fixtures"))
        mkroot.add_sockets(c, 10000, 100)
        mkroot.add_processes(c, 5000, 10)
        proc = os.path.join(c, "proc")
        add_stats(proc)
        rows = {k: [] for k in ("before search", "after search", "before run", "after run",
                                "before run max", "after run max", "before whole",
                                "after whole", "before runs per search",
                                "after runs per search", "before quiet step us",
                                "after quiet step us",
                                "before /proc run", "after /proc run",
                                "before /proc whole", "after /proc whole")}
        quiet_searches = 0
        last = None
        for _ in range(args.rounds):
            b = cost(old, proc, args.runs, extra)
            a = cost(new, proc, args.runs, extra)
            last = a
            for k, r in (("before", b), ("after", a)):
                rows[k + " search"].append(med_ms(r["search_ns"]))
                rows[k + " run"].append(med_ms(r["run_ns"]))
                rows[k + " run max"].append(max(r["run_ns"]) / 1e6)
                rows[k + " whole"].append(med_ms(r["budgeted_search_ns"]))
                rows[k + " runs per search"].append(r["runs_per_search"])
                rows[k + " quiet step us"].append(med_ms(r["quiet_step_ns"]) * 1000)
            quiet_searches += a["searches_when_quiet"]
            if args.proc:
                for k, binary in (("before", old), ("after", new)):
                    p = cost(binary, args.proc, args.runs, extra)
                    rows[k + " /proc run"].append(med_ms(p["run_ns"]))
                    rows[k + " /proc whole"].append(med_ms(p["budgeted_search_ns"]))
        print("fixture: %d processes, %d fds; budget %d ms; %d rounds of %d runs" %
              (last["procs"], last["fds"], last["budget_ms"], args.rounds, args.runs))
        for k, v in rows.items():
            if v:
                print("%-18s median %8.2f  (%s)" % (k, statistics.median(v),
                                                    ", ".join("%.2f" % x for x in v)))
        print("searches in the quiet steps (no drops grew): %d" % quiet_searches)
        before = statistics.median(rows["before search"])
        for k in ("after search", "after run", "after whole"):
            print("%-18s / before search: %.3fx" % (k, statistics.median(rows[k]) / before))
        for k in ("search", "run", "whole", "/proc run", "/proc whole"):
            if rows["before " + k]:
                print("after %-12s / before %-12s %.3fx" % (
                    k, k, statistics.median(rows["after " + k]) /
                    statistics.median(rows["before " + k])))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
