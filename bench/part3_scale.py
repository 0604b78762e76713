# SPDX-License-Identifier: ISC
"""Part 3: scale.

Generated roots with 10, 100, 1,000 and 10,000 disks and 1,024 CPUs'
softnet rows (2,048 pool rows). For each:

- the CPU time of one sample, as tunewatchd takes it on its timer
  (bench/sample_cost: the thread's CPU clock around tw_monitor_sample(),
  warm, with the default window's queue-refresh slice), and of the first,
  cold one (every device new, every queue directory read);
- tunewatchd's resident memory (VmRSS, and its peak VmHWM) behind snmpd
  with the default window shape (12 intervals), after two samples and a
  full walk;
- the server CPU (snmpd + tunewatchd) of snmpbulkwalk of twDiskTable, per
  disk row (its columns counted against the MIB's twDiskEntry).

Per-row figures divide by the disks; the fixed part of a sample (meminfo,
1,024 softnet rows, ...) makes that fall with size, so the step between
sizes, (cost(n) - cost(m)) / (n - m), is given too: that is the figure an
O(n^2) part would make grow.
"""

import json
import os
import re
import subprocess
import tempfile

import mkroot
import twbench as tb


def sample_cost(ctx, root, samples):
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    out = subprocess.run([prog, "--proc-root", os.path.join(root, "proc"), "--sys-root",
                          os.path.join(root, "sys"), "--samples", str(samples),
                          "--interval", str(ctx.interval), "--window", str(ctx.window)],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    r = json.loads(out)
    r["sample_ms"] = tb.summary(ns / 1e6 for ns in r.pop("samples_ns"))
    r["first_ms"] = r.pop("first_ns") / 1e6
    return r


def sample_instr(ctx, root):
    """Instructions of one warm sample: callgrind counts only inside
    tw_monitor_sample(); 6 samples less 1, over 5. Unlike CPU time, this
    does not move when another program shares the core."""
    prog = os.path.join(ctx.builddir, "bench", "sample_cost")
    counts = []
    for n in (1, 6):
        d = tempfile.mkdtemp(prefix="cgs-", dir=ctx.workdir)
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=tw_monitor_sample",
                        "--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                        "--proc-root", os.path.join(root, "proc"), "--sys-root",
                        os.path.join(root, "sys"), "--samples", str(n), "--interval",
                        str(ctx.interval), "--window", str(ctx.window)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200,
                       check=True)
        with open(os.path.join(d, "log")) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
    return (counts[1] - counts[0]) / 5.0


