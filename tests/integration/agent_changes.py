#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The record of a change, end to end.

tunewatchd samples a fixture every second with a 12 s window. Between
samples the fixture's net.core.netdev_max_backlog goes from 1000 to 2000
right after CPU 1's backlog dropped 152 packets, sda's nr_requests from 64
to 32, and vm.vfs_cache_pressure (which no rule's figure watches) from 100
to 50; and a cgroup's limit: the fixture has the cgroup v2 tree of
tests/fixtures/collectors/cgroup.tar, whose nginx.service refaults at its
memory.high of 64 MiB, raised to 128 MiB (its ticket's MemoryHigh=).
Then:

- twChangeTable has a row for each, newest first, waiting; the backlog's
  figure is cpu1 backlog's failures per minute over the window before
  (more than 0), absent for vfs_cache_pressure;
- once a window has passed, each row is evaluated, and the backlog's
  figure after is 0 (no drop since);
- a real snmptrapd on 127.0.0.1, snmpd's trap2sink, receives
  twTunableChanged, then twTunableChangeEvaluated with both figures;
- each check prints the change of its own family only, with the figures;
- the limit's change is named as its ticket names it (MemoryHigh of
  nginx.service's directory, 64M -> 128M, with that finding's id, which
  check_bufcache --cgroup nginx.service prints first and a check of other
  cgroups or of the host does not print), watched on the cgroup's refaults, and is
  evaluated within two windows of the write, though tunewatchd walks the
  cgroup hierarchy only every cgroupRescan (300 s).
"""

import os
import shutil
import subprocess
import tarfile
import time

import plugin_common as pc
import twtest
from twtest import oid, column

_H = twtest._H
ARC = twtest.ARC
CHANGED = "%s.%d.%d" % (ARC, _H["TW_OID_NOTIFICATIONS"][0], _H["TW_NOTIFY_TUNABLE_CHANGED"][0])
EVALUATED = "%s.%d.%d" % (ARC, _H["TW_OID_NOTIFICATIONS"][0],
                          _H["TW_NOTIFY_TUNABLE_CHANGE_EVALUATED"][0])
TRAP_OID = "1.3.6.1.6.3.1.1.4.1.0"
# Long enough that the pending state is seen even on a loaded machine.
WINDOW = 12


def write(root, rel, content):
    with open(os.path.join(root, rel), "w") as fh:
        fh.write(content)


def start_trapd(h, port):
    """snmptrapd on 127.0.0.1:port, numeric OIDs, one line a notification,
    no AgentX of its own (-X)."""
    conf = os.path.join(h.dir, "snmptrapd.conf")
    with open(conf, "w") as fh:
        fh.write("authCommunity log public\n"
                 "format2 TRAP %V|%v\\n\n")
    argv = [twtest.which("snmptrapd"), "-f", "-Lo", "-C", "-c", conf, "-X", "-n", "-On",
            "-m", "", "-p", os.path.join(h.dir, "snmptrapd.pid"), "udp:127.0.0.1:%d" % port]
    p = subprocess.Popen(argv, stdout=open(os.path.join(h.dir, "snmptrapd.out"), "wb"),
                         stderr=h.log("snmptrapd"),
                         env=dict(os.environ, MIBS="", SNMP_PERSISTENT_DIR=os.path.join(
                             h.dir, "trapd-persist")))
    h.procs.append(p)
    return p


def traps(h):
    """The notifications received, in order: [(trapOID, {oid: text})]."""
    path = os.path.join(h.dir, "snmptrapd.out")
    if not os.path.exists(path):
        return []
    out = []
    with open(path, errors="replace") as fh:
        for line in fh:
            if not line.startswith("TRAP "):
                continue
            binds = {}
            for vb in line[5:].rstrip("\n").split("|"):
                if " = " in vb:
                    k, v = vb.split(" = ", 1)
                    binds[k.strip().lstrip(".")] = v.strip()
            trap = binds.get(TRAP_OID, "").replace("OID: ", "").lstrip(".")
            out.append((trap, binds))
    return out


NGINX = "/sys/fs/cgroup/system.slice/nginx.service"


def rows(h):
    """twChangeTable as {index: {column macro: text}}, in walk order."""
    v = twtest.as_dict(h.walk(oid("CHANGE_TUNABLE", None)[:-2]))
    table = {}
    for name in ("TUNABLE", "SUBJECT", "OLD_VALUE", "NEW_VALUE", "TIME", "EVALUATED", "FIGURE",
                 "FIGURE_UNIT", "BEFORE", "AFTER", "FINDING_ID"):
        for idx, val in column(v, "CHANGE_" + name).items():
            table.setdefault(idx, {})[name] = val.text.strip('"')
    return table


def with_cgroups(h, root):
    """The v2 tree of the cgroup fixture as root's /sys/fs/cgroup."""
    trees = os.path.join(h.dir, "cgroup")
    with tarfile.open(os.path.join(twtest.FIXTURES, "collectors", "cgroup.tar")) as tf:
        tf.extractall(trees)
    shutil.copytree(os.path.join(trees, "v2", "sys", "fs"), os.path.join(root, "sys", "fs"))
    pc.writable(root)


def by_tunable(table, tunable):
    found = [(i, r) for i, r in table.items() if r["TUNABLE"] == tunable]
    assert len(found) == 1, "one change of %s: %r" % (tunable, table)
    return found[0]


def test():
    if not twtest.which("snmptrapd"):
        raise twtest.Skip("snmptrapd is needed (Debian: apt-get install snmptrapd)")
    with twtest.Harness("agent-changes") as h:
        root = pc.writable(h.copy_fixture("agent"))
        with_cgroups(h, root)
        proc, sys_ = os.path.join(root, "proc"), os.path.join(root, "sys")
        trap_port = twtest.free_port()
        start_trapd(h, trap_port)
        # clientaddr keeps snmpd's trap socket on loopback.
        h.start_snmpd("trap2sink 127.0.0.1:%d public\n[snmp] clientaddr 127.0.0.1\n" % trap_port)
        h.start_agent(proc, sys_, interval=1, window=WINDOW)
        twtest.wait_for("two samples", lambda: (h.agent_samples() or 0) >= 2)
        assert rows(h) == {}, "no change before any tunable changed"

        # CPU 1's backlog drops 152 packets; a sample sees it; then the
        # knob is turned, with two others.
        with open(os.path.join(proc, "net/softnet_stat")) as fh:
            cpus = fh.read().splitlines()
        cpu1 = cpus[1].split()
        cpu1[1] = "%08x" % (0x10 + 152)
        write(proc, "net/softnet_stat", cpus[0] + "\n" + " ".join(cpu1) + "\n")
        n = h.agent_samples()
        twtest.wait_for("a sample of the drops", lambda: h.agent_samples() > n)
        write(proc, "sys/net/core/netdev_max_backlog", "2000\n")
        write(proc, "sys/vm/vfs_cache_pressure", "50\n")
        write(sys_, "block/sda/queue/nr_requests", "32\n")
        write(sys_, "fs/cgroup/system.slice/nginx.service/memory.high", "134217728\n")
        seen = time.time()

        twtest.wait_for("four rows in twChangeTable", lambda: len(rows(h)) == 4)
        table = rows(h)
        _, limit = by_tunable(table, "MemoryHigh")
        # The cgroup's directory and its finding's id, never the unit's
        # name alone (a user's unit may share it).
        assert (limit["SUBJECT"], limit["OLD_VALUE"], limit["NEW_VALUE"]) == (
            NGINX, "64M", "128M"), limit
        assert limit["FINDING_ID"] == pc.ticket_id("cgroup-cache-bounded", NGINX,
                                                    "MemoryHigh"), limit
        assert "FINDING_ID" not in by_tunable(table, "net.core.netdev_max_backlog")[1]
        assert limit["FIGURE"] == "cgroup refaults" and limit["FIGURE_UNIT"] == "pages/s", limit
        assert "BEFORE" in limit, "the cgroup's refaults before: %r" % limit
        i, backlog = by_tunable(table, "net.core.netdev_max_backlog")
        assert backlog["SUBJECT"] == "host" and backlog["OLD_VALUE"] == "1000" and \
            backlog["NEW_VALUE"] == "2000", backlog
        # The sample after the writes saw them (a loaded machine may be late).
        assert -1 <= int(backlog["TIME"]) - seen <= 10, (backlog, seen)
        assert backlog["EVALUATED"] == "2", "waiting for the window after: %r" % backlog
        assert backlog["FIGURE"] == "cpu1 backlog" and backlog["FIGURE_UNIT"] == "failures/min"
        # 152 drops within a window of at most WINDOW s, per minute, in
        # hundredths.
        assert int(backlog["BEFORE"]) >= 152 * 60 * 100 // WINDOW, backlog
        assert "AFTER" not in backlog, backlog
        assert int(i) >= 4294967293, "indexes count down from 4294967295: %s" % i
        _, nr = by_tunable(table, "queue/nr_requests")
        assert nr["SUBJECT"] == "sda" and (nr["OLD_VALUE"], nr["NEW_VALUE"]) == ("64", "32"), nr
        assert nr["FIGURE"] == "sda r_await" and nr["FIGURE_UNIT"] == "ms", nr
        _, vfs = by_tunable(table, "vm.vfs_cache_pressure")
        assert "FIGURE" not in vfs and "BEFORE" not in vfs, "no figure, not 0: %r" % vfs

        # Until the window after is complete, the checks say when it will be.
        env = {"TZ": "UTC"}
        out = pc.run("check_dblock", ["-w", "100000", "-c", "100000"], h.port, env=env)
        at = time.strftime("%H:%M", time.gmtime(int(backlog["TIME"])))
        due = time.strftime("%H:%M", time.gmtime(int(backlog["TIME"]) + WINDOW))
        want = ("change: net.core.netdev_max_backlog 1000 -> 2000 at %s; cpu1 backlog %s "
                "failures/min before, after: pending, window completes at %s" % (
                    at, pc.hundredths(int(backlog["BEFORE"])), due))
        assert want in out.long, (want, out)

        twtest.wait_for("the window after", lambda: all(
            r["EVALUATED"] == "1" for r in rows(h).values()), timeout=WINDOW + 10)
        evaluated = time.time()
        assert evaluated - seen <= 2 * WINDOW, \
            "the limit's change evaluated %.1f s after it, over two windows" % (evaluated - seen)
        _, limit = by_tunable(rows(h), "MemoryHigh")
        assert "AFTER" in limit, limit
        _, backlog = by_tunable(rows(h), "net.core.netdev_max_backlog")
        assert backlog["AFTER"] == "0", "no drop since the change: %r" % backlog
        _, vfs = by_tunable(rows(h), "vm.vfs_cache_pressure")
        assert "AFTER" not in vfs, vfs

        # Each check shows the changes of its own tunables, each at the
        # minute of the sample that saw it: the writes above may straddle
        # a sample, and that sample a minute's boundary.
        _, nr = by_tunable(rows(h), "queue/nr_requests")
        hhmm = lambda row: time.strftime("%H:%M", time.gmtime(int(row["TIME"])))
        out = pc.run("check_dblock", ["-w", "100000", "-c", "100000"], h.port, env=env)
        changes = [l for l in out.long if l.startswith("change: ")]
        assert changes == ["change: net.core.netdev_max_backlog 1000 -> 2000 at %s; cpu1 backlog "
                           "%s failures/min before, 0 failures/min after" % (
                               at, pc.hundredths(int(backlog["BEFORE"])))], out
        out = pc.run("check_disklatency", ["-w", "100000", "-c", "100000"], h.port, env=env)
        changes = [l for l in out.long if l.startswith("change: ")]
        assert len(changes) == 1 and changes[0].startswith(
            "change: sda queue/nr_requests 64 -> 32 at %s; sda r_await " % hhmm(nr)), out
        # The host's check shows the host's cache knob; --cgroup, its own
        # cgroup's limit alone, begun by the finding's id.
        out = pc.run("check_bufcache", ["-w", "0:", "-c", "0:"], h.port, env=env)
        changes = [l for l in out.long if l.startswith("change: ")]
        assert changes == ["change: vm.vfs_cache_pressure 100 -> 50 at %s; no figure "
                           "watches it" % hhmm(vfs)], out
        out = pc.run("check_bufcache", ["--cgroup", "nginx.service"], h.port, env=env)
        changes = [l for l in out.long if l.startswith("change: ")]
        assert len(changes) == 1 and changes[0].startswith(
            "change: %s %s MemoryHigh 64M -> 128M at %s; cgroup refaults " % (
                limit["FINDING_ID"], NGINX, hhmm(limit))), out
        out = pc.run("check_bufcache", ["--cgroup", "/user.slice/*"], h.port, env=env)
        assert not [l for l in out.long if l.startswith("change: ")], out

        # snmptrapd got each change when seen, and its evaluation after.
        # (snmpd's own coldStart is not ours, and the fixture's backlog
        # drops raise a finding, twNotifications.1, which is not a change.)
        changes_notes = (ARC + ".0.4", ARC + ".0.5")
        ours = lambda: [(t, b) for t, b in traps(h) if t in changes_notes]
        twtest.wait_for("eight notifications", lambda: len(ours()) >= 8)
        got = ours()
        assert len(got) == 8, got
        tun = oid("CHANGE_TUNABLE", None)
        kinds = [(t, next(v for k, v in b.items() if k.startswith(tun))) for t, b in got]
        for name in ("net.core.netdev_max_backlog", "vm.vfs_cache_pressure",
                     "queue/nr_requests", "MemoryHigh"):
            mine = [t for t, v in kinds if name in v]
            assert mine == [CHANGED, EVALUATED], (name, kinds)
        ev = [b for t, b in got if t == EVALUATED and any(
            "netdev_max_backlog" in v for v in b.values())][0]
        after = [v for k, v in ev.items() if k.startswith(oid("CHANGE_AFTER", None) + ".")]
        before = [v for k, v in ev.items() if k.startswith(oid("CHANGE_BEFORE", None) + ".")]
        assert after == ["Gauge32: 0"] and before == ["Gauge32: %s" % backlog["BEFORE"]], ev


if __name__ == "__main__":
    twtest.main(test)
