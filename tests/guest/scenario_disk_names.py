# SPDX-License-Identifier: ISC
"""The zoo of disks named as an administrator names them
(guestdisks.py builds it): every block device lsblk lists in the guest
(the virtio-blk, NVMe and SCSI disks, the md mirror, the dm-crypt mapping
and the logical volume on it) has its row in twDiskTable, read through
snmpd, with the kernel's name; a device-mapper device's alias is its dm
name, lsblk's name for it (twcrypt, twvg-data); its type is the kernel
driver's kind (disk, nvme, dm, md); its rotational flag and scheduler are
the kernel's; its stable id is the kernel's identifier in sysfs (a
wwid, an NVMe namespace's, a dm uuid), none where sysfs has none (a
virtio-blk disk, an md array), udev's /dev/disk/by-id names shown beside.
The SCSI disk has a WWN, as real disks do (vm.py), so it has one.
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
    known = guestdisks.ids(g, devs)
    for kname, d in sorted(devs.items()):
        if d["type"] not in KIND or kname == "vda":
            continue
        r = by_name.get(kname)
        res.checked("%s (%s, lsblk %s) has a row" % (kname, d["type"], d["name"]),
                    r is not None, "" if r is None else "twDiskType %s, twDiskAlias %s" % (
                        r.get("TYPE"), r.get("ALIAS") or "(none)"))
        if r is None:
            continue
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
        # The kernel's own identifier, as blockident.h reads it: the first
        # that sysfs has. A virtio-blk disk (a serial, no wwid) and an md
        # array (its uuid in its superblock) have none there; udev's names
        # beside say what an administrator sees in /dev/disk/by-id.
        kid = known[kname]
        want = kid["sysfs"][0][1] if kid["sysfs"] else ""
        sid = r.get("STABLE_ID", "")
        res.checked("%s's stable id is the kernel's" % kname, sid == want,
                    "%s (sysfs: %s; udev by-id: %s)" % (
                        sid or "none", "; ".join("%s %s" % (a, v) for a, v in kid["sysfs"])
                        or "no wwid, nguid, eui or dm uuid",
                        ", ".join(kid["by_id"]) or "none"))
    for disk in guestdisks.ALL:
        if disk.wwn is None:
            continue
        kname = zoo["dev"][disk.name]
        sid = (by_name.get(kname) or {}).get("STABLE_ID", "")
        res.checked("%s, a SCSI disk with WWN 0x%016x, is known by it" % (kname, disk.wwn),
                    sid == "naa.%016x" % disk.wwn, sid or "none")
    md = by_name[zoo["dev"]["md"]]
    res.note("%s is /dev/md/twmirror to mdadm and udev; twDiskTable's alias for it: %r "
             "(md's array names are in its metadata and udev's links, not in sysfs)"
             % (zoo["dev"]["md"], md.get("ALIAS", "")))
