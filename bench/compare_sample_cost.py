#!/usr/bin/env python3
"""A sample's cost, two builds of bench/sample_cost side by side: part 7's
generated root (the agent fixture's /proc, 10 disks, 500 cgroup v2
services), with and without cgroups, 3 interleaved rounds of 120 warm
samples (the median of the rounds' means and medians), then instructions
by callgrind over 60 warm samples, as bench/part7_cgroups.py measures one.

  compare_sample_cost.py BEFORE/bench/sample_cost AFTER/bench/sample_cost

Needs valgrind; prints one line a figure."""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkroot  # noqa: E402
import twbench as tb  # noqa: E402


def main(before, after):
    work = tempfile.mkdtemp(prefix="tw-compare-sample-")
    root = mkroot.make_root(os.path.join(work, "cgroot"), 10, 8, tb.fixtures())
    mkroot.add_cgroups(root, 500)
    proc, sysr = os.path.join(root, "proc"), os.path.join(root, "sys")
    args = ["--proc-root", proc, "--sys-root", sysr, "--interval", "5", "--window", "60"]
    progs = (("before", before), ("after", after))
    cases = (("no cgroups", ["--no-cgroups"]), ("500 cgroups", []))

    def cost(prog, extra):
        out = subprocess.run([prog, "--samples", "120"] + args + extra, capture_output=True,
                             text=True, check=True, timeout=600).stdout
        ns = json.loads(out)["samples_ns"]
        return sum(ns) / len(ns) / 1e6, statistics.median(ns) / 1e6

    def instr(prog, extra):
        counts = []
        for n in (1, 61):
            d = tempfile.mkdtemp(prefix="cg-", dir=work)
            subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                            "--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                            "--samples", str(n)] + args + extra, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=1200, check=True)
            with open(os.path.join(d, "log")) as fh:
                counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
        return (counts[1] - counts[0]) / 60.0

    res = {}
    for _ in range(3):
        for name, prog in progs:
            for case, extra in cases:
                res.setdefault((name, case), []).append(cost(prog, extra))
    for (name, case), v in res.items():
        print("%s, %s: mean %.3f ms, median %.3f ms" % (
            name, case, statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)))
    for name, prog in progs:
        for case, extra in cases:
            print("%s, %s: %.3f M instructions a sample" % (name, case, instr(prog, extra) / 1e6))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
