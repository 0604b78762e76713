#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Refaults that are a cgroup's, not the host's, held against this machine's
kernel: a cgroup at its own limit refaults into the host's count too, and
the host check must not take them for a host short of memory, nor ever name
vm.swappiness without swap.

A memory cgroup of the test's own (cgroup v1, limit 48 MiB) reads a 96 MiB
file over and over: each pass evicts what the next one needs, and the
kernel counts the pages read back in workingset_refault_file, the host's
and the cgroup's. Meanwhile check_bufcache --local samples this machine's
/proc across it, with --refault-warning 1. The kernel counts a cgroup's
reclaim at its own limit apart from the host's (pgsteal_kswapd and
_direct stay still), so the check must say how many of the refaults are
the host's own (at most its host-wide reclaim rate) and judge only those:
OK when they are 1 a second or fewer (this machine has memory to spare),
else a warning with "no tunable: the working set does not fit in memory
(... no swap) ...". Neither names swappiness. (Before issue 25 it took all
of them for the host's and warned.)

The file lives in the build tree (on disk: a tmpfs file is not page cache
that refaults); the cgroup and the file are removed at the end. About 4 s.
Skipped without root or a cgroup v1 memory controller, and where swap is
configured (then the precondition is not "no swap")."""

import os
import re
import subprocess
import tempfile
import time

import plugin_common as pc
import twtest

MEMCG = "/sys/fs/cgroup/memory"
LIMIT = 48 << 20
FILE_MIB = 96


def swap_total_kb():
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith("SwapTotal:"):
                return int(line.split()[1])
    return None


def refaults():
    with open("/proc/vmstat") as fh:
        for line in fh:
            k, v = line.split()
            if k in ("workingset_refault_file", "workingset_refault"):
                return int(v)
    raise AssertionError("no workingset_refault in /proc/vmstat")


READER = """
import sys, time
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    with open(sys.argv[1], "rb") as fh:
        while fh.read(1 << 20):
            pass
"""


def test():
    if os.geteuid() != 0 or not os.access(os.path.join(MEMCG, "cgroup.procs"), os.W_OK):
        raise twtest.Skip("needs root and a cgroup v1 memory controller at %s" % MEMCG)
    if swap_total_kb() != 0:
        raise twtest.Skip("swap is configured here; this test holds the no-swap case")
    pc.built(pc.argv_of("check_bufcache", []))
    cg = os.path.join(MEMCG, "tw-refaults-%d" % os.getpid())
    tmp = tempfile.mkdtemp(prefix="tw-refaults-", dir=twtest.TOP_BUILDDIR)
    reader = None
    try:
        os.mkdir(cg)
        with open(os.path.join(cg, "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(LIMIT))
        data = os.path.join(tmp, "data")
        twtest.cold_file(data, FILE_MIB)

        before = refaults()
        started = pc.start("check_bufcache", ["--local", "--delay", "3", "-t", "10",
                                              "--refault-warning", "1"])
        time.sleep(0.3)

        def into_cgroup():
            with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
                fh.write(str(os.getpid()))

        reader = subprocess.Popen(["python3", "-c", READER, data, "2.5"],
                                  preexec_fn=into_cgroup)
        out = pc.finish("check_bufcache", started, timeout=20)
        reader.wait(timeout=20)
        read_back = refaults() - before
        assert read_back > 0, "the cgroup's reads refaulted nothing"
        assert not [l for l in out.lines if "swappiness" in l], \
            "swappiness named without swap: %r" % out
        m = [re.match(r"host-wide reclaim ([\d.]+) pages/s: ([\d.]+) of the ([\d.]+) "
                      r"refaults/s are the host's own", l) for l in out.lines]
        m = [x for x in m if x]
        assert len(m) == 1, "no line on whose the refaults are: %r" % out
        reclaim, own, total = (float(x) for x in m[0].groups())
        assert total > 1 and own == min(reclaim, total), (m[0].group(0), out)
        if own <= 1:
            assert out.rc == 0, "the cgroup's refaults taken for the host's: %r" % out
        else:
            assert out.rc in (1, 2), "want a warning on the host's refaults: %r" % out
            lines = [l for l in out.lines
                     if l.startswith("no tunable: the working set does not fit in memory (")]
            assert len(lines) == 1, "want one no-tunable line: %r" % out
            assert lines[0].endswith("no swap), so add memory, raise the memory limit of its "
                                     "cgroup if the load runs in one, or reduce load"), lines[0]
        print("%d pages read back in the cgroup; the check said:\n%s" % (read_back, out.stdout))
    finally:
        if reader is not None and reader.poll() is None:
            reader.kill()
            reader.wait()
        if os.path.isdir(cg):
            os.rmdir(cg)
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
