# SPDX-License-Identifier: ISC
"""The first tuning note in today's form, on cgroup v2 with systemd: a
service whose job re-reads a 200 MiB set while its unit's memory limit
(MemoryMax= or MemoryHigh=, 64M) holds its page cache below that. What the
three cgroup scenarios share.

The set is a file on a disk of its own (virtio-blk, reads and writes
throttled by qemu to READ_BPS, so that a read from the disk costs what a
disk's does and not what the host's page cache does) with ext4, mounted at
/srv/tw. The job is `inguest.py reread`, the unit's only process: it reads
the set from start to end over and over, and logs each pass's time by the
guest's clock. tunewatchd runs from the package, as systemd started it,
with the packaged configuration but a 1 s interval and a 10 s window (the
lab's: guestlab.lab_agent).

One round, as an operator would go: the unit is started at its limit;
tunewatchd must raise cgroup-cache-bounded for the unit's cgroup;
`check_bufcache --cgroup UNIT` must name the unit and the property with the
limit in force (`tune: UNIT MemoryMax=64M -> SIZE (...)`) and give the
ticket's apply line, the same as twFindingApply; the control: the limit in
force set again (`systemctl set-property --runtime UNIT MemoryMax=64M`, the
apply line's form), and the passes timed; then the apply line run exactly
as printed, in a shell, as root; the limit file must then hold SIZE; the
passes after it (the first, which reads back what the old limit evicted,
left out) timed. The job must go at least twice as fast: the mean pass
before over the mean after, and the lower end of its interval, at least 2;
the control's interval must hold 1 (its mean against the passes before).
The change must be in twChangeTable (the property, the unit, 64M -> SIZE)
and evaluated, and the finding must clear.
"""

import os
import re
import time

import guestlab
import vm
from guestlab import figure, wait_for

READ_BPS = 100 << 20
DATA = vm.Disk("cgdata", "virtio-blk", "512M",
               extra="throttling.bps-total=%d" % READ_BPS)
MOUNT = "/srv/tw"
SET = MOUNT + "/set"
SET_MIB = 200
LIMIT = "64M"
PASSES = 5          # timed passes before, in the control, and after
SIZES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_bytes(text):
    return int(text[:-1]) * SIZES[text[-1]] if text[-1] in SIZES else int(text)


def prepare(ctx):
    """The set's disk and file, and tunewatchd at the lab's interval and
    window; once for the three scenarios."""
    g = ctx.guest
    guestlab.lab_agent(ctx)
    if ctx.shared.get("cg_ready"):
        return
    dev = "/dev/disk/by-id/virtio-%s" % DATA.serial
    g.sh("mkfs.ext4 -q -F %s && mkdir -p %s && mount %s %s && mkdir -m 1777 %s/log"
         % (dev, MOUNT, dev, MOUNT, MOUNT), timeout=120)
    g.run(["python3", "/root/tw/inguest.py", "make-file", SET, str(SET_MIB)], timeout=300)
    g.run(["chmod", "0644", SET])
    ctx.shared["cg_ready"] = True


def cgroup_dir(g, unit, user_uid=None):
    argv = ["systemctl"]
    if user_uid is not None:
        argv += ["--user", "-M", "%d@" % user_uid]
    out = g.run(argv + ["show", "-p", "ControlGroup", "--value", unit]).out.strip()
    assert out.startswith("/"), "no cgroup for %s: %r" % (unit, out)
    return "/sys/fs/cgroup" + out


class Passes:
    """The job's log: one pass a line, by the guest's monotonic clock."""

    def __init__(self, g, log):
        self.g, self.log = g, log

    def all(self):
        d = self.g.run(["cat", self.log], check=False)
        return [guestlab.json_line(x) for x in d.out.splitlines() if x.strip()]

    def now(self):
        return float(self.g.run(["python3", "-c", "import time; print(time.monotonic())"]).out)

    def wait(self, since, n, skip=0, timeout=300):
        """n passes that started after `since`, the first `skip` of them
        left out; waits for them."""
        got = wait_for("%d passes of the job" % (n + skip),
                       lambda: (lambda p: p if len(p) >= n + skip else None)(
                           [x for x in self.all() if x.get("t", 0) >= since]),
                       timeout=timeout, step=2)
        return [x["s"] for x in got[skip:skip + n]]


def finding_for(agent, cg):
    suffix = cg[len("/sys/fs/cgroup"):]
    for idx, r in agent.findings().items():
        if r.get("SYMPTOM") == "cgroup-cache-bounded" and r.get("SUBJECT", "").endswith(suffix) \
                and r.get("ID"):
            return r
    return None


def limit_file(g, cg, prop):
    name = "memory.max" if prop == "MemoryMax" else "memory.high"
    return g.run(["cat", os.path.join(cg, name)]).out.strip()


def fig_passes(values, what):
    m, lo, hi = guestlab.interval(values)
    return figure(round(m, 3), "s", "%s: a pass of %d MiB %.2f s (%.2f-%.2f, %d passes: %s)"
                  % (what, SET_MIB, m, lo, hi, len(values),
                     " ".join("%.2f" % v for v in values)))


