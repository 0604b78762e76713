# SPDX-License-Identifier: ISC
"""A user's own service, under user@UID.service, at MemoryMax=64M
re-reading a 200 MiB set (guestcgroup.py says how): the user is made with
useradd and lingers (loginctl enable-linger), so that systemd runs their
manager without a login; the unit is in their ~/.config/systemd/user.
check_bufcache --cgroup names the unit, and its `systemctl --user -M UID@
set-property --runtime UNIT MemoryMax=SIZE` line, run as printed by root,
makes the job at least twice as fast."""

import guestcgroup
import guestlab

META = {"name": "guest-cgroup-user", "kind": "problem",
        "symptom": "a user's service (user@UID.service) bounded by its MemoryMax= "
                   "(cgroup v2, systemd --user)"}
DISKS = [guestcgroup.DATA]
USER = "twlab"
UNIT = "tw-reread-user.service"


def run(ctx):
    guestcgroup.prepare(ctx)
    g = ctx.guest
    g.run(["useradd", "-m", "-s", "/bin/sh", USER])
    uid = int(g.run(["id", "-u", USER]).out)
    g.run(["loginctl", "enable-linger", USER])
    guestlab.wait_for("user@%d.service" % uid, lambda: g.run(
        ["systemctl", "is-active", "user@%d.service" % uid], check=False).out.strip()
        == "active", timeout=60, step=1)
    ctl = g.run(["cat", "/sys/fs/cgroup/user.slice/user-%d.slice/user@%d.service/"
                 "cgroup.controllers" % (uid, uid)]).out.split()
    if "memory" not in ctl:
        raise guestlab.Skip("systemd does not delegate the memory controller to "
                            "user@%d.service (controllers: %s)" % (uid, " ".join(ctl)))
    log = "%s/log/%s.json" % (guestcgroup.MOUNT, UNIT)
    home = "/home/" + USER
    g.sh("mkdir -p %s/.config/systemd/user" % home)
    g.put("%s/.config/systemd/user/%s" % (home, UNIT), """[Unit]
Description=tunewatch guest lab: a user's job re-reading a %d MiB set

[Service]
ExecStart=/usr/bin/python3 /root/tw/inguest.py reread %s %s
MemoryMax=%s
""" % (guestcgroup.SET_MIB, guestcgroup.SET, log, guestcgroup.LIMIT))
    g.sh("cp /root/tw/inguest.py /usr/local/bin/tw-inguest && chmod 0755 /usr/local/bin/tw-inguest"
         " && sed -i 's#/root/tw/inguest.py#/usr/local/bin/tw-inguest#' %s/.config/systemd/user/%s"
         " && chown -R %s: %s/.config" % (home, UNIT, USER, home))
    user = ["systemctl", "--user", "-M", "%s@" % USER]
    g.run(user + ["daemon-reload"])
    ctx.result["where"] = "the guest; %s of user %s (uid %d) under user@%d.service" % (
        UNIT, USER, uid, uid)
    try:
        guestcgroup.run_round(
            ctx, UNIT, "MemoryMax", start=lambda: g.run(user + ["start", UNIT]),
            set_property=lambda v: "systemctl --user -M %d@ set-property --runtime %s "
                                   "MemoryMax=%s" % (uid, UNIT, v),
            cg_of=lambda: guestcgroup.cgroup_dir(g, UNIT, user_uid=uid), log=log)
    finally:
        g.run(user + ["stop", UNIT], check=False)
