#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""BENCHMARKS.md's headline figures for two commits, side by side in one run.

    bench/compare_commits.py [BEFORE [AFTER]] [--rounds N] [--budget-minutes M]

BEFORE and AFTER are any git refs (default HEAD~1 and HEAD). Each is built in
a scratch directory of its own (git archive into /tmp/tw-bench-A-SHA and
/tmp/tw-bench-B-SHA, ./autogen.sh, configure without sanitizers, -g -O2 as
the release build), then every headline is measured for both builds,
interleaved round by round (A B, then B A, ...), with findings on as
tunewatchd runs by default (sample_cost --findings). The benchmark scripts
and the integration harness are this checkout's, for both builds.

For each figure the table gives the median over the rounds of each build,
after / before, the before build's spread (min-max over its rounds) and
whether the ratio is within noise: a figure is worse than noise when the
after build's median lies above the before build's slowest round (ratio >
max/median of before) and by more than 1 %. Instruction counts (callgrind) are exact and run
once a build; for them noise is taken as 0.5 %. Rounds stop early when one
more would pass --budget-minutes. Only 127.0.0.1 is used; the scratch
builds are removed at the end unless --keep.
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
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(BENCH)
sys.dont_write_bytecode = True
sys.path.insert(0, BENCH)
import mkroot  # noqa: E402
import twbench as tb  # noqa: E402

TARGETS = ("bench/sample_cost", "bench/sockowner_cost")
INSTR_NOISE = 0.005


def sh(argv, cwd=None, log=None, **kw):
    subprocess.run(argv, cwd=cwd, check=True, stdout=log or subprocess.DEVNULL,
                   stderr=subprocess.STDOUT if log else subprocess.DEVNULL, **kw)


def build(ref, label, keep_existing):
    """Build ref in /tmp/tw-bench-LABEL-SHA; its build directory."""
    sha = subprocess.run(["git", "-C", TOP, "rev-parse", "--verify", ref + "^{commit}"],
                         capture_output=True, text=True, check=True).stdout.strip()
    base = "/tmp/tw-bench-%s-%s" % (label, sha[:10])
    bdir = os.path.join(base, "build")
    if keep_existing and all(os.access(os.path.join(bdir, t), os.X_OK) for t in TARGETS):
        return sha, base, bdir
    shutil.rmtree(base, ignore_errors=True)
    src = os.path.join(base, "src")
    os.makedirs(src)
    os.makedirs(bdir)
    with open(os.path.join(base, "build.log"), "w") as log:
        arch = subprocess.Popen(["git", "-C", TOP, "archive", sha], stdout=subprocess.PIPE)
        sh(["tar", "-x", "-C", src], stdin=arch.stdout)
        if arch.wait() != 0:
            raise RuntimeError("git archive %s failed" % ref)
        sh(["./autogen.sh"], cwd=src, log=log)
        sh(["../src/configure", "-q", "--disable-sanitizers", "CFLAGS=-g -O2"], cwd=bdir, log=log)
        sh(["nice", "make", "-j2"], cwd=bdir, log=log)
        sh(["nice", "make", "-j2"] + list(TARGETS), cwd=bdir, log=log)
    return sha, base, bdir


class Figures:
    """Every figure's values, per build: name -> build -> [value, ...]."""

    def __init__(self):
        self.order = []
        self.values = {}
        self.exact = set()
        self.targets = {}

    def add(self, name, build, value, exact=False, target=None):
        if name not in self.values:
            self.order.append(name)
            self.values[name] = {}
        self.values[name].setdefault(build, []).append(value)
        if exact:
            self.exact.add(name)
        if target is not None:
            self.targets[name] = target


# ---- the measurements, one build at a time -----------------------------------

def sample(prog, root, samples, extra=()):
    out = subprocess.run([prog, "--proc-root", os.path.join(root, "proc"), "--sys-root",
                          os.path.join(root, "sys"), "--samples", str(samples), "--interval",
                          "5", "--window", "60"] + list(extra), capture_output=True, text=True,
                         timeout=600, check=True).stdout
    return json.loads(out)


