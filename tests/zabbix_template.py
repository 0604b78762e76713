#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/zabbix/tunewatch_template.yaml against the MIB and the checks, so
that they cannot drift apart:

- valid YAML in Zabbix 6.0's export shape, every uuid 32 hex digits and
  unique;
- every SNMP OID is an object of TUNEWATCH-MIB, named first in the item's
  description, scaled as the MIB says (hundredths, microseconds) and in
  the units its UNITS clause names; an item prototype reads a column of
  the table its discovery rule walks, and a discovery rule walks columns
  of one table;
- every value map is the enumeration of the object it maps, and an
  enumerated object has one;
- every trigger names items of the template and macros it defines; its
  thresholds are macros (a WARNING trigger's .WARN, a HIGH one's .CRIT),
  but for a finding's severity, compared with TwSeverityType's numbers;
- every discovery rule turns each '{' of what it discovers into \x7b, so
  that no name a user chose can spell a macro where Zabbix expands them;
- a discovery rule of several columns keeps only whole rows (Zabbix walks
  them one after another; a row may come or go between two walks);
- every threshold macro equals the default that the check's --help prints
  (check_bufcache, check_dblock, check_disklatency, its probe included);
- the finding's problem resolves before its items are deleted
  ({$TW.FINDING.GONE} at least nodata()'s 30 s and under
  {$TW.FINDING.LIFETIME}).
tests/integration/zabbix_server.py imports it into a real Zabbix."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))
import twtest  # noqa: E402

TEMPLATE = os.path.join(twtest.TOP_SRCDIR, "contrib", "zabbix", "tunewatch_template.yaml")
MIB = os.path.join(twtest.TOP_SRCDIR, "mib", "TUNEWATCH-MIB.txt")
PLAYPEN = "1.3.6.1.4.1.8072.9999.9999"   # netSnmpPlaypen, from NET-SNMP-MIB
UUID = re.compile(r"^[0-9a-f]{32}$")
# The MIB's UNITS, as Zabbix writes them ('!' keeps a word from being
# scaled with a prefix); microseconds are shown as ms (multiplied by 0.001).
UNITS = {"microseconds": "ms", "percent": "%", "bytes": "B", "pages per second": "!pages/s",
         "failures": "!failures", "datagrams": "!datagrams", "reads": "!reads",
         "reads per second": "!reads/s", "writes per second": "!writes/s",
         "findings": "!findings", "requests": "!requests", "samples": "",
         "seconds": "unixtime"}
# Objects whose UNITS "seconds" are a time since 1970, shown as a date.
EPOCH = ("twFindingRaisedTime", "twFindingChangedTime", "twChangeTime")


def mib_objects():
    """name -> (oid, syntax, units) for every object TUNEWATCH-MIB defines."""
    with open(MIB) as fh:
        text = fh.read()
    defs = re.finditer(r"(?ms)^(\w+)[ \t]+(OBJECT-TYPE|OBJECT IDENTIFIER|MODULE-IDENTITY)\b"
                       r"(.*?)::=\s*\{\s*(\w+)\s+(\d+)\s*\}", text)
    parent, syntax, units = {}, {}, {}
    for m in defs:
        parent[m.group(1)] = (m.group(4), m.group(5))
        s = re.search(r"SYNTAX\s+(\S+)", m.group(3))
        u = re.search(r'UNITS\s+"([^"]*)"', m.group(3))
        syntax[m.group(1)] = s.group(1) if s else ""
        units[m.group(1)] = u.group(1) if u else ""

    def oid(name):
        if name == "netSnmpPlaypen":
            return PLAYPEN
        p, n = parent[name]
        return oid(p) + "." + n
    return {n: (oid(n), syntax[n], units[n]) for n in parent}


def mib_enumerations():
    """name -> {number: label} of every textual convention and object of
    TUNEWATCH-MIB whose SYNTAX is an INTEGER enumeration."""
    with open(MIB) as fh:
        text = fh.read()
    starts = list(re.finditer(r"(?m)^(\w+)\s+(?:::=\s*TEXTUAL-CONVENTION|OBJECT-TYPE|"
                              r"NOTIFICATION-TYPE|OBJECT IDENTIFIER|MODULE-IDENTITY)\b", text))
    out = {}
    for m, nxt in zip(starts, starts[1:] + [None]):
        body = text[m.end():nxt.start() if nxt else len(text)]
        e = re.search(r"SYNTAX\s+INTEGER\s*\{([^}]*)\}", body)
        if e:
            out[m.group(1)] = {n: label for label, n in
                               re.findall(r"(\w+)\s*\(\s*(\d+)\s*\)", e.group(1))}
    return out


