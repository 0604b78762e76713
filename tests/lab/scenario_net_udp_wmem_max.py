#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""UDP send-buffer errors of a sender that asks SO_SNDBUF for more than
net.core.wmem_max allows: its buffer is cut to wmem_max (the kernel then
doubles it), so only a larger wmem_max, and the application asking
again, grow it. The sibling of scenario_net_udp_sndbuf.py (a sender that
sets no SO_SNDBUF: wmem_default) and of scenario_net_udp_max.py (the
receiver's rmem_max).

As in scenario_net_udp_sndbuf.py (what the two share is labsndbuf.py)
the lab's namespace gives its loopback a token-bucket qdisc (tc tbf, RATE,
with a queue LIMIT larger than any buffer swept, so that the qdisc never
drops: a drop there is ENOBUFS, which the kernel counts in SndbufErrors
too but the sender sees as sent), so that a burst waits in the device's
queue, charged to the sender's buffer. A non-blocking sender whose buffer is full gets EAGAIN, counted in
Udp SndbufErrors. The sender asks for SO_SNDBUF ASK (16 MiB); with the
host's wmem_max of 4 MiB it gets 8 MiB. Bursts of BURST datagrams of
8,000 bytes, one a second, average a third of the rate. Measured here
before the scenario was written (SO_SNDBUFFORCE, load 22 on 2 CPUs): a
buffer of 8 MiB sent 65 % of them, 16 MiB and 32 MiB all.

SndbufErrors is counted in the sender's namespace, so the whole stack runs
in the lab's namespace. wmem_max there is read-only and follows the
host's (a socket's SO_SNDBUF is capped by the host's), so the check's
apply: line is run in the host's namespace, exactly as printed, journalled
and restored: the documented equivalent. After each change the sender
sets SO_SNDBUF again (SIGHUP here; a restart or a reload elsewhere), as
the advice says: "wmem_max only lets a socket that sets SO_SNDBUF ask for
more".

The scenario starts from the host's wmem_max (4 MiB here, not Debian's
stock 212,992): lowering a host-wide cap for ten minutes would cut the
buffers of every other sender on a shared machine. It only ever raises it.

The workload's figure is the share of datagrams that could not be sent;
the symptom's, SndbufErrors per second in the namespace.
"""

import socket

import labcore
import labproblem
import labsndbuf

META = {"name": "net-udp-wmem-max", "kind": "problem",
        "symptom": "UDP send-buffer errors of a sender at net.core.wmem_max (Udp "
                   "SndbufErrors; its SO_SNDBUF cut to wmem_max)"}

RATE = "200mbit"
LIMIT = "256mb"
ASK = 16 << 20
BURST = 1000
DATAGRAM = 8000
BURSTS_PER_S = 1


class UdpWmemMax(labsndbuf.SndbufProblem):
    symptom_token = "udp-sndbuf"
    tunable = "net.core.wmem_max"
    coupled = ("net.core.wmem_default",)
    where = "a network namespace of its own (the apply: line on the host: wmem_max is " \
        "read-only in a child namespace and follows the host's)"
    applied = ("run in the host's namespace (wmem_max is read-only in the child, which "
               "follows it); then the sender set its SO_SNDBUF again (SIGHUP), as the advice "
               "says")

    def cost_line(self, old, new):
        return ("a socket may be given up to %s bytes of send buffer by SO_SNDBUF (the kernel "
                "counts twice that), not %s: memory taken only while datagrams wait, for "
                "sockets that ask, and a datagram may wait behind that much; the sender must "
                "set SO_SNDBUF again" % (new, old))


def run(lab):
    labcore.need("tc")
    wmem_max = int(lab.read_sysctl("net.core.wmem_max"))
    if wmem_max * 2 > ASK:
        raise labcore.Skip("wmem_max %d here already lets a socket have the %d bytes the "
                           "sender asks for" % (wmem_max, ASK))
    ns = lab.netns()
    labsndbuf.slow_loopback(ns, "rate", RATE, "burst", "256kb", "limit", LIMIT)
    lab.result["setup"] = ("the host's wmem_max %d; the sender asks for SO_SNDBUF %d; the lab's "
                           "loopback at %s (tc tbf, queue %s), bursts of %d datagrams of %d "
                           "bytes, %d a second" % (wmem_max, ASK, RATE, LIMIT, BURST, DATAGRAM,
                                                   BURSTS_PER_S))
    with labcore.Stack(lab, ns) as stack:
        labproblem.run_problem(lab, stack, UdpWmemMax(__file__, ns))


# ---- the workload, run inside the namespace -------------------------------


def asked_again(tx):
    """SO_SNDBUF asked for again: capped by wmem_max as it is now."""
    tx.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, ASK)
    return tx


def sender():
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx.setblocking(False)
    return asked_again(tx)


def bursts():
    labsndbuf.bursts(sender, asked_again, BURST, DATAGRAM, BURSTS_PER_S, rcvbuf=ASK)


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
