# SPDX-License-Identifier: ISC
"""Helpers for the request-latency tests: what they need (root, BTF, the
tools), tracefs for bpftrace (mounted only if it is not, and unmounted
again), loop devices over files of the test's own (always detached), the
reference a bpftrace program of the block tracepoints keeps, and
twReqLatTable read back by column name.

Loop backing files are called $TW_LOOP_PREFIX-<test>-<pid>.img
(TW_LOOP_PREFIX defaults to tw-reqlat), in the build tree, on disk: a loop
device with --direct-io=on over one reads the disk with O_DIRECT."""

import os
import subprocess
import time

import tracing
import twtest
from twtest import column
from tracing import Tracefs  # noqa: F401 (the tests take it from here)

BTF = "/sys/kernel/btf/vmlinux"

REQLAT_COLUMNS = ("DEVICE", "WINDOW", "COUNT", "P50", "P90", "P99", "MAX", "MEAN", "QUEUED",
                  "QUEUE_P50", "QUEUE_P90", "QUEUE_P99", "QUEUE_MAX", "TOTAL")


def need(*tools):
    """Skip, with the reason, where the test cannot run."""
    if os.geteuid() != 0:
        raise twtest.Skip("needs root (loop devices, loading BPF programs)")
    if not os.path.exists(BTF):
        raise twtest.Skip("the kernel has no BTF (%s)" % BTF)
    for t in ("losetup",) + tools:
        if not twtest.which(t):
            raise twtest.Skip("needs %s (Debian: apt-get install %s)" % (
                t, {"losetup": "util-linux"}.get(t, t)))


def backing_path(name):
    d = os.path.join(twtest.TOP_BUILDDIR, "tests", "integration")
    os.makedirs(d, exist_ok=True)
    prefix = os.environ.get("TW_LOOP_PREFIX", "tw-reqlat")
    return os.path.join(d, "%s-%s-%d.img" % (prefix, name, os.getpid()))


class Loop:
    """A loop device with direct I/O over a file (written with random data
    unless it exists), detached and the file removed on exit."""

    def __init__(self, backing, mib=128, remove=True):
        self.backing = backing
        self.mib = mib
        self.remove = remove
        self.dev = None

    def __enter__(self):
        if not os.path.exists(self.backing):
            twtest.cold_file(self.backing, self.mib)
        r = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", self.backing],
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            self.__exit__()
            raise twtest.Skip("losetup cannot attach a loop device here: %s" % r.stderr.strip())
        self.dev = r.stdout.strip()
        # udev probes a new device: let its reads be done before any
        # window starts.
        if twtest.which("udevadm"):
            subprocess.run(["udevadm", "settle", "-t", "10"], capture_output=True, timeout=30)
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True, timeout=30)
            self.dev = None
        if self.remove:
            try:
                os.unlink(self.backing)
            except OSError:
                pass
        return False

    @property
    def name(self):
        return os.path.basename(self.dev)

    def majmin(self):
        with open("/sys/block/%s/dev" % self.name) as fh:
            major, minor = fh.read().strip().split(":")
        return int(major), int(minor)

    def index(self):
        return "%d.%d" % self.majmin()


def agent_conf(h, dev_name, extra=()):
    """tunewatchd.conf publishing dev_name alone (loop devices are left out
    by default, so the default exclusions are replaced)."""
    path = os.path.join(h.dir, "tunewatchd.conf")
    with open(path, "w") as fh:
        fh.write("diskInclude ^%s$\ndiskExclude ^$\n" % dev_name)
        for line in extra:
            fh.write(line + "\n")
    return path


def agent_state(h):
    v = h.get([twtest.oid("AGENT_REQLAT_STATE"), twtest.oid("AGENT_REQLAT_REASON")])
    return v[0].text, v[1].text


def need_timing(h):
    """Skip where this tunewatchd cannot time requests (a build without
    libbpf, a kernel that refuses the program); the state otherwise."""
    state, reason = agent_state(h)
    if state in ("not-built", "no-btf", "no-tracepoints"):
        raise twtest.Skip("tunewatchd does not time requests here: %s: %s" % (state, reason))
    assert state == "timing", "twAgentReqLatState %s: %s" % (state, reason)


