#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A local user's flood of findings must not blind the alerts (issue 34).

tunewatchd on a fixture root (tests/fixtures/agent, with the cgroup v2 tree
of tests/fixtures/collectors/cgroup.tar) behind a real snmpd whose trap sink
is a real snmptrapd, at its default hold-down (a finding raised at the
third sample in a row) and notification limit (60 a minute), sampled on
demand. The user nobody (65534) first floods: NSOCKETS UDP sockets of
theirs whose drops grow every sample (the uid column of /proc/net/udp),
and 30 cgroups of theirs (their directories chowned to them, as cgroup v1
and systemd delegate) at their limits and refaulting. Three samples later,
two problems start: a system service at its memory limit that refaults
(/system.slice/tw-db.service) and accept-queue overflows (TcpExt
ListenOverflows).

What must hold, for 1,000 and for 5,000 sockets:
- the user's sockets are one finding, "sockets of user 65534" (class
  user, twFindingOwnerUid 65534), saying how many sockets dropped; at most
  eight of them are twSocketDropTable rows;
- the user holds at most 16 rows of twFindingTable (the socket finding and
  their cgroups), the rest counted in twFindingOverflows;
- the service's finding (class service) and the listen queue's (class
  host) are raised at the third sample of their symptom, the usual
  hold-down, and snmptrapd receives twFindingRaised for each;
- check_dblock says the same of the user: one finding with the same id,
  no host-wide sysctl, for the sockets nor for the udp receive buffer pool
  whose RcvbufErrors were all theirs.
