#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""What the active probe costs and how it reads, against ioping doing the
same reads, measured side by side in one run:

1. CPU per probed read against ioping's CPU per request: tunewatchd probing
   N loop devices at R reads a second (1 device at 10/s; 64 at 1/s), and
   one `ioping -D -q` a device at the same rate reading the same device,
   each ioping read midway between two of the probe's (the probe's slots
   are whole seconds of the monotonic clock plus a phase per device:
   lib/probe/probereader.h), for the same seconds. tunewatchd's CPU is all
   its threads' (/proc/PID/task/*/schedstat) less a plain tunewatchd's
   (no probe) over the same seconds, divided by the reads; ioping's is each
   process's own (wait4). Goal: the probe's at most ioping's. With
   --before-builddir, that build's tunewatchd is measured the same way in
   rounds of its own, alternating with this build's.
2. memory: the structures (bench/probe_memory) and the resident set per
   device of the probed tunewatchd against the plain one.
3. the probe's p50 against ioping's median on one device, ioping reading
   between the probe's reads, per round: a loop device over a file in
   /dev/shm (the kernel's read path alone) and over a file of data on
   disk (whatever else the disk is doing too).
4. 8 devices probed at 10/s: each device's p50, and ioping's on the first
   between the probe's reads; with --before-builddir, that build's too.

The loop devices are over sparse files (their reads need no disk) except in
part 3; all are detached, and the files removed, in every path. Needs root,
losetup and ioping.

    make bench-probe [BENCH_ARGS='--seconds 30 --rounds 3 --before-builddir /tmp/old/build']
"""

import argparse
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import twbench as tb  # noqa: E402

PREFIX = "tw-i22-probe-bench-"
SPAN = 0.1                      # the probe's phases span 1 / the highest rate


def phase(k):
    """lib/probe/probereader.c's tw_probe_phase_ns(k), in seconds."""
    r = int("{:032b}".format(k)[::-1], 2)
    return (r * 100000000 >> 32) / 1e9


def load():
    return open("/proc/loadavg").read().split()[0]


def loops(files):
    devs = []
    try:
        for f in files:
            r = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", f],
                               capture_output=True, text=True, check=True)
            devs.append(r.stdout.strip())
    except BaseException:
        detach(devs)
        raise
    return devs


def detach(devs):
    for d in devs:
        subprocess.run(["losetup", "-d", d], capture_output=True)


def agent(tw, tag, lines, agent_bin=None, interval=5, window=60):
    """A harness with snmpd and a tunewatchd probing lines' devices."""
    h = tw.Harness(PREFIX[len("tw-"):] + tag)   # the harness puts "tw-" before it
    h.__enter__()
    try:
        if agent_bin:
            h.agent_bin = agent_bin
        conf = os.path.join(h.dir, "tunewatchd.conf")
        with open(conf, "w") as fh:
            fh.write("\n".join(lines + ["probeIdleTime 0"]) + "\n")
        h.start_snmpd()
        h.start_agent(None, None, interval=interval, window=window, args=["-c", conf])
    except BaseException:
        h.__exit__(None, None, None)
        raise
    return h


def task_ns(pid):
    """{tid: CPU ns so far} of every thread of pid."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as fh:
            out[int(tid)] = int(fh.read().split()[0])
    return out


def probe_index(dev):
    with open("/sys/block/%s/dev" % os.path.basename(dev)) as fh:
        return fh.read().strip().replace(":", ".")


def sleep_to_phase(ph, period):
    """Until the monotonic clock is ph s past a multiple of period."""
    time.sleep((ph - time.monotonic() % period) % period)


def iopings(devs, rate, count, offsets):
    """One `ioping -D -q` per device, count requests at rate, each started
    offsets[i] s after a slot of the probe's clock (1/rate s); launched one
    after the other, at least 5 ms apart. The Popen objects."""
    period = 1.0 / rate
    procs = []
    try:
        for dev, off in sorted(zip(devs, offsets), key=lambda x: x[1]):
            sleep_to_phase(off, period)
            procs.append(subprocess.Popen(
                ["ioping", "-D", "-q", "-c", str(count), "-i", "%gms" % (1000 * period), dev],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
            time.sleep(0.005)
    except BaseException:
        for p in procs:
            p.kill()
            p.wait()
        raise
    return procs


def ioping_offsets(ndev, rate):
    """Where in each period of 1/rate s device k's ioping reads. Device k is
    the k-th probe line, whose reads are phase(k) s after each whole tenth
    (rate 10) or second. At 10/s (one device) ioping reads half a period
    later; slower, every probe read is in the first tenth of the period,
    and the iopings are spread over the rest. (A build whose slots are on
    another clock meets ioping's reads at random: at these read times,
    about one read in a few hundred.)"""
    period = 1.0 / rate
    if period <= SPAN:
        return [(phase(k) + period / 2) % period for k in range(ndev)]
    room = period - SPAN - 0.1
    return [SPAN + 0.05 + k * room / ndev for k in range(ndev)]


def reap(p):
    """A child's CPU seconds (wait4), once it has ended."""
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    assert p.returncode == 0, p.stderr.read()
    return ru.ru_utime + ru.ru_stime


