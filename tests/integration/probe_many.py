#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Eight devices probed at once, each timed as if it were read alone.

Eight loop devices (--direct-io=on) over sparse files of this test's own in
/dev/shm (in the build tree where there is no room: their reads are holes
and need no disk either way), probed at 10 reads a second each with a
40-s window. Each device's reads are due at a phase of its own (50 ms, 25 ms,
... apart: lib/probe/probereader.h); `ioping -D -i 0.1` reads the first
device 6.25 ms after its slots, where none of the eight reads (at the same
rate as a probe: at 20 a second ioping's reads were faster, by as much as
40 %, the CPUs being awake more often). In each of 3 rounds of 40 s the median
over the eight devices of their p50 is taken against ioping's median; the
median of the rounds must be within 25 %, no retries. That is wider than
the 10 % one device is held to (probe_loop.py): eight threads and ioping
wake on their own, and the rounds spread more (medians of 7 rounds 1.015,
1.070 and 1.114 in three runs at a load average of 6 to 8; one device's
p50 alone ranged from 39 to 1,952 us in one round at 9). The rounds were
6 s until the CI run of 364ef74 saw 1.314 under the sanitizers: reads at
one phase of the tenth of a second are slow for stretches of seconds
while reads at another are not (probe_loop.py says how it was measured),
and only a window spanning such a sweep exposes every phase alike.

It is still far from what it catches: a probe that reads every device
from one thread hands reads due together to the kernel together, so that
their clocks start together, and sees a read that ends while it is busy
with another's late (such a probe, main's c1ea866, measured here: all
eight at 110-148 us where ioping read 51-63 us). Every figure is printed.
Skipped without root, losetup or ioping. About 140 s."""

import probe_common as pc
import twtest

DEVICES = 8
ROUNDS = 3
WINDOW = 40
BETWEEN = 0.00625               # the phase of a ninth device: between all eight


def test():
    pc.need_root_tools("ioping")
    with twtest.Harness("probe-many") as h:
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
            ratios = []
            for r in range(1, ROUNDS + 1):
                times = pc.ioping_between(loops[0].dev, WINDOW * 10, phase=BETWEEN)
                h.sample_now()
                ref = pc.median(times)
                p50 = []
                for lo in loops:
                    row = pc.probe_row(h, lo.index())
                    assert row["STATE"].text == "probing" and row["ERRORS"].num == 0, row
                    p50.append(row["P50"].num)
                ratios.append(pc.median(p50) / ref)
                print("round %d: the eight devices' p50 %s us; ioping on %s between them %.1f us; "
                      "median / ioping %.3f; load %s" % (
                          r, " ".join(str(x) for x in p50), loops[0].name, ref, ratios[-1],
                          open("/proc/loadavg").read().split()[0]))
            ratio = pc.median(ratios)
            print("median of the rounds: %.3f" % ratio)
            assert 0.75 <= ratio <= 1.25, ("the devices' p50 against ioping's median, the "
                                           "median of %d rounds: %.3f, not within 25 %%"
                                           % (ROUNDS, ratio))
        finally:
            h.stop_all()
            for lo in loops:
                lo.__exit__(None, None, None)


if __name__ == "__main__":
    twtest.main(test)
