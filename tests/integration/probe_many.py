#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Eight devices probed at once, each timed as its own reads took.

Eight loop devices (--direct-io=on) over sparse files of this test's own in
/dev/shm (in the build tree where there is no room: their reads are holes
and need no disk either way), probed at 10 reads a second each with a
40-s window, each device's reads at a phase of its own (50 ms, 25 ms, ...
apart: lib/probe/probereader.h), and `ioping -D -i 0.1` reading the first
device 6.25 ms after its slots, where none of the eight reads. bpftrace
times the same reads in the kernel, each pread64 of 4 KiB from the system
call's entry to its exit: tunewatchd's by descriptor (which device), and
ioping's. What a reader adds to its reads is its figure over its reads'
kernel median: the probe's p50 (twProbeP50) over its own reads', ioping's
median over its own. In each of 3 rounds of 40 s the median over the eight
devices of what the probe adds is taken against what ioping adds; the
median of the rounds must be within 10 %, and no device may read below
0.96 times its own reads (its clock would miss part of the read; 0.96
leaves room for the histogram's 3.125 % midpoint). No retries.

Why not the devices' p50 against ioping's median, as this test held until
CI saw 1.385 under the sanitizers: on this virtual machine a read costs
more the longer the CPUs idled before it, and ioping reads 6.25 ms after a
read where seven of the eight devices read 12.5 ms after one. In one run
the kernel's own times of the same reads were 105-135 us for those seven,
77-111 for the device that reads 6.25 ms after ioping, 86-115 for ioping;
the devices' p50 against ioping's median gave 1.18 and 1.20 in the normal
and sanitizer builds, all of it the test's placement, none of it the
probe's. Placed elsewhere ioping fared no better (at the instant of
another device's read: 2.04; at 80 reads a second between all eight:
0.67). What a reader adds to its own reads does not depend on where it
reads: 1.09-1.11 for the probe and 1.10-1.14 for ioping in the same rounds.

What it catches: a probe whose clock runs while it does something else,
such as one that reads every device from one thread and sees a read that
ends while it is busy with another's late (main's c1ea866: all eight at
110-148 us where ioping read 51-63 us), or whose clock starts before the
read is handed to the kernel. probe_loop.py holds the probe's p50 itself
to ioping's on one device. The exit probe keeps each read in a map and
prints nothing per read: a printf there cost the reader 12 us more after
the system call. The kernel's median is of exactly the reads of the
probe's window (those that began within twProbeWindow of the sample). Every figure is printed. Skipped without root, losetup,
ioping, bpftrace or the syscall tracepoints. About 140 s."""

import os

import probe_common as pc
import tracing
import twtest

DEVICES = 8
ROUNDS = 3
WINDOW = 40
READ_SIZE = 4096

def test():
    pc.need_root_tools("bpftrace", "ioping")
    with twtest.Harness("probe-many") as h, tracing.Tracefs("syscalls/sys_enter_pread64"):
        loops = []
        try:
            for i in range(DEVICES):
                f = pc.memory_backing_path("many%d" % i, 64)
                with open(f, "wb") as fh:
                    fh.truncate(64 << 20)         # a hole: no memory, no disk
                lo = pc.Loop(f, 64)
                loops.append(lo)
                lo.attach()
            conf = pc.write_conf(h, ["probe %s 10" % lo.name for lo in loops] +
                                 ["probeIdleTime 0"])
            h.start_snmpd()
            h.start_agent(None, None, interval=1, window=WINDOW, args=["-c", conf])
            for lo in loops:
                pc.wait_state(h, lo.index(), "probing")
            devs = {lo.dev for lo in loops}
            fds = pc.device_fds(h.agent.pid, devs)
            assert sorted(fds.values()) == sorted(devs), (
                "tunewatchd's descriptors on the devices: %r" % fds)

            rounds = []                   # per round, {device: probe p50 / kernel p50}
            for r in range(1, ROUNDS + 1):
                with tracing.Bpftrace(h, "preads%d" % r, pc.PREADS, (h.agent.pid, READ_SIZE),
                                      env=pc.PREADS_ENV) as bt:
                    io_pid = []
                    io = pc.ioping_between(loops[0].dev, WINDOW * 10, phase=0.00625,
                                           pid=io_pid)
                    h.sample_now()
                    rows_now, end_ns = pc.rows_at_sample(h, [lo.index() for lo in loops])
                    text = bt.stop()
                assert pc.device_fds(h.agent.pid, devs) == fds, "a device was opened again"
                probe_reads = tracing.keyed_values(text, "probe")
                io_reads = [us for (p, _), us in tracing.keyed_values(text, "ioping").items()
                            if p == io_pid[0]]
                pc.traced_share(len(io_reads), len(io), "ioping")
                io_k = pc.percentile(io_reads, 50)
                ratio, shown, rows = {}, [], []
                for fd, dev in sorted(fds.items()):
                    lo = next(lo for lo in loops if lo.dev == dev)
                    row = rows_now[lo.index()]
                    # The reads of the window: it ends at the sample and
                    # spans twProbeWindow.
                    begin_ns = end_ns - row["WINDOW"].num * 1000000
                    mine = [us for (f, t0), us in probe_reads.items()
                            if f == fd and begin_ns <= t0 <= end_ns]
                    k = pc.percentile(mine, 50)
                    ratio[lo.name] = row["P50"].num / k
                    shown.append("%s %d/%d (%d reads, %d traced; %d missed)" % (
                        lo.name, row["P50"].num, k, row["COUNT"].num, len(mine),
                        row["MISSED"].num))
                    rows.append((lo, row, mine))
                io_excess = pc.percentile(io, 50) / io_k
                rounds.append((ratio, io_excess))
                print("round %d: probe p50 / its reads' kernel p50, us: %s; median %.3f; "
                      "ioping %.1f / %.1f = %.3f; probe against ioping %.3f; load %s" % (
                          r, ", ".join(shown), pc.median(ratio.values()), pc.percentile(io, 50), io_k,
                          io_excess, pc.median(ratio.values()) / io_excess,
                          open("/proc/loadavg").read().split()[0]), flush=True)
                for lo, row, mine in rows:
                    assert row["STATE"].text == "probing" and row["ERRORS"].num == 0, row
                    pc.check_slots(row, 10)
                    # The reads traced in the window are the probe's: as
                    # many, give or take the read at each end and a few the
                    # tracer missed.
                    pc.traced_share(len(mine), row["COUNT"].num, lo.name)
            for lo in loops:
                one = pc.median([rd[lo.name] for rd, _ in rounds])
                assert one >= 0.96, (
                    "%s: p50 %.3f times its own reads' kernel times, the median of %d rounds: "
                    "the probe's clock misses part of the read" % (lo.name, one, ROUNDS))
            overall = pc.median([pc.median(rd.values()) / io for rd, io in rounds])
            print("median of the rounds: %.3f" % overall)
            assert 0.90 <= overall <= 1.10, (
                "the time the probe adds to its reads against what ioping adds to its own, the "
                "median of %d rounds: %.3f, not within 10 %%" % (ROUNDS, overall))
        finally:
            h.stop_all()
            for lo in loops:
                lo.__exit__(None, None, None)


if __name__ == "__main__":
    twtest.main(test)
