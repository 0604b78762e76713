#!/usr/bin/env python3
"""contrib/prometheus/generator.yml through Debian's snmp_exporter.

1. prometheus-snmp-generator turns generator.yml, with mib/TUNEWATCH-MIB.txt,
   Debian's NET-SNMP-MIB and the IETF base modules (../shared/mibs or
   /usr/share/snmp/mibs/ietf), into snmp.yml, which must equal the shipped
   contrib/prometheus/snmp.yml byte for byte. Without the base modules the
   generator cannot place the module in the OID tree (NET-SNMP-MIB imports
   `enterprises` from SNMPv2-SMI), so it is not run, the test says so, and
   the rest runs on the shipped snmp.yml.
2. snmpd and tunewatchd run on the agent fixture with the cgroup tree of
   plugin_cgroups.py, a UDP socket that drops, findings raised on the
   first sample that shows them and one tunable turned: every table but
   twProbeTable (which needs a real device) has rows. --interval 60 keeps
   the sample frozen while snmpbulkwalk reads it and snmp_exporter scrapes it.
3. Every numeric instance of the walk is one series of the scrape with the
   same number (no scaling: the MIB's units), labelled by its index and by
   the names generator.yml looks up (the walk's own strings); every series
   is an instance of the walk; a Counter64 object is a counter, every other
   numeric syntax (CounterBasedGauge64 included) a gauge; every
   DisplayString is an info series whose label holds the walk's string.
   twAgentSampleAge alone moves between the two reads: it may grow by the
   time between them, no more."""

import os
import re
import sys
import time

import agent_walk
import plugin_cgroups
import plugin_common as pc
import promtest
import twtest

sys.path.insert(0, os.path.join(twtest.TOP_SRCDIR, "tests"))
import zabbix_template  # noqa: E402  (its reader of the MIB module's text)

NUMERIC = ("Counter64", "Counter32", "Gauge32", "INTEGER", "Unsigned32", "Timeticks")
UDP = ("   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
       "timeout inode ref pointer drops\n"
       "  100: 00000000:0202 00000000:0000 07 00000000:00000300 00:00000000 00000000     0    "
       "    0 424242 2 0000000000000000 %d\n")


def make_root(h):
    """The fixture before its first sample: cgroups, a quiet socket."""
    root = plugin_cgroups.make_root(h)
    with open(os.path.join(root, "proc", "net", "udp"), "w") as fh:
        fh.write(UDP % 0)
    return root


def change(root):
    """What the second sample sees: the agent fixture's changes (drops,
    squeezes, buffer errors), the socket's drops and a turned knob."""
    agent_walk.change_fixture(root)
    # UDP InErrors moves, so that the agent reads the sockets' drops.
    snmp = os.path.join(root, "proc", "net", "snmp")
    with open(snmp) as fh:
        text = fh.read()
    with open(snmp, "w") as fh:
        fh.write(text.replace("Udp: 6000 10 7 4000 17", "Udp: 6000 10 44 4000 17"))
    with open(os.path.join(root, "proc", "net", "udp"), "w") as fh:
        fh.write(UDP % 37)
    with open(os.path.join(root, "proc", "sys", "net", "core", "netdev_budget"), "w") as fh:
        fh.write("600\n")


def mib_table():
    """{OID: (name, syntax)} of TUNEWATCH-MIB's objects, and the syntax
    each textual convention of the module stands for."""
    objects = zabbix_template.mib_objects()
    with open(zabbix_template.MIB) as fh:
        text = fh.read()
    tcs = dict(re.findall(r"(?ms)^(Tw\w+)\s*::=\s*TEXTUAL-CONVENTION.*?^\s*SYNTAX\s+(\w+)", text))
    return {o: (n, tcs.get(s, s)) for n, (o, s, _) in objects.items()}


def want_type(syntax):
    return "counter" if syntax == "Counter64" else "gauge"


