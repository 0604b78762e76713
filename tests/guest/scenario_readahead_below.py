# SPDX-License-Identifier: ISC
"""The read-ahead trap on a stack (guestreadahead.py): a device below the
file's device at read_ahead_kb 4 (the disk under LVM on dm-crypt; a member
of the md mirror), the file's device at the kernel's 128. The file's reads
reach the bottom as the top's requests (some 128 KiB), whatever the
bottom's window says, so raising it would change nothing: no advice may
name a device below the file's device after two windows of the stream."""

import guestdisks
import guestreadahead

META = {"name": "guest-readahead-below", "kind": "negative",
        "symptom": "a small read-ahead window below a stack's top, which the files never use"}
DISKS = guestdisks.ALL


def run(ctx):
    zoo = guestdisks.setup(ctx)
    guestreadahead.run_stack(ctx, "/srv/lv", "/dev/twvg/data",
                             [zoo["dev"]["crypt"], zoo["dev"][guestdisks.CRYPT.name]], trap=True)
    guestreadahead.run_stack(ctx, "/srv/md", "/dev/md/twmirror",
                             [zoo["dev"][d.name] for d in guestdisks.MD], trap=True)
