#!/usr/bin/env python3
"""A service's page cache bounded by its memory limit: the first tuning
note's story in today's form. A cgroup v1 service at a 64 MiB limit whose
job reads 200 MiB of files over and over; at 128M (the doubling the advice
gave before) it read as much from disk as at 64M, and only a second
ticket's 256M fixed it.

The service is a cgroup of the lab's own, named as systemd names a
service's (tw-lab-cache-cgroup-job-PID.service, below the root of the v1
memory and blkio hierarchies: this machine runs no systemd), with
memory.limit_in_bytes 64M; its blkio cgroup throttles its reads of the
file's device to 200 MiB/s (cgroup v1 counts a cgroup's reads only on a
device with a rule, and this machine's disk, backed by its host's cache,
reads faster than any disk: what the limit costs is reads from a disk).
The job, in both, reads a 200 MiB file (on this machine's disk, dropped
from the cache first) from start to end ten times; it is timed.

Each round, as an operator would: the job runs at the limit in force;
tunewatchd (the host's namespaces, defaults, cgroupMax 256 so that the
service is published among the machine's others) must raise
cgroup-cache-bounded for the unit; check_bufcache --cgroup's advice must
name MemoryLimit= with the limit in force and one sized from the working
set its figures show (what it holds plus what it read back within the
window); its apply: line is `systemctl set-property --runtime UNIT
MemoryLimit=SIZE`, which needs systemd: the lab writes SIZE to the
cgroup's memory.limit_in_bytes, the file set-property writes on cgroup v1,
and says so. The job runs again at the new limit (its first run reads back
once what the old limit evicted, and is reported apart): the cgroup's refaults
(total_workingset_refault_file) must fall by 90 % or more and the job must
go at least twice as fast; the change must be in twChangeTable as
MemoryLimit of the unit, 64M -> SIZE, with twTunableChanged and
twTunableChangeEvaluated, evaluated on the cgroup's refaults within two
windows; the finding must clear. Then the job is timed once more at an
ample limit (4G) beside it. Rounds are counted; the sizing must make one
enough.
"""

import os
import re
import subprocess
import time

import labcache
import labcore
import labproblem
from labcore import figure, wait_for

META = {"name": "cache-cgroup", "kind": "problem",
        "symptom": "a service's page cache bounded by its own memory limit (MemoryLimit=)"}

LIMIT = "64M"
AMPLE = "4G"
FILE_MIB = 200
PASSES = 10
READ_BPS = 200 << 20
MAX_ROUNDS = 4

SIZES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_bytes(text):
    return int(text[:-1]) * SIZES[text[-1]] if text[-1] in SIZES else int(text)


def refaults(memcg):
    with open(os.path.join(memcg, "memory.stat")) as fh:
        for line in fh:
            k, v = line.split()
            if k == "total_workingset_refault_file":
                return int(v)
    raise labcore.Skip("this kernel's cgroup v1 memory.stat has no total_workingset_refault_file")


def limit_of(memcg):
    with open(os.path.join(memcg, "memory.limit_in_bytes")) as fh:
        return int(fh.read())


def set_limit(memcg, size):
    with open(os.path.join(memcg, "memory.limit_in_bytes"), "w") as fh:
        fh.write(size + "\n")


class Job:
    """The job, run to its end in the cgroups: its time and the refaults it
    caused."""

    def __init__(self, lab, cgroups, data):
        self.lab, self.cgroups, self.data = lab, cgroups, data

    def start(self):
        self.r0, self.t0 = refaults(self.cgroups[0]), time.monotonic()
        self.proc = subprocess.Popen(labcore.workload_argv(__file__, "job", self.data, PASSES),
                                     preexec_fn=lambda: labcache.join(self.cgroups))
        self.lab.journal.proc(self.proc.pid, "job")
        return self

    def wait(self):
        rc = self.proc.wait(timeout=240)
        assert rc == 0, "the job failed: exit %d" % rc
        self.seconds = time.monotonic() - self.t0
        self.refaulted = refaults(self.cgroups[0]) - self.r0
        return self

    def figures(self):
        rate = self.refaulted / self.seconds
        return ({"symptom": figure(round(rate, 1), "refaults/s", "%s refaults/s (%s pages in "
                                   "%.1f s)" % (labcore.fmt(round(rate, 1)),
                                                labcore.fmt(self.refaulted), self.seconds)),
                 "workload": figure(round(self.seconds, 2), "s", "the job (%d passes of %d MiB) "
                                    "took %.2f s" % (PASSES, FILE_MIB, self.seconds))})


