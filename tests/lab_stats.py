#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The lab's statistics (tests/lab/labstats.py, labsweep.py) on samples
whose answers are worked out by hand: the exact Mann-Whitney ranks, the
Hodges-Lehmann interval of a known shift, a change inside the noise that
must not count as helped, a control that holds 1, the sweep's smallest
sufficient value, the interleaved order. No root, no kernel: part of
make check, so that the lab's verdicts rest on tested arithmetic."""

import math
import os
import sys
import unittest

TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..")
sys.path.insert(0, os.path.join(TOP, "tests", "lab"))

import labstats  # noqa: E402
import labsweep  # noqa: E402


class MannWhitney(unittest.TestCase):
    def test_counts_are_the_orderings(self):
        for m, n in ((1, 1), (3, 4), (5, 5), (7, 3)):
            counts = labstats._u_counts(m, n)
            self.assertEqual(sum(counts), math.comb(m + n, m))
            self.assertEqual(len(counts), m * n + 1)
            self.assertEqual(counts, counts[::-1])		# symmetric
        # 5 and 5: U = 0, 1, 2, 3 in 1, 1, 2, 3 of the 252 orderings.
        self.assertEqual(labstats._u_counts(5, 5)[:4], [1, 1, 2, 3])

    def test_ranks(self):
        # P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252.
        self.assertEqual(labstats.mw_rank(5, 5), 3)
        # 4 a side: only U = 0 (1/70) is in the tail.
        self.assertEqual(labstats.mw_rank(4, 4), 1)
        # Tables' two-sided 5 % critical U for 10 and 10 is 23.
        self.assertEqual(labstats.mw_rank(10, 10), 24)
        self.assertEqual(labstats.mw_rank(8, 8), 14)		# critical U 13
        with self.assertRaises(ValueError):
            labstats.mw_rank(3, 3)					# 1/20 > 0.025


class Intervals(unittest.TestCase):
    def test_known_shift(self):
        # before 2^0..2^4, after 2^-3..2^1: the 25 log2 ratios are i-j-3
        # (i, j in 0..4): -7 once, -6 twice, ..., 1 once. The 3rd smallest
        # is -6, the 3rd largest 0, the median -3.
        before = [2.0 ** k for k in range(5)]
        after = [2.0 ** (k - 3) for k in range(5)]
        iv = labstats.ratio_interval(before, after)
        self.assertAlmostEqual(iv.lo, 2.0 ** -6)
        self.assertAlmostEqual(iv.est, 2.0 ** -3)
        self.assertAlmostEqual(iv.hi, 1.0)
        self.assertEqual((iv.n_before, iv.n_after, iv.method), (5, 5, "hl"))
        # An effect of 1/8 whose interval reaches 1 is not "helped".
        self.assertFalse(labstats.helped(iv, 0.2, "lower"))
        self.assertTrue(labstats.holds_one(iv))

    def test_clear_effect_helps(self):
        before = [100, 104, 101, 103, 102]
        after = [52, 50, 54, 51, 53]
        iv = labstats.ratio_interval(before, after)
        self.assertLessEqual(iv.hi, 54 / 100 + 1e-12)
        self.assertGreaterEqual(iv.lo, 50 / 104 - 1e-12)
        self.assertTrue(labstats.helped(iv, 0.2, "lower"))
        self.assertFalse(labstats.helped(iv, 0.2, "higher"))
        self.assertFalse(labstats.holds_one(iv))
        up = labstats.ratio_interval(after, before)
        self.assertTrue(labstats.helped(up, 0.2, "higher"))
        self.assertAlmostEqual(up.est, 1 / iv.est)

    def test_small_effect_fails_the_margin(self):
        # 10 % better, beyond noise but inside a 20 % margin: must fail.
        before = [100, 101, 102, 103, 104]
        after = [90, 91, 92, 93, 94]
        iv = labstats.ratio_interval(before, after)
        self.assertLess(iv.hi, 1.0)
        self.assertFalse(labstats.helped(iv, 0.2, "lower"))
        self.assertTrue(labstats.helped(iv, 0.05, "lower"))

    def test_noise_holds_one(self):
        before = [10, 12, 11, 13, 9]
        control = [11, 9, 12, 10, 13]
        iv = labstats.ratio_interval(before, control)
        self.assertTrue(labstats.holds_one(iv))
        self.assertFalse(labstats.helped(iv, 0.2, "lower"))
        self.assertFalse(labstats.helped(iv, 0.2, "higher"))

    def test_bootstrap_is_seeded(self):
        before = [100, 104, 101, 103, 102]
        after = [52, 50, 54, 51, 53]
        a = labstats.bootstrap_interval(before, after)
        b = labstats.bootstrap_interval(before, after)
        self.assertEqual((a.lo, a.est, a.hi), (b.lo, b.est, b.hi))
        self.assertAlmostEqual(a.est, 52 / 102)
        self.assertTrue(50 / 104 <= a.lo <= a.est <= a.hi <= 54 / 100)
        same = labstats.bootstrap_interval(before, before)
        self.assertTrue(labstats.holds_one(same))

    def test_bad_figures(self):
        for bad in ([0, 1, 2, 3, 4], [1, 2, -3, 4, 5], [], [1, 2, float("inf"), 4, 5]):
            with self.assertRaises(ValueError):
                labstats.ratio_interval([1, 2, 3, 4, 5], bad)
        with self.assertRaises(ValueError):
            labstats.helped(labstats.ratio_interval([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]), 0.2,
                            "sideways")


