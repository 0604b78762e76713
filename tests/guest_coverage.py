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
table, and the counts add up. Last the report's head and the runner's
lock: the first boot's line shows the first boot, not the reboot a
scenario asked for, and a guest lab waits for the machine's lab lock
(tests/lab/labcore.py's) and gives up with why when another lab holds it."""

import fcntl
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


def report_head():
    """The first boot's line is the first boot's; each reboot has its own."""
    run = {"boot": {"wall": 213.9, "uptime": 175.7},
           "reboots": [{"wall": 131.2, "uptime": 98.4}], "seconds": 2296.3,
           "lock_wait_s": 12.5}
    text = guestreport.report([], run)
    assert "- first boot: 213.9 s of wall time, multi-user at 175.7 s of guest uptime\n" \
        in text, text[:800]
    assert "- reboot 1: 131.2 s of wall time, multi-user at 98.4 s" in text, text[:800]
    assert "- the whole run: 2296.3 s, after 12.5 s waiting for the lab lock" in text, \
        text[:800]


def lab_lock():
    """The guest lab takes the host lab's lock, and gives up on a held one."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lock", "tw-lab.lock")
        held = os.environ.pop("TW_LAB_LOCK_HELD", None)
        import run  # noqa: E402 - tests/guest/run.py, the runner
        saved, run.LOCK = run.LOCK, path
        try:
            fh, why = run.lab_lock(5)
            assert fh is not None and why is None, why
            # Held: another process's flock on it fails.
            other = open(path, "a")
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                raise AssertionError("the guest lab's lock is not held")
            except BlockingIOError:
                pass
            fh2, why = run.lab_lock(1)
            assert fh2 is None and "another lab held %s" % path in why, why
            fh.close()
            fh2, why = run.lab_lock(1)
            assert fh2 is not None and why is None, why
            fh2.close()
            other.close()
        finally:
            run.LOCK = saved
            if held is not None:
                os.environ["TW_LAB_LOCK_HELD"] = held


def main():
    report_head()
    lab_lock()
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
