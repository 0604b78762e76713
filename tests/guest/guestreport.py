# SPDX-License-Identifier: ISC
"""doc/LAB-GUEST.md from the guest lab's results (tests/guest/run.py).

The results have the lab's shape (tests/lab/README.md), so a problem row
reads as LAB.md's; a "system" scenario (the installed package) is one row
for each of its checks.
"""


def cell(text):
    return str(text if text is not None else "").replace("|", "\\|").replace("\n", " ")


def code(text):
    return "`%s`" % text if text else ""


def _fig(r, which, part):
    try:
        return r[which][part]["text"]
    except (KeyError, TypeError):
        return ""


def _table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def _status(r):
    s = r["status"]
    if s == "pass":
        return "pass (%s s)" % r.get("seconds", "")
    return "%s: %s" % (s, r.get("reason", "").split("\n")[0][:300])


def problem_row(r):
    rounds = r.get("rounds") or []
    first = rounds[0] if rounds else {}
    applied = "; ".join(code(x.get("applied")) for x in rounds if x.get("applied"))
    return [r["name"], r.get("symptom", ""), r.get("setup", ""), code(first.get("advice")),
            applied,
            "%s -> %s" % (_fig(r, "before", "symptom"), _fig(r, "after", "symptom"))
            if r.get("after") else _fig(r, "before", "symptom"),
            "%s -> %s" % (_fig(r, "before", "workload"), _fig(r, "after", "workload"))
            if r.get("after") else _fig(r, "before", "workload"),
            first.get("evaluation", ""), _status(r)]


def coverage_section(cov):
    """cov: (rows, counts) from coverage.rows(), or a string saying why
    there is no table."""
    out = ["## Every Linux action of lib/advice, and the scenario that shows it\n",
           "Issue 33 asks for a row for every rule of lib/advice that carries a Linux action. "
           "The rules are the product's own (tests/advice_rules prints lib/advice's tables: "
           "rules.c's rules, each ratio/bytes twin, a service's limit in each form its ticket "
           "writes); tests/guest/coverage.py names the scenarios that show each, or why none "
           "does, and tests/guest_coverage.py (make check) fails when a rule has no row. "
           "\"shown\": a scenario that shows it passed in its latest run (the guest's: this "
           "report's run; the lab's: doc/LAB.json, or doc/LAB.md's table where there is no "
           "LAB.json); \"proof.c\": the effect the product's tune line cites.\n"]
    if isinstance(cov, str):
        out.append(cov + "\n")
        return out
    rows, counts = cov
    out.append("%d actions: %s.\n" % (len(rows), ", ".join(
        "%d %s" % (n, state) for state, n in counts.items())))
    out.append(_table(["symptom", "tunable", "where", "action", "state",
                       "scenarios (latest result, workload's figure) or why not yet",
                       "proof.c"], rows))
    return out


def report(results, run, coverage=None):
    img = run.get("image") or {}
    boot = run.get("boot") or {}
    out = ["# The lab on a real system: a Debian guest\n",
           "Written by `make lab-guest` (tests/guest/run.py, tests/guest/README.md) on %s. "
           "tunewatch's own Debian packages (contrib/build-debs) installed with `apt install "
           "./*.deb` in a Debian %s guest (systemd, cgroup v2) under qemu with TCG; snmpd and "
           "tunewatchd started by systemd from their packages' units."
           % (run.get("date", ""), img.get("suite", "")),
           "",
           "- image: %s, key %s, built %s (mmdebstrap %s s, all %s s); found or built in "
           "%s s this run" % (img.get("kernel", ""), img.get("key", ""), img.get("built", ""),
                              img.get("mmdebstrap_s", ""), img.get("total_s", ""),
                              img.get("found_s", "")),
           "- first boot: %s s of wall time, multi-user at %s s of guest uptime"
           % (boot.get("wall", ""), boot.get("uptime", ""))]
    # The reboots a scenario asks for (the package's, to see the units
    # start at boot) are not the first boot: they have a line of their own.
    for n, b in enumerate(run.get("reboots") or [], 1):
        out.append("- reboot %d: %s s of wall time, multi-user at %s s of guest uptime"
                   % (n, b.get("wall", ""), b.get("uptime", "")))
    out += ["- the whole run: %s s%s" % (run.get("seconds", ""), (
        ", after %s s waiting for the lab lock" % run["lock_wait_s"])
        if run.get("lock_wait_s") else ""), ""]
    system = [r for r in results if r.get("kind") == "system"]
    if system:
        out.append("## The installed system\n")
        rows = []
        for r in system:
            for c in r.get("checks", []):
                rows.append([r["name"], c["check"], "ok" if c["ok"] else "FAILED", c["figure"]])
            if r["status"] != "pass":
                rows.append([r["name"], "(scenario)", r["status"],
                             r.get("reason", "").split("\n")[0][:300]])
        out.append(_table(["scenario", "check", "result", "measured"], rows))
    problems = [r for r in results if r.get("kind") == "problem"]
    if problems:
        out.append("## Problems provoked, advice applied as printed\n")
        out.append(_table(["scenario", "symptom", "setup", "first advice", "applied",
                           "symptom before -> after", "workload before -> after",
                           "evaluation", "status"], [problem_row(r) for r in problems]))
    healthy = [r for r in results if r.get("kind") == "healthy"]
    if healthy:
        out.append("## Healthy work: no finding wanted\n")
        out.append(_table(["scenario", "workload", "worst states", "findings", "status"],
                          [[r["name"], r.get("workload", ""),
                            ", ".join("%s %s" % kv for kv in (r.get("worst") or {}).items()),
                            ", ".join(r.get("findings") or []) or "none", _status(r)]
                           for r in healthy]))
    negative = [r for r in results if r.get("kind") == "negative"]
    if negative:
        out.append("## Negative controls: a knob that would not help, which no advice may "
                   "name\n")
        out.append(_table(["scenario", "what", "where", "advice naming it", "status"],
                          [[r["name"], r.get("workload", ""), r.get("where", ""),
                            "; ".join(code(x) for x in r.get("findings") or []) or "none",
                            _status(r)] for r in negative]))
    if coverage is not None:
        out += coverage_section(coverage)
    notes = [(r["name"], n) for r in results for n in r.get("notes", [])]
    if notes:
        out.append("## Notes\n")
        out += ["- %s: %s" % (name, n) for name, n in notes]
        out.append("")
    return "\n".join(out)
