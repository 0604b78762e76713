# SPDX-License-Identifier: ISC
"""Repeated phases of a workload at chosen values of a tunable: the
interleaved before/after/control that judges a change against noise, and
the sweep that finds how large a value must be (labstats.py judges both).

Both take two callables of the scenario's:

  apply(value)   put the tunable at value (journalled, as the lab changes
                 anything) and do what the value needs to take effect (the
                 service reopening its socket); return when the next phase
                 may start measuring
  measure()      one phase: {"symptom": rate, "workload": figure, ...}
                 (numbers; anything more is kept as it is)

and return plain lists and dicts that go into the scenario's result as
JSON. The order is what makes the intervals hold on a shared machine:
every repeat visits every value, so that load from others falls on all of
them alike, and the sweep's order within a repeat is shuffled by a seeded
generator (reproducible, and no value always first after a change).
"""

import random

import labstats

REPEATS = 5
SWEEP_REPEATS = 3


def interleaved(old, new, apply, measure, repeats=REPEATS):
    """repeats rounds of three phases: at old, at new, at old again. One
    of the two phases at old is "before", the other "control" (the
    no-change control: the same value written again), by turns: even
    rounds call the first one before, odd ones the second. A phase just
    after a change can differ from one after a phase at the same value
    (cache-dirty's writeback still draining: its control came out 1.05,
    1.01-1.13, with "before" always the phase after the switch back), so
    before and control must meet a change equally often: the second phase
    at old always follows one, the first does in round 0 (the knob is at
    new when the proof begins) and never after, which over 5 rounds is 3
    each. Returns {"before": [phase...], "control": [...], "after": [...]},
    each phase measure()'s dict with "value" and "round" added."""
    out = {"before": [], "control": [], "after": []}
    for rnd in range(repeats):
        first, last = ("before", "control") if rnd % 2 == 0 else ("control", "before")
        for which, value in ((first, old), ("after", new), (last, old)):
            apply(value)
            phase = dict(measure())
            phase["value"] = value
            phase["round"] = rnd
            out[which].append(phase)
    return out


def judge(phases, margin, better, figure="workload", level=labstats.LEVEL):
    """The effect of interleaved()'s phases on one figure: {"effect":
    interval after/before, "control": interval control/before, "helped":
    effect beyond margin, "control_holds": the control's interval holds 1,
    "margin", "better"} (intervals as dicts: labstats.Interval.as_dict)."""
    b = [p[figure] for p in phases["before"]]
    a = [p[figure] for p in phases["after"]]
    c = [p[figure] for p in phases["control"]]
    effect = labstats.ratio_interval(b, a, level)
    control = labstats.ratio_interval(b, c, level)
    return {"figure": figure, "margin": margin, "better": better,
            "effect": effect.as_dict(), "control": control.as_dict(),
            "helped": labstats.helped(effect, margin, better),
            "control_holds": labstats.holds_one(control)}


def sweep(values, apply, measure, repeats=SWEEP_REPEATS, seed=labstats.SEED):
    """Each of values measured repeats times: every repeat visits every
    value once, in an order of its own from random.Random(seed). Returns
    [phase...], each measure()'s dict with "value" and "round" added, in
    the order run."""
    rng = random.Random(seed)
    out = []
    for rnd in range(repeats):
        order = list(values)
        rng.shuffle(order)
        for value in order:
            apply(value)
            phase = dict(measure())
            phase["value"] = value
            phase["round"] = rnd
            out.append(phase)
    return out


def by_value(phases, figure="symptom"):
    """{value: [figure of each phase at it]}."""
    out = {}
    for p in phases:
        out.setdefault(p["value"], []).append(p[figure])
    return out


def size(phases, stock, suggested, fall=0.9, most=2.0):
    """What a sweep says of a suggestion: the smallest value that removes
    at least fall of the symptom at the stock value (and every larger
    value measured does too), whether the suggestion removes it, and
    whether it is at most `most` times that value. Returns a dict for the
    result: {"stock", "suggested", "smallest", "suggested_removes",
    "within", "most", "fall"}."""
    sym = by_value(phases)
    if stock not in sym:
        raise ValueError("the sweep did not measure the stock value %r" % (stock,))
    smallest = labstats.smallest_sufficient(sym, sym[stock], fall)
    removes = suggested in sym and labstats.removed(sym[suggested], sym[stock], fall)
    within = smallest is not None and removes and suggested <= most * smallest
    return {"stock": stock, "suggested": suggested, "smallest": smallest,
            "suggested_removes": bool(removes), "within": bool(within), "most": most,
            "fall": fall}
