#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The lab's one rule for knobs (tests/lab/labknobs.py), with no root and
no kernel: every scenario file declares what it loads and accepts; a
finding or a tune: line that names a knob the scenario does not accept
fails it whatever its subject (another disk, another socket's pool, the
host's pool beside a socket), and one that is the machine's (another
process's cgroup, vda's writeback under a UDP flood) is listed as not the
scenario's, with why. The harness of each kind is driven with a stack
made up here: labproblem.others (problem scenarios), labproof.pingpong
(the two windows after the change), labneg.watch (negative controls) and
labcache.run_healthy (the healthy set). The findings used are real ones
of the lab's quick run at 174ea04 (/work/team/i37-proof2/run1-lab):
rmem_default raised for the host's pool in net-udp-max, wmem_max in
net-udp-sndbuf, low-hit-refaults on process_api/..., the memory cgroup the
lab itself ran in (so the scenario's, not another process's)."""

import glob
import os
import re
import sys
import unittest

TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..")
sys.path.insert(0, os.path.join(TOP, "tests", "lab"))

import labcache  # noqa: E402
import labcore  # noqa: E402
import labknobs  # noqa: E402
import labneg  # noqa: E402
import labproblem  # noqa: E402
import labproof  # noqa: E402

META = re.compile(r'META = \{"name": "([^"]+)", "kind": "([^"]+)"')


def row(id_, symptom, subject, tunable="", current="", suggested=""):
    return {"ID": id_, "SYMPTOM": symptom, "SUBJECT": subject, "TUNABLE": tunable,
            "CURRENT": current, "SUGGESTED": suggested}


# Real rows of the quick run at 174ea04.
POOL_RMEM_DEFAULT = row("tw-1", "udp-rcvbuf", "udp receive buffer", "net.core.rmem_default",
                        "212992", "425984")
POOL_RMEM_MAX = row("tw-2", "udp-rcvbuf", "udp receive buffer", "net.core.rmem_max",
                    "4194304", "8388608")
POOL_WMEM_MAX = row("tw-3", "udp-sndbuf", "udp send buffer", "net.core.wmem_max",
                    "4194304", "8388608")
OTHERS_CGROUP = row("tw-17", "low-hit-refaults", "/sys/fs/cgroup/memory/system.slice/cron.service")
LABS_CGROUP = row("tw-1eb8eca9f5b4", "low-hit-refaults",
                  "/sys/fs/cgroup/memory/process_api/dde985b3edc33c093dee6cf3e450d787")
# /proc/self/cgroup of that run's lab (cgroup v1).
LAB_IN = "4:memory:/process_api/dde985b3edc33c093dee6cf3e450d787\n0::/\n"
VDA_DIRTY = row("tw-5", "dirty-limited", "cache", "vm.dirty_bytes", "0", "169869312")


class Output:
    """What labcore's check returns, as far as the harness reads it."""

    def __init__(self, long=(), state="OK"):
        self.long = list(long)
        self.state = state
        self.summary_line = "%s - made up" % state
        self.stdout = "\n".join(self.long)

    def perf_map(self):
        return {}


class Sink:
    def notifications(self, trap_oid):
        return []


class Stack:
    """A stack whose twFindingTable holds rows and whose checks print
    lines."""

    def __init__(self, rows=(), lines=()):
        self.rows = {r["ID"]: r for r in rows}
        self.lines = list(lines)
        self.window = 0.2
        self.interval = 0.05
        self.sink = Sink()

    def findings(self):
        return dict(self.rows)

    def check(self, check, args=(), timeout=60):
        return Output(self.lines)


class Lab:
    def __init__(self, name, kind="problem"):
        self.name = name
        self.result = labcore.Result(name, kind)


def problem(name_tunable, token):
    p = labproblem.Problem()
    p.tunable, p.symptom_token = name_tunable, token
    return p


def advice(line, finding):
    a = labcore.Advice(line)
    a.finding = finding
    return a


class Data(unittest.TestCase):
    def test_every_scenario_declared(self):
        names = set()
        for path in glob.glob(os.path.join(TOP, "tests", "lab", "scenario_*.py")):
            with open(path) as fh:
                m = META.search(fh.read())
            self.assertTrue(m, path)
            names.add(m.group(1))
        self.assertEqual(sorted(names - set(labknobs.SCENARIOS)), [],
                         "scenarios without an entry in labknobs.SCENARIOS")
        self.assertEqual(sorted(set(labknobs.SCENARIOS) - names), [],
                         "entries of labknobs.SCENARIOS without a scenario")
        for name, spec in labknobs.SCENARIOS.items():
            self.assertTrue(spec.drives, name)
            self.assertEqual([a for a in spec.drives if a not in labknobs.AREAS], [], name)
            for knob, why in spec.accepts.items():
                self.assertTrue(len(why) > 20, "%s accepts %s without why" % (name, knob))

    def test_unknown_scenario(self):
        with self.assertRaisesRegex(AssertionError, "not in labknobs.SCENARIOS"):
            labknobs.judge("no-such-scenario", POOL_RMEM_MAX)


class Judge(unittest.TestCase):
    def verdict(self, name, item, own=(), rows=None):
        return labknobs.judge(name, item, own, rows, held=set())[0]

    def test_the_issue_s_wrong_knobs(self):
        # issue 32: rmem_default raised as a host-pool finding in
        # net-udp-max, rmem_max in net-udp-default: another subject than
        # the scenario's socket, the wrong knob all the same.
        self.assertEqual(self.verdict("net-udp-max", POOL_RMEM_DEFAULT, ("net.core.rmem_max",)),
                         "wrong")
        self.assertEqual(self.verdict("net-udp-max", POOL_RMEM_MAX, ("net.core.rmem_max",)),
                         "own")
        self.assertEqual(self.verdict("net-udp-default", POOL_RMEM_MAX,
                                      ("net.core.rmem_default",)), "wrong")
        self.assertEqual(self.verdict("net-udp-sndbuf", POOL_WMEM_MAX,
                                      ("net.core.wmem_default",)), "wrong")

    def test_another_disk_of_the_lab_is_judged(self):
        # neg-disk-throughput's own rule skipped every subject but its
        # device: a knob for another loop device went unjudged.
        other = row("tw-6", "read-latency-queue", "loop9", "queue/nr_requests", "64", "128")
        self.assertEqual(self.verdict("neg-disk-throughput", other), "wrong")
        why = labknobs.judge("neg-disk-throughput", other)[1]
        self.assertIn("no knob", why)

    def test_the_machine_s_own(self):
        self.assertEqual(self.verdict("net-listen", VDA_DIRTY), "not ours")
        self.assertIn("loads no writeback", labknobs.judge("net-listen", VDA_DIRTY)[1])
        vda = row("tw-7", "random-readahead", "vda", "queue/read_ahead_kb", "128", "16")
        self.assertEqual(self.verdict("healthy-udp", vda), "not ours")
        # A scenario on files of the host's disk owns vda's findings.
        self.assertEqual(self.verdict("healthy-write", vda), "wrong")
        for name in ("neg-anon-leak", "cache-cgroup", "healthy-write"):
            self.assertEqual(self.verdict(name, OTHERS_CGROUP), "not ours", name)
        limit = row("tw-8", "cgroup-cache-bounded", "/sys/fs/cgroup/memory/process_api",
                    "MemoryLimit", "64M", "128M")
        self.assertEqual(self.verdict("neg-anon-leak", limit), "not ours")

    def test_the_cgroup_the_lab_runs_in(self):
        # The lab runs in the memory cgroup it was started in, its
        # workloads with it: that cgroup and its parents are the
        # scenario's, another of their children is not.
        held = labknobs.lab_cgroups(LAB_IN)
        self.assertIn("/sys/fs/cgroup/memory/process_api", held)
        self.assertEqual(labknobs.judge("healthy-write", LABS_CGROUP, held=held)[0], "no knob")
        limit = row("tw-8", "cgroup-cache-bounded", "/sys/fs/cgroup/memory/process_api",
                    "MemoryLimit", "64M", "128M")
        self.assertEqual(labknobs.judge("neg-anon-leak", limit, held=held)[0], "wrong")
        sibling = dict(LABS_CGROUP, SUBJECT="/sys/fs/cgroup/memory/process_api/another")
        self.assertEqual(labknobs.judge("healthy-write", sibling, held=held)[0], "not ours")
        self.assertFalse(labknobs.theirs("healthy-write", LABS_CGROUP, held))
        self.assertIn("/sys/fs/cgroup/user.slice",
                      labknobs.lab_cgroups("0::/user.slice/session-1.scope\n"))

    def test_own_cgroup_and_lines(self):
        mine = row("tw-9", "cgroup-cache-bounded",
                   "/sys/fs/cgroup/memory/tw-lab-neg-anon-leak-leaky-1141.service",
                   "MemoryLimit", "64M", "128M")
        self.assertEqual(self.verdict("neg-anon-leak", mine), "wrong")
        line = advice("tune: tw-lab-cache-cgroup-job-7840.service MemoryLimit=64M -> 336M "
                      "(25334.4 refaults/s)", "tw-10")
        self.assertEqual(labknobs.knob(line)[:2],
                         ("MemoryLimit", "tw-lab-cache-cgroup-job-7840.service"))
        self.assertEqual(self.verdict("cache-cgroup", line), "accepted")
        self.assertEqual(self.verdict("neg-anon-leak", advice(
            "tune: tw-lab-neg-anon-leak-leaky-1.service MemoryLimit=64M -> 128M (x)", "t")),
            "wrong")

    def test_queue_attributes(self):
        path = "/sys/block/loop0/queue/read_ahead_kb"
        own = row("tw-11", "low-hit-sequential", "loop0", "queue/read_ahead_kb", "4", "128")
        line = advice("tune: %s 4 -> 128 (hit ratio 0 %%)" % path, "tw-11")
        self.assertEqual(self.verdict("cache-readahead", own, (path,)), "own")
        self.assertEqual(self.verdict("cache-readahead", line, (path,)), "own")
        other = row("tw-12", "low-hit-sequential", "loop1", "queue/read_ahead_kb", "4", "128")
        self.assertEqual(self.verdict("cache-readahead", other, (path,)), "wrong")

    def test_no_knob_is_not_judged(self):
        for item in (row("tw-13", "socket-rcvbuf", "udp 127.0.0.1:40000 inode 5"),
                     advice("no tunable: loop0 takes 75.4 ms per write", "tw-14"),
                     advice("tune: vm.dirty_bytes 58720256, not raised again (why)", "tw-15")):
            self.assertEqual(self.verdict("net-udp-max", item), "no knob", item)

    def test_accepted_with_why(self):
        bg = row("tw-16", "dirty-limited", "cache", "vm.dirty_background_bytes", "2097152",
                 "4194304")
        self.assertEqual(labknobs.judge("cache-dirty", bg, ("vm.dirty_bytes",))[0], "accepted")
        self.assertEqual(self.verdict("neg-writer-faster", bg), "wrong")


class Harness(unittest.TestCase):
    """Each kind's harness fails a wrong knob of another subject and lists
    the machine's finding; each failed on the code before labknobs."""

    def test_problem_others(self):
        lab = Lab("net-udp-max")
        p = problem("net.core.rmem_max", "socket-rcvbuf")
        labcore.run_judged(
            lambda lab: labproblem.others(lab, Stack([POOL_RMEM_MAX, OTHERS_CGROUP]), p), lab)
        self.assertEqual(lab.result.get("wrong"), None)
        self.assertEqual(len(lab.result["not_ours"]), 1)
        self.assertIn("cron.service", lab.result["not_ours"][0])
        # Recorded, the round goes on, and the scenario fails once run.
        stack = Stack([POOL_RMEM_MAX, POOL_RMEM_DEFAULT])
        with self.assertRaisesRegex(AssertionError, "does not accept.*rmem_default"):
            labcore.run_judged(lambda lab: [labproblem.others(lab, stack, p)
                                            for _ in range(3)], lab)
        self.assertEqual(len(lab.result["wrong"]), 1)

    def test_problem_check_lines(self):
        lab = Lab("net-udp-sndbuf")
        p = problem("net.core.wmem_default", "udp-sndbuf")
        line = advice("tune: net.core.wmem_max 4194304 -> 8388608 (full send buffers)", "tw-x")

        def run(lab):
            labproblem.others(lab, Stack(), p, [line])
            raise AssertionError("the sweep failed")
        # Said beside what else failed.
        with self.assertRaisesRegex(AssertionError, "wmem_max.*; the sweep failed"):
            labcore.run_judged(run, lab)

    def test_pingpong(self):
        lab = Lab("net-udp-max")
        p = problem("net.core.rmem_max", "socket-rcvbuf")
        got = labproof.pingpong(lab, Stack([POOL_RMEM_DEFAULT]), p, 1, windows=1)
        self.assertEqual(len(got["wrong"]), 1)
        self.assertIn("net.core.rmem_default", got["wrong"][0])

    def test_negative_control(self):
        lab = Lab("neg-disk-throughput", "negative")
        name = "loop0"

        def wrong(x):
            # The control's own words, for its own device only (as before).
            if isinstance(x, dict):
                return "a knob for a device at its throughput" if (
                    x.get("SUBJECT") == name and x.get("TUNABLE")) else None
            return "a knob for a device at its throughput" if name in x.line else None

        other = row("tw-20", "read-latency-queue", "loop9", "queue/nr_requests", "64", "128")
        stack = Stack([other, OTHERS_CGROUP])
        with self.assertRaisesRegex(AssertionError, "loop9"):
            labneg.watch(lab, stack, lambda: None, wrong, "nothing", every=0.01, settle=0)
        self.assertIn("cron.service", " ".join(lab.result["not_ours"]))
        # Its device's knob: the control's own words, said once.
        lab = Lab("neg-disk-throughput", "negative")
        mine = row("tw-21", "read-latency-queue", "loop0", "queue/nr_requests", "64", "128")
        with self.assertRaises(AssertionError):
            labneg.watch(lab, Stack([mine]), lambda: None, wrong, "nothing", every=0.01,
                         settle=0)
        self.assertEqual(len(lab.result["wrong"]), 1, lab.result["wrong"])

    def test_healthy(self):
        lab = Lab("healthy-udp", "healthy")
        labcache.run_healthy(lab, Stack([OTHERS_CGROUP, VDA_DIRTY]), lambda: None, "nothing",
                             every=0.01, settle=0)
        self.assertEqual(len(lab.result["not_ours"]), 2, lab.result["not_ours"])
        lab = Lab("healthy-write", "healthy")
        with self.assertRaisesRegex(AssertionError, "findings raised"):
            labcache.run_healthy(lab, Stack([VDA_DIRTY]), lambda: None, "nothing",
                                 every=0.01, settle=0)
        self.assertIn("vm.dirty_bytes", " ".join(lab.result["wrong"]))


if __name__ == "__main__":
    unittest.main(verbosity=1)
