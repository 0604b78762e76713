# SPDX-License-Identifier: ISC
"""doc/LAB.md from the lab's results (one labcore.Result a scenario).

Problems get one row each (symptom, when the finding was raised, the first
advice, what was applied, the symptom and the workload before the first
change and after the last, the evaluation, the rounds) and a section with
every round; healthy scenarios a row with their worst state and findings;
a scenario skipped here is listed with why, not left out.
"""

import labstats


def cell(text):
    """Text for a Markdown table cell."""
    return str(text if text is not None else "").replace("|", "\\|").replace("\n", " ")


def code(text):
    return "`%s`" % text if text else ""


def _fig(d, which, part):
    try:
        return d[which][part]["text"]
    except (KeyError, TypeError):
        return ""


def _iv(d):
    return labstats.Interval.from_dict(d).text() if d else ""


def effect_cell(r):
    """The workload's effect with its interval, and the control's."""
    proof = r.get("proof") or {}
    v = proof.get("verdict")
    if proof.get("quick"):
        return "not judged (quick run: one round)"
    if not v:
        return ""
    return "%s x %s (%s better by %d %%: %s); control %s (%s)" % (
        proof.get("figure_what", "figure"), _iv(v["effect"]), proof.get("better"),
        round(v["margin"] * 100), "beyond" if v["helped"] else "NOT beyond",
        _iv(v["control"]), "holds 1" if v["control_holds"] else "does NOT hold 1")


def sweep_cell(r):
    proof = r.get("proof") or {}
    size = (proof.get("sweep") or {}).get("size")
    if not size:
        return ""
    if size["smallest"] is None:
        return "no value removed 90 %"
    return "smallest removing 90 %%: %s; suggestion %s %s (at most %sx)" % (
        _val(r, size["smallest"]), _val(r, size["suggested"]),
        "removes it, %.2fx" % (size["suggested"] / size["smallest"])
        if size["suggested_removes"] else "does NOT remove it",
        _num(size["most"]))


def _val(r, number):
    """A swept number as the scenario writes it (labproof value_text)."""
    fmt = (r.get("proof") or {}).get("value_texts") or {}
    return fmt.get(str(number), _num(number) if isinstance(number, float) else str(number))


def short_row(r):
    rounds = r.get("rounds") or []
    proof = r.get("proof") or {}
    knob = r.get("tunable") or "(none: the application's own)"
    if proof.get("stock"):
        # A scenario that failed before its proof has no final value.
        change = "%s -> %s" % (proof["stock"], proof.get("final") or
                               (rounds[-1].get("suggested") if rounds else None) or "?")
    elif rounds and rounds[0].get("current"):
        change = "%s -> %s" % (rounds[0]["current"], rounds[-1].get("suggested"))
    else:
        change = ""
    return [r["name"], r.get("symptom", ""), knob, change, effect_cell(r), sweep_cell(r),
            str(len(rounds)) if rounds else "", _status(r)]


def _num(v):
    if v is None:
        return "(none)"
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _status(r):
    s = r["status"]
    if s == "pass":
        wait = r.get("lock_wait_s") or 0
        if wait >= 1:
            return "pass (%s s, %s s of it waiting for another lab)" % (r.get("seconds", ""),
                                                                    wait)
        return "pass (%s s)" % r.get("seconds", "")
    return "%s: %s" % (s, r.get("reason", ""))


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        out.append("| " + " | ".join(cell(c) for c in row) + " |")
    return out


