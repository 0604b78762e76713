#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Every Linux action of lib/advice has its row in the coverage table of
doc/LAB-GUEST.md (tests/guest/coverage.py): the problem scenarios that show
it, or why none does yet. The rules come from the product (tests/advice_rules
prints lib/advice's tables); a rule added without a row, a row left for a
rule that is gone, or a row naming a scenario that does not exist, is not a
problem scenario, or never names the tunable, fails here. Then the table as
the report writes it, from made-up results: a passing guest scenario shows
its rule, a failing one does not, a lab scenario is read from doc/LAB.md's
table, and the counts add up."""

import os
import sys
import tempfile

TOP = os.environ.get("top_srcdir",
                     os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
BUILD = os.environ.get("top_builddir", ".")
sys.path.insert(0, os.path.join(TOP, "tests", "guest"))

import coverage  # noqa: E402
import guestreport  # noqa: E402


def lab_md(folder):
    os.makedirs(os.path.join(folder, "doc"))
    with open(os.path.join(folder, "doc", "LAB.md"), "w") as fh:
        fh.write("# The tuning lab\n\n"
                 "| scenario | symptom | workload before -> after | result |\n"
                 "|---|---|---|---|\n"
                 "| net-listen | overflows | 60 % -> 100 % | pass (20.1 s) |\n"
                 "| net-softnet | drops | 10 % lost -> 9 % lost | fail: it did not help |\n"
                 "\n| other | result |\n|---|---|\n| x | pass |\n")


def main():
    table = coverage.rules(BUILD)
    assert len(table) >= 40, "tests/advice_rules printed %d actions" % len(table)
    symptoms = {r["symptom"] for r in table}
    for s in ("softnet-drops", "cgroup-cache-bounded", "queue-full", "dirty-limited"):
        assert s in symptoms, "tests/advice_rules printed no %s rule" % s
    bad = coverage.gaps(table, coverage.problems())
    assert not bad, "the coverage table and lib/advice disagree:\n" + "\n".join(bad)

    # A rule the table does not know is a gap, and so is a stale entry.
    extra = dict(table[0], tunable="net.core.made_up")
    assert any("made_up" in b and "no row" in b for b in coverage.gaps(
        table + [extra], coverage.problems()))
    assert any("an entry for no rule" in b for b in coverage.gaps(
        table[1:], coverage.problems()))
    # A scenario named that is not a problem scenario about its tunable.
    k = ("queue-full", "queue/nr_requests", "per device")
    saved = coverage.SHOWN[k]
    try:
        coverage.SHOWN[k] = ["guest-package"]
        assert any("guest-package" in b and "system scenario" in b for b in coverage.gaps(
            table, coverage.problems()))
        coverage.SHOWN[k] = ["net-listen"]
        assert any("never names nr_requests" in b for b in coverage.gaps(
            table, coverage.problems()))
    finally:
        coverage.SHOWN[k] = saved

    with tempfile.TemporaryDirectory() as d:
        lab_md(d)
        lab = coverage.lab_results(d)
    assert lab["net-listen"]["status"] == "pass" and lab["net-listen"]["figure"] == \
        "60 % -> 100 %", lab
    assert lab["net-softnet"]["status"] == "fail:", lab
    assert "x" not in lab, lab
    guest = [{"name": "guest-disk-nvme-scheduler", "kind": "problem", "status": "pass",
              "effect": {"text": "p50 3.05x (0.81-5.29)"}},
             {"name": "guest-disk-virtio-nr-requests", "kind": "problem", "status": "fail",
              "effect": {"text": "1.94x"}}]
    rows, counts = coverage.rows(table, guest, lab)
    by = {(r[0], r[1], r[2]): r for r in rows}
    assert len(rows) == len(table) == sum(counts.values()), counts
    nvme = by[("nonrot-scheduler", "queue/scheduler", "per device")]
    assert nvme[4] == "shown" and "p50 3.05x" in nvme[5], nvme
    nr = by[k]
    assert nr[4] == "tried, not shown" and "guest: fail" in nr[5], nr
    listen = by[("listen-overflow", "net.core.somaxconn", "sysctl")]
    assert listen[4] == "shown" and "60 % -> 100 %" in listen[5], listen
    assert listen[6].startswith("net-listen "), listen
    softnet = by[("softnet-drops", "net.core.netdev_max_backlog", "sysctl")]
    assert softnet[4] == "tried, not shown", softnet
    hdd = by[("read-latency-queue", "queue/scheduler", "per device")]
    assert "not run in this report" in hdd[5] and hdd[4] == "tried, not shown", hdd
    swap = by[("low-hit-refaults", "vm.swappiness", "sysctl")]
    assert swap[4] == "not yet shown on a kernel" and "swap" in swap[5], swap
    text = "".join(guestreport.coverage_section((rows, counts)))
    assert "%d actions: 2 shown" % len(rows) in text, text[:600]
    for r in rows:
        assert "| %s | %s |" % (r[0], r[1]) in text, r
    print("%d Linux actions, each with its row; %s" % (len(table), counts))


if __name__ == "__main__":
    main()
