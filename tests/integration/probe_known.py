#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The probe on a device whose every read takes a known time.

tests/fusedelay serves a file whose every read sleeps D; a loop device with
direct I/O over it (probe_common.FuseDelay), so that no page cache
answers. tunewatchd probes it at 10 reads a second with a 20-s window.
For D = 2 ms and 20 ms, once a window holds only reads made at D:

- every read the probe timed took at least D (twProbeMin >= D: nothing
  answered from a cache);
- the probe's p50 and p90 agree with the reference's: `ioping -D` (a
  synchronous O_DIRECT reader, what bonnie++ and ioping measure) reading
  the same device at the same rate over the same seconds, each of its
  reads midway between two of the probe's, so the two never queue behind
  each other. The reference is that, and not D itself, because FUSE and
  the loop driver add their own time to every read (the floor: what the
  reference reads at D = 0, printed; about 0.1-0.3 ms here, 5-15 % of 2 ms
  on a quiet machine, and more on a busy one, where the loop worker and
  both readers wait for a CPU; the FUSE daemon does not: it runs at
  SCHED_FIFO, probe_common.FuseDelay).

How close is close enough: both are samples of 200 reads, and a
percentile of 200 reads is itself uncertain, the reference's as much as
the probe's. The probe's percentile must lie between the reference's
order statistics that two samples drawn alike put it between, but for a
chance of 1 in 1,000 (probe_common.rank_interval: exact, whatever the
distribution), each widened by 10 % (the probe's histogram is 1/32 wide;
the two read at different instants). On a quiet machine that is
0.9 x the reference's 35th read to 1.1 x its 65th for the p50, and its
78th to 98th for the p90: the reads are alike, so the bound is close. On a
busy one the reads spread over tens of ms and the bound with them, as it
must: a fixed bound failed there (load 15: the reference's p50 at D = 2 ms
was 16.9 ms over 100 reads, the probe's 20.0 ms, 1.18x, with its p90
1.04x; and once a p90 of 3.8 ms against the reference's 84th-96th reads
of 2.3-2.7 ms, beside a benchmark). What it cannot see: a difference
smaller than the spread of the reads. Every figure and both bounds are
printed.

No retries. Every figure is printed. Skipped without root, losetup,
ioping, /dev/fuse, fusermount3, or a tests/fusedelay (configure found no
libfuse3). The loop device is detached and the file system unmounted on
every way out. About 70 s."""

import time

import probe_common as pc
import twtest

WINDOW = 20
READS = 200                     # ioping's, over WINDOW s at 10 a second
SLACK = 0.10


def measure(h, fd, idx):
    """ioping's times over WINDOW s between the probe's reads, then the
    probe's row for the same seconds."""
    times = pc.ioping_between(fd.dev, READS)
    h.sample_now()
    return times, pc.probe_row(h, idx)


def test():
    pc.need_root_tools("ioping")
    pc.need_fusedelay()
    with twtest.Harness("probe-known") as h:
        with pc.FuseDelay(0, mib=64, prefix=pc.NAME_PREFIX) as fd:
            conf = pc.write_conf(h, ["probe %s 10" % fd.name, "probeIdleTime 0"])
            h.start_snmpd()
            h.start_agent(None, None, interval=1, window=WINDOW, args=["-c", conf])
            idx = fd.loop.index()
            pc.wait_state(h, idx, "probing")
            floor, row = measure(h, fd, idx)
            print("D = 0: reference p50 %.0f us, p90 %.0f us; probe p50 %d us, p90 %d us "
                  "(the floor: what FUSE and the loop driver add)" % (
                      pc.percentile(floor, 50), pc.percentile(floor, 90), row["P50"].num,
                      row["P90"].num))
            failures = []
            for d in (2000, 20000):
                fd.set_delay(d)
                # The window (WINDOW s, less while it fills) ends with the
                # reference's READS reads, which take at least WINDOW s: it
                # holds reads made at d only.
                times, row = measure(h, fd, idx)
                ref50, ref90 = pc.percentile(times, 50), pc.percentile(times, 90)
                p50, p90 = row["P50"].num, row["P90"].num
                print("D = %d us: probe p50 %d us (%.3f D), p90 %d us, min %d us, %d reads, "
                      "%d missed; reference p50 %.0f us (%.3f D), p90 %.0f us, min %.0f us; "
                      "probe / reference p50 %.3f, p90 %.3f; load %s" % (
                          d, p50, p50 / d, p90, row["MIN"].num, row["COUNT"].num,
                          row["MISSED"].num, ref50, ref50 / d, ref90, min(times), p50 / ref50,
                          p90 / ref90, open("/proc/loadavg").read().split()[0]))
                assert row["STATE"].text == "probing", row
                assert row["ERRORS"].num == 0 and row["TIMEOUTS"].num == 0, row
                assert row["COUNT"].num >= 120, row
                assert row["WINDOW"].num <= WINDOW * 1000 + 500, row
                # Nothing answered without waiting D: no cache.
                assert row["MIN"].num >= d and min(times) >= d, (row, min(times))
                for p, got in ((50, p50), (90, p90)):
                    low, high, lo, hi = pc.reference_bounds(p, row["COUNT"].num, times, SLACK)
                    print("  p%d: %d us, bound %.0f-%.0f us (the reference's reads %d-%d of %d, "
                          "10 %% wider)" % (p, got, low, high, lo, hi, len(times)))
                    if not low <= got <= high:
                        failures.append(
                            "D = %d us: the probe's p%d %d us is outside %.0f-%.0f us, what "
                            "two samples of these reads drawn alike give but for a chance of 1 "
                            "in %d (the reference's reads %d-%d of %d, 10 %% wider)" % (
                                d, p, got, low, high, round(1 / pc.ALPHA), lo, hi, len(times)))
            assert not failures, "; ".join(failures)


if __name__ == "__main__":
    twtest.main(test)