def rounds_section(r):
    out = ["### %s" % r["name"], ""]
    if r.get("setup"):
        out += ["Set up: %s. Ran in %s (`%s`)." % (r["setup"], r.get("where", "?"),
                                                   r.get("file", "")), ""]
    for x in r.get("rounds") or []:
        ch = x.get("change") or {}
        out.append("%d. finding `%s` raised%s; advice: `%s`" % (
            x["round"], x.get("finding", ""),
            " %s s after the %s started" % (
                x["raised_s"], "symptom" if x.get("raised_from") == "symptom" else "workload")
            if "raised_s" in x else " (still)",
            x.get("advice", "")))
        if x.get("held_note"):
            out.append("   while raised: %s" % x["held_note"])
        if x.get("applied"):
            out.append("   applied `%s`%s" % (x["applied"], "; " + x["applied_note"]
                                               if x.get("applied_note") else ""))
        if x.get("after"):
            out.append("   symptom %s -> %s; workload %s -> %s" % (
                _fig(x, "before", "symptom"), _fig(x, "after", "symptom"),
                _fig(x, "before", "workload"), _fig(x, "after", "workload")))
        if ch:
            out.append("   twChangeTable: %s %s -> %s, %s %s -> %s %s: %s" % (
                r.get("tunable", "") or "", ch.get("OLD_VALUE"), ch.get("NEW_VALUE"),
                ch.get("FIGURE"), _num(ch.get("BEFORE")), _num(ch.get("AFTER")),
                ch.get("FIGURE_UNIT", ""), x.get("evaluation", "")))
        if "cleared_s" in x:
            out.append("   the finding cleared %s s after the change (twFindingCleared)" %
                       x["cleared_s"])
    out += proof_section(r)
    for n in r.get("notes") or []:
        out.append("- " + n)
    if r.get("other_findings"):
        out.append("- other findings while it ran (the host's own, or this one's seen from "
                   "another pool): " + "; ".join(r["other_findings"]))
    out.append("")
    return out


def proof_section(r):
    """The proof's measurements in words, and the sweep's plot."""
    proof = r.get("proof") or {}
    out = []
    if not proof:
        return out
    if proof.get("cost"):
        out.append("- cost or risk of %s -> %s: %s" % (proof["stock"], proof["final"],
                                                       proof["cost"]))
    if proof.get("capped_rounds"):
        out.append("- round %s's suggestion was the 16x cap" %
                   ", ".join(map(str, proof["capped_rounds"])))
    if proof.get("quick"):
        out.append("- quick run: the operator's rounds only; no repeats, control, sweep or "
                   "ping-pong check")
        return out
    for n in proof.get("retried") or []:
        out.append("- " + n)
    pp = proof.get("pingpong")
    if pp:
        out.append("- after the change, the same workload %s s (%d windows) more: %s" % (
            pp.get("seconds", "?"), pp["windows"], "TURNED BACK: " + "; ".join(pp["turned"])
            if pp["turned"] else "no finding and no advice turned %s or a knob coupled to "
            "it back" % r.get("tunable")))
        if pp.get("more"):
            out.append("  - asking for more of the same (not ping-pong): " +
                       "; ".join(pp["more"]))
        if pp.get("held"):
            out.append("  - held where it is, no value proposed (not ping-pong): " +
                       "; ".join(pp["held"]))
    ph = proof.get("phases")
    v = proof.get("verdict")
    if ph:
        n = len(ph["before"])
        out.append("- judged against noise: %d rounds of three phases of %s s (%s; the stock "
                   "value written again, the no-change control; %s), interleaved, in %s s:" % (
                       n, _num(r.get("phase_s") or proof.get("phase_s") or 0) or "?",
                       proof["stock"], proof["final"], proof.get("phases_s")))
        for which in ("before", "control", "after"):
            out.append("  - %s: %s" % (which, "; ".join(
                "%s (%s)" % (p.get("workload_text") or _num(p["workload"]),
                             p.get("symptom_text") or _num(p["symptom"])) for p in ph[which])))
    if v:
        out.append("  - the workload's %s after/before: %s, 95 %% interval (%s, %d and %d "
                   "phases); margin %d %%%s: %s; the control: %s: %s" % (
                       proof.get("figure_what"), _iv(v["effect"]),
                       "Hodges-Lehmann, exact Mann-Whitney" if v["effect"]["method"] == "hl"
                       else v["effect"]["method"], v["effect"]["n_after"],
                       v["effect"]["n_before"], round(v["margin"] * 100),
                       " (%s)" % proof["margin_why"] if proof.get("margin_why") else "",
                       "helped" if v["helped"] else "not beyond the margin",
                       _iv(v["control"]), "holds 1" if v["control_holds"] else
                       "does not hold 1"))
    sw = proof.get("sweep")
    if sw:
        size = sw.get("size") or {}
        rows = []
        for val in sorted(sw["values"]):
            at = [p for p in sw["points"] if p["value"] == val]
            rows.append("%s: %s" % (_val(r, val), ", ".join(
                _num(p["symptom"]) for p in at)))
        out.append("- the sweep (%s repeats a value, in %s s), the symptom in %s at each "
                   "value: %s" % (len(sw["points"]) // max(1, len(sw["values"])),
                                  sw.get("seconds"), r.get("symptom_unit", "its unit"),
                                  "; ".join(rows)))
        if size:
            out.append("  - %s" % sweep_cell(r))
        if proof.get("plot"):
            out += ["", "![%s: the sweep](%s)" % (r["name"], proof["plot"])]
    return out