def med_ms(r):
    return statistics.median(r["samples_ns"]) / 1e6


def mean_ms(r):
    return sum(r["samples_ns"]) / len(r["samples_ns"]) / 1e6


SAMPLE_FUNCS = ("tw_monitor_sample",)
# The change watch runs after the sample, as tunewatchd runs it (part 5).
CHANGE_FUNCS = ("tw_change_watch_step", "tw_change_history_publish")


def sample_instr(prog, root, extra, work, n=3, funcs=SAMPLE_FUNCS):
    """Instructions of one warm sample, callgrind inside funcs; each must
    be in the program, or callgrind would silently count nothing for it."""
    syms = subprocess.run(["nm", prog], capture_output=True, text=True, check=True).stdout
    if funcs != SAMPLE_FUNCS and not re.search(r" T tw_change_history_publish$", syms, re.M):
        # Since the view is built in one place the monitor's sample runs the
        # change watch itself: a second toggle inside it would stop the count.
        funcs = SAMPLE_FUNCS
    for f in funcs:
        if not re.search(r" T %s$" % re.escape(f), syms, re.M):
            raise RuntimeError("%s has no function %s to count" % (prog, f))
    toggles = ["--toggle-collect=%s" % f for f in funcs]
    counts = []
    for samples in (1, 1 + n):
        d = tempfile.mkdtemp(prefix="cg-", dir=work)
        subprocess.run(["valgrind", "--tool=callgrind"] + toggles +
                       ["--callgrind-out-file=%s/cg.out" % d, "--log-file=%s/log" % d, prog,
                        "--proc-root", os.path.join(root, "proc"), "--sys-root",
                        os.path.join(root, "sys"), "--samples", str(samples), "--interval", "5",
                        "--window", "60"] + list(extra), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=1200, check=True)
        with open(os.path.join(d, "log")) as fh:
            counts.append(int(re.search(r"Collected : (\d+)", fh.read()).group(1)))
        shutil.rmtree(d, ignore_errors=True)
    return (counts[1] - counts[0]) / float(n)


def harness(name, bdir):
    h = tb.twtest.Harness(name)
    h.agent_bin = os.path.join(bdir, "agentx", "tunewatchd")
    return h


def measure_agent(fig, b, bdir, roots, args, first):
    """Parts 1 and 2: one snmpd with diskio lines for the disks tunewatchd
    keeps; the checks against check_snmp, then the walks of both tables."""
    import part1_checks as p1
    import part2_disktable as p2
    with harness("cmp-agent", bdir) as h:
        h.start_snmpd()
        h.start_agent(interval=3600, window=7200)
        h.sample_now()
        rows = tb.disk_rows(h)
        h.stop(h.snmpd)
        h.start_snmpd(extra_conf="".join("diskio %s\n" % n for _, n in rows), keep_port=True)
        h.wait_agent(timeout=20)
        cmds = p1.commands(h, os.path.join(bdir, "plugins", "check_disklatency"), rows)
        keep = ("all: check_disklatency", "all: check_snmp", "one: check_disklatency --device",
                "one: snmpget -v2c")
        cmds = {k: cmds[k] for k in keep}
        env = tb.client_env(h)
        if os.access(p1.CHECK_SNMP, os.X_OK):
            wall, _, _ = tb.time_commands(cmds, env, args.wall_runs, warmup=5)
            fig.add("1 check all disks: wall / check_snmp's", b,
                    wall["all: check_disklatency"]["median"] / wall["all: check_snmp"]["median"])
            fig.add("1 check all disks: wall ms", b, wall["all: check_disklatency"]["median"])
            if first and args.callgrind:
                ins = {k: tb.callgrind(cmds[k], env, 1, args.work)[0]["median"] for k in cmds}
                fig.add("1 check all disks: instr / check_snmp's", b,
                        ins["all: check_disklatency"] / ins["all: check_snmp"], exact=True)
                fig.add("1 one value: instr / snmpget's", b,
                        ins["one: check_disklatency --device"] / ins["one: snmpget -v2c"],
                        exact=True)
        tb.bulkwalk(h, tb.DISK_ENTRY, 10)
        tb.bulkwalk(h, tb.DISKIO_ENTRY, 10)
        tw = p2.server_cpu_per_varbind(h, tb.DISK_ENTRY, args.walks, 10)[0]
        dio = p2.server_cpu_per_varbind(h, tb.DISKIO_ENTRY, args.walks, 10)[0]
        fig.add("2 bulkwalk -Cr10 us/varbind: twDiskTable / diskIOTable", b, tw / dio)
        fig.add("2 bulkwalk -Cr10 twDiskTable us/varbind", b, tw)


