#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Negative control: random reads of 8-16 KiB at read_ahead_kb 16.

A loop device over a cold file of 1 GiB (labcache.loop_device) at
read_ahead_kb 16 (journalled). A reader reads it through the page cache at
random offsets, 8, 12 or 16 KiB at a time, for 30 s: reads the kernel
does not extend (mm/readahead.c reads a small random read as it is), so
the device's requests are the reader's, 12 KiB on average, under the
window. A window below the kernel's default that reads "fill" once named
read_ahead_kb up, which only drags in pages a random reader never asks for.

The right answer: no finding and no tune: line naming read_ahead_kb, either
way (check_bufcache may say the data is read once). The reads must have
been there: 100 a second or more, of 8 to 16 KiB on average.
"""

import os
import random
import time

import labcore
import labneg

META = {"name": "neg-random-ra16", "kind": "negative",
        "symptom": "random reads of 8-16 KiB at read_ahead_kb 16"}

SECONDS = 30
MIB = 1024


def run(lab):
    labneg.read_ahead_control(
        lab, __file__, 16, "randread", SECONDS,
        setup="reads of 8, 12 or 16 KiB at random offsets", what="random reads of 8-16 KiB",
        why="read-ahead for random reads", kib_ok=lambda kib: 8 <= kib <= 16, mib=MIB)


def randread(dev, seconds):
    """pread 8, 12 or 16 KiB at random 4 KiB-aligned offsets, buffered."""
    fd = os.open(dev, os.O_RDONLY)
    pages = os.lseek(fd, 0, os.SEEK_END) // 4096 - 4
    rng = random.Random(32)
    t0 = time.monotonic()
    n = 0
    while time.monotonic() - t0 < float(seconds):
        os.pread(fd, rng.choice((8192, 12288, 16384)), rng.randrange(pages) * 4096)
        n += 1
    labcore.emit(reads=n)


if __name__ == "__main__":
    labcore.main(META, run, {"randread": randread})