def reqlat_row(h, index, direction=1):
    """{column macro suffix: Value} of twReqLatTable's row for a disk
    index ('7.0') and direction (1 reads, 2 writes)."""
    table = twtest.oid("REQLAT_DEVICE", None).rsplit(".", 2)[0]
    v = twtest.as_dict(h.walk(table))
    key = "%s.%d" % (index, direction)
    row = {}
    for name in REQLAT_COLUMNS:
        col = column(v, "REQLAT_" + name)
        if key in col:
            row[name] = col[key]
    return row


def reqhist_rows(h, index, direction=1):
    """[(bound, cumulative count)] of twReqHistTable for a disk's reads."""
    prefix = twtest.oid("REQHIST_COUNT", None) + ".%s.%d." % (index, direction)
    table = twtest.oid("REQHIST_COUNT", None).rsplit(".", 2)[0]
    rows = []
    for val in h.walk(table):
        if val.oid.startswith(prefix):
            rows.append((int(val.oid[len(prefix):]), val.num))
    return rows


# ---- The reference: bpftrace on the block tracepoints ------------------------

REFERENCE = """
tracepoint:block:block_rq_issue /args->dev == %(dev)d && strncmp(args->rwbs, "R", 1) == 0/
{
	@start[args->sector] = nsecs;
}

tracepoint:block:block_rq_complete /args->dev == %(dev)d && @start[args->sector]/
{
	$us = (nsecs - @start[args->sector]) / 1000;
	@n = count();
	@fine = lhist($us, 0, %(fine_top)d, %(fine_step)d);
	@coarse = lhist($us, 0, %(coarse_top)d, %(coarse_step)d);
	delete(@start[args->sector]);
}

END
{
	clear(@start);
}
"""

class Bpftrace:
    """A biolatency of the device's reads in bpftrace, on the classic block
    tracepoints (dev and sector, not the struct request tunewatchd keys
    by): its count and two linear histograms, fine and coarse, in
    microseconds."""

    def __init__(self, h, major, minor, fine=(4000, 4), coarse=(400000, 400)):
        self.run = tracing.Bpftrace(h, "bpftrace", REFERENCE % {
            "dev": (major << 20) | minor, "fine_top": fine[0], "fine_step": fine[1],
            "coarse_top": coarse[0], "coarse_step": coarse[1]})

    def __enter__(self):
        self.run.__enter__()
        return self

    def recursion_misses(self):
        """The kernel's count of the reference's probes it skipped (see
        tracing.recursion_misses); read before stop()."""
        return self.run.recursion_misses()

    def stop(self):
        """Stop it and read what it counted: (count, fine, coarse), each
        histogram a list of (lo, hi, count), hi None for the last."""
        text = self.run.stop()
        count = None
        for line in text.splitlines():
            if line.startswith("@n:"):
                count = int(line.split(":")[1])
        hists = {name: hist for (name, _), hist in tracing.histograms(text).items()}
        assert count is not None, "bpftrace printed no count: %s" % text[-500:]
        for name, hist in hists.items():
            assert tracing.hist_count(hist) == count, \
                "bpftrace's %s histogram holds %d of %d requests: a line not read" % (
                    name, tracing.hist_count(hist), count)
        return count, hists.get("fine", []), hists.get("coarse", [])

    def __exit__(self, *exc):
        return self.run.__exit__(*exc)


def reference_percentile(fine, coarse, count, p):
    """From the fine histogram when it holds the rank, else the coarse:
    (midpoint, bucket width) in microseconds."""
    for hist in (fine, coarse):
        b = tracing.hist_percentile(hist, p, count)
        if b is not None and b[1] is not None:
            return (b[0] + b[1]) / 2.0, b[1] - b[0]
    raise AssertionError("p%s is past both reference histograms" % p)


def reads_completed(name):
    """The kernel's count of the device's completed reads (the first
    field of /sys/block/NAME/stat)."""
    with open("/sys/block/%s/stat" % name) as fh:
        return int(fh.read().split()[0])


def fio(dev, seconds, engine="psync", depth=1, rw="randread"):
    """fio's random reads of dev for seconds: the requests it completed."""
    import json
    r = subprocess.run(["fio", "--name=tw", "--filename=" + dev, "--direct=1", "--rw=" + rw,
                        "--bs=4k", "--runtime=%d" % seconds, "--time_based",
                        "--ioengine=" + engine, "--iodepth=%d" % depth,
                        "--output-format=json"], capture_output=True, text=True,
                       timeout=seconds + 120)
    assert r.returncode == 0, "fio failed: %s" % r.stderr[-500:]
    return json.loads(r.stdout)["jobs"][0]["read"]["total_ios"]
