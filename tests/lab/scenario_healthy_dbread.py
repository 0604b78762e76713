#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: random reads of a database file that fits in memory.

An SQLite database of some 200 MiB (two million rows of 100 bytes, made
before tunewatchd starts and dropped from the page cache with
posix_fadvise) is read by primary key at random for 30 s, one row a query,
as a web application's lookups do. Its first reads come from the disk,
small and random; then the whole file is in the cache and every read hits.
No page is read back, no reader waits long. check_bufcache, check_dblock
and check_disklatency must stay OK at their defaults while it runs and a
window after, and tunewatchd must raise no finding. tunewatchd runs in a
network namespace of the lab's own (see scenario_healthy_backup.py).
"""

import os
import random
import sqlite3
import time

import labcache
import labcore

META = {"name": "healthy-dbread", "kind": "healthy",
        "symptom": "random reads of a 200 MiB SQLite database that fits in memory"}

ROWS = 2000000
SECONDS = 30


def make_db(lab, path):
    lab.journal.undo(["rm", "-f", path], "remove %s" % path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
    block = os.urandom(100)
    db.executemany("INSERT INTO t VALUES (?, ?)", ((i, block) for i in range(ROWS)))
    db.commit()
    db.close()
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    return os.path.getsize(path)


def run(lab):
    path = os.path.join("/var/tmp", labcache.name_of(lab, "db") + ".sqlite")
    size = make_db(lab, path)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; the reads on the host" % ns
    lab.result["setup"] = "an SQLite file of %d MiB, %d rows, cold" % (size >> 20, ROWS)
    with labcore.Stack(lab, ns=ns) as stack:
        def reads():
            db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
            rng = random.Random(32)
            t0 = time.monotonic()
            n = 0
            while time.monotonic() - t0 < SECONDS:
                db.execute("SELECT v FROM t WHERE id = ?", (rng.randrange(ROWS),)).fetchone()
                n += 1
            db.close()
            lab.result.note("%d lookups in %d s" % (n, SECONDS))

        labcache.run_healthy(lab, stack, reads, "SQLite lookups by random key for %d s in a "
                             "%d MiB file" % (SECONDS, size >> 20))


if __name__ == "__main__":
    labcore.main(META, run)