def cost_round(tw, names, devs, rate, seconds, agent_bin, tag):
    """tunewatchd (this build or agent_bin) probing devs at rate, a plain
    one, and an ioping a device between the probe's reads: CPU per read."""
    lines = ["probe %s %d" % (n, rate) for n in names]
    hs = []
    try:
        hs.append(agent(tw, tag + "-plain", []))
        hs.append(agent(tw, tag + "-probed", lines, agent_bin))
        time.sleep(6)                 # past start-up and the first samples
        count = int(seconds * rate)
        procs = iopings(devs, rate, count, ioping_offsets(len(devs), rate))
        before = [tb.schedstat_ns(h.agent.pid) for h in hs]
        tasks0 = task_ns(hs[1].agent.pid)
        t0 = time.monotonic()
        io_cpu = 0.0
        wall = None
        for p in procs:
            io_cpu += reap(p)
            if wall is None:
                wall = time.monotonic() - t0   # the first ioping to end
                after = [tb.schedstat_ns(h.agent.pid) for h in hs]
                tasks1 = task_ns(hs[1].agent.pid)
        rss = [tb.status_kb(h.agent.pid, "VmRSS") for h in hs]
        missed = 0
        for d in devs:
            v = tw.as_dict(hs[1].get([tw.oid("PROBE_MISSED", probe_index(d))]))
            missed += list(v.values())[0].num
    finally:
        for h in hs:
            h.__exit__(None, None, None)
    plain, probed = [(a - b) / 1e9 for a, b in zip(after, before)]
    reads = len(devs) * rate * wall
    pid = hs[1].agent.pid
    main_s = (tasks1.get(pid, 0) - tasks0.get(pid, 0)) / 1e9
    readers_s = sum(v - tasks0.get(t, 0) for t, v in tasks1.items() if t != pid) / 1e9
    return {"wall": wall, "plain": plain, "probed": probed, "reads": reads,
            "probe_us": (probed - plain) / reads * 1e6, "io_us": io_cpu / (len(devs) * count) * 1e6,
            "io_reads": len(devs) * count, "rss_plain": rss[0], "rss_probed": rss[1],
            "missed": missed, "readers_us": readers_s / reads * 1e6,
            "main_us": (main_s - plain) / reads * 1e6}


def part_cost(tw, a, work, files):
    for ndev, rate in ((1, 10), (a.devices, 1)):
        fs = []
        for i in range(ndev):
            f = os.path.join(work, "%ssparse-%d.img" % (PREFIX, i))
            with open(f, "wb") as fh:
                fh.truncate(64 << 20)
            fs.append(f)
            files.append(f)
        devs = loops(fs)
        try:
            names = [os.path.basename(d) for d in devs]
            builds = [("this build", None)]
            if a.before_builddir:
                builds.append(("before", os.path.join(a.before_builddir, "agentx", "tunewatchd")))
            ratios = {b: [] for b, _ in builds}
            for r in range(1, a.rounds + 1):
                for bname, abin in builds:
                    c = cost_round(tw, names, devs, rate, a.seconds, abin, "cost")
                    ratios[bname].append(c["probe_us"] / c["io_us"])
                    print("cost, %d devices at %d/s, round %d, %s: %.0f s; tunewatchd probed %.3f s "
                          "CPU, plain %.3f s: %.1f us a read (%.0f reads, %d missed slots in the "
                          "window; the reading threads %.1f us, the agent's thread %+.1f us); "
                          "ioping %.1f us a request (%d requests); probe / ioping %.3f; "
                          "RSS plain %d KiB, probed %d KiB (%.1f KiB a device); load %s" % (
                              ndev, rate, r, bname, c["wall"], c["probed"], c["plain"],
                              c["probe_us"], c["reads"], c["missed"], c["readers_us"],
                              c["main_us"], c["io_us"], c["io_reads"],
                              ratios[bname][-1], c["rss_plain"], c["rss_probed"],
                              (c["rss_probed"] - c["rss_plain"]) / ndev, load()), flush=True)
            for bname, _ in builds:
                print("cost, %d devices at %d/s, %s: median probe / ioping CPU a read over %d "
                      "rounds: %.3f" % (ndev, rate, bname, a.rounds, median(ratios[bname])))
        finally:
            detach(devs)


