# SPDX-License-Identifier: ISC
"""The zoo of disks named as an administrator names them
(guestdisks.py builds it): every block device lsblk lists in the guest
(the virtio-blk, NVMe and SCSI disks, the md mirror, the dm-crypt mapping
and the logical volume on it) has its row in twDiskTable, read through
snmpd, with the kernel's name; a device-mapper device's alias is its dm
name, lsblk's name for it (twcrypt, twvg-data); its type is the kernel
driver's kind (disk, nvme, dm, md); its rotational flag and scheduler are
the kernel's; a device with a stable identifier in sysfs (wwid, an NVMe
namespace's, a dm uuid) carries it (a virtio-blk disk and an md array have
none there).
"""

import guestdisks
import guestlab

META = {"name": "guest-disk-names", "kind": "system",
        "symptom": "a zoo of disks and stacks named as lsblk names them"}
DISKS = guestdisks.ALL

KIND = {"disk": ("disk", "nvme"), "raid1": ("md",), "crypt": ("dm",), "lvm": ("dm",)}


def run(ctx):
    g, res = ctx.guest, ctx.result
    res["where"] = "the guest's zoo (guestdisks.py)"
    zoo = guestdisks.setup(ctx)
    devs = guestdisks.flat(zoo["lsblk"])
    rows = guestlab.wait_for("twDiskTable to list the md and dm devices", lambda: (
        lambda t: t if {zoo["dev"]["md"], zoo["dev"]["lv"], zoo["dev"]["crypt"]} <=
        {r.get("NAME") for r in t.values()} else None)(ctx.agent.disks()), timeout=60, step=2)
    by_name = {r["NAME"]: r for r in rows.values()}
    for kname, d in sorted(devs.items()):
        if d["type"] not in KIND or kname == "vda":
            continue
        r = by_name.get(kname)
        res.checked("%s (%s, lsblk %s) has a row" % (kname, d["type"], d["name"]),
                    r is not None, "" if r is None else "twDiskType %s, twDiskAlias %s" % (
                        r.get("TYPE"), r.get("ALIAS") or "(none)"))
        alias = r.get("ALIAS", "")
        if d["name"] != kname:
            res.checked("%s's alias is lsblk's name" % kname, alias == d["name"],
                        "%r against %r" % (alias, d["name"]))
        res.checked("%s's type is its driver's kind" % kname, r.get("TYPE") in KIND[d["type"]],
                    "%s (lsblk %s)" % (r.get("TYPE"), d["type"]))
        rot = guestdisks.queue(g, kname, "rotational")
        # A TruthValue: 1 true, 2 false.
        truth = ("1", "true(1)") if rot == "1" else ("2", "false(2)")
        res.checked("%s's rotational flag is the kernel's" % kname, r.get("ROTATIONAL") in truth,
                    "%s (sysfs %s)" % (r.get("ROTATIONAL"), rot))
        sched = guestdisks.queue(g, kname, "scheduler")
        active = sched[sched.find("[") + 1:sched.find("]")] if "[" in sched else sched
        res.checked("%s's scheduler is the kernel's" % kname, r.get("SCHEDULER") == active,
                    "%r (sysfs %r)" % (r.get("SCHEDULER"), sched))
        # sysfs has none for a virtio-blk disk (a serial, no wwid) or an md
        # array (its uuid is in its superblock, for mdadm and udev).
        none_expected = kname.startswith("vd") or d["type"].startswith("raid")
        sid = r.get("STABLE_ID", "")
        res.checked("%s's stable id" % kname, none_expected or sid != "",
                    sid or "none (%s)" % ("virtio-blk: a serial, no wwid"
                                          if kname.startswith("vd") else
                                          "md: its uuid is in its superblock, not sysfs"
                                          if none_expected else "none"))
    md = by_name[zoo["dev"]["md"]]
    res.note("%s is /dev/md/twmirror to mdadm and udev; twDiskTable's alias for it: %r "
             "(md's array names are in its metadata and udev's links, not in sysfs)"
             % (zoo["dev"]["md"], md.get("ALIAS", "")))
