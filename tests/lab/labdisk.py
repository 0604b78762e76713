# SPDX-License-Identifier: ISC
"""A block device of known latency for the lab's disk scenarios: a loop
device with direct I/O over tests/fusedelay's file, whose every read (and,
with writes=True, every write, then forgotten) takes the delay from when
the daemon gets it. With threads=1 the daemon answers one request at a
time, so the device serves one request at a time, as a single spindle: its
throughput is what one request of each size moves per delay.

Every change goes through the lab's journal first: the daemon is
journalled as a process, the mount and the loop device with the command
that undoes them, so a killed run's replay unmounts and detaches.
"""

import os
import subprocess
import threading

import labcore
import twtest
# The integration tests' FUSE disk (labcore puts tests/integration on the
# path): the one place that says where fusedelay is and at what real-time
# priority a disk's stand-in runs (SCHED_FIFO, realtime_threads()).
from probe_common import fusedelay_bin, realtime_threads


def fuse_device(lab, what, delay_us, mib, writes=False, threads=1, fifo=False):
    """/dev/loopN over a fusedelay file of mib MiB whose requests take
    delay_us each; returns (device, mount point). fifo: the daemon's
    threads at SCHED_FIFO (realtime_threads()), as a disk, which waits for
    no CPU: its answer then takes delay_us, not that plus a wait for a CPU
    on a busy machine (at load 17 on 2 CPUs a 3 ms request took 4.2-6.8 ms
    without, 4.1-4.8 ms with); a note in the result says if it was
    refused."""
    labcore.need("losetup", "fusermount3")
    if not os.path.exists(fusedelay_bin()):
        raise labcore.Skip("tests/fusedelay is not built (make check builds it; Debian: "
                           "libfuse3-dev fuse3)")
    if not os.path.exists("/dev/fuse"):
        raise labcore.Skip("no /dev/fuse here")
    mnt = "/tmp/%s-%s-%s-%d-mnt" % (labcore.PREFIX, lab.name, what, os.getpid())
    lab.journal.undo(["sh", "-c", '[ ! -d "$0" ] || rmdir "$0"', mnt], "remove %s" % mnt)
    os.mkdir(mnt)
    lab.journal.undo(["sh", "-c", 'mountpoint -q "$0" || exit 0; fusermount3 -u "$0" || '
                      'umount -l "$0"', mnt], "unmount %s" % mnt)
    argv = [fusedelay_bin(), "--delay", str(delay_us), "--size", str(mib), "-f"]
    argv += ["--writes"] if writes else []
    argv += ["-s"] if threads == 1 else ["-o", "max_threads=%d" % threads]
    log = open(mnt + ".log", "wb")
    lab.journal.undo(["rm", "-f", mnt + ".log"], "remove %s.log" % mnt)
    proc = subprocess.Popen(argv + [mnt], stdout=log, stderr=subprocess.STDOUT)
    lab.journal.proc(proc.pid, "fusedelay")
    if fifo:
        why = realtime_threads(proc.pid)
        if why:
            lab.result.note("fusedelay at its ordinary priority: " + why)
    # Reaped as it ends: the restore ends it by its pid and waits for the
    # pid to go, which a child nobody waits for (a zombie) never does.
    threading.Thread(target=proc.wait, daemon=True).start()
    twtest.wait_for("fusedelay mounted at %s" % mnt,
                    lambda: proc.poll() is not None or os.path.ismount(mnt), timeout=10)
    if not os.path.ismount(mnt):
        with open(mnt + ".log", errors="replace") as fh:
            raise labcore.Skip("fusedelay could not mount here: %s" % fh.read().strip())
    backing = os.path.join(mnt, "disk.img")
    lab.journal.undo(["sh", "-c", 'losetup -j "$0" | cut -d: -f1 | xargs -r -n1 losetup -d',
                      backing], "detach the loop device of %s" % backing)
    r = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", backing],
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise labcore.Skip("losetup cannot attach a loop device over FUSE here: %s" %
                           r.stderr.strip())
    dev = r.stdout.strip()
    with open("/sys/block/%s/loop/dio" % os.path.basename(dev)) as fh:
        if fh.read().strip() != "1":
            raise labcore.Skip("the loop driver refused direct I/O over a FUSE file")
    return dev, mnt


def queue_attr(dev, attr):
    with open("/sys/block/%s/queue/%s" % (os.path.basename(dev), attr)) as fh:
        return fh.read().strip()
