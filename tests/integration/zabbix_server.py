#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/zabbix/tunewatch_template.yaml in Debian's real Zabbix 6.0 server
(zbxtest.py: PostgreSQL 15, zabbix_server and the PHP frontend, all on
127.0.0.1 in the test's directory), against tunewatchd behind a real snmpd
on a fixture whose CPU 1 input queue drops packets while the test says so:

1. the server's version is checked first: another than 6.0 skips, saying
   so (the template is a 6.0 export); the frontend's API must be the same
   version as the server;
2. configuration.import of the template returns true, and PHP logs no
   warning;
3. two hosts link it, one whose SNMP interface is SNMPv2c and one SNMPv3
   (authPriv, SHA and AES) on the same snmpd; with the intervals shortened
   by the template's own macros, every discovery rule finds every row of
   its table that snmpbulkwalk reads (disks, pools, services, a socket
   and, as root, a probed loop device), every item gets a value and none
   is unsupported; a cgroup named /system.slice/{$TW.R_AWAIT.WARN} is
   named so in its items and triggers (its '{' as \\x7b), never with the
   macro's value;
4. the drops: the finding's problem opens on both hosts, named for the
   symptom and its evidence, its operational data the tune line (the
   tunable, its value, the value suggested) and the command that applies
   it, tagged with the finding id check_dblock prints; the pool's trigger
   fires too; the socket's drops make a finding for which no tunable
   applies, whose problem says so; every finding row is discovered; the
   notification reaches the host's SNMP trap item through snmptrapd
   (contrib/snmptrapd/snmptrapd.conf), snmptt
   (contrib/zabbix/tunewatch-snmptt.conf) and the server's SNMP trapper;
   headless Chromium takes a picture of the Problems view
   (doc/zabbix-problem.png is one);
5. the apply line done in the fixture (1000 -> 2000) and the drops stopped:
   the findings' rows go, and every problem resolves; the cleared
   findings' items are the only unsupported ones, each with Zabbix's own
   "No Such Instance" error and marked lost by discovery;
6. bad input: a third host on snmpsim replaying a walk of tunewatchd with
   sda's r_await a string: that item is unsupported with Zabbix's own
   error, and its triggers are in state unknown, never OK; a finding row
   the replay adds, whose subject and evidence spell the same macro, is a
   problem that shows both as text.

zabbix_server's log must hold no line about an item of the template
becoming unsupported other than those above. Every wait is bounded;
timings are printed."""

import binascii
import contextlib
import os
import re
import shutil
import sys
import threading
import time

import foreign_agent
import notify_rt
import plugin_cgroups
import plugin_common as pc
import probe_common
import prometheus_snmp
import trapsink
import twtest
import zbxtest
from twtest import oid

TEMPLATE = os.path.join(twtest.TOP_SRCDIR, "contrib", "zabbix", "tunewatch_template.yaml")
TEMPLATE_NAME = "Linux tunewatch by SNMP"
V3 = ("twv3user", "tw-auth-passphrase", "tw-priv-passphrase")
# The test's pace: the template's own macros on each host.
# The probe's thresholds are raised (here and in tunewatchd.conf): a
# machine busy with other work delays reads by tens of ms at times, and
# a problem that comes and goes is not what this test is about.
MACROS = {"{$TW.INTERVAL}": "2s", "{$TW.LLD.INTERVAL}": "5s",
          "{$TW.FINDING.LLD.INTERVAL}": "2s", "{$TW.FINDING.GONE}": "30s",
          "{$TW.PROBE_P90.WARN}": "1000", "{$TW.PROBE_P90.CRIT}": "2000"}
# Each discovery rule's table, by the prefix of its index column in
# twtest's names, and the item prototype every row gets.
RULES = {"tunewatch.disk.discovery": ("DISK_NAME", "tunewatch.disk.r_await"),
         "tunewatch.dblock.discovery": ("DBLOCK_NAME", "tunewatch.dblock.tunable"),
         "tunewatch.cgroup.discovery": ("CGROUP_PATH", "tunewatch.cgroup.refaults"),
         "tunewatch.socket.discovery": ("SOCKDROP_PROTOCOL_NAME", "tunewatch.socket.drops"),
         "tunewatch.probe.discovery": ("PROBE_DEVICE", "tunewatch.probe.state"),
         "tunewatch.finding.discovery": (None, "tunewatch.finding.severity")}
# A cgroup named after a macro: '{' comes through discovery as \x7b.
MACRO_NAME = "{$TW.R_AWAIT.WARN}"
HOSTILE = "/system.slice/" + MACRO_NAME
T0 = time.monotonic()


def say(text):
    sys.stdout.write("[%5.1f s] %s\n" % (time.monotonic() - T0, text))
    sys.stdout.flush()


def import_rules():
    yes = {"createMissing": True, "updateExisting": True}
    return {"groups": {"createMissing": True}, "templates": yes, "items": yes, "triggers": yes,
            "discoveryRules": yes, "valueMaps": yes, "templateLinkage": {"createMissing": True}}


def create_host(z, name, port, details, template_id, group_id):
    macros = [{"macro": k, "value": v} for k, v in MACROS.items()]
    r = z.call("host.create", {
        "host": name, "groups": [{"groupid": group_id}], "templates": [{"templateid": template_id}],
        "interfaces": [{"type": 2, "main": 1, "useip": 1, "ip": "127.0.0.1", "dns": "",
                        "port": str(port), "details": details}],
        "macros": macros})
    return r["hostids"][0]


def items(z, hostid, **filt):
    return z.call("item.get", {"hostids": hostid, "output": ["itemid", "key_", "state", "error",
                                                              "lastclock", "lastvalue", "name"],
                               "selectItemDiscovery": ["ts_delete", "lastcheck"],
                               "filter": filt, "webitems": False})


def index_of(key):
    m = re.search(r"\[([0-9.]+)\]$", key)
    return m.group(1) if m else None


def table_indexes(h, column):
    """The indexes of one column of a table as snmpbulkwalk reads them."""
    prefix = oid(column, None) + "."
    return {v.oid[len(prefix):] for v in h.walk(prefix[:-1], bulk=True) if v.oid.startswith(prefix)}


def finding_indexes(h):
    return set(trapsink.col(twtest.as_dict(h.walk(trapsink.FINDINGS, bulk=True)), "ID"))


def discovered(z, hostid, proto):
    """{index} of the items made from one item prototype on a host."""
    return {index_of(i["key_"]) for i in items(z, hostid) if i["key_"].startswith(proto + "[")}


def check_discovery(z, h, hosts):
    """Every rule finds every row, every item has a value, none is
    unsupported."""
    def complete():
        for hostid in hosts.values():
            for rule, (column, proto) in RULES.items():
                want = finding_indexes(h) if column is None else table_indexes(h, column)
                if discovered(z, hostid, proto) != want:
                    return None
            its = items(z, hostid)
            if [i for i in its if i["lastclock"] == "0" and i["state"] == "0" and
                    not i["key_"].startswith("snmptrap[")]:
                return None
            if [i for i in its if i["state"] == "1"]:
                return None
        return True
    try:
        twtest.wait_for("discovery of every row and a value of every item", complete,
                        timeout=120, step=2)
    except AssertionError:
        for name, hostid in hosts.items():
            for rule, (column, proto) in RULES.items():
                want = finding_indexes(h) if column is None else table_indexes(h, column)
                got = discovered(z, hostid, proto)
                if got != want:
                    sys.stdout.write("%s %s: discovered %s, the table has %s\n" % (
                        name, rule, sorted(got), sorted(want)))
            for i in items(z, hostid):
                if i["state"] == "1" or i["lastclock"] == "0":
                    sys.stdout.write("%s %s: state %s, lastclock %s, error %r\n" % (
                        name, i["key_"], i["state"], i["lastclock"], i["error"]))
        raise
    for name, hostid in hosts.items():
        n = {rule: len(discovered(z, hostid, proto)) for rule, (_, proto) in RULES.items()}
        say("%s: %d items, all with a value, none unsupported; rows discovered: %s" % (
            name, len(items(z, hostid)), ", ".join("%s %d" % (r.split(".")[1], c)
                                                   for r, c in n.items())))


def hostile_names(z, hostid):
    """The cgroup named {$TW.R_AWAIT.WARN}: its items and triggers name it
    as text, \\x7b for its '{', never the macro's value."""
    shown = "/system.slice/\\x7b$TW.R_AWAIT.WARN}"
    every = [t["description"] for t in z.call("trigger.get", {
        "hostids": hostid, "output": ["description"], "expandDescription": True,
        "search": {"description": "refaults over"}})]
    trig = [d for d in every if shown + " " in d]
    # Expanded, the macro would read 20: '/system.slice/20 refaults over ...'.
    assert len(trig) == 2 and not [d for d in every if "/system.slice/20 " in d], every
    names = [i["name"] for i in items(z, hostid) if "R_AWAIT" in i["name"]]
    assert len(names) == 5 and all(shown + ": " in n for n in names), names
    say("a cgroup named %s: its %d items and %d triggers name it %s" % (
        HOSTILE, len(names), len(trig), shown))


def problems(z, hostid, **extra):
    params = {"hostids": hostid, "output": "extend", "selectTags": "extend", "recent": True,
              "sortfield": ["eventid"]}
    params.update(extra)
    return z.call("problem.get", params)


def test():
    if os.environ.get("TW_SANITIZERS") == "yes":
        # About 3 minutes a run, nearly all of it Zabbix's (loading its
        # database, its pollers' and timer's pace): what it proves is the
        # template in Zabbix. The tables it polls are served under the
        # sanitizers by agent_walk.py, prometheus_snmp.py and the rest.
        raise twtest.Skip("a sanitizer build: this test proves the Zabbix template, not "
                          "tunewatchd's memory, and runs in the normal build's suite")
    why = zbxtest.present()
    if why:
        raise twtest.Skip(why)
    text, version = zbxtest.server_version()
    if version != zbxtest.VERSION:
        raise twtest.Skip("zabbix_server here is %r, not %s: contrib/zabbix/"
                          "tunewatch_template.yaml is a Zabbix %s export, and this test "
                          "proves it in that version only"
                          % (text, zbxtest.VERSION, zbxtest.VERSION))
    with twtest.Harness("zabbix") as h, contextlib.ExitStack() as stack:
        root = prometheus_snmp.make_root(h)
        with open(os.path.join(root, "proc", "net", "udp"), "w") as fh:
            fh.write(prometheus_snmp.UDP % 37)
        # The host's own reclaim, as every kernel since 4.8 counts it (the
        # agent fixture predates twBcReclaimRate).
        with open(os.path.join(root, "proc", "vmstat"), "a") as fh:
            fh.write("pgsteal_kswapd 1000\npgsteal_direct 10\n")
        # A cgroup a user could make, whose name spells a macro of the
        # template's: it must reach Zabbix's names as text.
        os.makedirs(os.path.join(root, "sys", "fs", "cgroup", HOSTILE.lstrip("/")))
        for f, text in (("memory.max", "%d\n" % (48 << 20)), ("memory.current", "1000000\n"),
                        ("memory.stat", "file 500000\nworkingset_refault_file 10\n")):
            plugin_cgroups.write(root, HOSTILE + "/" + f, text)
        conf = ["findingRaiseAfter 2", "findingClearAfter 2"]
        loop = probe_device(h, stack, root)
        if loop:
            conf += ["probe %s 10" % loop.name, "probeLatencyWarning 1000",
                     "probeLatencyCritical 2000"]
        drops, sock, disk = notify_rt.Drops(root), SocketDrops(root), SlowReads(root)
        for t in (drops, sock, disk):
            t.start()
            stack.callback(t.stop.set)
        z = stack.enter_context(zbxtest.Zabbix(h))
        run(h, z, root, (drops, sock, disk), conf, stack)


class SlowReads(threading.Thread):
    """Rewrites the fixture's /proc/diskstats every 0.25 s: while `ms` is
    set, sda completes 10 reads of `ms` milliseconds each (r_await = ms),
    its read ticks wrapping at 2^32 as the kernel's do."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.path = os.path.join(root, "proc", "diskstats")
        with open(self.path) as fh:
            self.lines = fh.read().splitlines()
        self.ms = 0
        self.stop = threading.Event()

    def run(self):
        while not self.stop.wait(0.25):
            if not self.ms:
                continue
            out = []
            for line in self.lines:
                f = line.split()
                if f[2] == "sda":
                    f[3] = str(int(f[3]) + 10)
                    f[6] = str((int(f[6]) + 10 * self.ms) % (1 << 32))
                out.append(" ".join(f))
            self.lines = out
            with open(self.path + ".tmp", "w") as fh:
                fh.write("\n".join(out) + "\n")
            os.rename(self.path + ".tmp", self.path)


class SocketDrops(threading.Thread):
    """Writes the fixture's UDP socket (0.0.0.0:514, inode 424242) every
    0.25 s, its drop count growing by `rate` each time (0: no drops)."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.path = os.path.join(root, "proc", "net", "udp")
        self.rate = 0
        self.count = 37
        self.stop = threading.Event()

    def run(self):
        while not self.stop.wait(0.25):
            self.count += self.rate
            with open(self.path + ".tmp", "w") as fh:
                fh.write(prometheus_snmp.UDP % self.count)
            os.rename(self.path + ".tmp", self.path)


def probe_device(h, stack, root):
    """A loop device over a file in memory (/dev/shm where there is room),
    known to the fixture's /sys, for a row of twProbeTable; None, said
    why, without root or losetup."""
    if os.geteuid() != 0 or not twtest.which("losetup"):
        say("no probe: a loop device needs root and losetup; twProbeTable stays empty")
        return None
    loop = stack.enter_context(probe_common.Loop(
        probe_common.memory_backing_path("zabbix", 16), mib=16))
    block = os.path.join(root, "sys", "block", loop.name)
    os.makedirs(os.path.join(block, "queue"))
    for rel, text in (("dev", loop.majmin()), ("queue/rotational", "0"),
                      ("stat", "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0")):
        with open(os.path.join(block, rel), "w") as fh:
            fh.write(text + "\n")
    say("probe: %s (%s) over a 16 MiB file (%s), 10 reads a second" % (
        loop.dev, loop.majmin(), loop.backing))
    return loop


def run(h, z, root, drops, conf_lines, stack):
    drops, sock, disk = drops
    trap_conf = z.start_trapd()
    h.start_snmpd('createUser %s SHA "%s" AES "%s"\nrouser %s priv\n'
                  'trap2sink 127.0.0.1:%d public\n[snmp] clientaddr 127.0.0.1\n'
                  % (V3[0], V3[1], V3[2], V3[0], z.trap_port))
    conf = os.path.join(h.dir, "tunewatchd.conf")
    with open(conf, "w") as fh:
        fh.write("\n".join(conf_lines) + "\n")
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=1, window=4,
                  args=["-c", conf])
    say("snmpd on 127.0.0.1:%d, tunewatchd every second (window 4 s); snmptrapd with %s"
        % (h.port, trap_conf))

    z.start_db()
    say("PostgreSQL 15 on 127.0.0.1:%d with Zabbix's schema, images and data" % z.pg_port)
    z.start_server()
    z.start_frontend()
    api = z.call("apiinfo.version", {}, auth=False)
    _, version = zbxtest.server_version()
    assert api.startswith(version + "."), "the frontend's API is %s, the server %s" % (api,
                                                                                     version)
    z.login()
    say("zabbix_server on 127.0.0.1:%d, the API %s on %s" % (z.server_port, api, z.url))

    with open(TEMPLATE) as fh:
        source = fh.read()
    t = time.monotonic()
    r = z.call("configuration.import", {"format": "yaml", "source": source,
                                         "rules": import_rules()})
    assert r is True, r
    warned = [l for l in z.php_log().splitlines() if re.search(r"Warning|Notice|Deprecated|Error",
                                                                l)]
    assert not warned, "PHP said, importing the template:\n" + "\n".join(warned)
    tpl = z.call("template.get", {"filter": {"host": TEMPLATE_NAME}, "output": ["templateid"]})
    assert len(tpl) == 1, tpl
    say("configuration.import: true in %.1f s, no warning" % (time.monotonic() - t))

    t = time.monotonic()
    group = z.call("hostgroup.create", {"name": "tunewatch test"})["groupids"][0]
    hosts = {
        "tw-v2c": create_host(z, "tw-v2c", h.port, {"version": 2, "bulk": 1,
                                                      "community": "public"},
                              tpl[0]["templateid"], group),
        "tw-v3": create_host(z, "tw-v3", h.port, {
            "version": 3, "bulk": 1, "securityname": V3[0], "securitylevel": 2,
            "authprotocol": 1, "authpassphrase": V3[1], "privprotocol": 1,
            "privpassphrase": V3[2], "contextname": ""}, tpl[0]["templateid"], group)}
    say("hosts tw-v2c and tw-v3 made, the template linked, in %.1f s" % (time.monotonic() - t))
    # The foreign agent's host is polled meanwhile; it is checked at the end.
    foreign = foreign_start(h, z, tpl[0]["templateid"], group, stack)
    t = time.monotonic()
    check_discovery(z, h, hosts)
    say("discovery complete %.1f s after the hosts were made" % (time.monotonic() - t))
    hostile_names(z, hosts["tw-v2c"])

    fid = symptom(h, z, hosts, drops, sock, disk)
    picture = z.screenshot(os.path.join(h.dir, "zabbix-problem.png"),
                           page="zabbix.php?action=problem.view&show_opdata=1&hostids[]=%s"
                           % hosts["tw-v2c"])
    say("headless Chromium's picture of the Problems view: %s (%d bytes)" % (
        picture, os.path.getsize(picture)))
    keep = os.environ.get("TW_ZABBIX_PNG")
    if keep:
        shutil.copy(picture, keep)
    apply_and_resolve(h, z, hosts, root, (drops, sock, disk), fid)
    if foreign:
        foreign_check(z, *foreign)
    check_logs(z)


