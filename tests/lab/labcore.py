# SPDX-License-Identifier: ISC
"""The tuning lab's harness: what every scenario shares.

A scenario (tests/lab/scenario_*.py, see README.md) runs as root on this
machine's kernel. It makes its changes through a Lab's journal
(labjournal.py), so that they are undone when it ends, fails or is
interrupted, and starts the real thing through a Stack: snmpd on
127.0.0.1 with a private AgentX socket and a trap2sink, snmptrapd and
snmptt as the sink (tests/integration/trapsink.py), and tunewatchd with
its default thresholds and hold-down, all in one network namespace of
the lab's own or in the host's (see README.md for which).

labcore.main() runs one scenario file: root and tools checked (a skip
with its reason otherwise), one lab at a time on the machine (a lock),
the journal, signals turned into an exception so that the finally that
restores runs, and the Result written as JSON for the runner (run.py),
which makes doc/LAB.md of them.
"""

import argparse
import fcntl
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

import plugin_common as pc  # noqa: E402
import trapsink  # noqa: E402
import twtest  # noqa: E402
from labjournal import Journal, ns_argv, read_file, sysctl_path  # noqa: E402

SKIP = 77
PREFIX = os.environ.get("TW_LAB_PREFIX", "tw-lab")
LOCK = os.environ.get("TW_LAB_LOCK", "/run/lock/tw-lab.lock")

# tunewatchd in the lab: a sample a second and a 10 s window, so that a
# finding is raised within seconds and a change is evaluated 10 s after it.
# Thresholds and the hold-down (findingRaiseAfter, findingClearAfter) are
# the defaults; only time is shortened.
INTERVAL = 1
WINDOW = 10

H = twtest._H
NOTIFY = "%s.%d" % (twtest.ARC, H["TW_OID_NOTIFICATIONS"][0])
RAISED = trapsink.RAISED
CLEARED = trapsink.CLEARED
TUNABLE_CHANGED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_TUNABLE_CHANGED"][0])
CHANGE_EVALUATED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_TUNABLE_CHANGE_EVALUATED"][0])
CHANGE_COLUMNS = ("TUNABLE", "SUBJECT", "OLD_VALUE", "NEW_VALUE", "TIME", "EVALUATED", "FIGURE",
                  "FIGURE_UNIT", "BEFORE", "AFTER")


class Skip(Exception):
    """The scenario cannot run here; the message says why."""


class Interrupted(BaseException):
    """SIGINT or SIGTERM: unwinds to the finally that restores."""


def which(prog):
    return twtest.which(prog)


def need(*progs):
    for p in progs:
        if not which(p):
            raise Skip("%s is not installed" % p)


# ---- results ---------------------------------------------------------------


class Result(dict):
    """What a scenario found, as the runner puts it in doc/LAB.md. Keys
    (all optional but name, kind, status):

      name, kind ("problem" or "healthy"), status ("pass", "fail", "skip"),
      reason        why it failed or was skipped
      symptom       what is provoked, in words
      where         where it ran ("netns tw-lab-listen-123", "host")
      rounds        [Round, ...] for a problem scenario
      worst         {check: state} for a healthy scenario
      findings      [finding id and symptom, ...] raised during it
      notes         [text, ...]
      seconds       its run time
    """

    def __init__(self, name, kind, **kw):
        super().__init__(name=name, kind=kind, status="fail", rounds=[], notes=[], **kw)

    def note(self, text):
        self["notes"].append(text)
        print("lab: " + text, flush=True)


def figure(value, unit, text=None):
    """A measured figure: its number, its unit and how it reads."""
    return {"value": value, "unit": unit, "text": text or "%s %s" % (fmt(value), unit)}


def fmt(v):
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return "{:,}".format(int(v))
        return "{:,.2f}".format(v) if abs(v) < 100 else "{:,.0f}".format(v)
    if isinstance(v, int):
        return "{:,}".format(v)
    return str(v)


# ---- the lab: journal, namespaces, sysctls -----------------------------------


class Lab:
    """One scenario's run: its journal, its namespaces, its result."""

    def __init__(self, name, result):
        self.name = name
        self.result = result
        self.journal = Journal("%s-%s" % (PREFIX, name))
        self.t0 = time.monotonic()

    def netns(self, tag=""):
        """A network namespace of the lab's own, with its loopback up."""
        name = "%s-%s%s-%d" % (PREFIX, self.name, "-" + tag if tag else "", os.getpid())
        self.journal.netns(name)
        subprocess.run(ns_argv(name, ["ip", "link", "set", "lo", "up"]), check=True, timeout=30)
        return name

    def sysctl(self, name, value, ns=None):
        self.journal.sysctl(name, value, ns)

    def read_sysctl(self, name, ns=None):
        return " ".join(read_file(sysctl_path(name), ns).split())

    def write(self, path, value, ns=None):
        self.journal.write(path, value, ns)

    def elapsed(self):
        return time.monotonic() - self.t0


