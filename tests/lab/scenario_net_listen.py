#!/usr/bin/env python3
"""The accept queue: a service whose connections arrive in bursts faster
than it accepts them, on a host whose net.core.somaxconn is 8.

In a network namespace of its own (somaxconn is per namespace), with
snmpd, the sink and tunewatchd inside it, so that tunewatchd reads the
namespace's somaxconn and ListenOverflows, and sees the change made there:

- the service listens on 127.0.0.1 with a backlog of 1024 (the kernel cuts
  it to somaxconn) and accepts one connection every 2 ms; a client opens
  64 connections at once every second. A connection the full accept queue
  refuses (TcpExt ListenOverflows) gets in only when its SYN is sent again,
  a second later: the workload's figure is how long a burst takes until
  every connection is established (the median of a phase's bursts);
- the check's apply: line is run in the namespace, and the service then
  calls listen() again (as on a reload, SIGHUP here), as the advice's
  reason says its backlog must follow. The suggestion is sized from the
  overflows, so one round must do (four doublings did, before).
"""

import select
import signal
import socket
import statistics
import threading
import time

import labcore
import labproblem

META = {"name": "net-listen", "kind": "problem",
        "symptom": "accept queue overflows (TcpExt ListenOverflows)"}

SOMAXCONN = 8
BURST = 64
ACCEPT_S = 0.002
BACKLOG = 1024


class Listen(labproblem.Problem):
    symptom_token = "listen-overflow"
    tunable = "net.core.somaxconn"
    rounds_allowed = 1		# sized from the drops: one ticket
    symptom_unit = "overflows/s"

    def __init__(self, ns, script):
        self.ns = ns
        self.script = script

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "burst"), ns=self.ns)

    def symptom_count(self, lab):
        return labcore.netstat(self.ns)["TcpExt"]["ListenOverflows"]

    def current_value(self, lab):
        return lab.read_sysctl("net.core.somaxconn", self.ns)

    def workload_figure(self, records):
        ms = statistics.median(r["burst_ms"] for r in records)
        late = sum(r["late"] for r in records)
        return labcore.figure(round(ms, 1), "ms", "a burst of %d connections in %s ms "
                              "(median of %d), %d connections late" % (
                                  BURST, labcore.fmt(round(ms, 1)), len(records), late))

    def after_apply(self, lab, workload, advice):
        workload.signal(signal.SIGHUP)
        return "then the service called listen() again (SIGHUP), as the advice says its " \
            "backlog must follow"


def run(lab):
    labcore.need("ip")
    ns = lab.netns()
    lab.sysctl("net.core.somaxconn", SOMAXCONN, ns)
    host = lab.read_sysctl("net.core.somaxconn")
    lab.result["setup"] = "somaxconn %d in the namespace (the host's: %s)" % (SOMAXCONN, host)
    with labcore.Stack(lab, ns) as stack:
        labproblem.run_problem(lab, stack, Listen(ns, __file__))
    # The host's value is untouched: somaxconn is per namespace.
    assert lab.read_sysctl("net.core.somaxconn") == host


# ---- the workload, run inside the namespace -------------------------------


def burst():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(BACKLOG)
    addr = srv.getsockname()
    # A reload: listen() again takes the new somaxconn.
    signal.signal(signal.SIGHUP, lambda s, f: srv.listen(BACKLOG))

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except InterruptedError:
                continue
            c.close()
            time.sleep(ACCEPT_S)
    threading.Thread(target=serve, daemon=True).start()
    while True:
        t0 = time.monotonic()
        clients = []
        for _ in range(BURST):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.setblocking(False)
            c.connect_ex(addr)
            clients.append(c)
        pending, done_at = set(clients), {}
        deadline = t0 + 5.0
        while pending and time.monotonic() < deadline:
            _, w, _ = select.select([], list(pending), [], 0.05)
            for c in w:
                done_at[c] = time.monotonic()
                pending.discard(c)
        end = max(done_at.values()) if done_at and not pending else time.monotonic()
        late = sum(1 for t in done_at.values() if t - t0 > 0.5) + len(pending)
        for c in clients:
            c.close()
        labcore.emit(burst_ms=(end - t0) * 1000.0, late=late, failed=len(pending))
        time.sleep(max(0.0, t0 + 1.0 - time.monotonic()))


if __name__ == "__main__":
    labcore.main(META, run, {"burst": burst})
