# SPDX-License-Identifier: ISC
"""Helpers for the probe's integration tests: a loop device over a file of
the test's own (always detached again), a loop device over a FUSE file whose
every read takes a known time (tests/fusedelay; unmounted again),
tunewatchd.conf probe lines, and twProbeTable read back by column name.

The backing file lives in the build tree, on disk: a loop device with
--direct-io=on over it reads the disk with O_DIRECT, as a real disk is
read. (A file in tmpfs would refuse direct I/O.)"""

import math
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


# The real-time priority of the FUSE daemon that stands in for a disk, and
# of a reader timed against it (tests/lab/labdisk.py takes both from here):
# the lowest but one, under every kernel thread's.
FIFO_PRIORITY = 10


def realtime_threads(pid):
    """Every thread of pid at SCHED_FIFO FIFO_PRIORITY (threads it makes
    later inherit it from their maker): None, or why not (a cpu cgroup
    without real-time time, a container)."""
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            os.sched_setscheduler(int(tid), os.SCHED_FIFO, os.sched_param(FIFO_PRIORITY))
    except OSError as e:
        return "SCHED_FIFO refused for pid %d: %s" % (pid, e.strerror)
    return None


class FuseDelay:
    """tests/fusedelay mounted in a directory of its own (prefix + random)
    and a loop device with direct I/O over its disk.img: a block device
    whose every read takes delay_us plus what FUSE and the loop driver add.
    The loop device is detached, the file system unmounted, the daemon
    stopped and the directory removed on every way out.

    The daemon runs at SCHED_FIFO, as a disk waits for no CPU: at its
    ordinary priority, beside contrib/busy-machine (load 3.5 on 2 CPUs), a
    thread whose 20 ms sleep had ended waited 14 ms for a CPU, and about
    one read in ten of the probe's (none of ioping's, which read 55 ms
    later in each tenth of a second) took 33-38 ms: probe_known failed 3
    runs of 3 on the device, not on the probe (traced: fuse_request_send
    to the daemon's next switch-in). Where real-time is refused the
    daemon stays at its priority and `fifo_refused` says why."""

    def __init__(self, delay_us, mib=64, prefix="tw-fusedelay-"):
        self.delay_us = delay_us
        self.mib = mib
        self.prefix = prefix
        self.mnt = None
        self.proc = None
        self.loop = None
        self.fifo_refused = None

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
            self.fifo_refused = realtime_threads(self.proc.pid)
            if self.fifo_refused:
                print("fusedelay at its ordinary priority: " + self.fifo_refused)
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


# For probe_loop.py and probe_many.py, with tracing.Bpftrace: every read
# of $2 bytes by the probe (pid $1) by descriptor (which device), and of
# ioping, kept by its start (the monotonic clock, nanoseconds) with its
# time in microseconds, so that the test takes exactly the reads of the
# probe's window. Histograms of the whole round held more reads than the window
# (409 against 377 on a busy machine, where ioping's 400 reads outlast
# 40 s), and on a busy machine the reads are of two kinds, fast ones and
# ones that waited for a CPU, with the median between them: a few reads
# more or less moved it from 1250 to 2112 us.
PREADS = """
tracepoint:syscalls:sys_enter_pread64 /(pid == $1 || comm == "ioping") && args->count == $2/
{
	@start[tid] = nsecs;
	@fd[tid] = args->fd;
}

tracepoint:syscalls:sys_exit_pread64 /@start[tid]/
{
	if (pid == $1) {
		@probe[@fd[tid], @start[tid]] = (nsecs - @start[tid]) / 1000;
	} else {
		@ioping[pid, @start[tid]] = (nsecs - @start[tid]) / 1000;
	}
	delete(@start[tid]);
	delete(@fd[tid]);
}

END
{
	clear(@start);
	clear(@fd);
}
"""
# Eight devices and ioping, over 400 reads each and more: past bpftrace's
# default of 4,096 keys a map.
PREADS_ENV = {"BPFTRACE_MAP_KEYS_MAX": "65536"}


def device_fds(pid, devs):
    """{descriptor: device path} of pid's descriptors open on devs."""
    fds = {}
    d = "/proc/%d/fd" % pid
    for fd in os.listdir(d):
        try:
            target = os.readlink(os.path.join(d, fd))
        except OSError:
            continue
        if target in devs:
            fds[int(fd)] = target
    return fds


def write_conf(h, lines):
    path = os.path.join(h.dir, "tunewatchd.conf")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


PROBE_COLUMNS = ("DEVICE", "STATE", "REASON", "RATE", "READ_SIZE", "WINDOW", "COUNT", "MIN",
                 "P50", "P90", "P99", "MAX", "MEAN", "TIMEOUTS", "MISSED", "ERRORS")


def walk_probe_table(h):
    return twtest.as_dict(h.walk(twtest.oid("PROBE_DEVICE", None).rsplit(".", 1)[0]))


def probe_row(h, index, table=None):
    """{column macro suffix: Value} of twProbeTable's row index ('7.0'),
    from a walk of the table (walk_probe_table) or a new one."""
    v = table if table is not None else walk_probe_table(h)
    row = {}
    for name in PROBE_COLUMNS:
        col = column(v, "PROBE_" + name)
        if index in col:
            row[name] = col[index]
    return row


