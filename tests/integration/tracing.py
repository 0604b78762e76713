# SPDX-License-Identifier: ISC
"""bpftrace as a test's reference: tracefs mounted for its tracepoints (only
if nothing has, and unmounted again by its last user), a program started and waited for
until it has attached, and stopped so that it prints what it kept."""

import fcntl
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
    and unmounted again by the last test that uses it. Tests of several
    make check runs share one machine: one that unmounted it as it ended
    took the tracepoints from another's bpftrace ("tracepoint not found").
    So each user holds a shared lock on USERS while it runs, and the one
    that finds no other holder, under MUTEX, unmounts what a test mounted
    (MARKER says a test did)."""

    MUTEX = "/run/lock/tw-tests-tracefs.mutex"
    USERS = "/run/lock/tw-tests-tracefs.users"
    MARKER = "/run/lock/tw-tests-tracefs.mounted"

    def __init__(self, event="block/block_rq_issue"):
        self.event = event
        self.users = None

    def _mutex(self):
        fh = open(self.MUTEX, "a")
        fcntl.flock(fh, fcntl.LOCK_EX)
        return fh

    def __enter__(self):
        with self._mutex():
            self.users = open(self.USERS, "a")
            fcntl.flock(self.users, fcntl.LOCK_SH)
            if not os.path.isdir(os.path.join(TRACEFS, "events")):
                r = subprocess.run(["mount", "-t", "tracefs", "tracefs", TRACEFS],
                                   capture_output=True, text=True, timeout=30)
                if r.returncode != 0:
                    self.users.close()
                    self.users = None
                    raise twtest.Skip("cannot mount tracefs at %s: %s" % (
                        TRACEFS, r.stderr.strip()))
                open(self.MARKER, "w").close()
        if not os.path.isdir(os.path.join(TRACEFS, "events", self.event)):
            self.__exit__()
            raise twtest.Skip("the kernel has no tracepoint %s" % self.event)
        return self

    def __exit__(self, *exc):
        if self.users is None:
            return False
        with self._mutex():
            try:
                fcntl.flock(self.users, fcntl.LOCK_EX | fcntl.LOCK_NB)
                last = True
            except BlockingIOError:
                last = False
            if last and os.path.exists(self.MARKER):
                subprocess.run(["umount", TRACEFS], capture_output=True, timeout=30)
                os.unlink(self.MARKER)
            self.users.close()
            self.users = None
        return False


# How a program is told to stop: a read of MARK_BYTES bytes of /dev/zero by
# this test's process, which the program answers with exit(). bpftrace 0.17
# sat in epoll_wait after a SIGINT on a busy machine, printing nothing: once
# for 300 s in a full suite (make check of 609e1b3), and in the second of
# three rounds of probe_many.py at a load average of 14. exit() from the
# program ends its loop by an event of its own, which wakes that wait.
MARK_BYTES = 54321
MARK_EVENT = "syscalls/sys_enter_pread64"
MARK = """
tracepoint:syscalls:sys_enter_pread64 /pid == %d && args->count == %d/
{
	exit();
}
"""


def recursion_misses(pid):
    """The kernel's count of the runs it skipped of process pid's BPF
    programs (recursion_misses of each program's fdinfo, summed): a
    tracepoint that fires while a program of the kind runs on that CPU
    (a completion's interrupt during the issue program, or during a map
    read by syscall) is not run. It counts every skipped event of the
    tracepoint, of every device: an upper bound of what a program missed
    of one. 0 where pid has gone or holds no program."""
    total = 0
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return 0
    for fd in fds:
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, fd)) != "anon_inode:bpf-prog":
                continue
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as fh:
                for line in fh:
                    if line.startswith("recursion_misses:"):
                        total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total


def _mark():
    fd = os.open("/dev/zero", os.O_RDONLY)
    try:
        os.pread(fd, MARK_BYTES, 0)
    finally:
        os.close(fd)


class Bpftrace:
    """A bpftrace program (its text) run from the harness's directory, its
    standard output in `name`.out, its errors in the harness's `name` log.
    Where the kernel has the syscall tracepoints, the program also ends
    when this process reads MARK_BYTES of /dev/zero (MARK), which stop()
    does before it tries SIGINT; stop() says which way it ended."""

    def __init__(self, h, name, program, args=(), env=None):
        self.h = h
        self.name = name
        self.program = program
        self.args = [str(a) for a in args]
        self.env = dict(os.environ, **(env or {}))
        self.out = os.path.join(h.dir, name + ".out")
        self.proc = None

    def __enter__(self):
        script = os.path.join(self.h.dir, self.name + ".bt")
        self.marked = os.path.isdir(os.path.join(TRACEFS, "events", MARK_EVENT))
        with open(script, "w") as fh:
            fh.write(self.program)
            if self.marked:
                fh.write(MARK % (os.getpid(), MARK_BYTES))
        with open(self.out, "w") as out:
            self.proc = subprocess.Popen([twtest.which("bpftrace"), script] + self.args,
                                         stdout=out, stderr=self.h.log(self.name),
                                         env=self.env)
        self.h.procs.append(self.proc)
        twtest.wait_for("bpftrace to attach", lambda: self.proc.poll() is not None or
                        "Attaching" in open(self.out).read(), timeout=60)
        assert self.proc.poll() is None, "bpftrace stopped: see %s.log" % self.name
        time.sleep(0.5)
        return self

    def recursion_misses(self):
        """What the kernel skipped of this program's probes so far
        (recursion_misses); read before stop()."""
        return recursion_misses(self.proc.pid) if self.proc is not None else 0

    def stop(self):
        """Stop it; everything it printed. It prints its maps on the way
        out, slowly on a loaded machine. First by its mark (MARK), then by
        SIGINT, twice; how it stopped is printed."""
        if self.proc is not None and self.proc.poll() is None:
            t0 = time.monotonic()
            ways = ([("its mark", _mark, 60)] if self.marked else []) + [
                ("SIGINT number 1", lambda: self.proc.send_signal(signal.SIGINT), 60),
                ("SIGINT number 2", lambda: self.proc.send_signal(signal.SIGINT), 240)]
            for what, how, wait in ways:
                how()
                try:
                    self.proc.wait(timeout=wait)
                    print("bpftrace %s stopped by %s in %.1f s" % (
                        self.name, what, time.monotonic() - t0))
                    break
                except subprocess.TimeoutExpired:
                    print("bpftrace %s still running %d s after %s" % (self.name, wait, what))
            else:
                self.proc.kill()
                raise AssertionError("bpftrace did not stop within %d s of its mark and two "
                                     "SIGINTs" % (time.monotonic() - t0))
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


_KEYED = re.compile(r"^@(\w+)\[([^\]]*)\]: (-?\d+)$")


def keyed_values(text, name):
    """A map of plain numbers bpftrace printed, @name[k1, k2]: v, as
    {(k1, k2): v}, a key of one part as itself; keys that are numbers as
    ints, others as strings."""
    values = {}
    for line in text.splitlines():
        m = _KEYED.match(line)
        if m and m.group(1) == name:
            key = tuple(int(k) if k.lstrip("-").isdigit() else k
                        for k in (k.strip() for k in m.group(2).split(",")))
            values[key[0] if len(key) == 1 else key] = int(m.group(3))
    return values


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
