#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
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
writing as fast as it can without rest, and a receiver that reads
everything queued every 100 ms (a consumer that works in batches), beside
one client that has stopped reading, its 4 MiB buffers full (STUCK_BUF):
what a stalled peer of a busy service holds. Between batches the data
waits in the sockets' buffers; when TCP runs out of memory it enters
memory pressure, shrinks them and prunes receive queues, and the senders
wait. TCP leaves pressure only below tcp_mem's first value; without the
stalled client the batches drained that low every few seconds after the
first 20 (measured: 1, 3, 29, 34, 36 entries in five 10 s windows, 58-83 %
of the time in pressure), with it never (0 entries in each, 100 %). So
TCP enters pressure once and stays:
the kernel's count of entries (TCPMemoryPressures) does not move, nor
does its time in pressure (TCPMemoryPressuresChrono, added only when an
episode ends). tunewatchd's twDblockRecentPressureTime counts the episode
under way, so the finding must hold for as long as the pressure does:
the first round checks that it stays raised through a whole window with
no new entry. The workload's figure is what the receivers got per second
(MB/s, over a phase), with the share of the time TCP was in memory
pressure (/proc/net/protocols, looked at every 20 ms) and the pages TCP
held meanwhile (its memory column, the mean of those looks); the
symptom's, the share of the time in pressure as the scenario itself sees
it in that file, every 20 ms.