def lookups(snmp_yml):
    import yaml
    with open(snmp_yml) as fh:
        module = yaml.safe_load(fh)[promtest.MODULE]
    by_oid = {m["oid"]: m for m in module["metrics"]}
    return module, by_oid


def split(oid, by_oid):
    """(metric definition, index) of an instance's OID, or (None, None)."""
    parts = oid.split(".")
    for n in range(len(parts) - 1, 0, -1):
        m = by_oid.get(".".join(parts[:n]))
        if m:
            return m, parts[n:]
    return None, None


def text_of(v):
    """A string varbind's text: snmpwalk prints an empty string as "" with
    no type, and a quote or backslash inside one escaped."""
    if v.type == "" and v.text == '""':
        return ""
    return re.sub(r'\\(["\\])', r"\1", v.text)


def expected(walk, module, by_oid, mib):
    """{(metric, frozenset(labels)): value or string} the scrape must hold,
    worked out from the walk and snmp.yml's index and lookup definitions."""
    strings = {v.oid: text_of(v) for v in walk if v.type in ("STRING", "")}
    defined = {}
    for o, (name, _) in mib.items():
        defined[name] = o
    as_labels = {lk["labelname"] for m in module["metrics"] for lk in m.get("lookups", [])}
    out, skipped = {}, set()
    for v in walk:
        m, index = split(v.oid, by_oid)
        if m is None:
            parts = v.oid.split(".")
            name = next((mib[".".join(parts[:n])][0] for n in range(len(parts), 0, -1)
                         if ".".join(parts[:n]) in mib), v.oid)
            # A column generator.yml looks up is a label of its row's
            # series, not a series of its own (checked below).
            if name not in as_labels:
                skipped.add(name)
            continue
        labels = {}
        for i, spec in zip(index, m.get("indexes", [])):
            labels[spec["labelname"]] = i
        assert len(index) == len(m.get("indexes", [])) or (not m.get("indexes") and index == ["0"]), \
            (m["name"], index)
        for lk in m.get("lookups", []):
            col = defined[lk["labelname"]] + "." + ".".join(index)
            if col in strings:
                labels[lk["labelname"]] = strings[col]
            else:
                num = [x for x in walk if x.oid == col]
                if num:
                    labels[lk["labelname"]] = num[0].text
        if v.type in ("STRING", ""):
            labels[m["name"]] = text_of(v)
        labels = frozenset((k, x) for k, x in labels.items() if x != "")
        if v.type in NUMERIC:
            out[(m["name"], labels)] = float(v.text)
        elif v.type in ("STRING", ""):
            out[(m["name"], labels)] = 1.0
        else:
            raise AssertionError("a type the test does not know: %r" % v)
    return out, skipped


