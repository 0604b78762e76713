#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A ticket is its subject, and the change history cannot be flushed
(issue 34, holes 2 and 5), on this machine's real kernel (cgroup v1 memory
controller, delegation simulated by chown as systemd delegates on v2).

A real user, tw-i34-tk-PID (useradd, removed after), is given the
directory systemd would give their manager, /user.slice/user-UID.slice/
user@UID.service (root makes it and chowns it, its cgroup.procs and tasks).
In it the user makes app.slice/tw-i34-web-PID.service (8 MiB) and 40
cgroups of their own with limits. Root has /system.slice/tw-i34-web-PID.service
(48 MiB), the look-alike system unit of the same name, and
/system.slice/tw-i34-db-PID.service (32 MiB). A reader thrashes in each
web.service. tunewatchd samples every second (window 4 s, findings raised
after 2 samples, cgroupMax 4096) behind a real snmpd.

Once both web.service findings are raised, their tickets are opened in
Debian's Request Tracker 5 (rttest.py) by contrib/notify/tunewatch-rt from
check_bufcache --cgroup of each. Then the user rewrites the limits of their
40 cgroups every 0.25 s and raises their own web.service's limit, and root
raises the db service's. A window later:

- twChangeTable holds root's change, evaluated (the user's churn took
  only the user's own rows), and the user's web.service change with the
  directory of that cgroup as its subject and its finding's id;
- check_bufcache --cgroup of the system unit prints no change: line;
  --cgroup of the user's unit prints the user's change, begun by its id;
- tunewatch-rt, fed both checks' outputs, comments the user's change on
  the user's ticket alone: the system unit's ticket stays open with no
  word of it.
Before (6900ab4) the user's change was "web.service of user N", which
every check printed and tunewatch-rt matched to the system unit's ticket
by its first word, and 40 cgroups' changes pushed root's out of the 32
rows before its window after.

Bounded and cleaned up on every path (readers, the churn, cgroups, files,
the user). Skipped without root, a cgroup v1 memory controller, useradd,
or a build tree on disk; the RT part is skipped (and said) without RT."""

import contextlib
import os
import subprocess
import time

import kernel_cgroup
import kernel_cgroup_owner as ko
import plugin_common as pc
import rttest
import twtest

MEMCG = kernel_cgroup.MEMCG
MIB = 1 << 20
CHURN = 40
RT_SCRIPT = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-rt")

# The user rewrites their 40 cgroups' limits every 0.25 s until killed.
CHURN_CODE = """
import os, sys, time
dirs = sys.argv[1:]
n = 0
end = time.monotonic() + 120
while time.monotonic() < end:
    for d in dirs:
        with open(os.path.join(d, "memory.limit_in_bytes"), "w") as fh:
            # A new value each round: two alternating values every 0.25 s
            # looked the same to a sample a second apart (no change seen:
            # "the user's churn holds 0 rows" under ASan).
            fh.write(str((16 + n % 61) << 20))
    n += 1
    time.sleep(0.25)
"""
RAISE = """
import sys
with open(sys.argv[1] + "/memory.limit_in_bytes", "w") as fh:
    fh.write(sys.argv[2])