def walk_per_row(h, ndisks, walks):
    pids = [h.snmpd.pid, h.agent.pid]
    before = sum(tb.schedstat_ns(p) for p in pids)
    for _ in range(walks):
        tb.bulkwalk(h, tb.DISK_ENTRY)
    return (sum(tb.schedstat_ns(p) for p in pids) - before) / 1000.0 / (walks * ndisks)


def measure_scale(fig, b, bdir, roots, args, first):
    """Parts 3, 5 and 6: sample_cost on 100 and 10,000 disks (findings on),
    and tunewatchd's walk and peak memory on both."""
    prog = os.path.join(bdir, "bench", "sample_cost")
    big, small = roots["10000"], roots["100"]
    on = sample(prog, big, 10, ["--findings"])
    off = sample(prog, big, 10)
    chg = sample(prog, big, 10, ["--findings", "--changes"])
    s100 = sample(prog, small, 30, ["--findings"])
    fig.add("3 one sample of 10,000 disks, findings on: CPU ms", b, med_ms(on), target=20.0)
    fig.add("3 sample CPU per disk, 10,000 / 100 (findings on)", b,
            (med_ms(on) / 10000) / (med_ms(s100) / 100))
    fig.add("6 sample 10,000 disks with findings / without: CPU", b, med_ms(on) / med_ms(off))
    fig.add("5 sample 10,000 disks with change watch / without: CPU", b,
            med_ms(chg) / med_ms(on))
    if first and args.callgrind:
        i_on = sample_instr(prog, big, ["--findings"], args.work)
        i_off = sample_instr(prog, big, [], args.work)
        i_chg = sample_instr(prog, big, ["--findings", "--changes"], args.work,
                             funcs=SAMPLE_FUNCS + CHANGE_FUNCS)
        fig.add("3 one sample of 10,000 disks, findings on: M instr", b, i_on / 1e6, exact=True)
        fig.add("6 sample with findings / without: instr", b, i_on / i_off, exact=True,
                target=1.2)
        fig.add("5 sample with findings and change watch / without either: instr", b,
                i_chg / i_off, exact=True, target=1.2)
    per_row = {}
    for n, root in (("100", small), ("10000", big)):
        with harness("cmp-scale", bdir) as h:
            h.start_snmpd()
            h.start_agent(proc_root=os.path.join(root, "proc"),
                          sys_root=os.path.join(root, "sys"), interval=3600, window=43200)
            h.sample_now()
            per_row[n] = walk_per_row(h, int(n), 1 if n == "10000" else 20)
            if n == "10000":
                fig.add("3 tunewatchd peak RSS, 10,000 disks + 1,024 CPUs: MiB", b,
                        tb.status_kb(h.agent.pid, "VmHWM") / 1024.0, target=32.0)
    fig.add("3 walk CPU per row, 10,000 / 100 disks", b, per_row["10000"] / per_row["100"])


def measure_cgroups(fig, b, bdir, roots, args, first):
    """Part 7: a sample with 500 cgroups / without, fixture /proc."""
    prog = os.path.join(bdir, "bench", "sample_cost")
    root = roots["cgroups"]
    with_cg = sample(prog, root, 120, ["--findings"])
    without = sample(prog, root, 120, ["--findings", "--no-cgroups"])
    fig.add("7 sample with 500 cgroups / without, fixture /proc: mean CPU", b,
            mean_ms(with_cg) / mean_ms(without))
    if first and args.callgrind:
        a = sample_instr(prog, root, ["--findings"], args.work, 20)
        c = sample_instr(prog, root, ["--findings", "--no-cgroups"], args.work, 20)
        fig.add("7 sample with 500 cgroups / without: instr", b, a / c, exact=True)


