#!/usr/bin/env python3
"""The lab's own restore, tested: a scenario interrupted mid-run leaves the
host as it found it.

For each victim scenario (net_listen, which changes a sysctl of its own
namespace, net_softnet and net_tcp_mem, which change global ones; or
those named in TW_LAB_RESTORE_VICTIMS), it takes a snapshot of the host's
settings (every readable file of /proc/sys/net/core, /proc/sys/net/ipv4
and /proc/sys/vm), starts the scenario, waits until its journal shows it
has changed something (and its workload has started), interrupts it with
SIGINT, and then holds the host to the snapshot: every value the same,
none of the scenario's network namespaces left, its journal gone (all
undone), none of its processes left. A last run (net_softnet: a global sysctl, a namespace, and
processes on the host) is killed with SIGKILL,
which no handler sees: its journal stays behind, and
Journal.replay_stale(), which the runner calls before each lab, undoes
it; the host is held to the snapshot again.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import labcore
import labjournal

META = {"name": "lab-restore", "kind": "lab",
        "symptom": "a scenario interrupted (SIGINT, and SIGKILL then the runner's replay) "
                   "leaves every host setting as it was"}

HERE = os.path.dirname(os.path.abspath(__file__))
# Values the kernel changes by itself, not settings.
VOLATILE = {"/proc/sys/vm/stat_refresh", "/proc/sys/vm/drop_caches",
            "/proc/sys/vm/compact_memory"}


def snapshot():
    snap = {}
    for d in ("/proc/sys/net/core", "/proc/sys/net/ipv4", "/proc/sys/vm"):
        for p in sorted(glob.glob(d + "/*")):
            if p in VOLATILE or not os.path.isfile(p):
                continue
            try:
                with open(p) as fh:
                    snap[p] = fh.read()
            except OSError:
                continue
    return snap


def differences(a, b):
    return ["%s: %r -> %r" % (k, a[k], b.get(k)) for k in sorted(a) if a[k] != b.get(k)]


VICTIMS = "net_listen,net_tcp_mem,net_softnet"


def victims():
    names = os.environ.get("TW_LAB_RESTORE_VICTIMS", VICTIMS)
    return [os.path.join(HERE, "scenario_%s.py" % n) for n in names.split(",")]


def journal_of(pid):
    found = glob.glob(os.path.join(labjournal.STATE_DIR, "*-%d.journal" % pid))
    return found[0] if found else None


def entries(path):
    try:
        with open(path) as fh:
            return [json.loads(l) for l in fh if l.strip()]
    except (OSError, ValueError):
        return []


def interrupt(lab, path, sig):
    """Start scenario path, interrupt it with sig once its stack and
    workload run; returns (exit code, journal entries seen, seconds in)."""
    p = subprocess.Popen([sys.executable, "-B", path], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    t0 = time.monotonic()
    try:
        # The workload is running once a workload process of the scenario
        # is: it is the last thing started before the loop waits.
        def running():
            j = journal_of(p.pid)
            if j is None or not entries(j):
                return None
            r = subprocess.run(["pgrep", "-f", "--", "%s --workload" % os.path.basename(path)],
                               capture_output=True, text=True)
            return j if r.stdout.strip() else None
        journal = labcore.wait_for("%s to start its workload" % os.path.basename(path),
                                   lambda: running() if p.poll() is None else "exited",
                                   timeout=120)
        if journal == "exited":
            # A scenario that skips here (or fails before its workload).
            return p.returncode, [], time.monotonic() - t0, None, p.stdout.read()
        seen = entries(journal)
        time.sleep(2.0)
        p.send_signal(sig)
        out, _ = p.communicate(timeout=90)
        return p.returncode, seen, time.monotonic() - t0, journal, out
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def check_clean(before, seen):
    diff = differences(before, snapshot())
    assert not diff, "host settings changed: %s" % "; ".join(diff)
    for e in seen:
        if e["op"] == "netns":
            assert not os.path.exists("/run/netns/" + e["name"]), "%s left" % e["name"]
    left = ["%s (pid %d)" % (e["what"], e["pid"]) for e in seen
            if e["op"] == "proc" and labjournal.proc_alive(e)]
    assert not left, "processes left: %s" % ", ".join(left)


def run(lab):
    labcore.need("pgrep")
    res = lab.result
    tried = 0
    for path in victims():
        name = os.path.basename(path)
        before = snapshot()
        rc, seen, secs, journal, out = interrupt(lab, path, signal.SIGINT)
        if rc == labcore.SKIP:
            res.note("%s skipped here: %s" % (name, out.strip().splitlines()[-1:]))
            continue
        assert journal is not None, "%s exited %s before its workload: %s" % (
            name, rc, out[-2000:])
        tried += 1
        assert rc == 130, "%s exited %s after SIGINT, not 130: %s" % (name, rc, out[-2000:])
        assert not os.path.exists(journal), "%s left its journal %s" % (name, journal)
        check_clean(before, seen)
        changed = sorted({e.get("path") or e.get("name") or e.get("what") for e in seen})
        res.note("%s: SIGINT %.0f s in, after %d journalled changes (%s): host settings as "
                 "before, namespaces gone, journal gone" % (name, secs, len(seen),
                                                              ", ".join(changed)))
    assert tried, "no scenario could be interrupted"
    # SIGKILL: no handler runs; the journal is left for the next run.
    path = os.path.join(HERE, "scenario_net_softnet.py")
    before = snapshot()
    rc, seen, secs, journal, out = interrupt(lab, path, signal.SIGKILL)
    assert journal is not None, "%s exited %s before its workload: %s" % (path, rc, out[-2000:])
    assert rc == -signal.SIGKILL, rc
    assert os.path.exists(journal), "no journal left after SIGKILL"
    # snmpd and the rest were its children; SIGKILL leaves them running
    # in the namespace, where the replay ends them.
    n = labjournal.Journal.replay_stale(open(os.devnull, "w"))
    assert n >= 1 and not os.path.exists(journal), "replay_stale did not undo %s" % journal
    check_clean(before, seen)
    res.note("%s: SIGKILL %.0f s in, %d journalled changes left behind; the runner's replay "
             "undid them: host settings as before, namespaces gone" % (
                 os.path.basename(path), secs, len(seen)))


if __name__ == "__main__":
    labcore.main(META, run)
