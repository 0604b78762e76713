#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""No host-wide knob for one user's sockets (issue 34, hole 4), on this
machine's kernel, in a network namespace of its own (unshare -n; rmem_max
there follows the host's).

1. The user nobody (65534) opens three UDP sockets on 127.0.0.1 that ask
   for SO_RCVBUF = net.core.rmem_max, the most a user may, and never reads
   them; the test floods them. check_dblock must say that only that user's
   sockets drop, as one finding about the user ("sockets of user 65534"),
   name the owner, and propose no host-wide sysctl: no net.core.rmem_max
   line for the sockets nor for the udp receive buffer pool, whose
   RcvbufErrors are all theirs; twFindingTable has the one finding,
   twFindingClass user, twFindingOwnerUid 65534.
2. Control: root's socket at rmem_max, flooded the same way, is the
   administrator's service: check_dblock names net.core.rmem_max for it,
   as before.
3. nobody's listener (backlog 1, never accepting) overflows: the listeners
   tunewatchd saw full were all nobody's (twDblockOwnerUid), and
   check_dblock says so and proposes no net.core.somaxconn.
4. Control: root's listener overflowing keeps the somaxconn advice.
Before (6900ab4) nobody's sockets got `sysctl -w net.core.rmem_max=` each,
doubled again after each apply, and nobody's listener somaxconn doubled. Skipped without root or unshare."""

import os
import pwd
import socket
import subprocess
import sys
import time

import plugin_common as pc
import twtest
from trapsink import rows

NOBODY = 65534
DATAGRAMS = 4000


def rmem_max():
    with open("/proc/sys/net/core/rmem_max") as fh:
        return int(fh.read())


def holder(n, fd):
    """n sockets asking for rmem_max, never read; their ports on fd."""
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rmem_max())
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    os.write(fd, (" ".join(str(s.getsockname()[1]) for s in socks) + "\n").encode())
    os.close(fd)
    time.sleep(120)


def spawn_holder(n, user=None):
    r, w = os.pipe()

    def drop():
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    p = subprocess.Popen(["python3", __file__, "holder", str(n), str(w)], pass_fds=[w],
                         preexec_fn=drop)
    os.close(w)
    with os.fdopen(r) as fh:
        ports = [int(x) for x in fh.readline().split()]
    return p, ports


def flood(ports):
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(DATAGRAMS // len(ports)):
        for p in ports:
            tx.sendto(b"x" * 1000, ("127.0.0.1", p))
    tx.close()


def listener(fd):
    """A listener with a backlog of 1 that never accepts; its port on fd."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    os.write(fd, ("%d\n" % s.getsockname()[1]).encode())
    os.close(fd)
    time.sleep(120)


def spawn_listener(user=None):
    r, w = os.pipe()

    def drop():
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    p = subprocess.Popen(["python3", __file__, "listener", str(w)], pass_fds=[w],
                         preexec_fn=drop)
    os.close(w)
    with os.fdopen(r) as fh:
        port = int(fh.readline())
    return p, port


CONNS = []


def overflow(port):
    """20 connections more than the queue takes."""
    for _ in range(20):
        c = socket.socket()
        c.setblocking(False)
        try:
            c.connect(("127.0.0.1", port))
        except OSError:
            pass
        CONNS.append(c)
    while len(CONNS) > 400:
        CONNS.pop(0).close()


def flooded_check(h, ports, want, poke=None):
    """check_dblock while the sockets keep dropping (or poke(ports) keeps
    the queue overflowing), until want(out)."""
    last = []

    def look():
        (poke or flood)(ports)
        h.sample_now()
        out = pc.run("check_dblock", ["-t", "20"], h.port)
        last[:] = [out]
        return out if want(out) else None
    try:
        return twtest.wait_for("check_dblock on the flooded sockets", look, timeout=60,
                               step=0.5)
    except AssertionError:
        print(repr(last[0]) if last else "no check ran")
        raise


def inside():
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    nobody = pwd.getpwnam("nobody")
    with twtest.Harness("kernel-user-sockets") as h:
        h.start_snmpd()
        h.start_agent(interval=60, window=600)
        p, ports = spawn_holder(3, nobody)
        try:
            out = flooded_check(h, ports, lambda o: any(
                l.startswith("sockets of user %d: " % NOBODY) for l in o.lines))
        finally:
            p.kill()
            p.wait(timeout=30)
        text = "\n".join(out.lines)
        print(text)
        assert "net.core.rmem_max would serve that user alone" in text, out
        assert not [l for l in out.lines if "sysctl -w net.core.rmem" in l], out
        assert not [l for l in out.lines if l.startswith("tune: net.core.rmem")], out
        assert [l for l in out.lines if l.startswith("no tunable: user %d's 3 sockets" % NOBODY)], \
            out
        table = [r for r in rows(h).values() if r.get("OWNER_UID") == str(NOBODY)]
        assert len(table) <= 1, table
        if table:
            assert table[0]["SUBJECT"] == "sockets of user %d" % NOBODY and \
                table[0]["CLASS"] == "3" and table[0]["TUNABLE"] == "", table

        # Root's socket: the administrator's service keeps the advice.
        p, ports = spawn_holder(1)
        try:
            out = flooded_check(h, ports, lambda o: any(
                l.startswith("tune: net.core.rmem_max ") for l in o.lines))
        finally:
            p.kill()
            p.wait(timeout=30)
        print("root's socket: %s" % [l for l in out.lines if l.startswith("tune: ")])

        # nobody's listener overflows: no host-wide somaxconn for it.
        p, port = spawn_listener(nobody)
        try:
            out = flooded_check(h, port, lambda o: any(
                "every listener seen full was user %d's" % NOBODY in l for l in o.lines),
                poke=overflow)
        finally:
            p.kill()
            p.wait(timeout=30)
        print("\n".join(l for l in out.lines if "listen" in l))
        assert not [l for l in out.lines if "somaxconn=" in l or
                    l.startswith("tune: net.core.somaxconn")], out
        # Root's listener: the administrator's service keeps somaxconn.
        p, port = spawn_listener()
        try:
            out = flooded_check(h, port, lambda o: any(
                l.startswith("tune: net.core.somaxconn ") for l in o.lines), poke=overflow)
        finally:
            p.kill()
            p.wait(timeout=30)
        print("root's listener: %s" % [l for l in out.lines if "somaxconn" in l][:1])


def test():
    if os.geteuid() != 0:
        raise twtest.Skip("needs root for a network namespace of its own and the user nobody")
    if not twtest.which("unshare") or not twtest.which("ip"):
        raise twtest.Skip("needs unshare and ip (Debian: util-linux, iproute2)")
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        raise twtest.Skip("no user nobody")
    r = subprocess.run([twtest.which("unshare"), "-n", sys.executable, __file__, "inside"],
                       timeout=300)
    assert r.returncode == 0, "the test in its namespace failed (exit %d)" % r.returncode


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "holder":
        holder(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "listener":
        listener(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "inside":
        twtest.main(inside)
    else:
        twtest.main(test)
