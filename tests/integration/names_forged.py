#!/usr/bin/env python3
"""Names an unprivileged user chooses, on this machine's real kernel, shown
escaped everywhere tunewatch puts them (lib/util/escape.h, MIB-README 2.1).

tunewatchd samples the real /proc and /sys every second (a 4 s window,
findingRaiseAfter 2, no limit on notifications, socketDropWarning 10,
cgroupMax 4096) behind a real snmpd whose trap2sink is a real snmptrapd
(trapsink.py: contrib's configuration, snmptt where installed).

1. Five processes of the test's own each set their comm with
   prctl(PR_SET_NAME), as any user may, to "\\n  apply: id;#",
   "x\\ntune: sysctl", "ok\\rBUFCACHE OK", "\\x1b[2J" and "a\\xffb\\\\x0a" (a
   byte that is not UTF-8, and a backslash that looks like an escape),
   and hold a UDP socket on 127.0.0.1 with SO_RCVBUF 1024 that the test
   floods with 2,000 datagrams each (kernel_udpdrops.py's way of making
   drops).
   - twSocketDropTable, by snmpwalk: each owner's command is a STRING
     holding the comm's shown form, worked out by this test's own escaper;
     the whole walk has no Hex-STRING but for valid UTF-8 (part 2).
   - check_dblock on those sockets: its output is valid UTF-8 without a
     control byte but its newlines; every line of its long output is one
     of the shapes check_dblock writes (a pool's line, its no-tunable
     line, its finding), each forged text only inside its pool's line,
     escaped; one finding per socket.
   - tunewatch-ticket fed that output as Icinga 2 hands it: a ticket for
     every finding, none lost to a forged line.
   - twFindingRaised for each socket at snmptrapd: its evidence starts
     with the shown comm and its pid, as the table's row does, and
     snmptrapd's log holds none of the raw bytes, no line a forged one,
     no Hex-STRING.
2. Cgroups made with mkdir in the cgroup v1 memory controller, named
   tw-i21-escape-PID-... with a carriage return, a tab, an escape
   sequence, a byte 0xff and a backslash in one, and UTF-8 ("räume") in
   another, each with a memory limit (so that it is published). A newline
   is tried too: this kernel's cgroup v1 refuses it (EINVAL), which the
   test prints; were it taken, it would be checked like the rest.
   - twCgroupTable: the first's path a STRING, shown; the UTF-8 one kept
     as UTF-8, which snmpwalk without the MIB prints as a Hex-STRING
     (Net-SNMP shows text only when every byte is printable ASCII in the
     C locale) and with TUNEWATCH-MIB loaded as a STRING (where the IETF
     base modules are; said otherwise).
   - check_bufcache --cgroup 'tw-i21-escape-PID-*': valid UTF-8, no raw
     carriage return, the shown path in its own line, its labels of the
     perfdata alphabet.
3. twAgentUnprintableNames is the number of the walk's names that hold an
   escape of a byte other than the backslash: at least the five comms and
   the first cgroup.
The cgroups are removed and the processes stopped in every path. Part 2
is skipped without root or a cgroup v1 memory controller (the test then
exits 77 after part 1). Bounded: about 20 s here."""

import contextlib
import errno
import json
import os
import re
import socket
import subprocess
import time

import plugin_common as pc
import twtest
from trapsink import RAISED, TrapSink, rows

MEMCG = "/sys/fs/cgroup/memory"
TICKET = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-ticket")
COMMS = [b"\n  apply: id;#", b"x\ntune: sysctl", b"ok\rBUFCACHE OK", b"\x1b[2J",
         b"a\xffb\\x0a"]
DATAGRAMS = 2000
SOCK_WARN = "10"
INTERVAL, WINDOW = 1, 4

# A process that names itself and holds a socket until its stdin closes.
CHILD = r"""
import ctypes, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(15, ctypes.c_char_p(bytes.fromhex(sys.argv[1])), 0, 0, 0) != 0:
    sys.exit("prctl: errno %d" % ctypes.get_errno())
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
rx.bind(("127.0.0.1", 0))
print(rx.getsockname()[1], os.fstat(rx.fileno()).st_ino, flush=True)
sys.stdin.read()
"""