def rows_at_sample(h, indexes, columns=("STATE", "ERRORS", "WINDOW", "COUNT", "MISSED",
                                          "P50")):
    """The probe rows of indexes ('7.0', ...) and when the sample they show
    was taken, on the monotonic clock in nanoseconds (the clock bpftrace's
    nsecs and the probe read): the columns and twAgentSampleAge in one GET,
    which tunewatchd answers from one sample (a walk of the table outlasts
    its 1-s interval on a busy machine). ({index: row}, sample's time)."""
    oids = [twtest.oid("AGENT_SAMPLE_AGE")]
    for idx in indexes:
        oids += [twtest.oid("PROBE_" + c, idx) for c in columns]
    t0 = time.monotonic_ns()
    vals = h.get(oids)
    assert len(vals) == len(oids), vals
    at = t0 - vals[0].num * 1000000
    rows, i = {}, 1
    for idx in indexes:
        rows[idx] = {}
        for c in columns:
            assert vals[i].oid.endswith(twtest.oid("PROBE_" + c, idx)), (vals[i], c, idx)
            if not vals[i].type.startswith("No") and "No Such" not in vals[i].text:
                rows[idx][c] = vals[i]    # an absent column (a p99 of too few reads) left out
            i += 1
    return rows, at


def check_slots(row, rate):
    """Every slot of the window is a read or a missed slot: twProbeCount
    plus twProbeMissed is the window's span times the rate, give or take
    the read outstanding at each end. How many are missed is not held to a
    number: a slot is missed when a read outlasts its period or the reader
    wakes a whole period late, which a busy machine does to any reader (8
    of 387 slots, reads up to 190 ms, with eight devices at a load average
    of 12; 2 of 389 with one). probe_faults.py holds what a missed slot
    is. The share missed, for the tests to print."""
    slots = row["WINDOW"].num * rate / 1000.0
    n, missed = row["COUNT"].num, row["MISSED"].num
    assert abs(n + missed - slots) <= 2, (
        "%d reads and %d missed slots in a window of %d ms at %d a second: slots lost" % (
            n, missed, row["WINDOW"].num, rate), row)
    return missed / slots if slots else 0.0


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


def ioping_between(dev, count, phase=0.05, pid=None):
    """count reads of `ioping -D -i 0.1` on dev, each midway between two of
    the probe's slots (whole tenths of a second of the monotonic clock, the
    first probed device's; probereader.h), so that the two read one after
    the other, never at once: ioping keeps its requests on a fixed clock
    from its start, and is started phase s after a slot. Their times, in
    microseconds. With pid a list, ioping's pid is put in it (to tell its
    reads from another ioping's on the machine)."""
    time.sleep((phase - time.monotonic() % 0.1) % 0.1)
    p = subprocess.Popen(["ioping", "-D", "-c", str(count + 1), "-i", "0.1", dev],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if pid is not None:
        pid.append(p.pid)
    try:
        out, err = p.communicate(timeout=count * 0.1 + 120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise
    assert p.returncode == 0, err
    times = ioping_times(out)
    assert len(times) == count, out
    return times


def traced_share(traced, counted, what):
    """The reads bpftrace kept of those a reader counted: never more (more
    would be another reader's), and at most 5 % fewer. A classic tracepoint
    program is skipped when another BPF program of its kind runs on that
    CPU, which other tracers on a shared machine do: 395 of ioping's 400
    reads were kept once at a load average of 19. The share, to print."""
    assert traced <= counted + 3, "%s: %d reads traced, %d counted" % (what, traced, counted)
    assert traced >= 0.95 * counted, "%s: %d reads traced of %d" % (what, traced, counted)
    return traced / counted if counted else 1.0


def percentile(xs, p):
    """The value of rank ceil(p/100 n), as the probe's histogram ranks."""
    xs = sorted(xs)
    k = max(1, -(-len(xs) * p // 100))
    return xs[int(k) - 1]


# How unlikely a comparison of two samples drawn alike may fail by chance.
ALPHA = 0.001


def rank_interval(p, n_probe, n_ref, alpha=ALPHA):
    """Where the probe's p-th percentile of n_probe reads may fall among
    n_ref reference reads taken alike: the ranks (lo, hi) such that, when
    all n_probe + n_ref reads come from one distribution, it lies below
    the reference's lo-th smallest with probability at most alpha/2 and
    above its (hi+1)-th with at most alpha/2.

    Exact and free of the distribution: the number J of reference reads
    below the probe's k-th smallest is negative hypergeometric,
    P(J = j) = C(j+k-1, j) C(n_ref-j + n_probe-k, n_ref-j) / C(n_probe+n_ref,
    n_ref). Both samples are uncertain, the reference's and the probe's
    alike; an interval of the reference's order statistics alone (as this
    test once held the p90 to the 84th-96th of 100) counts only the
    first."""
    k = max(1, -(-n_probe * p // 100))
    total = math.comb(n_probe + n_ref, n_ref)
    probs = [math.comb(j + k - 1, j) * math.comb(n_ref - j + n_probe - k, n_ref - j) / total
             for j in range(n_ref + 1)]
    lo, below = 0, 0.0
    while lo < n_ref and below + probs[lo] <= alpha / 2:
        below += probs[lo]
        lo += 1
    hi, above = n_ref, 0.0
    while hi > 0 and above + probs[hi] <= alpha / 2:
        above += probs[hi]
        hi -= 1
    return lo, hi


def reference_bounds(p, n_probe, ref, slack):
    """The values between which the probe's p-th percentile of n_probe
    reads must lie against the reference's reads ref (microseconds): the
    rank_interval's order statistics of ref, each widened by slack (a
    fraction: what the placement of the two readers and the probe's
    histogram, 1/32 wide, may add). Where the reads of either sample
    spread out (a busy machine) the bounds spread with them; where they
    are tight, so are the bounds. (low, high, lo rank, hi rank); a rank
    past the reference's ends leaves that side open (0 or infinity)."""
    xs = sorted(ref)
    lo, hi = rank_interval(p, n_probe, len(xs))
    low = xs[lo - 1] * (1 - slack) if lo >= 1 else 0.0
    high = xs[hi] * (1 + slack) if hi < len(xs) else float("inf")
    return low, high, lo, hi + 1
