# SPDX-License-Identifier: ISC
"""A queue held near its limit on a virtio-blk disk (the kernel's
virtio_blk driver, no scheduler, nr_requests as the driver sets it;
qemu serves VIRTIO_IOPS requests a second): a bulk reader keeps 192 random
4 KiB O_DIRECT reads in flight and a bulk writer 64 random 4 KiB O_DIRECT
writes (the disk is the scenario's own), and the timed reader, one at a
time, waits behind them (fio; its clat p50 and p99). Reads and writes
both: QUEUE_FULL's precondition since issue 32 (a queue of at least half
nr_requests, each kind at least 5 % of the requests). The run of 433ad22
had the bulk reader alone (256 reads in flight, 0 writes/s) and got no
nr_requests advice in 90 s, as the rule is written
(doc/ADVICE-REFERENCE.md, rule 30); the writer was added after, and this
form has not been run yet.

check_disklatency --device DEV must advise a shorter queue (tune:
/sys/block/DEV/queue/nr_requests N -> N/2); the control writes N again;
the apply line is run exactly; guestproblem.py says when it helped.
"""

import guestdisks
import guestlab
import guestproblem

META = {"name": "guest-disk-virtio-nr-requests", "kind": "problem",
        "symptom": "a virtio-blk queue held near nr_requests by a bulk reader"}
DISKS = [guestdisks.VIRTIO]


def run(ctx):
    g, res = ctx.guest, ctx.result
    guestlab.lab_agent(ctx)
    dev = guestdisks.resolve(g, guestdisks.by_id(guestdisks.VIRTIO)).rsplit("/", 1)[-1]
    nr = guestdisks.queue(g, dev, "nr_requests")
    sched = guestdisks.queue(g, dev, "scheduler")
    res["tunable"] = "queue/nr_requests"
    res["where"] = "the guest's %s (virtio-blk, %d IOPS)" % (dev, guestdisks.VIRTIO_IOPS)
    res["setup"] = ("%s (scheduler %s, nr_requests %s); a bulk reader with 192 random 4 KiB "
                    "O_DIRECT reads in flight and a bulk writer with 64 random 4 KiB O_DIRECT "
                    "writes; the timed reader one at a time" % (dev, sched, nr))
    for unit, rw, depth in (("tw-virtio-bulk", "randread", 192),
                            ("tw-virtio-bulk-writer", "randwrite", 64)):
        g.run(["systemd-run", "--unit", unit, "--collect", "fio", "--name=bulk",
               "--filename=/dev/%s" % dev, "--rw=%s" % rw, "--bs=4k", "--direct=1",
               "--iodepth=%d" % depth, "--ioengine=libaio", "--time_based",
               "--runtime=3600"])
    measure = guestproblem.Measure(g, ["--name=reader", "--filename=/dev/%s" % dev,
                                       "--rw=randread", "--bs=4k", "--direct=1",
                                       "--iodepth=1", "--ioengine=psync"])
    try:
        r = guestproblem.round_of(ctx, dev, "nr_requests", ["--device", dev], measure,
                                  "echo %s > /sys/block/%s/queue/nr_requests" % (nr, dev))
    finally:
        g.run(["systemctl", "stop", "tw-virtio-bulk", "tw-virtio-bulk-writer"], check=False)
    res["before"], res["after"] = r["before"], r["after"]
    assert r["evaluation"] == "helped", "the reader's latency: %s" % r["evaluation"]
