# SPDX-License-Identifier: ISC
"""Which knobs a scenario may see named, and the one rule that judges
every finding and every tune: line raised while a scenario is judged
(issue 32: "a finding naming a wrong knob fails any scenario"). Problem
scenarios (labproblem.py, labproof.py's two windows after the change),
negative controls (labneg.py) and the healthy set (labcache.run_healthy)
all call sort(), which puts a wrong knob in the result's "wrong";
labcore.run_judged() fails the scenario on it once it has run (the rest
of it still measured), beside whatever else failed.

The data, one entry a scenario (SCENARIOS, keyed by META's name):

  drives   the areas its workload loads (AREAS): a finding whose knob is
           of an area it does not load is the machine's (another
           process's: vda's writeback while a UDP flood runs), listed as
           not the scenario's with why, never failed and never silent;
  accepts  {knob: why} that may be named beside a problem's own tunable
           (which run_problem passes as own=): a second ticket for the
           same workload that is right, with the reason.

A finding on a cgroup the lab did not make (its name does not start with
the scenario's prefix) and that does not hold the lab itself (the lab runs
in whatever memory cgroup it was started in, process_api/... here, and
its workloads with it; that cgroup and its parents are the scenario's) is
another process's too, whatever it names. Any
other finding or tune: line that names a knob is wrong: the scenario
fails, saying which. A finding or line that names no knob (no tunable:)
is not judged here: a problem scenario and a negative control want those,
and the healthy set fails any finding of its own (labcache.run_healthy).
"""

import os

import labcore

NET = "net"		# net.* sysctls
LAB_DISK = "lab-disk"	# a queue attribute of a device the lab made (loop*)
HOST_DISK = "host-disk"	# a queue attribute of any other device (vda)
WRITEBACK = "writeback"	# vm.dirty_*: host-wide, whatever disk it goes to
MEMORY = "memory"	# other vm.* sysctls, a cgroup's memory limit
AREAS = (NET, LAB_DISK, HOST_DISK, WRITEBACK, MEMORY)
# What a workload on files in /var/tmp (on the host's disk) loads.
FILES = (HOST_DISK, WRITEBACK, MEMORY)


class Knobs:
    def __init__(self, drives, accepts=None):
        self.drives = tuple(drives)
        self.accepts = dict(accepts or {})


SCENARIOS = {
    # Problems: their own tunable comes from the Problem (own=).
    "cache-cgroup": Knobs(FILES, {
        "MemoryLimit": "the scenario's own knob: its service's limit (cache_cgroup runs its "
                       "own rounds, not labproblem's)"}),
    "cache-dirty": Knobs((LAB_DISK,) + FILES, {
        "vm.dirty_background_bytes": "dirty-limited's second rule, shown with the first: "
                                     "writers are paused from half-way between the background "
                                     "limit and the limit, so the background limit is doubled "
                                     "beside dirty_bytes (doc/ADVICE-REFERENCE.md, "
                                     "DIRTY_LIMITED)"}),
    "cache-readahead": Knobs((LAB_DISK, MEMORY)),
    "net-busypoll": Knobs((NET,)),
    "net-highorder": Knobs((NET, MEMORY)),
    "net-listen": Knobs((NET,), {
        "net.core.netdev_max_backlog": "the burst of 6,000 SYNs over lo passes each CPU's "
                                       "backlog (1000 stock) before the accept queue: the "
                                       "softnet drops are this workload's too, and that is "
                                       "their knob (seen in the quick run at 174ea04 with no "
                                       "other network load)"}),
    "net-softnet": Knobs((NET,)),
    "net-tcp-mem": Knobs((NET,)),
    "net-udp-default": Knobs((NET,)),
    "net-udp-max": Knobs((NET,)),
    "net-udp-mem": Knobs((NET,)),
    "net-udp-sndbuf": Knobs((NET,)),
    "net-udp-sorcvbuf": Knobs((NET,)),
    "net-udp-wmem-max": Knobs((NET,)),
    # Negative controls: no knob helps.
    "disk-write-latency": Knobs((LAB_DISK,)),
    "neg-anon-leak": Knobs(FILES),
    "neg-disk-throughput": Knobs((LAB_DISK,)),
    "neg-odirect-ra64": Knobs((LAB_DISK,) + FILES),
    "neg-random-ra16": Knobs((LAB_DISK,) + FILES),
    "neg-udp-cpu": Knobs((NET,)),
    "neg-writer-faster": Knobs((LAB_DISK, WRITEBACK, MEMORY)),
    # Healthy: nothing to page on, no knob to name.
    "healthy-backup": Knobs(FILES),
    "healthy-compile": Knobs(FILES),
    "healthy-dbread": Knobs(FILES),
    "healthy-dpkg": Knobs(FILES),
    "healthy-fork": Knobs(FILES),
    "healthy-gitclone": Knobs(FILES),
    "healthy-gzip": Knobs(FILES),
    "healthy-odirect-copy": Knobs(FILES),
    "healthy-reread": Knobs(FILES),
    "healthy-udp": Knobs((NET,)),
    "healthy-write": Knobs(FILES),
    "net-squeeze": Knobs((NET,)),
    "net-syslog": Knobs((NET,)),
    # The lab's own test: it runs problem scenarios and judges none.
    "lab-restore": Knobs(AREAS),
}


def knobs_of(name):
    try:
        return SCENARIOS[name]
    except KeyError:
        raise AssertionError("scenario %s is not in labknobs.SCENARIOS: declare the areas it "
                             "loads and the knobs it accepts" % name) from None


