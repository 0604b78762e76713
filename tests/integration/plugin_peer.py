#!/usr/bin/env python3
"""Our checks against a peer: monitoring-plugins' check_snmp (Debian's
monitoring-plugins-standard), reading the same OIDs from the same agent.

tunewatchd runs on tests/fixtures/agent, changed as agent_walk does. For
each figure, the value check_snmp reads by numeric OID equals what our
plugin prints, in the MIB's units:
  twDiskReadLatency.8.0, twDiskWriteLatency.8.0 (Gauge32 microseconds)
      = check_disklatency's sda_r_await / sda_w_await in ms x 1000
  twDblockRecentFailures of the udp receive buffer and tcp listen queue
      = check_dblock's items of the same name; the per-CPU backlog pools
      summed = its softnet_backlog
  twBcReadHitRatio.0 (hundredths of a percent) = check_bufcache's
      hit_ratio x 100
with SNMP v2c and v1. Then both plugins judge the same value (cpu1's 152
backlog drops) against the same ranges, and must agree on the state: the
two range parsers read the Monitoring Plugins syntax alike.

Debian 12's check_snmp runs snmpget itself; -m '' and MIBS= keep it from
loading any MIB."""

import os
import re
import subprocess
from decimal import Decimal

import agent_walk
import plugin_common as pc
import twtest

CHECK_SNMP = os.environ.get("CHECK_SNMP", "/usr/lib/nagios/plugins/check_snmp")
_SNMP_LINE = re.compile(r"^SNMP (OK|WARNING|CRITICAL|UNKNOWN) - (.*?)(?: \| (.*))?$")


def check_snmp(h, oids, version="2c", args=()):
    argv = [CHECK_SNMP, "-H", "127.0.0.1", "-p", str(h.port), "-C", "public", "-P", version,
            "-m", "", "-t", "5", "-o", ",".join(oids)] + list(args)
    r = subprocess.run(argv, capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, MIBS=""))
    first = r.stdout.split("\n")[0]
    m = _SNMP_LINE.match(first)
    assert m and r.stderr == "", "check_snmp: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr)
    values = [int(v) for v in re.findall(r"=(-?[0-9]+)(?:;|\s|$)", m.group(3) or "")]
    assert len(values) == len(oids), "check_snmp gave %s for %s: %s" % (values, oids, first)
    return m.group(1), r.returncode, values


def test():
    if not os.access(CHECK_SNMP, os.X_OK):
        raise twtest.Skip("%s is not installed (Debian: monitoring-plugins-standard)" % CHECK_SNMP)
    with twtest.Harness("plugin-peer") as h:
        agent_walk.start_changed(h)

        for version in ("2c", "1"):
            lat = pc.run("check_disklatency", ["-P", version], h.port).perf_map()
            pools = pc.run("check_dblock", ["-P", version], h.port).perf_map()
            bc = pc.run("check_bufcache", ["-P", version], h.port).perf_map()
            oids = [pc.oid("DISK_READ_LATENCY", "8.0"), pc.oid("DISK_WRITE_LATENCY", "8.0")] + \
                [pc.oid("DBLOCK_RECENT_FAILURES", i) for i in ("5.0", "8.0", "1.0", "1.1")] + \
                [pc.oid("BC_READ_HIT_RATIO")]
            state, rc, peer = check_snmp(h, oids, version)
            assert (state, rc) == ("OK", 0), (state, rc)
            # The figures themselves, worked out in agent_walk.
            assert peer == [50000, 10000, 10, 5, 0, 152, 9500], peer
            ours = [Decimal(lat["sda_r_await"].value) * 1000,
                    Decimal(lat["sda_w_await"].value) * 1000,
                    Decimal(pools["udp_receive_buffer"].value),
                    Decimal(pools["tcp_listen_queue"].value),
                    Decimal(pools["softnet_backlog"].value), Decimal(bc["hit_ratio"].value) * 100]
            assert lat["sda_r_await"].uom == "ms" and bc["hit_ratio"].uom == "%"
            theirs = peer[:4] + [peer[4] + peer[5], peer[6]]
            assert ours == theirs, "v%s: ours %s, check_snmp %s" % (version, ours, theirs)

        # The same value against the same ranges: the same state.
        backlog = pc.oid("DBLOCK_RECENT_FAILURES", "1.1")
        for warn, crit in (("100", "200"), ("200", "300"), ("10", "100"), ("~:100", ""),
                           ("200:", ""), ("@100:200", ""), ("@0:100", "@150:160"),
                           ("150:160", "152:"), ("@152", ""), ("152", "151"), ("", "~:151")):
            args = (["-w", warn] if warn else []) + (["-c", crit] if crit else [])
            state, rc, peer = check_snmp(h, [backlog], args=args)
            ours = pc.run("check_dblock", ["--pool", "^cpu1 backlog$"] + args, h.port)
            assert peer == [152]
            assert (ours.state, ours.rc) == (state, rc), \
                "-w %r -c %r: check_snmp says %s (%d), check_dblock %r" % (warn, crit, state, rc,
                                                                          ours)


if __name__ == "__main__":
    twtest.main(test)
