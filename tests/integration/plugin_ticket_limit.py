#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The worst case for output size: many disks in trouble at once, each with
two findings that carry apply and persist lines (a rotational disk on
scheduler none with a deep queue held near nr_requests: scheduler ->
mq-deadline and nr_requests 64 -> 32).

Nagios keeps 8 KiB of a plugin's output (MAX_PLUGIN_OUTPUT_LENGTH); past
that it cuts mid-line. The check must stay within it by itself, cut only
whole lines, and never leave a finding cut in two (a finding line without
the tune: line it belongs to, or an apply line without its persist line),
which contrib/notify would turn into a ticket with half a fix.
"""

import os
import re

import plugin_common as pc
import twtest

CHECK = "check_disklatency"
NAGIOS_LIMIT = 8192
COUNT = 60


def make_fixture(root):
    """COUNT disks like the fixture's sdc, with scheduler none."""
    first, second = [], []
    for i in range(COUNT):
        name = "sd%s%s" % (chr(ord("a") + i // 26), chr(ord("a") + i % 26))
        minor = 16 * (i % 16)
        major = 65 + i // 16
        first.append("%4d %7d %s 10000 0 80000 250000 0 0 0 0 0 100000 250000 0 0 0 0 0 0" % (
            major, minor, name))
        second.append("%4d %7d %s 12000 0 96000 300000 0 0 0 0 0 101000 300000 0 0 0 0 0 0" % (
            major, minor, name))
        q = os.path.join(root, "sys", "block", name, "queue")
        os.makedirs(q)
        for f, v in (("nr_requests", "64"), ("read_ahead_kb", "128"), ("rotational", "1"),
                     ("scheduler", "[none] mq-deadline bfq"), ("wbt_lat_usec", "75000")):
            with open(os.path.join(q, f), "w") as fh:
                fh.write(v + "\n")
    os.makedirs(os.path.join(root, "proc"))
    os.makedirs(os.path.join(root, "next"))
    with open(os.path.join(root, "proc", "diskstats"), "w") as fh:
        fh.write("\n".join(first) + "\n")
    with open(os.path.join(root, "next", "diskstats"), "w") as fh:
        fh.write("\n".join(second) + "\n")


def check_blocks(out):
    """Every finding sits under its advice line, with both of its lines (on
    these disks every finding proposes a value), and what was left out is
    said in the last line."""
    lines = out.long
    for i, line in enumerate(lines):
        if line.startswith("  finding: "):
            assert re.match(r"^  finding: tw-[0-9a-f]{12}$", line), line
            assert lines[i - 1].startswith("tune: "), (i, out)
            assert lines[i + 1:i + 3] and lines[i + 1].startswith("  apply: ") and \
                lines[i + 2].startswith("  persist: "), (i, out)
    assert re.match(r"^\(\d+ more lines left out to keep the output within 8192 bytes\)$",
                    lines[-1]), lines[-1]


def test():
    with twtest.Harness("plugin-ticket-limit") as h:
        root = os.path.join(h.dir, "many")
        make_fixture(root)
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        os.replace(os.path.join(root, "next", "diskstats"),
                   os.path.join(root, "proc", "diskstats"))
        h.sample_now()

        out = pc.run(CHECK, [], h.port)
        size = len(out.stdout.encode())
        print("%d disks in trouble: %d bytes, %d long-output lines, %d findings" % (
            COUNT, size, len(out.long), sum(l.startswith("  finding: ") for l in out.long)))
        print("\n".join(out.long))
        assert out.state == "CRITICAL" or out.state == "WARNING", out
        assert size <= NAGIOS_LIMIT, "%d bytes: %r" % (size, out)
        # The first line: the worst three and a count, as the guidelines
        # want a short status; the perfdata for every device.
        assert re.search(r"; and %d more \|" % (COUNT - 3), out.first), out.first
        check_blocks(out)
        # Some findings do get through, whole.
        assert any(l.startswith("  finding: ") for l in out.long), out
        # Every finding printed is one of the disks', by its own id.
        ids = set(l.split()[1] for l in out.long if l.startswith("  finding: "))
        want = set()
        for i in range(COUNT):
            name = "sd%s%s" % (chr(ord("a") + i // 26), chr(ord("a") + i % 26))
            want.add(pc.ticket_id("read-latency-queue", name, "queue/scheduler"))
            want.add(pc.ticket_id("queue-full", name, "queue/nr_requests"))
        assert ids <= want, ids - want


if __name__ == "__main__":
    twtest.main(test)
