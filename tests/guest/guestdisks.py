# SPDX-License-Identifier: ISC
"""The zoo of disks: each a real kernel driver in the guest, and the stacks
administrators build on them. What the disk scenarios share.

  virtio-blk    vdX (virtio_blk), throttled to VIRTIO_IOPS requests a second
  NVMe          nvme0n1 (nvme: qemu's emulated controller), as fast as the
                emulation goes
  virtio-scsi   sdX (virtio_scsi, sd), a disk that reports 7200 rpm (VPD
                page B1: rotational 1), throttled to HDD_IOPS requests and
                HDD_BPS bytes a second: a rotational-like device of known
                service rate, behind a controller that takes two commands
                at a time (vm.py)
  md RAID1      md127 of two virtio-blk disks (mdadm --create /dev/md/twmirror)
  LVM/dm-crypt  ext4 on the LV twvg/data (dm-1) on the LUKS2 mapping twcrypt
                (dm-0) on a virtio-blk disk

setup() builds the stacks once for the scenarios that need them and keeps
what an administrator would look up (the devices' kernel names, their
major:minor, what lsblk calls them) in ctx.shared["zoo"].
"""

import json

import guestlab
import vm

HDD_IOPS = 100

VIRTIO_IOPS = 500
VIRTIO = vm.Disk("zvirtio", "virtio-blk", "256M",
                 extra="throttling.iops-total=%d" % VIRTIO_IOPS)
NVME = vm.Disk("znvme", "nvme", "512M")
HDD_BPS = 20 << 20
HDD = vm.Disk("zhdd", "scsi-hdd", "512M",
              extra="throttling.iops-total=%d,throttling.bps-total=%d" % (HDD_IOPS, HDD_BPS))
MD = [vm.Disk("zmd0", "virtio-blk", "256M"), vm.Disk("zmd1", "virtio-blk", "256M")]
CRYPT = vm.Disk("zcrypt", "virtio-blk", "384M")
ALL = [VIRTIO, NVME, HDD] + MD + [CRYPT]

KEY = "/root/tw/luks.key"


def by_id(disk):
    """The guest's stable path of a disk: by its WWN where it has one
    (udev's scsi_id then names it by the WWN, not by the serial), else by
    its serial."""
    if disk.wwn is not None:
        return "/dev/disk/by-id/wwn-0x%016x" % disk.wwn
    if disk.kind == "virtio-blk":
        return "/dev/disk/by-id/virtio-%s" % disk.serial
    if disk.kind == "nvme":
        return "/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_%s" % disk.serial
    return "/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_%s" % disk.serial


SETUP = r"""
set -eu
udevadm settle
mdadm --create /dev/md/twmirror --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean %(md0)s %(md1)s
head -c 32 /dev/urandom >%(key)s
cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
	--key-file %(key)s %(crypt)s
cryptsetup open --key-file %(key)s %(crypt)s twcrypt
pvcreate -q /dev/mapper/twcrypt
vgcreate -q twvg /dev/mapper/twcrypt
lvcreate -q -y -n data -l 100%%FREE twvg
udevadm settle
mkfs.ext4 -q /dev/twvg/data
mkfs.ext4 -q /dev/md/twmirror
mkdir -p /srv/lv /srv/md
mount /dev/twvg/data /srv/lv
mount /dev/md/twmirror /srv/md
"""


def resolve(g, path):
    """The device path links to; CommandFailed when there is no such link
    (readlink -f would give the link's own name back)."""
    return g.run(["readlink", "-e", path]).out.strip()


def setup(ctx):
    g = ctx.guest
    guestlab.lab_agent(ctx)
    if "zoo" in ctx.shared:
        return ctx.shared["zoo"]
    g.sh(SETUP % {"md0": by_id(MD[0]), "md1": by_id(MD[1]), "crypt": by_id(CRYPT),
                  "key": KEY}, timeout=600)
    tree = json.loads(g.run(["lsblk", "-J", "-o", "NAME,KNAME,TYPE,MAJ:MIN,ROTA,SCHED,"
                             "RA,MOUNTPOINT"]).out)
    zoo = {"lsblk": tree, "dev": {}}
    for d in ALL:
        zoo["dev"][d.name] = resolve(g, by_id(d)).rsplit("/", 1)[-1]
    zoo["dev"]["md"] = resolve(g, "/dev/md/twmirror").rsplit("/", 1)[-1]
    zoo["dev"]["crypt"] = resolve(g, "/dev/mapper/twcrypt").rsplit("/", 1)[-1]
    zoo["dev"]["lv"] = resolve(g, "/dev/twvg/data").rsplit("/", 1)[-1]
    ctx.shared["zoo"] = zoo
    return zoo


def flat(tree):
    """lsblk's devices, each once, children included."""
    out = {}

    def walk(nodes):
        for n in nodes:
            out[n["kname"]] = n
            walk(n.get("children", []))
    walk(tree["blockdevices"])
    return out


# The kernel's identifiers of a block device, as sysfs has them, in the
# order blockident.h takes them (the wwid, then an NVMe namespace's NGUID or
# EUI, then a device-mapper uuid), and udev's names for it
# (/dev/disk/by-id), which come from the device's VPD pages, serial
# attributes or metadata and need not be in sysfs at all.
IDS = r"""
import json, os, sys
out = {}
links = {}
d = "/dev/disk/by-id"
for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
    links.setdefault(os.path.basename(os.path.realpath(os.path.join(d, n))), []).append(n)
for dev in sys.argv[1:]:
    ids = []
    for attr, prefix in (("wwid", ""), ("device/wwid", ""), ("nguid", "nguid."),
                         ("eui", "eui."), ("dm/uuid", "")):
        try:
            with open("/sys/block/%s/%s" % (dev, attr)) as fh:
                v = fh.read().strip()
        except OSError:
            continue
        if v:
            ids.append([attr, prefix + v])
    out[dev] = {"sysfs": ids, "by_id": links.get(dev, [])}
print(json.dumps(out))
"""


def ids(g, devs):
    """{dev: {"sysfs": [[attribute, id], ...], "by_id": [udev's names]}}."""
    return json.loads(g.run(["python3", "-c", IDS] + sorted(devs)).out)


def queue(g, dev, attr):
    return g.run(["cat", "/sys/block/%s/queue/%s" % (dev, attr)]).out.strip()


def fio(g, argv, timeout=300):
    d = g.run(["python3", "/root/tw/inguest.py", "fio"] + argv, timeout=timeout)
    return json.loads(d.out.strip().splitlines()[-1])