def check_logs(z):
    """zabbix_server made unsupported only what the test expects: the
    cleared finding's items, and the foreign agent's string; the frontend
    said nothing."""
    seen = re.findall(r'item "(tw-[^:"]+):([^"]+)" became not supported', z.log())
    for host, key in seen:
        ok = key.startswith("tunewatch.finding.") if host in ("tw-v2c", "tw-v3") else \
            (host, key) == ("tw-foreign", "tunewatch.disk.r_await[8.0]")
        assert ok, "zabbix_server: %s:%s became not supported" % (host, key)
    warned = [l for l in z.php_log().splitlines() if l.strip()]
    assert not warned, "PHP said:\n" + "\n".join(warned)
    say("zabbix_server's log: %d items became unsupported, all expected; PHP's: nothing"
        % len(seen))


def tune_line(h):
    """(finding id, tune line, apply line) of check_dblock for the drops."""
    out = pc.run("check_dblock", ["-p", str(h.port)])
    i = next(k for k, l in enumerate(out.long)
             if l.startswith("tune: net.core.netdev_max_backlog "))
    fid = out.long[i + 1].split()[1]
    return fid, out.long[i], out.long[i + 2]


def trap_lines(z, hostid):
    """Every value of the host's SNMP trap item, oldest first."""
    item = [i for i in items(z, hostid) if i["key_"].startswith("snmptrap[")]
    assert len(item) == 1, item
    return [v["value"] for v in z.call("history.get", {
        "history": 2, "itemids": [item[0]["itemid"]], "output": ["value"],
        "sortfield": "clock", "sortorder": "ASC"})]


