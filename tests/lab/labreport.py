"""doc/LAB.md from the lab's results (one labcore.Result a scenario).

Problems get one row each (symptom, when the finding was raised, the first
advice, what was applied, the symptom and the workload before the first
change and after the last, the evaluation, the rounds) and a section with
every round; healthy scenarios a row with their worst state and findings;
a scenario skipped here is listed with why, not left out.
"""


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


def problem_row(r):
    rounds = r.get("rounds") or []
    first = rounds[0] if rounds else {}
    last = rounds[-1] if rounds else {}
    applied = "; ".join(code(x.get("applied")) for x in rounds if x.get("applied"))
    notes = [x.get("applied_note") for x in rounds if x.get("applied_note")]
    if notes:
        applied += " (%s)" % notes[-1]
    ev = last.get("evaluation", "")
    ch = last.get("change") or {}
    if ch.get("FIGURE"):
        ev = "%s: %s %s -> %s %s" % (ev, ch["FIGURE"], _num(ch.get("BEFORE")),
                                      _num(ch.get("AFTER")), ch.get("FIGURE_UNIT", ""))
    raised = "%s s" % first["raised_s"] if "raised_s" in first else ""
    return [r["name"], r.get("symptom", ""), r.get("where", ""), raised,
            code(first.get("advice")), applied,
            "%s -> %s" % (_fig(r, "before", "symptom"), _fig(r, "after", "symptom"))
            if r.get("after") else _fig(r, "before", "symptom"),
            "%s -> %s" % (_fig(r, "before", "workload"), _fig(r, "after", "workload"))
            if r.get("after") else _fig(r, "before", "workload"),
            ev, str(len(rounds)) if rounds else "", _status(r)]


def _num(v):
    if v is None:
        return "(none)"
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _status(r):
    s = r["status"]
    if s == "pass":
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
            " after %s s of the workload" % x["raised_s"] if "raised_s" in x else " (still)",
            x.get("advice", "")))
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
    for n in r.get("notes") or []:
        out.append("- " + n)
    if r.get("other_findings"):
        out.append("- other findings while it ran (the host's own, or this one's seen from "
                   "another pool): " + "; ".join(r["other_findings"]))
    out.append("")
    return out


def render(results, info):
    problems = [r for r in results if r.get("kind") == "problem" and r["status"] != "skip"]
    healthy = [r for r in results if r.get("kind") == "healthy" and r["status"] != "skip"]
    other = [r for r in results if r.get("kind") not in ("problem", "healthy")
             and r["status"] != "skip"]
    skipped = [r for r in results if r["status"] == "skip"]
    mins, secs = divmod(int(info["seconds"]), 60)
    out = [
        "# The tuning lab",
        "",
        "Every suggestion of tunewatch applied on a real kernel and seen to help, and healthy",
        "work that must raise nothing. Written by `make lab` (`tests/lab/run.py`; how a",
        "scenario works and plugs in: [tests/lab/README.md](../tests/lab/README.md)); do not",
        "edit by hand.",
        "",
        "Run %s on Linux %s, %s CPUs, load %s; %d scenarios in %d min %02d s%s." % (
            info["date"], info["kernel"], info["cpus"], info["load"], len(results), mins, secs,
            " (only %s)" % ", ".join(info["only"]) if info.get("only") else ""),
        "",
        "tunewatchd ran with its default thresholds and hold-down (a finding is raised on the",
        "third sample in a row with its symptom and cleared after three without), sampling",
        "every second over a 10 s window instead of every 5 s over 60 s, so that a round takes",
        "seconds. \"Raised after\" counts from the start of the workload. The evaluation is the",
        "change record's (twChangeBefore and twChangeAfter, the figure over the window before",
        "the change and the window after it): \"helped\" when it fell by 90 % or more.",
        "",
        "tunewatchd runs where the tunable is. A sysctl of a network namespace (somaxconn) is",
        "read, and its change seen, only inside that namespace, so there the whole stack runs in",
        "the scenario's namespace and the host's value is left alone. netdev_max_backlog,",
        "tcp_mem and udp_mem are global on this kernel (a child namespace has no such file), and",
        "rmem_default and rmem_max are read-only in a child namespace (it follows the host's",
        "value): those scenarios run tunewatchd in the host's namespace, their traffic on",
        "127.0.0.1 or in a namespace of their own, and put back every value they change.",
        "",
    ]
    if problems:
        out += ["## Problems: the suggestion applied, and the symptom gone", ""]
        out += table(["scenario", "symptom", "where", "raised after", "advice (first round)",
                      "applied", "symptom before -> after", "workload before -> after",
                      "evaluation (last round)", "rounds", "result"],
                     [problem_row(r) for r in problems])
        out += ["", "Each round:", ""]
        for r in problems:
            out += rounds_section(r)
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
