#!/usr/bin/env python3
"""--local: the checks sample /proc and /sys themselves, two samples
--delay seconds apart, as tunewatchd would.

1. On an unchanging copy of tests/fixtures/agent: every rate is zero, so
   each check is OK, with the fixture's sizes and tunables (worked out by
   hand below) and a window of 1 s.
2. On this machine's /proc and /sys: exit 0, 1 or 2 and a well-formed
   status line (the figures are whatever the machine does).
3. On an empty root: nothing to judge, UNKNOWN, like a wrong --proc-root.
The runs sleep, so they run side by side."""

import os
import shutil
import tempfile

import plugin_common as pc
import twtest

ZERO_DISK = ("%s_r_await=0ms;20;50;0 %s_w_await=0ms;50;200;0 %s_aqu-sz=0;;;0 "
             "%s_util=0%%;;;0;100")
POOLS = ["softnet_backlog", "softnet_budget", "tcp_memory", "udp_memory", "udp_receive_buffer",
         "udp_send_buffer", "tcp_receive_buffer", "tcp_listen_queue", "high-order_pages"]


def fixture_expectations():
    sda = ("sda: OK r_await 0 ms, w_await 0 ms, aqu-sz 0, util 0 %, 0 r/s, 0 w/s (scheduler bfq, "
           "nr_requests 64, read_ahead_kb 128, rotational)")
    nvme = ("nvme0n1: OK r_await 0 ms, w_await 0 ms, aqu-sz 0, util 0 %, 0 r/s, 0 w/s (scheduler "
            "none, nr_requests 1023, read_ahead_kb 4096, solid state)")
    return {
        # loop0 and the partition sda1 are left out, as tunewatchd does.
        "check_disklatency": (0, [
            "DISKLATENCY OK - 2 devices OK in the last 1 s; highest r_await 0 ms (sda), w_await "
            "0 ms (sda) | " + " ".join(ZERO_DISK % ((d,) * 4) for d in ("sda", "nvme0n1")),
            sda, nvme]),
        "check_dblock": (0, [
            "DBLOCK OK - no failures in 11 pools in the last 1 s | " +
            " ".join(pc.perf(p, 0, "", "0", "", "0") for p in POOLS)]),
        # No process read anything: nothing to judge, OK. Sizes from
        # meminfo (Cached 3000000 kB, Dirty 2048 kB), pressure from the
        # fixture's /proc/pressure.
        "check_bufcache": (0, [
            "BUFCACHE OK - no file reads to judge in the last 1 s, 0 refaults/s, memory pressure "
            "1.5 % | refaults=0;100;1000;0 major_faults=0;;;0 page_in_kib=0;;;0 "
            "memory_pressure=1.5%;;;0;100 io_pressure=12.34%;;;0;100 cached=3072000000B;;;0 "
            "dirty=2097152B;;;0 writeback=0B;;;0",
            None,
            "page cache 2929.7 MiB, dirty 2 MiB, writeback 0 MiB",
            "0 refaults/s, 0 major faults/s, 0 KiB/s paged in, io pressure 12.34 %"]),
    }


def test():
    fails = []
    with tempfile.TemporaryDirectory(prefix="tw-plugin-local-") as tmp:
        root = os.path.join(tmp, "agent")
        shutil.copytree(os.path.join(twtest.FIXTURES, "agent"), root, symlinks=True)
        empty = os.path.join(tmp, "empty")
        os.makedirs(os.path.join(empty, "proc"))
        os.makedirs(os.path.join(empty, "sys"))
        fixture = ["--local", "--delay", "1", "-t", "5", "--proc-root", os.path.join(root, "proc"),
                   "--sys-root", os.path.join(root, "sys")]
        nothing = ["--local", "--delay", "1", "-t", "5", "--proc-root",
                   os.path.join(empty, "proc"), "--sys-root", os.path.join(empty, "sys")]
        runs = []
        for check in pc.CHECKS:
            runs.append(("fixture", check, pc.start(check, fixture)))
            runs.append(("real", check, pc.start(check, ["--local", "--delay", "1", "-t", "5"])))
            runs.append(("empty", check, pc.start(check, nothing)))
        want = fixture_expectations()
        for kind, check, started in runs:
            out = pc.finish(check, started)
            try:
                if kind == "fixture":
                    rc, lines = want[check]
                    got = out.stdout.split("\n")[:-1]
                    # The hit ratio's method line is checked only by its start.
                    lines = [g if w is None and g.startswith("hit ratio: an estimate (")
                             else w for g, w in zip(got, lines)] + lines[len(got):]
                    pc.expect(out, rc, lines)
                elif kind == "real":
                    assert out.rc in (0, 1, 2), "want OK, WARNING or CRITICAL: %r" % out
                    assert out.summary and out.perf, "want a summary and perfdata: %r" % out
                    assert 0.9 < out.elapsed < 5, "--delay 1 took %.2f s: %r" % (out.elapsed, out)
                else:
                    assert out.rc == 3, "an empty root has nothing to judge: want UNKNOWN: %r" % out
                    assert len(out.lines) == 2, "want one line: %r" % out
            except AssertionError as e:
                fails.append("%s root: %s" % (kind, e))
        # A root that does not exist.
        out = pc.run("check_dblock", ["--local", "--delay", "1", "-t", "3", "--proc-root",
                                      os.path.join(tmp, "nonexistent")])
        try:
            pc.expect(out, 3, ["DBLOCK UNKNOWN - cannot open proc root %s: not available on this "
                               "system" % os.path.join(tmp, "nonexistent")])
        except AssertionError as e:
            fails.append(str(e))
    assert not fails, "%d failures:\n%s" % (len(fails), "\n\n".join(fails))


if __name__ == "__main__":
    twtest.main(test)
