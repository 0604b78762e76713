# SPDX-License-Identifier: ISC
"""bpftrace as a test's reference: tracefs mounted for its tracepoints (only
if nothing has, and unmounted again), a program started and waited for
until it has attached, and stopped so that it prints what it kept."""

import os
import re
import signal
import subprocess
import time

import twtest

TRACEFS = "/sys/kernel/tracing"


class Tracefs:
    """tracefs at /sys/kernel/tracing, with the tracepoint `event`
    ("block/block_rq_issue") in it; mounted here only when nothing has,
    and then unmounted on exit."""

    def __init__(self, event="block/block_rq_issue"):
        self.event = event
        self.mounted = False

    def __enter__(self):
        if not os.path.isdir(os.path.join(TRACEFS, "events")):
            r = subprocess.run(["mount", "-t", "tracefs", "tracefs", TRACEFS],
                               capture_output=True, text=True, timeout=30)
            if r.returncode != 0:
                raise twtest.Skip("cannot mount tracefs at %s: %s" % (TRACEFS, r.stderr.strip()))
            self.mounted = True
        if not os.path.isdir(os.path.join(TRACEFS, "events", self.event)):
            self.__exit__()
            raise twtest.Skip("the kernel has no tracepoint %s" % self.event)
        return self

    def __exit__(self, *exc):
        if self.mounted:
            subprocess.run(["umount", TRACEFS], capture_output=True, timeout=30)
            self.mounted = False
        return False


class Bpftrace:
    """A bpftrace program (its text) run from the harness's directory, its
    standard output in `name`.out, its errors in the harness's `name` log."""

    def __init__(self, h, name, program, args=()):
        self.h = h
        self.name = name
        self.program = program
        self.args = [str(a) for a in args]
        self.out = os.path.join(h.dir, name + ".out")
        self.proc = None

    def __enter__(self):
        script = os.path.join(self.h.dir, self.name + ".bt")
        with open(script, "w") as fh:
            fh.write(self.program)
        with open(self.out, "w") as out:
            self.proc = subprocess.Popen([twtest.which("bpftrace"), script] + self.args,
                                         stdout=out, stderr=self.h.log(self.name))
        self.h.procs.append(self.proc)
        twtest.wait_for("bpftrace to attach", lambda: self.proc.poll() is not None or
                        "Attaching" in open(self.out).read(), timeout=60)
        assert self.proc.poll() is None, "bpftrace stopped: see %s.log" % self.name
        time.sleep(0.5)
        return self

    def stop(self):
        """Stop it; everything it printed."""
        if self.proc is not None and self.proc.poll() is None:
            # It prints its maps on the way out, slowly on a loaded machine.
            # Once in a full suite (make check of 609e1b3) bpftrace 0.17 sat
            # 300 s after a SIGINT and printed nothing, as if the signal had
            # gone astray: it gets a second one after 60 s, and the reference
            # is what it prints then.
            for n, wait in ((1, 60), (2, 240)):
                self.proc.send_signal(signal.SIGINT)
                try:
                    self.proc.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    print("bpftrace still running %d s after SIGINT number %d" % (wait, n))
            else:
                self.proc.kill()
                raise AssertionError("bpftrace did not stop within 300 s of two SIGINTs")
        with open(self.out) as fh:
            return fh.read()

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return False


# bpftrace writes a bound that is a whole multiple of 1024 with a suffix:
# [5080, 5K) is [5080, 5120).
_BUCKET = re.compile(r"^\[(\d+[KMG]?), (\d+[KMG]?|\.\.\.)\)\s+(\d+)\s")
_MAP = re.compile(r"^@(\w+)(?:\[(.*)\])?:\s*$")
_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _bound(text):
    if text[-1] in "KMG":
        return int(text[:-1]) * _SUFFIX[text[-1]]
    return int(text)


def histograms(text):
    """The histograms bpftrace printed, {(map, key or None): [(lo, hi,
    count)]}, hi None for the last, open bucket."""
    hists, cur = {}, None
    for line in text.splitlines():
        m = _MAP.match(line)
        if m:
            cur = (m.group(1), m.group(2))
            hists[cur] = []
            continue
        m = _BUCKET.match(line)
        if m and cur is not None:
            hi = None if m.group(2) == "..." else _bound(m.group(2))
            hists[cur].append((_bound(m.group(1)), hi, int(m.group(3))))
    return hists


def hist_count(hist):
    return sum(n for _, _, n in hist)


def hist_percentile(hist, p, count=None):
    """The bucket [lo, hi) holding the value of rank ceil(p/100 count) of
    count values (all the histogram holds unless given); hi is None for
    the last, open bucket, and the answer None where the rank is not in
    the histogram."""
    if count is None:
        count = hist_count(hist)
    rank = max(1, -(-int(p * count) // 100))
    seen = 0
    for lo, hi, n in hist:
        seen += n
        if seen >= rank:
            return lo, hi
    return None
