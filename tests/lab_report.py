#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""LAB.md and its sweep plots from results made up here (no root, no
kernel): a problem proven (its short row with the interval, the control,
the sweep, the cost line, the plot), one that failed its margin, a quick
run, a healthy scenario and a skip; the ping-pong check's lists (a raise
held where it is, "not raised again", is no turn-back). The whole lab
takes over an hour; a
report that cannot be written must fail here, in make check, not at its
end. The SVG must be well-formed XML with the stock value, the suggestion
and the smallest sufficient value marked."""

import os
import sys
import types
import unittest
import xml.etree.ElementTree as ET

TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..")
sys.path.insert(0, os.path.join(TOP, "tests", "lab"))

import labcore  # noqa: E402
import labplot  # noqa: E402
import labproof  # noqa: E402
import labreport  # noqa: E402
import labsweep  # noqa: E402


def phases(before, control, after):
    def one(xs, value):
        return [{"workload": x, "symptom": 100.0 if value == 4096 else 0.0, "value": value,
                 "round": i, "workload_text": "%s %%" % x, "symptom_text": "s"}
                for i, x in enumerate(xs)]
    return {"before": one(before, 4096), "control": one(control, 4096),
            "after": one(after, 8192)}


def proven(name="net-listen", after=(100, 100, 99.9, 100, 100)):
    ph = phases([68.3, 68.2, 68.4, 68.3, 68.1], [68.3, 68.2, 68.5, 68.0, 68.3], list(after))
    points = [{"value": v, "round": r, "symptom": s, "workload": w}
              for v, s, w in ((4096, 630, 68.3), (7132, 0, 100), (8192, 0, 100),
                              (65536, 0, 100))
              for r in range(3)]
    proof = {"stock": "4096", "final": "8192", "margin": 0.2, "margin_why": "",
             "better": "higher", "figure_what": "the share established at the first SYN",
             "cost": "a queue of up to 8192 connections, not 4096", "phase_s": 6.0,
             "capped_rounds": [], "pingpong": {"seconds": 21.0, "windows": 2, "turned": []},
             "phases": ph, "phases_s": 140.0,
             "verdict": labsweep.judge(ph, 0.2, "higher"),
             "sweep": {"values": [4096, 7132, 8192, 65536], "points": points, "seconds": 200},
             "value_texts": {}, "stock_number": 4096, "final_number": 8192}
    proof["sweep"]["size"] = labsweep.size(points, 4096, 8192)
    return {"name": name, "kind": "problem", "status": "pass", "seconds": 398.0,
            "symptom": "accept queue overflows", "tunable": "net.core.somaxconn",
            "symptom_unit": "overflows/s", "setup": "somaxconn 4096", "where": "a namespace",
            "rounds": [{"round": 1, "raised_s": 2.9, "raised_from": "symptom",
                        "finding": "tw-1", "advice": "tune: net.core.somaxconn 4096 -> 8192 (e)",
                        "current": "4096", "suggested": "8192",
                        "applied": "sysctl -w net.core.somaxconn=8192"}],
            "proof": proof}


INFO = {"date": "2026-12-07 06:00 UTC", "seconds": 3600.0, "only": [], "quick": False,
        "machine": {"commit": "0123456789ab", "kernel": "Linux 6.18", "CPUs": "2 (x)",
                    "memory": "23.5 GiB", "disks": "vda", "virtualisation": "kvm",
                    "load": "1 before, 2 after"}}


class Report(unittest.TestCase):
    def test_proven_row(self):
        text = labreport.render([proven()], INFO)
        row = [l for l in text.splitlines() if l.startswith("| net-listen |")]
        self.assertEqual(len(row), 1, text)
        self.assertIn("4096 -> 8192", row[0])
        self.assertIn("(higher better by 20 %: beyond)", row[0])
        self.assertIn("holds 1", row[0])
        self.assertIn("smallest removing 90 %: 7132; suggestion 8192 removes it, 1.15x", row[0])
        self.assertIn("| commit | 0123456789ab |", text)
        self.assertIn("- cost or risk of 4096 -> 8192: a queue of up to 8192", text)
        self.assertIn("raised 2.9 s after the symptom started", text)
        self.assertIn("no finding and no advice turned net.core.somaxconn", text)

    def test_pingpong_without_its_seconds(self):
        # cache-cgroup's proof wrote no "seconds": the whole run of
        # 2026-12-07 14:37 UTC crashed at its report, after an hour.
        # Nor texts for its phases' figures.
        r = proven()
        del r["proof"]["pingpong"]["seconds"]
        for ph in r["proof"]["phases"].values():
            for p in ph:
                del p["workload_text"], p["symptom_text"]
        text = labreport.render([r], INFO)
        self.assertIn("the same workload ? s (2 windows) more", text)
        self.assertIn("  - before: 68.3 (100);", text)

    def test_failed_margin_says_not_beyond(self):
        r = proven(after=(70, 72, 69, 71, 70))
        r["status"], r["reason"] = "fail", "not beyond"
        text = labreport.render([r], INFO)
        self.assertIn("NOT beyond", text)
        self.assertIn("not beyond the margin", text)

    def test_quick_and_others(self):
        r = proven()
        r["proof"] = {"quick": True, "stock": "4096", "final": "8192", "cost": "c",
                      "capped_rounds": []}
        healthy = {"name": "healthy-x", "kind": "healthy", "status": "pass", "seconds": 1,
                   "worst": {"check_bufcache": "OK"}, "findings": [], "workload": "w"}
        skip = {"name": "net-y", "kind": "problem", "status": "skip", "reason": "why"}
        info = dict(INFO, quick=True)
        text = labreport.render([r, healthy, skip], info)
        self.assertIn("not judged (quick run: one round)", text)
        self.assertIn("QUICK", text)
        self.assertIn("| healthy-x |", text)
        self.assertIn("| net-y |", text)

    def test_failed_before_proof(self):
        # As cache-cgroup leaves it when a round fails: the proof has the
        # value it started from and no final value (the whole run of
        # 2026-12-07 crashed here after 74 minutes).
        r = {"name": "cache-x", "kind": "problem", "status": "fail", "reason": "a round",
             "seconds": 23.4, "symptom": "s", "tunable": "MemoryLimit",
             "rounds": [{"round": 1, "finding": "tw-2", "advice": "tune: x"}],
             "proof": {"stock": "64M", "margin": 0.3, "better": "lower",
                       "figure_what": "the job's time", "capped_rounds": []}}
        text = labreport.render([r], INFO)
        row = [l for l in text.splitlines() if l.startswith("| cache-x |")]
        self.assertEqual(len(row), 1, text)
        self.assertIn("64M -> ?", row[0])
        self.assertIn("fail: a round", row[0])
        self.assertIsNone(labreport.summary([r], INFO)["scenarios"][0]["to"])

    def test_negative_section(self):
        neg = {"name": "neg-disk", "kind": "negative", "status": "pass", "seconds": 60,
               "symptom": "a disk at its throughput", "worst": {"check_disklatency": "OK"},
               "findings": [], "wrong": ["tw-9 write-latency vda: vm.dirty_ratio"],
               "notes": ["no tunable: the disk"]}
        text = labreport.render([neg], INFO)
        self.assertIn("## Negative controls", text)
        row = [l for l in text.splitlines() if l.startswith("| neg-disk |")]
        self.assertEqual(len(row), 1, text)
        self.assertIn("tw-9 write-latency vda: vm.dirty_ratio", row[0])
        self.assertIn("- no tunable: the disk", text)

    def test_summary(self):
        failed = proven(name="net-x", after=(70, 72, 69, 71, 70))
        failed["status"] = "fail"
        got = labreport.summary([proven(), failed], INFO)
        self.assertEqual(got["commit"], "0123456789ab")
        one, two = got["scenarios"]
        self.assertEqual((one["name"], one["kind"], one["status"], one["tunable"]),
                         ("net-listen", "problem", "pass", "net.core.somaxconn"))
        self.assertEqual((one["from"], one["to"]), ("4096", "8192"))
        self.assertTrue(one["effect"]["helped"])
        self.assertTrue(one["effect"]["control"]["holds_one"])
        self.assertLessEqual(one["effect"]["low"], one["effect"]["ratio"])
        self.assertGreaterEqual(one["effect"]["low"], 1.2)
        self.assertEqual(one["sweep"]["smallest"], 7132)
        self.assertFalse(two["effect"]["helped"])
        self.assertEqual(two["status"], "fail")

    def test_plot(self):
        r = proven()
        sw = r["proof"]["sweep"]
        svg = labplot.sweep_svg(r["name"], r["tunable"], sw, 4096, 8192, "overflows/s",
                                "share", fmt=str)
        root = ET.fromstring(svg)
        self.assertTrue(root.tag.endswith("svg"))
        words = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
        for want in ("started at 4096", "suggestion 8192", "smallest removing 90 % 7132",
                     "net.core.somaxconn"):
            self.assertIn(want, words)
        dots = [e for e in root.iter() if e.tag.endswith("circle")]
        self.assertEqual(len(dots), 2 * len(sw["points"]))		# two panels


# The no-ratchet rule's hold as check_dblock prints it (plugins/advise.c).
HELD = ("tune: net.core.rmem_default 851968, not raised again (net.core.rmem_default was "
        "raised to 851968 (from 425984) and udp receive buffer did not get better by 20 % "
        "(152 before, 125 after): not raised again without new evidence)")


class Problem:
    tunable = "net.core.rmem_default"
    coupled = ()
    check = "check_dblock"
    check_args = []


class Stack:
    """Two findings on the tunable for the windows after the change, and
    the check's advice at their end."""
    window = 0.5

    def __init__(self, findings, lines):
        self.rows, self.lines = findings, lines

    def findings(self):
        return {i: x for i, x in enumerate(self.rows)}

    def check(self, name, args):
        return type("Out", (), {"long": self.lines})()


