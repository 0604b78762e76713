#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The accept queue: a service that stalls while a burst of connections
arrives (a reconnect storm after a failover), on a host at the stock
net.core.somaxconn, 4096.

In a network namespace of its own (somaxconn is per namespace), with
snmpd, the sink and tunewatchd inside it, so that tunewatchd reads the
namespace's somaxconn and ListenOverflows, and sees the change made there:

- the service listens on 127.0.0.1 with a backlog of 2^20 (the kernel cuts
  it to somaxconn) and accepts as fast as it can, except while a burst
  arrives: a client opens BURST (6,000) connections at once every PERIOD_S,
  and the service (a process of its own) accepts none until the last is
  sent. The accept queue
  holds somaxconn + 1; every SYN beyond it is dropped (TcpExt
  ListenOverflows) and sent again a second later: the workload's figure is
  the share of a phase's connections established at the first SYN (a
  socket whose TCP_INFO counts no retransmission), besides how long a burst
  takes until every connection is established;
- the check's apply: line is run in the namespace, and the service then
  calls listen() again (as on a reload, SIGHUP here), as the advice's
  reason says its backlog must follow. The suggestion is the doubling
  (8192, one round: a queue of 6,000 is the need); the sweep says how far
  it is from the smallest value that removes the overflows.
"""

import os
import resource
import select
import signal
import socket
import statistics
import struct
import time

import labcore
import labproblem

META = {"name": "net-listen", "kind": "problem",
        "symptom": "accept queue overflows (TcpExt ListenOverflows)"}

SOMAXCONN = 4096		# the kernel's default since 5.4, Debian's
BURST = 6000
PERIOD_S = 3.0		# the service drains a burst before the next, loaded or not
BACKLOG = 1 << 20


class Listen(labproblem.Problem):
    symptom_token = "listen-overflow"
    tunable = "net.core.somaxconn"
    rounds_allowed = 1		# doubled: 8192 holds a burst of 6,000
    symptom_unit = "overflows/s"
    better = "higher"
    figure_what = "the share of connections established at the first SYN"
    measure_s = 6.0
    phase_s = 6.0		# two bursts a phase
    settle_s = PERIOD_S		# a whole burst at the new value first

    def cost_line(self, old, new):
        return ("a listening socket's accept queue may hold up to %s connections, not %s: "
                "kernel memory only for connections actually waiting, and a connection may "
                "wait behind that many; the service must call listen() again (a reload) for "
                "its backlog to follow" % (new, old))

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
        first = 100.0 * (1 - late / (BURST * len(records)))
        return labcore.figure(round(first, 2), "%", "%s %% of %d connections established at "
                              "the first SYN; a burst of %d in %s ms (median of %d)" % (
                                  labcore.fmt(round(first, 1)), BURST * len(records), BURST,
                                  labcore.fmt(round(ms)), len(records)))

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


def serve(srv, ctl):
    """The service, in a process of its own (so that the client's clock is
    not the service's CPU): accepts as fast as it can, but none from a b"s"
    on ctl to a b"g" (a stall); ends with its parent."""
    parent = os.getppid()
    # Closed with a reset: no TIME_WAIT piles up at BURST connections a period.
    linger0 = struct.pack("ii", 1, 0)
    srv.setblocking(False)
    stalled = False
    while os.getppid() == parent:
        r, _, _ = select.select([ctl] + ([] if stalled else [srv]), [], [], 0.5)
        if ctl in r:
            for b in os.read(ctl, 64):
                stalled = b == ord("s")
        if stalled or srv not in r:
            continue
        for _ in range(256):
            try:
                c, _ = srv.accept()
            except (BlockingIOError, InterruptedError):
                break
            c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger0)
            c.close()


def burst():
    # A burst holds BURST sockets open at once.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(BACKLOG)
    addr = srv.getsockname()
    ctl_r, ctl_w = os.pipe()
    child = os.fork()
    if child == 0:
        # A reload: listen() again takes the new somaxconn.
        signal.signal(signal.SIGHUP, lambda s, f: srv.listen(BACKLOG))
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.close(ctl_w)
        try:
            serve(srv, ctl_r)
        finally:
            os._exit(0)
    os.close(ctl_r)
    srv.close()
    signal.signal(signal.SIGHUP, lambda s, f: os.kill(child, signal.SIGHUP))
    try:
        bursts(addr, ctl_w)
    finally:
        os.kill(child, signal.SIGTERM)


def bursts(addr, ctl):
    """BURST connections every PERIOD_S, the service stalled until the
    last is sent; a record a burst: how long until every connection was
    established, and how many were late (their SYN sent again)."""
    while True:
        t0 = time.monotonic()
        os.write(ctl, b"s")
        clients = []
        ep = select.epoll()
        for _ in range(BURST):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.setblocking(False)
            c.connect_ex(addr)
            ep.register(c.fileno(), select.EPOLLOUT)
            clients.append(c)
        os.write(ctl, b"g")
        done_at = {}
        deadline = t0 + 8.0
        while len(done_at) < len(clients) and time.monotonic() < deadline:
            for fd, _ in ep.poll(0.05, len(clients)):
                if fd not in done_at:
                    done_at[fd] = time.monotonic()
                    ep.unregister(fd)
        ep.close()
        pending = len(clients) - len(done_at)
        end = max(done_at.values()) if done_at and not pending else time.monotonic()
        # Late: its SYN was sent again (TCP_INFO's tcpi_total_retrans),
        # which a connection the full queue refused needs.
        late = sum(1 for c in clients if c.fileno() not in done_at or
                   struct.unpack_from("I", c.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO,
                                                        104), 100)[0] > 0)
        for c in clients:
            c.close()
        labcore.emit(burst_ms=(end - t0) * 1000.0, late=late, failed=pending)
        time.sleep(max(0.0, t0 + PERIOD_S - time.monotonic()))


if __name__ == "__main__":
    labcore.main(META, run, {"burst": burst})
