#!/usr/bin/env python3
"""What showing names costs a sample (issue 21: every name escaped where
it enters the sample, lib/util/escape.h), before and after, side by side
in one run: bench/sample_cost of the build before (--orig-builddir) and of
this one (--builddir), interleaved, --rounds times, on part 3's largest
root (bench/mkroot.py: the fixture's /proc with 10,000 disks and 1,024
CPUs, made in /dev/shm), 10 warm samples a run; then instructions per
warm sample (callgrind, 6 - 1 samples over 5), which load on the other
core does not move, and each build's peak RSS.

    python3 bench/names_compare.py --builddir build/dev --orig-builddir /tmp/orig
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


def instructions(binary, args, samples):
    """callgrind's count inside tw_monitor_sample for a run of `samples`."""
    out = tempfile.mktemp(prefix="tw-names-cg-")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                        "--callgrind-out-file=" + out, binary] + args +
                       ["--samples", str(samples)], capture_output=True, text=True)
    os.unlink(out)
    m = re.search(r"Collected : (\d+)", r.stderr)
    assert m, r.stderr[-500:]
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    bins = {"before": os.path.join(a.orig_builddir, "bench", "sample_cost"),
            "after": os.path.join(a.builddir, "bench", "sample_cost")}
    root = tempfile.mkdtemp(prefix="tw-names-root-", dir="/dev/shm")
    try:
        mkroot.make_root(root, 10000, 1024, os.path.join(TOP, "tests", "fixtures"))
        args = ["--proc-root", root + "/proc", "--sys-root", root + "/sys"] + COMMON
        runs = {k: {"ns": [], "hwm": []} for k in bins}
        for _ in range(a.rounds):
            for k, b in bins.items():
                out = subprocess.run([b] + args + ["--samples", "10"], capture_output=True,
                                     text=True, check=True).stdout
                d = json.loads(out.strip().splitlines()[-1])
                runs[k]["ns"] += d["samples_ns"]
                runs[k]["hwm"].append(d["vmhwm_kb"])
        instr = {k: (instructions(b, args, 6) - instructions(b, args, 1)) / 5
                 for k, b in bins.items()}
    finally:
        shutil.rmtree(root)
    for k in bins:
        ns = sorted(runs[k]["ns"])
        print("%-6s CPU ms a sample: median %.2f (min %.2f, max %.2f, %d samples); "
              "M instr a sample %.2f; peak RSS %d-%d kB" % (
                  k, statistics.median(ns) / 1e6, ns[0] / 1e6, ns[-1] / 1e6, len(ns),
                  instr[k] / 1e6, min(runs[k]["hwm"]), max(runs[k]["hwm"])))
    print("after / before: instructions %.3fx, CPU median %.3fx, CPU min %.3fx, peak RSS %.3fx" % (
        instr["after"] / instr["before"],
        statistics.median(runs["after"]["ns"]) / statistics.median(runs["before"]["ns"]),
        min(runs["after"]["ns"]) / min(runs["before"]["ns"]),
        statistics.median(runs["after"]["hwm"]) / statistics.median(runs["before"]["hwm"])))
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
