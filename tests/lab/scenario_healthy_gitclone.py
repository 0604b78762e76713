#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Healthy but busy: cloning a large local git repository.

A git repository of some 100 MiB (4,000 files of 25 KiB in 40 directories,
one commit, made before tunewatchd starts and dropped from the cache) is
cloned with git clone --no-hardlinks, as a build farm clones a mirror: its
objects read once and copied, then every file written by the checkout,
within the dirty limits. check_bufcache, check_dblock and
check_disklatency must stay OK at their defaults while it runs and a window
after, and tunewatchd must raise no finding. tunewatchd runs in a network
namespace of the lab's own (see scenario_healthy_backup.py).
"""

import os
import subprocess

import labcache
import labcore

META = {"name": "healthy-gitclone", "kind": "healthy",
        "symptom": "git clone --no-hardlinks of a local 100 MiB repository"}

DIRS = 40
FILES = 100
FILE_KIB = 25
GIT = ["git", "-c", "user.name=lab", "-c", "user.email=lab@localhost", "-c",
       "init.defaultBranch=main", "-c", "gc.auto=0"]


def drop_tree(top):
    for d, _, files in os.walk(top):
        for f in files:
            try:
                fd = os.open(os.path.join(d, f), os.O_RDONLY)
            except OSError:
                continue
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)


def make_repo(lab, repo):
    lab.journal.undo(["rm", "-rf", repo], "remove %s" % repo)
    subprocess.run(GIT + ["init", "-q", repo], check=True, timeout=60)
    block = os.urandom(FILE_KIB << 10)
    for d in range(DIRS):
        os.makedirs(os.path.join(repo, "d%02d" % d))
        for f in range(FILES):
            with open(os.path.join(repo, "d%02d" % d, "f%03d.dat" % f), "wb") as fh:
                k = d * FILES + f
                fh.write(block[k % 1013:] + block[:k % 1013])
    subprocess.run(GIT + ["-C", repo, "add", "-A"], check=True, timeout=600)
    subprocess.run(GIT + ["-C", repo, "commit", "-q", "-m", "the lab's tree"], check=True,
                   timeout=600)
    drop_tree(repo)


def run(lab):
    labcore.need("git")
    repo = os.path.join("/var/tmp", labcache.name_of(lab, "repo"))
    clone = os.path.join("/var/tmp", labcache.name_of(lab, "clone"))
    make_repo(lab, repo)
    lab.journal.undo(["rm", "-rf", clone], "remove %s" % clone)
    ns = lab.netns()
    lab.result["where"] = "tunewatchd in network namespace %s; git on the host" % ns
    lab.result["setup"] = "a repository of %d files of %d KiB, one commit, cold" % (
        DIRS * FILES, FILE_KIB)
    with labcore.Stack(lab, ns=ns) as stack:
        def clone_it():
            r = subprocess.run(GIT + ["clone", "-q", "--no-hardlinks", repo, clone],
                               capture_output=True, text=True, timeout=900)
            assert r.returncode == 0, "git clone: %s" % r.stderr.strip()
            lab.result.note("cloned %d files" % (DIRS * FILES))
            subprocess.run(["rm", "-rf", clone], timeout=300)

        labcache.run_healthy(lab, stack, clone_it, "git clone --no-hardlinks of a %d MiB "
                             "repository" % (DIRS * FILES * FILE_KIB >> 10))


if __name__ == "__main__":
    labcore.main(META, run)
