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
            useless knob (each in words)
  seen      whether `expect(line)` held for some advice line (the symptom
            was there and the answer was given, not merely no finding)

and asserts that nothing was wrong and, where expect is given, that it
was seen: a control that never provoked its symptom proves nothing.
"""

import threading
import time

import labcore

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
    failure = []
    done = threading.Event()

    def body():
        try:
            work()
        except BaseException as e:  # noqa: BLE001 - reported below
            failure.append(e)
        finally:
            done.set()

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

    t0 = time.monotonic()
    th = threading.Thread(target=body, daemon=True)
    th.start()
    while not done.wait(every):
        poll()
    poll()
    end = time.monotonic() + (settle if settle is not None else
                              stack.window + 3 * stack.interval + 2)
    while time.monotonic() < end:
        time.sleep(every)
        poll()
    if failure:
        raise failure[0]
    res["ran_s"] = round(time.monotonic() - t0, 1)
    for n in stack.sink.notifications(labcore.RAISED):
        cols = labcore.varbinds(n.text)
        seen.setdefault(cols.get("ID"), cols)
    res["worst"] = worst
    res["findings"] = ["%s %s %s %s" % (r.get("ID"), r.get("SYMPTOM"), r.get("SUBJECT"),
                                        r.get("TUNABLE") or "(no tunable)")
                       for r in seen.values()]
    res["advice"] = sorted(advice)
    for check, line in lines.items():
        res.note("%s at worst: %s" % (check, line))
    bad = []
    for r in seen.values():
        why = wrong(r)
        if why:
            bad.append("finding %s %s %s names %s: %s" % (
                r.get("ID"), r.get("SYMPTOM"), r.get("SUBJECT"), r.get("TUNABLE"), why))
    for a in advice.values():
        why = wrong(a) if a.line.startswith("tune: ") else None
        if why:
            bad.append("%s: %s" % (a.line, why))
    res["wrong"] = bad
    if expect is not None:
        res["seen"] = any(expect(a) for a in advice.values())
    assert not bad, "a knob that cannot help was named: " + "; ".join(bad)
    if expect is not None:
        assert res["seen"], "the control's answer was never given: its symptom was not " \
            "provoked (advice seen: %r)" % sorted(advice)
