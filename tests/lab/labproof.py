# SPDX-License-Identifier: ISC
"""The proof of a problem scenario's suggestion, after the operator's
rounds (labproblem.run_problem) have applied it and seen the finding
clear (issue 32):

- no ping-pong: the same workload for two more windows at the new value
  raises no finding, and the check gives no advice, that turns the
  tunable or a coupled one (problem.coupled) back, the other way than the
  change went (one that asks for more of the same, or holds it where it
  is, is noted);
- judged against noise: problem.repeats rounds of three phases, the stock
  value, the stock value written again (the no-change control) and the
  new value, interleaved (labsweep.interleaved); the workload's own
  figure's ratio new/stock must have its 95 % interval wholly beyond the
  scenario's margin, and the control's must hold 1;
- sized by a sweep: the tunable at values log-spaced from the stock value
  to 16 times it, and at the suggestion, each problem.sweep_repeats
  times; the suggestion must remove at least 90 % of the symptom and be
  at most problem.most times the smallest value that does; a suggestion
  the 16x cap decided fails unless the scenario is about the cap.

In quick mode (run.py --quick, TW_LAB_QUICK=1: what CI runs) only the
operator's rounds run, and the result says that nothing was judged
against noise. Every failure is collected, so that the result holds every
measurement even when the proof fails; the scenario then fails with all
of them.
"""

import os
import re
import time

import labcore
import labknobs
import labstats
import labsweep

QUICK_ENV = "TW_LAB_QUICK"
CAP = 16		# TW_ADVICE_SIZE_CAP


def quick():
    return os.environ.get(QUICK_ENV) == "1"


def undeclared(problem, base):
    """What a problem scenario must declare and did not (the margin, the
    figure's direction, the cost line), in words."""
    missing = []
    if type(problem).cost_line is base.cost_line:
        missing.append("a cost line (cost_line(old, new))")
    if problem.better not in ("lower", "higher"):
        missing.append("better ('lower' or 'higher', not %r)" % (problem.better,))
    if not 0 < problem.margin < 1:
        missing.append("a margin between 0 and 1 (not %r)" % (problem.margin,))
    elif problem.margin < 0.2 and not problem.margin_why:
        missing.append("why its margin is under 20 %% (margin_why; it is %d %%)" %
                       round(problem.margin * 100))
    if not problem.figure_what:
        missing.append("what its figure is (figure_what)")
    return missing


def knob_of(row, problem):
    """Whether a finding or change row names the scenario's tunable or a
    coupled one: a sysctl by its name, a queue attribute as queue/ATTR of
    the device the tunable's path names."""
    t = row.get("TUNABLE") or ""
    if not t:
        return False
    knobs = (problem.tunable,) + tuple(problem.coupled)
    if t in knobs:
        return True
    if t.startswith("queue/"):
        path = "/sys/block/%s/%s" % (row.get("SUBJECT"), t)
        return path in knobs or t in knobs
    return False


def _first(text):
    """The first number of a value ("851968", "6144 12288 24576"), or None."""
    try:
        return float((text or "").split()[0])
    except (IndexError, ValueError):
        return None


def direction(current, suggested):
    """+1 where suggested raises current, -1 where it lowers it, 0 where
    neither can be told (a word, a value that does not parse)."""
    a, b = _first(current), _first(suggested)
    if a is None or b is None or a == b:
        return 0
    return 1 if b > a else -1


def kind(current, suggested, up):
    """How a proposal for the tunable, in the windows after a change that
    went `up` (+1 raised, -1 lowered), counts: "held" where it proposes no
    value or the one the tunable has (the no-ratchet rule's hold, "was
    raised to X ... not raised again", which turns nothing), "more" where
    it goes on the way the change went, "turned" where it goes back, or
    the way cannot be told (a word such as a scheduler's)."""
    if not (suggested or "").strip() or (current or "").split() == suggested.split():
        return "held"
    d = direction(current, suggested)
    return "more" if d != 0 and d == up else "turned"


# The check's line for a raise held back (plugins/advise.c): its current
# value and why, no arrow, no value.
_HELD_LINE = re.compile(r"^tune: (\S+) (.*?), not raised again \((.*)\)$")