def test():
    try:
        import yaml  # noqa: F401
    except ImportError:
        raise twtest.Skip("PyYAML reads snmp.yml (Debian: apt-get install python3-yaml)")
    promtest.binary("prometheus-snmp-exporter", "prometheus-snmp-exporter")
    with twtest.Harness("prom-snmp") as h:
        config, how = promtest.snmp_yml(h)
        promtest.say("snmp.yml: " + how)
        root = make_root(h)
        conf = os.path.join(h.dir, "findings.conf")
        with open(conf, "w") as fh:
            fh.write("findingRaiseAfter 1\n")
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300, args=["-c", conf])
        change(root)
        h.sample_now()
        exporter = promtest.Exporter(h, config).start()
        promtest.listeners_on_loopback(h, [exporter.proc])

        module, by_oid = lookups(config)
        mib = mib_table()
        t0 = time.monotonic()
        walk = h.walk(bulk=True)
        body = exporter.scrape()
        elapsed_ms = (time.monotonic() - t0) * 1000
        with open(os.path.join(h.dir, "scrape.txt"), "w") as fh:
            fh.write(body)
        types, samples = promtest.parse_exposition(body)
        ours = [(n, l, x) for n, l, x in samples if n.startswith("tw")]
        got = {}
        for n, l, x in ours:
            # An empty label is no label, to Prometheus: a lookup of a
            # column the row does not have, or an empty string.
            key = (n, frozenset((k, v) for k, v in l.items() if v != ""))
            assert key not in got, "two series %s %s" % (n, l)
            got[key] = x
        want, skipped = expected(walk, module, by_oid, mib)
        assert not skipped, "objects the walk returned that snmp.yml does not export: %s" % skipped

        # The one figure that moves: the age of the frozen sample.
        age = [k for k in want if k[0] == "twAgentSampleAge"]
        assert len(age) == 1, age
        w_age, g_age = want.pop(age[0]), got.pop(age[0], None)
        assert g_age is not None and w_age <= g_age <= w_age + elapsed_ms + 1000, \
            (w_age, g_age, elapsed_ms)

        missing = sorted(set(want) - set(got), key=str)
        extra = sorted(set(got) - set(want), key=str)
        assert not missing, "in the walk, not in the scrape: %s" % missing[:10]
        assert not extra, "in the scrape, not in the walk: %s" % extra[:10]
        wrong = [(k, want[k], got[k]) for k in want if want[k] != got[k]]
        assert not wrong, "values differ from snmpbulkwalk's: %s" % wrong[:10]

        # Counters stay counters, gauges gauges, as the MIB's SYNTAX says.
        names = {o: n for o, (n, _) in mib.items()}
        counted = {"counter": 0, "gauge": 0, "info": 0}
        for m in module["metrics"]:
            name = m["name"]
            syntax = mib[m["oid"]][1]
            assert names[m["oid"]] == name, m
            if m["type"] == "DisplayString":
                assert types.get(name) in ("gauge", None), (name, types.get(name))
                counted["info"] += name in types
                continue
            if name in types:
                assert types[name] == want_type(syntax), \
                    "%s (%s) is a %s in the scrape" % (name, syntax, types[name])
                counted[types[name]] += 1

        # Rows are labelled by name.
        def labels_of(metric):
            return [dict(k[1]) for k in got if k[0] == metric]
        disks = {l["twDiskName"] for l in labels_of("twDiskReads")}
        assert disks == {"sda", "sdb"}, disks
        pools = {l["twDblockName"] for l in labels_of("twDblockFailures")}
        assert "cpu1 backlog" in pools, pools
        units = {l.get("twCgroupUnit") for l in labels_of("twCgroupRefaults")}
        assert "nginx.service" in units, units
        socks = labels_of("twSockDropDrops")
        assert any(l["twSockDropLocalAddress"] == "0.0.0.0" and l["twSockDropLocalPort"] == "514"
                   and l["twSockDropProtocolName"] == "udp" for l in socks), socks
        findings = labels_of("twFindingSeverity")
        assert findings and all(re.match(r"^tw-[0-9a-f]{12}$", l["twFindingId"]) and
                                l["twFindingSymptom"] and l["twFindingSubject"]
                                for l in findings), findings
        assert any(l["twFindingSymptom"] == "softnet-drops" and
                   l["twFindingTunable"] == "net.core.netdev_max_backlog"
                   for l in findings), findings
        changes = labels_of("twChangeTime")
        assert any(l["twChangeTunable"] == "net.core.netdev_budget" and
                   l["twChangeOldValue"] == "300" and l["twChangeNewValue"] == "600"
                   for l in changes), changes
        # The check's finding ids are the ones Prometheus labels with.
        out = pc.run("check_dblock", [], h.port)
        ids = {l.split()[1] for l in out.long if l.startswith("  finding: ")}
        shared = ids & {l["twFindingId"] for l in findings}
        assert len(shared) >= 4, (out, findings)

        numeric = sum(1 for v in walk if v.type in NUMERIC)
        promtest.say("%d instances walked, %d numeric, all %d series of the scrape equal to "
                     "them (%d counters, %d gauges, %d info metrics); %d findings labelled with "
                     "their ids" % (len(walk), numeric, len(got) + 1, counted["counter"],
                                    counted["gauge"], counted["info"], len(findings)))


if __name__ == "__main__":
    twtest.main(test)
