# SPDX-License-Identifier: ISC
"""A system service at MemoryMax=64M re-reading a 200 MiB set
(guestcgroup.py says how): check_bufcache --cgroup names the unit, and its
`systemctl set-property --runtime UNIT MemoryMax=SIZE` line, run as
printed, makes the job at least twice as fast."""

import guestcgroup

META = {"name": "guest-cgroup-memorymax", "kind": "problem",
        "symptom": "a system service's page cache bounded by its unit's MemoryMax= "
                   "(cgroup v2, systemd)"}
DISKS = [guestcgroup.DATA]
UNIT = "tw-reread-max.service"
PROP = "MemoryMax"


def system_unit(ctx, unit, prop):
    g = ctx.guest
    log = "%s/log/%s.json" % (guestcgroup.MOUNT, unit)
    g.put("/etc/systemd/system/" + unit, """[Unit]
Description=tunewatch guest lab: a job re-reading a %d MiB set

[Service]
ExecStart=/usr/bin/python3 /root/tw/inguest.py reread %s %s
%s=%s
""" % (guestcgroup.SET_MIB, guestcgroup.SET, log, prop, guestcgroup.LIMIT))
    g.run(["systemctl", "daemon-reload"])
    ctx.result["where"] = "the guest; %s in system.slice" % unit
    try:
        guestcgroup.run_round(
            ctx, unit, prop, start=lambda: g.run(["systemctl", "start", unit]),
            set_property=lambda v: "systemctl set-property --runtime %s %s=%s" % (unit, prop, v),
            cg_of=lambda: guestcgroup.cgroup_dir(g, unit), log=log)
    finally:
        g.run(["systemctl", "stop", unit], check=False)


def run(ctx):
    guestcgroup.prepare(ctx)
    system_unit(ctx, UNIT, PROP)