def finding_of(stack, memcg):
    # The subject is the cgroup's directory, whatever its name looks like:
    # a name alone is not a unit's (issue 21).
    return next(((i, r) for i, r in stack.findings().items()
                 if r.get("SYMPTOM") == "cgroup-cache-bounded" and r.get("SUBJECT") == memcg),
                (None, None))


def apply_limit(lab, stack, adv, memcg):
    """The advice's apply: line where this machine can run it, else the
    file it writes (no systemd here). Returns what ran, and a note."""
    # The limit goes with the cgroup (its removal is journalled first), so a
    # replay restores it only while the cgroup is still there: a replay that
    # met a cgroup already gone must not keep its journal for ever.
    path = os.path.join(memcg, "memory.limit_in_bytes")
    with open(path) as fh:
        old = fh.read().strip()
    lab.journal.undo(["sh", "-c", '[ ! -e "$0" ] || echo "$1" > "$0"', path, old],
                     "memory.limit_in_bytes back to %s" % old)
    if adv.apply and adv.apply.startswith("echo "):
        r = subprocess.run(["sh", "-c", adv.apply], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, "%s: %s" % (adv.apply, r.stderr)
        return adv.apply, None
    m = re.match(r"^systemctl set-property --runtime (\S+) MemoryLimit=(\S+)$", adv.apply or "")
    assert m, "an apply line the lab cannot follow: %r" % adv.apply
    set_limit(memcg, m.group(2))
    return ("echo %s > %s" % (m.group(2), os.path.join(memcg, "memory.limit_in_bytes")),
            "no systemd on this machine: %s was applied as the cgroup v1 file it sets, "
            "memory.limit_in_bytes" % adv.apply)


def run(lab):
    memcg = labcache.cgroup(lab, labcache.MEMCG, labcache.name_of(lab, "job") + ".service")
    unit = os.path.basename(memcg)
    blkcg = labcache.cgroup(lab, labcache.BLKCG, unit)
    data = os.path.join("/var/tmp", labcache.name_of(lab, "data"))
    labcache.cold_file(lab, data, FILE_MIB)
    dev = os.stat(data).st_dev
    with open(os.path.join(blkcg, "blkio.throttle.read_bps_device"), "w") as fh:
        fh.write("%d:%d %d\n" % (os.major(dev), os.minor(dev), READ_BPS))
    set_limit(memcg, LIMIT)
    res = lab.result
    res["tunable"] = "MemoryLimit"
    res["where"] = ("the host's namespaces; the service's cgroup %s in the v1 memory and blkio "
                    "hierarchies" % unit)
    res["setup"] = ("cgroup v1 memory.limit_in_bytes %s; the job reads a %d MiB file %d times, "
                    "its reads throttled to %d MiB/s (blkio)" % (LIMIT, FILE_MIB, PASSES,
                                                               READ_BPS >> 20))
    conf = labcache.WITH_LOOPS + "cgroupMax 256\n"
    with labcore.Stack(lab, agent_conf=conf) as stack:
        meter = labcache.PgpginMeter(stack).start()
        rounds(lab, stack, memcg, blkcg, unit, data)
        meter.stop()
        labcache.pgpgin_note(lab, meter)


def rounds(lab, stack, memcg, blkcg, unit, data):
    res = lab.result
    t_start = time.monotonic()
    job = Job(lab, [memcg, blkcg], data).start()
    for rnd in range(1, MAX_ROUNDS + 1):
        r = {"round": rnd}
        res["rounds"].append(r)
        row = wait_for("tunewatchd to raise cgroup-cache-bounded for %s" % unit,
                       lambda: finding_of(stack, memcg)[1], timeout=90)
        if rnd == 1:
            r["raised_s"] = round(time.monotonic() - t_start, 1)
            stack.sink.wait_notification(labcore.RAISED, "twFindingRaised for %s" % row["ID"],
                                         lambda n: n.get("ID") == row["ID"], timeout=30)
        r["finding"] = row["ID"]
        out = stack.check("check_bufcache", ["--cgroup", unit])
        mine = [a for a in labcore.advice_of(out) if a.finding == row["ID"]]
        assert len(mine) == 1, "no advice with finding %s in %r" % (row["ID"], out)
        adv = mine[0]
        # The tune line reads "UNIT MemoryLimit=64M -> SIZE (...)"; the
        # finding's row has the tunable and the values apart.
        adv.tunable, adv.current, adv.suggested = row["TUNABLE"], row["CURRENT"], row["SUGGESTED"]
        r["advice"] = adv.line
        assert adv.line.startswith("tune: %s MemoryLimit=%s -> %s (" % (
            unit, adv.current, adv.suggested)), adv.line
        assert adv.tunable == "MemoryLimit", row
        assert size_bytes(adv.current) == limit_of(memcg), (adv.current, limit_of(memcg))
        assert row.get("APPLY") == adv.apply, (row, adv.apply)
        before = job.wait().figures()
        if rnd == 1:
            res["before"] = before
        r["before"] = before
        r["applied"], note = apply_limit(lab, stack, adv, memcg)
        if note:
            r["applied_note"] = note
        t_apply = time.monotonic()
        # Its first run reads back once what the old limit evicted (their
        # shadow entries make them refaults); the run after it is the job
        # as it now goes.
        first = Job(lab, [memcg, blkcg], data).start().wait().figures()
        r["first_after"] = first
        res.note("round %d, first run after the change: %s, %s" % (
            rnd, first["workload"]["text"], first["symptom"]["text"]))
        job = Job(lab, [memcg, blkcg], data).start().wait()
        after = job.figures()
        r["after"] = after
        change = labproblem.wait_change(stack, adv, timeout=30)
        assert change.get("SUBJECT") == unit and "BEFORE" in change, change
        labproblem.wait_change_trap(stack, labcore.TUNABLE_CHANGED, adv, timeout=30)
        labproblem.wait_change_trap(stack, labcore.CHANGE_EVALUATED, adv,
                                    timeout=2 * stack.window + 10)
        r["evaluated_s"] = round(time.monotonic() - t_apply, 1)
        assert r["evaluated_s"] <= 2 * stack.window + 5, \
            "evaluated %.1f s after the change, past two windows" % r["evaluated_s"]
        change = labproblem.wait_change(stack, adv, timeout=10, evaluated=True)
        r["change"] = {k: change.get(k) for k in ("FIGURE", "FIGURE_UNIT", "OLD_VALUE",
                                                  "NEW_VALUE")}
        r["change"]["BEFORE"] = labproblem.hundredths(change["BEFORE"])
        r["change"]["AFTER"] = labproblem.hundredths(change.get("AFTER"))
        r["evaluation"] = labproblem.evaluation(change)
        fell = after["symptom"]["value"] <= 0.1 * before["symptom"]["value"]
        r["symptom_fell"] = fell
        if not fell:
            res.note("round %d: %s did not remove the symptom (%s -> %s)" % (
                rnd, r["applied"], before["symptom"]["text"], after["symptom"]["text"]))
            job = Job(lab, [memcg, blkcg], data).start()
            continue
        assert r["evaluation"] == "helped", r["change"]
        assert after["workload"]["value"] * 2 <= res["before"]["workload"]["value"], \
            "the job did not get twice as fast: %s -> %s" % (
                res["before"]["workload"]["text"], after["workload"]["text"])
        wait_for("finding %s to clear" % row["ID"],
                 lambda: finding_of(stack, memcg)[1] is None, timeout=stack.window + 30)
        stack.sink.wait_notification(labcore.CLEARED, "twFindingCleared for %s" % row["ID"],
                                     lambda n: n.get("ID") == row["ID"], timeout=30)
        r["cleared_s"] = round(time.monotonic() - t_apply, 1)
        res["after"] = after
        # The job at an ample limit, beside the suggested one.
        set_limit(memcg, AMPLE)
        ample = Job(lab, [memcg, blkcg], data).start().wait().figures()
        res["ample"] = ample
        res.note("at an ample limit (%s): %s, %s" % (AMPLE, ample["workload"]["text"],
                                                      ample["symptom"]["text"]))
        assert rnd == 1, "%d rounds, where the sizing should make one enough" % rnd
        return
    raise AssertionError("the symptom was still there after %d rounds" % MAX_ROUNDS)


# ---- the job -----------------------------------------------------------------


def job(path, passes):
    """Read path from start to end `passes` times, 1 MiB a read."""
    for _ in range(int(passes)):
        with open(path, "rb", buffering=0) as fh:
            while fh.read(1 << 20):
                pass


if __name__ == "__main__":
    labcore.main(META, run, {"job": job})