def walk_cost(h, ndisks, rounds):
    """Server CPU per disk row of walks of twDiskTable, and the columns a
    row had. Each walk is counted against the MIB (twbench.walk_columns):
    every column it returns must be there for every disk, and it may lack
    only DisplayString columns, which the MIB lets a disk lack (a disk with
    no alias or stable identifier has no instance of them)."""
    cols = tb.mib_columns("twDiskEntry")
    readable = {c for c, (_, _, access) in cols.items() if access == "read-only"}
    walks = max(1, 2000 // ndisks)
    per_row = []
    seen = {}
    for _ in range(rounds):
        pids = [h.snmpd.pid, h.agent.pid]
        before = [tb.schedstat_ns(p) for p in pids]
        for _ in range(walks):
            _, seen = tb.walk_columns(h, tb.DISK_ENTRY, "twDiskEntry")
            uneven = {cols[c][0]: k for c, k in seen.items() if k != ndisks}
            if uneven:
                raise RuntimeError("walk of %d disks: columns with another number of rows: %s"
                                   % (ndisks, uneven))
            missing = [cols[c][0] for c in sorted(readable - set(seen))
                       if cols[c][1] != "DisplayString"]
            if missing:
                raise RuntimeError("walk of %d disks: no %s" % (ndisks, ", ".join(missing)))
        after = [tb.schedstat_ns(p) for p in pids]
        per_row.append((sum(after) - sum(before)) / 1000.0 / (walks * ndisks))
    absent = [cols[c][0] for c in sorted(readable - set(seen))]
    return tb.summary(per_row), walks, {"columns": len(seen), "readable": len(readable),
                                        "absent": absent}


def run(ctx):
    results = {}
    h = tb.twtest.Harness("bench-scale")
    intervals = ctx.window // ctx.interval
    with h:
        h.start_snmpd()
        for n in ctx.part3_disks:
            root = mkroot.make_root(os.path.join(h.dir, "root"), n, ctx.part3_cpus, tb.fixtures())
            r = sample_cost(ctx, root, 10 if n >= 10000 else 30)
            r["sample_instr"] = sample_instr(ctx, root)
            # The default window's shape (intervals per window), but samples
            # only when told, so that none lands inside a measured walk.
            h.start_agent(proc_root=os.path.join(root, "proc"), sys_root=os.path.join(root, "sys"),
                          interval=3600, window=3600 * intervals, wait=True)
            h.sample_now()
            r["walk_us_per_row"], r["walks"], r["walk_row"] = walk_cost(
                h, n, 2 if n >= 10000 else 3)
            r["agent_vmrss_kb"] = tb.status_kb(h.agent.pid, "VmRSS")
            r["agent_vmhwm_kb"] = tb.status_kb(h.agent.pid, "VmHWM")
            h.stop(h.agent)
            results[n] = r
    ctx.report.data["part3"] = {str(k): v for k, v in results.items()}

    sizes = ctx.part3_disks
    rows = []
    prev = None
    steps = {}
    for n in sizes:
        r = results[n]
        s = r["sample_ms"]
        step = ""
        if prev is not None:
            steps[n] = (s["median"] - results[prev]["sample_ms"]["median"]) * 1000.0 / (n - prev)
            step = "%.2f" % steps[n]
        rows.append([tb.fmt(n), "%d" % r["pools"], tb.cell(s, 2), "%.1f" % r["first_ms"],
                     "%.2f" % (r["sample_instr"] / 1e6), "%.2f" % (s["median"] * 1000.0 / n), step,
                     "%.1f / %.1f" % (r["agent_vmrss_kb"] / 1024.0, r["agent_vmhwm_kb"] / 1024.0),
                     "%.1f" % (r["vmhwm_kb"] / 1024.0),
                     tb.cell(r["walk_us_per_row"], 0), str(r["walk_us_per_row"]["runs"])])
        prev = n
    verdicts = []
    if 100 in results and 10000 in results:
        a, b = results[100], results[10000]
        w = b["walk_us_per_row"]["median"] / a["walk_us_per_row"]["median"]
        s100 = a["sample_ms"]["median"] / 100
        s10k = b["sample_ms"]["median"] / 10000
        verdicts.append("Walk CPU per row at 10,000 / at 100: **%.2fx** (target <= 1.5x: %s)."
                        % (w, "met" if w <= 1.5 else "NOT met"))
        verdicts.append("Sample CPU per disk at 10,000 / at 100: **%.2fx** (target <= 1.5x: %s)."
                        % (s10k / s100, "met" if s10k / s100 <= 1.5 else "NOT met"))
        if 1000 in results:
            i1, i2 = results[1000]["sample_instr"], b["sample_instr"]
            i0 = a["sample_instr"]
            verdicts.append("A sample's fixed part (1,024 softnet rows, meminfo, ...) makes "
                            "that fall with size; instructions per added disk say more: "
                            "%.0f from 100 to 1,000 disks, %.0f from 1,000 to 10,000 (**%.2fx**)."
                            % ((i1 - i0) / 900, (i2 - i1) / 9000,
                               ((i2 - i1) / 9000) / ((i1 - i0) / 900)))
        ms = b["sample_ms"]["median"]
        verdicts.append("One sample of 10,000 disks: **%.1f ms** CPU (target <= 20 ms: %s)."
                        % (ms, "met" if ms <= 20 else "NOT met"))
        rss = b["agent_vmhwm_kb"] / 1024.0
        verdicts.append("tunewatchd's peak RSS at 10,000 disks: **%.1f MB** (target <= 32 MB: %s)."
                        % (rss, "met" if rss <= 32 else "NOT met"))
    shape = results[sizes[0]]["walk_row"]
    row_shape = "%d of the MIB's %d readable columns a row" % (shape["columns"], shape["readable"])
    if shape["absent"]:
        row_shape += "; no %s: the generated disks have none" % ", ".join(shape["absent"])
    notes = ["%d CPUs' softnet rows in every root; tunewatchd's window: %d intervals (the "
             "default %d s / %d s shape). Sample: 30 runs each (10 at 10,000), warm, median "
             "(min-max) ms; the first (cold) sample reads every device's queue directory; M instr: "
             "callgrind's count for one warm sample, which load on the other core does not "
             "move. Walk: "
             "snmpbulkwalk of twDiskTable (%s), server CPU (snmpd + tunewatchd) per disk "
             "row, median (min-max) of rounds of walks. MB are MiB." %
             (ctx.part3_cpus, intervals, ctx.window, ctx.interval, row_shape)] + verdicts
    ctx.report.table("3. Scale", ["disks", "pool rows", "sample CPU ms", "first sample ms",
                                  "sample M instr", "sample us/disk", "us per added disk",
                                  "tunewatchd RSS / peak MB",
                                  "sample_cost peak MB", "walk us/row (snmpd+agent)",
                                  "walk rounds"], rows, notes)
