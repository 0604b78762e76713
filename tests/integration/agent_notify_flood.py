#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Thousands of findings at once must block neither tunewatchd nor snmpd.

A fixture /proc with 2,000 UDP sockets on 127.0.0.1 whose drops start
growing in one sample: every socket twSocketDropTable holds (its first 256)
is a finding at once (findingRaiseAfter 1), behind a real snmpd with a real
snmptrapd as its trap2sink. Before the notifications went through a queue,
this stopped both programs for good, each waiting in the kernel to write
to the AgentX socket the other no longer read, and snmpd answered nothing
for any MIB.

Three floods, each in a fresh tunewatchd:
  1. notificationsPerMinute 0 (the ceiling): snmpd answers sysUpTime.0
     within a second throughout and after; exactly TW_NOTIFY_INFLIGHT +
     TW_NOTIFY_QUEUE notifications go out (the rest of the burst finds the
     queue full), twFindingNotificationsDropped is the rest, and snmptrapd
     received what twFindingNotificationsSent says (less what its own
     socket dropped, read from /proc/net/udp);
  2. notificationsPerMinute 250, as the report had it: the limit holds
     back what is past it (twFindingNotificationsSuppressed), the queue
     drops the rest of the burst;
  3. snmpd stopped (SIGSTOP) while the flood is raised: tunewatchd does not
     wait in the kernel to write, and once snmpd runs again everything
     answers and the counters add up as before (the few in flight while
     snmpd stood still may arrive twice: Net-SNMP sends an unanswered
     AgentX request again).
