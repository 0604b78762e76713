#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""How often tunewatchd dumps the UDP sockets in a user's steady flood
(issue 34): a count, which the machine's load does not move, beside
bench/flood_users.py's CPU times, which it does.

As root, in a network namespace of its own, per build: tunewatchd
(`--interval 1 --window 10`) behind snmpd, N UDP sockets of nobody flooded
round-robin by a sender of nobody's (bench/flood_users.py's flood); once
the flood's finding is raised (the seconds from the flood's start, making
its sockets included, are printed), strace follows tunewatchd's threads for
--measure seconds and counts the sock_diag requests for UDP over IPv4
(one a read of the sockets) against the samples taken (twAgentSamples).
Each build --rounds times, the builds taking turns.

    python3 bench/flood_dumps.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flood_users as fu  # noqa: E402
import twtest  # noqa: E402

# A sock_diag request for the UDP sockets of IPv4, decoded by strace or (when
# strace, attached late, does not know the socket's protocol) as bytes: the
# family (2) and the protocol (17) that open struct inet_diag_req_v2.
UDP4_DUMP = re.compile(r'sdiag_family=AF_INET, sdiag_protocol=IPPROTO_UDP\b|"\\x02\\x11\\x')


def one(builddir, n, measure_s):
    twtest.TOP_BUILDDIR = builddir
    with twtest.Harness("flood-dumps") as h:
        h.agent_bin = os.path.join(builddir, "agentx", "tunewatchd")
        h.start_snmpd()
        h.start_agent(interval=1, window=10)
        procs = fu.start_flood(n)
        try:
            t0 = time.monotonic()
            while time.monotonic() - t0 < 40 and not fu.finding_rows(h):
                time.sleep(0.5)
            raised = time.monotonic() - t0
            trace = os.path.join(h.dir, "strace.out")
            s0, _, _ = fu.samples_and_cpu(h)
            st = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=sendto,sendmsg", "-o",
                                   trace, "-p", str(h.agent.pid)])
            time.sleep(measure_s)
            s1, _, _ = fu.samples_and_cpu(h)
            st.terminate()
            st.wait(timeout=30)
            with open(trace) as fh:
                dumps = sum(1 for line in fh if UDP4_DUMP.search(line))
        finally:
            for p in procs:
                p.kill()
                p.wait()
    if s0 is None or s1 is None or s1 <= s0:
        return None, dumps, raised
    return s1 - s0, dumps, raised


def inside(args):
    builds = fu.compared_builds(args)
    print("| build | nobody's sockets | round | flood's finding raised after s | samples traced "
          "| UDP dumps | dumps a sample |")
    print("|---|---|---|---|---|---|---|")
    for rnd in range(args.rounds):
        for name, bdir in (builds if rnd % 2 == 0 else builds[::-1]):
            samples, dumps, raised = one(bdir, args.sockets, args.measure)
            print("| %s | %s | %d | %.1f | %s | %d | %s |" % (
                name, "{:,}".format(args.sockets), rnd + 1, raised,
                "missing" if samples is None else samples, dumps,
                "missing" if samples is None else "%.2f" % (dumps / samples)), flush=True)
    fu.stamp("end")


def options():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--sockets", type=int, default=5000)
    ap.add_argument("--measure", type=float, default=20.0, help="seconds traced")
    return ap


def main():
    args = options().parse_args()
    if os.geteuid() != 0:
        sys.exit("flood_dumps.py: needs root (a network namespace, the user nobody)")
    if shutil.which("strace") is None:
        sys.exit("flood_dumps.py: needs strace")
    fu.rerun_in_namespace(__file__, args, "--rounds", args.rounds, "--sockets", args.sockets,
                          "--measure", args.measure)


if __name__ == "__main__":
    if "--inside" in sys.argv:
        sys.argv.remove("--inside")
        inside(options().parse_args())
    else:
        main()
