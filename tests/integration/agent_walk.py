#!/usr/bin/env python3
"""tunewatchd behind a real snmpd, on a fixture root: a walk of the whole MIB
returns exactly what the fixture implies; then the fixture changes (a disk
advances, its time counter wraps, softnet drops rise, one device goes and
another comes) and the figures change as worked out by hand, while the
devices that stayed keep their indexes."""

import os

import twtest
from twtest import OBJECTS, as_dict

A = OBJECTS + ".1."       # twAgent
BC = OBJECTS + ".2."      # twBufferCache
DB = OBJECTS + ".3.1."    # twDblockEntry
DK = OBJECTS + ".4.1."    # twDiskEntry
TU = OBJECTS + ".5.1."    # twTunableEntry

SDA, NVME, SDB = "8.0", "259.0", "8.16"
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
    assert text(v, A + "1.0") == "0.1.0"
    assert num(v, A + "2.0") == 60 and num(v, A + "3.0") == 300
    assert num(v, A + "5.0") == 0, "no malformed line in the fixture"
    assert num(v, A + "6.0") == 1 and num(v, A + "9.0") == 1
    assert text(v, A + "8.0").startswith("Linux ")

    # Buffer cache: meminfo in bytes; no windowed figure with one sample.
    assert num(v, BC + "1.0") == 8000000 * KIB
    assert num(v, BC + "2.0") == 5000000 * KIB
    assert num(v, BC + "3.0") == 3000000 * KIB
    assert num(v, BC + "4.0") == 100000 * KIB
    assert num(v, BC + "5.0") == 2048 * KIB
    assert num(v, BC + "6.0") == 0
    assert num(v, BC + "13.0") == 40000 and num(v, BC + "15.0") == 3000
    assert num(v, BC + "18.0") == 150 and num(v, BC + "19.0") == 1234
    for absent in ("7.0", "14.0", "16.0", "17.0"):
        assert BC + absent not in v, "windowed %s given with one sample" % absent

    # Disks: loop0 and the partition sda1 are left out by default.
    names = {o[len(DK) + 2:]: x.text for o, x in v.items() if o.startswith(DK + "3.")}
    assert names == {SDA: "sda", NVME: "nvme0n1"}, names
    expect = {
        SDA: {4: 1000, 5: 400, 6: 80000 * 512, 7: 32000 * 512, 8: 4294962296, 9: 8000,
              18: 1, 20: 64, 21: 128, 22: 75000, 23: 1},
        NVME: {4: 50000, 5: 20000, 6: 4000000 * 512, 7: 1600000 * 512, 8: 25000, 9: 40000,
               18: 0, 20: 1023, 21: 4096, 22: 2000, 23: 2},
    }
    for dev, cols in expect.items():
        for col, want in cols.items():
            assert num(v, DK + "%d.%s" % (col, dev)) == want, (dev, col)
        for col in range(10, 18):
            assert DK + "%d.%s" % (col, dev) not in v, "windowed column %d with one sample" % col
    assert text(v, DK + "19." + SDA) == "bfq" and text(v, DK + "19." + NVME) == "none"

    # Pools: the CPU column gives the instance; sizes and limits.
    assert text(v, DB + "3.1.0") == "cpu0 backlog" and text(v, DB + "3.1.1") == "cpu1 backlog"
    assert num(v, DB + "5.1.1") == 5 and num(v, DB + "7.1.1") == 1000
    assert num(v, DB + "6.1.1") == 995
    assert num(v, DB + "8.1.1") == 16 and num(v, DB + "8.2.0") == 2
    assert text(v, DB + "10.1.1") == "net.core.netdev_max_backlog"
    assert num(v, DB + "5.3.0") == 300 and num(v, DB + "7.3.0") == 188220
    assert num(v, DB + "4.3.0") == 4096
    assert num(v, DB + "8.5.0") == 7 and num(v, DB + "7.5.0") == 212992
    assert num(v, DB + "8.7.0") == 1 + 2 + 6 + 5, "RcvPruned+OfoPruned+TCPRcvQDrop+TCPBacklogDrop"
    assert num(v, DB + "8.8.0") == 4 and num(v, DB + "7.8.0") == 4096
    # Normal zone: orders 3.. hold 10, 8, 4, 2, 1 blocks = 10 + 16 + 16 + 16 + 16 order-3 blocks.
    assert text(v, DB + "3.9.2") == "node0 Normal" and num(v, DB + "6.9.2") == 74
    assert num(v, DB + "8.10.0") == 2, "compact_fail"
    assert DB + "8.9.2" not in v, "a buddy zone has no failure counter"
    for o in v:
        assert not o.startswith(DB + "9."), "recent failures with one sample: " + o

    # Tunables, as the kernel prints them.
    assert text(v, TU + "2.1") == "vm.dirty_ratio" and text(v, TU + "3.1") == "20"
    assert text(v, TU + "2.18") == "net.ipv4.tcp_mem"
    assert text(v, TU + "3.18").split() == ["94110", "125483", "188220"]
    assert len([o for o in v if o.startswith(TU + "2.")]) == 22


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