def run_round(ctx, unit, prop, start, set_property, cg_of, log):
    """One unit's round: start it, wait for the finding, the check's
    advice, the control, the apply line as printed, the passes after, the
    change history and the clearing. start(): start the unit;
    set_property(value): the control's command line; cg_of(): the unit's
    cgroup directory."""
    g, res, agent = ctx.guest, ctx.result, ctx.agent
    res["tunable"] = prop
    res["setup"] = ("%s=%s; the job re-reads a %d MiB file on ext4 on a virtio-blk disk "
                    "throttled by qemu to %d MiB/s" % (prop, LIMIT, SET_MIB, READ_BPS >> 20))
    g.sh("sync; echo 3 >/proc/sys/vm/drop_caches")
    passes = Passes(g, log)
    t_start = time.monotonic()
    start()
    cg = cg_of()
    assert limit_file(g, cg, prop) == str(size_bytes(LIMIT)), \
        "%s's %s is not %s" % (unit, prop, LIMIT)
    row = wait_for("tunewatchd to raise cgroup-cache-bounded for %s" % unit,
                   lambda: finding_for(agent, cg), timeout=120, step=2)
    r = {"round": 1, "raised_s": round(time.monotonic() - t_start, 1), "finding": row["ID"]}
    res["rounds"].append(r)
    out = agent.check("check_bufcache", ["--cgroup", unit])
    mine = [a for a in out.advice() if a.finding == row["ID"]]
    assert len(mine) == 1, "no advice with finding %s in %r" % (row["ID"], out.text)
    adv = mine[0]
    r["advice"] = adv.line
    r["check"] = out.first
    # "tune: UNIT MemoryMax=64M -> SIZE (...)", a user's unit "UNIT of
    # user UID MemoryMax=...".
    m = re.match(r"^tune: (\S+)(?: of user (\d+))? %s=(\S+) -> (\S+) \(" % prop, adv.line)
    assert m and m.group(1) == unit and m.group(3) == LIMIT, \
        "the tune line does not name %s %s=%s: %s" % (unit, prop, LIMIT, adv.line)
    size = m.group(4)
    r["finding_apply"] = row.get("APPLY")
    if row.get("APPLY") != adv.apply:
        # Two samples, not two rules: the row was read as it first
        # appeared, and it follows the newest sample (finding/tracker.c);
        # the check, seconds later, read a later one, and the size follows
        # the window's refaults. At one sample they are the same
        # (tests/check_monitor_cgroup.c, plugin_cgroups.py).
        res.note("twFindingApply (%s, read as the finding appeared) and the check's apply "
                 "line (%s, a later sample) differ: the check's is the one run"
                 % (row.get("APPLY"), adv.apply))
    r["apply_printed"] = adv.apply
    r["persist"] = adv.persist
    # Before: passes that started once the finding was up (the cache at
    # its limit, not cold), the first left out.
    g0 = passes.now()
    before = passes.wait(g0, PASSES, skip=1)
    # The control: the limit in force set again, in the apply line's form.
    c0 = passes.now()
    g.sh(set_property(LIMIT))
    control = passes.wait(c0, PASSES, skip=1)
    # The advice, exactly as printed.
    a0 = passes.now()
    d = g.run(["sh", "-c", adv.apply], check=False, timeout=60)
    assert d.rc == 0, "%s: exit %d %s" % (adv.apply, d.rc, d.err)
    r["applied"] = adv.apply
    t_apply = time.monotonic()
    now = limit_file(g, cg, prop)
    assert now == str(size_bytes(size)), "after %s the limit file holds %s" % (adv.apply, now)
    after = passes.wait(a0, PASSES, skip=1)
    fb, fc, fa = (fig_passes(before, "before (%s)" % LIMIT),
                  fig_passes(control, "control (%s set again)" % LIMIT),
                  fig_passes(after, "after (%s)" % size))
    mb, lb, hb = guestlab.interval(before)
    mc, lc, hc = guestlab.interval(control)
    ma, la, ha = guestlab.interval(after)
    speedup = mb / ma
    speedup_lo = lb / ha if ha > 0 else float("inf")
    res["before"] = {"workload": fb, "symptom": figure(row.get("EVIDENCE", ""), "", row.get(
        "EVIDENCE", "").split(" (")[0])}
    res["control"] = fc
    res["after"] = {"workload": fa}
    res["speedup"] = {"mean": round(speedup, 2), "low": round(speedup_lo, 2)}
    res["effect"] = guestlab.effect("the job's pass over %d MiB (s)" % SET_MIB, before, after,
                                    control, margin=1.0)
    res.note("%s; %s; %s; speed-up %.2fx (at least %.2fx)" % (fb["text"], fc["text"],
                                                            fa["text"], speedup, speedup_lo))
    assert lc / hb <= 1 <= hc / lb, \
        "the control moved: %s against %s" % (fc["text"], fb["text"])
    assert speedup >= 2 and speedup_lo >= 2, \
        "the job did not go twice as fast: %s -> %s" % (fb["text"], fa["text"])

    seen = []

    def change():
        table = agent.changes()
        seen[:] = [table]
        for c in table.values():
            if c.get("TUNABLE") == prop and unit in c.get("SUBJECT", "") \
                    and c.get("EVALUATED") in ("1", "true(1)"):
                return c
        return None
    try:
        ch = wait_for("the change of %s in twChangeTable, evaluated" % prop, change,
                      timeout=60, step=2)
    except AssertionError as e:
        raise AssertionError("%s; twChangeTable: %s" % (e, seen[0] if seen else "unread"))
    r["change"] = {k: ch.get(k) for k in ("FIGURE", "FIGURE_UNIT", "OLD_VALUE", "NEW_VALUE",
                                          "BEFORE", "AFTER")}
    r["evaluation"] = "%s %s -> %s %s" % (ch.get("FIGURE"), ch.get("BEFORE"), ch.get("AFTER"),
                                          ch.get("FIGURE_UNIT", ""))
    assert ch.get("OLD_VALUE") == LIMIT and ch.get("NEW_VALUE") == size, ch
    wait_for("the finding for %s to clear" % unit, lambda: finding_for(agent, cg) is None,
             timeout=60, step=2)
    r["cleared_s"] = round(time.monotonic() - t_apply, 1)
