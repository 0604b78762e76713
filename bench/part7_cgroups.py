# SPDX-License-Identifier: ISC
"""Part 7: the cost of the cgroup table (issue 15).

One generated root (tests/fixtures/agent's proc tree, 10 disks, 8 CPUs'
softnet rows) sampled as tunewatchd does, side by side in one run:

- without cgroups (sample_cost --no-cgroups: the sample as it was before
  twCgroupTable, whose only trace on that path is one NULL test);
- with 500 cgroup v2 services in its sys/fs/cgroup (bench/mkroot.py
  add_cgroups: each with the kernel's files, I/O, every other one bounded
  by memory.high), published up to the default cgroupMax (16) and walked
  every five minutes (the default cgroupRescan: every 60th sample at the
  default interval of 5 s);
- the same root and cgroups with this machine's real /proc instead of the
  fixture's, where a sample reads every process's /proc/[pid]/io, with the
  default cgroupMax and with 8;
- a second root like the first where each service's cgroup.procs lists a
  process of its own in the fixture's /proc (mkroot.add_cgroup_processes:
  a host with 500 services has at least 500 processes, and every sample
  reads each one's io and stat), with and without cgroups: the ratio for a
  host of that size. The first root's ratio stays the headline figure.

120 warm samples each (two walks); the figure is the mean, since the walk
lands on one sample in sixty, and the median, which is a sample without a
walk. Instructions (callgrind) for the mean of 60 warm samples (one walk),
which load on the other core does not move.
"""

import json
import os
import re
import statistics
import subprocess
import tempfile

import mkroot
import twbench as tb

SAMPLES = 120
CGROUPS = 500


def cost(ctx, proc, sys_root, extra):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    out = subprocess.run([prog, "--proc-root", proc, "--sys-root", sys_root, "--samples",
                          str(samples(ctx)), "--interval", str(ctx.interval), "--window",
                          str(ctx.window)] + extra, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    r = json.loads(out)
    ns = r.pop("samples_ns")
    r["median_ms"] = statistics.median(ns) / 1e6
    r["mean_ms"] = sum(ns) / len(ns) / 1e6
    r["max_ms"] = max(ns) / 1e6
    r["first_ms"] = r.pop("first_ns") / 1e6
    return r


def samples(ctx):
    """120 warm samples (two walks); 3 for --quick, which only shows that
    the part runs (the cold first sample walks)."""
    return 3 if ctx.quick else SAMPLES


def instr(ctx, proc, sys_root, extra):
    """Instructions per warm sample: (61 samples - 1) / 60 (for --quick,
    (3 - 1) / 2, with no walk among them)."""
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    last = 3 if ctx.quick else 61
    counts = []
    for n in (1, last):
        d = tempfile.mkdtemp(prefix="cg5-", dir=ctx.workdir)
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                        "--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                        "--proc-root", proc, "--sys-root", sys_root, "--samples", str(n),
                        "--interval", str(ctx.interval), "--window", str(ctx.window)] + extra,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200,
                       check=True)
        with open(os.path.join(d, "log")) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
    return (counts[1] - counts[0]) / float(last - 1)


def run(ctx):
    base = os.path.join(ctx.workdir, "cgroot")
    root = mkroot.make_root(base, 10, 8, tb.fixtures())
    cgroups = 50 if ctx.quick else CGROUPS
    mkroot.add_cgroups(root, cgroups)
    proc, sys_root = os.path.join(root, "proc"), os.path.join(root, "sys")
    host = mkroot.make_root(os.path.join(ctx.workdir, "cghost"), 10, 8, tb.fixtures())
    mkroot.add_cgroups(host, cgroups)
    mkroot.add_cgroup_processes(host, cgroups)
    hproc, hsys = os.path.join(host, "proc"), os.path.join(host, "sys")
    cases = [("fixture /proc, no cgroups (before)", proc, sys_root, ["--no-cgroups"]),
             ("fixture /proc, %d cgroups" % cgroups, proc, sys_root, []),
             ("this machine's /proc, no cgroups (before)", "/proc", sys_root, ["--no-cgroups"]),
             ("this machine's /proc, %d cgroups" % cgroups, "/proc", sys_root, []),
             ("this machine's /proc, %d cgroups, cgroupMax 8" % cgroups, "/proc", sys_root,
              ["--cgroup-max", "8"]),
             ("fixture /proc + a process per service, no cgroups (before)", hproc, hsys,
              ["--no-cgroups"]),
             ("fixture /proc + a process per service, %d cgroups" % cgroups, hproc, hsys, [])]
    results = {}
    # Interleaved rounds, so that load on the shared machine hits both.
    rounds = 1 if ctx.quick else 3
    for rnd in range(rounds):
        for name, p, sr, extra in cases:
            results.setdefault(name, []).append(cost(ctx, p, sr, extra))
    inst = {name: instr(ctx, p, sr, extra) for name, p, sr, extra in cases[:2] + cases[5:]}
    ctx.report.data["part7"] = {"results": results, "instr": inst}

    def med(name, key):
        return statistics.median(r[key] for r in results[name])

    rows = []
    for name, _, _, _ in cases:
        rows.append([name, "%d" % results[name][0]["cgroups"], "%.3f" % med(name, "mean_ms"),
                     "%.3f" % med(name, "median_ms"), "%.3f" % med(name, "max_ms"),
                     "%.2f" % med(name, "first_ms"),
                     "%.2f" % (inst[name] / 1e6) if name in inst else ""])
    verdicts = []
    for before, after in ((cases[0][0], cases[1][0]), (cases[2][0], cases[3][0]),
                          (cases[2][0], cases[4][0]), (cases[5][0], cases[6][0])):
        r_mean = med(after, "mean_ms") / med(before, "mean_ms")
        verdicts.append("%s / %s: mean **%.2fx**, median %.2fx (target <= 1.3x: %s)." % (
            after, before, r_mean, med(after, "median_ms") / med(before, "median_ms"),
            "met" if r_mean <= 1.3 else "NOT met"))
    verdicts.append("Instructions per sample, %d cgroups / none, fixture /proc: **%.2fx**; "
                    "with a process per service: %.2fx." % (
                        cgroups, inst[cases[1][0]] / inst[cases[0][0]],
                        inst[cases[6][0]] / inst[cases[5][0]]))
    notes = ["%d warm samples per run (a walk of the hierarchy every 300 s at the "
             "interval of %d s), %d interleaved runs, medians of the runs' figures; ms of the "
             "thread's CPU time; first: the cold sample, which walks." % (
                 samples(ctx), ctx.interval, rounds)] + verdicts
    ctx.report.table("5. Cgroups", ["root", "cgroups published", "mean sample ms",
                                    "median sample ms", "max sample ms (a walk)",
                                    "first sample ms", "M instr per sample"], rows, notes)