# ---- the agent and its sink ------------------------------------------------


class Stack:
    """snmpd, the trap sink and tunewatchd, in namespace ns (None: the
    host's), with the default thresholds and hold-down."""

    def __init__(self, lab, ns=None, window=WINDOW, interval=INTERVAL, agent_conf=""):
        self.lab = lab
        self.ns = ns
        self.window = window
        self.h = twtest.Harness("lab-" + lab.name, wrap=ns_argv(ns, []))
        self.sink = trapsink.TrapSink(self.h)
        self.agent_conf = agent_conf
        self.interval = interval

    def __enter__(self):
        self.h.__enter__()
        # The harness stops its processes on SIGTERM and exits; the lab
        # must restore first: its handler unwinds to the restore instead.
        signal.signal(signal.SIGTERM, _on_signal)
        self.sink.start()
        self.lab.journal.proc(self.sink.proc.pid, "snmptrapd")
        self.h.start_snmpd(self.sink.snmpd_conf())
        self.lab.journal.proc(self.h.snmpd.pid, "snmpd")
        args = []
        if self.agent_conf:
            conf = os.path.join(self.h.dir, "tunewatchd.conf")
            with open(conf, "w") as fh:
                fh.write(self.agent_conf)
            args = ["-c", conf]
        self.h.start_agent(interval=self.interval, window=self.window, args=args, wait=False)
        self.lab.journal.proc(self.h.agent.pid, "tunewatchd")
        self.h.wait_agent()
        twtest.wait_for("two samples", lambda: (self.h.agent_samples() or 0) >= 2, timeout=20)
        return self

    def __exit__(self, *exc):
        return self.h.__exit__(*exc)

    # ---- checks --------------------------------------------------------

    def check(self, check, args=(), timeout=60):
        """A check against this stack's agent, run where the agent is."""
        argv = pc.built(pc.argv_of(check, args, self.h.port))
        t = time.monotonic()
        r = subprocess.run(self.h.wrap + argv, capture_output=True, text=True, timeout=timeout,
                           env=pc.plugin_env())
        out = pc.Output(argv, r.returncode, r.stdout, r.stderr, time.monotonic() - t)
        return out.check(pc.SERVICE[check])

    # ---- tables --------------------------------------------------------

    def findings(self):
        """twFindingTable now: {index: {column: text}}."""
        return trapsink.rows(self.h)

    def changes(self):
        """twChangeTable now: {index: {column: text}}, newest first."""
        v = twtest.as_dict(self.h.walk(twtest.oid("CHANGE_TUNABLE", None)[:-2]))
        table = {}
        for name in CHANGE_COLUMNS:
            for idx, val in twtest.column(v, "CHANGE_" + name).items():
                table.setdefault(idx, {})[name] = val.text.strip('"')
        return table

    def notifications(self, trap_oid):
        """Notifications trap_oid at the sink, each {column: text} of
        twFindingEntry or twChangeEntry."""
        return [varbinds(n.text) for n in self.sink.notifications(trap_oid)]

    def sample_count(self):
        return self.h.agent_samples() or 0

    def run(self, argv, **kw):
        """A command in the stack's namespace."""
        return subprocess.run(self.h.wrap + list(argv), **kw)


_ENTRY_FINDING = trapsink.ENTRY
_ENTRY_CHANGE = twtest.oid("CHANGE_TUNABLE", None).rsplit(".", 1)[0]
_FINDING_BY_NUMBER = {H["TW_OID_FINDING_" + c][0]: c for c in trapsink.COLUMNS}
_CHANGE_BY_NUMBER = {H["TW_OID_CHANGE_" + c][0]: c for c in CHANGE_COLUMNS}


def varbinds(line):
    """The twFindingEntry or twChangeEntry columns of one notification."""
    # snmptrapd puts a tab between varbinds, and a value may hold tabs of
    # its own (tcp_mem as the kernel prints it): a piece that is no
    # varbind belongs to the value before it.
    binds = []
    for vb in line.split("\t"):
        m = trapsink._VARBIND.match(vb.lstrip())
        if m:
            binds.append([m.group(1), m.group(2) or "", m.group(3)])
        elif binds:
            binds[-1][2] += "\t" + vb
    out = {}
    for oid, type_, value in binds:
        for entry, names in ((_ENTRY_FINDING, _FINDING_BY_NUMBER),
                             (_ENTRY_CHANGE, _CHANGE_BY_NUMBER)):
            if oid.startswith(entry + "."):
                name = names.get(int(oid[len(entry) + 1:].split(".")[0]))
                if name:
                    out[name] = trapsink._value(type_, value)
    return out


