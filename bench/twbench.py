# SPDX-License-Identifier: ISC
"""Shared pieces of tunewatch's benchmarks (bench/run).

Everything here measures in ways that survive a shared, noisy machine:
callgrind instruction counts for one-shot programs, CPU time from
/proc/<pid>/schedstat for the long-running agents, and, where wall time is
wanted, many runs of the programs compared interleaved, so that a burst of
noise hits every program alike. Each figure is reported with its median,
minimum, maximum and number of runs.

snmpd and tunewatchd are started through the integration tests' harness
(tests/integration/twtest.py): a private snmpd on 127.0.0.1 at a free port,
a private AgentX socket, all stopped at the end.
"""

import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = os.path.join(SRCDIR, "mib", "TUNEWATCH-MIB.txt")
# UCD-DISKIO-MIB's diskIOEntry (Net-SNMP's own table, the peer of part 2).
DISKIO_ENTRY = "1.3.6.1.4.1.2021.13.15.1.1"

twtest = None
# twObjects and twDiskEntry, from mib/tunewatch_oids.h once load_harness
# has run (twtest reads the header): never a number written here.
OBJECTS = None
DISK_ENTRY = None


def load_harness(builddir):
    """Import the integration harness with this build's programs."""
    global twtest
    os.environ["top_srcdir"] = SRCDIR
    os.environ["top_builddir"] = builddir
    sys.path.insert(0, os.path.join(SRCDIR, "tests", "integration"))
    import twtest as mod
    global OBJECTS, DISK_ENTRY
    twtest = mod
    OBJECTS = mod.OBJECTS
    DISK_ENTRY = mod.oid("DISK_NAME", None).rsplit(".", 1)[0]
    return mod


def mib_columns(entry):
    """The columns of a table's entry (twDiskEntry) as TUNEWATCH-MIB's text
    defines them: {number: (name, syntax's first word, access)}. What a
    walk returns is counted against this, so that a column added to the
    MIB moves the count with it."""
    with open(MIB) as fh:
        text = fh.read()
    cols = {}
    for m in re.finditer(r"^(\w+)\s+OBJECT-TYPE\s+SYNTAX\s+(\w+)(.*?)::=\s*\{\s*(\w+)\s+(\d+)\s*\}",
                         text, re.M | re.S):
        if m.group(4) == entry:
            access = re.search(r"MAX-ACCESS\s+(\S+)", m.group(3)).group(1)
            cols[int(m.group(5))] = (m.group(1), m.group(2), access)
    if not cols:
        raise RuntimeError("%s has no columns in %s" % (entry, MIB))
    return cols


def walk_columns(h, entry_oid, entry):
    """snmpbulkwalk of a table's entry, counted by column against the MIB:
    (varbinds, {column number: instances}). Fails unless every column
    returned is a readable column of the entry in the MIB."""
    cols = mib_columns(entry)
    argv = [h.snmpbulkwalk_bin, "-v2c", "-c", "public", "-On", "-t", "5", "-r", "1",
            "127.0.0.1:%d" % h.port, entry_oid]
    r = subprocess.run(argv, capture_output=True, text=True, env=client_env(h), timeout=600)
    if r.returncode != 0:
        raise RuntimeError("snmpbulkwalk %s failed: %s" % (entry_oid, r.stderr.strip()))
    prefix = "." + entry_oid + "."
    seen = {}
    for line in r.stdout.splitlines():
        if line.startswith(prefix):
            col = int(line[len(prefix):].split(".", 1)[0])
            if col not in cols or cols[col][2] != "read-only":
                raise RuntimeError("%s: column %d is not a readable column of %s in the MIB"
                                   % (entry_oid, col, entry))
            seen[col] = seen.get(col, 0) + 1
    return sum(seen.values()), seen


def fixtures():
    return os.path.join(SRCDIR, "tests", "fixtures")


# ---- statistics ------------------------------------------------------------

def summary(values):
    values = list(values)
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": len(values)}


def ratio(a, b):
    return a["median"] / b["median"] if b["median"] else float("nan")


# ---- processes -------------------------------------------------------------

