"""The lab's restore journal: every change a scenario makes to the host,
written down before it is made, and undone in reverse order.

A scenario changes kernel state (a sysctl, a network namespace, a file
under /sys, a cgroup) only through a Journal. Each entry is appended and
fsynced to a file before the change, so the journal is complete even when
the change itself is what fails, and even when the scenario is killed:
`Journal.replay_stale()` (the lab's runner calls it before it starts)
undoes what a killed run left behind. `restore()` undoes every entry, newest
first, once; it runs in the scenario's finally and from its SIGINT/SIGTERM
handler (labcore.main).

Entries (one JSON object a line):
  {"op": "write", "path": P, "ns": NS or null, "old": TEXT, "new": TEXT}
      a /proc/sys or /sys file, read in namespace NS, put back to old;
  {"op": "netns", "name": N}     a network namespace, deleted;
  {"op": "proc", "pid": P, "start": S, "what": TEXT}
      a process the lab started (snmpd, tunewatchd, a workload), ended
      if it still runs (the same pid with the same start time, field 22
      of /proc/P/stat), for a run killed before it could stop them;
  {"op": "undo", "argv": [...], "what": TEXT}
      any other change, undone by running argv (a cgroup's rmdir, a loop
      device's losetup -d, an umount): for scenarios of other kinds.
An entry whose change never happened undoes nothing harmful: a write puts
back the value that was read before it, a missing namespace is no error.
"""

import json
import os
import subprocess
import sys
import time

STATE_DIR = os.environ.get("TW_LAB_STATE", "/run/tw-lab")


def ns_argv(ns, argv):
    """argv run in network namespace ns (None: where we are)."""
    return (["ip", "netns", "exec", ns] if ns else []) + list(argv)


