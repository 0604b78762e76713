# SPDX-License-Identifier: ISC
"""The installed system: tunewatch's .deb files installed in the guest as a
user installs them (`apt install ./tunewatchd_*.deb
./monitoring-plugins-tunewatch_*.deb`, the guest offline: everything they
depend on must already be there), set up as README.Debian says (snmpd.conf's
three lines, `chmod 0755 /var/agentx`, `systemctl restart snmpd`, `systemctl
enable --now tunewatchd`), then the guest rebooted, and held to:

- both units enabled and started by systemd at boot, tunewatchd answering
  through snmpd (the uptime at which it first does is reported);
- tunewatchd running as _tunewatch with no capability, NoNewPrivs, in the
  unit's read-only, private-/tmp, no-/home view of the system;
- `systemctl restart snmpd`, three times: tunewatchd's tables answer again
  within 2 s of snmpd answering (the guest's clock; as TESTING.md's faults
  table holds agent_restart.py), the time from the restart's return beside;
- its log in the journal, under its own name;
- the three checks give a status from the installed programs.

What it leaves for scenario_zz_purge: the file lists before the install
and after the set-up.
"""

import os

import guestlab
import twtest

META = {"name": "guest-package", "kind": "system",
        "symptom": "tunewatch's Debian packages installed and run by systemd in a Debian guest"}

VERSION = twtest.oid("AGENT_VERSION")
DISK_NAMES = twtest.oid("DISK_NAME", None)
RESTART_LIMIT_S = 2.0
RESTARTS = 3

# README.Debian's step 1, as an administrator types it.
SNMPD_LINES = """
master agentx
agentXPerms 0660 0755 Debian-snmp _tunewatch
view systemonly included .1.3.6.1.4.1.8072.9999.9999.8863
"""

# What the file list leaves out: the kernel's and systemd's run-time
# folders, logs and caches, apt's and dpkg's own state, and the test's
# own files (/root).
SNAPSHOT = ("find / -xdev \\( -path /proc -o -path /sys -o -path /run -o -path /tmp "
            "-o -path /var/tmp -o -path /var/log -o -path /var/cache -o -path /var/lib/apt "
            "-o -path /var/lib/dpkg -o -path /root -o -path /var/lib/systemd/timers "
            "-o -path /dev \\) -prune -o -print | sort")


def unit_prop(g, unit, prop):
    return g.run(["systemctl", "show", "-p", prop, "--value", unit]).out.strip()


def status_fields(g, pid):
    out = {}
    for line in g.run(["cat", "/proc/%s/status" % pid]).out.splitlines():
        k, _, v = line.partition(":")
        out[k] = v.split()
    return out


def push_tools(g):
    g.run(["mkdir", "-p", "/root/tw"])
    with open(os.path.join(guestlab.HERE, "inguest.py"), "rb") as fh:
        g.put("/root/tw/inguest.py", fh.read(), mode="0755")


def install(ctx):
    g, res = ctx.guest, ctx.result
    ctx.shared["files_before"] = g.sh(SNAPSHOT, timeout=120).out.splitlines()
    g.run(["mkdir", "-p", "/root/debs"])
    names = []
    for p in ctx.debs:
        with open(p, "rb") as fh:
            g.put("/root/debs/" + os.path.basename(p), fh.read())
        names.append("./" + os.path.basename(p))
    d = g.run(["apt", "install", "-y"] + names, cwd="/root/debs", timeout=300, check=False,
              env={"DEBIAN_FRONTEND": "noninteractive"})
    res.checked("`apt install ./tunewatchd_*.deb ./monitoring-plugins-tunewatch_*.deb` "
                "with no network", d.rc == 0, "exit %d %s" % (d.rc, d.err.strip()[-300:])
                if d.rc else "installed in %.1f s" % d.seconds)
    state = g.run(["systemctl", "is-enabled", "tunewatchd"], check=False).out.strip()
    res.checked("the unit is installed disabled, as README.Debian says", state == "disabled",
                state)


