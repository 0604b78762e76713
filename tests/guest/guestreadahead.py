# SPDX-License-Identifier: ISC
"""Read-ahead for files on a stack of devices (guestdisks.py builds the
stacks): ext4 on LVM on dm-crypt, ext4 on md RAID1. A file takes its
read-ahead window from the device its file system sits on, the stack's
top (dm-1, the LV; md127), not from the devices below it; a window set
small there holds every file's reads to it, and the devices below it see
requests of that size.

A round: the stack's top is set to a 4 KiB window (`blockdev --setra 8`,
as `lvchange --readahead 8` sets an LV's); a reader streams a file of
FILE_MIB from start to end in 4 KiB reads, its pages dropped and the file
opened again each pass, and logs each pass by the guest's clock.
tunewatchd must raise low-hit-sequential; check_bufcache's advice must name
the read_ahead_kb of the device whose window the file's reads use (the
device of the file's st_dev) and no device below it; the control writes
the window in force again (the apply line's form); the apply line is run
exactly; the passes after it (the first left out) must be faster: the mean
pass before over the mean after, and the low end of its interval, at least
HELPED, with the control's interval holding 1.

The trap (scenario_readahead_below.py): the bottom device's window set to
4 KiB, the top's at the kernel's 128. The file's reads reach the bottom as
the top's requests whatever its own window says, so no advice may name it
(or any device below the top) after two windows of the stream.
"""

import re
import time

import guestdisks
import guestlab
from guestlab import figure

FILE_MIB = 16
PASSES = 4
HELPED = 1.25


def file_device(g, path):
    """The kernel name of the block device whose file system holds path."""
    dev = g.run(["stat", "-c", "%d", path]).out.strip()
    n = int(dev)
    major, minor = (n >> 8) & 0xfff, (n & 0xff) | ((n >> 12) & 0xfff00)
    return g.run(["readlink", "-f", "/sys/dev/block/%d:%d" % (major, minor)]).out.strip() \
        .rsplit("/", 1)[-1]


def finding(agent, devs):
    """The low-hit-sequential finding naming one of devs' read_ahead_kb."""
    paths = {"/sys/block/%s/queue/read_ahead_kb" % d: d for d in devs}
    for r in agent.findings().values():
        # A row whole: a walk goes column by column, and a finding raised
        # while it goes has only the later columns.
        if r.get("SYMPTOM") == "low-hit-sequential" and r.get("TUNABLE") in paths and \
                r.get("ID"):
            return r
    return None


def fig(values, what):
    m, lo, hi = guestlab.interval(values)
    return figure(round(FILE_MIB / m, 2), "MiB/s", "%s: a pass of %d MiB %.2f s (%.2f-%.2f, %s)"
                  % (what, FILE_MIB, m, lo, hi, " ".join("%.2f" % v for v in values)))


def run_stack(ctx, mount, top_link, below, trap=False):
    """mount: where the stack's file system is; top_link: the stack's top
    (/dev/twvg/data); below: the kernel names of the devices under it.
    trap: the bottom's window small instead, the top's at the kernel's
    default (_bottom)."""
    g, res, agent = ctx.guest, ctx.result, ctx.agent
    guestdisks.setup(ctx)
    path = mount + "/stream"
    g.run(["python3", "/root/tw/inguest.py", "make-file", path, str(FILE_MIB)], timeout=300)
    dev = file_device(g, path)
    top = guestdisks.resolve(g, top_link).rsplit("/", 1)[-1]
    assert dev == top, "the file's device is %s, not the stack's top %s" % (dev, top)
    if trap:
        g.sh("echo 128 > /sys/block/%s/queue/read_ahead_kb" % dev)
    windows = {d: guestdisks.queue(g, d, "read_ahead_kb") for d in [dev] + below}
    if trap:
        log = "/root/tw/stream-trap-%s.json" % dev
        unit = "tw-stream-trap-%s" % dev
        g.run(["systemd-run", "--unit", unit, "--collect", "python3", "/root/tw/inguest.py",
               "stream", path, log, "4096"])
        try:
            _bottom(ctx, dev, below)
        finally:
            g.run(["systemctl", "stop", unit], check=False)
        return
    g.run(["blockdev", "--setra", "8", top_link])
    res["tunable"] = "queue/read_ahead_kb"
    res["where"] = "the guest's %s (%s) over %s" % (top_link, dev, ", ".join(below))
    res["setup"] = ("%s at read_ahead_kb 4 (blockdev --setra 8), the devices below at %s; a "
                    "reader streams a %d MiB file in 4 KiB reads, reopening it each pass" % (
                        dev, ", ".join("%s %s" % (d, windows[d]) for d in below), FILE_MIB))
    log = "/root/tw/stream-%s.json" % dev
    unit = "tw-stream-%s" % dev
    g.run(["systemd-run", "--unit", unit, "--collect", "python3", "/root/tw/inguest.py",
           "stream", path, log, "4096"])
    try:
        _round(ctx, dev, below, log)
    finally:
        g.run(["systemctl", "stop", unit], check=False)


