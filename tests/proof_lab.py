#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""lib/advice/proof.c held to the lab: every row that says a knob is
proven names a problem scenario of tests/lab (its META name and kind, and
the symptom and tunable its Problem raises), and, in the committed results
of a whole lab run (doc/LAB.json, written by `make lab` beside doc/LAB.md),
that scenario passed, its effect helped beyond its margin with a control
that held 1, and the effect is the one the row prints. A row whose claim
the results do not bear out fails, with the row to write instead.

The rows of knobs tried and not shown (proof.c's `tried`) are held to the
guest lab's committed whole run (doc/LAB-GUEST.json): each names a problem
scenario of tests/guest that did not pass there, and the effect it quotes
is that run's (a row with no effect quotes a run in which no advice came).

Without doc/LAB.json in the tree (no whole run committed yet) the first
part still runs and the second is skipped, said so (exit 77 when it is all
that is left)."""

import glob
import json
import os
import re
import subprocess
import sys

TOP = os.environ.get("top_srcdir",
                     os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
BUILD = os.environ.get("top_builddir", ".")
META = re.compile(r'META = \{"name": "([^"]+)", "kind": "([^"]+)"')


def rows(*args):
    prog = os.path.join(BUILD, "tests", "proof_table")
    out = subprocess.run([prog] + list(args), capture_output=True, text=True, timeout=30,
                         check=True).stdout
    names = ("symptom", "knob", "scenario", "effect", "why") if args else (
        "symptom", "knob", "scenario", "figure", "effect")
    return [dict(zip(names, l.split("\t"))) for l in out.splitlines()]


def guest_scenarios():
    """{META name: kind} of tests/guest/scenario_*.py."""
    found = {}
    for path in glob.glob(os.path.join(TOP, "tests", "guest", "scenario_*.py")):
        with open(path) as fh:
            m = re.search(r'META = \{"name": "([^"]+)", "kind": "([^"]+)"', fh.read())
        if m:
            found[m.group(1)] = m.group(2)
    return found


def effects(s):
    """Every effect text of a guest result: its own and each figure's."""
    e = s.get("effect") or {}
    out = {e.get("text")}
    for r in s.get("rounds", []):
        for v in (r.get("effect") or {}).values():
            if isinstance(v, dict):
                out.add(v.get("text"))
    return out


def tried_failures(tried, guest, results):
    by = {s["name"]: s for s in results.get("scenarios", [])} if results else None
    bad = []
    for r in tried:
        if guest.get(r["scenario"]) != "problem":
            bad.append("%s: no tests/guest problem scenario is named %s" % (
                r["knob"], r["scenario"]))
            continue
        if by is None:
            continue
        s = by.get(r["scenario"])
        if s is None:
            bad.append("%s: %s is not in doc/LAB-GUEST.json" % (r["knob"], r["scenario"]))
        elif s.get("status") == "pass":
            bad.append("%s: %s passed in doc/LAB-GUEST.json: it is shown, not only tried" % (
                r["knob"], r["scenario"]))
        elif r["effect"] and r["effect"] not in effects(s):
            bad.append("%s: proof.c quotes %r, doc/LAB-GUEST.json's %s has %s" % (
                r["knob"], r["effect"], r["scenario"], sorted(x for x in effects(s) if x)))
        elif not r["effect"] and s.get("rounds"):
            bad.append("%s: proof.c says no advice came, but %s applied one in "
                       "doc/LAB-GUEST.json" % (r["knob"], r["scenario"]))
    return bad


def scenarios():
    """{META name: (kind, file text)} of tests/lab/scenario_*.py."""
    found = {}
    for path in glob.glob(os.path.join(TOP, "tests", "lab", "scenario_*.py")):
        with open(path) as fh:
            text = fh.read()
        m = META.search(text)
        if m:
            found[m.group(1)] = (m.group(2), text, os.path.basename(path))
    return found


def static_failures(table, lab):
    bad = []
    for r in table:
        s = lab.get(r["scenario"])
        if s is None:
            bad.append("%s: no tests/lab scenario is named %s" % (r["knob"], r["scenario"]))
            continue
        kind, text, name = s
        if kind != "problem":
            bad.append("%s: %s (%s) is a %s scenario, not a problem's" % (
                r["knob"], r["scenario"], name, kind))
        if '"%s"' % r["symptom"] not in text:
            bad.append("%s: %s never raises %s" % (r["knob"], name, r["symptom"]))
        knob = r["knob"].split("/")[-1] if r["knob"] != "limit" else "MemoryLimit"
        if knob not in text:
            bad.append("%s: %s never names %s" % (r["knob"], name, knob))
    return bad


def result_failures(table, results):
    by = {s["name"]: s for s in results.get("scenarios", [])}
    bad = []
    for r in table:
        s = by.get(r["scenario"])
        if s is None:
            bad.append("%s: %s is not in doc/LAB.json" % (r["knob"], r["scenario"]))
            continue
        if s.get("status") != "pass":
            bad.append("%s: %s did not pass in doc/LAB.json (%s: %s)" % (
                r["knob"], r["scenario"], s.get("status"), s.get("reason", "")))
            continue
        e = s.get("effect")
        if not e:
            bad.append("%s: %s has no measured effect in doc/LAB.json (a quick run?)" % (
                r["knob"], r["scenario"]))
            continue
        if not e.get("helped") or not (e.get("control") or {}).get("holds_one"):
            bad.append("%s: in doc/LAB.json %s's effect %s did not help beyond its margin, or "
                       "its control did not hold 1" % (r["knob"], r["scenario"], e.get("text")))
        if e.get("text") != r["effect"] or e.get("figure") != r["figure"]:
            bad.append("%s: proof.c says %s %s, doc/LAB.json %s %s: write the row as\n"
                       "\t{ TW_SYM_..., \"%s\", \"%s\",\n\t  \"%s\", \"%s\" }," % (
                           r["knob"], r["figure"], r["effect"], e.get("figure"), e.get("text"),
                           r["knob"], r["scenario"], e.get("figure"), e.get("text")))
    return bad


def main():
    table = rows()
    assert table, "proof.c has no row"
    bad = static_failures(table, scenarios())
    guest_path = os.environ.get("TW_LAB_GUEST_JSON") or os.path.join(TOP, "doc",
                                                                     "LAB-GUEST.json")
    guest_results = None
    if os.path.exists(guest_path):
        with open(guest_path) as fh:
            guest_results = json.load(fh)
        if guest_results.get("only"):
            bad.append("doc/LAB-GUEST.json is from a partial run: commit a whole one")
    tried = rows("--tried")
    bad += tried_failures(tried, guest_scenarios(), guest_results)
    # TW_LAB_JSON: another run's results, to try this test against.
    path = os.environ.get("TW_LAB_JSON") or os.path.join(TOP, "doc", "LAB.json")
    if os.path.exists(path):
        with open(path) as fh:
            results = json.load(fh)
        if results.get("quick") or results.get("only"):
            bad.append("doc/LAB.json is from a %s run: commit a whole one" % (
                "quick" if results.get("quick") else "partial"))
        else:
            bad += result_failures(table, results)
    for b in bad:
        print("FAIL: %s" % b)
    if bad:
        return 1
    print("PASS: %d proven rows, each a problem scenario that raises its symptom and names "
          "its knob" % len(table))
    print("PASS: %d rows tried and not shown, each a guest problem scenario%s" % (
        len(tried), ", held to doc/LAB-GUEST.json" if guest_results else ""))
    if not os.path.exists(path):
        print("SKIP: no doc/LAB.json in the tree (a whole `make lab` writes it beside "
              "doc/LAB.md): the rows are not yet held to the committed results")
        return 77
    print("PASS: each passed in doc/LAB.json with the effect its row prints")
    return 0


if __name__ == "__main__":
    sys.exit(main())