def ioping_times(out):
    units = {"ns": 0.001, "us": 1.0, "ms": 1000.0, "s": 1e6}
    t = []
    for line in out.splitlines():
        if "time=" in line and "warmup" not in line:
            val, unit = line.split("time=")[1].split()[:2]
            t.append(float(val) * units[unit])
    return t


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def ioping_between(dev, count, ph):
    sleep_to_phase(ph, SPAN)
    r = subprocess.run(["ioping", "-D", "-c", str(count + 1), "-i", "0.1", dev],
                       capture_output=True, text=True, check=True)
    return ioping_times(r.stdout)


def p50s(tw, h, devs):
    h.sample_now()
    out = []
    for d in devs:
        v = tw.as_dict(h.get([tw.oid("PROBE_P50", probe_index(d))]))
        out.append(list(v.values())[0].num)
    return out


def part_p50(tw, a, work, files):
    shm = "/dev/shm/%sdata.img" % PREFIX
    disk = os.path.join(work, "%sdata.img" % PREFIX)
    for where, f in (("/dev/shm", shm), ("disk", disk)):
        with open(f, "wb") as fh:
            for _ in range(64):
                fh.write(os.urandom(1 << 20))
            os.fsync(fh.fileno())
        files.append(f)
        devs = loops([f])
        try:
            h = agent(tw, "p50", ["probe %s 10" % os.path.basename(devs[0])], interval=1,
                      window=10)
            try:
                time.sleep(3)
                ratios = []
                for r in range(1, 6):
                    t = ioping_between(devs[0], 100, 0.05)
                    p = p50s(tw, h, devs)[0]
                    ratios.append(p / median(t))
                    print("p50, one device over a file on %s, round %d: probe %d us, ioping "
                          "median %.1f us (%d requests), probe / ioping %.3f; load %s" % (
                              where, r, p, median(t), len(t), ratios[-1], load()), flush=True)
                print("p50, one device over a file on %s: median of the rounds %.3f"
                      % (where, median(ratios)))
            finally:
                h.__exit__(None, None, None)
        finally:
            detach(devs)


def part_many(tw, a, work, files):
    fs = []
    for i in range(8):
        f = os.path.join(work, "%ssparse8-%d.img" % (PREFIX, i))
        with open(f, "wb") as fh:
            fh.truncate(64 << 20)
        fs.append(f)
        files.append(f)
    devs = loops(fs)
    try:
        builds = [("this build", None)]
        if a.before_builddir:
            builds.append(("before", os.path.join(a.before_builddir, "agentx", "tunewatchd")))
        for r in range(1, 4):
            for bname, abin in builds:
                h = agent(tw, "p50x8", ["probe %s 10" % os.path.basename(d) for d in devs],
                          abin, interval=1, window=10)
                try:
                    time.sleep(2)
                    # phase(8): between every one of the 8 devices' slots.
                    t = ioping_between(devs[0], 100, phase(8))
                    p = p50s(tw, h, devs)
                finally:
                    h.__exit__(None, None, None)
                print("p50, 8 devices at 10/s, round %d, %s: probe %s us; ioping on %s between "
                      "them %.1f us; load %s" % (r, bname, " ".join(str(x) for x in p),
                                                os.path.basename(devs[0]), median(t), load()),
                      flush=True)
    finally:
        detach(devs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("top_builddir") or os.getcwd())
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--devices", type=int, default=64)
    ap.add_argument("--parts", default="1234", help="which parts to run (default 1234)")
    ap.add_argument("--before-builddir", help="a build of the code before, measured the same "
                    "way in rounds of its own")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("probe_cost: needs root (loop devices)")
    tw = tb.load_harness(a.builddir)
    work = os.path.join(a.builddir, "bench-results", "probe")
    os.makedirs(work, exist_ok=True)
    print("load %s at the start (uptime)" % load())
    files = []
    try:
        if "2" in a.parts:
            mem = subprocess.run([os.path.join(a.builddir, "bench", "probe_memory"), "12"],
                                 capture_output=True, text=True, check=True).stdout.split()
            print("structures: histogram %s bytes; one probed device with 12 intervals %s "
                  "bytes" % (mem[1], mem[3]))
        if "1" in a.parts:
            part_cost(tw, a, work, files)
        if "3" in a.parts:
            part_p50(tw, a, work, files)
        if "4" in a.parts:
            part_many(tw, a, work, files)
    finally:
        for f in files:
            try:
                os.unlink(f)
            except OSError:
                pass
    print("load %s at the end" % load())


if __name__ == "__main__":
    main()
