# SPDX-License-Identifier: ISC
"""A disk problem's round in the guest, as an operator goes: the workload
runs; check_disklatency (thresholds given, a device named) prints its
advice; then, REPEATS times in turn, the reader measured at the value in
force, at the value in force written again (the control) and after the
advice's apply: line, run exactly as printed; the reader's latency comes
from its own clock (fio's clat percentiles, runs of RUN_S seconds).
"Helped" is the reader's p50 better by HELPED or more (the 95 % interval
of the REPEATS ratios, each run before over the run after it, wholly
beyond HELPED) and its p99 no worse (that interval not wholly below 1),
with the control's intervals holding 1.
"""

import re

import guestdisks
import guestlab
from guestlab import figure

REPEATS = 5
RUN_S = 6
HELPED = 1.25


class Measure:
    """The reader's fio job: one run of RUN_S seconds, its p50, p99 (ms)
    and IOPS."""

    def __init__(self, g, argv):
        self.g, self.argv = g, argv

    def __call__(self):
        j = guestdisks.fio(self.g, self.argv + ["--runtime=%d" % RUN_S, "--time_based"],
                           timeout=RUN_S * 10 + 120)
        x = j.get("read") or j.get("write")
        return {"p50": x["clat_p50_us"] / 1000, "p99": x["clat_p99_us"] / 1000,
                "iops": x["iops"]}


def summary(runs, what):
    p50 = [r["p50"] for r in runs]
    p99 = [r["p99"] for r in runs]
    iops = [r["iops"] for r in runs]
    m50, m99 = sum(p50) / len(p50), sum(p99) / len(p99)
    return {"p50": p50, "p99": p99, "iops": iops,
            "fig": figure(round(m50, 2), "ms", "%s: p50 %.1f ms (%s), p99 %.1f ms (%s), "
                          "%.0f IOPS" % (what, m50, " ".join("%.1f" % v for v in p50), m99,
                                         " ".join("%.1f" % v for v in p99),
                                         sum(iops) / len(iops)))}


def advice_for(ctx, dev, tunable, args):
    """check_disklatency's advice naming dev's tunable (queue/scheduler,
    ...): the check's output and the one Advice."""
    out = ctx.agent.check("check_disklatency", args)
    path = "/sys/block/%s/queue/%s" % (dev, tunable)
    mine = [a for a in out.advice() if a.tunable == path]
    return out, mine


def round_of(ctx, dev, tunable, args, measure, control_line, before_hook=None):
    """The reader runs (measure.argv, for as long as it takes) while the
    check is asked, so that the window holds its reads; then it is timed."""
    g = ctx.guest
    g.run(["systemd-run", "--unit", "tw-reader", "--collect", "fio"] + measure.argv +
          ["--time_based", "--runtime=3600"])
    try:
        return _round_of(ctx, dev, tunable, args, measure, control_line, before_hook)
    finally:
        g.run(["systemctl", "stop", "tw-reader"], check=False)


def _round_of(ctx, dev, tunable, args, measure, control_line, before_hook=None):
    """One round: advice, before, control, apply, after. Returns the
    round's dict and the figures; asserts only what is needed to go on
    (an advice to apply); the caller judges."""
    g, res = ctx.guest, ctx.result
    last = []

    def advised():
        o = advice_for(ctx, dev, tunable, args)
        last[:] = [o[0]]
        return o if o[1] else None
    try:
        check, mine = guestlab.wait_for("check_disklatency to advise %s's %s" % (dev, tunable),
                                        advised, timeout=90, step=3)
    except AssertionError as e:
        raise AssertionError("%s; the check's last output: %s" % (
            e, last[0].text[:1500] if last else "none"))
    adv = mine[0]
    r = {"round": len(res["rounds"]) + 1, "advice": adv.line, "check": check.first,
         "apply_printed": adv.apply,
         "other_advice": [a.line for a in check.advice() if a is not adv]}
    res["rounds"].append(r)
    assert adv.apply and re.match(r"^echo \S+ > /sys/block/%s/queue/%s$" % (dev, tunable),
                                  adv.apply), "an apply line to run: %r" % adv.apply
    g.run(["systemctl", "stop", "tw-reader"], check=False)
    if before_hook:
        before_hook()
    # Interleaved, so that a load that drifts (the machine is shared)
    # falls on all three alike: the value in force, the value in force
    # written again (the control), the advice's apply line as printed.
    runs = {"before": [], "control": [], "after": []}
    for _ in range(REPEATS):
        g.sh(control_line)
        runs["before"].append(measure())
        g.sh(control_line)
        runs["control"].append(measure())
        d = g.run(["sh", "-c", adv.apply], check=False)
        assert d.rc == 0, "%s: exit %d %s" % (adv.apply, d.rc, d.err)
        runs["after"].append(measure())
    r["applied"] = adv.apply
    before = summary(runs["before"], "before")
    control = summary(runs["control"], "control (%s)" % control_line)
    after = summary(runs["after"], "after")
    r["effect"] = {k: guestlab.effect_paired("the reader's clat %s (ms)" % k, before[k],
                                             after[k], control[k], margin=HELPED - 1)
                   for k in ("p50", "p99")}
    res["effect"] = r["effect"]["p50"]
    r["before"] = {"workload": before["fig"]}
    r["control"] = {"workload": control["fig"]}
    r["after"] = {"workload": after["fig"]}
    e50, e99 = r["effect"]["p50"], r["effect"]["p99"]
    # The typical read helped, the slowest no worse (its interval not
    # wholly below 1).
    helped = e50["helped"] and e99["high"] >= 1
    control_still = e50["control"]["holds_one"] and e99["control"]["holds_one"]
    r["evaluation"] = "helped" if helped and control_still else (
        "control moved" if not control_still else "did not help")
    res.note("round %d %s: %s; %s; %s; %s; %s; control p50 %.2fx (%.2f-%.2f), p99 %.2fx "
             "(%.2f-%.2f)" % (r["round"], adv.apply, before["fig"]["text"],
                              control["fig"]["text"], after["fig"]["text"], e50["text"],
                              e99["text"], e50["control"]["ratio"], e50["control"]["low"],
                              e50["control"]["high"], e99["control"]["ratio"],
                              e99["control"]["low"], e99["control"]["high"]))
    return r
