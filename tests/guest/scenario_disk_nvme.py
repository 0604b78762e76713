# SPDX-License-Identifier: ISC
"""A solid-state device with a software scheduler: the NVMe namespace
(qemu's emulated controller, the kernel's nvme driver) set to mq-deadline,
as a udev rule "for all disks" sets it, under a reader that keeps 32 random
4 KiB O_DIRECT reads in flight (fio, libaio; its clat p50 and p99).

check_disklatency --device DEV -w 2 -c 100 (an operator's 2 ms for an NVMe
device) must advise removing the scheduler (tune:
/sys/block/DEV/queue/scheduler mq-deadline -> none); the control writes
mq-deadline again; the apply line is run exactly; guestproblem.py says
when it helped.
"""

import guestdisks
import guestlab
import guestproblem

META = {"name": "guest-disk-nvme-scheduler", "kind": "problem",
        "symptom": "a deep queue on an NVMe device scheduled by mq-deadline"}
DISKS = [guestdisks.NVME]


def run(ctx):
    g, res = ctx.guest, ctx.result
    guestlab.lab_agent(ctx)
    dev = guestdisks.resolve(g, guestdisks.by_id(guestdisks.NVME)).rsplit("/", 1)[-1]
    rot = guestdisks.queue(g, dev, "rotational")
    assert rot == "0", "%s is rotational (%s)" % (dev, rot)
    res["tunable"] = "queue/scheduler"
    res["where"] = "the guest's %s (qemu nvme, the kernel's nvme driver)" % dev
    res["setup"] = "%s at scheduler mq-deadline; 32 random 4 KiB O_DIRECT reads in flight" % dev
    g.sh("echo mq-deadline > /sys/block/%s/queue/scheduler" % dev)
    measure = guestproblem.Measure(g, ["--name=reader", "--filename=/dev/%s" % dev,
                                       "--rw=randread", "--bs=4k", "--direct=1",
                                       "--iodepth=32", "--ioengine=libaio"])
    r = guestproblem.round_of(ctx, dev, "scheduler", ["--device", dev, "-w", "2", "-c", "100"],
                              measure, "echo mq-deadline > /sys/block/%s/queue/scheduler" % dev)
    res["before"], res["after"] = r["before"], r["after"]
    assert r["advice"].startswith("tune: /sys/block/%s/queue/scheduler mq-deadline -> none"
                                  % dev), r["advice"]
    assert r["evaluation"] == "helped", "the reader's latency: %s" % r["evaluation"]
