#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A service whose cache is bounded by its own limit, on this machine's real
kernel (cgroup v1 memory and blkio controllers): tunewatchd publishes it
in twCgroupTable with its refaults and reads, and check_bufcache --cgroup
names it and its MemoryLimit=, not a host-wide sysctl.

A cgroup of the test's own, named as systemd names a service's
(tw-cgtest-PID.service, directly below the hierarchies' roots), gets a
64 MiB memory.limit_in_bytes; a reader inside it (memory and blkio) re-reads
a 200 MiB file on disk (the file is written, synced and dropped from the
cache with POSIX_FADV_DONTNEED first, so that its pages are charged to the
cgroup), and the check runs 4.5 s into its second pass, however long the
first took, and no sooner than 6.5 s after the reader started (so that
the window never holds the cgroup before the reader joined it) (a busy disk made it longer than the 6 s this test once read). On this kernel (6.18) cgroup v1's blkio
throttle counters count only I/O to a device that has a throttle rule
(measured: 20 MiB read by a cgroup without one left
blkio.throttle.io_service_bytes_recursive at 0; with a read_bps_device rule
of 10^10 B/s on the device, 20971520), so the blkio cgroup gets a rule far
above what the disk can do, on the file's device, for its reads to count. tunewatchd samples this machine's /proc and
/sys every second behind a real snmpd; the check runs with its default
thresholds while the reader reads.

It must show, for that cgroup: refaults (v1's total_workingset_refault_file)
and bytes read growing, memory usage at the limit, and a CRITICAL or
WARNING finding that names tw-cgtest-PID.service with "MemoryLimit=64M ->"
the limit sized from what its line shows of the working set (the usage
plus what was read back in the window, a quarter more, at most 16 times
the limit: 1G here, where the re-read file alone is 200 MiB) and its
drop-in line, and says it is a system unit (it sits where systemd puts a
service of Slice=-.slice). The host had room: MemAvailable stays above
four times the file (it could have cached it whole). Neither the host's
refault count nor its memory pressure is calm, and neither is asserted:
/proc/vmstat counts the cgroup's refaults, and /proc/pressure/memory
counts every task stalled on memory, a cgroup's at its own limit too (27 %
with two other tests' cgroups at their limits beside this one).

Bounded (the reader stops when told, or itself after 180 s),
and cleaned up in every path: reader, cgroups, file. Skipped without root
or a cgroup v1 memory controller."""

import os
import re
import subprocess
import tempfile
import time

import plugin_common as pc
import twtest

MEMCG = "/sys/fs/cgroup/memory"
BLKCG = "/sys/fs/cgroup/blkio"
LIMIT = 64 << 20
FILE_MIB = 200
# The reader's bound; the check runs once it re-reads (WINDOW_S into its
# second pass over the file), however long the first pass took.
READ_S = 180
WINDOW_S = 4.5
# The agent's window (4 s) and two of its 1 s samples, from the reader's
# start: the oldest sample in the window is one taken with it inside.
SETTLED_S = 4 + 2 + 0.5

# A reader of a file (argv 1) over and over for at most argv 2 seconds
# (kernel_cgroup_owner.py and agent_owner_findings.py run it too).
READER = """
import sys, time
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    with open(sys.argv[1], "rb") as fh:
        while fh.read(1 << 20) and time.monotonic() < end:
            pass
"""

# The same, and each pass over the file says it begins (its number, on
# standard output); it stops at the bound, or when its standard input
# closes.
PASS_READER = """
import select, sys, time
end = time.monotonic() + float(sys.argv[2])
n = 0
while time.monotonic() < end:
    n += 1
    print(n, flush=True)
    with open(sys.argv[1], "rb") as fh:
        while fh.read(1 << 20) and time.monotonic() < end:
            if select.select([sys.stdin], [], [], 0)[0]:
                sys.exit(0)
"""


def on_tmpfs(path):
    r = subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True)
    return r.stdout.strip() in ("tmpfs", "ramfs")


def cgroup_row(h, path):
    """The cgroup's row: {column: value} by the twCgroupTable walk."""
    v = twtest.as_dict(h.walk(twtest.oid("CGROUP_PATH", None).rsplit(".", 2)[0]))
    for idx, val in twtest.column(v, "CGROUP_PATH").items():
        if val.text.strip('"') == path:
            row = {}
            for col in ("CGROUP_REFAULTS", "CGROUP_READ_BYTES", "CGROUP_MEMORY_USAGE",
                        "CGROUP_MEMORY_LIMIT", "CGROUP_LIMIT_NAME", "CGROUP_UNIT",
                        "CGROUP_VERSION", "CGROUP_LIMIT_EVENTS"):
                got = twtest.column(v, col).get(idx)
                if got is not None:
                    row[col] = got.text.strip('"') if got.type == "STRING" else got.num
            return row
    raise AssertionError("%s not in twCgroupTable: %r" % (
        path, [x.text for x in twtest.column(v, "CGROUP_PATH").values()]))


def test():
    if os.geteuid() != 0 or not os.access(os.path.join(MEMCG, "cgroup.procs"), os.W_OK):
        raise twtest.Skip("needs root and a cgroup v1 memory controller at %s" % MEMCG)
    pc.built(pc.argv_of("check_bufcache", []))
    if on_tmpfs(twtest.TOP_BUILDDIR):
        raise twtest.Skip("the build tree is on tmpfs: its pages are not page cache that "
                          "refaults")
    unit = "tw-cgtest-%d.service" % os.getpid()
    cgs = [os.path.join(MEMCG, unit)]
    if os.access(os.path.join(BLKCG, "cgroup.procs"), os.W_OK):
        cgs.append(os.path.join(BLKCG, unit))
    tmp = tempfile.mkdtemp(prefix="tw-cgtest-", dir=twtest.TOP_BUILDDIR)
    reader = None
    try:
        for cg in cgs:
            os.mkdir(cg)
        with open(os.path.join(cgs[0], "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(LIMIT))
        data = os.path.join(tmp, "data")
        twtest.cold_file(data, FILE_MIB)
        counted = False
        if len(cgs) > 1:
            dev = os.stat(data).st_dev
            try:
                with open(os.path.join(cgs[1], "blkio.throttle.read_bps_device"), "w") as fh:
                    fh.write("%d:%d %d\n" % (os.major(dev), os.minor(dev), 10 ** 12))
                counted = True
            except OSError as e:
                print("no throttle rule on %d:%d (%s): reads are not counted" % (
                    os.major(dev), os.minor(dev), e))

        with twtest.Harness("kernel-cgroup") as h:
            h.start_snmpd()
            # The cgroup is there before the agent's first walk of the
            # hierarchy; its limit makes it qualify. cgroupMax 4096: until
            # it refaults it is one cgroup with a limit among the host's,
            # and a test running beside this one may make hundreds, which
            # rank before it by their index.
            conf = os.path.join(h.dir, "cgroupmax.conf")
            with open(conf, "w") as fh:
                fh.write("cgroupMax 4096\n")
            h.start_agent(None, None, interval=1, window=4, args=["-c", conf])
            before = cgroup_row(h, "/" + unit)
            assert before["CGROUP_UNIT"] == unit, before
            assert before["CGROUP_VERSION"] == 1, before
            assert before["CGROUP_LIMIT_NAME"] == "memory.limit_in_bytes", before
            assert before["CGROUP_MEMORY_LIMIT"] == LIMIT, before

            def into_cgroup():
                for cg in cgs:
                    with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
                        fh.write(str(os.getpid()))

            reader = subprocess.Popen(["python3", "-c", PASS_READER, data, str(READ_S)],
                                      preexec_fn=into_cgroup, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            # Refaults come from re-reading: the window (4 s) must fill
            # with the second pass or later. It used to be 4.5 s after the
            # start, which on a quiet disk is two or three passes; at a
            # load average of 17 with fio on the same disk the reader read
            # 21.5 MiB/s, not one pass of 200 MiB in 6 s, and refaulted 1.79
            # pages a second: OK, not judged. So: after the second begins.
            # And the window must not reach back before the reader: its
            # interpreter's own memory (8.3 MiB, not page cache) arriving
            # inside the window reads as "what it allocates squeezes its
            # cache", and rightly gets no larger limit. On a quiet disk
            # that serves 200 MiB in 0.1 s (CI's, and this machine's when
            # idle) the second pass began 0.1 s in, and a window ending
            # 4.6 s in held the cgroup before the reader joined it. So: at
            # least the window plus two samples after the reader started.
            t0 = time.monotonic()
            assert reader.stdout.readline().strip() == "1"
            second = reader.stdout.readline().strip()
            assert second == "2", "the reader stopped within its first pass (%.0f s)" % (
                time.monotonic() - t0)
            first_s = time.monotonic() - t0
            time.sleep(max(WINDOW_S, SETTLED_S - first_s))
            out = pc.run("check_bufcache", ["--cgroup", unit, "-t", "20"], h.port)
            host = twtest.as_dict(h.get([twtest.oid("BC_MEM_AVAILABLE")]))
            after = cgroup_row(h, "/" + unit)
            reader.stdin.close()
            reader.wait(timeout=60)
            print("the reader's first pass over %d MiB took %.1f s" % (FILE_MIB, first_s))

        refaulted = after.get("CGROUP_REFAULTS", 0) - before.get("CGROUP_REFAULTS", 0)
        read = after.get("CGROUP_READ_BYTES", 0) - before.get("CGROUP_READ_BYTES", 0)
        print("%s: %d pages refaulted, %d bytes read, usage %d of %d; the check said:\n%s" % (
            unit, refaulted, read, after["CGROUP_MEMORY_USAGE"], LIMIT, out.stdout))
        assert "CGROUP_REFAULTS" in after, "this kernel's v1 memory.stat has no refaults: %r" % after
        assert refaulted > 0, "the cgroup refaulted nothing: %r -> %r" % (before, after)
        if counted:
            assert read > 0, "the cgroup read nothing from disk: %r -> %r" % (before, after)
        assert after["CGROUP_MEMORY_USAGE"] >= LIMIT * 0.9, after

        assert out.rc in (1, 2), "want the service judged: %r" % out
        assert out.lines[0].startswith("BUFCACHE %s - %s " % (
            "CRITICAL" if out.rc == 2 else "WARNING", unit)), out
        tune = [l for l in out.lines if l.startswith("tune: ")]
        assert len(tune) == 1, out
        m = re.match(r"tune: \S+ MemoryLimit=64M -> (\d+)([KMG]) \([\d.]+ refaults/s while "
                     r"memory.usage_in_bytes [\d.]+ MiB sits at memory.limit_in_bytes 64 MiB, ",
                     tune[0])
        assert m and tune[0].startswith("tune: %s " % unit), tune
        size = m.group(1) + m.group(2)
        # Sized from the working set (the exact sum is check_advice_cgroup.c's
        # and plugin_cgroups.py's): enough for the set the job re-reads,
        # where 256M fitted and the doubling's 128M did not, and at most 16
        # times the limit.
        got = int(m.group(1)) << {"K": 10, "M": 20, "G": 30}[m.group(2)]
        assert 256 << 20 <= got <= 16 * LIMIT, (size, tune)
        # The commands are the ticket's lines below it, none in the tune line.
        assert "systemctl" not in tune[0] and "drop-in" not in tune[0], tune
        # Its ticket, the service's own symptom, with the unit's command:
        # a service directly in the root slice is where systemd puts one
        # of Slice=-.slice. The id hashes the cgroup's directory.
        at = out.lines.index(tune[0])
        assert out.lines[at + 1] == "  finding: " + pc.ticket_id(
            "cgroup-cache-bounded", os.path.join(MEMCG, unit), "MemoryLimit"), out
        assert out.lines[at + 2] == "  owner: system unit " + unit, out
        assert out.lines[at + 3] == ("  apply: systemctl set-property --runtime %s "
                                     "MemoryLimit=%s" % (unit, size)), out
        assert out.lines[at + 4] == ("  persist: /etc/systemd/system/%s.d/90-tunewatch.conf: "
                                     "[Service] MemoryLimit=%s" % (unit, size)), out
        assert not [l for l in out.lines if "vm." in l or "sysctl" in l], out

        avail = host[twtest.oid("BC_MEM_AVAILABLE")].num
        assert avail > 4 * FILE_MIB << 20, "the host itself was short of memory: %d" % avail
    finally:
        if reader is not None and reader.poll() is None:
            reader.kill()
        if reader is not None:
            reader.wait()
        for cg in cgs:
            if os.path.isdir(cg):
                os.rmdir(cg)
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
