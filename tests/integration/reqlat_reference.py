#!/usr/bin/env python3
"""tunewatchd's distribution of every request held against bpftrace's, on
the same device in the same window: random reads by fio on a loop device
(the kernel's issue stamp at queue depth 1, the program's own clock at
depth 8) and, where the tree has the FUSE device of known latency, on a
loop device over it. The request count must agree within 1 %, p50 and p99
within 10 % or within one bucket of the reference's histogram, whichever
is wider.

The reference (reqlat_common.Bpftrace) is biolatency on the classic block
tracepoints, keyed by sector: another program, another key and another
histogram than tunewatchd's. Skips without root, BTF, bpftrace or fio."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reqlat_common as rc  # noqa: E402
import twtest  # noqa: E402


def compare(name, h, loop, ref, fio_args, seconds):
    """One fio run between two samples, against the reference's; returns
    the figures for the report."""
    before = rc.reqlat_row(h, loop.index())
    t0 = before["TOTAL"].num if "TOTAL" in before else 0
    h.sample_now()
    t0 = rc.reqlat_row(h, loop.index())["TOTAL"].num
    done = rc.fio(loop.dev, seconds, **fio_args)
    h.sample_now()
    row = rc.reqlat_row(h, loop.index())
    count, fine, coarse = ref.stop()
    ours = row["TOTAL"].num - t0
    figures = {"fio": done, "reference": count, "ours": ours,
               "window_count": row["COUNT"].num}
    assert count > 0, "%s: the reference counted nothing" % name
    assert abs(ours - count) <= 0.01 * count, \
        "%s: %d requests timed against the reference's %d (fio did %d)" % (name, ours, count, done)
    for p, col in ((50, "P50"), (99, "P99")):
        mid, width = rc.reference_percentile(fine, coarse, count, p)
        got = row[col].num
        allowed = max(0.10 * mid, width)
        figures["p%d" % p] = (got, mid, width)
        assert abs(got - mid) <= allowed, \
            "%s: p%d %d us against the reference's %.1f us (bucket %d us wide)" % (
                name, p, got, mid, width)
    print("%s: fio %d, reference %d, tunewatchd %d requests; p50 %d us (reference %.1f, "
          "bucket %d), p99 %d us (reference %.1f, bucket %d)" % (
              name, done, count, ours, figures["p50"][0], figures["p50"][1], figures["p50"][2],
              figures["p99"][0], figures["p99"][1], figures["p99"][2]))
    return figures


def run_case(name, loop, clock, fio_args, seconds, fine, coarse):
    with twtest.Harness("reqlat-ref-" + name) as h:
        conf = rc.agent_conf(h, loop.name, ["requestLatencyIssueClock %s" % clock])
        h.start_snmpd()
        h.start_agent(args=["-c", conf], interval=1, window=300)
        rc.need_timing(h)
        twtest.wait_for("a twReqLatTable row for %s" % loop.name,
                        lambda: "TOTAL" in rc.reqlat_row(h, loop.index()), timeout=20, step=0.5)
        major, minor = loop.majmin()
        with rc.Bpftrace(h, major, minor, fine=fine, coarse=coarse) as ref:
            return compare(name, h, loop, ref, fio_args, seconds)


def fuse_device():
    """The FUSE device of known latency, when the tree has it: a context
    giving a file whose every read sleeps the delay, or None."""
    try:
        import fusedelay  # noqa: F401  (tests/integration/fusedelay.py)
    except ImportError:
        return None
    return fusedelay


def test():
    rc.need("bpftrace", "fio")
    with rc.Tracefs():
        with rc.Loop(rc.backing_path("ref")) as loop:
            run_case("loop-kernel-stamp", loop, "kernel", {"engine": "psync"}, 8,
                     (4000, 4), (400000, 400))
            run_case("loop-program-clock", loop, "program", {"engine": "io_uring", "depth": 8},
                     8, (4000, 4), (400000, 400))
        fuse = fuse_device()
        if fuse is None:
            print("no FUSE device of known latency in this tree: the loop cases only")
            return
        with fuse.delayed_file(2.0, os.path.join(twtest.TOP_BUILDDIR, "tests", "integration")) as path:
            with rc.Loop(path, remove=False) as loop:
                run_case("fuse-2ms", loop, "kernel", {"engine": "psync"}, 6,
                         (4000, 4), (400000, 400))


if __name__ == "__main__":
    twtest.main(test)