def symptom(h, z, hosts, drops, sock, disk):
    """The drops: the finding's problem, the pool's, the trap; the
    socket's drops: a finding with no tunable; sda's reads of 100 ms: a
    critical finding and r_await's critical trigger, each HIGH, their
    warning triggers held back by their dependency."""
    drops.rate, sock.rate, disk.ms = 20, 10, 100
    t = time.monotonic()
    opened = {}
    for name, hostid in hosts.items():
        opened[name] = twtest.wait_for("the softnet-drops problem on %s" % name, lambda: [
            p for p in problems(z, hostid) if "softnet-drops" in p["name"]],
            timeout=90, step=1)[0]
    say("the finding's problem opened %.1f s after the drops began" % (time.monotonic() - t))
    fid, tune, apply = tune_line(h)
    assert tune.startswith("tune: net.core.netdev_max_backlog 1000 -> 2000 "), tune
    assert apply == "  apply: sysctl -w net.core.netdev_max_backlog=2000", apply
    for name, p in opened.items():
        assert re.match(r"^tunewatch: softnet-drops on softnet backlog: cpu1 dropped \d+ packets "
                        r"in the last \d+ s \(warning range 0, failures in the window\)$",
                        p["name"]), p["name"]
        assert p["opdata"] == ("tune net.core.netdev_max_backlog 1000 -> 2000; apply: "
                               "sysctl -w net.core.netdev_max_backlog=2000"), p["opdata"]
        tags = [(x["tag"], x["value"]) for x in p["tags"]]
        assert ("finding", fid) in tags and \
            ("tunable", "net.core.netdev_max_backlog") in tags, (tags, fid)
        assert p["severity"] == "2", p       # WARNING
        say("%s: problem %r, operational data %r, tag finding=%s (check_dblock's id)" % (
            name, p["name"], p["opdata"], fid))
        twtest.wait_for("the pool's problem on %s" % name, lambda: [
            x for x in problems(z, hosts[name]) if x["name"] ==
            "tunewatch: pool cpu1 backlog failed in the window"], timeout=60, step=1)
        # The socket's own finding: its buffer is not what bounds it, so
        # no tunable (the udp memory pool's finding names net.ipv4.udp_mem).
        none = twtest.wait_for("the socket's problem on %s" % name, lambda: [
            x for x in problems(z, hosts[name]) if x["name"].startswith(
                "tunewatch: socket-rcvbuf on udp 0.0.0.0:514 inode 424242: ")],
            timeout=60, step=1)[0]
        assert re.match(r"^no tunable \(tw-[0-9a-f]{12}\)$", none["opdata"]), none
        assert "tunable" not in [x["tag"] for x in none["tags"]], none
        trap = twtest.wait_for("the notification at %s's SNMP trap item" % name, lambda: [
            v for v in trap_lines(z, hosts[name]) if
            "twFindingRaised softnet-drops on softnet backlog" in v], timeout=60, step=1)[0]
        assert "tune net.core.netdev_max_backlog 1000 -> 2000: sysctl -w "\
            "net.core.netdev_max_backlog=2000 [id %s]" % fid in trap, trap
    for name, hostid in hosts.items():
        slow = twtest.wait_for("sda's critical problems on %s" % name, lambda: (
            lambda ps: ps if len(ps) == 2 else None)([
                x for x in problems(z, hostid) if x["severity"] == "4" and
                (x["name"] == "tunewatch: sda r_await above 50 ms" or
                 x["name"].startswith("tunewatch: read-latency"))]), timeout=90, step=1)
        warned = [x for x in problems(z, hostid) if x["severity"] == "2" and (
            "r_await above 20" in x["name"] or x["name"].startswith("tunewatch: read-latency"))]
        assert not warned, "a warning beside its critical problem: %r" % warned
    say("sda's slow reads: %s, both HIGH; their warnings held back" % " and ".join(
        repr(x["name"]) for x in sorted(slow, key=lambda x: x["name"])))
    for name, hostid in hosts.items():
        rows, = twtest.wait_for("every finding row discovered on %s" % name, lambda: (
            lambda now: (now,) if now <= discovered(z, hostid, "tunewatch.finding.severity")
            else None)(finding_indexes(h)), timeout=30, step=1)
    say("a finding with no tunable: %r, operational data %r; the %d rows of twFindingTable "
        "discovered" % (none["name"], none["opdata"], len(rows)))
    say("the trap item: %r" % trap)
    return fid