Why it passed one quick run in two (56709ce): TCP leaves memory pressure
only when what it holds falls below tcp_mem's first value (sock.c,
sk_leave_memory_pressure), and the advice doubles all three, so the new
first value is the old second, the level above which TCP entered
pressure. After the first round TCP could leave it only in a dip of the
batches below 6144 pages: on a loaded machine (the whole run of 3b39ebf,
160 MB/s) there were some, 100 % -> 77 % of the time, and the change
history said "helped partly"; on a quiet one (444 -> 477 MB/s) there were
none, 100 % -> 100 %, the record said "did not help", and the no-ratchet
rule (finding/ratchet.c) held the second doubling back: "not raised
again". The share could not fall whatever the raise gave, so it was no
evidence; the product now treats it so: while TCP holds at least the new
first value the next doubling is offered (finding/ratchet.c, and
check_finding's test_ratchet_tcp_mem). The sweep of the whole run says
how many rounds that takes here: the pressure went at a first value of
16214 and not at 9313, so three doublings (24576), as that run took. The
lab's verdict on the change is the workload's own figure, the rate
delivered, over interleaved repeats with a control (labproof); the pages
held are said beside it, so that LAB.md shows the raise taken up (more
memory in use after) where the share stays at 100 %.

Why doubling, though it cannot end steady pressure in one round (issue
32): under pressure TCP holds what the limit lets it, between the second
and third values (a whole proof of f91d89d, 18:44-18:50 UTC: 10,380 pages
on average at 3072 6144 12288; 18,594 once free, at 24576), so what it
holds then is no measure of the need. Sizing the first value from it
(twice the pages in use) would have taken one round here, but where the
need is just above the second value, so that a little more would do, it
gives 2.7 to 4 times the first at Debian's proportions (1 : 1.33 : 2) and
4 to 8 at the lab's (1 : 2 : 4), past the issue's 2x of the smallest value
that suffices; a doubling
applied only while the last one did not suffice stays under 2x of it
whatever the need. That run: three rounds (100 -> 90.48 %, 100 -> 18.47 %,
83.3 -> 0 % of the time in pressure in the change history), smallest
sufficient 16214 by the sweep, suggestion 24576 (1.52x), the rate 2.77
(1.96-3.25), control 0.97 (0.64-1.19).
"""

import socket
import threading
import time

import labcore
import labproblem

META = {"name": "net-tcp-mem", "kind": "problem",
        "symptom": "TCP memory pressure that never lets up (TcpExt TCPMemoryPressures and "
                   "the time in pressure; net.ipv4.tcp_mem)"}

# Small enough that the senders press on it from the start; the stalled
# client alone holds about 4,000 pages, over its first value.
SMALL = "3072 6144 12288"
CONNECTIONS = 8
STUCK_BUF = 4 << 20
BATCH_S = 0.1
REPORT_S = 0.5
LOOK_S = 0.02


class PressureClock:
    """The time TCP has spent in memory pressure since it started, as
    /proc/net/protocols says every LOOK_S: the scenario's own figure,
    apart from tunewatchd's."""

    def __init__(self):
        self.ms = 0.0
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        last = time.monotonic()
        while not self.stop:
            time.sleep(LOOK_S)
            now = time.monotonic()
            if in_pressure():
                self.ms += (now - last) * 1000.0
            last = now


class TcpMem(labproblem.Problem):
    symptom_token = "tcp-mem"
    tunable = "net.ipv4.tcp_mem"
    symptom_unit = "% of the time in memory pressure"
    better = "higher"
    measure_s = 8.0
    figure_what = "the throughput delivered"
    phase_s = 5.0

    # Not Debian's (tcp_mem is sized from memory at boot: 384602 pages,
    # 1.5 GiB, before pressure here): the lab's small values stand for a
    # host whose TCP traffic outgrew them, which at the stock values would
    # hold gigabytes of this shared machine's memory in socket buffers.

    def value_number(self, text):
        return int(text.split()[0])

    def value_text(self, number):
        # The three values keep the proportions they started with.
        first = self.stock[0]
        return " ".join(str(int(round(v * number / first))) for v in self.stock)

    def cost_line(self, old, new):
        pages = [int(x) for x in new.split()]
        return ("TCP may hold %s pages (%.0f MiB) of socket buffers before it enters memory "
                "pressure and %s (%.0f MiB) at most, not %s and %s: memory taken only while "
                "data waits in the buffers" % (
                    pages[1], pages[1] * 4096 / 1048576.0, pages[2],
                    pages[2] * 4096 / 1048576.0, old.split()[1], old.split()[2]))
    # The receive queues TCP prunes under pressure are tcp_mem's; a larger
    # tcp_rmem would ask for more of what ran out: labknobs fails it.

    def __init__(self, script, clock, stock):
        self.script = script
        self.clock = clock
        self.stock = [int(x) for x in stock.split()]

    def start(self, lab):
        return labcore.Workload(lab, labcore.workload_argv(self.script, "batches"))

    def symptom_count(self, lab):
        return self.clock.ms

    def symptom_figure(self, count, seconds):
        share = min(100.0, count / 10.0 / seconds)
        return labcore.figure(round(share, 1), self.symptom_unit, "%s %s (%.1f s of %.1f s)" % (
            labcore.fmt(round(share, 1)), self.symptom_unit, count / 1000.0, seconds))

    def current_value(self, lab):
        return lab.read_sysctl("net.ipv4.tcp_mem")

    def workload_figure(self, records):
        got = sum(r["bytes"] for r in records)
        secs = sum(r["secs"] for r in records)
        rate = got / secs / 1e6
        looks = sum(r["looks"] for r in records)
        pressed = 100.0 * sum(r["pressed"] for r in records) / looks
        pages = sum(r.get("pages", 0) for r in records) / looks
        return labcore.figure(round(rate, 1), "MB/s", "%s MB/s delivered over %d connections, "
                              "TCP in memory pressure %s %% of the time, holding %s pages "
                              "(mean)" % (labcore.fmt(round(rate, 1)), CONNECTIONS,
                                          labcore.fmt(round(pressed, 1)),
                                          labcore.fmt(round(pages))))

    def while_raised(self, lab, stack, workload, row):
        """The finding stays raised through a whole window in which TCP
        never enters pressure anew: the time in pressure holds it, not
        an entry. A window that had an entry (the pressure let up for a
        moment) is looked at again, up to three times."""
        for attempt in range(1, 4):
            e0 = labcore.netstat()["TcpExt"]["TCPMemoryPressures"]
            c0, t0 = self.clock.ms, time.monotonic()
            until = t0 + stack.window + 2
            while time.monotonic() < until:
                ids = {x.get("ID") for x in stack.findings().values()}
                assert row["ID"] in ids, (
                    "finding %s cleared %.1f s into continuous memory pressure" % (
                        row["ID"], time.monotonic() - t0))
                time.sleep(0.5)
            e1 = labcore.netstat()["TcpExt"]["TCPMemoryPressures"]
            share = (self.clock.ms - c0) / 10.0 / (time.monotonic() - t0)
            if e1 == e0:
                return ("finding %s held through %.0f s (a whole window and more) of pressure "
                        "with no new entry (TcpExt TCPMemoryPressures +0, TCP in pressure "
                        "%s %% of it)" % (row["ID"], time.monotonic() - t0,
                                          labcore.fmt(round(share, 1))))
            lab.result.note("hold check %d: TCP entered pressure %d times in the window, "
                            "looked at again" % (attempt, e1 - e0))
        raise AssertionError("TCP left and entered memory pressure in each of three windows: "
                             "the hold under continuous pressure was not shown")


def run(lab):
    host = lab.read_sysctl("net.ipv4.tcp_mem")
    lab.sysctl("net.ipv4.tcp_mem", SMALL)
    lab.result.note("starts from tcp_mem %s, not the stock one sized from memory at boot "
                    "(here %s): exceeding it needs gigabytes of this shared machine's memory "
                    "in socket buffers" % (SMALL, host))
    lab.result["setup"] = "tcp_mem %s pages on the host (it was %s; restored after)" % (
        SMALL, host)
    clock = PressureClock()
    try:
        with labcore.Stack(lab) as stack:
            labproblem.run_problem(lab, stack, TcpMem(__file__, clock, SMALL))
    finally:
        clock.stop = True


# ---- the workload ---------------------------------------------------------


def stuck_client():
    """A peer that stopped reading: the service's writes fill its buffers
    and stay there."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STUCK_BUF)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STUCK_BUF)
    c.connect(srv.getsockname())
    s, _ = srv.accept()

    def fill():
        try:
            c.sendall(b"x" * (4 * STUCK_BUF))
        except OSError:
            pass
    threading.Thread(target=fill, daemon=True).start()
    return srv, c, s


def batches():
    stuck = stuck_client()  # noqa: F841 - held open for as long as the workload runs
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
                c.sendall(payload)
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
        looks = pressed = pages = 0
        while time.monotonic() < t + REPORT_S:
            looks += 1
            p, held = tcp_memory()
            pressed += p
            pages += held
            time.sleep(0.02)
        now, total = time.monotonic(), sum(got)
        labcore.emit(bytes=total - last, secs=now - t, looks=looks, pressed=pressed,
                     pages=pages)
        last, t = total, now


def tcp_memory():
    """Whether TCP is in memory pressure now (1 or 0), and the pages it
    holds, from /proc/net/protocols' TCP line (its memory and press
    columns)."""
    with open("/proc/net/protocols") as fh:
        for line in fh:
            f = line.split()
            if f[0] == "TCP":
                return (1 if f[4] == "yes" else 0), int(f[3])
    return 0, 0


def in_pressure():
    return tcp_memory()[0]


if __name__ == "__main__":
    labcore.main(META, run, {"batches": batches})
