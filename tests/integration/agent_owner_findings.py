#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Findings about an owner, end to end, on this machine's real kernel: a
socket, a probed device and a cgroup, each raised by tunewatchd (real /proc
and /sys, a sample a second, a 4 s window, findingRaiseAfter 2,
findingClearAfter 2, notificationsPerMinute 0: the ceiling) behind a real snmpd whose
trap2sink is a real snmptrapd handing each notification to snmptt
(trapsink.py: contrib's configurations).

1. Socket (socketDrop*): a UDP socket on 127.0.0.1 with SO_RCVBUF 1024
   that the test never reads gets bursts of 400 datagrams, until
   twFindingRaised arrives with the socket ("udp 127.0.0.1:PORT inode N",
   its whole identity) as its subject (at most 60 bursts): socket-rcvbuf
   with no tunable, since its
   buffer is below net.core.rmem_max, a warning by socketDropWarning 10.
   Its evidence names this process and pid, as twSocketDropTable's row
   does, and ends with the threshold it passed; snmptt's line carries it
   unchanged (nothing in it that snmptt strips), as it does the probe's
   and the cgroup's; its id is twFindingTable's row's
   (snmpwalk) and the one lib/advice/ticket.h's hash gives for its
   symptom, subject and tunable. The flood stops, the socket stays open:
   twFindingCleared arrives with the same id, after the raised one, once
   the row's recent drops are 0, and the finding's row is gone. snmptt
   writes a line for each.
2. Probe (probeLatency*): a loop device (--direct-io=on over a 64 MiB file
   in the build tree) probed 10 times a second, with probeLatencyWarning
   0.001 ms: every read is slower, so a finding with the device as its
   subject is raised, its evidence saying the threshold it passed, its id
   the table's.
3. Cgroup: a cgroup of the test's own (tw-trapsink-PID, not a unit: its
   path is its name) in the cgroup v1 memory controller, with a 64 MiB
   limit, and a reader in it re-reading a 200 MiB file on disk: a finding
   with the cgroup's directory as subject arrives, its id the table's. Its
   symptom is not asserted on (it is being given one of its own).

A part whose needs this machine lacks (root, losetup, a cgroup v1 memory
controller, a build tree on disk, snmptt) is skipped with its reason and
the test exits 77 after the others. Every wait is bounded; 15 to 30 s here."""

import contextlib
import os
import re
import socket
import subprocess
import time

import kernel_cgroup
import plugin_common as plc
import probe_common as prc
import twtest
from trapsink import CLEARED, RAISED, TrapSink, rows

INTERVAL = 1
WINDOW = 4
RAISE_AFTER = 2
CLEAR_AFTER = 2
BURSTS = 60
DATAGRAMS = 400
PROBE_MS = "0.001"
SOCK_WARN = "10"		# drops in the window; no critical: always a warning
CG_LIMIT = 64 << 20


def settle_s():
    """How long a change takes to show in a notification: the window, the
    hold-down, and room for a loaded machine."""
    return WINDOW + (max(RAISE_AFTER, CLEAR_AFTER) + 1) * INTERVAL + 20


def same_id(h, n, what):
    """n's id is its twFindingTable row's (by subject), and the hash of its
    symptom, subject and tunable. The row."""
    assert re.match(r"^tw-[0-9a-f]{12}$", n["ID"]), n
    assert n["ID"] == plc.ticket_id(n["SYMPTOM"], n["SUBJECT"], n.get("TUNABLE", "")), n
    table = rows(h)
    mine = [r for r in table.values() if r.get("SUBJECT") == n["SUBJECT"]]
    assert mine, "%s: no twFindingTable row about %r: %r" % (what, n["SUBJECT"], table)
    assert [r["ID"] for r in mine] == [n["ID"]], (what, n, mine)
    return mine[0]


def snmptt_line(sink, kind, fid):
    """snmptt's line for notification kind ("raised", "cleared") of fid."""
    want = "tunewatch finding %s on " % kind
    return twtest.wait_for("snmptt's %s line for %s" % (kind, fid), lambda: next(
        (l for l in sink.snmptt_lines() if want in l and l.endswith("[id %s]" % fid)), None))


# What snmptt removes from a variable's value (contrib/snmptt/tunewatch.conf).
SNMPTT_STRIPS = set(";[]<>$&*|?")


def carries_evidence(sink, n):
    """snmptt's raised line for notification n, which must carry its
    evidence as the agent sent it: nothing in it that snmptt strips."""
    assert not SNMPTT_STRIPS & set(n["EVIDENCE"]), n["EVIDENCE"]
    line = snmptt_line(sink, "raised", n["ID"])
    assert ("): %s; tune " % n["EVIDENCE"]) in line, (n["EVIDENCE"], line)
    return line


