#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""What timing every request costs, measured side by side in one run, on a
loop device over a sparse file (the highest IOPS a loop device gives
here: its reads need no disk):

1. the time fio's random 4 KiB reads take at queue depth 1 (psync), and
   the CPU (all of /proc/stat's busy time) per request at the depth that
   gives the most IOPS (io_uring, 32), with nothing timing them, with
   tunewatchd timing them (the kernel's issue stamp, the default; and its
   own clock, requestLatencyIssueClock program), and with bpftrace's
   biolatency on the block tracepoints; rounds interleaved, the order
   turned each round, medians reported (goal: at most 300 ns a request,
   and below bpftrace's);
2. the programs' own run time per request, from the kernel's BPF
   statistics (held on only for these runs), tunewatchd's and bpftrace's,
   and the floor those statistics charge two programs that do nothing on
   the same tracepoints (bench/reqlat_floor);
3. the memory of the maps for this machine and for larger ones, and of
   tunewatchd's window;
4. what reading the maps costs tunewatchd: its CPU over the same seconds,
   sampling every second, timing the device and not (requestLatency no),
   side by side.

Debian's biolatency.bt attaches kprobes, which this kernel does not have;
the one run here is its program on the tracepoints (block_rq_issue and
block_rq_complete, keyed by device and sector) with hist(). Needs root,
BTF, fio, bpftrace and losetup. Everything started is stopped, the loop
device detached, tracefs unmounted if this mounted it.

    make bench-reqlat [BENCH_ARGS='--rounds 9 --seconds 5']
"""

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import twbench as tb  # noqa: E402

BIOLATENCY = """
tracepoint:block:block_rq_issue { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/
{
	@usecs = hist((nsecs - @start[args->dev, args->sector]) / 1000);
	delete(@start[args->dev, args->sector]);
}
END { clear(@start); }
"""

# bpftool names a program by its BTF name where it has one (ours), else
# by the kernel's 15 characters (bpftrace's).
OURS = "tw_reqlat_"
THEIRS = "block_rq_"


def busy_ns():
    with open("/proc/stat") as fh:
        v = [int(x) for x in fh.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) * 1e9 / os.sysconf("SC_CLK_TCK")


def fio(dev, seconds, engine, depth):
    r = subprocess.run(["fio", "--name=b", "--filename=" + dev, "--direct=1", "--rw=randread",
                        "--bs=4k", "--runtime=%d" % seconds, "--time_based",
                        "--ioengine=" + engine, "--iodepth=%d" % depth, "--output-format=json"],
                       capture_output=True, text=True, check=True)
    j = json.loads(r.stdout)["jobs"][0]["read"]
    return j["total_ios"], j["iops"], j["clat_ns"]["mean"]


class Variant:
    """One way of running fio: with nothing, tunewatchd or bpftrace."""

    def __init__(self, name, tw, loop_name, builddir, clock=None, bpftrace=False, interval=5,
                 off=False, floor=False):
        self.name = name
        self.floor = floor
        self.interval = interval
        self.off = off
        self.tw = tw
        self.loop_name = loop_name
        self.builddir = builddir
        self.clock = clock
        self.bpftrace = bpftrace
        self.h = None
        self.proc = None

    def __enter__(self):
        if self.clock is not None:
            self.h = self.tw.Harness("bench-reqlat-" + self.name)
            self.h.__enter__()
            conf = os.path.join(self.h.dir, "tunewatchd.conf")
            with open(conf, "w") as fh:
                fh.write("diskInclude ^%s$\ndiskExclude ^$\nrequestLatencyIssueClock %s\n"
                         "requestLatency %s\n" % (self.loop_name, self.clock,
                                                   "no" if self.off else "yes"))
            self.h.start_snmpd()
            self.h.start_agent(None, None, interval=self.interval, window=60, args=["-c", conf])
            state = self.h.get([self.tw.oid("AGENT_REQLAT_STATE")])[0].text
            if state != ("off" if self.off else "timing"):
                raise SystemExit("reqlat_cost: tunewatchd is %s" % state)
        if self.floor:
            self.proc = subprocess.Popen([os.path.join(self.builddir, "bench", "reqlat_floor")],
                                         stdout=subprocess.PIPE, text=True)
            if self.proc.stdout.readline().strip() != "ready":
                raise SystemExit("reqlat_cost: bench/reqlat_floor did not load")
        if self.bpftrace:
            script = os.path.join(self.builddir, "bench-results", "reqlat", "biolatency.bt")
            with open(script, "w") as fh:
                fh.write(BIOLATENCY)
            out = script + ".out"
            self.proc = subprocess.Popen(["bpftrace", script], stdout=open(out, "w"),
                                         stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while "Attaching" not in open(out).read():
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("reqlat_cost: bpftrace did not attach")
                time.sleep(0.1)
        time.sleep(1.0)
        return self

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.send_signal(2)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.h is not None:
            self.h.__exit__(None, None, None)
        return False


def prog_stats(prefix):
    """Run count and run time (ns) summed over the loaded programs whose
    names start with prefix."""
    progs = json.loads(subprocess.run(["bpftool", "prog", "show", "--json"], capture_output=True,
                                      text=True, check=True).stdout)
    cnt = ns = 0
    per = {}
    for p in progs:
        if p.get("name", "").startswith(prefix):
            cnt += p.get("run_cnt", 0)
            ns += p.get("run_time_ns", 0)
            per[p["name"]] = (p.get("run_cnt", 0), p.get("run_time_ns", 0))
    return cnt, ns, per


def load():
    with open("/proc/loadavg") as fh:
        return fh.read().split()[:3]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("top_builddir") or os.getcwd())
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=int, default=5)
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("reqlat_cost: needs root (loop devices, BPF)")
    tw = tb.load_harness(a.builddir)
    import reqlat_common as rc
    work = os.path.join(a.builddir, "bench-results", "reqlat")
    os.makedirs(work, exist_ok=True)
    ncpus = os.sysconf("SC_NPROCESSORS_CONF")
    mem = {}
    for devices, cpus in ((32, ncpus), (32, 64), (128, 256)):
        out = subprocess.run([os.path.join(a.builddir, "bench", "reqlat_memory"), str(devices),
                              str(cpus), "12", "40"], capture_output=True, text=True,
                             check=True).stdout.split()
        mem["%d devices, %d CPUs" % (devices, cpus)] = int(out[1])
        if devices == 32 and cpus == ncpus:
            window = int(out[3])
    results = {"load_before": load(), "rounds": a.rounds, "seconds": a.seconds}
    backing = os.path.join(work, os.environ.get("TW_LOOP_PREFIX", "tw-reqlat") + "-bench.img")
    with open(backing, "wb") as fh:
        fh.truncate(1 << 30)
    with rc.Tracefs(), rc.Loop(backing) as loop:
        def variant(name):
            return {"off": Variant("off", tw, loop.name, a.builddir),
                    "kernel": Variant("kernel", tw, loop.name, a.builddir, clock="kernel"),
                    "program": Variant("program", tw, loop.name, a.builddir, clock="program"),
                    "bpftrace": Variant("bpftrace", tw, loop.name, a.builddir,
                                        bpftrace=True),
                    "floor": Variant("floor", tw, loop.name, a.builddir, floor=True)}[name]
        names = ["off", "kernel", "program", "bpftrace"]
        qd1 = {n: [] for n in names}
        cpu = {n: [] for n in names}
        iops = {n: [] for n in names}
        for r in range(a.rounds):
            order = names[r % 4:] + names[:r % 4]
            for n in order:
                with variant(n):
                    ios, _, clat = fio(loop.dev, a.seconds, "psync", 1)
                    qd1[n].append(clat)
                    b0 = busy_ns()
                    ios, rate, _ = fio(loop.dev, a.seconds, "io_uring", 32)
                    cpu[n].append((busy_ns() - b0) / ios)
                    iops[n].append(rate)
            print("round %d: qd1 clat %s; cpu/req %s" % (r + 1, " ".join(
                "%s %.0f" % (n, qd1[n][-1]) for n in names), " ".join(
                "%s %.0f" % (n, cpu[n][-1]) for n in names)), flush=True)
        # The programs' own time, with the kernel's statistics on.
        libbpf = ctypes.CDLL("libbpf.so.1")
        stats = {}
        fd = libbpf.bpf_enable_stats(0)
        if fd < 0:
            raise SystemExit("reqlat_cost: cannot turn BPF statistics on")
        try:
            for n, progs in (("floor", "tw_floor_"), ("kernel", OURS), ("program", OURS),
                             ("bpftrace", THEIRS)):
                per_req = []
                for _ in range(3):
                    with variant(n):
                        c0, ns0, _ = prog_stats(progs)
                        ios, _, _ = fio(loop.dev, a.seconds, "io_uring", 32)
                        c1, ns1, per = prog_stats(progs)
                        per_req.append((ns1 - ns0) / ios)
                stats[n] = {"ns_per_request": statistics.median(per_req), "runs": per_req,
                            "per_program_ns_per_run": {k: v[1] / v[0] for k, v in per.items()
                                                       if v[0]},
                            "per_program_runs": {k: v[0] for k, v in per.items()}}
        finally:
            os.close(fd)
        # What the reading costs tunewatchd: two at once, sampling every
        # second while fio keeps the timed one's device busy.
        agents = [Variant("agent-" + n, tw, loop.name, a.builddir, clock="kernel", interval=1,
                          off=(n == "off")) for n in ("off", "timing")]
        for v in agents:
            v.__enter__()
        try:
            time.sleep(3)
            c0 = [tb.schedstat_ns(v.h.agent.pid) for v in agents]
            t0 = time.monotonic()
            fio(loop.dev, 30, "io_uring", 32)
            wall = time.monotonic() - t0
            c1 = [tb.schedstat_ns(v.h.agent.pid) for v in agents]
            results["agent_cpu_percent_of_a_core"] = {
                v.name: (b - a) / 1e9 / wall * 100 for v, a, b in zip(agents, c0, c1)}
            results["agent_cpu_per_sample_us"] = {
                v.name: (b - a) / 1e3 / wall for v, a, b in zip(agents, c0, c1)}
        finally:
            for v in agents:
                v.__exit__(None, None, None)
        with variant("kernel") as v:
            maps = json.loads(subprocess.run(["bpftool", "map", "show", "--json"],
                                             capture_output=True, text=True, check=True).stdout)
            ours = {m["name"]: m.get("bytes_memlock", 0) for m in maps
                    if m.get("name") in ("hists", "counters", "tw_reqla.bss", "tw_reqla.rodata")}
            rss_timing = tb.status_kb(v.h.agent.pid, "VmRSS")
    results["load_after"] = load()
    med = {n: statistics.median(qd1[n]) for n in names}
    medc = {n: statistics.median(cpu[n]) for n in names}
    results.update({
        "qd1_clat_ns": {n: {"median": med[n], "added": med[n] - med["off"], "runs": qd1[n]}
                        for n in names},
        "qd32_cpu_ns_per_request": {n: {"median": medc[n], "added": medc[n] - medc["off"],
                                        "runs": cpu[n]} for n in names},
        "qd32_iops": {n: statistics.median(iops[n]) for n in names},
        "bpf_stats": stats,
        "map_bytes_computed": mem, "map_memlock_bytes": ours,
        "window_bytes_32_devices_12_intervals_40_buckets": window,
        "tunewatchd_rss_kib_timing": rss_timing,
        "possible_cpus": ncpus,
    })
    with open(os.path.join(work, "results.json"), "w") as fh:
        json.dump(results, fh, indent=1)
    print(json.dumps({k: v for k, v in results.items() if k not in ("qd1_clat_ns",
                      "qd32_cpu_ns_per_request")}, indent=1))
    floor = stats["floor"]["ns_per_request"]
    for n in ("kernel", "program", "bpftrace"):
        print("%-9s BPF statistics: %.0f ns a request (median of %d runs), %.0f above the floor "
              "of two empty programs (%.0f)" % (n, stats[n]["ns_per_request"],
                                                len(stats[n]["runs"]),
                                                stats[n]["ns_per_request"] - floor, floor))
    for n in names:
        print("%-9s qd1 clat median %.0f ns (added %+.0f); qd32 CPU %.0f ns/request (added %+.0f); "
              "%.0f IOPS" % (n, med[n], med[n] - med["off"], medc[n], medc[n] - medc["off"],
                             results["qd32_iops"][n]))


if __name__ == "__main__":
    main()