def finding(current, suggested):
    return {"ID": "tw-1", "SYMPTOM": "udp-rcvbuf", "SUBJECT": "udp receive buffer",
            "TUNABLE": "net.core.rmem_default", "CURRENT": current, "SUGGESTED": suggested}


class PingPong(unittest.TestCase):
    def test_kind(self):
        self.assertEqual(labproof.kind("425984", "851968", 1), "more")
        self.assertEqual(labproof.kind("851968", "425984", 1), "turned")
        self.assertEqual(labproof.kind("851968", "425984", -1), "more")
        # A hold: no value, or the value it has, whatever blanks a
        # vector's fields have.
        self.assertEqual(labproof.kind("851968", "", 1), "held")
        self.assertEqual(labproof.kind("851968", None, -1), "held")
        self.assertEqual(labproof.kind("851968", "851968", 1), "held")
        self.assertEqual(labproof.kind("6144 12288 24576", "6144\t12288  24576", 1), "held")
        # A word the way of which cannot be told is counted against.
        self.assertEqual(labproof.kind("none", "mq-deadline", 1), "turned")
        self.assertEqual(labproof.kind("6144 12288 24576", "6144 12288 12288", 1), "turned")

    def test_check_advice(self):
        got = labproof.check_advice(Problem(), [labcore.Advice(line) for line in (
            HELD, "tune: net.core.rmem_default 851968 -> 425984 (x)",
            "tune: net.core.rmem_default 851968 -> 1703936 (x)",
            "tune: net.core.rmem_max 4194304 -> 8388608 (x)",
            "no tunable: 3 datagrams dropped")], 1)
        self.assertEqual([k for k, _ in got], ["held", "turned", "more"])
        self.assertEqual(got[0][1], "the check: " + HELD)

    def test_a_hold_is_no_turn_back(self):
        def lab():
            # What labknobs.sort reads of the lab: the scenario's result.
            return types.SimpleNamespace(result=labcore.Result("net-udp-default", "problem"))

        # The ratchet held the raise: the finding stays with no value, the
        # check says "not raised again". Counted as turned back before.
        pp = labproof.pingpong(lab(), Stack([finding("851968", "")], [HELD]), Problem(), 1)
        self.assertEqual(pp["turned"], [])
        self.assertEqual(len(pp["held"]), 2, pp)
        self.assertEqual(pp["windows"], 2)
        # The other way is a turn-back, still.
        pp = labproof.pingpong(lab(), Stack([finding("851968", "425984")], []), Problem(), 1)
        self.assertEqual(len(pp["turned"]), 1, pp)
        self.assertEqual(pp["held"], [])

    def test_report_prints_holds_apart(self):
        r = proven()
        r["proof"]["pingpong"]["held"] = ["finding tw-1 on x: net.core.somaxconn 8192 -> "]
        text = labreport.render([r], INFO)
        self.assertIn("no finding and no advice turned net.core.somaxconn", text)
        self.assertIn("  - held where it is, no value proposed (not ping-pong): finding tw-1",
                      text)


if __name__ == "__main__":
    unittest.main()