class Sweeps(unittest.TestCase):
    def test_log_spaced(self):
        self.assertEqual(labstats.log_spaced(1000, 16000, 6),
                         [1000, 1741, 3031, 5278, 9190, 16000])
        self.assertEqual(labstats.log_spaced(4096, 65536, 6)[0], 4096)
        with self.assertRaises(ValueError):
            labstats.log_spaced(10, 5, 6)

    def test_smallest_sufficient(self):
        base = [100, 90, 110]
        sym = {1000: base, 1741: [50, 60, 55], 3031: [5, 4, 6], 5278: [0, 0, 0],
               9190: [0, 1, 0], 16000: [0, 0, 0]}
        self.assertEqual(labstats.smallest_sufficient(sym, base), 3031)
        # One value that helps by chance below one that does not is not the bound.
        sym[1741] = [5, 5, 5]
        sym[3031] = [50, 50, 50]
        self.assertEqual(labstats.smallest_sufficient(sym, base), 5278)
        sym[16000] = [20, 20, 20]
        self.assertIsNone(labstats.smallest_sufficient(sym, base))
        with self.assertRaises(ValueError):
            labstats.removed([0], [0, 0])

    def test_size(self):
        phases = [{"value": v, "symptom": s} for v, ss in
                  ((1000, (100, 90, 110)), (1741, (40, 50, 60)), (3031, (5, 9, 1)),
                   (5278, (0, 0, 0)), (16000, (0, 0, 0)), (4000, (0, 1, 0)))
                  for s in ss]
        got = labsweep.size(phases, 1000, 4000)
        self.assertEqual(got["smallest"], 3031)
        self.assertTrue(got["suggested_removes"])
        self.assertTrue(got["within"])
        # The cap: 16x where 3x would do is more than twice the need.
        self.assertFalse(labsweep.size(phases, 1000, 16000)["within"])
        # A suggestion that does not remove the symptom.
        self.assertFalse(labsweep.size(phases, 1000, 1741)["within"])


class Interleaved(unittest.TestCase):
    def test_order_and_judgement(self):
        state = {"value": None}
        log = []

        def apply(v):
            state["value"] = v
            log.append(v)

        def measure():
            # A figure of 100 at the old value, 50 at the new, with the
            # machine getting slower over the run: drift, which
            # interleaving spreads over both sides.
            n = len(log)
            return {"workload": (100.0 if state["value"] == 1 else 50.0) * (1 + 0.01 * n),
                    "symptom": 0.0}

        phases = labsweep.interleaved(1, 2, apply, measure, repeats=5)
        self.assertEqual(log[:6], [1, 2, 1, 1, 2, 1])
        self.assertEqual([len(phases[k]) for k in ("before", "control", "after")], [5, 5, 5])
        got = labsweep.judge(phases, 0.2, "lower")
        self.assertTrue(got["helped"])
        self.assertTrue(got["control_holds"])
        self.assertLess(got["effect"]["hi"], 0.8)

    def test_control_meets_changes_as_before_does(self):
        # A phase just after a change measures 10 % more (carry-over, as
        # cache-dirty's writeback): the control must still hold 1. With
        # "before" always the phase after the switch back, the control
        # was 0.91 every round.
        state = {"value": 2}                    # the proof starts at new
        log = []

        def apply(v):
            log.append(v != state["value"])
            state["value"] = v

        def measure():
            return {"workload": (100.0 if state["value"] == 1 else 50.0) *
                    (1.1 if log[-1] else 1.0), "symptom": 0.0}

        phases = labsweep.interleaved(1, 2, apply, measure, repeats=5)
        got = labsweep.judge(phases, 0.2, "lower")
        self.assertTrue(got["control_holds"], got["control"])
        switched = {k: sum(p["workload"] > (100.0 if k != "after" else 50.0) for p in phases[k])
                    for k in ("before", "control")}
        self.assertEqual(switched["before"], switched["control"])

    def test_sweep_visits_every_value_each_round(self):
        seen = []
        phases = labsweep.sweep([1, 2, 3, 4, 5, 6], seen.append, lambda: {"symptom": 1.0},
                                repeats=3)
        self.assertEqual(len(phases), 18)
        for rnd in range(3):
            self.assertEqual(sorted(seen[rnd * 6:rnd * 6 + 6]), [1, 2, 3, 4, 5, 6])
        again = []
        labsweep.sweep([1, 2, 3, 4, 5, 6], again.append, lambda: {"symptom": 1.0}, repeats=3)
        self.assertEqual(seen, again)				# seeded
        self.assertNotEqual(seen[:6], seen[6:12])


if __name__ == "__main__":
    unittest.main()