# ---- a check's advice ------------------------------------------------------


class Advice:
    """One tune: (or no tunable:) line and its ticket lines."""

    _TUNE = re.compile(r"^tune: (\S+) (.*?) -> (.*?) \((.*)\)$")

    def __init__(self, line):
        self.line = line
        self.no_tunable = line.startswith("no tunable: ")
        self.tunable = self.current = self.suggested = None
        m = self._TUNE.match(line)
        if m:
            self.tunable, self.current, self.suggested = m.group(1), m.group(2), m.group(3)
        self.finding = self.apply = self.persist = None

    def __repr__(self):
        return self.line


def advice_of(out):
    """Every piece of advice in a check's output, with its ticket."""
    found = []
    for line in out.long:
        if line.startswith("tune: ") or line.startswith("no tunable: "):
            found.append(Advice(line))
        elif line.startswith("  ") and found:
            key, _, rest = line.strip().partition(": ")
            if key in ("finding", "apply", "persist"):
                setattr(found[-1], key, rest)
    return found


_SYSCTL_APPLY = re.compile(r"^sysctl -w ([A-Za-z0-9_.]+)=(.*)$")
# A disk's queue attribute: "echo 128 > /sys/block/loop3/queue/read_ahead_kb".
_QUEUE_APPLY = re.compile(r"^echo (\S+) > (/sys/block/[A-Za-z0-9_.-]+/queue/[a-z_]+)$")


HOST = "host"


def apply_line(lab, stack, advice, where=None):
    """Run exactly the advice's apply: line, where the check ran (where
    HOST: in the host's namespace, for a sysctl a child namespace only
    reads), after journalling what it changes. Returns the command run."""
    assert advice.apply, "no apply line: %r" % advice
    m = _SYSCTL_APPLY.match(advice.apply)
    q = _QUEUE_APPLY.match(advice.apply)
    assert m or q, "an apply line the lab cannot journal: %r" % advice.apply
    ns = None if where == HOST else stack.ns
    # Recorded as a write: the value is put back as it was read.
    if m:
        lab.journal.record_write(sysctl_path(m.group(1)), m.group(2), ns)
    else:
        lab.journal.record_write(q.group(2), q.group(1), ns)
    if where == HOST:
        r = subprocess.run(["sh", "-c", advice.apply], capture_output=True, text=True,
                           timeout=30)
    else:
        r = stack.run(["sh", "-c", advice.apply], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, "%s: exit %d %s" % (advice.apply, r.returncode, r.stderr)
    return advice.apply


# ---- waiting ---------------------------------------------------------------


def wait_for(what, predicate, timeout, step=0.25):
    return twtest.wait_for(what, predicate, timeout=timeout, step=step)


# ---- background workloads --------------------------------------------------


class Workload:
    """A workload running in the background (in a namespace), printing one
    JSON object a line: {"t": time.monotonic(), ...figures}. The records
    are kept as they come."""

    def __init__(self, lab, argv=None, ns=None, log=None):
        # Workload(lab, argv, ...) journals the process, so that a replay
        # ends it; the first harness's Workload(argv, ...) still works.
        if not isinstance(lab, Lab):
            lab, argv = None, lab
        self.argv = ns_argv(ns, argv)
        self.records = []
        self.errors = []
        # Its errors go where the scenario's own go (the runner's log).
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=log, text=True)
        if lab is not None:
            lab.journal.proc(self.proc.pid, "workload %s" % argv[-1])
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.records.append(json.loads(line))
            except ValueError:
                self.errors.append(line.rstrip("\n"))

    def since(self, t0, t1=None):
        return [r for r in list(self.records) if r["t"] >= t0 and (t1 is None or r["t"] <= t1)]

    def signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.reader.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def workload_argv(script, name, *args):
    """This scenario file run as one of its own workloads."""
    return [sys.executable, "-B", os.path.abspath(script), "--workload", name] + \
        [str(a) for a in args]


def emit(**figures):
    """A workload's record, to its stdout."""
    figures["t"] = time.monotonic()
    sys.stdout.write(json.dumps(figures) + "\n")
    sys.stdout.flush()


# ---- counters ----------------------------------------------------------------


def netstat(ns=None, path="/proc/net/netstat"):
    """{"TcpExt": {name: value}, ...} of /proc/net/netstat or /proc/net/snmp
    as a process in ns reads it."""
    lines = read_file(path, ns).splitlines()
    out = {}
    for names, values in zip(lines[0::2], lines[1::2]):
        proto = names.split(":")[0]
        out[proto] = dict(zip(names.split()[1:], (int(x) for x in values.split()[1:])))
    return out


