# SPDX-License-Identifier: ISC
"""A disk problem's round in the guest, as an operator goes: the workload
runs; check_disklatency (thresholds given, a device named) prints its
advice; the control (the tunable's current value written again) and the
advice's apply: line, run exactly as printed, each followed by the same
measurement of the reader, whose latency comes from its own clock (fio's
clat percentiles, REPEATS runs of RUN_S seconds each). "Helped" is the
reader's p50 and p99 better by HELPED or more, the interval of the REPEATS
runs wholly beyond it, and the control's interval holding 1.
"""

import re

import guestdisks
import guestlab
from guestlab import figure

REPEATS = 3
RUN_S = 10
HELPED = 1.25


class Measure:
    """The reader's fio job, run REPEATS times: p50, p99 and IOPS of each."""

    def __init__(self, g, argv):
        self.g, self.argv = g, argv

    def __call__(self, what):
        runs = []
        for _ in range(REPEATS):
            j = guestdisks.fio(self.g, self.argv + ["--runtime=%d" % RUN_S, "--time_based"],
                               timeout=RUN_S * 10 + 120)
            x = j.get("read") or j.get("write")
            runs.append(x)
        p50 = [r["clat_p50_us"] / 1000 for r in runs]
        p99 = [r["clat_p99_us"] / 1000 for r in runs]
        iops = [r["iops"] for r in runs]
        m50 = sum(p50) / len(p50)
        m99 = sum(p99) / len(p99)
        return {"p50": p50, "p99": p99, "iops": iops,
                "fig": figure(round(m50, 2), "ms", "%s: p50 %.1f ms (%s), p99 %.1f ms (%s), "
                              "%.0f IOPS" % (what, m50, " ".join("%.1f" % v for v in p50), m99,
                                             " ".join("%.1f" % v for v in p99),
                                             sum(iops) / len(iops)))}


def ratio_bounds(before, after):
    """before/after of the means, and its low and high ends from the
    runs' intervals."""
    mb, lb, hb = guestlab.interval(before)
    ma, la, ha = guestlab.interval(after)
    return mb / ma, (lb / ha if ha > 0 else float("inf")), (hb / la if la > 0 else float("inf"))


def advice_for(ctx, dev, tunable, args):
    """check_disklatency's advice naming dev's tunable (queue/scheduler,
    ...): the check's output and the one Advice."""
    out = ctx.agent.check("check_disklatency", args)
    path = "/sys/block/%s/queue/%s" % (dev, tunable)
    mine = [a for a in out.advice() if a.tunable == path]
    return out, mine


def round_of(ctx, dev, tunable, args, measure, control_line, before_hook=None):
    """One round: advice, before, control, apply, after. Returns the
    round's dict and the figures; asserts only what is needed to go on
    (an advice to apply); the caller judges."""
    g, res = ctx.guest, ctx.result
    out = guestlab.wait_for("check_disklatency to advise %s's %s" % (dev, tunable),
                            lambda: (lambda o: o if o[1] else None)(
                                advice_for(ctx, dev, tunable, args)), timeout=90, step=3)
    check, mine = out
    adv = mine[0]
    r = {"round": len(res["rounds"]) + 1, "advice": adv.line, "check": check.first,
         "apply_printed": adv.apply,
         "other_advice": [a.line for a in check.advice() if a is not adv]}
    res["rounds"].append(r)
    assert adv.apply and re.match(r"^echo \S+ > /sys/block/%s/queue/%s$" % (dev, tunable),
                                  adv.apply), "an apply line to run: %r" % adv.apply
    if before_hook:
        before_hook()
    before = measure("before")
    g.sh(control_line)
    control = measure("control (%s)" % control_line)
    d = g.run(["sh", "-c", adv.apply], check=False)
    assert d.rc == 0, "%s: exit %d %s" % (adv.apply, d.rc, d.err)
    r["applied"] = adv.apply
    after = measure("after")
    for k in ("p50", "p99"):
        m, lo, hi = ratio_bounds(before[k], after[k])
        r["%s_ratio" % k] = [round(m, 2), round(lo, 2), round(hi, 2)]
        cm, clo, chi = ratio_bounds(before[k], control[k])
        r["control_%s_ratio" % k] = [round(cm, 2), round(clo, 2), round(chi, 2)]
    r["before"] = {"workload": before["fig"]}
    r["control"] = {"workload": control["fig"]}
    r["after"] = {"workload": after["fig"]}
    helped = all(r["%s_ratio" % k][1] >= HELPED for k in ("p50", "p99"))
    control_still = all(r["control_%s_ratio" % k][1] <= 1 <= r["control_%s_ratio" % k][2]
                        for k in ("p50", "p99"))
    r["evaluation"] = "helped" if helped and control_still else (
        "control moved" if not control_still else "did not help")
    res.note("round %d %s: %s; %s; %s; reader p50 %.2fx (%.2f-%.2f), p99 %.2fx (%.2f-%.2f); "
             "control p50 %.2fx (%.2f-%.2f)" % (
                 r["round"], adv.apply, before["fig"]["text"], control["fig"]["text"],
                 after["fig"]["text"], *r["p50_ratio"], *r["p99_ratio"],
                 *r["control_p50_ratio"]))
    return r
