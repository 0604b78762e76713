#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""check_dblock end to end: tunewatchd on tests/fixtures/agent behind a real
snmpd, the fixture changed as agent_walk.change_fixture() does, and every
line of the plugin's output worked out by hand.

Failures in the window, from the fixture and its change:
  softnet backlog  cpu0 0, cpu1 0x10 -> 0x10 + 152: 152 (in use 5 of 1000)
  softnet budget   cpu0 time_squeeze 2 -> 5: 3, cpu1 0 (limit net.core.netdev_budget 300);
                   cpu0's backlog dropped nothing, so its squeezes lost nothing: OK
  udp receive buffer  Udp RcvbufErrors 7 -> 17: 10 (limit net.core.rmem_max 212992)
  tcp listen queue    TcpExt ListenOverflows 4 -> 9: 5 (limit net.core.somaxconn 4096)
  tcp memory, udp memory, udp send buffer, tcp receive buffer, high-order
  pages: 0. Eleven pools in all (buddy zones have no failure counter).
A failure count does not depend on the window's span; only "in the last N
s" does, and N is read from twAgentWindowSpan.

Since issue 25 (the lab), a CPU's budget running out is judged only where
that CPU's backlog dropped in the window: otherwise nothing was lost to it.

Since issue 14, rmem_default comes with rmem_max (which only lets a socket
that sets SO_RCVBUF ask for more), and tcp_max_syn_backlog is no longer
offered for accept-queue overflows (it sizes the SYN queue, whose drops
tunewatch does not count).
"""

import os

import agent_walk
import plugin_common as pc
import twtest

CHECK = "check_dblock"
LABELS = ["softnet_backlog", "softnet_budget", "tcp_memory", "udp_memory", "udp_receive_buffer",
          "udp_send_buffer", "tcp_receive_buffer", "tcp_listen_queue", "high-order_pages"]
NET_RST = "Documentation/admin-guide/sysctl/net.rst"
IP_SYSCTL = "Documentation/networking/ip-sysctl.rst"
FIGURES = [152, 3, 0, 0, 10, 0, 0, 5, 0]


def perfdata(warn, crit=""):
    return " ".join(pc.perf(l, v, "", warn, crit, "0") for l, v in zip(LABELS, FIGURES))


def check_one_sample(h):
    for args in ([], ["-P", "1"]):
        out = pc.run(CHECK, args, h.port)
        pc.expect(out, 3, ["DBLOCK UNKNOWN - tunewatchd's window holds 1 sample; figures come "
                           "with the next sample (every 60 s)"])


def check_default(h, w):
    """Any failure warns (-w 0); nothing is critical."""
    want = [
        "DBLOCK WARNING - cpu1 backlog 152 failures, udp receive buffer 10 failures, tcp "
        "listen queue 5 failures in the last %d s | %s" % (w, perfdata("0")),
        "cpu1 backlog: WARNING, 152 failures in the last %d s (packet dropped: the CPU's input "
        "queue was full); in use 5 of 1000" % w,
        "tune: net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last "
        "%d s; %s)" % (w, NET_RST),
        *pc.ticket("softnet-drops", "softnet backlog", "net.core.netdev_max_backlog", "2000"),
        "udp receive buffer: WARNING, 10 failures in the last %d s (datagram dropped: socket "
        "receive buffer full); limit 212992" % w,
        "tune: net.core.rmem_max 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
        "tune: net.core.rmem_default 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
        "tcp listen queue: WARNING, 5 failures in the last %d s (connection dropped: accept "
        "queue full); limit 4096" % w,
        "tune: net.core.somaxconn 4096 -> 8192 (5 connections were dropped on full accept "
        "queues in the last %d s; %s)" % (w, IP_SYSCTL),
        *pc.ticket("listen-overflow", "tcp listen queue", "net.core.somaxconn", "8192"),
    ]
    out = pc.run(CHECK, [], h.port)
    pc.expect(out, 1, want)
    # SNMPv1 carries everything check_dblock reads but the Counter64
    # failure totals, which it does not print: the same output.
    v1 = pc.run(CHECK, ["-P", "1"], h.port)
    pc.expect(v1, 1, want)
    v2 = pc.run(CHECK, ["-P", "2c"], h.port)
    pc.expect(v2, 1, want)
    return out


def check_verbose(h, w):
    """-v: OK pools too, every rule, and the other systems' names."""
    out = pc.run(CHECK, ["-v"], h.port)
    ok = "%s: OK, no failures in the last %d s"
    pc.expect(out, 1, [
        "DBLOCK WARNING - cpu1 backlog 152 failures, udp receive buffer 10 failures, tcp "
        "listen queue 5 failures in the last %d s | %s" % (w, perfdata("0")),
        ok % ("cpu0 backlog", w),
        "cpu1 backlog: WARNING, 152 failures in the last %d s (packet dropped: the CPU's input "
        "queue was full); in use 5 of 1000" % w,
        "tune: net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last "
        "%d s; %s)" % (w, NET_RST),
        *pc.ticket("softnet-drops", "softnet backlog", "net.core.netdev_max_backlog", "2000"),
        "  elsewhere: FreeBSD net.isr.defaultqlimit; SVR4 -",
        "cpu0 budget: OK, ran out of budget 3 times in the last %d s, and its backlog dropped "
        "nothing" % w,
        ok % ("cpu1 budget", w),
        ok % ("tcp memory", w),
        ok % ("udp memory", w),
        "udp receive buffer: WARNING, 10 failures in the last %d s (datagram dropped: socket "
        "receive buffer full); limit 212992" % w,
        "tune: net.core.rmem_max 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
        "  elsewhere: FreeBSD kern.ipc.maxsockbuf; SVR4 -",
        "tune: net.core.rmem_default 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
        "  elsewhere: FreeBSD net.inet.udp.recvspace; SVR4 -",
        ok % ("udp send buffer", w),
        ok % ("tcp receive buffer", w),
        "tcp listen queue: WARNING, 5 failures in the last %d s (connection dropped: accept "
        "queue full); limit 4096" % w,
        "tune: net.core.somaxconn 4096 -> 8192 (5 connections were dropped on full accept "
        "queues in the last %d s; %s)" % (w, IP_SYSCTL),
        *pc.ticket("listen-overflow", "tcp listen queue", "net.core.somaxconn", "8192"),
        "  elsewhere: FreeBSD kern.ipc.soacceptqueue; SVR4 -",
        ok % ("high-order pages", w),
    ])


