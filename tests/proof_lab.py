#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""lib/advice/proof.c held to the lab: every row that says a knob is
proven names a problem scenario of tests/lab (its META name and kind, and
the symptom and tunable its Problem raises), and, in the committed results
of a whole lab run (doc/LAB.json, written by `make lab` beside doc/LAB.md),
that scenario passed, its effect helped beyond its margin with a control
that held 1, and the effect is the one the row prints. A row whose claim
the results do not bear out fails, with the row to write instead.

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


def rows():
    prog = os.path.join(BUILD, "tests", "proof_table")
    out = subprocess.run([prog], capture_output=True, text=True, timeout=30, check=True).stdout
    return [dict(zip(("symptom", "knob", "scenario", "figure", "effect"), l.split("\t")))
            for l in out.splitlines()]


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
    if not os.path.exists(path):
        print("SKIP: no doc/LAB.json in the tree (a whole `make lab` writes it beside "
              "doc/LAB.md): the rows are not yet held to the committed results")
        return 77
    print("PASS: each passed in doc/LAB.json with the effect its row prints")
    return 0


if __name__ == "__main__":
    sys.exit(main())