def knob(item, rows=None):
    """(knob, subject, symptom) of a twFindingTable row (a dict) or a
    labcore.Advice; knob None where it names none. A queue attribute is
    its sysfs path (the row says queue/ATTR of its subject, the tune: line
    the whole path), a service's limit its property (MemoryLimit) with the
    unit as subject. rows: {ID: row}, for a tune: line's finding."""
    if isinstance(item, dict):
        t, subject, symptom = item.get("TUNABLE") or "", item.get("SUBJECT") or "", \
            item.get("SYMPTOM") or ""
        if not t:
            return None, subject, symptom
        if t.startswith("queue/"):
            t = "/sys/block/%s/%s" % (subject, t)
        return t, subject, symptom
    row = (rows or {}).get(item.finding) or {}
    subject, symptom = row.get("SUBJECT") or "", row.get("SYMPTOM") or ""
    if not item.tunable:
        return None, subject, symptom
    if "=" in (item.current or ""):
        return item.current.split("=", 1)[0], item.tunable, symptom
    return item.tunable, subject, symptom


def area(k):
    if k.startswith("net."):
        return NET
    if k.startswith("/sys/block/"):
        return LAB_DISK if k.split("/")[3].startswith("loop") else HOST_DISK
    if k.startswith("vm.dirty"):
        return WRITEBACK
    if k.startswith("vm.") or k.startswith("Memory") or k.startswith("memory."):
        return MEMORY
    return None


def lab_cgroups(text=None):
    """The memory cgroup this process runs in, and its parents, as
    findings name them (/sys/fs/cgroup/memory/PATH on v1,
    /sys/fs/cgroup/PATH on v2). text: /proc/self/cgroup's."""
    if text is None:
        try:
            with open("/proc/self/cgroup") as fh:
                text = fh.read()
        except OSError:
            return set()
    path = None
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if "memory" in parts[1].split(","):
            path = "/sys/fs/cgroup/memory" + parts[2]
            break
        if parts[0] == "0" and parts[1] == "":
            path = "/sys/fs/cgroup" + parts[2]
    held = set()
    while path and path.startswith("/sys/fs/cgroup"):
        held.add(path.rstrip("/"))
        path = path.rstrip("/").rsplit("/", 1)[0]
    return held


def _cgroup(subject):
    """The cgroup's own name where subject is one (a v1 directory, a unit)."""
    if subject.startswith("/sys/fs/cgroup/"):
        return subject.rstrip("/").rsplit("/", 1)[-1]
    if subject.endswith((".service", ".scope", ".slice")):
        return subject
    return None


def judge(name, item, own=(), rows=None, held=None):
    """(verdict, why) of one finding row or tune: line during scenario
    name: "no knob", "own" (a problem's tunable), "not ours" (the
    machine's, why says how it is told), "accepted" (why from the data) or
    "wrong" (why says what is not accepted). held: the cgroups that hold
    the lab (lab_cgroups())."""
    spec = knobs_of(name)
    k, subject, _ = knob(item, rows)
    cg = _cgroup(subject)
    if cg is not None and not cg.startswith("%s-%s-" % (labcore.PREFIX, name)) and \
            subject.rstrip("/") not in (lab_cgroups() if held is None else held):
        return "not ours", "a cgroup the lab did not make and does not run in (%s): " \
            "another process's" % subject
    if k is None:
        return "no knob", None
    a = area(k)
    if a is not None and a not in spec.drives:
        return "not ours", "%s loads no %s (it loads %s): the machine's, not the " \
            "workload's" % (name, a, ", ".join(spec.drives))
    if k in own:
        return "own", None
    if k in spec.accepts:
        return "accepted", spec.accepts[k]
    return "wrong", "%s accepts %s" % (name, ", ".join(list(own) + sorted(spec.accepts))
                                        or "no knob")


def words(item):
    if isinstance(item, dict):
        text = "finding %s %s on %s: " % (item.get("ID"), item.get("SYMPTOM"),
                                          item.get("SUBJECT"))
        if not item.get("TUNABLE"):
            return text + "no tunable"
        return text + "%s %s -> %s" % (item.get("TUNABLE"), item.get("CURRENT"),
                                       item.get("SUGGESTED"))
    return "the check: %s" % item.line


def sort(lab, rows=(), advice=(), own=(), known=()):
    """Judge each row and tune: line; put the machine's in
    lab.result["not_ours"] (each once, with why, and as a note) and
    return the wrong ones in words (also in lab.result["wrong"]). known:
    more rows, not judged, where a line's finding may be."""
    res = lab.result
    rows = list(rows)
    by_id = {r.get("ID"): r for r in list(known) + rows}
    held = lab_cgroups()
    bad = []
    for item in rows + [a for a in advice if a.line.startswith("tune: ")]:
        verdict, why = judge(res["name"], item, own, by_id, held)
        if verdict not in ("not ours", "wrong"):
            continue
        text = "%s (%s)" % (words(item), why)
        # A row comes back at every poll with its figures moved: each
        # finding (by its ID) and each line is said once.
        key = "%s %s" % (verdict, item.get("ID") if isinstance(item, dict) else item.line)
        new = key not in res.setdefault("judged_keys", [])
        if new:
            res["judged_keys"].append(key)
        if verdict == "not ours":
            if new:
                res.setdefault("not_ours", []).append(text)
                res.note("not the scenario's: " + text)
        else:
            bad.append(text)
            if new:
                res.setdefault("wrong", []).append(text)
    return bad


def theirs(name, row, held=None):
    """Whether a finding row is the machine's, not scenario name's."""
    return judge(name, row, held=held)[0] == "not ours"
