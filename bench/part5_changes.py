# SPDX-License-Identifier: ISC
"""Part 5: the cost of the change watch (issue 11, "the record of a change").

On a generated root of 10,000 disks and 1,024 CPUs' softnet rows, one
sample as tunewatchd takes it on its timer (bench/sample_cost) without and
with the change watch that runs after it (--changes: compare every
tunable and every disk's queue attributes with the previous sample's,
evaluate, publish twChangeTable), side by side in one run:

- callgrind's instructions for one warm sample (6 samples less 1, over 5),
  which load on the other core does not move;
- the thread's CPU time of a warm sample, the two programs interleaved
  round by round, so that noise hits both alike.

The ratio of the two is the figure: the target for findings plus the
change watch together is 1.2x of the sample alone; this part measures the
change watch's share.
"""

import os
import re
import subprocess
import tempfile

import mkroot
import twbench as tb



def cpu_ms(ctx, root, changes, samples):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    argv = [prog, "--proc-root", os.path.join(root, "proc"), "--sys-root",
            os.path.join(root, "sys"), "--samples", str(samples), "--interval",
            str(ctx.interval), "--window", str(ctx.window)] + (["--changes"] if changes else [])
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=True).stdout
    return [ns / 1e6 for ns in tb.json.loads(out)["samples_ns"]]


def instr(ctx, root, changes):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    # The change history is kept inside the monitor's sample, so one toggle
    # counts it (a nested toggle would turn the count off within it).
    toggles = ["--toggle-collect=tw_monitor_sample"]
    counts = []
    for n in (1, 6):
        d = tempfile.mkdtemp(prefix="cgc-", dir=ctx.workdir)
        subprocess.run(["valgrind", "--tool=callgrind"] + toggles +
                       ["--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                        "--proc-root", os.path.join(root, "proc"), "--sys-root",
                        os.path.join(root, "sys"), "--samples", str(n), "--interval",
                        str(ctx.interval), "--window", str(ctx.window)] +
                       (["--changes"] if changes else []),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200,
                       check=True)
        with open(os.path.join(d, "log")) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
    return (counts[1] - counts[0]) / 5.0


def run(ctx):
    base = tempfile.mkdtemp(prefix="part5-", dir=ctx.workdir)
    disks = ctx.scale_disks
    root = mkroot.make_root(os.path.join(base, "root"), disks, ctx.part3_cpus, tb.fixtures())
    rounds = 2 if ctx.quick else 5
    without, with_ = [], []
    for _ in range(rounds):
        without += cpu_ms(ctx, root, False, 10)
        with_ += cpu_ms(ctx, root, True, 10)
    a, b = tb.summary(without), tb.summary(with_)
    ia, ib = instr(ctx, root, False), instr(ctx, root, True)
    ctx.report.data["part5"] = {"without_ms": a, "with_ms": b, "without_instr": ia,
                                "with_instr": ib}
    rows = [["sample alone", tb.cell(a, 2), "%.2f" % (ia / 1e6), "1.00x"],
            ["sample + change watch", tb.cell(b, 2), "%.2f" % (ib / 1e6),
             "%.3fx instr, %.3fx CPU" % (ib / ia, tb.ratio(b, a))]]
    notes = ["%s disks, %d CPUs' softnet rows, the default window's shape (%d s / %d s). "
             "CPU: a warm sample's thread CPU time, median (min-max) of %d rounds x 10 "
             "samples, the two interleaved by round; M instr: callgrind, one warm sample."
             % (tb.fmt(disks), ctx.part3_cpus, ctx.window, ctx.interval, rounds),
             "The change watch adds **%.3fx** instructions (target for findings and the "
             "change watch together: within 1.2x)." % (ib / ia)]
    ctx.report.table("5. The change watch", ["sample", "CPU ms", "M instr", "ratio"], rows,
                     notes)