def setup_as_readme(g):
    g.sh("printf '%%s' '%s' >>/etc/snmp/snmpd.conf" % SNMPD_LINES)
    g.run(["chmod", "0755", "/var/agentx"])
    g.run(["systemctl", "restart", "snmpd"])
    g.run(["systemctl", "enable", "--now", "tunewatchd"], timeout=120)


def at_boot(ctx):
    g, res = ctx.guest, ctx.result
    g.reboot()
    res["boot"] = g.boot_seconds
    for unit in ("snmpd", "tunewatchd"):
        en = g.run(["systemctl", "is-enabled", unit], check=False).out.strip()
        act = g.run(["systemctl", "is-active", unit], check=False).out.strip()
        res.checked("%s enabled and started by systemd at boot" % unit,
                    en == "enabled" and act == "active", "%s, %s" % (en, act))
    d = g.run(["python3", "/root/tw/inguest.py", "answer-after-boot", VERSION], timeout=120)
    up = guestlab.json_of(d)["uptime_s"]
    res.checked("tunewatchd answers through snmpd after the boot", True,
                "at %.1f s of the guest's uptime (multi-user at %.1f s)"
                % (up, g.boot_seconds["uptime"]))
    restarts = unit_prop(g, "tunewatchd", "NRestarts")
    res.checked("tunewatchd was not restarted by systemd", restarts == "0",
                "NRestarts=%s" % restarts)


def hardening(ctx):
    g, res = ctx.guest, ctx.result
    pid = unit_prop(g, "tunewatchd", "MainPID")
    assert pid not in ("", "0"), "tunewatchd has no main process"
    uid = g.run(["id", "-u", "_tunewatch"]).out.strip()
    gid = g.run(["id", "-g", "_tunewatch"]).out.strip()
    st = status_fields(g, pid)
    res.checked("tunewatchd gave up root for _tunewatch (real, effective, saved, fs ids)",
                st["Uid"] == [uid] * 4 and st["Gid"] == [gid] * 4,
                "Uid %s, Gid %s" % (" ".join(st["Uid"]), " ".join(st["Gid"])))
    res.checked("no capability left (CapEff, CapPrm)",
                int(st["CapEff"][0], 16) == 0 and int(st["CapPrm"][0], 16) == 0,
                "CapEff %s CapPrm %s" % (st["CapEff"][0], st["CapPrm"][0]))
    res.checked("NoNewPrivs", st.get("NoNewPrivs") == ["1"],
                "NoNewPrivs %s" % " ".join(st.get("NoNewPrivs") or ["(none)"]))
    mounts = {}
    for line in g.run(["cat", "/proc/%s/mountinfo" % pid]).out.splitlines():
        f = line.split()
        mounts[f[4]] = f[5].split(",")
    res.checked("ProtectSystem=strict: / is read-only in its view", "ro" in mounts.get("/", []),
                "/ %s" % ",".join(mounts.get("/", [])))
    res.checked("PrivateTmp: a /tmp of its own", "/tmp" in mounts, "mounts at /tmp: %s"
                % ("yes" if "/tmp" in mounts else "none"))
    res.checked("ProtectHome: /home hidden", "/home" in mounts, ",".join(mounts.get("/home", [])))
    d = g.run(["systemd-analyze", "security", "--no-pager", "tunewatchd.service"],
              check=False, timeout=60)
    score = [x for x in d.out.splitlines() if "Overall exposure level" in x]
    res.checked("systemd-analyze security", bool(score),
                score[0].split("for tunewatchd.service:")[-1].strip() if score else d.err)


