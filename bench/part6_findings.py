# SPDX-License-Identifier: ISC
"""Part 6: the cost of findings.

One generated root with 10,000 disks and 1,024 CPUs' softnet rows (as part
3's largest), sampled by bench/sample_cost three ways, side by side in one
run: without findings; with findings as tunewatchd judges by default
(nothing wrong on this root, so every disk, pool and the cache is judged
and nothing is raised); and with every disk judged bad (r_await range
"@0:"), the worst case: 10,000 observations a sample against a 256-row
table. CPU time: the thread's CPU clock around tw_monitor_sample(), the
three modes interleaved round by round so that load on the machine falls
on each alike; instructions: callgrind's count for one warm sample
(6 samples less 1, over 5), which that load does not move. The ratios are
against the sample without findings.
"""

import json
import os
import re
import subprocess
import tempfile

import mkroot
import twbench as tb

MODES = (("without findings", []), ("findings (default thresholds)", ["--findings"]),
         ("findings, every disk bad", ["--findings-all"]))


def sample(ctx, root, args, samples):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    out = subprocess.run([prog, "--proc-root", os.path.join(root, "proc"), "--sys-root",
                          os.path.join(root, "sys"), "--samples", str(samples), "--interval",
                          str(ctx.interval), "--window", str(ctx.window)] + args,
                         capture_output=True, text=True, timeout=600, check=True).stdout
    return json.loads(out)


def instructions(ctx, root, args):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    counts = []
    for n in (1, 6):
        d = tempfile.mkdtemp(prefix="cgf-", dir=ctx.workdir)
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                        "--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                        "--proc-root", os.path.join(root, "proc"), "--sys-root",
                        os.path.join(root, "sys"), "--samples", str(n), "--interval",
                        str(ctx.interval), "--window", str(ctx.window)] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200,
                       check=True)
        with open(os.path.join(d, "log")) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
    return (counts[1] - counts[0]) / 5.0


def run(ctx):
    root = mkroot.make_root(os.path.join(ctx.workdir, "findings-root"), ctx.scale_disks, 1024,
                            tb.fixtures())
    rounds = getattr(ctx, "part6_rounds", 5)
    ms = {name: [] for name, _ in MODES}
    last = {}
    for _ in range(rounds):
        for name, args in MODES:
            r = sample(ctx, root, args, 10)
            ms[name] += [ns / 1e6 for ns in r["samples_ns"]]
            last[name] = r
    instr = {name: instructions(ctx, root, args) for name, args in MODES}
    base_ms = tb.summary(ms[MODES[0][0]])["median"]
    base_i = instr[MODES[0][0]]
    rows = []
    data = {}
    for name, _ in MODES:
        s = tb.summary(ms[name])
        rows.append([name, "%d" % last[name]["findings"], "%d" % last[name]["overflows"],
                     tb.cell(s, 2), "%.2fx" % (s["median"] / base_ms),
                     "%.2f" % (instr[name] / 1e6), "%.2fx" % (instr[name] / base_i)])
        data[name] = {"sample_ms": s, "instr": instr[name], "findings": last[name]["findings"],
                      "overflows": last[name]["overflows"]}
    ctx.report.data["part6"] = data
    ratio = instr[MODES[1][0]] / base_i
    ctx.report.table(
        "Part 6: findings on %s disks and 1,024 CPUs" % tb.fmt(ctx.scale_disks),
        ["sample", "findings raised", "overflows so far", "sample CPU ms", "CPU ratio",
         "M instr / sample", "instr ratio"], rows,
        ["Findings as tunewatchd runs them, against the same sample without: **%.2fx** "
         "instructions (target <= 1.2x: %s)." % (ratio, "met" if ratio <= 1.2 else "NOT met")])