def summary(results, info):
    """The run as data, for the build's tests (doc/LAB.json beside
    LAB.md): per scenario its name, kind, status, tunable, from -> to and
    the workload's effect (the interval of new/old and the control's)."""
    out = {"date": info.get("date"), "quick": bool(info.get("quick")),
           "lock_wait_s": round(sum(r.get("lock_wait_s") or 0 for r in results), 1),
           "only": info.get("only") or [], "seconds": info.get("seconds"),
           "commit": (info.get("machine") or {}).get("commit"), "scenarios": []}
    for r in results:
        proof = r.get("proof") or {}
        s = {"name": r["name"], "kind": r.get("kind"), "status": r["status"],
             "reason": r.get("reason", ""), "tunable": r.get("tunable", ""),
             "file": r.get("file", ""), "rounds": len(r.get("rounds") or []),
             "seconds": r.get("seconds"), "lock_wait_s": r.get("lock_wait_s")}
        if proof.get("stock") is not None:
            s["from"], s["to"] = proof.get("stock"), proof.get("final")
        v = proof.get("verdict")
        if v:
            e, c = v["effect"], v["control"]
            s["effect"] = {"figure": proof.get("figure_what"), "better": v["better"],
                           "margin": v["margin"], "ratio": e["est"], "low": e["lo"],
                           "high": e["hi"], "helped": v["helped"],
                           "text": labstats.Interval.from_dict(e).text(),
                           "control": {"ratio": c["est"], "low": c["lo"], "high": c["hi"],
                                       "holds_one": v["control_holds"]}}
        size = (proof.get("sweep") or {}).get("size")
        if size:
            s["sweep"] = size
        if proof.get("quick"):
            s["quick"] = True
        out["scenarios"].append(s)
    return out


def machine_lines(info):
    m = info.get("machine") or {}
    if not m:
        return []
    return ["| | |", "|---|---|"] + ["| %s | %s |" % (k, cell(m[k])) for k in
                                      ("commit", "kernel", "CPUs", "memory", "disks",
                                       "virtualisation", "load") if m.get(k)]