def apply_and_resolve(h, z, hosts, root, drops, fid):
    """The apply line done in the fixture and the drops stopped (the
    socket's and the slow reads too): every problem resolves."""
    with open(os.path.join(root, "proc", "sys", "net", "core", "netdev_max_backlog"), "w") as fh:
        fh.write("2000\n")
    drops, sock, disk = drops
    drops.rate, sock.rate, disk.ms = 0, 0, 0
    t = time.monotonic()
    for name, hostid in hosts.items():
        def resolved():
            ps = problems(z, hostid)
            return ps if ps and all(p["r_eventid"] != "0" for p in ps) else None
        ps = twtest.wait_for("the problems on %s to resolve" % name, resolved, timeout=150,
                             step=1)
    say("the %d problems of each host resolved %.1f s after the change and the drops' end" % (
        len(ps), time.monotonic() - t))
    for name, hostid in hosts.items():
        twtest.wait_for("the clearing at %s's SNMP trap item" % name, lambda: [
            v for v in trap_lines(z, hostid) if
            "twFindingCleared softnet-drops on softnet backlog [id %s]" % fid in v],
            timeout=60, step=1)

        # Unsupported now: the cleared finding's items alone, with the
        # agent's answer, and marked lost by the next discovery.
        def lost():
            bad = [i for i in items(z, hostid) if i["state"] == "1"]
            return bad if bad and all(i["itemDiscovery"] and
                                      i["itemDiscovery"]["ts_delete"] != "0" for i in bad) else None
        bad = twtest.wait_for("the cleared finding's items marked lost", lost, timeout=60, step=1)
        for i in bad:
            assert i["key_"].startswith("tunewatch.finding."), i
            assert i["error"] == "No Such Instance currently exists at this OID", i
        say("%s: %d items unsupported, all the cleared findings' (No Such Instance), marked lost"
            % (name, len(bad)))