def check_second_sample(h, v):
    span = num(v, A + "7.0")
    assert span > 0
    assert num(v, A + "6.0") == 2 and num(v, A + "9.0") == 2
    assert num(v, A + "5.0") == 1, "the damaged diskstats line is counted"

    # sda over the window: sysstat's formulas on the increases.
    d = lambda col: num(v, DK + "%d.%s" % (col, SDA))
    assert d(4) == 1500 and d(5) == 500
    assert d(8) == 4294962296 + 25000, "read time keeps counting across the 2^32 wrap"
    assert d(10) == rnd(500 * 100000 / span), "reads per second, hundredths"
    assert d(11) == rnd(100 * 100000 / span)
    assert d(12) == rnd(40000 * 512 * 1000 / span), "bytes read per second"
    assert d(13) == rnd(8000 * 512 * 1000 / span)
    assert d(14) == 50000, "r_await: 25000 ms / 500 reads = 50 ms"
    assert d(15) == 10000, "w_await: 1000 ms / 100 writes = 10 ms"
    assert d(16) == rnd(1800 * 100 / span), "aqu-sz, hundredths"
    assert d(17) == rnd(900 * 10000 / span), "%util, hundredths"
    assert d(18) == 3

    # nvme0n1 is gone; sdb is new, has counters but no windowed figure yet;
    # sda kept its index.
    assert not [o for o in v if o.endswith("." + NVME) and o.startswith(DK)]
    assert text(v, DK + "3." + SDB) == "sdb" and num(v, DK + "4." + SDB) == 10
    for col in range(10, 18):
        assert DK + "%d.%s" % (col, SDB) not in v
    assert text(v, DK + "19." + SDB) == "mq-deadline"

    # Pools: failures within the window and in all.
    assert num(v, DB + "9.1.1") == 152 and num(v, DB + "8.1.1") == 16 + 152
    assert num(v, DB + "9.1.0") == 0
    assert num(v, DB + "9.2.0") == 3
    assert num(v, DB + "9.5.0") == 10 and num(v, DB + "8.5.0") == 17
    assert num(v, DB + "9.8.0") == 5
    assert num(v, DB + "9.3.0") == 0

    # Buffer cache: hit ratio 1 - 100000 / 2000000 = 95.00 %.
    assert num(v, BC + "7.0") == 9500
    assert num(v, BC + "9.0") == 2000000 and num(v, BC + "10.0") == 100000
    assert num(v, BC + "11.0") == 2
    assert num(v, BC + "14.0") == rnd(500 * 100000 / span), "refaults per second"
    assert num(v, BC + "16.0") == rnd(100 * 100000 / span), "major faults per second"
    assert num(v, BC + "17.0") == rnd(2000 * 100000 / span), "KiB paged in per second"
    assert num(v, BC + "5.0") == 4096 * KIB


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
