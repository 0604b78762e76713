#!/usr/bin/env python3
"""TCP memory pressure: connections whose buffers TCP's global memory limit
(net.ipv4.tcp_mem, in pages) cannot hold.

tcp_mem is global on this kernel (a child network namespace has no such
file), and TcpExt TCPMemoryPressures is counted in the namespace of the
socket that entered pressure, so tunewatchd and the workload both run in
the host's namespace, the traffic on 127.0.0.1. The scenario sets tcp_mem
to SMALL on the host, journalled and restored exactly; while it is set,
every TCP socket of the host shares the smaller limit, so it is held for
as short a time as the loop allows.

The workload: CONNECTIONS connections on 127.0.0.1, each with a sender
writing as fast as it can for ON_S seconds, then resting OFF_S (a
service with bursts of work), and a receiver that reads everything
queued every 100 ms (a consumer that works in batches). The rests let
TCP leave memory pressure, so that each burst enters it again: the
kernel counts entries (TCPMemoryPressures), not time, and a host that
stays in pressure for a whole window shows none in it (see the note in
LAB.md). Between batches the data
waits in the sockets' buffers; when TCP runs out of memory it shrinks
them and prunes receive queues, and the senders wait. The workload's
figure is what the receivers got per second (MB/s, over a phase), with
the share of the time TCP was in memory pressure (/proc/net/protocols,
looked at every 20 ms); the symptom's, entries into memory pressure
(TCPMemoryPressures) per second.
"""

import socket
import threading
import time

import labcore
import labproblem

META = {"name": "net-tcp-mem", "kind": "problem",
        "symptom": "TCP memory pressure (TcpExt TCPMemoryPressures; net.ipv4.tcp_mem)"}

# Small enough that the bursts press on it, large enough that a few
# doublings reach what they hold with ample memory (here, with bursts
# from empty buffers, past 24,576 pages).
SMALL = "3072 6144 12288"
CONNECTIONS = 8
ON_S = 2.0
OFF_S = 1.0
BATCH_S = 0.1
REPORT_S = 0.5


class TcpMem(labproblem.Problem):
    symptom_token = "tcp-mem"
    tunable = "net.ipv4.tcp_mem"
    symptom_unit = "pressure entries/s"
    better = "higher"
    # Entries into pressure are few (TCP stays in it while it lasts).
    measure_s = 8.0
    # The receive queues TCP prunes under pressure are tcp_mem's; a larger
    # tcp_rmem would ask for more of what ran out.
    wrong = (("tcp-prune", "net.ipv4.tcp_rmem"),)

    def __init__(self, script):
        self.script = script

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "batches"))

    def symptom_count(self, lab):
        return labcore.netstat()["TcpExt"]["TCPMemoryPressures"]

    def current_value(self, lab):
        return lab.read_sysctl("net.ipv4.tcp_mem")

    def workload_figure(self, records):
        got = sum(r["bytes"] for r in records)
        secs = sum(r["secs"] for r in records)
        rate = got / secs / 1e6
        pressed = 100.0 * sum(r["pressed"] for r in records) / sum(r["looks"] for r in records)
        return labcore.figure(round(rate, 1), "MB/s", "%s MB/s delivered over %d connections, "
                              "TCP in memory pressure %s %% of the time" % (
                                  labcore.fmt(round(rate, 1)), CONNECTIONS,
                                  labcore.fmt(round(pressed, 1))))


def run(lab):
    host = lab.read_sysctl("net.ipv4.tcp_mem")
    lab.sysctl("net.ipv4.tcp_mem", SMALL)
    lab.result["setup"] = "tcp_mem %s pages on the host (it was %s; restored after)" % (
        SMALL, host)
    with labcore.Stack(lab) as stack:
        labproblem.run_problem(lab, stack, TcpMem(__file__))


# ---- the workload ---------------------------------------------------------


def batches():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(CONNECTIONS)
    pairs = []
    for _ in range(CONNECTIONS):
        c = socket.create_connection(srv.getsockname())
        s, _ = srv.accept()
        s.setblocking(False)
        pairs.append((c, s))
    got = [0] * CONNECTIONS
    payload = b"x" * (1 << 16)

    def send(c):
        try:
            while True:
                until = time.monotonic() + ON_S
                while time.monotonic() < until:
                    c.sendall(payload)
                time.sleep(OFF_S)
        except OSError:
            pass

    def receive(i, s):
        while True:
            time.sleep(BATCH_S)
            try:
                while True:
                    b = s.recv(1 << 20)
                    if not b:
                        return
                    got[i] += len(b)
            except BlockingIOError:
                pass
    for i, (c, s) in enumerate(pairs):
        threading.Thread(target=send, args=(c,), daemon=True).start()
        threading.Thread(target=receive, args=(i, s), daemon=True).start()
    last, t = 0, time.monotonic()
    while True:
        # /proc/net/protocols says whether TCP is in memory pressure now.
        looks = pressed = 0
        while time.monotonic() < t + REPORT_S:
            looks += 1
            pressed += in_pressure()
            time.sleep(0.02)
        now, total = time.monotonic(), sum(got)
        labcore.emit(bytes=total - last, secs=now - t, looks=looks, pressed=pressed)
        last, t = total, now


def in_pressure():
    with open("/proc/net/protocols") as fh:
        for line in fh:
            f = line.split()
            if f[0] == "TCP":
                return 1 if f[4] == "yes" else 0
    return 0


if __name__ == "__main__":
    labcore.main(META, run, {"batches": batches})
