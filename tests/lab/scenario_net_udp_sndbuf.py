#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""UDP send-buffer errors: a sender that sets no SO_SNDBUF, whose bursts
wait in a slow device's queue longer than its buffer (net.core.wmem_default)
lets it hold them.

A datagram is charged to its sender's buffer until the device takes it
off its queue. The lab's namespace gives its loopback a token-bucket qdisc
(tc tbf, RATE), so a burst waits there, as it would on a slow uplink. A
non-blocking sender whose buffer is full gets EAGAIN, and the kernel
counts it in Udp SndbufErrors (udp_sendmsg: ENOBUFS, or the socket marked
SOCK_NOSPACE). The bursts (BURST datagrams of 1,000 bytes, two a second)
average under the rate: a buffer that holds a whole burst loses nothing.
Measured here before the scenario was written: 212,992 bytes sent 36 % of
them, 425,984 67 %, 851,968 all.

SndbufErrors is counted in the sender's namespace, so the whole stack runs
in the lab's namespace. wmem_default there is read-only and follows the
host's (a write to the host's shows at once in the child's), so the
check's apply: line is run in the host's namespace, exactly as printed,
journalled and restored: the documented equivalent. A socket takes
wmem_default when it is made, so after each change the sender makes its
socket again (SIGHUP here; a restart elsewhere), as the advice says.

The workload's figure is the share of datagrams that could not be sent;
the symptom's, SndbufErrors per second in the namespace.
"""

import signal
import socket
import subprocess
import time

import labcore
import labproblem
from labjournal import ns_argv

META = {"name": "net-udp-sndbuf", "kind": "problem",
        "symptom": "UDP send-buffer errors of a sender that sets no SO_SNDBUF (Udp "
                   "SndbufErrors; net.core.wmem_default)"}

RATE = "8mbit"
BURST = 300
DATAGRAM = 1000
BURSTS_PER_S = 2


class UdpSndbuf(labproblem.Problem):
    symptom_token = "udp-sndbuf"
    tunable = "net.core.wmem_default"
    symptom_unit = "errors/s"
    better = "higher"
    figure_what = "the share of datagrams sent"
    coupled = ("net.core.wmem_max",)
    phase_s = 4.0
    apply_where = labcore.HOST
    where = "a network namespace of its own (the apply: line on the host: wmem_default is " \
        "read-only in a child namespace and follows the host's)"

    def __init__(self, script, ns):
        self.script = script
        self.ns = ns

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "bursts"), ns=self.ns)

    def symptom_count(self, lab):
        return labcore.netstat(self.ns, "/proc/net/snmp")["Udp"]["SndbufErrors"]

    def current_value(self, lab):
        return lab.read_sysctl("net.core.wmem_default", self.ns)

    def workload_figure(self, records):
        tried = sum(r["tried"] for r in records)
        sent = sum(r["sent"] for r in records)
        lost = 100.0 * (tried - sent) / tried
        return labcore.figure(round(lost, 1), "% not sent", "%s %% of %s datagrams not sent, "
                              "buffer %s" % (labcore.fmt(round(lost, 1)), labcore.fmt(tried),
                                             labcore.fmt(records[-1]["sndbuf"])))

    def cost_line(self, old, new):
        return ("a socket that sets no SO_SNDBUF may hold up to %s bytes of datagrams not yet "
                "sent, not %s (memory taken only while they wait), and a datagram may wait "
                "behind that much; a socket takes it when it is made: restart the sender" % (
                    new, old))

    def judged(self, fig):
        """The share delivered: positive, where the share lost may be 0."""
        return 100.0 - fig["value"]

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return ("run in the host's namespace (wmem_default is read-only in the child, which "
                "follows it); then the sender made its socket again (SIGHUP), as the advice "
                "says: a socket takes wmem_default when it is made")


def run(lab):
    labcore.need("tc")
    ns = lab.netns()
    # Only the lab's own loopback is slowed: it goes with the namespace.
    r = subprocess.run(ns_argv(ns, ["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate",
                                    RATE, "burst", "16kb", "latency", "500ms"]),
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise labcore.Skip("tc tbf is not available here: %s" % r.stderr.strip())
    host = lab.read_sysctl("net.core.wmem_default")
    lab.result["setup"] = ("the host's wmem_default %s; the lab's loopback at %s (tc tbf), bursts "
                           "of %d datagrams of %d bytes, %d a second" % (
                               host, RATE, BURST, DATAGRAM, BURSTS_PER_S))
    with labcore.Stack(lab, ns) as stack:
        labproblem.run_problem(lab, stack, UdpSndbuf(__file__, ns))


# ---- the workload, run inside the namespace -------------------------------


def sender():
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx.setblocking(False)
    return tx


def bursts():
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    rx.bind(("127.0.0.1", 0))
    rx.setblocking(False)
    addr = rx.getsockname()
    again = []
    signal.signal(signal.SIGHUP, lambda s, f: again.append(1))
    tx = sender()
    payload = b"x" * DATAGRAM
    while True:
        if again:
            again.clear()
            tx.close()
            tx = sender()
        t0 = time.monotonic()
        sent = 0
        for _ in range(BURST):
            try:
                tx.sendto(payload, addr)
                sent += 1
            except BlockingIOError:
                pass
        while time.monotonic() < t0 + 1.0 / BURSTS_PER_S:
            try:
                while True:
                    rx.recv(65536)
            except BlockingIOError:
                time.sleep(0.005)
        labcore.emit(tried=BURST, sent=sent,
                     sndbuf=tx.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
