#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control for UDP memory: a busy syslog-like receiver whose
sockets drop on their own full buffers, with UDP's memory far from
net.ipv4.udp_mem.

udp_mem is global on this kernel (a child namespace has no such file), so,
as scenario_net_udp_mem.py, tunewatchd and the workload run in the host's
namespace, the traffic on 127.0.0.1. SOCKETS sockets with small buffers
(SO_RCVBUF 8192), read by one receiver that cannot keep up, get a flood of
syslog-sized datagrams for FLOOD_S seconds. The kernel counts every drop
in the sockets' drops, in Udp RcvbufErrors and in InErrors, and none in
MemErrors; UDP memory in use stays a small part of udp_mem.

The right answer: the sockets' buffers (their own SO_RCVBUF), never UDP
memory. check_dblock, run every few seconds of the flood and a window
after, never says the udp memory pool failed nor names net.ipv4.udp_mem,
and tunewatchd raises no finding about udp memory. (Before issue 34 the
sockets' drops read at one moment were compared with InErrors read at
another, and a flood like this one made "udp memory: WARNING, 60
failures" with a sysctl -w net.ipv4.udp_mem line.) The socket and receive
buffer findings the drops do raise are listed, as they should be raised.
"""

import socket
import time

import labcore
import labknobs

META = {"name": "net-syslog", "kind": "healthy",
        "symptom": "a busy syslog-like receiver dropping on its own buffers, UDP memory far "
                   "from udp_mem: no udp memory finding"}

SOCKETS = 20
FLOOD_S = 20
EVERY_S = 2.0
RANK = {"OK": 0, "WARNING": 1, "CRITICAL": 2, "UNKNOWN": 3}


def udp_mem_in_use():
    with open("/proc/net/sockstat") as fh:
        for line in fh:
            f = line.split()
            if f[0] == "UDP:":
                return int(f[f.index("mem") + 1])
    return 0


def run(lab):
    limit = int(lab.read_sysctl("net.ipv4.udp_mem").split()[0])
    lab.result["where"] = "the host's namespace (udp_mem is global), traffic on 127.0.0.1"
    lab.result["setup"] = "%d sockets with SO_RCVBUF 8192, one receiver that cannot keep up" % (
        SOCKETS)
    res = lab.result
    res["workload"] = "a flood of syslog-sized datagrams for %d s" % FLOOD_S
    worst, seen, udp_memory, mem = {"check_dblock": "OK"}, {}, [], 0
    advice = {}
    before = labcore.netstat(path="/proc/net/snmp")["Udp"]
    with labcore.Stack(lab) as stack:
        workload = labcore.Workload(lab, labcore.workload_argv(__file__, "syslog"))
        with workload:
            t0 = time.monotonic()
            end = t0 + FLOOD_S + stack.window + 3 * stack.interval
            while time.monotonic() < end:
                time.sleep(EVERY_S)
                mem = max(mem, udp_mem_in_use())
                out = stack.check("check_dblock")
                for a in labcore.advice_of(out):
                    advice.setdefault(a.line, a)
                if RANK.get(out.state, 3) > RANK[worst["check_dblock"]]:
                    worst["check_dblock"] = out.state
                p = out.perf_map().get("udp_memory")
                udp_memory.append(float(p.value) if p is not None else None)
                assert "net.ipv4.udp_mem" not in out.stdout, out.stdout
                for row in stack.findings().values():
                    seen.setdefault(row.get("ID"), row)
    after = labcore.netstat(path="/proc/net/snmp")["Udp"]
    counted = {k: after[k] - before[k] for k in ("InErrors", "RcvbufErrors", "MemErrors")}
    res["worst"] = worst
    res["findings"] = sorted("%s on %s" % (r.get("SYMPTOM"), r.get("SUBJECT"))
                             for r in seen.values())[:8]
    res.note("Udp InErrors +%(InErrors)d, RcvbufErrors +%(RcvbufErrors)d, MemErrors "
             "+%(MemErrors)d while it ran" % counted)
    res.note("UDP memory in use at most %d pages, udp_mem's first value %d; the udp memory "
             "pool's failures in the window at each check: %s" % (
                 mem, limit, ", ".join("%g" % x for x in udp_memory if x is not None)))
    assert counted["RcvbufErrors"] > 10000, "the flood dropped too little: %r" % counted
    assert mem * 10 < limit, "UDP memory was not far from udp_mem: %d of %d" % (mem, limit)
    assert udp_memory and all(x == 0 for x in udp_memory), udp_memory
    mine = [r for r in seen.values() if r.get("SUBJECT") == "udp memory" or
            "udp_mem" in r.get("TUNABLE", "")]
    assert not mine, "a udp memory finding: %r" % mine
    labknobs.sort(lab, seen.values(), advice.values())


def syslog():
    socks = []
    for _ in range(SOCKETS):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
        s.bind(("127.0.0.1", 0))
        s.setblocking(False)
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"<13>Dec  7 10:14:00 web1 app: " + b"x" * 200
    end = time.monotonic() + FLOOD_S
    sent = 0
    while time.monotonic() < end:
        for p in ports:
            tx.sendto(payload, ("127.0.0.1", p))
            sent += 1
        for s in socks[:2]:
            try:
                s.recv(2048)
            except BlockingIOError:
                pass
    labcore.emit(sent=sent, ports=ports)
    time.sleep(3600)	# keep the sockets until the scenario stops the workload


if __name__ == "__main__":
    labcore.main(META, run, {"syslog": syslog})
