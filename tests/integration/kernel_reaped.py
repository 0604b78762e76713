#!/usr/bin/env python3
"""Every read counted once against this machine's kernel: a child reaped by
its parent is not counted a second time through the parent.

Linux adds a reaped child's whole-life I/O counters to its parent's
/proc/[pid]/io. A shell here runs a reader child that sleeps through one
sample (so it is first seen having read nothing), then reads a 64 MiB file
cold three times (the pages dropped with posix_fadvise(POSIX_FADV_DONTNEED)
before each pass, no root needed) over about six seconds, and exits; the
shell reaps it and stays for a while. tunewatchd samples /proc
twice a second (SIGUSR1). The test runs in a PID namespace of its own
(unshare --pid --mount-proc, root only), so the processes tunewatchd sums
are the test's: its snmpd, itself, the shell and the reader. Over the run,
twBcPhysicalReadBytes must grow by what the reader read cold (three passes
of the file), within 15 %, where counting the child again at its reaping
would make it about twice as much; and at no sample may the bytes counted
so far pass pgpgin's growth so far by more than one pass of the file.
pgpgin is the whole machine's, so it is only a floor here: make check -j2
runs other tests beside this one, and CI's runs once saw pgpgin grow by
8 GB during it, which made a comparison with the host's pgpgin fail.

The file lives in the build tree (on disk: tmpfs is not read from storage)
and is removed at the end. About 10 s."""

import os
import shutil
import subprocess
import sys
import time

import twtest

FILE_MIB = 64
PASSES = 3
TOLERANCE = 0.15
STEP = 0.5

READER = """
import os, sys, time
time.sleep(1.5)
for _ in range(%d):
    fd = os.open(sys.argv[1], os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    while os.read(fd, 1 << 20):
        time.sleep(0.02)
    os.close(fd)
""" % PASSES


def pgpgin_bytes():
    with open("/proc/vmstat") as fh:
        for line in fh:
            k, v = line.split()
            if k == "pgpgin":
                return int(v) * 1024
    raise AssertionError("no pgpgin in /proc/vmstat")


def physical(h):
    return h.get([twtest.oid("BC_PHYSICAL_READ_BYTES")])[0].num


def in_own_pid_namespace():
    """Run this test again in a PID namespace with its own /proc, and exit
    with its status; return only when already inside one."""
    if os.environ.get("TW_REAPED_PIDNS") == "1":
        return
    if os.geteuid() != 0 or not shutil.which("unshare"):
        raise twtest.Skip("needs root and unshare(1) for a PID namespace of its own")
    env = dict(os.environ, TW_REAPED_PIDNS="1")
    rc = subprocess.call(["unshare", "--pid", "--fork", "--mount-proc", sys.executable,
                          os.path.abspath(__file__)], env=env)
    sys.exit(rc)


def test():
    in_own_pid_namespace()
    path = os.path.join(twtest.TOP_BUILDDIR, "tw-reaped-%d.dat" % os.getpid())
    with twtest.Harness("kernel-reaped") as h:
        h.start_snmpd()
        # A long interval: the samples are the test's own.
        h.start_agent(interval=60, window=120)
        try:
            twtest.cold_file(path, FILE_MIB)
            shell = subprocess.Popen(["/bin/sh", "-c", '"$0" -c "$1" "$2"; sleep 2',
                                      "python3", READER, path])
            h.sample_now()
            c0, v0 = physical(h), pgpgin_bytes()
            steps = []
            prev = (c0, v0)
            while True:
                time.sleep(STEP)
                done = shell.poll() is not None
                h.sample_now()
                now = (physical(h), pgpgin_bytes())
                steps.append((now[0] - prev[0], now[1] - prev[1]))
                prev = now
                if done:
                    break
            c1, v1 = prev
        finally:
            if os.path.exists(path):
                os.unlink(path)
        assert shell.returncode == 0, "the reader failed"
        counted, kernel = c1 - c0, v1 - v0
        child = PASSES * FILE_MIB << 20
        print("counted %d bytes, pgpgin %d bytes, the child read %d; per interval, counted/pgpgin"
              " (MiB): %s" % (counted, kernel, child,
                              " ".join("%.1f/%.1f" % (c / 1048576, k / 1048576) for c, k in steps)))
        assert kernel >= child * 0.9, "pgpgin grew by %d only: reads were not cold" % kernel
        assert abs(counted - child) <= TOLERANCE * child, \
            "physical read bytes grew by %d, the child read %d cold (pgpgin %d)" % (
                counted, child, kernel)
        sum_c = sum_k = 0
        for i, (c, k) in enumerate(steps):
            sum_c += c
            sum_k += k
            assert sum_c <= sum_k + (FILE_MIB << 20), \
                "by interval %d, %d bytes counted and pgpgin grew by %d" % (i, sum_c, sum_k)


if __name__ == "__main__":
    twtest.main(test)
