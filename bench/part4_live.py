# SPDX-License-Identifier: ISC
"""Part 4: live overhead.

tunewatchd with its default interval and window on this machine's /proc and
/sys, behind snmpd, left alone for --live-seconds (5 minutes by default):
its CPU time from /proc/<pid>/schedstat over that time, as a share of one
core. Start-up (the first sample, registering) is before the clock starts.
snmpd's CPU over the same time is reported beside it (AgentX pings every
second), and the CPU per sample.
"""

import os
import time

import twbench as tb


def run(ctx):
    h = tb.twtest.Harness("bench-live")
    with h:
        h.start_snmpd()
        h.start_agent(interval=ctx.interval, window=ctx.window)
        # Let start-up settle: the first timed sample comes one interval in.
        time.sleep(1.0)
        s0 = h.agent_samples()
        a0, d0, t0 = tb.schedstat_ns(h.agent.pid), tb.schedstat_ns(h.snmpd.pid), time.monotonic()
        time.sleep(ctx.live_seconds)
        a1, d1, t1 = tb.schedstat_ns(h.agent.pid), tb.schedstat_ns(h.snmpd.pid), time.monotonic()
        s1 = h.agent_samples()
        rss = tb.status_kb(h.agent.pid, "VmRSS")
        nproc = sum(1 for d in os.listdir("/proc") if d.isdigit())
        disks = len(tb.disk_rows(h))
    wall = t1 - t0
    agent_pct = (a1 - a0) / 1e9 / wall * 100.0
    snmpd_pct = (d1 - d0) / 1e9 / wall * 100.0
    samples = (s1 or 0) - (s0 or 0)
    per_sample = (a1 - a0) / 1e6 / samples if samples else float("nan")
    res = {"seconds": wall, "agent_cpu_ns": a1 - a0, "snmpd_cpu_ns": d1 - d0,
           "samples": samples, "agent_pct": agent_pct, "snmpd_pct": snmpd_pct,
           "ms_per_sample": per_sample, "agent_vmrss_kb": rss, "processes": nproc,
           "disks": disks, "interval": ctx.interval, "window": ctx.window}
    ctx.report.data["part4"] = res
    ctx.report.table(
        "4. Live overhead",
        ["time", "interval / window", "samples", "tunewatchd CPU", "share of one core",
         "per sample", "snmpd CPU (same time)", "tunewatchd RSS", "target"],
        [["%.0f s" % wall, "%d s / %d s" % (ctx.interval, ctx.window), str(samples),
          "%.1f ms" % ((a1 - a0) / 1e6), "**%.4f %%**" % agent_pct, "%.2f ms" % per_sample,
          "%.1f ms (%.4f %%)" % ((d1 - d0) / 1e6, snmpd_pct), "%.1f MB" % (rss / 1024.0),
          "<= 0.1 %%: %s" % ("met" if agent_pct <= 0.1 else "NOT met")]],
        ["This machine's /proc: %d disk(s) kept, %d processes (each sample reads every "
         "process's /proc/PID/io for the hit ratio)." % (disks, nproc)])
