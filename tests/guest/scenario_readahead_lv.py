# SPDX-License-Identifier: ISC
"""Read-ahead for files on ext4 on LVM on dm-crypt, the LV's window set to
4 KiB: the advice must name the LV's device (dm-1), whose window the
files use, not the dm-crypt mapping or the disk below (guestreadahead.py
says how)."""

import guestdisks
import guestreadahead

META = {"name": "guest-readahead-lvm-crypt", "kind": "problem",
        "symptom": "a sequential reader of a file on LVM on dm-crypt, the LV's read-ahead 4 KiB"}
DISKS = guestdisks.ALL


def run(ctx):
    zoo = guestdisks.setup(ctx)
    guestreadahead.run_stack(ctx, "/srv/lv", "/dev/twvg/data",
                             [zoo["dev"]["crypt"], zoo["dev"][guestdisks.CRYPT.name]])
