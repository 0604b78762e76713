# SPDX-License-Identifier: ISC
"""Helpers for the probe's integration tests: a loop device over a file of
the test's own (always detached again), a loop device over a FUSE file whose
every read takes a known time (tests/fusedelay; unmounted again),
tunewatchd.conf probe lines, and twProbeTable read back by column name.

The backing file lives in the build tree, on disk: a loop device with
--direct-io=on over it reads the disk with O_DIRECT, as a real disk is
read. (A file in tmpfs would refuse direct I/O.)"""

import os
import shutil
import subprocess
import tempfile
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

    def __init__(self, backing, mib=64, keep_backing=False):
        self.backing = backing
        self.mib = mib
        self.keep_backing = keep_backing
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

    def dio(self):
        """Whether the loop driver reads its file with direct I/O."""
        with open("/sys/block/%s/loop/dio" % self.name) as fh:
            return fh.read().strip() == "1"

    def __enter__(self):
        if not os.path.exists(self.backing):
            twtest.cold_file(self.backing, self.mib)
        self.attach()
        return self

    def __exit__(self, *exc):
        self.detach()
        if not self.keep_backing:
            try:
                os.unlink(self.backing)
            except OSError:
                pass
        return False


def fusedelay_bin():
    return os.path.join(twtest.TOP_BUILDDIR, "tests", "fusedelay")


def need_fusedelay():
    """Skip, with the reason, where tests/fusedelay cannot run."""
    if not os.path.exists(fusedelay_bin()):
        raise twtest.Skip("tests/fusedelay was not built: configure found no libfuse3 "
                          "(Debian: apt-get install libfuse3-dev fuse3)")
    if not os.path.exists("/dev/fuse"):
        raise twtest.Skip("no /dev/fuse (modprobe fuse)")
    if not twtest.which("fusermount3"):
        raise twtest.Skip("needs fusermount3 (Debian: apt-get install fuse3)")


class FuseDelay:
    """tests/fusedelay mounted in a directory of its own (prefix + random)
    and a loop device with direct I/O over its disk.img: a block device
    whose every read takes delay_us plus what FUSE and the loop driver add.
    The loop device is detached, the file system unmounted, the daemon
    stopped and the directory removed on every way out."""

    def __init__(self, delay_us, mib=64, prefix="tw-fusedelay-"):
        self.delay_us = delay_us
        self.mib = mib
        self.prefix = prefix
        self.mnt = None
        self.proc = None
        self.loop = None

    @property
    def dev(self):
        return self.loop.dev

    @property
    def name(self):
        return self.loop.name

    def set_delay(self, us):
        with open(os.path.join(self.mnt, "delay"), "w") as fh:
            fh.write("%d\n" % us)
        self.delay_us = us

    def set_errors(self, on):
        """Every read fails with EIO from now on (True), or none does."""
        with open(os.path.join(self.mnt, "errors"), "w") as fh:
            fh.write("1\n" if on else "0\n")

    def stats(self):
        """{"reads": N, "bytes": B, "errors": E, "writes": W}: what the daemon
        has answered."""
        with open(os.path.join(self.mnt, "stats")) as fh:
            return {k: int(v) for k, v in (l.split() for l in fh if l.strip())}

    def __enter__(self):
        need_fusedelay()
        self.mnt = tempfile.mkdtemp(prefix=self.prefix + "mnt-")
        try:
            self.log = open(self.mnt + ".log", "wb")
            self.proc = subprocess.Popen(
                [fusedelay_bin(), "--delay", str(self.delay_us), "--size", str(self.mib), "-f",
                 self.mnt], stdout=self.log, stderr=subprocess.STDOUT)
            twtest.wait_for("fusedelay mounted at %s" % self.mnt,
                            lambda: self.proc.poll() is not None or os.path.ismount(self.mnt),
                            timeout=10)
            if not os.path.ismount(self.mnt):
                with open(self.mnt + ".log", errors="replace") as fh:
                    raise twtest.Skip("fusedelay could not mount here: %s" % fh.read().strip())
            self.loop = Loop(os.path.join(self.mnt, "disk.img"), keep_backing=True)
            self.loop.attach()
            if not self.loop.dio():
                raise twtest.Skip("the loop driver refused direct I/O over a FUSE file")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.loop is not None:
            self.loop.detach()
            self.loop = None
        if self.mnt is not None and os.path.ismount(self.mnt):
            for _ in range(50):
                if subprocess.run(["fusermount3", "-u", self.mnt],
                                  capture_output=True, timeout=30).returncode == 0:
                    break
                time.sleep(0.1)
            else:
                subprocess.run(["umount", "-l", self.mnt], capture_output=True, timeout=30)
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=10)
            self.proc = None
            self.log.close()
        if self.mnt is not None:
            if not os.path.ismount(self.mnt):
                shutil.rmtree(self.mnt, ignore_errors=True)
                try:
                    os.unlink(self.mnt + ".log")
                except OSError:
                    pass
            self.mnt = None
        return False


# Loop devices' backing files and FUSE mount points start so: the kernel's
# loop devices and mounts are shared by everything on the machine.
NAME_PREFIX = "tw-i22-probe-"


def backing_path(h, name):
    """A file in the build tree (on disk), unique to this test."""
    d = os.path.join(twtest.TOP_BUILDDIR, "tests", "integration")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, "%s%s-%d.img" % (NAME_PREFIX, name, os.getpid()))


def memory_backing_path(name, mib):
    """A file in /dev/shm (tmpfs: memory), unique to this test, when there
    is room for it; else one in the build tree. Read through a loop device,
    such a file takes the kernel's read path alone: no disk that other
    work on the machine keeps busy."""
    d = "/dev/shm"
    try:
        st = os.statvfs(d)
        if st.f_bavail * st.f_frsize >= 4 * (mib << 20):
            return os.path.join(d, "%s%s-%d.img" % (NAME_PREFIX, name, os.getpid()))
    except OSError:
        pass
    return backing_path(None, name)


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


IOPING_UNITS = {"ns": 0.001, "us": 1.0, "ms": 1000.0, "s": 1e6}


def ioping_times(out):
    """ioping's request times in microseconds, its warm-up read left out."""
    times = []
    for line in out.splitlines():
        if "time=" in line and "warmup" not in line:
            val, unit = line.split("time=")[1].split()[:2]
            times.append(float(val) * IOPING_UNITS[unit])
    return times


def ioping_between(dev, count, phase=0.05):
    """count reads of `ioping -D -i 0.1` on dev, each midway between two of
    the probe's slots (whole tenths of a second of the monotonic clock, the
    first probed device's; probereader.h), so that the two read one after
    the other, never at once: ioping keeps its requests on a fixed clock
    from its start, and is started phase s after a slot. Their times, in
    microseconds."""
    time.sleep((phase - time.monotonic() % 0.1) % 0.1)
    r = subprocess.run(["ioping", "-D", "-c", str(count + 1), "-i", "0.1", dev],
                       capture_output=True, text=True, timeout=count * 0.1 + 120)
    assert r.returncode == 0, r.stderr
    times = ioping_times(r.stdout)
    assert len(times) == count, r.stdout
    return times


def percentile(xs, p):
    """The value of rank ceil(p/100 n), as the probe's histogram ranks."""
    xs = sorted(xs)
    k = max(1, -(-len(xs) * p // 100))
    return xs[int(k) - 1]
