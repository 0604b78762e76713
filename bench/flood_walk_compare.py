#!/usr/bin/env python3
"""A whole walk of TUNEWATCH-MIB after a burst of findings (issue 21), two
builds side by side in one run: tunewatchd of the build before
(--orig-builddir) and of this one (--builddir), each behind its own snmpd
with a real snmptrapd as its trap2sink, on the fixture of
tests/integration/agent_notify_flood.py (2,000 UDP sockets whose drops grow
every sample; twSocketDropTable holds the first 256) with the default
settings (notificationsPerMinute 60, findingRaiseAfter 3): four samples,
so that the findings are raised and notified, then one snmpwalk (GETNEXT)
and one snmpbulkwalk of twObjects, timed. Interleaved, --rounds times;
medians. It checks that request handling stays as fast as before while
notifications go through their queue.

    python3 bench/flood_walk_compare.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
import os
import statistics
import sys
import time

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRCDIR, "tests", "integration"))
os.environ.setdefault("top_srcdir", SRCDIR)

import agent_notify_flood as flood  # noqa: E402
import twtest  # noqa: E402
from trapsink import TrapSink  # noqa: E402


def one(builddir):
    """(seconds, values) of a GETNEXT walk and of a bulk walk."""
    twtest.TOP_BUILDDIR = builddir
    out = {}
    with twtest.Harness("flood-walk") as h:
        h.agent_bin = os.path.join(builddir, "agentx", "tunewatchd")
        sink = TrapSink(h)
        sink.snmptt = None
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        root = h.copy_fixture("agent")
        flood.write_drops(root, 0)
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=60)
        for step in range(1, 5):
            flood.write_drops(root, step)
            h.sample_now()
        time.sleep(2)
        for tool in ("snmpwalk", "snmpbulkwalk"):
            t0 = time.monotonic()
            r = h.run_client([twtest.which(tool), "-v2c", "-c", "public", "-On", "-m", "",
                              "-t", "5", "-r", "0", "127.0.0.1:%d" % h.port, twtest.OBJECTS],
                             timeout=120)
            out[tool] = (time.monotonic() - t0, len(r.stdout.splitlines()))
            assert r.returncode == 0, r.stderr
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    builds = (("before", os.path.abspath(args.orig_builddir)),
              ("after", os.path.abspath(args.builddir)))
    runs = {}
    for _ in range(args.rounds):
        for name, bdir in builds:
            for tool, (s, n) in one(bdir).items():
                runs.setdefault((name, tool), []).append((s, n))
    print("| build | walk | median s | min s | max s | values |")
    print("|---|---|---|---|---|---|")
    for (name, tool), v in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0] != "before")):
        secs = [x[0] for x in v]
        print("| %s | %s | %.3f | %.3f | %.3f | %d |" % (name, tool, statistics.median(secs),
                                                     min(secs), max(secs), v[0][1]))


if __name__ == "__main__":
    main()
