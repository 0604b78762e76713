# SPDX-License-Identifier: ISC
"""Read-ahead for files on ext4 on md RAID1, the array's window set to
4 KiB: the advice must name the array (md127), whose window the files use,
not its member disks (guestreadahead.py says how)."""

import guestdisks
import guestreadahead

META = {"name": "guest-readahead-md", "kind": "problem",
        "symptom": "a sequential reader of a file on md RAID1, the array's read-ahead 4 KiB"}
DISKS = guestdisks.ALL


def run(ctx):
    zoo = guestdisks.setup(ctx)
    guestreadahead.run_stack(ctx, "/srv/md", "/dev/md/twmirror",
                             [zoo["dev"][d.name] for d in guestdisks.MD])
