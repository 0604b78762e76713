#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""UDP receive-buffer drops of one socket whose application sets no
SO_RCVBUF: its buffer is what net.core.rmem_default gives a socket when it
is made.

rmem_default and rmem_max are read-only in a network namespace other than
the host's on this kernel (a child namespace follows the host's value), so
the change can only be made on the host, and the scenario runs there:
tunewatchd in the host's namespace, the traffic on 127.0.0.1. It only ever
raises rmem_default (the advice's value), journalled and restored.

The service reads a socket on 127.0.0.1 that sets no SO_RCVBUF; a client
sends it bursts of BURST datagrams of 1,000 bytes, twenty a second, which
it reads only after each burst (a service that stalls briefly). What the
buffer cannot hold is dropped (the socket's drops column of
/proc/net/udp, Udp RcvbufErrors). The workload's figure is the share of
datagrams lost. After the check's apply: line the service makes its
socket again (SIGHUP here, a restart elsewhere), as the advice says: a
socket takes rmem_default when it is made.

Why it failed the whole run of e8fc9b2 (ping-pong): in the two windows
after 425984 -> 851968 the host's udp receive buffer pool still counted
the drops of the socket the service had closed to take the new value, no
socket open now had dropped, and the pool's rule named rmem_max 4194304
-> 8388608 and rmem_default again (held back by the no-ratchet rule, so
with no value, which the ping-pong check then counted as turned back; it
counts such a hold apart now, labproof.kind). While a
change of rmem_default or rmem_max waits for its window after, such drops
now name no knob (finding/judge_socket.c, check_finding_socket's
test_pool_after_remade_socket). Whole proof of f91d89d, 18:29-18:43 UTC:
pass, the ping-pong windows clean, the pool's only finding "no tunable".
"""

import signal
import socket
import time

import labcore
import labproblem
import twtest

META = {"name": "net-udp-default", "kind": "problem",
        "symptom": "UDP receive-buffer drops of one socket that sets no SO_RCVBUF "
                   "(its drops in /proc/net/udp, Udp RcvbufErrors)"}

BURST = 300
DATAGRAM = 1000
BURSTS_PER_S = 20


def socket_drops(port):
    """The drops column of the sockets bound to 127.0.0.1:port."""
    total = 0
    with open("/proc/net/udp") as fh:
        for line in fh.read().splitlines()[1:]:
            f = line.split()
            if f[1] == "0100007F:%04X" % port:
                total += int(f[12])
    return total


class UdpDefault(labproblem.Problem):
    symptom_token = "socket-rcvbuf-default"
    tunable = "net.core.rmem_default"
    symptom_unit = "drops/s"
    better = "higher"
    figure_what = "the share of datagrams delivered"
    coupled = ("net.core.rmem_max",)
    phase_s = 4.0

    def __init__(self, script, port):
        self.script = script
        self.port = port

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "bursts", self.port))

    def symptom_count(self, lab):
        return socket_drops(self.port)

    def current_value(self, lab):
        return lab.read_sysctl("net.core.rmem_default")

    def workload_figure(self, records):
        sent = sum(r["sent"] for r in records)
        got = sum(r["got"] for r in records)
        lost = 100.0 * (sent - got) / sent
        return labcore.figure(round(lost, 1), "% lost", "%s %% of %s datagrams lost" % (
            labcore.fmt(round(lost, 1)), labcore.fmt(sent)))

    def cost_line(self, old, new):
        return ("a socket that sets no SO_RCVBUF may hold up to %s bytes of datagrams waiting "
                "to be read, not %s (memory taken only while they wait, for each such socket "
                "that fills); a socket takes it when it is made: restart the service" % (
                    new, old))

    def judged(self, fig):
        """The share delivered: positive, where the share lost may be 0."""
        return 100.0 - fig["value"]

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return "then the service made its socket again (SIGHUP), as the advice says: a socket " \
            "takes rmem_default when it is made"


def run(lab):
    rmem_default = lab.read_sysctl("net.core.rmem_default")
    rmem_max = lab.read_sysctl("net.core.rmem_max")
    if int(rmem_default) >= int(rmem_max):
        raise labcore.Skip("rmem_default %s is not below rmem_max %s here: a socket without "
                           "SO_RCVBUF is then at rmem_max, another rule" % (rmem_default,
                                                                           rmem_max))
    lab.result["setup"] = ("the host's rmem_default %s and rmem_max %s, bursts of %d datagrams "
                           "of %d bytes" % (rmem_default, rmem_max, BURST, DATAGRAM))
    port = twtest.free_port()
    with labcore.Stack(lab) as stack:
        labproblem.run_problem(lab, stack, UdpDefault(__file__, port))


# ---- the workload ---------------------------------------------------------


def bursts(port):
    port = int(port)
    state = {}

    def open_rx():
        if "rx" in state:
            state["rx"].close()
        rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        rx.bind(("127.0.0.1", port))
        rx.setblocking(False)
        state["rx"] = rx
    open_rx()
    reopen = []
    signal.signal(signal.SIGHUP, lambda s, f: reopen.append(1))
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"x" * DATAGRAM
    while True:
        if reopen:
            reopen.clear()
            open_rx()
        t0 = time.monotonic()
        for _ in range(BURST):
            tx.sendto(payload, ("127.0.0.1", port))
        got = 0
        try:
            while True:
                state["rx"].recv(65536)
                got += 1
        except BlockingIOError:
            pass
        labcore.emit(sent=BURST, got=got,
                     rcvbuf=state["rx"].getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF))
        time.sleep(max(0.0, t0 + 1.0 / BURSTS_PER_S - time.monotonic()))


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
