#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Sockets that drop (issue 15): what twSocketDropTable costs a sample, and
what the owner search costs when it runs.

Roots, made in a temporary directory with bench/mkroot.py:
  A  tests/fixtures/agent with 16 disks and 8 CPUs: today's sample
  B  A and a /proc/net/udp of 10,000 sockets, 100 of them with drops
     that do not grow
  C  B and 5,000 processes of 10 fds each (50,000 fds), none holding a
     listed socket

Side by side in one run, interleaved, --rounds times: bench/sample_cost of
the build before (--orig-builddir, today's code) on A, and of this build
on A and B, 20 warm samples each (tunewatchd's window: 60 s over 5 s, so
one sample in 12 reads the socket files whatever the counters say). Then
bench/sockowner_cost on C: a whole owner search (no process holds the
socket looked for: every fd is read) and the watcher's step when no drops
grew, with the counters' gate and without it.

    python3 bench/sockets.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkroot  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def sample_cost(binary, root, samples):
    r = subprocess.run([binary, "--proc-root", os.path.join(root, "proc"), "--sys-root",
                        os.path.join(root, "sys"), "--samples", str(samples), "--interval", "5",
                        "--window", "60"], capture_output=True, text=True, check=True)
    ns = json.loads(r.stdout)["samples_ns"]
    return statistics.median(ns) / 1e6, statistics.mean(ns) / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir", help="a build of the code before, for today's cost")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--samples", type=int, default=24)
    args = ap.parse_args()
    new = os.path.join(args.builddir, "bench", "sample_cost")
    owner = os.path.join(args.builddir, "bench", "sockowner_cost")
    orig = os.path.join(args.orig_builddir, "bench", "sample_cost") if args.orig_builddir else None
    tmp = tempfile.mkdtemp(prefix="tw-sockbench-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    try:
        fixtures = os.path.join(TOP, "tests", "fixtures")
        a, b, c = (os.path.join(tmp, x) for x in "abc")
        mkroot.make_root(a, 16, 8, fixtures)
        mkroot.make_root(b, 16, 8, fixtures)
        mkroot.add_sockets(b, 10000, 100)
        mkroot.make_root(c, 16, 8, fixtures)
        mkroot.add_sockets(c, 10000, 100)
        mkroot.add_processes(c, 5000, 10)
        runs = {"orig A": [], "new A": [], "new B": []}
        for _ in range(args.rounds):
            if orig:
                runs["orig A"].append(sample_cost(orig, a, args.samples))
            runs["new A"].append(sample_cost(new, a, args.samples))
            runs["new B"].append(sample_cost(new, b, args.samples))
        r = subprocess.run([owner, "--proc-root", os.path.join(c, "proc"), "--runs", "10"],
                           capture_output=True, text=True, check=True)
        o = json.loads(r.stdout)
        res = {k: {"median_ms": statistics.median(x[0] for x in v),
                   "mean_ms": statistics.median(x[1] for x in v)} for k, v in runs.items() if v}
        res["owner"] = {"procs": o["procs"], "fds": o["fds"],
                        "searches_when_quiet": o["searches_when_quiet"],
                        "search_ms": statistics.median(o["search_ns"]) / 1e6,
                        "quiet_step_ms": statistics.median(o["quiet_step_ns"]) / 1e6,
                        "quiet_read_step_ms": statistics.median(o["quiet_read_step_ns"]) / 1e6}
        base = res.get("orig A", res["new A"])
        print("| sample | median CPU ms | mean CPU ms | median / today's | mean / today's |")
        print("|---|---|---|---|---|")
        for k in runs:
            if k in res:
                print("| %s | %.3f | %.3f | %.2fx | %.2fx |" % (
                    k, res[k]["median_ms"], res[k]["mean_ms"],
                    res[k]["median_ms"] / base["median_ms"], res[k]["mean_ms"] / base["mean_ms"]))
        ow = res["owner"]
        print("\nowner search, %d processes, %d fds: %.1f ms CPU (%.2f us a fd); "
              "watcher step when no drops grew: %.4f ms with the counters' gate, %.3f ms "
              "reading the files; owner searches while quiet: %d" % (
                  ow["procs"], ow["fds"], ow["search_ms"], ow["search_ms"] * 1000 / ow["fds"],
                  ow["quiet_step_ms"], ow["quiet_read_step_ms"], ow["searches_when_quiet"]))
        print(json.dumps(res))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
