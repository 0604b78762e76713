#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Disks named as administrators know them, end to end: tunewatchd on
tests/fixtures/names behind a real snmpd publishes twDiskAlias,
twDiskStableId and twDiskType for an LVM volume, a multipath head, md
arrays and NVMe namespaces, hides the multipath head's paths; then
check_disklatency --device and --exclude-device match aliases and print
them beside the kernel name; the check's finding ids for the LVM volume
are the agent's (both hash its stable id).

Over the window dm-1 (vg0-root) does 500 reads in 25000 ms: r_await 50 ms;
every other device does nothing (r_await 0)."""

import os

import plugin_common as pc
import trapsink
import twtest
from twtest import column

CHECK = "check_disklatency"
SDA, MD_HOME, MD127, MPATH, ROOT, NVME0, NVME1 = (
    "8.0", "9.1", "9.127", "253.0", "253.1", "259.0", "259.1")


def texts(v, name):
    return {i: x.text for i, x in column(v, name).items()}


def advance(root):
    """dm-1: 500 more reads taking 25000 ms more, 500 ms more doing I/O."""
    path = os.path.join(root, "proc", "diskstats")
    with open(path) as f:
        lines = f.read().split("\n")
    out = []
    for line in lines:
        f = line.split()
        if len(f) > 3 and f[2] == "dm-1":
            f[3] = str(int(f[3]) + 500)
            f[6] = str(int(f[6]) + 25000)
            f[12] = str(int(f[12]) + 500)
            f[13] = str(int(f[13]) + 25000)
            line = " ".join(f)
        out.append(line)
    with open(path, "w") as f:
        f.write("\n".join(out))


def test():
    with twtest.Harness("disk-names") as h:
        root = pc.writable(h.copy_fixture("names"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        v = twtest.as_dict(h.walk())
        # loop0 and the partition sda2 as ever; sdb and sdc are mpatha's paths.
        assert texts(v, "DISK_NAME") == {
            SDA: "sda", MD_HOME: "md_home", MD127: "md127", MPATH: "dm-0", ROOT: "dm-1",
            NVME0: "nvme0n1", NVME1: "nvme1n1"}, texts(v, "DISK_NAME")
        assert texts(v, "DISK_ALIAS") == {
            MD_HOME: "home", MPATH: "mpatha", ROOT: "vg0-root"}, texts(v, "DISK_ALIAS")
        assert texts(v, "DISK_STABLE_ID") == {
            SDA: "naa.5000c500a1b2c3d4",
            MPATH: "mpath-3600a0b80001234560000abcd",
            ROOT: "LVM-Xq3vT0c1bN2mW8pK4rY6sD9fG1hJ5kL7zQ0wE2tR4uI6oP8aS0dF3gH5jK7lZ9x",
            NVME0: "eui.0025388b71b1c2d4",
            NVME1: "nguid.6479a72e-1f1c-4c9b-8a2e-2b7a1d0c9e11"}, texts(v, "DISK_STABLE_ID")
        assert texts(v, "DISK_TYPE") == {
            SDA: "disk", MD_HOME: "md", MD127: "md", MPATH: "multipath", ROOT: "dm",
            NVME0: "nvme", NVME1: "nvme"}, texts(v, "DISK_TYPE")
        for x in column(v, "DISK_ALIAS").values():
            assert x.type == "STRING", x

        advance(root)
        h.sample_now()
        w = pc.window_s(pc.agent_span(h))

        # The alias selects the device; the output names it both ways.
        out = pc.run(CHECK, ["--device", "^vg0-root$", "-w", "20", "-c", "100"], h.port)
        assert out.rc == 1, out.stdout
        first = out.stdout.split("\n")[0]
        assert first.startswith("DISKLATENCY WARNING - dm-1 (vg0-root) WARNING r_await 50 ms, "
                                "w_await 0 ms | "), first
        assert pc.perf("dm-1_r_await", "50", "ms", "20", "100", "0") in first, first
        assert out.stdout.split("\n")[1].startswith("dm-1 (vg0-root): WARNING r_await 50 ms"), \
            out.stdout
        for other in ("sda", "dm-0", "md127", "nvme"):
            assert other not in out.stdout, (other, out.stdout)

        # The check's finding ids are the agent's: both hash the disk's
        # stable id (a ticket's key must not depend on who raised it).
        ids = [l.strip().split(": ", 1)[1] for l in out.stdout.split("\n")
               if l.strip().startswith("finding: ")]
        assert ids, out.stdout
        for _ in range(3):
            advance(root)
            h.sample_now()
        agent_ids = {r.get("ID", "").strip('"'): r for r in trapsink.rows(h).values()}
        for i in ids:
            assert i in agent_ids, "the check's finding %s is not the agent's: %s" % (
                i, {k: r.get("SUBJECT") for k, r in agent_ids.items()})
            assert agent_ids[i].get("SUBJECT", "").strip('"').startswith("LVM-Xq3vT0c1bN2mW8pK4"), \
                agent_ids[i]

        # Kernel names still match, and an alias excludes. The window now
        # spans the three samples more, however long they took.
        w = pc.window_s(pc.agent_span(h))
        out = pc.run(CHECK, ["--device", "^dm-", "--exclude-device", "^mpatha$", "-w", "100"],
                     h.port)
        assert out.rc == 0, out.stdout
        assert out.stdout.startswith(
            "DISKLATENCY OK - 1 device OK in the last %d s; highest r_await 50 ms "
            "(dm-1 (vg0-root))" % w), out.stdout
        assert "dm-0" not in out.stdout, out.stdout

        # Hidden paths are not there to select.
        out = pc.run(CHECK, ["--device", "^sdb$"], h.port)
        assert out.rc == 3, out.stdout
        assert "no device to judge (check --device and --exclude-device)" in out.stdout


if __name__ == "__main__":
    twtest.main(test)
