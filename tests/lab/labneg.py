# SPDX-License-Identifier: ISC
"""What the negative controls share (tests/lab/scenario_neg_*.py): a
symptom that no knob fixes, provoked for real, with tunewatchd and the
checks watching. The right answer is "no tunable", or no finding that names
a knob the scenario shows useless; harm may still page (a disk at its
throughput is news), but a ticket that turns a knob that cannot help is
worse than none.

watch(lab, stack, work, wrong, ...) runs work() (it returns when the
workload is done) while the three checks run every `every` seconds, then a
window and the hold-down more; it gathers every finding raised (in
twFindingTable at any poll, and twFindingRaised at the sink) and every
piece of advice the checks gave, and fills lab.result:

  worst     the worst state each check gave
  findings  "ID SYMPTOM SUBJECT TUNABLE" of each finding raised
  advice    each distinct tune: / no tunable: line the checks printed
  wrong     the findings and tune: lines wrong(row_or_line) says name a
            useless knob, and those labknobs says name a knob the control
            does not accept, whatever their subject (each in words)
  not_ours  those labknobs says are the machine's, with why
  seen      whether `expect(line)` held for some advice line (the symptom
            was there and the answer was given, not merely no finding)

and asserts that nothing was wrong and, where expect is given, that it
was seen: a control that never provoked its symptom proves nothing.

read_ahead_control(lab, ...) is the read-ahead controls' whole run
(scenario_neg_odirect_ra64.py, scenario_neg_random_ra16.py): a loop device
over a cold file at a given read_ahead_kb, a reader workload on it, and no
finding or tune: line may name read_ahead_kb.
"""

import os
import time

import labcache
import labcore
import labknobs

CHECKS = ("check_bufcache", "check_dblock", "check_disklatency")
RANK = {"OK": 0, "WARNING": 1, "CRITICAL": 2, "UNKNOWN": 3}


def watch(lab, stack, work, wrong, what, expect=None, extra=None, every=2.0, settle=None):
    """wrong(x): x is a twFindingTable row (a dict with SYMPTOM, SUBJECT,
    TUNABLE, ...) or a labcore.Advice; returns words when it names a
    useless knob, else None. expect(advice) -> bool: the answer that must
    be given at least once. extra: {check: [args]} run besides the three
    (check_bufcache --cgroup UNIT)."""
    res = lab.result
    res["workload"] = what
    worst = {c: "OK" for c in CHECKS}
    lines = {}
    seen = {}
    advice = {}

    def poll():
        runs = [(c, ()) for c in CHECKS] + [(c, tuple(a)) for c, a in (extra or {}).items()]
        for check, args in runs:
            out = stack.check(check, list(args))
            if not args and RANK.get(out.state, 3) > RANK[worst[check]]:
                worst[check] = out.state
                lines[check] = out.summary_line
            for a in labcore.advice_of(out):
                advice.setdefault(a.line, a)
        for row in stack.findings().values():
            seen.setdefault(row.get("ID"), row)

    labcache.poll_while(lab, stack, work, poll, seen, every, settle)
    res["worst"] = worst
    res["findings"] = ["%s %s %s %s" % (r.get("ID"), r.get("SYMPTOM"), r.get("SUBJECT"),
                                        r.get("TUNABLE") or "(no tunable)")
                       for r in seen.values()]
    res["advice"] = sorted(advice)
    for check, line in lines.items():
        res.note("%s at worst: %s" % (check, line))
    earlier = list(res.get("wrong") or [])
    bad = []
    rest_rows, rest_advice = [], []
    for r in seen.values():
        why = wrong(r)
        if why:
            bad.append("finding %s %s %s names %s: %s" % (
                r.get("ID"), r.get("SYMPTOM"), r.get("SUBJECT"), r.get("TUNABLE"), why))
        else:
            rest_rows.append(r)
    for a in advice.values():
        why = wrong(a) if a.line.startswith("tune: ") else None
        if why:
            bad.append("%s: %s" % (a.line, why))
        else:
            rest_advice.append(a)
    # The rule every scenario shares: no knob at all, of any subject, but
    # the machine's own (listed).
    bad += labknobs.sort(lab, rest_rows, rest_advice, known=seen.values())
    res["wrong"] = earlier + [b for b in bad if b not in earlier]
    if expect is not None:
        res["seen"] = any(expect(a) for a in advice.values())
    assert not bad, "a knob that cannot help was named: " + "; ".join(bad)
    if expect is not None:
        assert res["seen"], "the control's answer was never given: its symptom was not " \
            "provoked (advice seen: %r)" % sorted(advice)


def read_ahead_control(lab, script, read_ahead_kb, workload, seconds, setup, what, why,
                       kib_ok, mib=1024):
    """A loop device over a cold file of mib MiB (labcache.loop_device) at
    read_ahead_kb (journalled); `workload` (a workload of script) reads it
    for `seconds`, while watch() runs. why: the words for a finding that
    names read_ahead_kb. kib_ok(kib): the average read, in KiB, is the
    symptom's; the reads must also come 100 a second or more."""
    backing = os.path.join("/var/tmp", labcache.name_of(lab, "disk"))
    dev = labcache.loop_device(lab, backing, mib)
    name = os.path.basename(dev)
    lab.write("/sys/block/%s/queue/read_ahead_kb" % name, str(read_ahead_kb))
    res = lab.result
    res["where"] = "the host; %s over a cold file of %d MiB on this machine's disk" % (dev, mib)
    res["setup"] = "read_ahead_kb %d; %s for %d s" % (read_ahead_kb, setup, seconds)

    def wrong(x):
        t = x.get("TUNABLE", "") if isinstance(x, dict) else x.line
        return why if "read_ahead_kb" in (t or "") else None

    def work():
        s0 = labcache.disk_stat(dev)
        p = labcore.Workload(lab, labcore.workload_argv(script, workload, dev, seconds))
        deadline = time.monotonic() + seconds + 30
        while p.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(1)
        p.stop()
        s1 = labcache.disk_stat(dev)
        reads, sectors = s1[0] - s0[0], s1[2] - s0[2]
        kib = sectors / 2.0 / max(1, reads)
        res["workload_figures"] = {"reads_s": round(reads / seconds, 1),
                                   "kib_per_read": round(kib, 1)}
        res.note("%s: %.0f reads/s of %.1f KiB on average" % (name, reads / seconds, kib))
        assert reads / seconds >= 100 and kib_ok(kib), \
            "the reads were not the symptom's: %r" % res["workload_figures"]

    with labcore.Stack(lab, agent_conf=labcache.WITH_LOOPS) as stack:
        watch(lab, stack, work, wrong, "%s on %s for %d s" % (what, dev, seconds))