def check_critical(h, w):
    """-w 5 -c 100: 152 is critical, 10 warns, 5 and 3 are within -w 5."""
    out = pc.run(CHECK, ["-w", "5", "-c", "100"], h.port)
    pc.expect(out, 2, [
        "DBLOCK CRITICAL - cpu1 backlog 152 failures, udp receive buffer 10 failures in the "
        "last %d s | %s" % (w, perfdata("5", "100")),
        "cpu1 backlog: CRITICAL, 152 failures in the last %d s (packet dropped: the CPU's input "
        "queue was full); in use 5 of 1000" % w,
        "tune: net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last "
        "%d s; %s)" % (w, NET_RST),
        *pc.ticket("softnet-drops", "softnet backlog", "net.core.netdev_max_backlog", "2000"),
        "udp receive buffer: WARNING, 10 failures in the last %d s (datagram dropped: socket "
        "receive buffer full); limit 212992" % w,
        "tune: net.core.rmem_max 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
        "tune: net.core.rmem_default 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
    ])
    return out


def check_ok(h, w):
    # The pools that had no failure, with the default -w 0.
    out = pc.run(CHECK, ["--pool", "memory"], h.port)
    pc.expect(out, 0, [
        "DBLOCK OK - no failures in 2 pools in the last %d s | %s %s" % (
            w, pc.perf("tcp_memory", 0, "", "0", "", "0"),
            pc.perf("udp_memory", 0, "", "0", "", "0"))])
    # Every pool, with thresholds above every figure: OK, and the summary
    # still says how many failures there were.
    out = pc.run(CHECK, ["-w", "200", "-c", "300"], h.port)
    pc.expect(out, 0, ["DBLOCK OK - 167 failures in 11 pools in the last %d s, none over a "
                       "threshold | %s" % (w, perfdata("200", "300"))])
    # Excluding the per-CPU pools leaves the two single pools that failed.
    out = pc.run(CHECK, ["--exclude-pool", "backlog|budget", "-w", "9"], h.port)
    pc.expect(out, 1, [
        "DBLOCK WARNING - udp receive buffer 10 failures in the last %d s | %s" % (
            w, " ".join(pc.perf(l, v, "", "9", "", "0")
                        for l, v in zip(LABELS[2:], FIGURES[2:]))),
        "udp receive buffer: WARNING, 10 failures in the last %d s (datagram dropped: socket "
        "receive buffer full); limit 212992" % w,
        "tune: net.core.rmem_max 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
        "tune: net.core.rmem_default 212992 -> 425984 (10 datagrams were dropped on full receive "
        "buffers in the last %d s; %s)" % (w, NET_RST),
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
    ])
    out = pc.run(CHECK, ["--pool", "^nothing$"], h.port)
    pc.expect(out, 3, ["DBLOCK UNKNOWN - no pool to judge (check --pool and --exclude-pool)"])
    return out


