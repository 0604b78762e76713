# SPDX-License-Identifier: ISC
"""Helpers for the probe's integration tests: a loop device over a file of
the test's own (always detached again), tunewatchd.conf probe lines, and
twProbeTable read back by column name.

The backing file lives in the build tree, on disk: a loop device with
--direct-io=on over it reads the disk with O_DIRECT, as a real disk is
read. (A file in tmpfs would refuse direct I/O.)"""

import os
import subprocess
import time

import twtest
from twtest import column


def need_root_tools(*tools):
    """Skip, with the reason, without root or one of the tools."""
    if os.geteuid() != 0:
        raise twtest.Skip("needs root (loop devices, O_DIRECT on a block device)")
    for t in ("losetup",) + tools:
        if not twtest.which(t):
            raise twtest.Skip("needs %s (Debian: apt-get install %s)" % (
                t, {"ioping": "ioping", "dmsetup": "dmsetup"}.get(t, "util-linux")))
    if not os.path.isdir("/sys/block"):
        raise twtest.Skip("no /sys/block")


class Loop:
    """A loop device with direct I/O over a file, detached on exit."""

    def __init__(self, backing, mib=64):
        self.backing = backing
        self.mib = mib
        self.dev = None

    def attach(self):
        r = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", self.backing],
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise twtest.Skip("losetup cannot attach a loop device here: %s" % r.stderr.strip())
        self.dev = r.stdout.strip()
        return self.dev

    def detach(self):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True, timeout=30)
            # Bounded: the kernel lets go of the device asynchronously.
            for _ in range(100):
                if not os.path.exists("/sys/block/%s/loop" % self.name):
                    break
                time.sleep(0.05)
            self.dev = None

    @property
    def name(self):
        return os.path.basename(self.dev)

    def majmin(self):
        with open("/sys/block/%s/dev" % self.name) as fh:
            return fh.read().strip()

    def index(self):
        return self.majmin().replace(":", ".")

    def __enter__(self):
        if not os.path.exists(self.backing):
            twtest.cold_file(self.backing, self.mib)
        self.attach()
        return self

    def __exit__(self, *exc):
        self.detach()
        try:
            os.unlink(self.backing)
        except OSError:
            pass
        return False


def backing_path(h, name):
    """A file in the build tree (on disk), unique to this test."""
    d = os.path.join(twtest.TOP_BUILDDIR, "tests", "integration")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, "%s-%d.img" % (name, os.getpid()))


def write_conf(h, lines):
    path = os.path.join(h.dir, "tunewatchd.conf")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def probe_row(h, index):
    """{column macro suffix: Value} of twProbeTable's row index ('7.0')."""
    v = twtest.as_dict(h.walk(twtest.oid("PROBE_DEVICE", None).rsplit(".", 1)[0]))
    row = {}
    for name in ("DEVICE", "STATE", "REASON", "RATE", "READ_SIZE", "WINDOW", "COUNT", "MIN",
                 "P50", "P90", "P99", "MAX", "MEAN", "TIMEOUTS", "MISSED", "ERRORS"):
        col = column(v, "PROBE_" + name)
        if index in col:
            row[name] = col[index]
    return row


def agent_log(h):
    with open(os.path.join(h.dir, "tunewatchd.log"), errors="replace") as fh:
        return fh.read()


def wait_state(h, index, state, timeout=20.0):
    """Wait (bounded) until the row's twProbeState is state; the row."""
    found = {}

    def ready():
        found.clear()
        found.update(probe_row(h, index))
        return "STATE" in found and found["STATE"].text == state
    try:
        twtest.wait_for("twProbeState %s of %s" % (state, index), ready, timeout=timeout,
                        step=0.5)
    except AssertionError as e:
        raise AssertionError("%s; the row: %r" % (e, found))
    return dict(found)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0