"""


@contextlib.contextmanager
def layout(pid, user):
    """The system's two services, the user's manager directory with their
    web.service and 40 cgroups; everything made here removed again."""
    made = []
    sys_web = "/system.slice/tw-i34-web-%d.service" % pid
    db = "/system.slice/tw-i34-db-%d.service" % pid
    mgr = "/user.slice/user-%d.slice/user@%d.service" % (user.pw_uid, user.pw_uid)
    user_web = mgr + "/app.slice/tw-i34-web-%d.service" % pid
    churn = [mgr + "/churn/c%02d" % i for i in range(CHURN)]

    def mkdir(path):
        full = MEMCG + path
        if not os.path.isdir(full):
            os.mkdir(full)
            made.append(full)
    try:
        for path in ("/system.slice", sys_web, db, "/user.slice",
                     "/user.slice/user-%d.slice" % user.pw_uid, mgr):
            mkdir(path)
        for name in ("", "cgroup.procs", "tasks"):
            os.chown(os.path.join(MEMCG + mgr, name), user.pw_uid, user.pw_gid)
        for path, limit in ((sys_web, 48 * MIB), (db, 32 * MIB)):
            with open(MEMCG + path + "/memory.limit_in_bytes", "w") as fh:
                fh.write(str(limit))
        for path in [mgr + "/app.slice", mgr + "/churn"]:
            ko.user_does(user, "import os, sys; os.mkdir(sys.argv[1])", MEMCG + path)
            made.append(MEMCG + path)
        for path in [user_web] + churn:
            ko.user_does(user, ko.MAKE_CGROUP, MEMCG + path, 8 * MIB if path == user_web
                         else 16 * MIB)
            made.append(MEMCG + path)
        yield sys_web, db, user_web, churn
    finally:
        for full in reversed(made):
            try:
                os.rmdir(full)
            except OSError:
                pass


def dir_of(path):
    return MEMCG + path


def changes(h):
    v = twtest.as_dict(h.walk(twtest.oid("CHANGE_TUNABLE", None)[:-2]))
    out = {}
    for name in ("TUNABLE", "SUBJECT", "OLD_VALUE", "NEW_VALUE", "EVALUATED", "FINDING_ID"):
        for idx, val in twtest.column(v, "CHANGE_" + name).items():
            out.setdefault(idx, {"INDEX": idx})[name] = val.text.strip('"')
    return list(out.values())


def check(h, path):
    return pc.run("check_bufcache", ["--cgroup", path, "--refault-warning", "1",
                                     "--refault-critical", "1000000000", "-t", "20"], h.port)


def rt_feed(rt, out, service):
    """tunewatch-rt on a check's output, as Icinga 2 hands it over."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    env.update({"TW_HOST": "web1", "TW_SERVICE": service, "TW_STATE": out.state,
                "TW_NOTIFICATION_TYPE": "PROBLEM",
                "TW_OUTPUT": "\n".join([out.summary_line] + out.long)})
    r = subprocess.run(["python3", RT_SCRIPT, "--url", rt.url, "--token-file", rt.token_file],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r
    return r.stdout


def finding_id(out, path):
    tune = [i for i, l in enumerate(out.lines) if l.startswith("tune: ")]
    ids = [out.lines[i + 1].split(": ", 1)[1] for i in tune
           if out.lines[i + 1].startswith("  finding: ")]
    assert len(ids) == 1, (path, out)
    return ids[0]


def test():
    why = ko.needs()
    if why is not None:
        raise twtest.Skip(why)
    pc.built(pc.argv_of("check_bufcache", []))
    pid = os.getpid()
    rt_missing = rttest.present()
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(ko.scratch_dir())
        user = stack.enter_context(ko.unprivileged_user("tw-i34-tk-%d" % pid))
        sys_web, db, user_web, churn = stack.enter_context(layout(pid, user))
        with twtest.Harness("kernel-cgroup-tickets") as h:
            h.start_snmpd()
            conf = os.path.join(h.dir, "tunewatchd.conf")
            with open(conf, "w") as fh:
                fh.write("findingRaiseAfter 2\nfindingClearAfter 2\ncgroupMax 4096\n"
                         "cgroupRefaultWarning 1\ncgroupRefaultCritical 1000000000\n")
            h.start_agent(None, None, interval=1, window=4, args=["-c", conf])
            procs = []
            stack.callback(ko.stop, procs)
            for path, mib, who in ((sys_web, ko.VICTIM_MIB, None),
                                   (user_web, ko.HOSTILE_MIB, user)):
                data = os.path.join(tmp, "user" if who else "system")
                twtest.cold_file(data, mib)
                os.chmod(data, 0o644)
                procs.append(ko.reader(data, MEMCG + path, who))
            outs = {}

            def raised():
                for path in (sys_web, user_web):
                    out = check(h, path)
                    if not [l for l in out.lines if l.startswith("tune: ")]:
                        return None
                    outs[path] = out
                return outs
            try:
                twtest.wait_for("both web.service at their limits", raised,
                                timeout=ko.READ_S - 10, step=1)
            except AssertionError:
                for path in (sys_web, user_web):
                    out = check(h, path)
                    print("the last check of %s:\n%s" % (path, "\n".join(
                        [out.summary_line] + out.long)))
                raise
            ids = {p: finding_id(outs[p], p) for p in (sys_web, user_web)}
            assert ids[sys_web] != ids[user_web], ids
            rt = None
            if rt_missing is None:
                rt = rttest.RequestTracker(h)
                rt.setup()
                rt.start()
                for p, service in ((sys_web, "system"), (user_web, "user")):
                    rt_feed(rt, outs[p], service)
                tickets = {t["id"]: t for t in rt.tickets()}
                assert len(tickets) == 2, tickets
            # The user raises their own web.service's limit.
            ko.user_does(user, RAISE, dir_of(user_web), 256 * MIB)
            want_user = dir_of(user_web)

            def user_evaluated():
                mine = [r for r in changes(h) if r.get("SUBJECT") == want_user and
                        r.get("EVALUATED") == "1"]
                out = check(h, user_web)
                said = [l for l in out.lines if l.startswith("change: ") and " after" in l
                        and "pending" not in l]
                return (mine, out, said) if mine and said else None
            mine, out_user, said = twtest.wait_for("the user's change evaluated",
                                                   user_evaluated, timeout=30, step=0.5)
            assert mine[0]["FINDING_ID"] == ids[user_web], (mine, ids)
            assert said[0].startswith("change: %s %s " % (ids[user_web], want_user)), out_user
            out_sys = check(h, sys_web)
            assert not [l for l in out_sys.lines if l.startswith("change: ")], out_sys
            if rt is not None:
                rt_feed(rt, out_sys, "system")
                rt_feed(rt, out_user, "user")
                by_key = {}
                for t in rt.tickets():
                    doc = rt.ticket(int(t["id"]))
                    key = [c["values"][0] for c in doc.get("CustomFields", [])
                           if c.get("name") == "TunewatchKey" and c.get("values")][0]
                    by_key[key] = (int(t["id"]), doc.get("Status"))
                sys_t = by_key["web1!system!" + ids[sys_web]]
                user_t = by_key["web1!user!" + ids[user_web]]
                sys_hist = " ".join(x[1] for x in rt.history(sys_t[0]))
                user_hist = " ".join(x[1] for x in rt.history(user_t[0]))
                assert "Change evaluated" not in sys_hist, sys_hist
                assert sys_t[1] in ("new", "open"), sys_t
                assert "Change evaluated" in user_hist, user_hist
                print("RT: the user's ticket %d is %s with the change; the system unit's %d "
                      "is %s without it" % (user_t[0], user_t[1], sys_t[0], sys_t[1]))
            else:
                print("RT part skipped: %s" % rt_missing)

            # The user churns their 40 limits; root raises its db service's.
            churner = subprocess.Popen(["python3", "-c", CHURN_CODE] + [
                dir_of(p) for p in churn], preexec_fn=ko.as_user(user))
            procs.append(churner)
            time.sleep(2)
            with open(dir_of(db) + "/memory.limit_in_bytes", "w") as fh:
                fh.write(str(40 * MIB))

            def root_evaluated():
                rows = changes(h)
                root = [r for r in rows if r.get("SUBJECT") == dir_of(db) and
                        r.get("EVALUATED") == "1"]
                return (rows, root) if root else None
            try:
                rows, root = twtest.wait_for(
                    "root's change evaluated while the user churns", root_evaluated,
                    timeout=30, step=0.5)
            except AssertionError:
                print("twChangeTable: %r" % changes(h))
                raise
            assert root[0]["NEW_VALUE"] == "40M", root
            # Its own churn only: another run of this test on the machine
            # (another tree's make check) churns too, and this agent sees
            # every cgroup of the host: 8 rows of each user read as 16.
            mine = os.path.dirname(dir_of(churn[0])) + "/"
            churned = [r for r in rows if r.get("SUBJECT", "").startswith(mine)]
            assert 0 < len(churned) <= 8, "the user's churn holds %d rows: %r" % (
                len(churned), sorted((r["INDEX"], r.get("SUBJECT"), r.get("NEW_VALUE"),
                                      r.get("TUNABLE")) for r in churned))
            print("ids %r; the churn holds %d rows of twChangeTable, root's change evaluated; "
                  "user's change: %s" % (ids, len(churned), said[0]))


if __name__ == "__main__":
    twtest.main(test, machine_lock=twtest.CGROUP_LOCK)