def restarts(ctx):
    g, res = ctx.guest, ctx.result
    backs, runs = [], []
    for _ in range(RESTARTS):
        d = g.run(["python3", "/root/tw/inguest.py", "restart-snmpd", VERSION, "30"],
                  timeout=90)
        runs.append(guestlab.json_of(d))
        backs.append(runs[-1]["back_s"])
    res["restarts"] = runs
    # As TESTING.md's faults table holds it: within 2 s of snmpd answering.
    after = [r["back_s"] - r["snmpd_s"] if r["back_s"] is not None else None for r in runs]
    ok = all(a is not None and a <= RESTART_LIMIT_S for a in after)
    if not ok:
        # What an administrator would look at: the socket, and both logs.
        d = g.sh("ls -la /var/agentx; journalctl -b -u tunewatchd -n 15 --no-pager -o cat; "
                 "journalctl -b -u snmpd -n 15 --no-pager -o cat", check=False)
        res.note("after the restarts: %s" % d.out[-3000:].replace("\n", " | "))
    res.checked("`systemctl restart snmpd`: tunewatchd's tables answer within %.0f s of snmpd "
                "answering" % RESTART_LIMIT_S, ok,
                "%s s after snmpd (snmpd answered %s s, the tables %s s after the restart "
                "returned)" % (", ".join("%.2f" % a if a is not None else "never" for a in after),
                               ", ".join("%s" % x.get("snmpd_s") for x in runs),
                               ", ".join("%.2f" % b if b is not None else "never in 30"
                                         for b in backs)))
    # Where the time went, by the journal on the guest's clock: snmpd ready
    # (its unit is Type=notify) -> tunewatchd's AgentX session open again
    # (it retries once a second, Net-SNMP's agentxPingInterval at its
    # least) -> the tables answering an NMS's get.
    res.note("the restarts, split by the journal (s from each restart's return; "
             "ready: systemd's Started snmpd.service; registered: tunewatchd's session open): "
             + "; ".join("lost %s, ready %s, registered %s, snmpd answered %s, tables %s" % (
                 r.get("lost_s"), r.get("ready_s"), r.get("registered_s"), r.get("snmpd_s"),
                 r.get("back_s")) for r in runs))
    walk = ctx.agent.walk(DISK_NAMES)
    res.checked("its tables are back (twDiskTable walked)", bool(walk),
                "%d disks" % len(walk or []))


def journal(ctx):
    g, res = ctx.guest, ctx.result
    d = g.run(["journalctl", "-b", "-u", "tunewatchd", "--no-pager", "-o", "json"], timeout=60)
    msgs = [guestlab.json_line(x) for x in d.out.splitlines() if x.strip()]
    mine = [m for m in msgs if m.get("SYSLOG_IDENTIFIER") == "tunewatchd"]
    text = [str(m.get("MESSAGE", "")) for m in mine]
    reg = [t for t in text if "registered with the master agent" in t]
    start = [t for t in text if "sampling every" in t]
    res.checked("its log is in the journal under tunewatchd (start, registrations)",
                bool(start) and len(reg) >= 1 + RESTARTS,
                "%d lines; %r; %d registrations" % (len(mine), start[:1], len(reg)))


def checks(ctx):
    res = ctx.result
    states = {}
    for c in ("check_bufcache", "check_dblock", "check_disklatency"):
        out = ctx.agent.check(c)
        states[c] = out.state
    res["worst"] = states
    res.checked("the three installed checks give a status", all(
        s in ("OK", "WARNING", "CRITICAL") for s in states.values()),
        ", ".join("%s %s" % kv for kv in states.items()))


def run(ctx):
    g = ctx.guest
    ctx.result["where"] = "a Debian bookworm guest (qemu TCG), systemd, cgroup v2"
    push_tools(g)
    install(ctx)
    setup_as_readme(g)
    at_boot(ctx)
    ctx.shared["installed"] = True
    # What the package and its set-up added (scenario_zz_purge holds purge
    # to removing it; the scenarios after this one add files of their own).
    ctx.shared["files_installed"] = g.sh(SNAPSHOT, timeout=120).out.splitlines()
    hardening(ctx)
    restarts(ctx)
    journal(ctx)
    checks(ctx)
