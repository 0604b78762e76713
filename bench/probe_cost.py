#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""What the active probe costs, measured side by side in one run:

1. tunewatchd's CPU with 64 probed devices at the default rate (1 read a
   second each) against a tunewatchd without probes, both running at the
   same time for the same seconds, each behind its own snmpd (target:
   under 0.05 % of a core more); with --before-builddir a third, that
   build's tunewatchd probing the same devices in the same seconds;
2. CPU per probed read: the same, the probed ones at 10 reads a second
   on each of the 64 devices;
3. memory per probed device: the structures (bench/probe_memory) and the
   resident set of the probed tunewatchd against the plain one;
4. the probe's p50 against ioping's median on one loop device over a file
   of data, the two reading at once, 3 rounds.

The 64 devices are loop devices (--direct-io=on) over sparse files; the
device of part 4 is over a file of random data. All are detached, and the
files removed, in every path. Needs root, losetup and ioping.

    make bench-probe [BENCH_ARGS='--seconds 120 --before-builddir /tmp/old/build']
"""

import argparse
import os
import resource
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import twbench as tb  # noqa: E402


def cpu_s(pid):
    return tb.schedstat_ns(pid) / 1e9


def start_pair(tw, conf_lines, tag, before=None):
    """Harnesses, plain and probed (and probed by the before build's
    tunewatchd), each with snmpd and tunewatchd."""
    hs = []
    runs = [("plain", [], None), ("probed", conf_lines, None)]
    if before:
        runs.append(("before", conf_lines, os.path.join(before, "agentx", "tunewatchd")))
    for name, lines, agent in runs:
        h = tw.Harness("bench-probe-%s-%s" % (tag, name))
        h.__enter__()
        if agent:
            h.agent_bin = agent
        conf = os.path.join(h.dir, "tunewatchd.conf")
        with open(conf, "w") as fh:
            fh.write("\n".join(lines + ["probeIdleTime 0"]) + "\n")
        h.start_snmpd()
        h.start_agent(None, None, interval=5, window=60, args=["-c", conf])
        hs.append(h)
    return hs


def stop_pair(hs):
    for h in hs:
        h.__exit__(None, None, None)


def side_by_side(hs, seconds):
    time.sleep(5)                     # past start-up and the first samples
    before = [cpu_s(h.agent.pid) for h in hs]
    t0 = time.monotonic()
    time.sleep(seconds)
    wall = time.monotonic() - t0
    after = [cpu_s(h.agent.pid) for h in hs]
    rss = [tb.status_kb(h.agent.pid, "VmRSS") for h in hs]
    return [a - b for a, b in zip(after, before)], wall, rss


def loops(files):
    devs = []
    for f in files:
        r = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", f],
                           capture_output=True, text=True, check=True)
        devs.append(r.stdout.strip())
    return devs


def detach(devs):
    for d in devs:
        subprocess.run(["losetup", "-d", d], capture_output=True)


def ioping_median_us(dev):
    r = subprocess.run(["ioping", "-D", "-c", "100", "-i", "0.1", dev], capture_output=True,
                       text=True, check=True)
    units = {"ns": 0.001, "us": 1.0, "ms": 1000.0, "s": 1e6}
    t = [float(l.split("time=")[1].split()[0]) * units[l.split("time=")[1].split()[1]]
         for l in r.stdout.splitlines() if "time=" in l and "warmup" not in l]
    return sorted(t)[len(t) // 2], len(t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("top_builddir") or os.getcwd())
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--devices", type=int, default=64)
    ap.add_argument("--before-builddir", help="a build of the code before, whose tunewatchd "
                    "probes the same devices in the same seconds")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("probe_cost: needs root (loop devices)")
    tw = tb.load_harness(a.builddir)
    work = os.path.join(a.builddir, "bench-results", "probe")
    os.makedirs(work, exist_ok=True)
    mem = subprocess.run([os.path.join(a.builddir, "bench", "probe_memory"), "12"],
                         capture_output=True, text=True, check=True).stdout.split()
    print("structures: histogram %s bytes; one probed device with 12 intervals %s bytes"
          % (mem[1], mem[3]))
    files = []
    devs = []
    try:
        for i in range(a.devices):
            f = os.path.join(work, "sparse-%d.img" % i)
            with open(f, "wb") as fh:
                fh.truncate(64 << 20)
            files.append(f)
        devs = loops(files)
        names = [os.path.basename(d) for d in devs]
        for rate, seconds in ((1, a.seconds), (10, a.seconds / 2)):
            hs = start_pair(tw, ["probe %s %d" % (n, rate) for n in names], "r%d" % rate,
                            a.before_builddir)
            try:
                cpu, wall, rss = side_by_side(hs, seconds)
            finally:
                stop_pair(hs)
            extra = (cpu[1] - cpu[0]) / wall * 100.0
            reads = a.devices * rate * wall
            print("%d devices at %d/s, %.0f s side by side: plain %.3f s CPU (%.4f %% of a core), "
                  "probed %.3f s (%.4f %%); probed - plain = %.4f %% of a core; "
                  "%.1f us CPU per read (%d reads); RSS plain %d KiB, probed %d KiB "
                  "(%.1f KiB per device)" % (
                      a.devices, rate, wall, cpu[0], cpu[0] / wall * 100, cpu[1],
                      cpu[1] / wall * 100, extra, (cpu[1] - cpu[0]) / reads * 1e6, reads,
                      rss[0], rss[1], (rss[1] - rss[0]) / a.devices))
            if a.before_builddir:
                b = (cpu[2] - cpu[0]) / wall * 100.0
                print("  the before build's tunewatchd, same devices, same seconds: %.3f s "
                      "(%.4f %%); before - plain = %.4f %% of a core, %.1f us CPU per read; "
                      "RSS %d KiB (%.1f KiB per device); after / before (probed - plain): "
                      "%.3f" % (cpu[2], cpu[2] / wall * 100, b,
                                (cpu[2] - cpu[0]) / reads * 1e6, rss[2],
                                (rss[2] - rss[0]) / a.devices,
                                (cpu[1] - cpu[0]) / (cpu[2] - cpu[0])))
        # The same kind of read by ioping, for scale: its CPU per request.
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["ioping", "-D", "-c", "1000", "-i", "0.005", "-q", devs[0]],
                       capture_output=True, check=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        print("ioping -D -c 1000 -i 0.005 on one of the same devices: %.1f us CPU per request"
              % ((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) / 1000 * 1e6))
        detach(devs)
        devs = []

        data = os.path.join(work, "data.img")
        with open(data, "wb") as fh:
            for _ in range(128):
                fh.write(os.urandom(1 << 20))
            os.fsync(fh.fileno())
        files.append(data)
        devs = loops([data])
        n = os.path.basename(devs[0])
        h = tw.Harness("bench-probe-ioping")
        h.__enter__()
        try:
            conf = os.path.join(h.dir, "tunewatchd.conf")
            with open(conf, "w") as fh:
                fh.write("probe %s 10\nprobeIdleTime 0\n" % n)
            h.start_snmpd()
            h.start_agent(None, None, interval=1, window=12, args=["-c", conf])
            with open("/sys/block/%s/dev" % n) as fh:
                idx = fh.read().strip().replace(":", ".")
            for r in range(3):
                io = subprocess.Popen([sys.executable, "-c",
                                       "import probe_cost as p; print(*p.ioping_median_us(%r))"
                                       % devs[0]], stdout=subprocess.PIPE, text=True,
                                      cwd=os.path.dirname(os.path.abspath(__file__)))
                out = io.communicate()[0].split()
                h.sample_now()
                v = tw.as_dict(h.get([tw.oid("PROBE_P50", idx), tw.oid("PROBE_COUNT", idx)]))
                p50 = v[tw.oid("PROBE_P50", idx)].num
                cnt = v[tw.oid("PROBE_COUNT", idx)].num
                print("round %d: probe p50 %d us (%d reads), ioping median %.1f us (%s reads), "
                      "ratio %.3f" % (r + 1, p50, cnt, float(out[0]), out[1],
                                      p50 / float(out[0])))
        finally:
            h.__exit__(None, None, None)
    finally:
        detach(devs)
        for f in files:
            try:
                os.unlink(f)
            except OSError:
                pass


if __name__ == "__main__":
    main()