def schedstat_ns(pid):
    """CPU time a process has used so far, in ns (all its threads)."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as fh:
            total += int(fh.read().split()[0])
    return total


def status_kb(pid, field):
    with open("/proc/%d/status" % pid) as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def client_env(h):
    """The environment every SNMP client runs with: no MIB modules and no
    configuration file (h.dir holds none), for our plugins and the peers
    alike."""
    return h.client_env()


def _spawn_wait(argv, env, devnull):
    """Run argv once; (wall seconds, CPU seconds of it and its children,
    exit status)."""
    fa = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
          (os.POSIX_SPAWN_DUP2, devnull, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=fa)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def time_commands(cmds, env, runs, warmup=10):
    """Wall and CPU time of each command of cmds (name -> argv), run
    interleaved in a shuffled order each round so that noise is shared.
    wait4() gives the CPU time of a program and of the children it waited
    for (check_snmp's snmpget)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    codes = {k: set() for k in cmds}
    names = list(cmds)
    try:
        for i in range(warmup + runs):
            random.shuffle(names)
            for k in names:
                w, c, rc = _spawn_wait(cmds[k], env, devnull)
                codes[k].add(rc)
                if i >= warmup:
                    wall[k].append(w * 1000.0)
                    cpu[k].append(c * 1000.0)
    finally:
        os.close(devnull)
    return ({k: summary(wall[k]) for k in cmds}, {k: summary(cpu[k]) for k in cmds},
            {k: sorted(codes[k]) for k in cmds})


def callgrind(argv, env, runs, workdir):
    """Instructions (callgrind's Ir) of argv and every program it runs,
    summed over the processes, for each of runs runs."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        raise RuntimeError("valgrind is needed (Debian: apt-get install valgrind)")
    totals = []
    procs = None
    for r in range(runs):
        d = tempfile.mkdtemp(prefix="cg-", dir=workdir)
        cmd = [valgrind, "--tool=callgrind", "--trace-children=yes",
               "--log-file=%s/log.%%p" % d, "--callgrind-out-file=%s/cg.%%p" % d] + argv
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       timeout=300)
        counts = []
        for f in sorted(os.listdir(d)):
            if not f.startswith("log."):
                continue
            with open(os.path.join(d, f)) as fh:
                text = fh.read()
            m = re.search(r"Collected : (\d+)", text)
            c = re.search(r"Command: (\S+)", text)
            if m:
                counts.append((os.path.basename(c.group(1)) if c else "?", int(m.group(1))))
        shutil.rmtree(d, ignore_errors=True)
        if not counts:
            raise RuntimeError("callgrind counted nothing for %s" % " ".join(argv))
        totals.append(sum(n for _, n in counts))
        procs = counts
    return summary(totals), procs


def bulkwalk(h, oid, reps=None, extra=()):
    """snmpbulkwalk of oid; the varbinds returned below it."""
    argv = [h.snmpbulkwalk_bin, "-v2c", "-c", "public", "-On", "-t", "5", "-r", "1"]
    if reps:
        argv.append("-Cr%d" % reps)
    argv += list(extra) + ["127.0.0.1:%d" % h.port, oid]
    r = subprocess.run(argv, capture_output=True, text=True, env=client_env(h), timeout=600)
    if r.returncode != 0:
        raise RuntimeError("snmpbulkwalk %s failed: %s" % (oid, r.stderr.strip()))
    prefix = "." + oid + "."
    return sum(1 for line in r.stdout.splitlines() if line.startswith(prefix))


def disk_rows(h):
    """(index, name) of every row of twDiskTable."""
    rows = []
    name = twtest.oid("DISK_NAME", None)
    for v in h.walk(name, bulk=True):
        rows.append((v.oid[len(name) + 1:], v.text))
    return rows


def agent_defaults(agent_bin):
    """tunewatchd's default interval and window, from its --help."""
    out = subprocess.run([agent_bin, "--help"], capture_output=True, text=True).stdout
    interval = re.search(r"--interval SECONDS.*default (\d+)", out)
    window = re.search(r"--window SECONDS.*default (\d+)", out)
    return int(interval.group(1)), int(window.group(1))


# ---- the machine -------------------------------------------------------------

def _first_line(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        out = (r.stdout or r.stderr).strip().splitlines()
        return out[0] if out else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def machine():
    info = {"kernel": platform.release(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as fh:
            models = [l.split(":", 1)[1].strip() for l in fh if l.startswith("model name")]
        info["cpu"] = "%s x %d" % (models[0] if models else "?", os.cpu_count())
    except OSError:
        info["cpu"] = "?"
    info["memory_mb"] = status_mem()
    try:
        with open("/etc/os-release") as fh:
            for line in fh:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    info["virtualisation"] = _first_line(["systemd-detect-virt"])
    info["snmpd"] = _first_line([twtest.which("snmpd") or "snmpd", "-v"]) \
        if twtest else "?"
    info["net-snmp"] = _first_line(["net-snmp-config", "--version"])
    info["gcc"] = _first_line(["gcc", "--version"])
    info["valgrind"] = _first_line(["valgrind", "--version"])
    return info


def status_mem():
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    return None


# ---- output ------------------------------------------------------------------

def fmt(x, digits=2):
    if isinstance(x, int):
        return "{:,}".format(x)
    if x != x:
        return "n/a"
    if abs(x) >= 1000:
        return "{:,.0f}".format(x)
    return ("{:.%df}" % digits).format(x)


def cell(s, digits=2, scale=1.0):
    """median (min-max) of a summary."""
    return "%s (%s-%s)" % (fmt(s["median"] * scale, digits), fmt(s["min"] * scale, digits),
                           fmt(s["max"] * scale, digits))


class Report:
    def __init__(self):
        self.sections = []
        self.data = {}

    def table(self, title, header, rows, notes=()):
        self.sections.append((title, header, rows, list(notes)))

    def markdown(self):
        out = []
        for title, header, rows, notes in self.sections:
            out.append("### %s\n" % title)
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "|".join("---" for _ in header) + "|")
            for r in rows:
                out.append("| " + " | ".join(str(c) for c in r) + " |")
            out.append("")
            for n in notes:
                out.append(n)
            if notes:
                out.append("")
        return "\n".join(out)

    def save(self, outdir):
        os.makedirs(outdir, exist_ok=True)
        with open(os.path.join(outdir, "results.md"), "w") as fh:
            fh.write(self.markdown())
        with open(os.path.join(outdir, "results.json"), "w") as fh:
            json.dump(self.data, fh, indent=1, sort_keys=True)
