# SPDX-License-Identifier: ISC
"""Reads queued behind writeback on a rotational disk that an administrator
left without a scheduler ("none"). The disk: a virtio-scsi disk that
reports 7200 rpm (rotational 1), serving HDD_IOPS requests a second and
20 MiB/s (qemu's throttling), behind a controller that takes two commands
at a time (cmd_per_lun 2, a disk without command queueing), so that the
queue is the kernel's to order. On it, ext4: a writer rewrites a 256 MiB
file in 1 MiB buffered writes for ever (the page cache's writeback fills the
queue), and the readers, timed, read 4 KiB at random from a 64 MiB file
with O_DIRECT, four of them, each one read at a time (fio; their clat p50
and p99). With one reader the queue held 1.56 requests on average: no
queue for a scheduler to order.

check_disklatency --device DEV -w 20 -c 50 (the defaults) must say
WARNING or CRITICAL and advise mq-deadline for the disk's scheduler
(tune: /sys/block/DEV/queue/scheduler none -> mq-deadline); the control
writes "none" again; the apply line is run exactly; guestproblem.py says
when it helped. The check's other advice for the disk is kept in the row.
"""

import guestdisks
import guestlab
import guestproblem

META = {"name": "guest-disk-hdd-scheduler", "kind": "problem",
        "symptom": "reads queued behind writeback on a rotational disk scheduled by none"}
DISKS = [guestdisks.HDD]


def run(ctx):
    g, res = ctx.guest, ctx.result
    guestlab.lab_agent(ctx)
    dev = guestdisks.resolve(g, guestdisks.by_id(guestdisks.HDD)).rsplit("/", 1)[-1]
    rot = guestdisks.queue(g, dev, "rotational")
    assert rot == "1", "%s is not rotational (%s)" % (dev, rot)
    res["tunable"] = "queue/scheduler"
    res["where"] = "the guest's %s (virtio-scsi, rotational, %d IOPS, 20 MiB/s)" % (
        dev, guestdisks.HDD_IOPS)
    res["setup"] = ("%s at scheduler none; a buffered writer rewriting 256 MiB in 1 MiB writes; "
                    "four readers: 4 KiB O_DIRECT random reads, one at a time each" % dev)
    g.sh("echo none > /sys/block/{d}/queue/scheduler && mkfs.ext4 -q -F /dev/{d} && "
         "mkdir -p /srv/hdd && mount /dev/{d} /srv/hdd && "
         "fallocate -l 64M /srv/hdd/read && dd if=/dev/urandom of=/srv/hdd/read bs=1M "
         "count=64 conv=notrunc,fsync status=none".format(d=dev), timeout=600)
    g.run(["systemd-run", "--unit", "tw-hdd-writer", "--collect", "fio", "--name=writer",
           "--filename=/srv/hdd/write", "--size=256M", "--rw=write", "--bs=1M",
           "--time_based", "--runtime=3600", "--end_fsync=0"])
    measure = guestproblem.Measure(g, ["--name=reader", "--filename=/srv/hdd/read",
                                       "--rw=randread", "--bs=4k", "--direct=1",
                                       "--iodepth=1", "--ioengine=psync", "--numjobs=4",
                                       "--group_reporting"])
    try:
        r = guestproblem.round_of(ctx, dev, "scheduler", ["--device", dev], measure,
                                  "echo none > /sys/block/%s/queue/scheduler" % dev)
    finally:
        g.run(["systemctl", "stop", "tw-hdd-writer"], check=False)
    res["before"], res["after"] = r["before"], r["after"]
    assert r["advice"].startswith("tune: /sys/block/%s/queue/scheduler none -> mq-deadline"
                                  % dev), r["advice"]
    assert r["evaluation"] == "helped", "the reader's latency: %s" % r["evaluation"]