def replay_record(h):
    """tunewatchd's walk now as snmpsim's records, {oid: (tag, value)}."""
    rec = {}
    for v in h.walk(bulk=True):
        if v.type == "" and v.text == '""':           # an empty string
            rec[v.oid] = ("4x", "")
            continue
        assert v.type in foreign_agent.TAGS, "a type the replay cannot write: %r" % v
        rec[v.oid] = (foreign_agent.TAGS[v.type], foreign_agent.snmprec_value(v))
    return rec


def foreign_start(h, z, templateid, group, stack):
    """An agent that is not tunewatchd: snmpsim replaying tunewatchd's walk
    with sda's r_await a string, and a host on it: (hostid, when), or
    None, said why, without snmpsim."""
    binary = shutil.which("snmpsimd") or shutil.which("snmpsimd.py")
    if binary is None:
        say("snmpsim is not installed (Debian: apt-get install snmpsim): the foreign agent "
            "is not tried")
        return None
    rec = replay_record(h)
    sda = oid("DISK_READ_LATENCY", "8.0")
    assert sda in rec, "no r_await of sda in the walk"
    rec[sda] = ("4", "fast")
    # A finding whose subject and evidence spell a macro of the template's.
    row = {"ID": "tw-0123456789ab", "SYMPTOM": "socket-rcvbuf", "SEVERITY": 1,
           "SUBJECT": "udp 0.0.0.0:9 " + MACRO_NAME, "EVIDENCE": "dropped %s datagrams" % MACRO_NAME,
           "TUNABLE": "", "CURRENT": "", "SUGGESTED": "", "APPLY": "", "PERSIST": "",
           "DOCUMENTATION": "", "RAISED": 1796600000, "CHANGED": 1796600000, "OWNER": ""}
    for col, v in row.items():
        o = "%s.%d.99" % (trapsink.ENTRY, twtest._H["TW_OID_FINDING_" + col][0])
        rec[o] = ("2", str(v)) if col == "SEVERITY" else ("66", str(v)) if isinstance(v, int) \
            else ("4x", binascii.hexlify(v.encode()).decode())
    sim_h = stack.enter_context(twtest.Harness("zabbix-foreign"))
    sim_h.port = twtest.free_port()
    foreign_agent.Simulator(sim_h, binary).serve(rec)
    t = time.monotonic()
    return create_host(z, "tw-foreign", sim_h.port, {"version": 2, "bulk": 1,
                                                    "community": "public"},
                       templateid, group), t


