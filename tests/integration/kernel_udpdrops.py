#!/usr/bin/env python3
"""A UDP socket that drops, on this machine's kernel, found in
twSocketDropTable and in check_dblock, attributed to this test's own
process.

1. tunewatchd samples the real /proc behind a private snmpd. The test
   opens a UDP socket on 127.0.0.1 with SO_RCVBUF 1024 (the kernel makes
   it 2304, its minimum) and never reads it.
2. It sends 2,000 datagrams of 200 bytes to it over loopback: the buffer
   holds a few, the kernel drops the rest and counts them in the socket's
   drops column of /proc/net/udp.
3. After a sample, snmpwalk finds the socket's row (protocol 1, its inode):
   address and port, the drops /proc/net/udp shows, recent drops, this
   process's pid and command, the buffer getsockopt reports and
   net.core.rmem_max beside it.
4. check_dblock warns on the socket as a pool of its own, names this
   process, and, since the buffer is far below rmem_max, says "no tunable"
   and names SO_RCVBUF rather than a sysctl.
5. A second socket sets no SO_RCVBUF: the kernel gives it
   net.core.rmem_default, and check_dblock names rmem_default, doubled,
   as the knob that reaches it once it is made again (when rmem_default
   is below rmem_max on this machine).
6. Again with a second socket and `sockOwnerBudget 1` (1 ms of CPU a
   sample for the owner search, which reads this machine's /proc a slice
   a sample): while twSockDropOwnerSearch is searching(2) the row has no
   owner and check_dblock says "owner: searching"; the samples that
   follow, though the drops no longer grow, carry the search on until it
   is found(3), this process again. How many samples that takes depends
   on the processes below this one's pid; the test prints it.

Everything is on loopback and counted; it takes a few seconds."""

import os
import re
import socket

import plugin_common as pc
import twtest

DATAGRAMS = 2000
SEARCHING, FOUND = 2, 3     # twSockDropOwnerSearch


def udp_drops(inode):
    """The drops column of the socket with this inode in /proc/net/udp."""
    with open("/proc/net/udp") as fh:
        for line in fh.read().splitlines()[1:]:
            f = line.split()
            if int(f[9]) == inode:
                return int(f[12])
    raise AssertionError("socket inode %d not in /proc/net/udp" % inode)


def flood(port):
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _ in range(DATAGRAMS):
            tx.sendto(b"x" * 200, ("127.0.0.1", port))
    finally:
        tx.close()


def dropping_socket():
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    rx.bind(("127.0.0.1", 0))
    return rx


def sliced_search(h, comm):
    """Step 5: the owner search a slice a sample."""
    conf = os.path.join(h.dir, "tunewatchd.conf")
    with open(conf, "w") as fh:
        fh.write("sockOwnerBudget 1\n")
    h.stop(h.agent)
    # A window of many intervals: the drops stay recent while it searches.
    h.start_agent(interval=600, window=86400, args=["-c", conf])
    rx = dropping_socket()
    try:
        port = rx.getsockname()[1]
        idx = "1.%d" % os.fstat(rx.fileno()).st_ino
        h.sample_now()
        flood(port)
        states = []
        while not states or (states[-1] == SEARCHING and len(states) < 100):
            h.sample_now()
            v = twtest.as_dict(h.walk(twtest.oid("SOCKDROP_PROTOCOL_NAME", None)
                                      .rsplit(".", 1)[0]))
            states.append(twtest.column(v, "SOCKDROP_OWNER_SEARCH")[idx].num)
            if states[-1] != SEARCHING:
                break
            assert idx not in twtest.column(v, "SOCKDROP_OWNER_PID"), v
            out = pc.run("check_dblock", ["--pool", "^udp 127\\.0\\.0\\.1:%d$" % port],
                         port=h.port)
            want = "udp 127.0.0.1:%d (owner: searching): WARNING, " % port
            assert any(l.startswith(want) for l in out.lines), "no %r in %r" % (want, out)
        assert states[-1] == FOUND, states
        assert all(s == SEARCHING for s in states[:-1]), states
        assert twtest.column(v, "SOCKDROP_OWNER_PID")[idx].num == os.getpid()
        assert twtest.column(v, "SOCKDROP_OWNER_COMMAND")[idx].text.strip('"') == comm
        print("sockOwnerBudget 1: owner found in sample %d after the drops" % len(states))
    finally:
        rx.close()


