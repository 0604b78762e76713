#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""UDP receive-buffer drops of one socket whose application sets its own
SO_RCVBUF too small, below net.core.rmem_max: the knob is that setting,
the application's own, which no sysctl reaches and tunewatch cannot
apply. rmem_max would only let it ask for more, and rmem_default reaches
only sockets that set nothing; raising either changes every other socket
of the host and not this one.

So the check must say "no tunable", name SO_RCVBUF plainly, give no
apply: line but "none: ..." with why, and no finding may name a host-wide
sysctl. The operator does what the ticket says: the service raises its
SO_RCVBUF (SIGHUP here; its configuration elsewhere). Nothing of the host
changes, so twChangeTable gets no row; the drops must fall by 90 % or
more, the workload improve and the finding clear.

It needs no sysctl, so the whole stack runs in a network namespace of its
own: the service on its 127.0.0.1 asks for SO_RCVBUF SMALL (the kernel
doubles it) and a client sends it bursts of BURST datagrams of 1,000
bytes, five a second, read after each burst; after the fix it asks for
LARGE, under rmem_max.
"""

import signal
import socket
import time

import labcore
import labproblem
import twtest
from labjournal import read_file

META = {"name": "net-udp-sorcvbuf", "kind": "problem",
        "symptom": "UDP receive-buffer drops of one socket whose application sets its "
                   "SO_RCVBUF below net.core.rmem_max (its drops in /proc/net/udp)"}

SMALL = 8192
LARGE = 1 << 20
BURST = 400
DATAGRAM = 1000
BURSTS_PER_S = 5


def socket_drops(port, ns):
    """The drops column of the sockets bound to 127.0.0.1:port in ns."""
    key = "0100007F:%04X" % port
    return sum(int(f[12]) for f in (line.split() for line in
                                    read_file("/proc/net/udp", ns).splitlines()[1:])
               if f[1] == key)


class UdpOwnBuffer(labproblem.NoTunableProblem):
    symptom_token = "socket-rcvbuf"
    symptom_unit = "drops/s"
    knob = "SO_RCVBUF"
    host_pools = ("udp-rcvbuf",)
    host_sysctls = ("net.core.rmem_max", "net.core.rmem_default")
    better = "higher"
    figure_what = "the share of datagrams delivered"
    phase_s = 4.0

    def cost_line(self, old, new):
        return ("the socket may hold up to %s bytes of datagrams waiting to be read, not %s "
                "(memory taken only while they wait); no host setting changes" % (new, old))

    def judged(self, fig):
        """The share delivered: positive, where the share lost may be 0."""
        return 100.0 - fig["value"]

    def set_fixed(self, lab, workload, fixed):
        # SIGHUP: the service's SO_RCVBUF LARGE; SIGUSR1: SMALL again.
        workload.signal(signal.SIGHUP if fixed else signal.SIGUSR1)

    def fix_values(self):
        return "SO_RCVBUF %d" % SMALL, "SO_RCVBUF %d" % LARGE

    def __init__(self, script, port, ns):
        self.script = script
        self.port = port
        self.ns = ns

    def subject(self):
        return "udp 127.0.0.1:%d" % self.port

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "bursts", self.port),
                                ns=self.ns)

    def symptom_count(self, lab):
        return socket_drops(self.port, self.ns)

    def workload_figure(self, records):
        sent = sum(r["sent"] for r in records)
        got = sum(r["got"] for r in records)
        lost = 100.0 * (sent - got) / sent
        return labcore.figure(round(lost, 1), "% lost", "%s %% of %s datagrams lost, buffer %s" % (
            labcore.fmt(round(lost, 1)), labcore.fmt(sent), labcore.fmt(records[-1]["rcvbuf"])))

    def fix(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return ("the service set its own SO_RCVBUF %d -> %d (SIGHUP), as the ticket says; "
                "tunewatch applied nothing, and no sysctl changed" % (SMALL, LARGE))


def run(lab):
    rmem_max = int(lab.read_sysctl("net.core.rmem_max"))
    if rmem_max < LARGE:
        raise labcore.Skip("rmem_max %d is below the %d bytes the service asks for after the "
                           "fix" % (rmem_max, LARGE))
    ns = lab.netns()
    lab.result["setup"] = ("rmem_max %d (the host's); the service asks for SO_RCVBUF %d, bursts "
                           "of %d datagrams of %d bytes" % (rmem_max, SMALL, BURST, DATAGRAM))
    port = twtest.free_port()
    with labcore.Stack(lab, ns) as stack:
        labproblem.run_no_tunable(lab, stack, UdpOwnBuffer(__file__, port, ns))


# ---- the workload ---------------------------------------------------------


def bursts(port):
    port = int(port)
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL)
    rx.bind(("127.0.0.1", port))
    rx.setblocking(False)
    again = []
    signal.signal(signal.SIGHUP, lambda s, f: again.append(LARGE))
    signal.signal(signal.SIGUSR1, lambda s, f: again.append(SMALL))
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"x" * DATAGRAM
    while True:
        if again:
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, again[-1])
            again.clear()
        t0 = time.monotonic()
        for _ in range(BURST):
            tx.sendto(payload, ("127.0.0.1", port))
        got = 0
        try:
            while True:
                rx.recv(65536)
                got += 1
        except BlockingIOError:
            pass
        labcore.emit(sent=BURST, got=got, rcvbuf=rx.getsockopt(socket.SOL_SOCKET,
                                                               socket.SO_RCVBUF))
        time.sleep(max(0.0, t0 + 1.0 / BURSTS_PER_S - time.monotonic()))


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
