#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tunewatchd under bad input: a /proc file that vanishes, becomes unreadable
or is truncated between samples, a counter that resets, 10,000 disks that
appear at once, and the wall clock jumping a day forward and back. Nothing
crashes, no rate goes negative or spikes, damaged lines are counted."""

import os
import shutil

import twtest
from twtest import as_dict, column, oid
SDA = "8.0"

FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

LINE = "   8       0 sda %d 10 %d %d 400 40 32000 8000 0 %d %d 0 0 0 0 10 20\n"


def diskstats(reads, sectors, ticks, io_ticks, weighted):
    return LINE % (reads, sectors, ticks, io_ticks, weighted)


def write(root, rel, text):
    path = os.path.join(root, "proc", rel)
    if os.path.isdir(path):
        os.rmdir(path)
    with open(path, "w") as fh:
        fh.write(text)


def walk(h):
    return as_dict(h.walk())


def malformed(v):
    return v[oid("AGENT_MALFORMED")].num


def test():
    with twtest.Harness("agent-inputs") as h:
        root = h.copy_fixture("agent")
        clock = os.path.join(h.dir, "faketime")
        env = None
        if os.path.exists(FAKETIME):
            # The agent's wall clock, moved at will; its monotonic clock stays true.
            with open(clock, "w") as fh:
                fh.write("@2026-01-01 00:00:00\n")
            env = {"LD_PRELOAD": FAKETIME, "FAKETIME_TIMESTAMP_FILE": clock,
                   "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1"}
            # In a sanitizer build ASan must otherwise come first.
            asan = os.environ.get("ASAN_OPTIONS", "")
            env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"
        write(root, "diskstats", diskstats(1000, 8000, 1000, 100, 100))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=600, env_extra=env)

        # 100 reads taking 500 ms in all: r_await 5 ms.
        write(root, "diskstats", diskstats(1100, 8800, 1500, 200, 300))
        h.sample_now()
        v = walk(h)
        assert v[oid("DISK_READ_LATENCY", SDA)].num == 5000
        ops = v[oid("DISK_READ_OPS", SDA)].num
        assert ops > 0
        base_malformed = malformed(v)

        # The wall clock jumps a day ahead, then an hour back: figures unmoved.
        if env:
            with open(clock, "w") as fh:
                fh.write("@2026-01-02 00:00:00\n")
            h.sample_now()
            with open(clock, "w") as fh:
                fh.write("@2026-01-01 23:00:00\n")
            h.sample_now()
            v = walk(h)
            span = v[oid("AGENT_WINDOW_SPAN")].num
            assert span < 60000, "window span %d ms after a wall-clock jump" % span
            assert v[oid("DISK_READ_LATENCY", SDA)].num == 5000
            assert v[oid("DISK_READ_OPS", SDA)].num <= ops, "a rate rose with no new I/O"
        else:
            print("libfaketime not installed: wall-clock jump not tested")

        # The counter resets (the device was re-created): that interval adds
        # nothing, so no negative and no spike.
        write(root, "diskstats", diskstats(5, 40, 5, 1, 1))
        h.sample_now()
        v = walk(h)
        assert v[oid("DISK_READ_LATENCY", SDA)].num == 5000, "r_await after a reset"
        assert v[oid("DISK_READS", SDA)].num >= 1100, "a Counter64 went backwards"
        assert 0 <= v[oid("DISK_READ_OPS", SDA)].num <= ops
        # And it counts again from there: 10 reads in 100 ms, 10 ms each.
        write(root, "diskstats", diskstats(15, 120, 105, 11, 11))
        h.sample_now()
        v = walk(h)
        assert v[oid("DISK_READ_LATENCY", SDA)].num == round(600 * 1000 / 110), \
            v[oid("DISK_READ_LATENCY", SDA)]

        # The file vanishes: no disks this sample, nothing else lost.
        os.unlink(os.path.join(root, "proc", "diskstats"))
        h.sample_now()
        v = walk(h)
        assert not column(v, "DISK_NAME"), "disks served from a vanished file"
        assert oid("BC_CACHED") in v, "meminfo went with diskstats"

        # Back with larger counters: a new history, so no figure yet, no spike.
        write(root, "diskstats", diskstats(999999, 9999999, 9999999, 9999, 9999))
        h.sample_now()
        v = walk(h)
        assert v[oid("DISK_NAME", SDA)].text == "sda"
        assert oid("DISK_READ_LATENCY", SDA) not in v and oid("DISK_READ_OPS", SDA) not in v

        # meminfo becomes unreadable (a directory in its place reads EISDIR,
        # which even root cannot read through): its figures go, the rest stay.
        os.unlink(os.path.join(root, "proc", "meminfo"))
        os.mkdir(os.path.join(root, "proc", "meminfo"))
        h.sample_now()
        v = walk(h)
        assert oid("BC_CACHED") not in v and oid("BC_MEM_TOTAL") not in v
        assert v[oid("DISK_NAME", SDA)].text == "sda"
        shutil.copy(os.path.join(twtest.FIXTURES, "agent", "proc", "meminfo"),
                    os.path.join(root, "proc", "meminfo.new"))
        os.rmdir(os.path.join(root, "proc", "meminfo"))
        os.rename(os.path.join(root, "proc", "meminfo.new"), os.path.join(root, "proc", "meminfo"))

        # Truncated in the middle of a line: that line is skipped and counted.
        write(root, "diskstats", diskstats(1000000, 10000000, 10000000, 10000, 10000) +
              "   8      16 sdb 10 0 80 5 0 0")
        h.sample_now()
        v = walk(h)
        assert malformed(v) == base_malformed + 1, malformed(v)
        assert oid("DISK_NAME", "8.16") not in v
        assert v[oid("DISK_READ_LATENCY", SDA)].num == 1000, "r_await 1 ms: 1 read in 1 ms"

        # 10,000 disks at once.
        lines = [diskstats(1000001, 10000008, 10000001, 10001, 10001)]
        for i in range(10000):
            lines.append(" 252 %7d dm-%d %d 0 %d %d 0 0 0 0 0 %d %d\n" %
                         (i, i, i, 8 * i, i, i, i))
        write(root, "diskstats", "".join(lines))
        h.sample_now()
        names = h.walk(oid("DISK_NAME", None), bulk=True)
        assert len(names) == 10001, len(names)
        v = as_dict(h.walk(oid("DISK_READ_LATENCY", None), bulk=True))
        assert v[oid("DISK_READ_LATENCY", SDA)].num == 1000
        assert h.agent.poll() is None, "tunewatchd died"


if __name__ == "__main__":
    twtest.main(test)
