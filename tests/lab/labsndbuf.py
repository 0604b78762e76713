# SPDX-License-Identifier: ISC
"""What the lab's UDP send-buffer scenarios share (scenario_net_udp_sndbuf.py,
a sender that sets no SO_SNDBUF: wmem_default; scenario_net_udp_wmem_max.py,
one whose SO_SNDBUF is cut to wmem_max): the lab's loopback slowed by a
token-bucket qdisc so that bursts wait in its queue, charged to the
sender's buffer; a non-blocking sender of bursts, counted in Udp
SndbufErrors of the namespace; and the problem's figures, the share of
datagrams not sent. Each scenario keeps its knob, its sizes and what its
sender does when told (SIGHUP) that the knob changed.

SndbufErrors is counted in the sender's namespace, so the whole stack runs
in the lab's namespace; the knobs there are read-only and follow the
host's, so the check's apply: line is run in the host's namespace.
"""

import signal
import socket
import subprocess
import time

import labcore
import labproblem
from labjournal import ns_argv


class SndbufProblem(labproblem.Problem):
    """A sender in namespace ns, run as script's "bursts" workload; a
    scenario names its symptom_token, tunable, coupled knobs, where,
    cost_line and the words after_apply returns (applied)."""
    symptom_unit = "errors/s"
    better = "higher"
    figure_what = "the share of datagrams sent"
    phase_s = 4.0
    apply_where = labcore.HOST
    applied = ""

    def __init__(self, script, ns):
        self.script = script
        self.ns = ns

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "bursts"), ns=self.ns)

    def symptom_count(self, lab):
        return labcore.netstat(self.ns, "/proc/net/snmp")["Udp"]["SndbufErrors"]

    def current_value(self, lab):
        return lab.read_sysctl(self.tunable, self.ns)

    def workload_figure(self, records):
        tried = sum(r["tried"] for r in records)
        sent = sum(r["sent"] for r in records)
        lost = 100.0 * (tried - sent) / tried
        return labcore.figure(round(lost, 1), "% not sent", "%s %% of %s datagrams not sent, "
                              "buffer %s" % (labcore.fmt(round(lost, 1)), labcore.fmt(tried),
                                             labcore.fmt(records[-1]["sndbuf"])))

    def judged(self, fig):
        """The share sent: positive, where the share not sent may be 0."""
        return 100.0 - fig["value"]

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return self.applied


def slow_loopback(ns, *tbf):
    """The namespace's loopback behind tc tbf with the arguments tbf ("rate",
    ...); only the lab's own, which goes with the namespace. Skips where tc
    or tbf is missing."""
    labcore.need("tc")
    r = subprocess.run(ns_argv(ns, ["tc", "qdisc", "add", "dev", "lo", "root", "tbf"] +
                               list(tbf)), capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise labcore.Skip("tc tbf is not available here: %s" % r.stderr.strip())


def bursts(sender, again, burst, datagram, per_s, rcvbuf=16 << 20):
    """The workload, run inside the namespace: per_s bursts a second of
    burst datagrams of datagram bytes from the non-blocking socket sender()
    makes to a receiver on 127.0.0.1 that drains them between bursts; after
    a SIGHUP, again(tx) gives the socket to send from. One record a burst:
    tried, sent and the sender's SO_SNDBUF."""
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    rx.bind(("127.0.0.1", 0))
    rx.setblocking(False)
    addr = rx.getsockname()
    told = []
    signal.signal(signal.SIGHUP, lambda s, f: told.append(1))
    tx = sender()
    payload = b"x" * datagram
    while True:
        if told:
            told.clear()
            tx = again(tx)
        t0 = time.monotonic()
        sent = 0
        for _ in range(burst):
            try:
                tx.sendto(payload, addr)
                sent += 1
            except BlockingIOError:
                pass
        while time.monotonic() < t0 + 1.0 / per_s:
            try:
                while True:
                    rx.recv(65536)
            except BlockingIOError:
                time.sleep(0.005)
        labcore.emit(tried=burst, sent=sent,
                     sndbuf=tx.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))