def check_other_systems(h, w):
    """--os freebsd names FreeBSD's tunables; it cannot read their values."""
    out = pc.run(CHECK, ["--os", "freebsd", "--pool", "udp receive"], h.port)
    pc.expect(out, 1, [
        "DBLOCK WARNING - udp receive buffer 10 failures in the last %d s | %s" % (
            w, pc.perf("udp_receive_buffer", 10, "", "0", "", "0")),
        "udp receive buffer: WARNING, 10 failures in the last %d s (datagram dropped: socket "
        "receive buffer full); limit 212992" % w,
        "tune: raise kern.ipc.maxsockbuf (current value unknown; 10 datagrams were dropped on "
        "full receive buffers in the last %d s; tuning(7))" % w,
        # No value known, so nothing to apply: the finding and its proof.
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "kern.ipc.maxsockbuf"),
        "tune: raise net.inet.udp.recvspace (current value unknown; 10 datagrams were dropped "
        "on full receive buffers in the last %d s; udp(4))" % w,
        *pc.ticket("udp-rcvbuf", "udp receive buffer", "net.inet.udp.recvspace"),
    ])


def test():
    with twtest.Harness("plugin-dblock") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        check_one_sample(h)
        agent_walk.change_fixture(root)
        h.sample_now()

        # The figures the plugin reports are the agent's, as worked out above.
        cols = pc.columns(h, [pc.oid("DBLOCK_RECENT_FAILURES", i) for i in
                              ("1.0", "1.1", "2.0", "2.1", "5.0", "8.0", "3.0", "4.0", "6.0",
                               "7.0", "10.0")])
        assert [cols[pc.oid("DBLOCK_RECENT_FAILURES", i)] for i in ("1.1", "2.0", "5.0", "8.0")] \
            == [152, 3, 10, 5]
        w = pc.window_s(pc.agent_span(h))

        outs = [check_default(h, w), check_critical(h, w)]
        check_verbose(h, w)
        check_ok(h, w)
        check_other_systems(h, w)
        ok = pc.run(CHECK, ["-w", "1000"], h.port)
        assert ok.rc == 0, ok
        # Perfdata labels do not depend on the state nor on the number of CPUs.
        for out in outs + [ok]:
            assert [p.label for p in out.perf] == LABELS, out


if __name__ == "__main__":
    twtest.main(test)
