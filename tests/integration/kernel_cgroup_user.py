#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""What a local user can do to twCgroupTable with a delegated cgroup v1
memory subtree, on this machine's real kernel: hide a service from it, or
not.

A real unprivileged user (useradd tw-i21-nw-PID, removed after) is given
/sys/fs/cgroup/memory/tw-i21-nw-PID (chown, as a delegation does) and, as
that user, makes in it:
  - 300 idle cgroups, each with a 64 MiB memory.limit_in_bytes;
  - a 341-byte path, a tree 41 levels deep, and .hidden names;
  - a chain 130 levels deep, and a chain of 250-byte names whose path from
    the hierarchy's root passes 4031 bytes (mkdir relative to an open
    directory), which the walk must cut, and count.
tunewatchd (root, this machine's /proc and /sys, a sample and a walk of the
hierarchy every second) runs behind a real snmpd. Then the user's own
process, in a 64 MiB cgroup of theirs, re-reads a 200 MiB file (refaults,
as tests/integration/kernel_cgroup.py does), in turn:
  1. in /tw-i21-nw-PID/.hidden/thrash.service, made after tunewatchd's first
     walk (so with a higher index than the 300): with the default cgroupMax
     of 16, the thrasher is in twCgroupTable (snmpwalk) and check_bufcache
     --cgroup thrash.service judges it (WARNING or CRITICAL), where before
     the 300 idle limits pushed it out and the check said UNKNOWN;
  2. in a leaf at the end of the 341-byte path: published, its twCgroupPath
     cut at its head to fit a DisplayString, and the check finds it by its
     name;
  3. in the leaf 41 levels down, with cgroupMax 64 (its 40 ancestors hold
     its refaults too, and rank with it): published, and judged.
The 300 are removed after the first (the kernel is shared: a test beside
this one would see them). Throughout, twAgentCgroupsCutDeep and
twAgentCgroupsCutLong are 1 each (the two chains), and an UNKNOWN for a name that matches nothing says how many
cgroups the walk found, left unpublished and cut, and why.

