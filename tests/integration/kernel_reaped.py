#!/usr/bin/env python3
"""Every read counted once, and none lost, against this machine's kernel:
twBcPhysicalReadBytes held against the reads the kernel counted on one
device.

Linux adds a reaped child's whole-life I/O counters to its parent's
/proc/[pid]/io, and a process first seen by the agent has already read
whatever it read since it was born. A shell here runs a reader child that
starts reading at once (so it is first seen having read part of a pass:
before the fix of issue 25 that part was lost, 268 MB counted of 403 MB
read), reads a 128 MiB device cold three times (the pages dropped with
posix_fadvise(POSIX_FADV_DONTNEED) before each pass) over a few seconds,
and exits; the shell reaps it and stays for a while. tunewatchd samples
/proc twice a second (SIGUSR1), the first sample before the reader is
born. The test runs in a PID namespace of its own (unshare --pid
--mount-proc, root only), so the processes tunewatchd sums are the
test's: its snmpd, itself, the shell and the reader.

The reads are isolated from the rest of the machine by a loop device of
the test's own (losetup --direct-io=on over a file in the build tree):
every read bio submitted to it adds its sectors both to /proc/vmstat's
pgpgin (in KiB) and to the device's own sectors-read counter
(/sys/block/loopN/stat), so that counter is this device's share of
pgpgin, which other tests running beside this one (make check -j2; CI
once saw pgpgin grow by 8 GB during it) do not touch. Over the run,
twBcPhysicalReadBytes must grow by the device's read bytes within 10 %
(counting the child again at its reaping would make it about twice as
much, losing what it read before it was first seen about two thirds);
pgpgin's growth must be at least the device's (it also holds the loop
device's own reads of its backing file, and everyone else's); and at no
sample may the bytes counted so far pass the device's so far by more than
one pass. About 10 s."""

import os
import shutil
import subprocess
import sys
import time

import probe_common
import twtest

DEVICE_MIB = 128
PASSES = 3
TOLERANCE = 0.10
STEP = 0.5

READER = """
import os, sys, time
for _ in range(%d):
    fd = os.open(sys.argv[1], os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    while os.read(fd, 1 << 20):
        time.sleep(0.008)
    os.close(fd)
""" % PASSES


def pgpgin_bytes():
    with open("/proc/vmstat") as fh:
        for line in fh:
            k, v = line.split()
            if k == "pgpgin":
                return int(v) * 1024
    raise AssertionError("no pgpgin in /proc/vmstat")


def device_read_bytes(name):
    """Sectors read by the device (its stat's third field), in bytes."""
    with open("/sys/block/%s/stat" % name) as fh:
        return int(fh.read().split()[2]) * 512


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
    probe_common.need_root_tools()
    backing = os.path.join(twtest.TOP_BUILDDIR, "tw-reaped-%d.img" % os.getpid())
    with probe_common.Loop(backing, DEVICE_MIB) as loop, twtest.Harness("kernel-reaped") as h:
        h.start_snmpd()
        # A long interval: the samples are the test's own.
        h.start_agent(interval=60, window=120)
        h.sample_now()
        c0, v0, d0 = physical(h), pgpgin_bytes(), device_read_bytes(loop.name)
        shell = subprocess.Popen(["/bin/sh", "-c", '"$0" -c "$1" "$2"; sleep 1.5',
                                  "python3", READER, loop.dev])
        try:
            steps = []
            prev = (c0, d0)
            while True:
                time.sleep(STEP)
                done = shell.poll() is not None
                h.sample_now()
                now = (physical(h), device_read_bytes(loop.name))
                steps.append((now[0] - prev[0], now[1] - prev[1]))
                prev = now
                if done:
                    break
            v1 = pgpgin_bytes()
        finally:
            if shell.poll() is None:
                shell.kill()
            shell.wait()
        assert shell.returncode == 0, "the reader failed"
        counted, device, kernel = prev[0] - c0, prev[1] - d0, v1 - v0
        print("counted %d bytes, %s read %d bytes (counted/device %.3f), pgpgin %d bytes; "
              "per interval, counted/device (MiB): %s" % (
                  counted, loop.name, device, counted / max(device, 1), kernel,
                  " ".join("%.1f/%.1f" % (c / 1048576, d / 1048576) for c, d in steps)))
        one_pass = DEVICE_MIB << 20
        assert device >= PASSES * one_pass * 0.9, \
            "%s read %d bytes only: the passes were not cold" % (loop.name, device)
        assert kernel >= device, "pgpgin grew by %d, less than %s's %d" % (
            kernel, loop.name, device)
        assert abs(counted - device) <= TOLERANCE * device, \
            "physical read bytes grew by %d, %s read %d (pgpgin %d)" % (
                counted, loop.name, device, kernel)
        sum_c = sum_d = 0
        for i, (c, d) in enumerate(steps):
            sum_c += c
            sum_d += d
            assert sum_c <= sum_d + one_pass, \
                "by interval %d, %d bytes counted and %s read %d" % (i, sum_c, loop.name, sum_d)


if __name__ == "__main__":
    twtest.main(test)
