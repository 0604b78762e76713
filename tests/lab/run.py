#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Run the tuning lab: every tests/lab/scenario_*.py in turn, each in a
process of its own, then doc/LAB.md from their results.

  run.py [--out FILE] [--only SUBSTRING]... [--results DIR] [--quick]
  (FILE: doc/LAB.md, or with --only RESULTS/LAB.md)

Before anything it undoes what a killed earlier run left (the journals of
labjournal.py). A scenario that fails or is skipped is a row of LAB.md
like the others, with its reason; the runner exits 1 if any failed, 77 if
it could not run at all (not root), 0 otherwise. Each scenario is given
SCENARIO_TIMEOUT seconds and then interrupted (SIGINT, so that it
restores), then killed.
"""

import argparse
import datetime
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import labjournal  # noqa: E402
import labmachine  # noqa: E402
import labplot  # noqa: E402
import labproof  # noqa: E402
import labreport  # noqa: E402

# A whole proof (repeats and a sweep) takes minutes, a quick run's scenario
# about one; either may first wait up to 15 minutes for another lab's lock
# (labcore.py).
SCENARIO_TIMEOUT = int(os.environ.get("TW_LAB_SCENARIO_TIMEOUT", "0")) or None


def scenarios(only):
    files = sorted(glob.glob(os.path.join(HERE, "scenario_*.py")))
    if only:
        files = [f for f in files if any(o in os.path.basename(f) for o in only)]
    return files


def run_one(path, results_dir, quick=False):
    name = os.path.basename(path)[len("scenario_"):-len(".py")]
    out = os.path.join(results_dir, name + ".json")
    log = os.path.join(results_dir, name + ".log")
    t0 = time.monotonic()
    print("== %s" % name, flush=True)
    with open(log, "w") as fh:
        p = subprocess.Popen([sys.executable, "-B", path, "--json", out], stdout=fh,
                             stderr=subprocess.STDOUT)
        try:
            rc = p.wait(timeout=SCENARIO_TIMEOUT or (600 if quick else 1800))
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
            try:
                rc = p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
    seconds = time.monotonic() - t0
    try:
        with open(out) as fh:
            result = json.load(fh)
    except (OSError, ValueError):
        result = {"name": name, "kind": "unknown", "status": "fail",
                  "reason": "no result (exit %s); see %s" % (rc, log)}
    result.setdefault("seconds", round(seconds, 1))
    result["file"] = os.path.relpath(path, os.path.join(HERE, "..", ".."))
    with open(log) as fh:
        tail = fh.read().splitlines()[-1:] or [""]
    print("   %s (%.0f s) %s" % (result["status"], seconds,
                                 result.get("reason", "") or tail[0]), flush=True)
    if result["status"] == "fail":
        with open(log) as fh:
            sys.stdout.write("".join(fh.readlines()[-40:]))
    return result


def plots(results, out_dir):
    """Each problem's sweep as lab/NAME.svg beside LAB.md; the result
    learns the file's path from LAB.md."""
    for r in results:
        proof = r.get("proof") or {}
        sweep = proof.get("sweep")
        if not sweep or not sweep.get("points"):
            continue
        texts = proof.get("value_texts") or {}
        stock, sug = proof.get("stock_number"), proof.get("final_number")
        if stock is None or sug is None:
            continue
        svg = labplot.sweep_svg(r["name"], r.get("tunable", ""), sweep, stock, sug,
                                r.get("symptom_unit", ""), proof.get("figure_what", ""),
                                fmt=lambda v: texts.get(str(v), str(v)))
        os.makedirs(os.path.join(out_dir, "lab"), exist_ok=True)
        with open(os.path.join(out_dir, "lab", r["name"] + ".svg"), "w") as fh:
            fh.write(svg)
        proof["plot"] = "lab/%s.svg" % r["name"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="doc/LAB.md for a whole run; with --only, LAB.md in the "
                    "results directory, so that a part does not overwrite the whole")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--results", help="keep each scenario's JSON and log here")
    ap.add_argument("--quick", action="store_true",
                    help="each problem's operator rounds only, no repeats, control, sweep or "
                    "ping-pong check (CI: every scenario once, in minutes)")
    opts = ap.parse_args()
    if opts.quick:
        os.environ[labproof.QUICK_ENV] = "1"
    if os.geteuid() != 0:
        print("SKIP: the lab needs root (it changes kernel settings and makes namespaces)")
        return 77
    labjournal.Journal.replay_stale(sys.stdout)
    results_dir = opts.results or tempfile.mkdtemp(prefix="tw-lab-results-")
    os.makedirs(results_dir, exist_ok=True)
    t0 = time.monotonic()
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    results = [run_one(f, results_dir, opts.quick) for f in scenarios(opts.only)]
    total = time.monotonic() - t0
    info = {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "seconds": round(total, 1),
        "only": opts.only,
        "quick": opts.quick,
        "machine": labmachine.describe(os.path.join(HERE, "..", "..")),
    }
    info["machine"]["load"] = "%.2f before, %.2f after (1-minute load average)" % (
        load_before[0], os.getloadavg()[0])
    keep = bool(opts.results or opts.only)
    if not opts.out:
        opts.out = (os.path.join(results_dir, "LAB.md") if opts.only
                    else os.path.join(HERE, "..", "..", "doc", "LAB.md"))
    plots(results, os.path.dirname(os.path.abspath(opts.out)))
    text = labreport.render(results, info)
    with open(opts.out, "w") as fh:
        fh.write(text)
    # The same run as data, beside it (doc/LAB.json: the build's tests read it).
    with open(os.path.splitext(opts.out)[0] + ".json", "w") as fh:
        json.dump(labreport.summary(results, info), fh, indent=1, sort_keys=True)
        fh.write("\n")
    failed = [r["name"] for r in results if r["status"] == "fail"]
    if not failed and not keep:
        shutil.rmtree(results_dir, ignore_errors=True)
        results_dir = "(removed: all passed)"
    print("lab: %d scenarios in %.0f s (%.0f s of it waiting for other labs), %d failed%s; "
          "%s written; results in %s" % (
        len(results), total, sum(r.get("lock_wait_s") or 0 for r in results), len(failed),
        " (%s)" % ", ".join(failed) if failed else "",
        os.path.relpath(opts.out), results_dir))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
