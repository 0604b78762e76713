#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: an O_DIRECT reader at read_ahead_kb 64.

A loop device over a cold file of 1 GiB (labcache.loop_device) at
read_ahead_kb 64 (journalled), under the kernel's default of 128. A reader
reads it from start to end with O_DIRECT, 1 MiB a read, as `dd
iflag=direct bs=1M` or a database does, for 30 s: no page cache, no
read-ahead; the device's requests are the reader's, far past the window. A
small window whose reads "fill" it once named read_ahead_kb up, which an
O_DIRECT reader never uses.

The right answer: no finding and no tune: line naming read_ahead_kb. The
reads must have been there: 100 a second or more, of 512 KiB or more.
"""

import mmap
import os
import time

import labcore
import labneg

META = {"name": "neg-odirect-ra64", "kind": "negative",
        "symptom": "an O_DIRECT reader of 1 MiB at read_ahead_kb 64"}

SECONDS = 30
MIB = 1024


def run(lab):
    labneg.read_ahead_control(
        lab, __file__, 64, "direct", SECONDS,
        setup="O_DIRECT reads of 1 MiB from start to end", what="O_DIRECT reads of 1 MiB",
        why="read-ahead for an O_DIRECT reader", kib_ok=lambda kib: kib >= 512, mib=MIB)


def direct(dev, seconds):
    """Read dev from start to end with O_DIRECT, 1 MiB a read, over again."""
    fd = os.open(dev, os.O_RDONLY | os.O_DIRECT)
    size = os.lseek(fd, 0, os.SEEK_END)
    buf = mmap.mmap(-1, 1 << 20)
    t0 = time.monotonic()
    off = n = 0
    while time.monotonic() - t0 < float(seconds):
        os.preadv(fd, [buf], off)
        off = (off + (1 << 20)) % size
        n += 1
    labcore.emit(reads=n)


if __name__ == "__main__":
    labcore.main(META, run, {"direct": direct})
