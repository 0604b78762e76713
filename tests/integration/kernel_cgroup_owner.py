#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Whose a cgroup is, on this machine's real kernel (cgroup v1 memory
controller), tried as a delegated unprivileged user would try it: a user
who names their cgroups after systemd's must get no systemctl command for
a unit they do not own, and must not share a finding with a victim's
service of the same name.

A real user, tw-i21-identity-PID (useradd, removed after), is delegated
/tw-i21-identity-hostile-PID in the memory hierarchy (root makes it and
chowns it, its cgroup.procs and tasks, as v1 delegation is done). As that
user the test makes web.service and system.slice in it, gives each an
8 MiB memory.limit_in_bytes, and runs a reader in each (the user moves
their own process in) that re-reads a 32 MiB file. The victim's
/tw-i21-identity-victim-PID/web.service, made by root with 48 MiB, has a
reader re-reading 150 MiB: it thrashes. Each file is written, synced and
dropped from the cache first, so that its pages are charged to its
reader's cgroup.

tunewatchd samples this machine every second (window 4 s, findings raised
after 2 samples, cgroupRefaultWarning 1) behind a real snmpd. Then:

- check_bufcache --cgroup on the three: each a plain cgroup (the owner line
  says so), none with a systemctl line anywhere in the output, each with
  the write to its own memory.limit_in_bytes under /sys/fs/cgroup/memory
  and a persist line saying nothing keeps it; the two web.service have two
  finding ids (each the hash of its directory), two perfdata labels, and
  their own suggestions (96M for the victim's 48M, 16M for the 8M);
- twFindingTable, walked through snmpd: a row for each, the same ids,
  subjects the cgroups' directories, owners and apply lines;
- contrib/notify/tunewatch-ticket on the check's output: one ticket for
  each finding id, the two web.service among them;
- the apply line for the look-alike /tw-i21-identity-hostile-PID/system.slice,
  run as root, sets that cgroup's limit and no other.

Bounded (the readers stop themselves after READ_S and are killed if they
do not; every wait has a timeout), and cleaned up on every path: readers,
cgroups, files, the user. Skipped without root, a cgroup v1 memory
controller, useradd, or a build tree on disk."""

import contextlib
import json
import os
import pwd
import re
import signal
import subprocess
import tempfile
import time

import kernel_cgroup
import plugin_common as pc
import twtest
from trapsink import rows

MEMCG = kernel_cgroup.MEMCG
MIB = 1 << 20
READ_S = 60
TICKET = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-ticket")
# What the three readers re-read, in MiB, and their cgroups' limits.
VICTIM_MIB, VICTIM_LIMIT = 150, 48 * MIB
HOSTILE_MIB, HOSTILE_LIMIT = 32, 8 * MIB


def needs():
    """Why this cannot run here, or None."""
    if os.geteuid() != 0 or not os.access(os.path.join(MEMCG, "cgroup.procs"), os.W_OK):
        return "needs root and a cgroup v1 memory controller at %s" % MEMCG
    if not twtest.which("useradd") or not twtest.which("userdel"):
        return "needs useradd and userdel (Debian: passwd)"
    if kernel_cgroup.on_tmpfs(twtest.TOP_BUILDDIR):
        return "the build tree is on tmpfs: its pages are not page cache that refaults"
    return None


@contextlib.contextmanager
def unprivileged_user(name):
    """A real user of no group of their own and no home, removed again."""
    subprocess.run([twtest.which("useradd"), "-M", "-N", "-d", "/nonexistent", "-s",
                    "/usr/sbin/nologin", name], check=True, capture_output=True, timeout=30)
    try:
        yield pwd.getpwnam(name)
    finally:
        subprocess.run([twtest.which("userdel"), name], capture_output=True, timeout=30)


def as_user(user):
    """A preexec_fn that makes the child that user, all privilege gone."""
    def drop():
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    return drop


def user_does(user, code, *args):
    """Run python code as user; its output, or an AssertionError with it."""
    r = subprocess.run(["python3", "-c", code] + [str(a) for a in args], capture_output=True,
                       text=True, timeout=30, preexec_fn=as_user(user))
    assert r.returncode == 0, "as %s: %r" % (user.pw_name, r)
    return r.stdout


# The delegated user makes a cgroup in their own directory and sets its
# limit, as they may.
MAKE_CGROUP = """
import os, sys
os.mkdir(sys.argv[1])
with open(os.path.join(sys.argv[1], "memory.limit_in_bytes"), "w") as fh:
    fh.write(sys.argv[2])
"""


# The reader: sh re-running cat over the file until its own clock says
# READ_S. Not python: an interpreter (3.7 MiB anonymous, 5.4 MiB of its
# mapped files) in an 8 MiB cgroup was killed by the cgroup's OOM killer
# (dmesg), and the cgroup then read nothing (twice in CI-like runs: "0
# refaults/s, page cache 3.9 MiB"). sh and cat hold well under 1 MiB.
SH_READER = 'end=$(($(date +%s) + $2)); while [ "$(date +%s)" -lt "$end" ]; do ' \
            'cat -- "$1" >/dev/null; done'


def reader(data, cg, user=None):
    """A reader of data in cgroup cg, for READ_S; as user (who moves their
    own process in) or as root. In a session of its own, which stop()
    ends whole."""
    def enter():
        if user is not None:
            as_user(user)()
        with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
            fh.write(str(os.getpid()))
    return subprocess.Popen(["sh", "-c", SH_READER, "sh", data, str(READ_S)],
                            preexec_fn=enter, start_new_session=True)


def gone(pgid):
    """Whether no process of the group is left."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def stop(procs):
    for p in procs:
        group = None
        if p.poll() is None:
            # A reader's whole session (its cat too); anything else alone.
            try:
                if os.getpgid(p.pid) == p.pid:
                    group = p.pid
                    os.killpg(group, signal.SIGKILL)
                else:
                    p.kill()
            except ProcessLookupError:
                pass
        p.wait(timeout=30)
        # The killed cat leaves its cgroup when its exit completes, after
        # sh's: the cgroup's rmdir before then fails with EBUSY (seen).
        if group is not None:
            twtest.wait_for("reader %d's cat gone" % group, lambda: gone(group),
                            timeout=30, step=0.05)


def subject(cg):
    """A cgroup's finding's subject: its directory on v1, the whole path."""
    return cg


def path_of(cg):
    """The cgroup's path below the memory hierarchy's root."""
    return cg[len(MEMCG):]


def sized(limit, mib):
    """mib MiB, a suggestion for a cgroup at limit bytes, checked against
    the sizing's bounds; in bytes."""
    lo = -(-limit * 5 // 4 // MIB)
    assert lo <= mib <= 16 * limit // MIB, (limit, mib)
    return mib * MIB


def ticket_of(out, cg):
    """The ticket lines under cg's tune: line, {name: value}."""
    tune = [i for i, l in enumerate(out.lines)
            if l.startswith("tune: %s memory.limit_in_bytes " % path_of(cg))]
    assert len(tune) == 1, (cg, out)
    got = {}
    for line in out.lines[tune[0] + 1:]:
        if not line.startswith("  "):
            break
        key, _, value = line.strip().partition(": ")
        got[key] = value
    return out.lines[tune[0]], got


def check_output(out, cgs, limits):
    """The check's word on each of cgs: a plain cgroup, its file, no
    systemctl; distinct ids and labels."""
    print(repr(out))
    assert out.rc in (1, 2), out
    assert not [l for l in out.lines if "systemctl" in l], out
    ids = {}
    for cg in cgs:
        tune, t = ticket_of(out, cg)
        want = pc.ticket_id("cgroup-cache-bounded", subject(cg), "memory.limit_in_bytes")
        assert t["finding"] == want, (cg, t, want)
        assert t["owner"] == ("plain cgroup, no systemd unit's own: not where systemd puts a "
                              "unit"), (cg, t)
        # The suggestion is sized from the cgroup's own figures at that
        # sample (lib/advice/advice_cgroup.c): between a quarter more than its
        # limit and 16 times it; the apply line writes that many bytes.
        m = re.search(r" %dM -> (\d+)M \(" % (limits[cg] // MIB), tune)
        assert m, (cg, tune)
        suggested = sized(limits[cg], int(m.group(1)))
        assert t["apply"] == "echo %d > %s/memory.limit_in_bytes" % (suggested, cg), (cg, t)
        assert t["persist"].startswith("none: nothing keeps a plain cgroup's limit"), (cg, t)
        ids[cg] = t["finding"]
    assert len(set(ids.values())) == len(cgs), ids
    labels = [p.label for p in out.perf]
    for cg in cgs:
        assert pc.perf_label("%s refaults" % path_of(cg)) in labels, (cg, labels)
    return ids


def bounded_rows(table, cg):
    """The rows of twFindingTable about cg at its own limit. A cgroup seen
    below its limit first had a finding of the host's symptom, under
    another id, which stays until it has been missed twice."""
    return [r for r in table.values() if r.get("SUBJECT") == subject(cg) and
            r.get("SYMPTOM") == "cgroup-cache-bounded"]


def check_table(table, cgs, ids, limits):
    """twFindingTable through snmpd: a row of its own for each of cgs."""
    for cg in cgs:
        mine = bounded_rows(table, cg)
        assert len(mine) == 1, (cg, table)
        row = mine[0]
        assert row["ID"] == ids[cg], (cg, row, ids)
        assert row["TUNABLE"] == "memory.limit_in_bytes", row
        m = re.fullmatch(r"(\d+)M", row["SUGGESTED"])
        assert m, row
        suggested = sized(limits[cg], int(m.group(1)))
        assert row["APPLY"] == "echo %d > %s/memory.limit_in_bytes" % (suggested, cg), row
        assert row["PERSIST"] == "", row
        assert row["OWNER"].startswith("plain cgroup"), row
    # Other tests' cgroups may be in the table too (kernel_cgroup.py's
    # service at the root is a unit's own): only this test's are judged.
    dirs = {os.path.dirname(cg) for cg in cgs}
    ours = [r for r in table.values() if os.path.dirname(r.get("SUBJECT", "")) in dirs]
    assert ours and not [r for r in ours if "systemctl" in r.get("APPLY", "")], ours
    assert {r["SUBJECT"] for r in ours} == {subject(cg) for cg in cgs}, ours
    return table


# What at_limits saw last, said when the wait for it times out.
LAST_LOOK = []


def at_limits(h, pid, cgs):
    """The check's output and twFindingTable once the check finds each of
    cgs at its own limit and the table has that finding, under the id the
    check prints; None before. Whether a cgroup is at its limit can take
    a few samples to show: memory.failcnt, its limit events, is read every
    fourth sample, and usage alone may sit below 90 % of the limit."""
    out = pc.run("check_bufcache", [
        "--cgroup", "/tw-i21-identity-*-%d/*" % pid, "--refault-warning", "1",
        "--refault-critical", "1000000000", "-t", "20"], h.port)
    tunes = [l for l in out.lines if l.startswith("tune: ")]
    LAST_LOOK[:] = [out.summary_line] + out.long
    if len(tunes) != len(cgs):
        return None
    table = rows(h)
    LAST_LOOK.append("twFindingTable: %s" % sorted((r.get("SUBJECT"), r.get("SYMPTOM"))
                                                   for r in table.values()))
    for cg in cgs:
        _, t = ticket_of(out, cg)
        if [r["ID"] for r in bounded_rows(table, cg)] != [t["finding"]]:
            return None
    return out, table


def check_tickets(out, ids):
    """tunewatch-ticket keeps a ticket for each finding id."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    env.update({"TW_HOST": "web1", "TW_SERVICE": "services", "TW_STATE": out.state,
                "TW_NOTIFICATION_TYPE": "PROBLEM", "TW_OUTPUT": "\n".join(
                    [out.summary_line] + out.long)})
    r = subprocess.run(["python3", TICKET, "--format", "json"], capture_output=True, text=True,
                       env=env, timeout=30)
    assert r.returncode == 0 and r.stderr == "", r
    tickets = json.loads(r.stdout)["tickets"]
    got = [t["finding"] for t in tickets]
    assert sorted(got) == sorted(ids.values()), (got, ids)
    for t in tickets:
        assert t["key"] == "web1!services!" + t["finding"], t
        assert t["apply"].startswith("echo "), t
        assert "owner: plain cgroup, no systemd unit's own: not where systemd puts a unit" in \
            t["notes"], t
    return tickets


@contextlib.contextmanager
def scratch_dir():
    """A directory in the build tree (on disk) that the user may read."""
    tmp = tempfile.mkdtemp(prefix="tw-i21-identity-", dir=twtest.TOP_BUILDDIR)
    os.chmod(tmp, 0o755)
    try:
        yield tmp
    finally:
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)


@contextlib.contextmanager
def cgroups(pid, user):
    """The victim's web.service (root's, 48 MiB) and the user's delegated
    directory with web.service and system.slice (the user's, 8 MiB each);
    every one removed again."""
    victim = os.path.join(MEMCG, "tw-i21-identity-victim-%d" % pid)
    hostile = os.path.join(MEMCG, "tw-i21-identity-hostile-%d" % pid)
    made = []
    try:
        # Root delegates a directory to the user, as v1 delegation goes.
        for cg in (victim, hostile, os.path.join(victim, "web.service")):
            os.mkdir(cg)
            made.append(cg)
        for name in ("", "cgroup.procs", "tasks"):
            os.chown(os.path.join(hostile, name), user.pw_uid, user.pw_gid)
        with open(os.path.join(victim, "web.service", "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(VICTIM_LIMIT))
        # The user names their cgroups after systemd's and limits them.
        for name in ("web.service", "system.slice"):
            cg = os.path.join(hostile, name)
            made.append(cg)
            user_does(user, MAKE_CGROUP, cg, HOSTILE_LIMIT)
            assert os.stat(cg).st_uid == user.pw_uid, cg
        yield {os.path.join(victim, "web.service"): VICTIM_LIMIT,
               os.path.join(hostile, "web.service"): HOSTILE_LIMIT,
               os.path.join(hostile, "system.slice"): HOSTILE_LIMIT}
    finally:
        for cg in reversed(made):
            if os.path.isdir(cg):
                os.rmdir(cg)


@contextlib.contextmanager
def readers(tmp, limits, user):
    """A reader in each cgroup of limits, re-reading a file of its own:
    the victim's as root, the others as the user; all stopped again."""
    procs = []
    try:
        for cg, limit in limits.items():
            data = os.path.join(tmp, os.path.basename(os.path.dirname(cg)) + "-" +
                                os.path.basename(cg))
            twtest.cold_file(data, VICTIM_MIB if limit == VICTIM_LIMIT else HOSTILE_MIB)
            os.chmod(data, 0o644)
        for cg, limit in limits.items():
            data = os.path.join(tmp, os.path.basename(os.path.dirname(cg)) + "-" +
                                os.path.basename(cg))
            procs.append(reader(data, cg, None if limit == VICTIM_LIMIT else user))
        yield procs
    finally:
        stop(procs)


def apply_look_alike(table, cg, other):
    """The look-alike's apply line, run as root, does what it says, to it
    alone."""
    apply = [r["APPLY"] for r in table.values() if r.get("SUBJECT") == subject(cg)][0]
    r = subprocess.run(["sh", "-c", apply], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and r.stderr == "", (apply, r)
    with open(os.path.join(cg, "memory.limit_in_bytes")) as fh:
        # What the line wrote is what it says, in bytes.
        assert int(fh.read()) == int(re.match(r"echo (\d+) > ", apply).group(1)), apply
    with open(os.path.join(other, "memory.limit_in_bytes")) as fh:
        assert int(fh.read()) == HOSTILE_LIMIT, "another cgroup's limit moved"
    print("applied as root: %s" % apply)


def test():
    why = needs()
    if why is not None:
        raise twtest.Skip(why)
    pc.built(pc.argv_of("check_bufcache", []))
    pid = os.getpid()
    # Unwound in reverse: readers stopped, cgroups removed, then the user
    # (userdel refuses a user with processes), then the files.
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(scratch_dir())
        user = stack.enter_context(unprivileged_user("tw-i21-identity-%d" % pid))
        limits = stack.enter_context(cgroups(pid, user))
        cgs = list(limits)
        with twtest.Harness("kernel-cgroup-owner") as h:
            h.start_snmpd()
            conf = os.path.join(h.dir, "tunewatchd.conf")
            with open(conf, "w") as fh:
                fh.write("findingRaiseAfter 2\nfindingClearAfter 2\ncgroupMax 4096\n"
                         "cgroupRefaultWarning 1\ncgroupRefaultCritical 1000000000\n")
            # The cgroups are there before the agent's first walk.
            h.start_agent(None, None, interval=1, window=4, args=["-c", conf])
            t0 = time.monotonic()
            stack.enter_context(readers(tmp, limits, user))
            twtest.wait_for("findings about the three cgroups", lambda: all(
                any(r.get("SUBJECT") == subject(cg) for r in rows(h).values())
                for cg in cgs), timeout=READ_S - 10, step=0.5)
            raised_s = time.monotonic() - t0
            try:
                out, table = twtest.wait_for("the three cgroups at their limits",
                                             lambda: at_limits(h, pid, cgs),
                                             timeout=READ_S - 5 - (time.monotonic() - t0), step=1)
            except AssertionError:
                print("the last check and table seen:\n" + "\n".join(LAST_LOOK))
                raise
            bounded_s = time.monotonic() - t0
            ids = check_output(out, cgs, limits)
            check_table(table, cgs, ids, limits)
            tickets = check_tickets(out, ids)
        print("raised %.1f s after the readers started, all three at their limits after "
              "%.1f s; ids %r" % (raised_s, bounded_s, ids))
        print("twFindingTable: %r" % [r for r in table.values()
                                      if r.get("SUBJECT") in [subject(c) for c in cgs]])
        print("tickets: %r" % [(t["finding"], t["apply"]) for t in tickets])
        apply_look_alike(table, cgs[2], cgs[1])


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
