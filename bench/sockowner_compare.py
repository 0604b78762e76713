#!/usr/bin/env python3
"""The socket owner search, before and after, side by side (issue 15).

Makes the root bench/sockets.py makes as C (16 disks, 8 CPUs, 10,000 UDP
sockets, 5,000 processes with 10 fds each) in /dev/shm, then runs
bench/sockowner_cost of the build before (--orig-builddir) and of this one
(--builddir) alternately, --rounds times, each timing --runs searches for a
socket no process holds (every fd read). Prints, as medians of the rounds
(each round's figure the median of its runs), in ms of thread CPU time:

  before search      the whole search in one go, as the build before does it
  after search       the same, this build, without a budget
  after run          one run of this build's search under the budget: what a
                     sample pays while a search is under way (the target)
  after whole        the whole search under the budget, run after run
  runs per search    how many samples that whole search spans
  quiet step         a sample of the socket watcher when no drops grew (us)

and the ratios after / before. --proc /proc adds this machine's own /proc
(this build only: the fixture's fds are the comparable part)."""

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
    ap.add_argument("--proc", help="also this /proc, this build only")
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
        rows = {k: [] for k in ("before search", "after search", "after run", "after run max",
                                "after whole", "runs per search", "before quiet step us",
                                "after quiet step us",
                                "this /proc run", "this /proc whole")}
        quiet_searches = 0
        last = None
        for _ in range(args.rounds):
            b = cost(old, proc, args.runs)
            a = cost(new, proc, args.runs, extra)
            last = a
            rows["before search"].append(med_ms(b["search_ns"]))
            rows["after search"].append(med_ms(a["search_ns"]))
            rows["after run"].append(med_ms(a["run_ns"]))
            rows["after run max"].append(max(a["run_ns"]) / 1e6)
            rows["before quiet step us"].append(med_ms(b["quiet_step_ns"]) * 1000)
            rows["after quiet step us"].append(med_ms(a["quiet_step_ns"]) * 1000)
            quiet_searches += a["searches_when_quiet"]
            rows["after whole"].append(med_ms(a["budgeted_search_ns"]))
            rows["runs per search"].append(a["runs_per_search"])
            if args.proc:
                p = cost(new, args.proc, args.runs, extra)
                rows["this /proc run"].append(med_ms(p["run_ns"]))
                rows["this /proc whole"].append(med_ms(p["budgeted_search_ns"]))
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
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
