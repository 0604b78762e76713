#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tunewatchd behind a real snmpd, on a fixture root: a walk of the whole MIB
returns exactly what the fixture implies; then the fixture changes (a disk
advances, its time counter wraps, softnet drops rise, one device goes and
another comes) and the figures change as worked out by hand, while the
devices that stayed keep their indexes."""

import os

import plugin_common as pc
import twtest
from twtest import as_dict, column, oid

SDA, NVME, SDB = "8.0", "259.0", "8.16"
WINDOWED_DISK = ("DISK_READ_OPS", "DISK_WRITE_OPS", "DISK_READ_RATE", "DISK_WRITE_RATE",
                 "DISK_READ_LATENCY", "DISK_WRITE_LATENCY", "DISK_QUEUE_DEPTH", "DISK_UTIL")
KIB = 1024


def rnd(x):
    """Round half up, as the agent does (llround on a non-negative value)."""
    return int(x + 0.5)


def num(values, oid):
    assert oid in values, "missing %s" % oid
    return values[oid].num


def text(values, oid):
    assert oid in values, "missing %s" % oid
    return values[oid].text


def check_first_sample(h, v):
    # The agent itself.
    assert text(v, oid("AGENT_VERSION")) == "0.1.0"
    assert num(v, oid("AGENT_INTERVAL")) == 60 and num(v, oid("AGENT_WINDOW")) == 300
    assert num(v, oid("AGENT_MALFORMED")) == 0, "no malformed line in the fixture"
    assert num(v, oid("AGENT_WINDOW_SAMPLES")) == 1 and num(v, oid("AGENT_SAMPLES")) == 1
    assert text(v, oid("AGENT_SYSTEM")).startswith("Linux ")

    # Buffer cache: meminfo in bytes; no windowed figure with one sample.
    assert num(v, oid("BC_MEM_TOTAL")) == 8000000 * KIB
    assert num(v, oid("BC_MEM_AVAILABLE")) == 5000000 * KIB
    assert num(v, oid("BC_CACHED")) == 3000000 * KIB
    assert num(v, oid("BC_BUFFERS")) == 100000 * KIB
    assert num(v, oid("BC_DIRTY")) == 2048 * KIB
    assert num(v, oid("BC_WRITEBACK")) == 0
    assert num(v, oid("BC_REFAULTS")) == 40000 and num(v, oid("BC_MAJOR_FAULTS")) == 3000
    assert num(v, oid("BC_MEMORY_PRESSURE")) == 150 and num(v, oid("BC_IO_PRESSURE")) == 1234
    for absent in ("BC_READ_HIT_RATIO", "BC_REFAULT_RATE", "BC_MAJOR_FAULT_RATE",
                   "BC_PAGE_IN_RATE"):
        assert oid(absent) not in v, "windowed %s given with one sample" % absent

    # Disks: loop0 and the partition sda1 are left out by default.
    names = {i: x.text for i, x in column(v, "DISK_NAME").items()}
    assert names == {SDA: "sda", NVME: "nvme0n1"}, names
    cols = ("DISK_READS", "DISK_WRITES", "DISK_READ_BYTES", "DISK_WRITTEN_BYTES",
            "DISK_READ_TIME", "DISK_WRITE_TIME", "DISK_IN_FLIGHT", "DISK_NR_REQUESTS",
            "DISK_READ_AHEAD_KB", "DISK_WBT_LATENCY", "DISK_ROTATIONAL")
    expect = {
        SDA: (1000, 400, 80000 * 512, 32000 * 512, 4294962296, 8000, 1, 64, 128, 75000, 1),
        NVME: (50000, 20000, 4000000 * 512, 1600000 * 512, 25000, 40000, 0, 1023, 4096, 2000,
               2),
    }
    for dev, wants in expect.items():
        for col, want in zip(cols, wants):
            assert num(v, oid(col, dev)) == want, (dev, col)
        for col in WINDOWED_DISK:
            assert oid(col, dev) not in v, "windowed %s with one sample" % col
    assert text(v, oid("DISK_SCHEDULER", SDA)) == "bfq"
    assert text(v, oid("DISK_SCHEDULER", NVME)) == "none"

    # Pools: the CPU column gives the instance; sizes and limits.
    assert text(v, oid("DBLOCK_NAME", "1.0")) == "cpu0 backlog"
    assert text(v, oid("DBLOCK_NAME", "1.1")) == "cpu1 backlog"
    assert num(v, oid("DBLOCK_IN_USE", "1.1")) == 5 and num(v, oid("DBLOCK_LIMIT", "1.1")) == 1000
    assert num(v, oid("DBLOCK_FREE", "1.1")) == 995
    assert num(v, oid("DBLOCK_FAILURES", "1.1")) == 16
    assert num(v, oid("DBLOCK_FAILURES", "2.0")) == 2
    assert text(v, oid("DBLOCK_TUNABLE", "1.1")) == "net.core.netdev_max_backlog"
    assert num(v, oid("DBLOCK_IN_USE", "3.0")) == 300
    assert num(v, oid("DBLOCK_LIMIT", "3.0")) == 188220
    assert num(v, oid("DBLOCK_SIZE", "3.0")) == 4096
    assert num(v, oid("DBLOCK_FAILURES", "5.0")) == 7
    assert num(v, oid("DBLOCK_LIMIT", "5.0")) == 212992
    assert num(v, oid("DBLOCK_FAILURES", "7.0")) == 1 + 2 + 6 + 5, \
        "RcvPruned+OfoPruned+TCPRcvQDrop+TCPBacklogDrop"
    assert num(v, oid("DBLOCK_FAILURES", "8.0")) == 4
    assert num(v, oid("DBLOCK_LIMIT", "8.0")) == 4096
    # Normal zone: orders 3.. hold 10, 8, 4, 2, 1 blocks = 10 + 16 + 16 + 16 + 16 order-3 blocks.
    assert text(v, oid("DBLOCK_NAME", "9.2")) == "node0 Normal"
    assert num(v, oid("DBLOCK_FREE", "9.2")) == 74
    assert num(v, oid("DBLOCK_FAILURES", "10.0")) == 2, "compact_fail"
    assert oid("DBLOCK_FAILURES", "9.2") not in v, "a buddy zone has no failure counter"
    assert not column(v, "DBLOCK_RECENT_FAILURES"), "recent failures with one sample"

    # Tunables, as the kernel prints them.
    assert text(v, oid("TUNABLE_NAME", "1")) == "vm.dirty_ratio"
    assert text(v, oid("TUNABLE_VALUE", "1")) == "20"
    assert text(v, oid("TUNABLE_NAME", "18")) == "net.ipv4.tcp_mem"
    assert text(v, oid("TUNABLE_VALUE", "18")).split() == ["94110", "125483", "188220"]
    assert len(column(v, "TUNABLE_NAME")) == 22


def change_fixture(root):
    p = os.path.join(root, "proc")

    def write(rel, content):
        with open(os.path.join(p, rel), "w") as fh:
            fh.write(content)

    # sda advances (its read ticks wrap past 2^32), nvme0n1 goes, sdb comes,
    # and a damaged line must be skipped and counted.
    write("diskstats",
          "   7       0 loop0 10 0 80 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
          "   8       0 sda 1500 10 120000 20000 500 40 40000 9000 3 6900 14800 0 0 0 0 10 20\n"
          "   8       1 sda1 900 10 72000 4500 400 40 32000 8000 0 5500 12500 0 0 0 0 0 0\n"
          "   8      16 sdb 10 0 80 5 0 0 0 0 0 5 5 0 0 0 0 0 0\n"
          "this line is damaged\n")
    with open(os.path.join(p, "net/softnet_stat")) as fh:
        rows = fh.read().splitlines()
    cpu0 = rows[0].split()
    cpu0[2] = "%08x" % 5                 # time_squeeze 2 -> 5
    cpu1 = rows[1].split()
    cpu1[1] = "%08x" % (0x10 + 152)      # dropped +152
    write("net/softnet_stat", " ".join(cpu0) + "\n" + " ".join(cpu1) + "\n")
    with open(os.path.join(p, "net/snmp")) as fh:
        snmp = fh.read()
    write("net/snmp", snmp.replace("Udp: 5000 10 7 4000 7 0 0 0 1", "Udp: 6000 10 7 4000 17 0 0 0 1"))
    with open(os.path.join(p, "net/netstat")) as fh:
        netstat = fh.read()
    write("net/netstat", netstat.replace("0 0 4 4 5 0 6", "0 0 9 9 5 0 6"))
    with open(os.path.join(p, "vmstat")) as fh:
        vm = fh.read()
    vm = vm.replace("workingset_refault_file 40000", "workingset_refault_file 40500")
    vm = vm.replace("pgmajfault 3000", "pgmajfault 3100").replace("pgpgin 1000000", "pgpgin 1002000")
    write("vmstat", vm)
    with open(os.path.join(p, "meminfo")) as fh:
        mem = fh.read()
    write("meminfo", mem.replace("Dirty:              2048 kB", "Dirty:              4096 kB"))
    write("100/io", "rchar: 2000000\nwchar: 500\nsyscr: 100\nsyscw: 10\nread_bytes: 200000\n"
          "write_bytes: 0\ncancelled_write_bytes: 0\n")
    write("200/io", "rchar: 3000000\nwchar: 500\nsyscr: 100\nsyscw: 10\nread_bytes: 0\n"
          "write_bytes: 0\ncancelled_write_bytes: 0\n")


def start_changed(h, interval=60, window=300):
    """snmpd and tunewatchd on a writable copy of the agent fixture, changed
    (change_fixture) and sampled: the copy's root. The next sample comes
    interval seconds later; a test slower than that sees other figures."""
    root = pc.writable(h.copy_fixture("agent"))
    h.start_snmpd()
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=interval,
                  window=window)
    change_fixture(root)
    h.sample_now()
    return root


def check_second_sample(h, v):
    span = num(v, oid("AGENT_WINDOW_SPAN"))
    assert span > 0
    assert num(v, oid("AGENT_WINDOW_SAMPLES")) == 2 and num(v, oid("AGENT_SAMPLES")) == 2
    assert num(v, oid("AGENT_MALFORMED")) == 1, "the damaged diskstats line is counted"

    # sda over the window: sysstat's formulas on the increases.
    d = lambda col: num(v, oid(col, SDA))
    assert d("DISK_READS") == 1500 and d("DISK_WRITES") == 500
    assert d("DISK_READ_TIME") == 4294962296 + 25000, \
        "read time keeps counting across the 2^32 wrap"
    assert d("DISK_READ_OPS") == rnd(500 * 100000 / span), "reads per second, hundredths"
    assert d("DISK_WRITE_OPS") == rnd(100 * 100000 / span)
    assert d("DISK_READ_RATE") == rnd(40000 * 512 * 1000 / span), "bytes read per second"
    assert d("DISK_WRITE_RATE") == rnd(8000 * 512 * 1000 / span)
    assert d("DISK_READ_LATENCY") == 50000, "r_await: 25000 ms / 500 reads = 50 ms"
    assert d("DISK_WRITE_LATENCY") == 10000, "w_await: 1000 ms / 100 writes = 10 ms"
    assert d("DISK_QUEUE_DEPTH") == rnd(1800 * 100 / span), "aqu-sz, hundredths"
    assert d("DISK_UTIL") == rnd(900 * 10000 / span), "%util, hundredths"
    assert d("DISK_IN_FLIGHT") == 3

    # nvme0n1 is gone; sdb is new, has counters but no windowed figure yet;
    # sda kept its index.
    disks = oid("DISK_NAME", None).rsplit(".", 1)[0] + "."
    assert not [o for o in v if o.endswith("." + NVME) and o.startswith(disks)]
    assert text(v, oid("DISK_NAME", SDB)) == "sdb" and num(v, oid("DISK_READS", SDB)) == 10
    for col in WINDOWED_DISK:
        assert oid(col, SDB) not in v
    assert text(v, oid("DISK_SCHEDULER", SDB)) == "mq-deadline"

    # Pools: failures within the window and in all.
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "1.1")) == 152
    assert num(v, oid("DBLOCK_FAILURES", "1.1")) == 16 + 152
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "1.0")) == 0
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "2.0")) == 3
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "5.0")) == 10
    assert num(v, oid("DBLOCK_FAILURES", "5.0")) == 17
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "8.0")) == 5
    assert num(v, oid("DBLOCK_RECENT_FAILURES", "3.0")) == 0

    # Buffer cache: hit ratio 1 - 100000 / 2000000 = 95.00 %.
    assert num(v, oid("BC_READ_HIT_RATIO")) == 9500
    assert num(v, oid("BC_LOGICAL_READ_BYTES")) == 2000000
    assert num(v, oid("BC_PHYSICAL_READ_BYTES")) == 100000
    assert num(v, oid("BC_HIT_RATIO_PROCESSES")) == 2
    assert num(v, oid("BC_REFAULT_RATE")) == rnd(500 * 100000 / span), "refaults per second"
    assert num(v, oid("BC_MAJOR_FAULT_RATE")) == rnd(100 * 100000 / span), \
        "major faults per second"
    assert num(v, oid("BC_PAGE_IN_RATE")) == rnd(2000 * 100000 / span), "KiB paged in per second"
    assert num(v, oid("BC_DIRTY")) == 4096 * KIB


def check_named_walk(h):
    try:
        named = h.walk(mibs=True)
    except twtest.Skip as e:
        print("named walk skipped: %s" % e)
        return
    by = {x.oid: x for x in named}
    assert by["twDiskName.8.0"].text == "sda", sorted(by)[:20]
    assert by["twDiskReadLatency.8.0"].num == 50000
    assert by["twDblockName.softnetBacklog.1"].text == "cpu1 backlog"
    assert by["twDblockRecentFailures.softnetBacklog.1"].num == 152
    assert by["twTunableName.9"].text == "net.core.netdev_max_backlog"
    assert by["twBcReadHitRatio.0"].text.startswith("95.00"), by["twBcReadHitRatio.0"].text
    assert by["twAgentVersion.0"].text == "0.1.0"


def test():
    with twtest.Harness("agent-walk") as h:
        root = h.copy_fixture("agent")
        h.start_snmpd()
        # A long interval: only SIGUSR1 takes samples, so the test decides when.
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        v = as_dict(h.walk())
        check_first_sample(h, v)
        bulk = as_dict(h.walk(bulk=True))
        assert sorted(bulk) == sorted(v), "GETBULK and GETNEXT walks differ"

        change_fixture(root)
        h.sample_now()
        v = as_dict(h.walk())
        check_second_sample(h, v)
        check_named_walk(h)


if __name__ == "__main__":
    twtest.main(test)
