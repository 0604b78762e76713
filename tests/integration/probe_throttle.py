#!/usr/bin/env python3
"""A known latency, injected by the kernel: tunewatchd runs in a blkio
cgroup (v1) of the test's own whose blkio.throttle.read_iops_device lets 5
reads a second through to a loop device, while the probe asks for 10, so
each read waits about 200 ms for the throttle (`ioping -D -i 0.1` in such
a cgroup measured 208 ms here): twProbeP50 must read 200 ms within 20 %,
and the slots that came due while a read waited must show in
twProbeMissed.

Measured on this machine: on a loop device attached moments before, the
throttle first holds few or none of the reads (two runs in a row read at
the full 10/s, one held about half); some 20 s after the attach it holds
every read (p50 208.9 ms, 31 reads and 58 missed slots in 9 s). A run in
which the throttle has not taken hold (more than 4.5 reads a second came
through) says nothing of the probe and is repeated in a fresh cgroup, up
to 5 times; every run's figures are printed.

The cgroups and the loop device are removed in every path. Skipped
without root, losetup, or a cgroup v1 blkio controller with throttling
(on a cgroup v2-only machine the io.max variant is not written yet).
About 30 to 60 s."""

import os
import time

import probe_common as pc
import twtest

BLKIO = "/sys/fs/cgroup/blkio"


def attempt(h, lo, n):
    """One run in a fresh cgroup; the row, and the seconds it covers."""
    cg = os.path.join(BLKIO, "tw-probe-%d-%d" % (os.getpid(), n))
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.read_iops_device"), "w") as fh:
            fh.write("%s 5\n" % lo.majmin())
        # tunewatchd joins the cgroup before it starts: its probe threads,
        # started later, are in it too.
        wrap = os.path.join(h.dir, "in-cgroup.sh")
        with open(wrap, "w") as fh:
            fh.write("#!/bin/sh\necho $$ > %s/cgroup.procs || exit 71\nexec %s \"$@\"\n"
                     % (cg, AGENT))
        os.chmod(wrap, 0o755)
        h.agent_bin = wrap
        conf = pc.write_conf(h, ["probe %s 10" % lo.name, "probeIdleTime 0"])
        h.start_snmpd()
        h.start_agent(None, None, interval=1, window=10, args=["-c", conf])
        pc.wait_state(h, lo.index(), "probing")
        twtest.wait_for("10 s of throttled probing",
                        lambda: pc.probe_row(h, lo.index())["WINDOW"].num >= 9000,
                        timeout=30, step=1)
        row = pc.probe_row(h, lo.index())
        secs = row["WINDOW"].num / 1000.0
        print("attempt %d, throttled to 5 reads/s, probing at 10/s: p50 %.1f ms, p90 %.1f ms, "
              "%d reads and %d missed slots in %.1f s, %d timeouts" % (
                  n, row["P50"].num / 1000.0, row["P90"].num / 1000.0, row["COUNT"].num,
                  row["MISSED"].num, secs, row["TIMEOUTS"].num))
        return row, secs
    finally:
        h.stop_all()
        for _ in range(50):
            try:
                os.rmdir(cg)
                break
            except OSError:
                time.sleep(0.1)


def test():
    pc.need_root_tools()
    if not os.path.exists(os.path.join(BLKIO, "blkio.throttle.read_iops_device")):
        raise twtest.Skip("no cgroup v1 blkio throttle at %s (the cgroup v2 io.max variant "
                          "is not written)" % BLKIO)
    with twtest.Harness("probe-throttle") as h:
        global AGENT
        AGENT = h.agent_bin
        with pc.Loop(pc.backing_path(h, "probe-throttle"), 64) as lo:
            for n in range(1, 6):
                row, secs = attempt(h, lo, n)
                if row["COUNT"].num <= 4.5 * secs:
                    break
            else:
                raise AssertionError("the throttle never held the reads in 5 runs")
            assert 160 <= row["P50"].num / 1000.0 <= 240, row
            # The slots that came due while a read was held are missed.
            assert row["MISSED"].num >= 3 * secs, row
            assert row["TIMEOUTS"].num == 0 and row["ERRORS"].num == 0, row


AGENT = None

if __name__ == "__main__":
    twtest.main(test)