def measure_owner(fig, b, bdir, roots, args, first):
    """Row 8: the socket owner search, one run under the default budget."""
    prog = os.path.join(bdir, "bench", "sockowner_cost")
    out = subprocess.run([prog, "--proc-root", os.path.join(roots["owners"], "proc"),
                          "--runs", "3"], capture_output=True, text=True, check=True,
                         timeout=600).stdout
    r = json.loads(out)
    fig.add("8 socket owner search, 5,000 procs / 50,000 fds: a run, CPU ms", b,
            statistics.median(r["run_ns"]) / 1e6, target=50.0)


def measure_flood(fig, b, bdir, roots, args, first):
    """Row 11: a whole walk after a burst of 256 findings."""
    import flood_walk_compare as fw
    out = fw.one(bdir)
    fig.add("11 walk of twObjects after a burst of findings, GETNEXT: s", b, out["snmpwalk"][0])
    fig.add("11 the same, bulk: s", b, out["snmpbulkwalk"][0])


def measure_live(fig, builds, seconds, slices):
    """Part 4: both tunewatchds at the default interval and window on this
    machine's /proc, in the same seconds (each behind its own snmpd); each
    slice of the time is one round."""
    interval, window = tb.agent_defaults(os.path.join(builds[0][1], "agentx", "tunewatchd"))
    hs = []
    try:
        for b, bdir in builds:
            h = harness("cmp-live", bdir)
            h.__enter__()
            hs.append((b, h))
            h.start_snmpd()
            h.start_agent(interval=interval, window=window)
        time.sleep(1.0)
        for _ in range(slices):
            t0 = time.monotonic()
            c0 = {b: tb.schedstat_ns(h.agent.pid) for b, h in hs}
            time.sleep(seconds / slices)
            wall = time.monotonic() - t0
            for b, h in hs:
                pct = (tb.schedstat_ns(h.agent.pid) - c0[b]) / 1e9 / wall * 100.0
                fig.add("4 tunewatchd live, default interval: % of a core", b, pct, target=0.1)
    finally:
        for _, h in hs:
            h.__exit__(None, None, None)


# ---- the table ---------------------------------------------------------------

