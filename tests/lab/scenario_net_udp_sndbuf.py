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
the symptom's, SndbufErrors per second in the namespace. What this and
scenario_net_udp_wmem_max.py share is labsndbuf.py.
"""

import socket

import labcore
import labproblem
import labsndbuf

META = {"name": "net-udp-sndbuf", "kind": "problem",
        "symptom": "UDP send-buffer errors of a sender that sets no SO_SNDBUF (Udp "
                   "SndbufErrors; net.core.wmem_default)"}

RATE = "8mbit"
BURST = 300
DATAGRAM = 1000
BURSTS_PER_S = 2


class UdpSndbuf(labsndbuf.SndbufProblem):
    symptom_token = "udp-sndbuf"
    tunable = "net.core.wmem_default"
    coupled = ("net.core.wmem_max",)
    where = "a network namespace of its own (the apply: line on the host: wmem_default is " \
        "read-only in a child namespace and follows the host's)"
    applied = ("run in the host's namespace (wmem_default is read-only in the child, which "
               "follows it); then the sender made its socket again (SIGHUP), as the advice "
               "says: a socket takes wmem_default when it is made")

    def cost_line(self, old, new):
        return ("a socket that sets no SO_SNDBUF may hold up to %s bytes of datagrams not yet "
                "sent, not %s (memory taken only while they wait), and a datagram may wait "
                "behind that much; a socket takes it when it is made: restart the sender" % (
                    new, old))


def run(lab):
    ns = lab.netns()
    labsndbuf.slow_loopback(ns, "rate", RATE, "burst", "16kb", "latency", "500ms")
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


def made_again(tx):
    """A socket takes wmem_default when it is made."""
    tx.close()
    return sender()


def bursts():
    labsndbuf.bursts(sender, made_again, BURST, DATAGRAM, BURSTS_PER_S)


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