def check_advice(problem, advice, up):
    """The check's advice (labcore.advice_of) about the tunable or a
    coupled one, each as (kind, words)."""
    out = []
    for a in advice:
        tunable, current, suggested = a.tunable, a.current, a.suggested
        m = _HELD_LINE.match(a.line)
        if m:
            tunable, current, suggested = m.group(1), m.group(2), ""
        if tunable and (tunable == problem.tunable or tunable in problem.coupled or
                        tunable.endswith("/queue/read_ahead_kb") and
                        "queue/read_ahead_kb" in problem.coupled):
            out.append((kind(current, suggested, up), "the check: %s" % a.line))
    return out


def pingpong(lab, stack, problem, up, windows=2):
    """The workload for `windows` windows more at the new value: a finding,
    or a piece of the check's advice at the end, that turns the tunable or
    a coupled one back (the other way than the change went: up is +1 when
    it raised the value) is ping-pong; one that asks for more of the same
    (a host pool's finding that lags the window) is only noted, and so is
    one that holds it where it is (kind()). Every other finding and line
    is judged by labknobs: one naming a knob the scenario does not accept
    is "wrong". Returns {"seconds", "windows", "turned": [words], "more":
    [words], "held": [words], "wrong": [words]}."""
    lists = {"turned": [], "more": [], "held": [], "wrong": []}
    own = (problem.tunable,) if problem.tunable else ()

    def judged(rows, advice=()):
        for text in labknobs.sort(lab, rows, advice, own):
            if text not in lists["wrong"]:
                lists["wrong"].append(text)

    t0 = time.monotonic()
    end = t0 + windows * stack.window

    def note(k, words):
        if words not in lists[k]:
            lists[k].append(words)

    while time.monotonic() < end:
        rows = list(stack.findings().values())
        judged(rows)
        for x in rows:
            if knob_of(x, problem):
                note(kind(x.get("CURRENT"), x.get("SUGGESTED"), up),
                     "finding %s %s on %s: %s %s -> %s" % (
                         x.get("ID"), x.get("SYMPTOM"), x.get("SUBJECT"), x.get("TUNABLE"),
                         x.get("CURRENT"), x.get("SUGGESTED")))
        time.sleep(1.0)
    out = stack.check(problem.check, problem.check_args)
    judged(list(stack.findings().values()), labcore.advice_of(out))
    for k, words in check_advice(problem, labcore.advice_of(out), up):
        note(k, words)
    return dict(lists, seconds=round(time.monotonic() - t0, 1), windows=windows)


def capped(rounds):
    """The rounds whose suggestion the 16x cap decided: their tune line
    says so (lib/advice/format.c: "at most 16 times the current value"),
    the rule's sizing having stopped there, not at the need. A floor
    (read_ahead_kb's 128) or a doubling is no cap."""
    return [r["round"] for r in rounds
            if "at most %d times the current value" % CAP in (r.get("advice") or "")]


def _phase(problem, measure, notes):
    """One phase of the proof. A phase in which the workload reported
    nothing (stalled by others' load on this shared machine) is measured
    again, at most twice, and said in the results; the third fails."""
    def phase():
        for attempt in range(3):
            try:
                sym, work = measure(problem.phase_s)
                break
            except AssertionError as e:
                if attempt == 2 or "reported nothing" not in str(e):
                    raise
                notes.append("a phase measured again: %s" % e)
        return {"symptom": sym["value"], "workload": problem.judged(work),
                "symptom_text": sym["text"], "workload_text": work["text"]}
    return phase


def _judge(proof, problem, phases, failures):
    try:
        verdict = labsweep.judge(phases, problem.margin, problem.better)
        proof["verdict"] = verdict
        if not verdict["helped"]:
            failures.append("the workload's %s after/before %s is not wholly beyond the %d %% "
                            "margin (%s is better)" % (
                                problem.figure_what,
                                labstats.Interval.from_dict(verdict["effect"]).text(),
                                round(problem.margin * 100), problem.better))
        if not verdict["control_holds"]:
            failures.append("the no-change control's interval %s does not hold 1" %
                            labstats.Interval.from_dict(verdict["control"]).text())
    except ValueError as e:
        failures.append("no interval: %s" % e)