def walk(node, kind=None):
    """(kind, dict) for every item, prototype, rule and trigger, depth first."""
    if isinstance(node, dict):
        if kind:
            yield kind, node
        for k, v in node.items():
            if k in ("items", "item_prototypes", "discovery_rules", "triggers",
                     "trigger_prototypes"):
                for x in v:
                    yield from walk(x, k)
    elif isinstance(node, list):
        for x in node:
            yield from walk(x, kind)


def check_defaults():
    """threshold macro -> the default --help prints for it."""
    def helptext(check):
        r = subprocess.run([os.path.join(twtest.TOP_BUILDDIR, "plugins", check), "--help"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout

    def after(text, option, pattern):
        m = re.search(re.escape(option) + r"[^\n]*\n\s+[^\n]*?" + pattern, text)
        assert m, "no default after %s in --help" % option
        return m.groups()
    bc, db, dl = (helptext(c) for c in ("check_bufcache", "check_dblock", "check_disklatency"))
    fw, fc = after(bc, "--refault-critical=RANGE", r"\(default (\d+) and (\d+)\)")
    d, = after(db, "--warning=RANGE", r"\(default (\d+)\)")
    rw, = after(dl, "--warning=RANGE", r"\(default (\d+)\)")
    rc, = after(dl, "--critical=RANGE", r"\(default (\d+)\)")
    ww, wc = after(dl, "--write-critical=RANGE", r"\(default (\d+) and (\d+)\)")
    # --probe: -w and -c are milliseconds of --percentile, 90 by default.
    assert re.search(r"--probe\n(?:\s+[^\n]*\n)*?\s+[^\n]*-w and -c are then milliseconds of "
                     r"--percentile", dl), "check_disklatency --help: what --probe's -w judges"
    p, = after(dl, "--percentile=50|90|99", r"\(default (\d+)\)")
    assert p == "90", "check_disklatency --probe judges p%s; the template's macros say P90" % p
    return {"{$TW.REFAULT.WARN}": fw, "{$TW.REFAULT.CRIT}": fc, "{$TW.FAILURES.WARN}": d,
            "{$TW.R_AWAIT.WARN}": rw, "{$TW.R_AWAIT.CRIT}": rc, "{$TW.W_AWAIT.WARN}": ww,
            "{$TW.W_AWAIT.CRIT}": wc, "{$TW.PROBE_P90.WARN}": rw, "{$TW.PROBE_P90.CRIT}": rc}


def seconds(value):
    m = re.match(r"^(\d+)([smhdw]?)$", value)
    assert m, "not a time: %r" % value
    return int(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400,
                              "w": 604800}[m.group(2)]


def check_item(node, kind, by_oid, table_of_rule, enums, valuemaps):
    """One SNMP item or prototype against the MIB; its object's name."""
    oid = node["snmp_oid"]
    suffix = ".{#SNMPINDEX}" if kind == "item_prototypes" else ".0"
    assert oid.endswith(suffix), oid
    base = oid[:-len(suffix)]
    assert base in by_oid, "%s (%s) is not an object of TUNEWATCH-MIB" % (oid, node["name"])
    obj, syntax, units = by_oid[base]
    if kind == "item_prototypes":
        assert base.rsplit(".", 1)[0] == table_of_rule, \
            "%s reads %s, not a column of its rule's table" % (node["key"], obj)
    assert node["description"].startswith(obj + ":") or \
        node["description"].startswith(obj + " ("), \
        "%s reads %s, but its description does not say so: %r" % (node["key"], obj,
                                                                  node["description"])
    mult = [p["parameters"][0] for p in node.get("preprocessing", []) if p["type"] == "MULTIPLIER"]
    if syntax == "TwHundredths":
        assert mult == ["0.01"], "%s is in hundredths: %s" % (obj, node["key"])
    elif units == "microseconds":
        assert mult == ["0.001"], "%s is in microseconds: %s" % (obj, node["key"])
    else:
        assert mult == [], "%s is not scaled: %s" % (obj, node["key"])
    if units == "seconds":
        assert obj in EPOCH, "%s: seconds, but not since 1970" % obj
    want = UNITS.get(units) if units else ""
    assert want is not None, "%s: UNITS %r has no Zabbix unit in this test's table" % (obj, units)
    assert node.get("units", "") == want, "%s (UNITS %r) has units %r, not %r" % (
        node["key"], units, node.get("units", ""), want)
    enum = enums.get(obj) or enums.get(syntax)
    vm = node.get("valuemap", {}).get("name")
    if enum or vm:
        assert vm, "%s is an enumeration (%s) and has no value map" % (obj, syntax)
        assert vm in (obj, syntax), "%s maps %s with %r" % (node["key"], obj, vm)
        assert valuemaps.get(vm) == enum, "value map %s is %r, the MIB's %r" % (
            vm, valuemaps.get(vm), enum)
    return obj


def check_triggers(tpl, name, keys, macros, enums):
    refs = 0
    for kind, node in walk(tpl):
        if kind not in ("triggers", "trigger_prototypes"):
            continue
        assert node["priority"] in ("INFO", "WARNING", "AVERAGE", "HIGH", "DISASTER"), node
        expr = node["expression"]
        for ref in re.findall(r"\(/([^/]+)/([^,)]+(?:\])?)", expr):
            assert ref[0] == name, "trigger names another template: %s" % expr
            assert ref[1] in keys, "trigger names no item of the template: %s" % ref[1]
            refs += 1
        text = " ".join(str(node.get(f, "")) for f in ("expression", "name", "event_name",
                                                     "opdata", "description"))
        for m in re.findall(r"\{\$[A-Z0-9_.]+\}", text):
            assert m in macros, "undefined macro %s in %s" % (m, node["name"])
        # A threshold is a macro: .WARN for WARNING, .CRIT for HIGH. A
        # finding's severity is compared with TwSeverityType's numbers.
        for m in re.finditer(r"last\(/[^/]+/(?P<key>[^,)]+\]?)\)\s*(?P<op>>=|<=|<>|>|<|=)\s*"
                             r"(?P<rhs>\{\$[A-Z0-9_.]+\}|[0-9.]+)", expr):
            key, op, rhs = m.group("key"), m.group("op"), m.group("rhs")
            if key.startswith("tunewatch.finding.severity["):
                sev = {v: k for k, v in enums["TwSeverityType"].items()}
                want = {"WARNING": (">=", sev["warning"]), "HIGH": ("=", sev["critical"])}
                assert (op, rhs) == want[node["priority"]], \
                    "%s: severity %s %s" % (node["name"], op, rhs)
                continue
            level = {"WARNING": ".WARN}", "HIGH": ".CRIT}"}[node["priority"]]
            assert rhs.startswith("{$") and rhs.endswith(level), \
                "%s (%s) compares %s with %s, not a %s macro" % (
                    node["name"], node["priority"], key, rhs, level)
    return refs


def test():
    try:
        import yaml
    except ImportError:
        raise twtest.Skip("PyYAML reads the template (Debian: apt-get install python3-yaml)")
    with open(TEMPLATE) as fh:
        doc = yaml.safe_load(fh)
    export = doc["zabbix_export"]
    assert export["version"] == "6.0", export["version"]
    assert len(export["templates"]) == 1
    tpl = export["templates"][0]
    name = tpl["template"]
    groups = {g["name"] for g in export["groups"]}
    assert {g["name"] for g in tpl["groups"]} <= groups, "a template group is not exported"

    objects = mib_objects()
    by_oid = {o: (n, s, u) for n, (o, s, u) in objects.items()}
    enums = mib_enumerations()
    valuemaps = {v["name"]: {m["value"]: m["newvalue"] for m in v["mappings"]}
                 for v in tpl.get("valuemaps", [])}
    uuids = [tpl["uuid"]] + [g["uuid"] for g in export["groups"]] + \
        [v["uuid"] for v in tpl.get("valuemaps", [])]
    keys, oids, mapped, traps = set(), 0, set(), 0
    for rule in tpl["discovery_rules"]:
        uuids.append(rule["uuid"])
        keys.add(rule["key"])
        assert rule["type"] == "SNMP_AGENT", rule
        m = re.match(r"^discovery\[(.*)\]$", rule["snmp_oid"])
        assert m, rule["snmp_oid"]
        parts = m.group(1).split(",")
        tables = set()
        for macro, oid in zip(parts[0::2], parts[1::2]):
            assert re.match(r"^\{#[A-Z0-9_]+\}$", macro), macro
            assert oid in by_oid, "discovery OID %s is not in TUNEWATCH-MIB" % oid
            tables.add(oid.rsplit(".", 1)[0])
            oids += 1
        assert len(tables) == 1, "%s walks columns of %d tables" % (rule["key"], len(tables))
        table = tables.pop()
        lld = set(parts[0::2]) | {"{#SNMPINDEX}"}
        # Discovered values land where Zabbix expands macros; one a user
        # chose (a cgroup's path) must not spell one.
        js = [p["parameters"][0] for p in rule.get("preprocessing", [])
              if p["type"] == "JAVASCRIPT"]
        assert len(js) == 1 and "replace(/\\{/g, '\\\\x7b')" in js[0], \
            "%s does not take '{' out of what it discovers" % rule["key"]
        # Zabbix walks each column in turn: a row that came or went between
        # two walks lacks some of them. A rule of several columns keeps
        # only rows that have the first and the last that every row has
        # (the others may be absent for good: an override says so).
        optional = {c["macro"] for ov in rule.get("overrides", [])
                    for c in ov["filter"]["conditions"] if c.get("operator") == "NOT_EXISTS"}
        needed = [m for m in parts[0::2] if m not in optional]
        if len(parts) > 2:
            f = rule.get("filter", {})
            tested = {c["macro"] for c in f.get("conditions", [])}
            assert f.get("evaltype") == "AND" and {needed[0], needed[-1]} <= tested, \
                "%s walks %d columns but keeps rows without %s" % (
                    rule["key"], len(parts) // 2, {needed[0], needed[-1]} - tested)
        # An override's operation matches a prototype's name after its
        # macros are expanded, and a name may hold a cgroup's path, which
        # whoever made the cgroup chose: the match is anchored where no
        # discovered value can reach (a trigger's fixed start, an item's
        # fixed end).
        for ov in rule.get("overrides", []):
            for op in ov["operations"]:
                assert op["operator"] == "REGEXP", "%s: %s matches names by %s" % (
                    rule["key"], ov["name"], op["operator"])
                anchor = {"TRIGGER_PROTOTYPE": op["value"].startswith("^tunewatch "),
                          "ITEM_PROTOTYPE": op["value"].startswith(": ") and
                          op["value"].endswith("$")}[op["operationobject"]]
                assert anchor, "%s: %s matches %r, not anchored beyond names" % (
                    rule["key"], ov["name"], op["value"])
        for kind, node in walk(rule):
            if kind == "discovery_rules":
                continue
            text = " ".join(str(v) for v in node.values() if isinstance(v, str))
            for used in re.findall(r"\{#[A-Z0-9_]+\}", text):
                assert used in lld, "%s uses %s, which %s does not discover" % (
                    node["name"], used, rule["key"])
            if kind == "item_prototypes":
                assert node["type"] == "SNMP_AGENT", node
                uuids.append(node["uuid"])
                keys.add(node["key"])
                check_item(node, kind, by_oid, table, enums, valuemaps)
                mapped.add(node.get("valuemap", {}).get("name"))
                oids += 1
    for node in tpl["items"]:
        uuids.append(node["uuid"])
        keys.add(node["key"])
        if node["type"] == "SNMP_TRAP":
            assert node["key"].startswith("snmptrap[") and node["value_type"] == "LOG", node
            traps += 1
            continue
        assert node["type"] == "SNMP_AGENT", node
        check_item(node, "items", by_oid, None, enums, valuemaps)
        oids += 1
    for kind, node in walk(tpl):
        if kind in ("triggers", "trigger_prototypes"):
            uuids.append(node["uuid"])
    assert all(u and UUID.match(u) for u in uuids), "a uuid is not 32 hex digits"
    assert len(uuids) == len(set(uuids)), "a uuid repeats"
    assert set(valuemaps) <= mapped, "value maps no item uses: %s" % (set(valuemaps) - mapped)

    macros = {m["macro"]: m["value"] for m in tpl["macros"]}
    refs = check_triggers(tpl, name, keys, macros, enums)
    defaults = check_defaults()
    for macro, value in defaults.items():
        assert macros.get(macro) == value, "%s is %r, the check's default %r" % (
            macro, macros.get(macro), value)
    thresholds = [m for m in macros if m.endswith(".WARN}") or m.endswith(".CRIT}")]
    assert sorted(thresholds) == sorted(defaults), \
        "threshold macros without a check's default: %s" % (set(thresholds) - set(defaults))
    gone, life = seconds(macros["{$TW.FINDING.GONE}"]), seconds(macros["{$TW.FINDING.LIFETIME}"])
    assert 30 <= gone < life, "{$TW.FINDING.GONE} %ds, {$TW.FINDING.LIFETIME} %ds" % (gone, life)
    assert gone > seconds(macros["{$TW.INTERVAL}"]), "{$TW.FINDING.GONE} under one poll"
    print("%d OIDs, all in TUNEWATCH-MIB, scaled and in units as it says; %d value maps, each an "
          "enumeration of the MIB; %d trigger references; %d threshold macros equal to the "
          "checks' defaults; %d SNMP trap item" % (oids, len(valuemaps), refs, len(defaults),
                                                   traps))


if __name__ == "__main__":
    twtest.main(test)