def table(fig):
    out = ["| headline | before median | after median | after / before | before spread "
           "(min-max) | after spread | within noise | target |",
           "|---|---|---|---|---|---|---|---|"]
    worse = []
    for name in fig.order:
        v = fig.values[name]
        if "A" not in v or "B" not in v:
            continue
        a, b = v["A"], v["B"]
        ma, mb = statistics.median(a), statistics.median(b)
        r = mb / ma if ma else float("nan")
        if name in fig.exact:
            ok = r <= 1 + INSTR_NOISE
            band = "exact (noise 0.5 %)"
        else:
            # Timers and budgets tick in steps: a 1 % difference is never called worse.
            ok = mb <= max(a) or r <= 1.01
            band = "%.4g-%.4g (up to %.3fx)" % (min(a), max(a), max(a) / ma)
        tgt = ""
        if name in fig.targets:
            t = fig.targets[name]
            tgt = "<= %g: %s" % (t, "met" if mb <= t else "NOT met")
        if not ok:
            worse.append(name)
        out.append("| %s | %.4g | %.4g | %.3fx | %s | %.4g-%.4g | %s | %s |" % (
            name, ma, mb, r, band, min(b), max(b), "yes" if ok else "NO, worse", tgt))
    return "\n".join(out), worse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", nargs="?", default="HEAD~1")
    ap.add_argument("after", nargs="?", default="HEAD")
    ap.add_argument("--rounds", type=int, default=8, help="at most this many rounds (8)")
    ap.add_argument("--min-rounds", type=int, default=3)
    ap.add_argument("--budget-minutes", type=float, default=15.0,
                    help="no new round once the next would pass this (15)")
    ap.add_argument("--live-seconds", type=float, default=120.0, help="part 4's time (120)")
    ap.add_argument("--live-slices", type=int, default=4)
    ap.add_argument("--wall-runs", type=int, default=30, help="part 1's runs a round (30)")
    ap.add_argument("--walks", type=int, default=20, help="part 2's walks a round (20)")
    ap.add_argument("--no-callgrind", dest="callgrind", action="store_false")
    ap.add_argument("--keep", action="store_true", help="keep (and reuse) the scratch builds")
    ap.add_argument("--json", help="write every value here")
    args = ap.parse_args()

    t_start = time.monotonic()
    print("compare_commits: %s -> %s; uptime: %s" % (
        args.before, args.after, open("/proc/loadavg").read().strip()), flush=True)
    builds, bases = [], []
    for label, ref in (("A", args.before), ("B", args.after)):
        sha, base, bdir = build(ref, label, args.keep)
        print("compare_commits: %s = %s %s built in %s" % (label, ref, sha[:10], bdir),
              flush=True)
        builds.append((label, bdir))
        bases.append(base)
    t_built = time.monotonic()
    tb.load_harness(builds[0][1])
    work = tempfile.mkdtemp(prefix="tw-bench-cmp-", dir="/dev/shm"
                            if os.path.isdir("/dev/shm") else None)
    args.work = work
    fig = Figures()
    try:
        roots = {"10000": mkroot.make_root(os.path.join(work, "r10000"), 10000, 1024,
                                           tb.fixtures()),
                 "100": mkroot.make_root(os.path.join(work, "r100"), 100, 1024, tb.fixtures())}
        roots["cgroups"] = mkroot.make_root(os.path.join(work, "rcg"), 10, 8, tb.fixtures())
        mkroot.add_cgroups(roots["cgroups"], 500)
        import sockowner_compare as so
        roots["owners"] = mkroot.make_root(os.path.join(work, "rso"), 16, 8, tb.fixtures())
        mkroot.add_sockets(roots["owners"], 10000, 100)
        mkroot.add_processes(roots["owners"], 5000, 10)
        so.add_stats(os.path.join(roots["owners"], "proc"))
        print("compare_commits: roots made, %.0f s in" % (time.monotonic() - t_start), flush=True)
        measure_live(fig, builds, args.live_seconds, args.live_slices)
        parts = (measure_agent, measure_scale, measure_cgroups, measure_owner, measure_flood)
        done, t_round = 0, None
        while done < args.rounds:
            left = args.budget_minutes * 60 - (time.monotonic() - t_start)
            if done >= args.min_rounds and t_round and t_round > left:
                break
            t0 = time.monotonic()
            order = builds if done % 2 == 0 else builds[::-1]
            for part in parts:
                for b, bdir in order:
                    part(fig, b, bdir, roots, args, done == 0)
            done += 1
            # The first round also counts instructions: the later ones set the pace.
            t_round = time.monotonic() - t0 if done > 1 else None
            print("compare_commits: round %d in %.0f s" % (done, time.monotonic() - t0),
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if not args.keep:
            for base in bases:
                shutil.rmtree(base, ignore_errors=True)
    text, worse = table(fig)
    wall = time.monotonic() - t_start
    print()
    print("A = %s, B = %s; %d rounds (live: %d slices of %.0f s, the two agents at once); "
          "findings on as by default" % (args.before, args.after, done, args.live_slices,
                                         args.live_seconds / args.live_slices))
    print()
    print(text)
    print()
    print("wall time %.0f s (builds %.0f s); uptime at the end: %s" % (
        wall, t_built - t_start, open("/proc/loadavg").read().strip()))
    print("worse than noise: %s" % (", ".join(worse) if worse else "none"))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"values": fig.values, "exact": sorted(fig.exact), "rounds": done,
                       "wall_s": wall}, fh, indent=1)
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