def socket_row(h, inode):
    """twSocketDropTable's row of the socket with this inode (UDP: 1.inode)."""
    v = twtest.as_dict(h.walk(twtest.oid("SOCKDROP_PROTOCOL_NAME", None).rsplit(".", 1)[0]))
    idx = "1.%d" % inode
    row = {}
    for name in ("LOCAL_PORT", "RECENT_DROPS", "OWNER_PID", "OWNER_COMMAND"):
        got = twtest.column(v, "SOCKDROP_" + name).get(idx)
        if got is not None:
            row[name] = got
    return row


def check_socket(h, sink):
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with rx, tx:
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        rx.bind(("127.0.0.1", 0))
        port = rx.getsockname()[1]
        inode = os.fstat(rx.fileno()).st_ino
        subject = "udp 127.0.0.1:%d inode %d" % (port, inode)

        def flood():
            for _ in range(DATAGRAMS):
                tx.sendto(b"x" * 200, ("127.0.0.1", port))
            return time.monotonic()

        raised, t0 = None, time.monotonic()
        for _ in range(BURSTS):
            last = flood()
            raised = next((n for n in sink.notifications(RAISED)
                           if n.get("SUBJECT") == subject), None)
            if raised:
                break
            time.sleep(0.3)
        assert raised, "no twFindingRaised about %s after %d bursts of %d datagrams" % (
            subject, BURSTS, DATAGRAMS)
        print("socket: raised %.1f s after the first burst: %r" % (time.monotonic() - t0,
                                                                   raised.columns))
        # One more burst: the drops stay in the window while the tables are read.
        last = flood()
        fid = raised["ID"]
        same_id(h, raised, "socket")
        # Its buffer (2304) is below rmem_max: the application's
        # SO_RCVBUF is the knob, no tunable of the host's.
        assert raised["SYMPTOM"] == "socket-rcvbuf" and raised.get("TUNABLE", "") == "", raised
        assert raised["SEVERITY"] == "1", raised
        # The threshold passed follows the evidence, which is written to
        # leave it room in a DisplayString (lib/finding/observe.c: with_note).
        note = " (warning range %s, drops in the window)" % SOCK_WARN
        assert raised["EVIDENCE"].endswith(note), raised
        owner = socket_row(h, inode)
        assert owner["LOCAL_PORT"].num == port, owner
        if "OWNER_COMMAND" in owner:
            with open("/proc/self/comm") as fh:
                comm = fh.read().strip()
            assert owner["OWNER_PID"].num == os.getpid(), owner
            assert owner["OWNER_COMMAND"].text.strip('"') == comm, owner
            who = "%s (pid %d) dropped " % (comm, os.getpid())
        else:
            who = "a process not found dropped "
        assert raised["EVIDENCE"].startswith(who), (who, raised)

        # The flood stops, the socket stays: cleared once its window is
        # quiet and findingClearAfter samples have passed.
        cleared = sink.wait_notification(CLEARED, "twFindingCleared %s" % fid,
                                         lambda n: n.get("ID") == fid, timeout=settle_s())
        print("socket: cleared %.1f s after the last burst" % (time.monotonic() - last))
        assert socket_row(h, inode)["RECENT_DROPS"].num == 0, socket_row(h, inode)
    assert cleared["SUBJECT"] == subject and cleared["SYMPTOM"] == raised["SYMPTOM"], cleared
    order = [n.trap for n in sink.notifications() if n.get("ID") == fid]
    assert order == [RAISED, CLEARED], "notifications of %s: %r" % (fid, order)
    assert not [r for r in rows(h).values() if r.get("ID") == fid], rows(h)
    if sink.snmptt:
        line = carries_evidence(sink, raised)
        assert re.search(re.escape(": %s on %s (" % (raised["SYMPTOM"], subject)) + "(warning|1)" +
                         re.escape("): " + who), line), line
        line = snmptt_line(sink, "cleared", fid)
        assert (": %s on %s, raised %s after 1970-01-01 UTC [id %s]" % (
            raised["SYMPTOM"], subject, cleared["RAISED"], fid)) in line, (cleared, line)


def check_probe(h, sink, lo):
    n = sink.wait_notification(RAISED, "twFindingRaised about %s" % lo.name,
                               lambda n: n.get("SUBJECT") == lo.name, timeout=settle_s())
    row = same_id(h, n, "probe")
    probe = prc.probe_row(h, lo.index())
    assert probe["DEVICE"].text.strip('"') == lo.name, probe
    assert n["SEVERITY"] in ("1", "2"), n
    if n["SEVERITY"] == "1":
        assert n["EVIDENCE"].endswith("(warning range %s, probe p90, ms)" % PROBE_MS), n
    if sink.snmptt:
        carries_evidence(sink, n)
    print("probe: %r; table %r" % (n.columns, row))


