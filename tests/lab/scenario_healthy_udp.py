#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: a UDP burst that its receiver keeps up with.

In a network namespace of the lab's own (the receiver, root, sets a 16 MiB
receive buffer with SO_RCVBUFFORCE, as an application that expects bursts
asks for one: this kernel does not let a namespace's rmem_max be raised, and
this shared machine's two cores can keep it from running for a fraction of a
second), a sender sends bursts of 1,000 datagrams of 1,000 bytes, as fast as
it can, every 100 ms for 20 s, to a receiver on 127.0.0.1 that reads them in
a loop: 200,000 datagrams, 10 MB a second. The receiver keeps up (the
kernel's RcvbufErrors and InErrors stay at 0, and it gets every datagram:
the scenario checks it, else the workload was not the healthy one).
check_bufcache, check_dblock and check_disklatency must stay OK at their
defaults while it runs and a window after (a softirq that runs out of budget
with packets left, time_squeeze, loses none of them), and tunewatchd, in the
same namespace, must raise no finding.
"""

import socket
import threading
import time

import labcache
import labcore

META = {"name": "healthy-udp", "kind": "healthy",
        "symptom": "a UDP burst its receiver keeps up with"}

BURSTS = 200
PER_BURST = 1000
SIZE = 1000
PERIOD_S = 0.1


def run(lab):
    ns = lab.netns()
    lab.result["where"] = "network namespace %s: the traffic, snmpd and tunewatchd" % ns
    lab.result["setup"] = "the receiver's buffer 16 MiB (SO_RCVBUFFORCE)"
    with labcore.Stack(lab, ns=ns) as stack:
        before = labcore.netstat(ns, "/proc/net/snmp")["Udp"]

        def burst():
            r = stack.run(labcore.workload_argv(__file__, "udp"), capture_output=True,
                          text=True, timeout=120)
            assert r.returncode == 0, "the workload failed: %s" % r.stderr
            lab.result.note(r.stdout.strip())

        labcache.run_healthy(lab, stack, burst, "%d bursts of %d datagrams of %d bytes every "
                             "%d ms, on 127.0.0.1" % (BURSTS, PER_BURST, SIZE,
                                                      PERIOD_S * 1000))
        after = labcore.netstat(ns, "/proc/net/snmp")["Udp"]
        lost = {k: after[k] - before[k] for k in ("RcvbufErrors", "InErrors")}
        lab.result.note("Udp RcvbufErrors +%(RcvbufErrors)d, InErrors +%(InErrors)d" % lost)
        assert not any(lost.values()), "the receiver did not keep up: %r" % lost


def udp():
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)	# SO_RCVBUFFORCE
    rx.bind(("127.0.0.1", 0))
    rx.settimeout(2.0)
    got = [0]

    def receive():
        try:
            while True:
                rx.recv(65536)
                got[0] += 1
        except socket.timeout:
            pass
    t = threading.Thread(target=receive)
    t.start()
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"u" * SIZE
    due = time.monotonic()
    for _ in range(BURSTS):
        for _ in range(PER_BURST):
            tx.sendto(payload, rx.getsockname())
        due += PERIOD_S
        time.sleep(max(0.0, due - time.monotonic()))
    t.join()
    sent = BURSTS * PER_BURST
    print("sent %d datagrams, received %d" % (sent, got[0]))
    assert got[0] == sent, "received %d of %d" % (got[0], sent)


if __name__ == "__main__":
    labcore.main(META, run, {"udp": udp})