def softnet_dropped():
    """Per CPU, softnet_stat's dropped (its second column): global."""
    with open("/proc/net/softnet_stat") as fh:
        return [int(l.split()[1], 16) for l in fh if l.strip()]


# ---- running one scenario ----------------------------------------------------


def _on_signal(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


def _lock():
    # A scenario that runs another (the restore test) holds the lock for it.
    if os.environ.get("TW_LAB_LOCK_HELD"):
        return None
    os.makedirs(os.path.dirname(LOCK), exist_ok=True)
    fh = open(LOCK, "a")
    deadline = time.monotonic() + float(os.environ.get("TW_LAB_LOCK_WAIT", "900"))
    while True:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fh
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise Skip("another lab holds %s" % LOCK)
            time.sleep(1)


def with_wrong(result, failure):
    """failure with the knobs the scenario named and does not accept
    (result["wrong"], labknobs.sort) before it, unless it says them."""
    wrong = [w for w in result.get("wrong") or [] if w not in failure]
    if not wrong:
        return failure
    return "a knob the scenario does not accept was named: %s%s" % (
        "; ".join(wrong), "; " + failure if failure else "")


def run_judged(run, lab):
    """run(lab), then fail it on any knob it named and does not accept
    (labknobs: one rule for problems, negative controls and the healthy
    set), said beside whatever else failed."""
    try:
        run(lab)
    except AssertionError as e:
        raise AssertionError(with_wrong(lab.result, str(e))) from None
    if lab.result.get("wrong"):
        raise AssertionError(with_wrong(lab.result, ""))


def main(meta, run, workloads=None):
    """The __main__ of a scenario file.

    meta: {"name": "listen", "kind": "problem", "symptom": "..."};
    run(lab) -> fills lab.result, raises AssertionError on failure and Skip
    when the machine lacks a part; workloads: {name: function(*args)} run
    by `--workload NAME ARGS...` (in a namespace, as a child).
    """
    ap = argparse.ArgumentParser(description=meta.get("symptom", ""))
    ap.add_argument("--json", help="write the result here")
    ap.add_argument("--workload", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    if opts.workload:
        name, args = opts.workload[0], opts.workload[1:]
        # A workload ends quietly when the lab stops it.
        signal.signal(signal.SIGTERM, lambda s, f: sys.exit(0))
        try:
            (workloads or {})[name](*args)
        except KeyboardInterrupt:
            pass
        return
    result = Result(meta["name"], meta["kind"], symptom=meta.get("symptom", ""))
    t0 = time.monotonic()
    lab = None
    lock = None
    code = 1
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    try:
        try:
            if os.geteuid() != 0:
                raise Skip("needs root: it changes kernel settings and makes namespaces")
            need("ip", "snmpd", "snmpwalk", "snmptrapd")
            t_lock = time.monotonic()
            lock = _lock()
            # Another lab's turn is no part of this one's time.
            result["lock_wait_s"] = round(time.monotonic() - t_lock, 1)
            os.environ["TW_LAB_LOCK_HELD"] = "1"
            lab = Lab(meta["name"], result)
            run_judged(run, lab)
            result["status"] = "pass"
            code = 0
        finally:
            # No second signal may cut the restore short.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if lab is not None:
                problems = lab.journal.restore()
                if problems:
                    result["status"] = "fail"
                    result["reason"] = "restore: " + "; ".join(problems)
                    code = 1
    except Skip as e:
        result["status"], result["reason"], code = "skip", str(e), SKIP
    except twtest.Skip as e:
        result["status"], result["reason"], code = "skip", str(e), SKIP
    except AssertionError as e:
        result["status"], result["reason"], code = "fail", str(e), 1
    except Interrupted as e:
        result["status"], result["reason"], code = "fail", "interrupted (%s)" % e, 130
    except Exception as e:  # noqa: BLE001 - any defect is a failed scenario, with its trace
        traceback.print_exc()
        result["status"], result["reason"], code = "fail", "%s: %s" % (type(e).__name__, e), 1
    result["seconds"] = round(time.monotonic() - t0, 1)
    if lock is not None:
        lock.close()
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump(result, fh, indent=1)
    print("%s: %s%s (%.0f s)" % (meta["name"], result["status"].upper(),
                                  ": " + result["reason"] if result.get("reason") else "",
                                  result["seconds"]), flush=True)
    sys.exit(code)


def quote(argv):
    return " ".join(shlex.quote(a) for a in argv)