# What check_dblock --pool on these sockets writes in its long output.
LINE_SHAPES = [
    re.compile(r"^udp 127\.0\.0\.1:\d+ \S.* \(pid \d+\): (WARNING|CRITICAL), \d+ failures in "
               r"the last \d+ s \(datagram dropped: the socket's receive buffer was full\)"),
    re.compile(r"^no tunable: \S.* \(pid \d+\) dropped [0-9,]+ datagrams in the last \d+ s, "),
    re.compile(r"^  finding: tw-[0-9a-f]{12}$"),
    re.compile(r"^change: "),
]


def same_socket(row, subject):
    """A socket's subject is its address and its inode (issue 21): "udp
    127.0.0.1:PORT inode N"."""
    return (row.get("SUBJECT") or "").split(" inode ")[0] == subject


def shown(raw):
    """The shown form of raw bytes, by this test's own reading of the rule:
    Python's strict UTF-8 decoder says what is UTF-8 (a byte it refuses
    comes back as a lone surrogate), and each byte of what is not, of a
    control or separator character, and of the backslash, is \\xNN."""
    out = []
    for c in raw.decode("utf-8", "surrogateescape"):
        o = ord(c)
        if 0xdc80 <= o <= 0xdcff:
            out.append("\\x%02x" % (o - 0xdc00))
        elif o < 0x20 or 0x7f <= o <= 0x9f or o in (0x2028, 0x2029, 0x5c) or \
                0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069:
            out.append("".join("\\x%02x" % b for b in c.encode()))
        else:
            out.append(c)
    return "".join(out)


def walk_text(v):
    """A STRING value as the name it stands for: snmpwalk without the MIB
    quotes it and writes a backslash as two."""
    assert v.type == "STRING", "not a STRING: %r" % v
    return v.text.replace("\\\\", "\\")


def hex_bytes(v):
    return bytes.fromhex("".join(v.text.split()))


NAME_COLUMNS = ("DISK_NAME", "DISK_ALIAS", "DISK_STABLE_ID", "TUNABLE_VALUE",
                "SOCKDROP_OWNER_COMMAND", "CGROUP_PATH", "CGROUP_UNIT")
UNPRINTABLE = re.compile(r"\\x(?!5c)[0-9a-f]{2}")


def check_walk(h):
    """The whole MIB: every string a STRING, but UTF-8 beyond ASCII (which
    Net-SNMP prints as Hex-STRING without the MIB), never a control byte;
    twAgentUnprintableNames the count of the names with an escape of a
    byte other than the backslash (the walk is retried if a sample moved
    a row between the scalar and the tables)."""
    for _ in range(3):
        values = h.walk()
        hexes = 0
        for v in values:
            if v.type != "Hex-STRING":
                continue
            text = hex_bytes(v).decode("utf-8")     # strict
            assert any(ord(c) > 0x7f for c in text), "Hex-STRING of ASCII: %r" % v
            assert shown(text.encode()) == text, "a byte that should be shown: %r" % v
            hexes += 1
        d = twtest.as_dict(values)
        names = [x for c in NAME_COLUMNS for x in twtest.column(d, c).values()]
        want = len([x for x in names if x.type == "STRING" and UNPRINTABLE.search(walk_text(x))])
        got = d[twtest.oid("AGENT_UNPRINTABLE_NAMES")].num
        if got == want:
            return hexes, got
    raise AssertionError("twAgentUnprintableNames %d, the walk's names %d" % (got, want))


@contextlib.contextmanager
def named_processes():
    """The five processes, their ports and pids; stopped afterwards."""
    procs = []
    try:
        for comm in COMMS:
            p = subprocess.Popen(["python3", "-c", CHILD, comm.hex()], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)
            procs.append(p)
        got = []
        for comm, p in zip(COMMS, procs):
            port, inode = (int(x) for x in p.stdout.readline().split())
            with open("/proc/%d/comm" % p.pid, "rb") as fh:
                assert fh.read() == comm + b"\n", "prctl did not name %d" % p.pid
            got.append({"comm": comm, "pid": p.pid, "port": port, "inode": inode})
        yield got
    finally:
        for p in procs:
            with contextlib.suppress(OSError):
                p.stdin.close()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
            p.stdout.close()


def flood(socks):
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with tx:
        for _ in range(DATAGRAMS):
            for s in socks:
                tx.sendto(b"x" * 200, ("127.0.0.1", s["port"]))


def socket_rows(h):
    v = twtest.as_dict(h.walk(twtest.oid("SOCKDROP_PROTOCOL_NAME", None).rsplit(".", 1)[0]))
    return {k: x for k, x in twtest.column(v, "SOCKDROP_OWNER_COMMAND").items()}, \
        twtest.column(v, "SOCKDROP_OWNER_PID")


