#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""UDP receive-buffer drops of one socket whose application asks for more
than net.core.rmem_max allows: its SO_RCVBUF is cut to rmem_max (the
kernel then doubles it), so only a larger rmem_max, and the application
asking again, grow it.

rmem_max is read-only in a child network namespace on this kernel, so the
scenario runs on the host: tunewatchd in the host's namespace, the traffic
on 127.0.0.1. It only ever raises rmem_max (the advice's value),
journalled and restored.

The service asks for SO_RCVBUF ASK (16 MiB) on a socket on 127.0.0.1;
with the host's rmem_max of 4 MiB it gets 8 MiB. A client sends it bursts
of BURST datagrams of 1,000 bytes, five a second, which it reads after
each burst. After the check's apply: line the service sets SO_RCVBUF
again (SIGHUP here; a restart or a reload elsewhere), as the advice says:
"raise the application's SO_RCVBUF with it".
"""

import signal
import socket
import time

import labcore
import labproblem
import twtest
from scenario_net_udp_default import socket_drops

META = {"name": "net-udp-max", "kind": "problem",
        "symptom": "UDP receive-buffer drops of one socket at net.core.rmem_max "
                   "(its drops in /proc/net/udp, Udp RcvbufErrors)"}

ASK = 16 << 20
BURST = 5000
DATAGRAM = 1000
BURSTS_PER_S = 5


class UdpMax(labproblem.Problem):
    symptom_token = "socket-rcvbuf"
    tunable = "net.core.rmem_max"
    symptom_unit = "drops/s"
    better = "higher"
    figure_what = "the share of datagrams delivered"
    coupled = ("net.core.rmem_default",)
    phase_s = 4.0

    def __init__(self, script, port):
        self.script = script
        self.port = port

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "bursts", self.port))

    def symptom_count(self, lab):
        return socket_drops(self.port)

    def current_value(self, lab):
        return lab.read_sysctl("net.core.rmem_max")

    def workload_figure(self, records):
        sent = sum(r["sent"] for r in records)
        got = sum(r["got"] for r in records)
        lost = 100.0 * (sent - got) / sent
        return labcore.figure(round(lost, 1), "% lost", "%s %% of %s datagrams lost, buffer %s" % (
            labcore.fmt(round(lost, 1)), labcore.fmt(sent), labcore.fmt(records[-1]["rcvbuf"])))

    def cost_line(self, old, new):
        return ("a socket may be given up to %s bytes of receive buffer by SO_RCVBUF (the "
                "kernel counts twice that), not %s: memory taken only while datagrams wait, "
                "for sockets that ask; the service must set SO_RCVBUF again" % (new, old))

    def judged(self, fig):
        """The share delivered: positive, where the share lost may be 0."""
        return 100.0 - fig["value"]

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return "then the service set its SO_RCVBUF again (SIGHUP), as the advice says"


def run(lab):
    rmem_max = int(lab.read_sysctl("net.core.rmem_max"))
    if rmem_max * 2 > ASK:
        raise labcore.Skip("rmem_max %d here already lets a socket have the %d bytes the "
                           "service asks for" % (rmem_max, ASK))
    lab.result["setup"] = ("the host's rmem_max %d; the service asks for SO_RCVBUF %d, bursts of "
                           "%d datagrams of %d bytes" % (rmem_max, ASK, BURST, DATAGRAM))
    port = twtest.free_port()
    with labcore.Stack(lab) as stack:
        labproblem.run_problem(lab, stack, UdpMax(__file__, port))


# ---- the workload ---------------------------------------------------------


def bursts(port):
    port = int(port)
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, ASK)
    rx.bind(("127.0.0.1", port))
    rx.setblocking(False)
    again = []
    signal.signal(signal.SIGHUP, lambda s, f: again.append(1))
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"x" * DATAGRAM
    while True:
        if again:
            again.clear()
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, ASK)
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
