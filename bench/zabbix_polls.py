#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""What Zabbix's SNMP pollers ask of snmpd for contrib/zabbix's template on
a host with 100 disks and 500 services, counted by snmpd itself.

tunewatchd runs on a generated root (bench/mkroot.py: 100 disks, 500 cgroup
v2 services under system.slice, cgroupMax 501 so that every one and
system.slice are published) behind a private snmpd; Debian's Zabbix 6.0
server (tests/integration/zbxtest.py) polls it through one SNMPv2c
interface with bulk requests on (Zabbix's default).
snmpd's SNMPv2-MIB counters (snmpInPkts, snmpInGetRequests,
snmpInGetNexts, snmpInTotalReqVars) are read before and after:

0. for comparison, snmpbulkwalk -Cr10 of every column the rules walk;
1. one discovery: "Execute now" of the six discovery rules, with every
   interval of the host at a day so that nothing else is polled; the
   counters are read once they have moved and then stood still for 5 s;
2. polling: the items' interval set to 20 s, the counters read after a
   cycle ends and again after three more, divided by three.

The counters' own reads are taken off (one GetRequest of 8 varbinds
each). A GetBulk is a packet that is neither a Get nor a GetNext;
snmpInTotalReqVars counts the varbinds snmpd returned for Gets, GetNexts
and GetBulks (a GetBulk of 10 repetitions of one column counts 10).
Run: make bench-zabbix (root or not; about 5 minutes)."""

import argparse
import os
import sys
import time

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTERS = {"packets": 1, "varbinds": 13, "gets": 15, "getnexts": 16}
# The counters read, in this order: the four above and four more that must
# not move (tooBig and errors would mean the bulk size was cut).
EXTRA = {"inTooBigs": 8, "outTooBigs": 20, "genErrs": 24, "outNoSuchNames": 21}
OWN_READ = {"packets": 1, "varbinds": len(COUNTERS) + len(EXTRA), "gets": 1, "getnexts": 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", default=os.getcwd())
    ap.add_argument("--disks", type=int, default=100)
    ap.add_argument("--services", type=int, default=500)
    ap.add_argument("--cycles", type=int, default=3)
    args = ap.parse_args()
    os.environ["top_srcdir"] = SRCDIR
    os.environ["top_builddir"] = os.path.abspath(args.builddir)
    sys.path.insert(0, os.path.join(SRCDIR, "tests", "integration"))
    sys.path.insert(0, os.path.join(SRCDIR, "bench"))
    import mkroot
    import twtest
    import zabbix_server as zs
    import zbxtest

    why = zbxtest.present()
    if why:
        sys.exit("zabbix_polls: " + why)
    with twtest.Harness("zabbix-polls") as h:
        root = mkroot.make_root(os.path.join(h.dir, "root"), args.disks, 2, twtest.FIXTURES)
        mkroot.add_cgroups(root, args.services)
        with open(os.path.join(root, "proc", "vmstat"), "a") as fh:
            fh.write("pgsteal_kswapd 1000\npgsteal_direct 10\n")    # twBcReclaimRate
        conf = os.path.join(h.dir, "tunewatchd.conf")
        with open(conf, "w") as fh:
            fh.write("cgroupMax %d\n" % (args.services + 1))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=5,
                      window=10, args=["-c", conf])
        rows = {t: len(zs.table_indexes(h, c)) for t, c in (
            ("disks", "DISK_NAME"), ("pools", "DBLOCK_NAME"), ("services", "CGROUP_PATH"),
            ("sockets", "SOCKDROP_PROTOCOL_NAME"), ("probes", "PROBE_DEVICE"))}
        rows["findings"] = len(zs.finding_indexes(h))
        say("tunewatchd's tables: %s" % ", ".join("%s %d" % kv for kv in rows.items()))

        def read():
            names = list(COUNTERS) + list(EXTRA)
            nums = list(COUNTERS.values()) + list(EXTRA.values())
            v = h.get(["1.3.6.1.2.1.11.%d.0" % n for n in nums])
            return dict(zip(names, (x.num for x in v)))

        def delta(a, b, reads):
            d = {k: b[k] - a[k] - reads * OWN_READ.get(k, 0) for k in a}
            d["getbulks"] = d["packets"] - d["gets"] - d["getnexts"]
            return d

        def settle(quiet=3.0, timeout=600, moved_first=False):
            """Read the counters until they stand still for `quiet` s (after
            they have first moved, with moved_first): (counters, reads
            made)."""
            last, reads, since = read(), 1, time.monotonic()
            moved_once = not moved_first
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                time.sleep(0.5)
                now = read()
                reads += 1
                moved = {k: now[k] - last[k] - OWN_READ.get(k, 0) for k in COUNTERS}
                if any(moved.values()):
                    since, moved_once = time.monotonic(), True
                elif moved_once and time.monotonic() - since >= quiet:
                    return now, reads
                last = now
            raise AssertionError("snmpd's counters did not settle")

        # For comparison: snmpbulkwalk -Cr10 of each column the rules walk.
        import yaml
        with open(zs.TEMPLATE) as fh:
            doc = yaml.safe_load(fh)
        columns = [oid for rule in doc["zabbix_export"]["templates"][0]["discovery_rules"]
                   for oid in rule["snmp_oid"][len("discovery["):-1].split(",")[1::2]]
        before, r0 = read(), 1
        for col in columns:
            r = h.run_client([h.snmpbulkwalk_bin, "-v2c", "-c", "public", "-Cr10", "-On",
                              "127.0.0.1:%d" % h.port, col])
            assert r.returncode == 0, r.stderr
        ref = delta(before, read(), 1)
        say("for comparison, snmpbulkwalk -Cr10 of the %d columns the rules walk: %s"
            % (len(columns), fmt(ref)))

        with zbxtest.Zabbix(h) as z:
            z.start_db()
            z.start_server()
            z.start_frontend()
            z.login()
            with open(zs.TEMPLATE) as fh:
                assert z.call("configuration.import", {"format": "yaml", "source": fh.read(),
                                                       "rules": zs.import_rules()}) is True
            tpl = z.call("template.get", {"filter": {"host": zs.TEMPLATE_NAME},
                                          "output": ["templateid"]})[0]["templateid"]
            group = z.call("hostgroup.create", {"name": "tunewatch bench"})["groupids"][0]
            day = {m: "1d" for m in ("{$TW.INTERVAL}", "{$TW.LLD.INTERVAL}",
                                     "{$TW.FINDING.LLD.INTERVAL}")}
            hostid = z.call("host.create", {
                "host": "tw-scale", "groups": [{"groupid": group}],
                "templates": [{"templateid": tpl}],
                "interfaces": [{"type": 2, "main": 1, "useip": 1, "ip": "127.0.0.1", "dns": "",
                                "port": str(h.port), "details": {"version": 2, "bulk": 1,
                                                                 "community": "public"}}],
                "macros": [{"macro": k, "value": v} for k, v in day.items()]})["hostids"][0]
            # The host's items (template items, not discovered ones) poll
            # when they come due within the day; wait for the interface to
            # be known available, then let everything settle.
            time.sleep(5)
            rules = z.call("discoveryrule.get", {"hostids": hostid, "output": ["itemid", "key_"]})
            assert len(rules) == 6, rules
            before, r0 = settle()
            t = time.monotonic()
            z.call("task.create", [{"type": 6, "request": {"itemid": r["itemid"]}} for r in rules])
            # The task manager hands the task on within seconds; the walks
            # then run back to back.
            after, r1 = settle(quiet=5.0, moved_first=True)
            disc = delta(before, after, r1)
            say("one discovery (6 rules, 'Execute now'): %s in %.1f s" % (fmt(disc),
                                                                        time.monotonic() - t))

            def count():
                return len(z.call("item.get", {"hostids": hostid, "output": ["itemid"],
                                               "webitems": False}))
            want_items = None
            n, stable = -1, 0
            deadline = time.monotonic() + 900
            while time.monotonic() < deadline:
                time.sleep(5)
                c = count()
                stable = stable + 1 if c == n else 0
                n = c
                if stable >= 3:
                    want_items = c
                    break
            assert want_items, "discovery did not finish making items"
            say("items on the host after discovery: %d" % want_items)

            # Polling: every item every 20 s, then three cycles counted.
            macro = z.call("usermacro.get", {"hostids": hostid, "filter": {
                "macro": "{$TW.INTERVAL}"}, "output": ["hostmacroid"]})[0]
            z.call("usermacro.update", {"hostmacroid": macro["hostmacroid"], "value": "20s"})
            z.runtime("config_cache_reload")
            reads, last = 0, None
            since_move = time.monotonic()
            burst = False
            deadline = time.monotonic() + 60 * (args.cycles + 3)
            marks = []
            while time.monotonic() < deadline and len(marks) < args.cycles + 1:
                now = read()
                reads += 1
                if last is not None:
                    moved = any(now[k] - last[k] - OWN_READ.get(k, 0) for k in COUNTERS)
                    if moved:
                        burst, since_move = True, time.monotonic()
                    elif burst and time.monotonic() - since_move >= 3:
                        burst = False
                        marks.append((now, reads, time.monotonic()))
                last = now
                time.sleep(0.5)
            assert len(marks) == args.cycles + 1, "saw %d polling cycles" % len(marks)
            (a, ra, ta), (b, rb, tb) = marks[0], marks[-1]
            poll = delta(a, b, rb - ra)
            per = {k: v / args.cycles for k, v in poll.items()}
            items = z.call("item.get", {"hostids": hostid, "output": ["itemid", "state", "key_",
                                                                         "error", "lastclock"],
                                        "webitems": False})
            polled = [i for i in items if i["lastclock"] != "0"]
            bad = [i for i in items if i["state"] == "1"]
            for i in bad:
                say("unsupported: %s: %s" % (i["key_"], i["error"]))
            say("one polling cycle (mean of %d, %.0f s apart): %s; %d of %d items with a "
                "value, %d unsupported" % (args.cycles, (tb - ta) / args.cycles, fmt(per),
                                           len(polled), len(items), len(bad)))
            assert not (disc["inTooBigs"] or disc["outTooBigs"] or poll["outTooBigs"]), \
                (disc, poll)


def fmt(d):
    return ("%(packets).0f requests (%(gets).0f Get, %(getnexts).0f GetNext, %(getbulks).0f "
            "GetBulk), %(varbinds).0f varbinds; tooBig %(outTooBigs).0f, genErr %(genErrs).0f"
            % d)


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
