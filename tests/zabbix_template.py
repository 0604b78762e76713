#!/usr/bin/env python3
"""contrib/zabbix/tunewatch_template.yaml: valid YAML in Zabbix 6.0's export
shape; every SNMP OID is an object of TUNEWATCH-MIB, named first in the
item's description, and scaled as the MIB says (hundredths, microseconds);
every trigger names an item of the template; every macro that holds a
threshold equals the default that the check's --help prints."""

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
    return {"{$TW.REFAULT.WARN}": fw, "{$TW.REFAULT.CRIT}": fc, "{$TW.DBLOCK.WARN}": d,
            "{$TW.RAWAIT.WARN}": rw, "{$TW.RAWAIT.CRIT}": rc, "{$TW.WAWAIT.WARN}": ww,
            "{$TW.WAWAIT.CRIT}": wc}


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
    uuids = [tpl["uuid"]] + [g["uuid"] for g in export["groups"]]
    keys, oids = set(), 0
    for kind, node in walk(tpl):
        uuids.append(node.get("uuid"))
        if kind in ("triggers", "trigger_prototypes"):
            continue
        assert node["type"] == "SNMP_AGENT", node
        keys.add(node["key"])
        if kind == "discovery_rules":
            m = re.match(r"^discovery\[(.*)\]$", node["snmp_oid"])
            assert m, node["snmp_oid"]
            parts = m.group(1).split(",")
            for macro, oid in zip(parts[0::2], parts[1::2]):
                assert re.match(r"^\{#[A-Z0-9_]+\}$", macro), macro
                assert oid in by_oid, "discovery OID %s is not in TUNEWATCH-MIB" % oid
                oids += 1
            continue
        oid = node["snmp_oid"]
        base = oid[:-len(".{#SNMPINDEX}")] if kind == "item_prototypes" else oid[:-len(".0")]
        assert oid.endswith(".{#SNMPINDEX}" if kind == "item_prototypes" else ".0"), oid
        assert base in by_oid, "%s (%s) is not an object of TUNEWATCH-MIB" % (oid, node["name"])
        obj, syntax, units = by_oid[base]
        assert node["description"].startswith(obj + ":") or \
            node["description"].startswith(obj + " ("), \
            "%s reads %s, but its description does not say so: %r" % (node["key"], obj,
                                                                      node["description"])
        mult = [p["parameters"][0] for p in node.get("preprocessing", [])
                if p["type"] == "MULTIPLIER"]
        if syntax == "TwHundredths":
            assert mult == ["0.01"], "%s is in hundredths: %s" % (obj, node["key"])
        elif units == "microseconds":
            assert mult == ["0.001"] and node["units"] == "ms", \
                "%s is in microseconds: %s" % (obj, node["key"])
        else:
            assert mult == [], "%s is not scaled: %s" % (obj, node["key"])
        oids += 1
    assert all(u and UUID.match(u) for u in uuids), "a uuid is not 32 hex digits"
    assert len(uuids) == len(set(uuids)), "a uuid repeats"

    refs = 0
    for kind, node in walk(tpl):
        if kind not in ("triggers", "trigger_prototypes"):
            continue
        assert node["priority"] in ("INFO", "WARNING", "AVERAGE", "HIGH", "DISASTER"), node
        for ref in re.findall(r"\(/([^/]+)/([^,)]+(?:\])?)", node["expression"]):
            assert ref[0] == name, "trigger names another template: %s" % node["expression"]
            assert ref[1] in keys, "trigger names no item of the template: %s" % ref[1]
            refs += 1
        for m in re.findall(r"\{\$[A-Z0-9_.]+\}", node["expression"]):
            assert m in {x["macro"] for x in tpl["macros"]}, "undefined macro %s" % m

    defaults = check_defaults()
    macros = {m["macro"]: m["value"] for m in tpl["macros"]}
    for macro, value in defaults.items():
        assert macros.get(macro) == value, "%s is %r, the check's default %r" % (
            macro, macros.get(macro), value)
    print("%d OIDs, all in TUNEWATCH-MIB and scaled as it says; %d trigger references; "
          "%d threshold macros equal to the checks' defaults" % (oids, refs, len(defaults)))


if __name__ == "__main__":
    twtest.main(test)
