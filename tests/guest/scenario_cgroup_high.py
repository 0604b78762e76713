# SPDX-License-Identifier: ISC
"""A system service at MemoryHigh=64M re-reading a 200 MiB set
(guestcgroup.py says how): check_bufcache --cgroup names the unit, and its
`systemctl set-property --runtime UNIT MemoryHigh=SIZE` line, run as
printed, makes the job at least twice as fast."""

import guestcgroup
import scenario_cgroup_max

META = {"name": "guest-cgroup-memoryhigh", "kind": "problem",
        "symptom": "a system service's page cache bounded by its unit's MemoryHigh= "
                   "(cgroup v2, systemd)"}
DISKS = [guestcgroup.DATA]


def run(ctx):
    guestcgroup.prepare(ctx)
    scenario_cgroup_max.system_unit(ctx, "tw-reread-high.service", "MemoryHigh")
