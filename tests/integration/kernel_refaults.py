#!/usr/bin/env python3
"""The swappiness precondition held against this machine's kernel: with no
swap, a working set that does not fit is told "no tunable", never to turn
vm.swappiness.

A memory cgroup of the test's own (cgroup v1, limit 48 MiB) reads a 96 MiB
file over and over: each pass evicts what the next one needs, and the
kernel counts the pages read back in workingset_refault_file. Meanwhile
check_bufcache --local samples this machine's /proc across it, with
--refault-warning 1. It must warn, say "no tunable: the working set does
not fit in memory (... no swap) ...", and name no swappiness.

The file lives in the build tree (on disk: a tmpfs file is not page cache
that refaults); the cgroup and the file are removed at the end. About 4 s.
Skipped without root or a cgroup v1 memory controller, and where swap is
configured (then the precondition is not "no swap")."""

import os
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
        assert out.rc in (1, 2), "want a warning on refaults: %r" % out
        assert not [l for l in out.lines if "swappiness" in l], \
            "swappiness named without swap: %r" % out
        lines = [l for l in out.lines if l.startswith("no tunable: the working set does not fit "
                                                      "in memory (")]
        assert len(lines) == 1, "want one no-tunable line: %r" % out
        assert lines[0].endswith("no swap), so add memory, raise the memory limit of its cgroup "
                                 "if the load runs in one, or reduce load"), lines[0]
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
    twtest.main(test)