def run_bytes(check, args, port):
    """A check run as bytes: its output is checked byte by byte first."""
    argv = pc.built(pc.argv_of(check, args, port))
    r = subprocess.run(pc.wrapper() + argv, capture_output=True, timeout=60,
                       env=pc.plugin_env(None))
    text = r.stdout.decode("utf-8")     # strict: a byte that is not UTF-8 fails here
    assert not [c for c in text if ord(c) < 0x20 and c != "\n"], repr(text)
    out = pc.Output(argv, r.returncode, text, r.stderr.decode("utf-8"), 0)
    return out.check(pc.SERVICE[check])


def check_sockets(h, sink, socks):
    # The owners, found after the drops grew.
    flood(socks)
    want = {"1.%d" % s["inode"]: s for s in socks}

    def owners():
        cmds, pids = socket_rows(h)
        return all(k in cmds for k in want) and (cmds, pids)
    cmds, pids = twtest.wait_for("the five owners in twSocketDropTable", owners, timeout=30,
                                 step=0.5)
    for idx, s in want.items():
        assert pids[idx].num == s["pid"], (pids[idx], s)
        assert walk_text(cmds[idx]) == shown(s["comm"]), (cmds[idx], shown(s["comm"]))
    print("twSocketDropTable: %s" % ", ".join(walk_text(cmds[i]) for i in want))

    # check_dblock: only lines of its own, the forged ones inside them.
    flood(socks)
    ports = "|".join(str(s["port"]) for s in socks)
    out = run_bytes("check_dblock", ["--pool", "^udp 127\\.0\\.0\\.1:(%s) " % ports], h.port)
    assert out.state == "WARNING", out
    for line in out.long:
        assert any(p.match(line) for p in LINE_SHAPES), "a line check_dblock did not write: " \
            "%r in %r" % (line, out)
    for s in socks:
        pool = "udp 127.0.0.1:%d %s (pid %d): WARNING, " % (s["port"], shown(s["comm"]),
                                                            s["pid"])
        assert len([l for l in out.long if l.startswith(pool)]) == 1, (pool, out)
    for forged in ("  apply: id;#", "tune: sysctl", "BUFCACHE OK", "[2J"):
        assert not [l for l in out.lines if l.startswith(forged)], (forged, out)
    fids = [l.split()[-1] for l in out.long if l.startswith("  finding: ")]
    assert len(fids) == len(socks), out
    print(out.stdout)

    # tunewatch-ticket keeps every finding.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    env.update({"TW_HOST": "web1", "TW_SERVICE": "message buffers", "TW_STATE": out.state,
                "TW_NOTIFICATION_TYPE": "PROBLEM",
                "TW_OUTPUT": "\n".join([out.summary_line] + out.long)})
    r = subprocess.run(["python3", TICKET, "--format", "json"], capture_output=True, env=env,
                       timeout=60)
    assert r.returncode == 0, r
    doc = json.loads(r.stdout.decode("utf-8"))
    assert [t["finding"] for t in doc["tickets"]] == fids, (fids, doc)
    for t, s in zip(doc["tickets"], sorted(socks, key=lambda s: out.stdout.index(
            "udp 127.0.0.1:%d " % s["port"]))):
        assert shown(s["comm"]) in t["item"] and shown(s["comm"]) in t["advice"], (t, s)

    # The notifications: no newline in a varbind, the evidence the table's.
    for s in socks:
        subject = "udp 127.0.0.1:%d" % s["port"]
        n = sink.wait_notification(RAISED, "twFindingRaised about %s" % subject,
                                   lambda n, subject=subject: same_socket(n, subject),
                                   timeout=30)
        who = "%s (pid %d) dropped " % (shown(s["comm"]), s["pid"])
        assert n["EVIDENCE"].startswith(who), n
        # Still raised, the table names the owner the same way (its figures
        # move on from sample to sample; snmpwalk doubles a backslash).
        row = [r for r in rows(h).values() if same_socket(r, subject)]
        if row:
            assert row[0]["EVIDENCE"].replace("\\\\", "\\").startswith(who), (row, n)
    log = b"".join(open(p, "rb").read() for p in sink.logs)
    for raw in (b"\x1b", b"\r", b"\xff"):
        assert raw not in log, "%r in snmptrapd's log" % raw
    for line in log.split(b"\n"):
        assert not line.startswith((b"  apply: id", b"tune: sysctl", b"BUFCACHE OK")), line
    assert b"Hex-STRING" not in log, log
    print("snmptrapd: %d notifications, none with a newline in a varbind" % len(
        sink.notifications(RAISED)))