def read_file(path, ns=None):
    """The text of path as a process in namespace ns reads it; /proc/sys/net
    shows the reader's own namespace."""
    if ns is None:
        with open(path) as fh:
            return fh.read()
    r = subprocess.run(ns_argv(ns, ["cat", path]), capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise OSError("cannot read %s in %s: %s" % (path, ns, r.stderr.strip()))
    return r.stdout


def write_file(path, text, ns=None):
    if ns is None:
        with open(path, "w") as fh:
            fh.write(text)
        return
    r = subprocess.run(ns_argv(ns, ["sh", "-c", 'printf "%s\\n" "$1" > "$2"', "sh",
                                    text.rstrip("\n"), path]),
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise OSError("cannot write %s in %s: %s" % (path, ns, r.stderr.strip()))


def sysctl_path(name):
    return "/proc/sys/" + name.replace(".", "/")


class Journal:
    def __init__(self, name):
        os.makedirs(STATE_DIR, exist_ok=True)
        self.path = os.path.join(STATE_DIR, "%s-%d.journal" % (name, os.getpid()))
        self.entries = []
        self.restored = False
        self.problems = []		# what could not be undone, in words
        self.fh = open(self.path, "a")

    # ---- recording -----------------------------------------------------

    def _append(self, entry):
        self.fh.write(json.dumps(entry) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.entries.append(entry)

    def write(self, path, value, ns=None):
        """Write value to path (in namespace ns), journalled first."""
        old = read_file(path, ns)
        self._append({"op": "write", "path": path, "ns": ns, "old": old, "new": str(value)})
        write_file(path, str(value), ns)

    def record_write(self, path, value, ns=None):
        """Record that path (in namespace ns) is about to be set to value by
        a command the caller runs itself (a check's apply: line)."""
        self._append({"op": "write", "path": path, "ns": ns, "old": read_file(path, ns),
                      "new": str(value)})

    def sysctl(self, name, value, ns=None):
        """A sysctl by its dotted name."""
        self.write(sysctl_path(name), value, ns)

    def netns(self, name):
        """A network namespace of the lab's own, made now."""
        self._append({"op": "netns", "name": name})
        subprocess.run(["ip", "netns", "add", name], check=True, timeout=30)

    def proc(self, pid, what):
        """A process just started; recorded so that a replay can end it."""
        start = proc_start(pid)
        if start is not None:
            self._append({"op": "proc", "pid": pid, "start": start, "what": what})

    def undo(self, argv, what):
        """Record how to undo a change the caller makes right after."""
        self._append({"op": "undo", "argv": list(argv), "what": what})

    # ---- undoing -------------------------------------------------------

    def restore(self):
        """Undo every entry, newest first; once."""
        if self.restored:
            return self.problems
        self.restored = True
        self.problems = undo_entries(self.entries)
        self.fh.close()
        if not self.problems:
            os.unlink(self.path)
        return self.problems

    @staticmethod
    def replay_stale(out=sys.stderr):
        """Undo the journals of runs that died without restoring (their pid
        is gone). Returns how many were replayed."""
        if not os.path.isdir(STATE_DIR):
            return 0
        n = 0
        for f in sorted(os.listdir(STATE_DIR)):
            if not f.endswith(".journal"):
                continue
            try:
                pid = int(f[:-len(".journal")].rsplit("-", 1)[1])
            except (IndexError, ValueError):
                continue
            if os.path.exists("/proc/%d" % pid):
                continue
            path = os.path.join(STATE_DIR, f)
            with open(path) as fh:
                entries = [json.loads(l) for l in fh if l.strip()]
            problems = undo_entries(entries)
            out.write("lab: replayed %s (%d entries)%s\n" % (
                path, len(entries), "; " + "; ".join(problems) if problems else ""))
            if not problems:
                os.unlink(path)
            n += 1
        return n


def proc_start(pid):
    """Field 22 of /proc/PID/stat (its start time), or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def proc_alive(entry):
    return proc_start(entry["pid"]) == entry["start"]


def _end_proc(entry):
    for sig in (15, 9):
        if not proc_alive(entry):
            return
        try:
            os.kill(entry["pid"], sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 5
        while proc_alive(entry) and time.monotonic() < deadline:
            time.sleep(0.05)


def _netns_exists(name):
    return os.path.exists(os.path.join("/run/netns", name))


def undo_entries(entries):
    problems = []
    # Namespaces go last: a write inside one is undone while it exists.
    for e in reversed(entries):
        try:
            if e["op"] == "write":
                if e["ns"] and not _netns_exists(e["ns"]):
                    continue	# went with its namespace
                if read_file(e["path"], e["ns"]) != e["old"]:
                    write_file(e["path"], e["old"], e["ns"])
                if read_file(e["path"], e["ns"]) != e["old"]:
                    problems.append("%s reads %r, not %r" % (
                        e["path"], read_file(e["path"], e["ns"]), e["old"]))
            elif e["op"] == "netns":
                if _netns_exists(e["name"]):
                    _kill_netns_processes(e["name"])
                    subprocess.run(["ip", "netns", "del", e["name"]], timeout=30)
                if _netns_exists(e["name"]):
                    problems.append("network namespace %s is still there" % e["name"])
            elif e["op"] == "proc":
                _end_proc(e)
                if proc_alive(e):
                    problems.append("%s (pid %d) still runs" % (e["what"], e["pid"]))
            elif e["op"] == "undo":
                r = subprocess.run(e["argv"], capture_output=True, text=True, timeout=60)
                if r.returncode != 0:
                    problems.append("%s: %s exited %d: %s" % (
                        e["what"], " ".join(e["argv"]), r.returncode, r.stderr.strip()))
        except (OSError, subprocess.SubprocessError) as err:
            problems.append("%s: %s" % (e.get("path") or e.get("name") or e.get("what"), err))
    return problems


def _kill_netns_processes(name):
    """Processes left in a namespace of the lab's own are the lab's: a
    namespace is only ever entered by the lab's own commands."""
    r = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True,
                       timeout=30)
    pids = [int(p) for p in r.stdout.split() if p.isdigit() and int(p) != os.getpid()]
    for sig in (15, 9):
        for p in pids:
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 3
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if os.path.exists("/proc/%d" % p)]
            time.sleep(0.05)