def foreign_check(z, hostid, t):
    """That item is unsupported with Zabbix's own error; its triggers are
    unknown, never OK; the host's other disk items are polled."""
    key = "tunewatch.disk.r_await[8.0]"
    item = twtest.wait_for("%s unsupported on tw-foreign" % key, lambda: [
        i for i in items(z, hostid, key_=key) if i["state"] == "1"], timeout=90, step=1)[0]
    assert "fast" in item["error"], item
    trig = twtest.wait_for("the triggers of %s unknown" % key, lambda: (lambda ts: ts if len(
        ts) == 2 and all(x["state"] == "1" for x in ts) else None)(z.call("trigger.get", {
            "hostids": hostid, "itemids": [item["itemid"]],
            "output": ["description", "state", "value", "error"]})), timeout=60, step=1)
    assert all(x["value"] == "0" and x["error"] for x in trig), trig
    twtest.wait_for("the other disk items of tw-foreign polled", lambda: (lambda its: its and all(
        i["lastclock"] != "0" and i["state"] == "0" for i in its))([
            i for i in items(z, hostid) if i["key_"].startswith("tunewatch.disk.w_await[")]),
        timeout=60, step=1)
    say("tw-foreign (snmpsim, sda's r_await a string): %s unsupported (within %.1f s of the "
        "host's making) with %r; its %d triggers in state unknown (%r)" % (
            key, time.monotonic() - t, item["error"], len(trig), trig[0]["error"]))
    # The crafted finding: its subject came through discovery (\x7b), its
    # evidence through an item's value; neither is the macro's value.
    p = twtest.wait_for("the crafted finding's problem on tw-foreign", lambda: [
        x for x in problems(z, hostid) if x["name"].startswith("tunewatch: socket-rcvbuf on udp "
                                                              "0.0.0.0:9 ")], timeout=90, step=1)[0]
    want = "tunewatch: socket-rcvbuf on udp 0.0.0.0:9 %s: dropped %s datagrams" % (
        MACRO_NAME.replace("{", "\\x7b"), MACRO_NAME)
    assert p["name"] == want, (p["name"], want)
    say("a finding whose subject and evidence spell %s: problem %r" % (MACRO_NAME, p["name"]))


if __name__ == "__main__":
    twtest.main(test)