Skipped without root, useradd, or a writable cgroup v1 memory hierarchy.
Bounded (each reader stops itself, and is killed if it does not), and
cleaned up in every path: readers, cgroups (bottom up, relative to open
directories), the file, the user."""

import json
import os
import pwd
import subprocess
import tempfile
import time

import plugin_common as pc
import twtest

MEMCG = "/sys/fs/cgroup/memory"
LIMIT = 64 << 20
FILE_MIB = 200
READ_S = 8
IDLE = 300
DEEP = 41		# levels below the hierarchy's root, the delegated one first
CUT_DEEP = 130		# from the delegated directory on
NAME250 = "n" * 250

# Run as the user: make the tree under the delegated directory.
MAKE = r"""
import json, os, sys
base, spec = sys.argv[1], json.loads(sys.argv[2])
def mk(path, limit=None):
    os.mkdir(path)
    if limit:
        with open(os.path.join(path, "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(limit))
os.mkdir(os.path.join(base, "idle"))
for i in range(spec["idle"]):
    mk(os.path.join(base, "idle", "svc%03d.service" % i), spec["limit"])
p = base
for part in spec["long"]:
    p = os.path.join(p, part)
    mk(p, spec["limit"] if part == spec["long"][-1] else None)
p = base
for part in spec["deep"]:
    p = os.path.join(p, part)
    mk(p, spec["limit"] if part == spec["deep"][-1] else None)
os.mkdir(os.path.join(base, ".hidden"))
# Past the walk's bounds: a deep chain, and one too long for PATH_MAX from
# "/", made relative to an open directory.
for name, n in (("cutdeep", spec["cutdeep"]), ("cutlong", 0)):
    os.mkdir(os.path.join(base, name))
fd = os.open(os.path.join(base, "cutdeep"), os.O_RDONLY | os.O_DIRECTORY)
for i in range(spec["cutdeep"] - 1):
    os.mkdir("d", dir_fd=fd)
    nfd = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.close(fd)
fd = os.open(os.path.join(base, "cutlong"), os.O_RDONLY | os.O_DIRECTORY)
for i in range(spec["cutlong"]):
    os.mkdir(spec["name250"], dir_fd=fd)
    nfd = os.open(spec["name250"], os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.close(fd)
"""

# Run as the user: join the cgroup, then re-read the file for a while.
READER = r"""
import os, sys, time
with open(os.path.join(sys.argv[1], "cgroup.procs"), "w") as fh:
    fh.write(str(os.getpid()))
end = time.monotonic() + float(sys.argv[3])
while time.monotonic() < end:
    with open(sys.argv[2], "rb") as fh:
        while fh.read(1 << 20) and time.monotonic() < end:
            pass
"""


def as_user(user, argv):
    return ["runuser", "-u", user, "--"] + argv


def rm_cgroups(path):
    """Remove a cgroup tree bottom up, relative to open directories (a
    path may be longer than PATH_MAX from "/")."""
    if not os.path.isdir(path):
        return
    for _, dirs, _, fd in os.fwalk(path, topdown=False):
        for d in dirs:
            try:
                os.rmdir(d, dir_fd=fd)
            except FileNotFoundError:
                pass
    os.rmdir(path)


def table(h):
    """{path: {column: value}} of twCgroupTable."""
    v = twtest.as_dict(h.walk(twtest.oid("CGROUP_PATH", None).rsplit(".", 2)[0]))
    out = {}
    for idx, val in twtest.column(v, "CGROUP_PATH").items():
        row = {}
        for col in ("CGROUP_REFAULTS", "CGROUP_REFAULT_RATE", "CGROUP_MEMORY_LIMIT",
                    "CGROUP_UNIT"):
            got = twtest.column(v, col).get(idx)
            if got is not None:
                row[col] = got.text if got.type == "STRING" else got.num
        out[val.text] = row
    return out


def agent_counts(h):
    names = ("AGENT_CGROUPS_WALKED", "AGENT_CGROUPS_UNPUBLISHED", "AGENT_CGROUPS_CUT_LONG",
             "AGENT_CGROUPS_CUT_DEEP", "AGENT_CGROUPS_CUT_MANY")
    vals = h.get([twtest.oid(n) for n in names])
    assert all(v.type == "Gauge32" for v in vals), vals
    return {n: v.num for n, v in zip(names, vals)}


def thrash(h, user, cgroup, data, published, check_name):
    """The user's reader re-reads data in cgroup; wait for the row at
    published (its twCgroupPath) to have a refault rate, then run the
    check for check_name while it reads."""
    reader = subprocess.Popen(as_user(user, ["python3", "-c", READER, cgroup, data,
                                             str(READ_S)]))
    try:
        def refaulting():
            r = table(h).get(published) or {}
            return r if r.get("CGROUP_REFAULT_RATE") else None
        row = twtest.wait_for("%s in twCgroupTable with a refault rate" % published,
                              refaulting, timeout=READ_S, step=0.3)
        out = pc.run("check_bufcache", ["--cgroup", check_name, "-t", "20"], h.port)
        rows = table(h)
        reader.wait(timeout=READ_S + 30)
    finally:
        if reader.poll() is None:
            reader.kill()
        reader.wait()
    return row, out, rows


def test():
    if os.geteuid() != 0 or not os.access(os.path.join(MEMCG, "cgroup.procs"), os.W_OK):
        raise twtest.Skip("needs root and a cgroup v1 memory controller at %s" % MEMCG)
    if not twtest.which("useradd") or not twtest.which("runuser"):
        raise twtest.Skip("needs useradd and runuser")
    pc.built(pc.argv_of("check_bufcache", []))
    user = "tw-i21-nw-%d" % os.getpid()
    base = os.path.join(MEMCG, user)
    tmp = tempfile.mkdtemp(prefix="tw-i21-nw-", dir="/var/tmp")
    made_user = False
    try:
        subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", user], check=True)
        made_user = True
        pw = pwd.getpwnam(user)
        # The delegation: the directory and its files are the user's.
        os.mkdir(base)
        for name in [""] + os.listdir(base):
            os.chown(os.path.join(base, name), pw.pw_uid, pw.pw_gid)
        os.chmod(tmp, 0o755)
        data = os.path.join(tmp, "data")
        twtest.cold_file(data, FILE_MIB)
        os.chmod(data, 0o644)

        prefix = "/" + user
        long_parts = ["long", "a" * 150, "b" * 150, "long-leaf.service"]
        deep_parts = ["deep"] + ["d%02d" % i for i in range(3, DEEP)] + ["deep-leaf.service"]
        assert len(deep_parts) == DEEP - 1		# below the delegated directory
        long_path = prefix + "/" + "/".join(long_parts)
        deep_path = prefix + "/" + "/".join(deep_parts)
        assert len(long_path) >= 300, len(long_path)
        # The chain of 250-byte names: long enough to pass the bound once.
        cutlong = (4031 - len(prefix + "/cutlong")) // 251 + 2
        spec = {"idle": IDLE, "limit": LIMIT, "long": long_parts, "deep": deep_parts,
                "cutdeep": CUT_DEEP, "cutlong": cutlong, "name250": NAME250}
        subprocess.run(as_user(user, ["python3", "-c", MAKE, base, json.dumps(spec)]),
                       check=True, timeout=120)

        with twtest.Harness("kernel-cgroup-user") as h:
            h.start_snmpd()
            h.start_agent(None, None, interval=1, window=4,
                          args=["-c", write_conf(h, "cgroupRescan 1\n")])
            first = agent_counts(h)
            # Only the thrasher's cgroup is made after the first walk.
            subprocess.run(as_user(user, ["mkdir", base + "/.hidden/thrash.service"]),
                           check=True)
            with open(base + "/.hidden/thrash.service/memory.limit_in_bytes", "w") as fh:
                fh.write(str(LIMIT))

            # 1. The thrasher beside 300 idle limits, cgroupMax 16.
            hidden = prefix + "/.hidden/thrash.service"
            row, out, rows = thrash(h, user, base + "/.hidden/thrash.service", data, hidden,
                                    "thrash.service")
            print("1. %s: %r; the check said:\n%s" % (hidden, row, out.stdout))
            assert row["CGROUP_REFAULT_RATE"] > 0, row
            assert out.rc in (1, 2), out
            # A user's cgroup is no unit's own, whatever its name: the
            # check names it by its path.
            assert out.lines[0].startswith("BUFCACHE %s - %s " % (
                "CRITICAL" if out.rc == 2 else "WARNING", hidden)), out
            mine = [p for p in rows if p.startswith(prefix + "/idle/")]
            assert len(rows) <= 16, rows
            counts = agent_counts(h)
            print("   twCgroupTable: %d rows, %d of them idle services; the walk: %r" % (
                len(rows), len(mine), counts))
            # Every cgroup of the user's that the walk can reach was found
            # (others' cgroups come on top): the base, the idle parent and
            # its 300, the long path, the deep tree, .hidden and the
            # thrasher, the deep chain down to the 128th level (its first
            # 127 below the base) and the long one while its path fits.
            ours = (1 + 1 + IDLE + len(long_parts) + len(deep_parts) + 2 + 127 +
                    1 + (4031 - len(prefix + "/cutlong")) // 251)
            assert counts["AGENT_CGROUPS_WALKED"] >= ours, (counts, ours)
            assert counts["AGENT_CGROUPS_UNPUBLISHED"] >= ours - 16, counts
            assert counts["AGENT_CGROUPS_CUT_DEEP"] == 1, counts
            assert counts["AGENT_CGROUPS_CUT_LONG"] == 1, counts
            assert first["AGENT_CGROUPS_CUT_DEEP"] == 1 and first["AGENT_CGROUPS_CUT_LONG"] == 1
            # The 300 limits go as soon as they have served: the kernel is
            # shared, and another test's tunewatchd would rank them, idle
            # with limits, before its own cgroups by their index.
            rm_cgroups(base + "/idle")

            # 2. The 341-byte path: its row's path cut at its head.
            shown = "..." + long_path[long_path.index("/", len(long_path) - 252):]
            row, out, rows = thrash(h, user, MEMCG + long_path, data, shown,
                                    "long-leaf.service")
            print("2. %s: %r; the check said:\n%s" % (shown, row, out.stdout))
            assert len(shown) <= 255 and shown.endswith("/long-leaf.service"), shown
            assert out.rc in (1, 2), out
            # A user's cgroup is no unit's own, whatever its name: the
            # check names it by its path.
            assert out.lines[0].startswith("BUFCACHE %s - %s " % (
                "CRITICAL" if out.rc == 2 else "WARNING", shown)), out

            # 3. 41 levels down, with room for its ancestors.
            h.stop(h.agent)
            h.start_agent(None, None, interval=1, window=4,
                          args=["-c", write_conf(h, "cgroupRescan 1\ncgroupMax 64\n")])
            row, out, rows = thrash(h, user, MEMCG + deep_path, data, deep_path,
                                    "deep-leaf.service")
            print("3. %s (%d levels): %r; the check said:\n%s" % (
                deep_path, deep_path.count("/"), row, out.stdout))
            assert deep_path.count("/") == DEEP, deep_path
            assert out.rc in (1, 2), out
            # A user's cgroup is no unit's own, whatever its name: the
            # check names it by its path.
            assert out.lines[0].startswith("BUFCACHE %s - %s " % (
                "CRITICAL" if out.rc == 2 else "WARNING", deep_path)), out

            # A name that matches nothing: UNKNOWN, with what the walk found
            # and why some were not walked.
            out = pc.run("check_bufcache", ["--cgroup", "nonesuch-%d.service" % os.getpid()],
                         h.port)
            print("nothing matches:\n%s" % out.stdout)
            assert out.rc == 3, out
            assert "; the last walk found " in out.lines[0], out
            assert "1 not walked: too deep (over 128 levels)" in out.lines[0], out
            assert "1 not walked: with a path too long (over 4031 bytes)" in out.lines[0], out
    finally:
        rm_cgroups(base)
        if os.path.exists(os.path.join(tmp, "data")):
            os.unlink(os.path.join(tmp, "data"))
        os.rmdir(tmp)
        if made_user:
            subprocess.run(["userdel", user], check=False)


def write_conf(h, text):
    path = os.path.join(h.dir, "tunewatchd-%d.conf" % len(os.listdir(h.dir)))
    with open(path, "w") as fh:
        fh.write(text)
    return path


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