A bulk walk of the whole MIB with its 256 socket rows is timed after each
flood."""

import os
import re
import signal
import statistics
import threading
import time

import twtest
from trapsink import FINDINGS, RAISED, TrapSink, scalar
from twtest import as_dict

NSOCKETS = 2000
FIRST_PORT = 20000


def header_number(header, name):
    with open(os.path.join(twtest.TOP_SRCDIR, header)) as fh:
        m = re.search(r"#define %s (\d+)" % name, fh.read())
    return int(m.group(1))


QUEUE = header_number("agentx/notify.h", "TW_NOTIFY_QUEUE")
INFLIGHT = header_number("agentx/notify.h", "TW_NOTIFY_INFLIGHT")
SOCK_ROWS = header_number("lib/view/sockview.h", "TW_VIEW_SOCKS_MAX")
CAPACITY = header_number("lib/finding/tracker.h", "TW_TRACKER_CAPACITY")


def write_drops(root, step):
    """/proc/net/udp with NSOCKETS sockets, each with 10 * step drops, and
    Udp InErrors of /proc/net/snmp moved by all of them (without it the
    agent does not read the socket files)."""
    lines = ["   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
             "retrnsmt   uid  timeout inode ref pointer drops            "]
    for i in range(NSOCKETS):
        lines.append("%5d: 0100007F:%04X 00000000:0000 07 00000000:00000000 00:00000000 "
                     "00000000 %5d %8d %d 2 %016x %-7d" % (
                         i, FIRST_PORT + i, 0, 0, 300000 + i, 0xffff888000000000 + i * 64,
                         10 * step))
    with open(os.path.join(root, "proc", "net", "udp"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    path = os.path.join(root, "proc", "net", "snmp")
    with open(path) as fh:
        text = fh.read().splitlines()
    out = []
    for line in text:
        f = line.split()
        if f[0] == "Udp:" and f[1].isdigit():
            f[3] = str(7 + 10 * step * NSOCKETS)
            line = " ".join(f)
        out.append(line)
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


class Poller(threading.Thread):
    """sysUpTime.0 from snmpd, one GET after another, each timed: what a
    manager polling another MIB sees."""

    def __init__(self, h):
        super().__init__(daemon=True)
        self.h = h
        self.times = []
        self.failed = 0
        self.stop_at = None
        self.paused = threading.Event()

    def run(self):
        while self.stop_at is None or time.monotonic() < self.stop_at:
            if self.paused.is_set():
                time.sleep(0.02)
                continue
            t0 = time.monotonic()
            ok = self.h.try_get([twtest.SYS_UPTIME]) is not None
            dt = time.monotonic() - t0
            if self.paused.is_set():
                continue	# snmpd was stopped by the test meanwhile
            if ok:
                self.times.append(dt)
            else:
                self.failed += 1
            time.sleep(0.05)

    def finish(self, after):
        self.stop_at = time.monotonic() + after
        self.join(timeout=after + 30)


def sink_drops(port):
    """Datagrams the kernel dropped on snmptrapd's socket (its drops
    column in /proc/net/udp), so that what it received plus these is what
    snmpd sent it."""
    with open("/proc/net/udp") as fh:
        for line in fh.readlines()[1:]:
            f = line.split()
            if f[1] == "0100007F:%04X" % port:
                return int(f[-1])
    return 0


def counters(h):
    """The twFindings scalars, in one GET: a walk of twFindings, its 256-row
    table and all, outlasted the harness's 20 s for a client at a load
    average of 22."""
    names = ("COUNT", "OVERFLOWS", "SUPPRESSED", "DROPPED", "SENT", "LIMIT")
    v = as_dict(h.get([scalar(k) for k in names]))
    return {k: v[scalar(k)].num for k in names}


def flood(h, sink, root, per_minute, stop_snmpd=False):
    """Start a tunewatchd on root, raise NSOCKETS findings at once, and
    return its counters once the queue has drained."""
    write_drops(root, 0)
    conf = os.path.join(h.dir, "flood-%s.conf" % per_minute)
    with open(conf, "w") as fh:
        fh.write("findingRaiseAfter 1\nnotificationsPerMinute %s\n" % per_minute)
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                  window=60, args=["-c", conf])
    c0 = counters(h)
    received0 = len(sink.notifications(RAISED))
    drops0 = sink_drops(sink.port)
    poller = Poller(h)
    poller.start()
    time.sleep(0.5)
    write_drops(root, 1)
    if stop_snmpd:
        poller.paused.set()
        h.snmpd.send_signal(signal.SIGSTOP)
        try:
            h.agent.send_signal(signal.SIGUSR1)
            # The sample (2,000 sockets) and its burst take well under this.
            time.sleep(1.5)
            with open("/proc/%d/wchan" % h.agent.pid) as fh:
                wchan = fh.read().strip()
            with open("/proc/%d/stat" % h.agent.pid) as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        finally:
            h.snmpd.send_signal(signal.SIGCONT)
            poller.paused.clear()
        assert wchan != "sock_alloc_send_pskb", \
            "tunewatchd waits to write to the stopped snmpd: " + wchan
        assert state == "S", (state, wchan)
        twtest.wait_for("the flood's sample", lambda: (h.agent_samples() or 0) >= 2)
    else:
        h.sample_now()

    # The queue drains as snmpd answers; then the counters stand still.
    def drained():
        a = counters(h)
        time.sleep(0.5)
        b = counters(h)
        return b if a == b and b["SENT"] > c0["SENT"] else None
    c = twtest.wait_for("the notification queue to drain", drained, timeout=60, step=0.2)
    poller.finish(2.0)
    twtest.wait_for("snmptrapd to print what it received",
                    lambda: len(sink.notifications(RAISED)) - received0 +
                    sink_drops(sink.port) - drops0 >= c["SENT"] - c0["SENT"], timeout=20)
    ids = [n.get("ID") for n in sink.notifications(RAISED)[received0:]]
    received = len(ids)
    lost = sink_drops(sink.port) - drops0

    # snmpd answered another MIB throughout and after, each within a second.
    assert poller.failed == 0, "snmpd did not answer sysUpTime.0 %d times" % poller.failed
    assert poller.times and max(poller.times) < 1.0, max(poller.times)
    # Every event of the sample is sent, held back by the limit, or dropped
    # from a full queue: nothing uncounted.
    events = c["COUNT"]
    # One a socket of twSocketDropTable, which names the first SOCK_ROWS,
    # within twFindingCapacity.
    assert events == min(SOCK_ROWS, CAPACITY), c
    sent = c["SENT"] - c0["SENT"]
    dropped = c["DROPPED"] - c0["DROPPED"]
    suppressed = c["SUPPRESSED"] - c0["SUPPRESSED"]
    assert sent + dropped + suppressed == events, (sent, dropped, suppressed, events)
    allowed = min(events, c["LIMIT"])
    assert suppressed == events - allowed, (suppressed, c)
    # The burst: INFLIGHT go at once, QUEUE wait, the rest find it full.
    assert sent == min(allowed, INFLIGHT + QUEUE), (sent, c)
    assert dropped == allowed - sent, (dropped, c)
    if stop_snmpd:
        # Net-SNMP's AgentX session sends a request again when its answer
        # has not come within agentxTimeout: those in flight while snmpd
        # stood still may arrive twice, never more than those.
        twice = {i for i in ids if ids.count(i) > 1}
        assert len(set(ids)) + lost == sent and len(twice) <= INFLIGHT, (ids, lost, sent)
    else:
        assert received + lost == sent and len(set(ids)) == received, (received, lost, sent)
    t0 = time.monotonic()
    walked = h.walk(bulk=True)
    walk_s = time.monotonic() - t0
    socks = [x for x in walked if x.oid.startswith(twtest.oid("SOCKDROP_LOCAL_PORT", None))]
    assert len(socks) == SOCK_ROWS, len(socks)
    print("notificationsPerMinute %s%s: %d findings at once, %d sent, %d dropped (queue full), "
          "%d suppressed (limit %d), %d received by snmptrapd, %d dropped at its socket; "
          "sysUpTime.0 answered %d times, median %.1f ms, max %.1f ms; a bulk walk of %d "
          "values (%d sockets) took %.2f s" % (
              per_minute, " with snmpd stopped" if stop_snmpd else "", events, sent, dropped,
              suppressed, c["LIMIT"], received, lost, len(poller.times),
              statistics.median(poller.times) * 1000, max(poller.times) * 1000, len(walked),
              len(socks), walk_s))
    h.stop(h.agent)
    return c


def test():
    with twtest.Harness("agent-notify-flood") as h:
        sink = TrapSink(h)
        sink.snmptt = None	# a process per trap would be the bottleneck
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        root = h.copy_fixture("agent")
        c = flood(h, sink, root, 0)
        assert c["LIMIT"] == 600, c	# 0 is the ceiling
        flood(h, sink, root, 250)
        flood(h, sink, root, 250, stop_snmpd=True)
        # snmpd still answers, and a new tunewatchd registers as before.
        assert h.try_get([twtest.SYS_UPTIME]) is not None
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=60)


if __name__ == "__main__":
    twtest.main(test)