Before (6900ab4) the sockets were 255 findings of their own, the table
(256 rows) had no room, and the two problems were never raised."""

import os
import shutil
import tarfile

import plugin_common as pc
import twtest
from trapsink import FINDINGS, RAISED, TrapSink, rows, scalar
from twtest import as_dict

NOBODY = 65534
FIRST_PORT = 20000
USER_CGROUPS = 30
QUOTA = 16
DB = "/system.slice/tw-db.service"
DB_LIMIT = 64 << 20


def cgroup_root(h, root):
    """The fixture's cgroup v2 tree, the service and nobody's cgroups."""
    tmp = os.path.join(h.dir, "cgroup-tar")
    with tarfile.open(os.path.join(twtest.FIXTURES, "collectors", "cgroup.tar")) as tf:
        tf.extractall(tmp)
    shutil.copytree(os.path.join(tmp, "v2", "sys", "fs"), os.path.join(root, "sys", "fs"))
    pc.writable(root)
    cg = os.path.join(root, "sys", "fs", "cgroup")
    paths = [DB] + ["/twdelegated/c%02d" % i for i in range(USER_CGROUPS)]
    for path in paths:
        os.makedirs(cg + path)
        write_cgroup(root, path, 0)
    os.chown(cg + "/twdelegated", NOBODY, NOBODY)
    for path in paths[1:]:
        os.chown(cg + path, NOBODY, NOBODY)
    return paths


def write_cgroup(root, path, refaults):
    cg = os.path.join(root, "sys", "fs", "cgroup") + path
    limit = DB_LIMIT if path == DB else 16 << 20
    for name, text in (("memory.max", "%d\n" % limit), ("memory.current", "%d\n" % (limit - 4096)),
                       ("memory.stat", "file %d\nworkingset_refault_file %d\n" % (
                           limit // 2, refaults))):
        with open(os.path.join(cg, name), "w") as fh:
            fh.write(text)


def write_net(root, nsockets, drops, overflows):
    """nobody's sockets, each with `drops` drops, Udp InErrors moved by all
    of them, and TcpExt ListenOverflows and ListenDrops at `overflows`."""
    lines = ["   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
             "retrnsmt   uid  timeout inode ref pointer drops            "]
    for i in range(nsockets):
        lines.append("%5d: 0100007F:%04X 00000000:0000 07 00000000:00000000 00:00000000 "
                     "00000000 %5d %8d %d 2 %016x %-7d" % (
                         i, FIRST_PORT + i, NOBODY, 0, 400000 + i,
                         0xffff888000000000 + i * 64, drops + i % 7))
    with open(os.path.join(root, "proc", "net", "udp"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    for name, proto, counters in (("snmp", "Udp:", {"InErrors": 7 + drops * nsockets,
                                                     "RcvbufErrors": drops * nsockets}),
                                  ("netstat", "TcpExt:", {"ListenOverflows": overflows,
                                                          "ListenDrops": overflows})):
        path = os.path.join(root, "proc", "net", name)
        with open(path) as fh:
            text = fh.read().splitlines()
        out, header = [], None
        for line in text:
            f = line.split()
            if f and f[0] == proto and not f[1].isdigit():
                header = f
            elif f and f[0] == proto and header is not None:
                for k, v in counters.items():
                    f[header.index(k)] = str(v)
                line = " ".join(f)
            out.append(line)
        with open(path, "w") as fh:
            fh.write("\n".join(out) + "\n")


def step(h, root, paths, n, nsockets, problems_from):
    """Sample n: nobody's sockets and cgroups worse every sample, the
    service and the listen queue from sample problems_from on."""
    later = max(0, n - problems_from + 1)
    write_net(root, nsockets, 100 * n, 500 * later)
    for path in paths:
        write_cgroup(root, path, 0 if path == DB and later == 0 else 50000 * n)
    h.sample_now()


def flood(h, sink, nsockets):
    root = pc.writable(h.copy_fixture("agent"))
    paths = cgroup_root(h, root)
    write_net(root, nsockets, 0, 0)
    conf = os.path.join(h.dir, "flood-%d.conf" % nsockets)
    with open(conf, "w") as fh:
        fh.write("cgroupMax 64\ncgroupRefaultWarning 1\ncgroupRefaultCritical 1000000000\n")
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                  window=600, args=["-c", conf])
    received0 = len(sink.notifications(RAISED))
    for n in range(1, 4):		# the flood alone: raised at its third
        step(h, root, paths, n, nsockets, 99)
    assert rows(h), "the flood raised nothing"
    for n in range(4, 6):		# the problems' first two samples: not yet
        step(h, root, paths, n, nsockets, 4)
    table = rows(h).values()
    assert not [r for r in table if r.get("SUBJECT") in ("tcp listen queue",
                                                         "/sys/fs/cgroup" + DB)], table
    step(h, root, paths, 6, nsockets, 4)	# the third: raised now
    table = list(rows(h).values())
    v = as_dict(h.walk(FINDINGS))
    overflows = v[scalar("OVERFLOWS")].num

    # The two problems first: raised within the usual hold-down.
    db = [r for r in table if r.get("SUBJECT") == "/sys/fs/cgroup" + DB]
    listen = [r for r in table if r.get("SUBJECT") == "tcp listen queue"]
    assert len(db) == 1 and len(listen) == 1, (
        "the service's and the listen queue's findings were crowded out: %d rows, "
        "twFindingOverflows %d" % (len(table), overflows))
    socks = [r for r in table if r.get("SUBJECT") == "sockets of user %d" % NOBODY]
    assert len(socks) == 1, [r.get("SUBJECT") for r in table]
    assert socks[0]["CLASS"] == "3" and socks[0]["TUNABLE"] == "", socks[0]
    assert "user 65534's %s sockets dropped" % format(nsockets, ",") in socks[0]["EVIDENCE"], \
        socks[0]
    assert "net.core.rmem_max would serve that user alone" in socks[0]["EVIDENCE"], socks[0]
    assert not [r for r in table if r.get("SUBJECT", "").startswith("udp 127.0.0.1:")], table
    theirs = [r for r in table if r.get("OWNER_UID") == str(NOBODY)]
    assert 1 < len(theirs) <= QUOTA, len(theirs)
    assert overflows >= USER_CGROUPS + 1 - QUOTA, overflows
    assert db[0]["CLASS"] == "2" and db[0]["OWNER_UID"] == "0", db
    assert listen[0]["CLASS"] == "1" and "OWNER_UID" not in listen[0], listen
    want = {db[0]["ID"], listen[0]["ID"]}

    def notified():
        got = {x.get("ID") for x in sink.notifications(RAISED)[received0:]}
        return want <= got
    twtest.wait_for("twFindingRaised of the service and the listen queue", notified, timeout=30)
    sock_rows = [x for x in h.walk(twtest.oid("SOCKDROP_LOCAL_PORT", None))]
    assert len(sock_rows) == 8, len(sock_rows)

    out = pc.run("check_dblock", ["-t", "20"], h.port)
    tickets = [l for l in out.lines if l.startswith("  finding: ")]
    assert "  finding: %s" % socks[0]["ID"] in tickets, out
    # Only nobody's sockets dropped: no host-wide knob for the pool either.
    assert not [l for l in out.lines if "sysctl -w net.core.rmem" in l or
                l.startswith("tune: net.core.rmem")], out
    assert [l for l in out.lines if l.startswith("no tunable: ") and "all on the %s sockets of "
            "user 65534" % format(nsockets, ",") in l], out
    print("%d sockets of nobody: %d of their findings in twFindingTable, twFindingOverflows "
          "%d; the service and the listen queue raised at the third sample and notified; "
          "%d rows in all" % (nsockets, len(theirs), overflows, len(table)))
    h.stop(h.agent)
    shutil.rmtree(root)


def test():
    if os.geteuid() != 0:
        raise twtest.Skip("needs root to give the fixture's cgroups to nobody (chown)")
    with twtest.Harness("agent-flood-users") as h:
        sink = TrapSink(h)
        sink.snmptt = None
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        for nsockets in (1000, 5000):
            flood(h, sink, nsockets)


if __name__ == "__main__":
    twtest.main(test)