def render(results, info):
    problems = [r for r in results if r.get("kind") == "problem" and r["status"] != "skip"]
    healthy = [r for r in results if r.get("kind") == "healthy" and r["status"] != "skip"]
    negative = [r for r in results if r.get("kind") == "negative" and r["status"] != "skip"]
    other = [r for r in results if r.get("kind") not in ("problem", "healthy", "negative")
             and r["status"] != "skip"]
    skipped = [r for r in results if r["status"] == "skip"]
    mins, secs = divmod(int(info["seconds"]), 60)
    quick = bool(info.get("quick"))
    out = [
        "# The tuning lab",
        "",
        "Each suggestion of tunewatch applied on a real kernel, judged against noise and sized",
        "by a sweep, and healthy work that must raise nothing. Written by `make lab`",
        "(`tests/lab/run.py`; how a scenario works and plugs in:",
        "[tests/lab/README.md](../tests/lab/README.md)); do not edit by hand.",
        "",
        "Run %s, %d scenarios in %d min %02d s (%d min %02d s of it waiting for other labs "
        "on this machine)%s%s." % (
            info["date"], len(results), mins, secs,
            *divmod(int(sum(r.get("lock_wait_s") or 0 for r in results)), 60),
            " (only %s)" % ", ".join(info["only"]) if info.get("only") else "",
            "; QUICK: the operator's rounds only, nothing judged against noise or swept"
            if quick else ""),
        "",
    ]
    out += machine_lines(info)
    out += [
        "",
        "How it was run. tunewatchd had its default thresholds and hold-down (a finding is",
        "raised on the third sample in a row with its symptom and cleared after three without),",
        "sampling every second over a 10 s window instead of every 5 s over 60 s. A problem",
        "scenario first does what an operator would: the finding raised (\"raised after\" counts",
        "from the first rise of the symptom's counter), the check's advice, its `apply:` line",
        "run exactly, the change history evaluated, the finding cleared, another ticket if not.",
        "Then, unless the run was quick: the same workload two more windows at the new value",
        "(no finding may turn that knob or a coupled one back); five rounds of three phases,",
        "interleaved -- the value it started from, the new value, the old value written again;",
        "by turns the first or the last of the two at the old value is the no-change control,",
        "so that it follows a change as often as the \"before\" does -- and the ratio new/old",
        "of the workload's own figure with its",
        "95 % interval (Hodges-Lehmann, exact Mann-Whitney), which must lie wholly beyond the",
        "scenario's margin while the control's holds 1; a sweep of the tunable from the value it",
        "started from to 16 times it (six values, log-spaced) and the suggestion, three times",
        "each in a seeded order, for the smallest value that removes 90 % of the symptom: the",
        "suggestion must remove it and be at most twice that value. The machine is shared (its",
        "load average is in the table above): the interleaving spreads others' load over both",
        "sides, and the control shows what it does to a change that changes nothing.",
        "",
        "tunewatchd runs where the tunable is: a sysctl of a network namespace (somaxconn) in",
        "the scenario's namespace; netdev_max_backlog, tcp_mem and udp_mem (global here) and",
        "rmem_*/wmem_* (read-only in a child namespace) on the host's, each value put back.",
        "",
    ]
    if problems:
        out += ["## Problems", ""]
        out += table(["scenario", "symptom", "knob", "from -> to", "the workload's effect "
                      "(ratio new/old, 95 % interval)", "sweep", "rounds", "result"],
                     [short_row(r) for r in problems])
        out += ["", "Each scenario:", ""]
        for r in problems:
            out += rounds_section(r)
    if negative:
        out += ["## Negative controls: no knob helps, and none may be named", ""]
        out += table(["scenario", "symptom", "worst state", "findings",
                      "findings naming a knob that does not help", "result"],
                     [[r["name"], r.get("symptom", ""),
                       ", ".join("%s %s" % kv for kv in sorted((r.get("worst") or {}).items())),
                       ", ".join(r.get("findings") or []) or "none",
                       ", ".join(r.get("wrong") or []) or "none", _status(r)]
                      for r in negative])
        out.append("")
        for r in negative:
            if r.get("notes") or r.get("setup"):
                out += ["### %s" % r["name"], ""]
                if r.get("setup"):
                    out += ["Set up: %s (`%s`)." % (r["setup"], r.get("file", "")), ""]
                out += ["- " + n for n in r.get("notes") or []] + [""]
    if healthy:
        out += ["## Healthy but busy: nothing to page on", ""]
        out += table(["scenario", "workload", "worst state", "findings", "result"],
                     [[r["name"], r.get("symptom", "") or r.get("workload", ""),
                       ", ".join("%s %s" % kv for kv in sorted((r.get("worst") or {}).items())),
                       ", ".join(r.get("findings") or []) or "none", _status(r)]
                      for r in healthy])
        out.append("")
        for r in healthy:
            if r.get("notes"):
                out += ["### %s" % r["name"], ""] + ["- " + n for n in r["notes"]] + [""]
    if other:
        out += ["## The lab itself", ""]
        out += table(["check", "what", "result"],
                     [[r["name"], r.get("symptom", ""), _status(r)] for r in other])
        out.append("")
        for r in other:
            if r.get("notes"):
                out += ["### %s" % r["name"], ""] + ["- " + n for n in r["notes"]] + [""]
    if skipped:
        out += ["## Not provoked here", ""]
        out += table(["scenario", "symptom", "why"],
                     [[r["name"], r.get("symptom", ""), r.get("reason", "")] for r in skipped])
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
