#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Memory safety of the distribution of every request: tunewatchd under
valgrind memcheck loading the BPF program, timing fio's reads of a loop
device of the test's own over several samples, answering GETBULK walks of
twReqLatTable and twReqHistTable, the device leaving (and its rows with
it) and coming back, and a clean stop; check_disklatency --percentile over
SNMP and with --local (which loads the program itself). No invalid access,
no leak. Skips in sanitizer builds, without valgrind, root, BTF, fio, or a
tunewatchd that cannot time requests here."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import memcheck  # noqa: E402
import reqlat_common as rc  # noqa: E402
import twtest  # noqa: E402

CHECK = os.path.join(twtest.TOP_BUILDDIR, "plugins", "check_disklatency")


def test():
    if os.environ.get("TW_SANITIZERS") == "yes":
        raise twtest.Skip("a sanitizer build: valgrind cannot run ASan binaries")
    if not twtest.which("valgrind"):
        raise twtest.Skip("valgrind is not installed (Debian: apt-get install valgrind)")
    rc.need("fio")
    with rc.Loop(rc.backing_path("memcheck"), mib=16) as loop:
        with twtest.Harness("reqlat-memcheck") as h:
            conf = rc.agent_conf(h, loop.name, ["findingRaiseAfter 1",
                                                "requestLatencyWarning 0.001"])
            h.start_snmpd()
            vglog = os.path.join(h.dir, "vg-tunewatchd.log")
            h.agent = subprocess.Popen(
                memcheck.VALGRIND + ["--log-file=" + vglog, h.agent_bin, "-f", "-Lo", "-C", "-c",
                                     conf, "-x", h.socket, "--interval", "60", "--window", "600"],
                stdout=h.log("tunewatchd"), stderr=subprocess.STDOUT)
            h.procs.append(h.agent)
            h.wait_agent(timeout=300)     # under valgrind; 120 s passed at load 31
            rc.need_timing(h)
            h.sample_now()
            # Two rounds at least; more until the window holds the 1000 reads
            # a p99 is judged from (issue 32), which a loaded machine may not
            # read in 2 s.
            for i in range(8):
                rc.fio(loop.dev, 1)
                h.sample_now()
                row = rc.reqlat_row(h, loop.index())
                if i >= 1 and row.get("COUNT") and row["COUNT"].num >= 1000:
                    break
            assert row.get("COUNT") and row["COUNT"].num >= 1000, row
            assert rc.reqhist_rows(h, loop.index())
            h.walk(twtest.OBJECTS, bulk=True)
            for args, expect in ((["--percentile", "99", "-w", "0.001", "-c", "0.002"], (2,)),
                                 (["--percentile", "50", "-w", "1000"], (0,))):
                memcheck.plugin(h, "check_disklatency", ["-H", "127.0.0.1", "-p", str(h.port),
                                                         "-C", "public"] + args, expect)
            # The device leaves and comes back: its rows go, then return.
            name, index = loop.name, loop.index()
            subprocess.run(["losetup", "-d", loop.dev], capture_output=True, timeout=30)
            loop.dev = None
            h.sample_now()
            r = subprocess.run(["losetup", "--direct-io=on", "/dev/" + name, loop.backing],
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 0, r.stderr
            loop.dev = "/dev/" + name
            h.sample_now()
            h.sample_now()
            rc.fio(loop.dev, 1)
            h.sample_now()
            assert "TOTAL" in rc.reqlat_row(h, index)
            memcheck.plugin(h, "check_disklatency", ["--local", "--delay", "1", "-t", "120", "--device",
                                                     "^%s$" % name, "--percentile", "50",
                                                     "-w", "1000"], (0,))
            h.stop(h.agent)
            with open(vglog) as fh:
                memcheck.summary_ok(fh.read(), "tunewatchd")
    print("tunewatchd timing requests, and the check over SNMP and --local: memcheck clean")


if __name__ == "__main__":
    twtest.main(test)