def test():
    with open("/proc/self/comm") as fh:
        comm = fh.read().strip()
    with open("/proc/sys/net/core/rmem_max") as fh:
        rmem_max = int(fh.read())
    with open("/proc/sys/net/core/rmem_default") as fh:
        rmem_default = int(fh.read())
    with twtest.Harness("kernel_udpdrops") as h:
        h.start_snmpd()
        # A long interval: the test takes its samples itself (SIGUSR1).
        h.start_agent(interval=3600, window=3600)
        rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        dflt = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            dflt.bind(("127.0.0.1", 0))
            dport = dflt.getsockname()[1]
            assert dflt.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == rmem_default
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            rx.bind(("127.0.0.1", 0))
            port = rx.getsockname()[1]
            rcvbuf = rx.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
            inode = os.fstat(rx.fileno()).st_ino
            h.sample_now()
            for _ in range(DATAGRAMS):
                tx.sendto(b"x" * 200, ("127.0.0.1", port))
                tx.sendto(b"x" * 200, ("127.0.0.1", dport))
            drops = udp_drops(inode)
            assert 0 < drops < DATAGRAMS, "drops %d of %d datagrams" % (drops, DATAGRAMS)
            h.sample_now()

            v = twtest.as_dict(h.walk(twtest.oid("SOCKDROP_PROTOCOL_NAME", None).rsplit(".", 1)[0]))
            idx = "1.%d" % inode

            def cell(name):
                got = twtest.column(v, name)
                assert idx in got, "no %s.%s in the walk: %r" % (name, idx, sorted(got))
                return got[idx]

            assert cell("SOCKDROP_PROTOCOL_NAME").text.strip('"') == "udp"
            assert cell("SOCKDROP_LOCAL_ADDRESS").text.strip('"') == "127.0.0.1"
            assert cell("SOCKDROP_LOCAL_PORT").num == port
            assert cell("SOCKDROP_DROPS").num == drops, (cell("SOCKDROP_DROPS"), drops)
            assert cell("SOCKDROP_RECENT_DROPS").num == drops
            assert cell("SOCKDROP_OWNER_PID").num == os.getpid()
            assert cell("SOCKDROP_OWNER_COMMAND").text.strip('"') == comm
            assert cell("SOCKDROP_OWNER_SEARCHES_CUT").num == 0
            assert cell("SOCKDROP_OWNER_SEARCH").num == FOUND
            assert cell("SOCKDROP_RCVBUF").num == rcvbuf, (cell("SOCKDROP_RCVBUF"), rcvbuf)
            assert cell("SOCKDROP_RMEM_MAX").num == rmem_max

            out = pc.run("check_dblock", ["--pool", "^udp 127\\.0\\.0\\.1:%d " % port],
                         port=h.port)
            assert out.rc == 1, "want WARNING: %r" % out
            name = "udp 127.0.0.1:%d %s" % (port, comm)
            want = ("%s (pid %d): WARNING, %d failures in the last " % (name, os.getpid(), drops))
            assert any(l.startswith(want) for l in out.lines), "no %r in %r" % (want, out)
            none = [l for l in out.lines if l.startswith("no tunable: ")]
            assert len(none) == 1, out
            assert re.match(r"no tunable: %s \(pid %d\) dropped [0-9,]+ datagrams in the last "
                            r"\d+ s, buffer %d bytes, under net\.core\.rmem_max .*SO_RCVBUF" % (
                                re.escape(comm), os.getpid(), rcvbuf), none[0]), none[0]
            assert not [l for l in out.lines if l.startswith("tune: ")], out

            # The socket that set nothing has rmem_default's buffer.
            if rmem_default < rmem_max:
                out = pc.run("check_dblock", ["--pool", "^udp 127\\.0\\.0\\.1:%d " % dport],
                             port=h.port)
                assert out.rc == 1, "want WARNING: %r" % out
                assert not [l for l in out.lines if l.startswith("no tunable: ")], out
                tune = [l for l in out.lines if l.startswith("tune: ")]
                assert len(tune) == 1, out
                assert tune[0].startswith("tune: net.core.rmem_default %d -> %d (" % (
                    rmem_default, 2 * rmem_default)), tune[0]
                assert (", buffer rmem_default %d, given to a socket that sets no SO_RCVBUF "
                        "when it is made: restart it; " % rmem_default) in tune[0], tune[0]
                print("a socket without SO_RCVBUF: buffer %d = rmem_default, rmem_max %d"
                      % (rmem_default, rmem_max))
        finally:
            rx.close()
            tx.close()
            dflt.close()
        sliced_search(h, comm)


if __name__ == "__main__":
    twtest.main(test)