@contextlib.contextmanager
def memory_cgroup(name):
    """A cgroup v1 memory cgroup with CG_LIMIT, removed again."""
    path = os.path.join(kernel_cgroup.MEMCG, name)
    os.mkdir(path)
    try:
        with open(os.path.join(path, "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(CG_LIMIT))
        yield path
    finally:
        os.rmdir(path)


@contextlib.contextmanager
def data_file():
    """kernel_cgroup's 200 MiB file on disk, out of the cache, removed again."""
    path = os.path.join(twtest.TOP_BUILDDIR, "tw-trapsink-%d.data" % os.getpid())
    try:
        twtest.cold_file(path, kernel_cgroup.FILE_MIB)
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def check_cgroup(h, sink, cg, data):
    def into_cgroup():
        with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
            fh.write(str(os.getpid()))

    # Its subject is its directory, the whole path under the v1 memory
    # controller's mount.
    subject = cg
    # Reads until killed, bounded by its own clock too. It first waits out
    # a window, so that the interpreter's own start (some 8 MiB, more than
    # an eighth of the limit) has left the window when its refaults begin:
    # within it, a rise of that memory is told as a leak, no tunable.
    wait = WINDOW + 1
    reader = subprocess.Popen(["python3", "-c", "import time\ntime.sleep(%d)\n%s" % (
                               wait, kernel_cgroup.READER), data, str(settle_s() + 10)],
                              preexec_fn=into_cgroup)
    try:
        try:
            n = sink.wait_notification(RAISED, "twFindingRaised about %s" % subject,
                                       lambda n: n.get("SUBJECT") == subject,
                                       timeout=wait + settle_s())
        except AssertionError:
            # What the agent saw of it, for the next one who reads this:
            # its twCgroupTable row and twFindingTable's rows about it.
            path = "/" + os.path.relpath(cg, kernel_cgroup.MEMCG)
            try:
                print("its row: %r" % kernel_cgroup.cgroup_row(h, path))
            except AssertionError as e:
                print(e)
            print("findings: %r" % [r for r in rows(h).values()
                                    if "trapsink" in r.get("SUBJECT", "")])
            raise
        row = same_id(h, n, "cgroup")
        assert n["SEVERITY"] in ("1", "2"), n
        if sink.snmptt:
            carries_evidence(sink, n)
        print("cgroup: %r; table %r" % (n.columns, row))
    finally:
        reader.kill()
        reader.wait(timeout=30)


def probe_needs():
    """Why the probe part cannot run here, or None."""
    try:
        prc.need_root_tools()
    except twtest.Skip as e:
        return str(e)
    return None


def cgroup_needs():
    if os.geteuid() != 0 or not os.access(os.path.join(kernel_cgroup.MEMCG, "cgroup.procs"),
                                          os.W_OK):
        return "needs root and a cgroup v1 memory controller at %s" % kernel_cgroup.MEMCG
    if kernel_cgroup.on_tmpfs(twtest.TOP_BUILDDIR):
        return "the build tree is on tmpfs: its pages are not page cache that refaults"
    return None


def test():
    skipped = []
    with twtest.Harness("agent-owner-findings") as h, contextlib.ExitStack() as stack:
        sink = TrapSink(h)
        if not sink.snmptt:
            skipped.append("snmptt is not installed (Debian: snmptt): its lines were not checked")
        conf = ["findingRaiseAfter %d" % RAISE_AFTER, "findingClearAfter %d" % CLEAR_AFTER,
                "notificationsPerMinute 0", "socketDropWarning " + SOCK_WARN]
        lo = cg = data = None
        why = probe_needs()
        if why is None:
            lo = stack.enter_context(prc.Loop(prc.backing_path(h, "owner-findings"), 64))
            conf += ["probe %s 10" % lo.name, "probeIdleTime 0",
                     "probeLatencyWarning %s" % PROBE_MS, "probeLatencyCritical 60000"]
        else:
            skipped.append("probe: " + why)
        why = cgroup_needs()
        if why is None:
            # Before the agent starts: its first walk of the hierarchy finds it.
            cg = stack.enter_context(memory_cgroup("tw-trapsink-%d" % os.getpid()))
            data = stack.enter_context(data_file())
        else:
            skipped.append("cgroup: " + why)

        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        # The agent stops before the loop device and the cgroup go.
        stack.callback(h.stop_all)
        h.start_agent(None, None, interval=INTERVAL, window=WINDOW,
                      args=["-c", prc.write_conf(h, conf)])
        log = prc.agent_log(h)
        assert "Error" not in log and "Unknown token" not in log, log
        t0 = time.monotonic()
        check_socket(h, sink)
        if lo:
            check_probe(h, sink, lo)
        if cg:
            check_cgroup(h, sink, cg, data)
        print("all parts in %.1f s after the agent started" % (time.monotonic() - t0))
        print("---- snmptt output ----\n%s" % sink.text(sink.snmptt_log))
    if skipped:
        raise twtest.Skip("; ".join(skipped))


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