def _bottom(ctx, dev, below):
    """The window set small at the bottom of the stack instead, the top's
    as the advice left it: the file's reads reach the bottom as the top's
    requests, whatever its own window, so nothing is to be raised there.
    No advice may name a device below the top."""
    g, res, agent = ctx.guest, ctx.result, ctx.agent
    low = below[-1]
    res["where"] = (res.get("where", "") + "; " if res.get("where") else "") + \
        "%s over %s" % (dev, ", ".join(below))
    res["workload"] = (res.get("workload", "") + "; " if res.get("workload") else "") + \
        ("%s (the file's device) at read_ahead_kb 128, %s below it at 4, a %d MiB file on %s "
         "streamed in 4 KiB reads" % (dev, low, FILE_MIB, dev))
    g.sh("echo 4 > /sys/block/%s/queue/read_ahead_kb" % low)
    try:
        # Two windows of the stream with the bottom's window small.
        time.sleep(2 * 10 + 5)
        out = agent.check("check_bufcache")
        named = [a.line for a in out.advice() if a.tunable and any(
            a.tunable == "/sys/block/%s/queue/read_ahead_kb" % b for b in below)]
        res.setdefault("traps", []).append({"device": low, "top": dev, "check": out.first,
                                            "named_below": named})
        res.setdefault("findings", []).extend(named)
        res.note("%s (below %s) at read_ahead_kb 4, %s's as advised: check_bufcache says %s%s"
                 % (low, dev, dev, out.first, "; advice naming a device below: %s" % named[0]
                    if named else ""))
        assert not named, "the advice names %s, below the file's device %s: %s" % (
            low, dev, named[0])
    finally:
        g.sh("echo 128 > /sys/block/%s/queue/read_ahead_kb" % low)


def _round(ctx, dev, below, log):
    import guestcgroup
    g, res, agent = ctx.guest, ctx.result, ctx.agent
    passes = guestcgroup.Passes(g, log)
    t0 = time.monotonic()
    # The finding on the file's device, or on one below it (the test then
    # fails below, naming it).
    row = guestlab.wait_for("tunewatchd to raise low-hit-sequential on %s or below" % dev,
                            lambda: finding(agent, [dev] + below), timeout=120, step=2)
    r = {"round": 1, "raised_s": round(time.monotonic() - t0, 1), "finding": row["ID"]}
    res["rounds"].append(r)
    out = agent.check("check_bufcache")
    mine = [a for a in out.advice() if a.finding == row["ID"]]
    assert len(mine) == 1, "no advice with finding %s in %r" % (row["ID"], out.text)
    adv = mine[0]
    r["advice"] = adv.line
    r["check"] = out.first
    named = re.match(r"^/sys/block/([^/]+)/queue/read_ahead_kb$", adv.tunable or "")
    assert named, "the advice names no device's read_ahead_kb: %s" % adv.line
    r["named"] = named.group(1)
    assert named.group(1) == dev, (
        "the advice names %s, whose window the file's reads do not use (they use %s's): %s"
        % (named.group(1), dev, adv.line))
    assert adv.apply == "echo %s > /sys/block/%s/queue/read_ahead_kb" % (adv.suggested, dev), \
        adv.apply
    g0 = passes.now()
    before = passes.wait(g0, PASSES, skip=1)
    c0 = passes.now()
    g.sh("echo %s > /sys/block/%s/queue/read_ahead_kb" % (adv.current, dev))
    control = passes.wait(c0, PASSES, skip=1)
    a0 = passes.now()
    d = g.run(["sh", "-c", adv.apply], check=False)
    assert d.rc == 0, "%s: exit %d %s" % (adv.apply, d.rc, d.err)
    r["applied"] = adv.apply
    after = passes.wait(a0, PASSES, skip=1)
    fb, fc, fa = fig(before, "before"), fig(control, "control"), fig(after, "after")
    mb, lb, hb = guestlab.interval(before)
    mc, lc, hc = guestlab.interval(control)
    ma, la, ha = guestlab.interval(after)
    res["before"] = {"workload": fb}
    res["control"] = fc
    res["after"] = {"workload": fa}
    speed, low = mb / ma, (lb / ha if ha > 0 else float("inf"))
    res["speedup"] = {"mean": round(speed, 2), "low": round(low, 2)}
    res["effect"] = guestlab.effect("a pass of the stream over %d MiB (s)" % FILE_MIB, before,
                                    after, control, margin=HELPED - 1)
    res.note("%s; %s; %s; %.2fx (at least %.2fx)" % (fb["text"], fc["text"], fa["text"],
                                                      speed, low))
    assert lc / hb <= 1 <= hc / lb, "the control moved: %s against %s" % (fc["text"],
                                                                          fb["text"])
    r["evaluation"] = "helped" if low >= HELPED else "did not help"
    assert low >= HELPED, "the stream did not get faster: %s -> %s" % (fb["text"], fa["text"])
