#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A busy syslog-like receiver is not short of UDP memory (issue 34, hole 3).

In a network namespace of its own (unshare -n, loopback up; the Udp
counters and socket files are the namespace's, udp_mem is the host's):
20 UDP sockets with small buffers (SO_RCVBUF 8192) on 127.0.0.1, read by
one receiver that cannot keep up, flooded by a sender for FLOOD_S seconds.
The kernel counts every drop in the sockets' drops, in Udp RcvbufErrors and
in InErrors; UDP memory in use stays far from net.ipv4.udp_mem. tunewatchd
(interval 1 s, window 4 s) samples the namespace behind a real snmpd.

What must hold: check_dblock, run every second of the flood, says the udp
memory pool failed 0 times (its udp_memory perfdata) and never names
net.ipv4.udp_mem; twFindingTable has no finding about udp memory. Before
(6900ab4) the sockets' drops read at one moment were compared with
InErrors read at another, and the jitter of the flood summed into "udp
memory: WARNING, 60 failures" with a sysctl -w net.ipv4.udp_mem line.

udp_mem is global, so a lab that shrinks it (scenario_net_udp_mem.py)
would make these sockets drop for memory too: the test holds the lab's
lock (/run/lock/tw-lab.lock) while it runs, waiting up to LOCK_WAIT_S for
it. Skipped without root or unshare."""

import fcntl
import os
import socket
import subprocess
import sys
import time

import plugin_common as pc
import twtest
from trapsink import rows

SOCKETS = 20
FLOOD_S = 16
LOCK = os.environ.get("TW_LAB_LOCK", "/run/lock/tw-lab.lock")
LOCK_WAIT_S = 600


def udp_counters():
    with open("/proc/net/snmp") as fh:
        lines = [l.split() for l in fh.read().splitlines() if l.startswith("Udp:")]
    return dict(zip(lines[0][1:], (int(x) for x in lines[1][1:])))


def udp_mem_in_use():
    with open("/proc/net/sockstat") as fh:
        for line in fh:
            f = line.split()
            if f[0] == "UDP:":
                return int(f[f.index("mem") + 1])
    return 0


def receiver(ports_fd):
    """20 sockets, read one datagram at a time with a pause: busy, and
    never quite keeping up."""
    socks = []
    for _ in range(SOCKETS):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
        s.bind(("127.0.0.1", 0))
        s.setblocking(False)
        socks.append(s)
    os.write(ports_fd, (" ".join(str(s.getsockname()[1]) for s in socks) + "\n").encode())
    os.close(ports_fd)
    end = time.monotonic() + FLOOD_S + 30
    while time.monotonic() < end:
        for s in socks:
            try:
                s.recv(2048)
            except BlockingIOError:
                pass
        time.sleep(0.001)


def sender(ports):
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"<13>Dec  7 10:14:00 web1 app: " + b"x" * 200
    end = time.monotonic() + FLOOD_S
    while time.monotonic() < end:
        for p in ports:
            tx.sendto(payload, ("127.0.0.1", p))


def spawn(role, args, fds=()):
    return subprocess.Popen([sys.executable, __file__, role] + [str(a) for a in args],
                            pass_fds=fds)


def udp_memory_failures(out):
    """The udp memory pool's failures in the window, as check_dblock's
    perfdata says them."""
    p = out.perf_map().get("udp_memory")
    assert p is not None, out
    return float(p.value)


def inside(limit):
    """The test in its namespace; limit: udp_mem's first value, which only
    the host's namespace shows."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    with twtest.Harness("kernel-syslog") as h:
        h.start_snmpd()
        h.start_agent(interval=1, window=4)
        r, w = os.pipe()
        rx = spawn("receiver", [w], [w])
        os.close(w)
        ports = [int(x) for x in os.fdopen(r).readline().split()]
        assert len(ports) == SOCKETS, ports
        c0, t0 = udp_counters(), time.monotonic()
        tx = spawn("sender", ports)
        failures, mem, checks = [], 0, 0
        try:
            while time.monotonic() - t0 < FLOOD_S - 1:
                time.sleep(1)
                mem = max(mem, udp_mem_in_use())
                if time.monotonic() - t0 < 5:
                    continue	# the window fills
                out = pc.run("check_dblock", ["-t", "20"], h.port)
                checks += 1
                failures.append(udp_memory_failures(out))
                assert "net.ipv4.udp_mem" not in out.stdout, out
            findings = rows(h)
        finally:
            tx.kill()
            rx.kill()
            tx.wait(timeout=30)
            rx.wait(timeout=30)
        c1 = udp_counters()
    inerr, rcvbuf, memerr = (c1[k] - c0[k] for k in ("InErrors", "RcvbufErrors", "MemErrors"))
    print("%d sockets flooded %d s: Udp InErrors +%d, RcvbufErrors +%d, MemErrors +%d; UDP "
          "memory in use at most %d of udp_mem's %d pages; %d checks, udp memory failures %r" % (
              SOCKETS, FLOOD_S, inerr, rcvbuf, memerr, mem, limit, checks, failures))
    assert rcvbuf > 10000, "the flood made too few drops to test anything: %d" % rcvbuf
    assert mem * 10 < limit, "UDP memory is not far from its limit: %d of %d" % (mem, limit)
    assert checks >= 5, checks
    assert max(failures) == 0, "udp memory failures while the kernel counted every drop: %r" % (
        failures,)
    mine = [f for f in findings.values() if f.get("SUBJECT") == "udp memory" or
            "udp_mem" in f.get("TUNABLE", "")]
    assert not mine, mine


def test():
    if os.geteuid() != 0:
        raise twtest.Skip("needs root for a network namespace of its own")
    if not twtest.which("unshare") or not twtest.which("ip"):
        raise twtest.Skip("needs unshare and ip (Debian: util-linux, iproute2)")
    with open(LOCK, "a") as lock:
        t0 = time.monotonic()
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() - t0 > LOCK_WAIT_S:
                    raise twtest.Skip("a lab held %s for %d s: udp_mem may not be the host's"
                                      % (LOCK, LOCK_WAIT_S))
                time.sleep(2)
        with open("/proc/sys/net/ipv4/udp_mem") as fh:
            limit = fh.read().split()[0]
        r = subprocess.run([twtest.which("unshare"), "-n", sys.executable, __file__, "inside",
                            limit], timeout=300)
    assert r.returncode == 0, "the test in its namespace failed (exit %d)" % r.returncode


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "receiver":
        receiver(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "sender":
        sender([int(x) for x in sys.argv[2:]])
    elif len(sys.argv) > 1 and sys.argv[1] == "inside":
        twtest.main(lambda: inside(int(sys.argv[2])))
    else:
        twtest.main(test)