def prove_fix(lab, problem, workload, before, after, measure):
    """The proof of a fix that is the application's own (no tunable):
    problem.set_fixed(lab, workload, False/True) undoes and redoes it, so
    the same interleaved rounds and control judge it; nothing to sweep."""
    res = lab.result
    proof = res.setdefault("proof", {})
    proof.update({"stock": before, "final": after, "margin": problem.margin,
                  "margin_why": problem.margin_why, "better": problem.better,
                  "figure_what": problem.figure_what, "phase_s": problem.phase_s,
                  "cost": problem.cost_line(before, after)})
    res["symptom_unit"] = problem.symptom_unit
    if quick():
        proof["quick"] = True
        return

    def apply(fixed):
        problem.set_fixed(lab, workload, bool(fixed))
        time.sleep(problem.settle_s)

    failures = []
    t = time.monotonic()
    phases = labsweep.interleaved(0, 1, apply,
                                  _phase(problem, measure, proof.setdefault("retried", [])),
                                  repeats=problem.repeats)
    proof["phases"] = phases
    proof["phases_s"] = round(time.monotonic() - t, 1)
    _judge(proof, problem, phases, failures)
    apply(1)
    if failures:
        raise AssertionError("; ".join(failures))


def prove(lab, stack, problem, workload, stock, final, measure):
    """After the rounds: stock and final are the tunable's values (text, as
    the kernel prints them) before the first change and after the last.
    measure(seconds) -> (symptom figure, workload figure) of one phase.
    Fills lab.result["proof"] and raises AssertionError with every
    failure."""
    res = lab.result
    proof = res.setdefault("proof", {})
    proof["stock"] = " ".join(stock.split())
    proof["final"] = " ".join(final.split())
    proof["margin"] = problem.margin
    proof["margin_why"] = problem.margin_why
    proof["better"] = problem.better
    proof["figure_what"] = problem.figure_what
    proof["cost"] = problem.cost_line(proof["stock"], proof["final"])
    proof["phase_s"] = problem.phase_s
    res["symptom_unit"] = problem.symptom_unit
    failures = []
    caps = capped(res.get("rounds") or [])
    proof["capped_rounds"] = caps
    if caps and not problem.about_cap:
        failures.append("round %s's suggestion is the %dx cap: the cap, not the need, "
                        "sized it" % (", ".join(map(str, caps)), CAP))
    if quick():
        proof["quick"] = True
        if failures:
            raise AssertionError("; ".join(failures))
        return

    phase = _phase(problem, measure, proof.setdefault("retried", []))

    def apply(x):
        problem.set_value(lab, stack, workload, problem.value_text(x))
        time.sleep(problem.settle_s)

    # Two windows more, at the new value, before anything is turned back.
    s0, s1 = problem.value_number(stock), problem.value_number(final)
    proof["pingpong"] = pingpong(lab, stack, problem, 1 if s1 >= s0 else -1)
    for text in proof["pingpong"]["turned"]:
        failures.append("after the change, turned back: %s" % text)
    # A knob it does not accept is in the result's "wrong" too, which fails
    # the scenario when it has run (labcore.run_judged).
    proof["stock_number"], proof["final_number"] = s0, s1
    t = time.monotonic()
    phases = labsweep.interleaved(s0, s1, apply, phase, repeats=problem.repeats)
    proof["phases"] = phases
    proof["phases_s"] = round(time.monotonic() - t, 1)
    _judge(proof, problem, phases, failures)

    values = sorted(set(problem.sweep_values(s0)) | {s0, s1})
    proof["value_texts"] = {str(v): problem.value_text(v) for v in values}
    t = time.monotonic()
    points = labsweep.sweep(values, apply, phase, repeats=problem.sweep_repeats)
    proof["sweep"] = {"values": values, "points": points,
                      "seconds": round(time.monotonic() - t, 1)}
    try:
        size = labsweep.size(points, s0, s1, fall=0.9, most=problem.most)
        proof["sweep"]["size"] = size
        if size["smallest"] is None:
            failures.append("no value of the sweep up to %s removed 90 %% of the symptom" %
                            problem.value_text(max(values)))
        elif not size["suggested_removes"]:
            failures.append("the suggestion %s did not remove 90 %% of the symptom in the "
                            "sweep" % proof["final"])
        elif not size["within"]:
            failures.append("the suggestion %s is more than %sx the smallest value that "
                            "removes the symptom, %s" % (
                                proof["final"], labcore.fmt(problem.most),
                                problem.value_text(size["smallest"])))
    except ValueError as e:
        failures.append("no sizing: %s" % e)
    # Back at the suggestion, as the operator left it.
    apply(s1)
    if failures:
        raise AssertionError("; ".join(failures))