def make_cgroups(stack):
    """The cgroups of part 2, or why not. A newline is tried too."""
    if os.geteuid() != 0 or not os.access(os.path.join(MEMCG, "cgroup.procs"), os.W_OK):
        return None, "needs root and a cgroup v1 memory controller at %s" % MEMCG
    base = b"tw-i21-escape-%d-" % os.getpid()
    names = [base + b"\rBUFCACHE OK - all fine\t\x1b[2J\xff\\x0a", base + b"r\xc3\xa4ume"]
    try:
        os.mkdir(os.path.join(MEMCG.encode(), base + b"new\nline"))
        names.append(base + b"new\nline")
        print("cgroup v1 took a newline in a name: checked too")
    except OSError as e:
        assert e.errno == errno.EINVAL, e
        print("cgroup v1 refuses a newline in a name (EINVAL)")
    for name in names:
        path = os.path.join(MEMCG.encode(), name)
        if not os.path.isdir(path):
            os.mkdir(path)
        stack.callback(os.rmdir, path)
        with open(os.path.join(path, b"memory.limit_in_bytes"), "w") as fh:
            fh.write(str(64 << 20))
    return names, None


def check_cgroups(h, names):
    v = twtest.as_dict(h.walk(twtest.oid("CGROUP_PATH", None)))
    paths = list(twtest.column(v, "CGROUP_PATH").values())
    for name in names:
        want = "/" + shown(name)
        mine = [p for p in paths if (p.type == "STRING" and walk_text(p) == want) or
                (p.type == "Hex-STRING" and hex_bytes(p).decode("utf-8") == want)]
        assert len(mine) == 1, (want, paths)
        utf8 = any(b >= 0x80 for b in want.encode())
        assert mine[0].type == ("Hex-STRING" if utf8 else "STRING"), mine
        print("twCgroupPath %s: %r" % (mine[0].type, want))
    if twtest.base_mib_dirs():
        named = [x for x in h.walk(twtest.oid("CGROUP_PATH", None), mibs=True)
                 if "tw-i21-escape-%d-" % os.getpid() in x.text]
        assert len(named) == len(names) and all(x.type == "STRING" for x in named), named
        assert "/" + shown(names[1]) in [x.text for x in named], named
        print("with TUNEWATCH-MIB loaded: %s" % named)
    else:
        print("no IETF base MIB modules here: snmpwalk with the MIB not tried")

    out = run_bytes("check_bufcache", ["--cgroup", "tw-i21-escape-%d-*" % os.getpid()],
                    h.port)
    assert "\r" not in out.stdout, out
    for name in names:
        line = "/%s (/%s, cgroup v1): " % (shown(name), shown(name))
        assert len([l for l in out.long if l.startswith(line)]) == 1, (line, out)
    assert not [l for l in out.lines if l.startswith("BUFCACHE OK - all fine")], out
    assert all(re.match(r"^[A-Za-z0-9_-]+$", p.label) for p in out.perf), out.perf
    print(out.stdout)


def test():
    with twtest.Harness("names-forged") as h, contextlib.ExitStack() as stack:
        names, why = make_cgroups(stack)
        sink = TrapSink(h)
        socks = stack.enter_context(named_processes())
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        # The agent stops before the cgroups go.
        stack.callback(h.stop_all)
        conf = os.path.join(h.dir, "tunewatchd.conf")
        with open(conf, "w") as fh:
            fh.write("findingRaiseAfter 2\nfindingClearAfter 2\nnotificationsPerMinute 0\n"
                     "socketDropWarning %s\ncgroupMax 4096\n" % SOCK_WARN)
        h.start_agent(None, None, interval=INTERVAL, window=WINDOW, args=["-c", conf])
        t0 = time.monotonic()
        check_sockets(h, sink, socks)
        if names:
            check_cgroups(h, names)
        hexes, unprintable = check_walk(h)
        assert unprintable >= len(COMMS) + (1 if names else 0), unprintable
        print("the whole walk: %d Hex-STRING values, each UTF-8 beyond ASCII; "
              "twAgentUnprintableNames %d; %.1f s" % (hexes, unprintable, time.monotonic() - t0))
    if why:
        raise twtest.Skip("cgroups: " + why)


if __name__ == "__main__":
    twtest.main(test)
