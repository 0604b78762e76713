# SPDX-License-Identifier: ISC
"""What the guest's scenarios share: their result (the shape of the lab's,
tests/lab/README.md, so that a report can read both), tunewatchd's tables
and the checks as the guest's installed package serves them, the checks'
advice, and waiting.

Everything here runs on the host and reaches the guest through vm.Guest;
the SNMP clients and the checks run in the guest, against the snmpd that
systemd started there (udp 127.0.0.1:161, community public), and their
output is parsed here with the integration tests' own parsers.
"""

import json
import math
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
os.environ.setdefault("top_srcdir", TOP)
sys.path.insert(0, os.path.join(TOP, "tests", "integration"))
sys.path.insert(0, os.path.join(TOP, "tests", "lab"))

import labcore  # noqa: E402  (a check's advice: the host lab's parser)
import trapsink  # noqa: E402
import twtest  # noqa: E402

PLUGINS = "/usr/lib/nagios/plugins"
AGENT = "127.0.0.1"


class Skip(Exception):
    pass


class Result(dict):
    """As labcore.Result: name, kind, status, reason, symptom, setup, where,
    tunable, before, after, rounds, worst, findings, notes, seconds; and
    checks: [{"check": what, "ok": bool, "figure": text}] for the
    installed-system rows."""

    def __init__(self, name, kind, **kw):
        super().__init__(name=name, kind=kind, status="fail", rounds=[], notes=[], **kw)

    def note(self, text):
        self["notes"].append(text)
        print("guest-lab: " + text, flush=True)

    def checked(self, what, ok, figure=""):
        """One assertion of an installed-system check, kept as a row."""
        self.setdefault("checks", []).append({"check": what, "ok": bool(ok),
                                              "figure": str(figure)})
        print("guest-lab: [%s] %s%s" % ("ok" if ok else "FAILED", what,
                                        ": " + str(figure) if figure else ""), flush=True)
        assert ok, "%s: %s" % (what, figure)


def figure(value, unit, text=None):
    return {"value": value, "unit": unit, "text": text or "%s %s" % (fmt(value), unit)}


def fmt(v):
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return "{:,}".format(int(v))
        return "{:,.2f}".format(v) if abs(v) < 100 else "{:,.0f}".format(v)
    if isinstance(v, int):
        return "{:,}".format(v)
    return str(v)


def json_of(done):
    """The JSON object a guest command printed last."""
    lines = done.out.strip().splitlines()
    assert lines, "%s printed nothing: %s" % (" ".join(done.argv), done.err[-500:])
    return json.loads(lines[-1])


def json_line(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def wait_for(what, predicate, timeout, step=0.5):
    deadline = time.monotonic() + timeout
    while True:
        v = predicate()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(step)


AGENT_CONF = "/etc/snmp/tunewatchd.conf"


def lab_agent(ctx):
    """tunewatchd as the lab runs it: the packaged configuration with a 1 s
    interval and a 10 s window (tests/lab/README.md, "Time"), and the
    cgroups walked every 5 s (cgroupRescan: a unit the scenario starts is
    published within seconds, not the default 300), restarted by systemd;
    once a run. The package's own scenario checks it as shipped
    before this."""
    if not ctx.shared.get("installed"):
        raise Skip("the packages were not installed (guest-package did not get there)")
    if ctx.shared.get("lab_agent"):
        return
    g = ctx.guest
    g.sh("sed -i -e 's/^interval .*/interval 1/' -e 's/^window .*/window 10/' %s && "
         "echo 'cgroupRescan 5' >>%s && systemctl restart tunewatchd" % (AGENT_CONF, AGENT_CONF))
    wait_for("tunewatchd to answer after its restart",
             lambda: Agent(g).get(twtest.oid("AGENT_VERSION")), timeout=60, step=1)
    ctx.shared["lab_agent"] = True


class Agent:
    """tunewatchd in the guest, read as an NMS reads it: snmpwalk over the
    guest's own snmpd."""

    def __init__(self, guest, community="public"):
        self.g = guest
        self.community = community

    def walk(self, oid=twtest.OBJECTS, check=True):
        d = self.g.run(["snmpwalk", "-v2c", "-c", self.community, "-On", "-Oe", "-m", "",
                        "-t", "2", "-r", "1", AGENT, oid], env={"MIBS": ""}, timeout=60,
                       check=check)
        if d.rc != 0:
            return None
        return twtest.parse_varbinds(d.out)

    def get(self, oid):
        d = self.g.run(["snmpget", "-v2c", "-c", self.community, "-On", "-Oe", "-m", "",
                        "-t", "1", "-r", "0", AGENT, oid], env={"MIBS": ""}, timeout=30,
                       check=False)
        if d.rc != 0:
            return None
        v = twtest.parse_varbinds(d.out)
        return v[0].text if v and v[0].type else None

    def findings(self):
        """twFindingTable now: {index: {column: text}}."""
        return trapsink.rows(self)

    def changes(self):
        v = twtest.as_dict(self.walk(twtest.oid("CHANGE_TUNABLE", None)[:-2]))
        table = {}
        for name in ("TUNABLE", "SUBJECT", "OLD_VALUE", "NEW_VALUE", "TIME", "EVALUATED",
                     "FIGURE", "FIGURE_UNIT", "BEFORE", "AFTER"):
            for idx, val in twtest.column(v, "CHANGE_" + name).items():
                table.setdefault(idx, {})[name] = val.text.strip('"')
        return table

    def disks(self):
        """twDiskTable: {major.minor: {column: text}}."""
        v = twtest.as_dict(self.walk(twtest.oid("DISK_NAME", None)[:-2]))
        table = {}
        for name in ("NAME", "ALIAS", "TYPE", "SCHEDULER", "ROTATIONAL", "READ_AHEAD_KB",
                     "STABLE_ID", "NR_REQUESTS", "WBT_LATENCY"):
            for idx, val in twtest.column(v, "DISK_" + name).items():
                table.setdefault(idx, {})[name] = val.text.strip('"')
        return table

    def check(self, name, args=(), timeout=60):
        d = self.g.run([os.path.join(PLUGINS, name), "-H", AGENT] + list(args),
                       env={"MIBS": ""}, timeout=timeout, check=False)
        return CheckOutput(name, d)


class CheckOutput:
    def __init__(self, name, done):
        self.name, self.rc = name, done.rc
        lines = done.out.splitlines()
        self.first = lines[0] if lines else ""
        self.long = lines[1:]
        self.text = done.out
        self.err = done.err
        m = re.match(r"^[A-Z]+ (OK|WARNING|CRITICAL|UNKNOWN) - ", self.first)
        self.state = m.group(1) if m else None
        assert self.state, "%s printed no status: %r %r" % (name, done.out, done.err)

    def advice(self):
        return labcore.advice_of(self)


def effect(figure_text, before, after, control, margin, better="lower"):
    """The effect in the lab's shape (i32-proof's labreport, doc/LAB.json):
    the ratio old/new of the means (lower is better: a time, a latency),
    its low and high ends from the runs' intervals, helped when the low
    end is at least 1 + margin; the control (the value in force written
    again) the same way, which must hold 1."""
    mb, lb, hb = interval(before)
    ma, la, ha = interval(after)
    mc, lc, hc = interval(control)
    inf = float("inf")

    def ratio(m0, l0, h0, m1, l1, h1):
        return (m0 / m1 if m1 else inf, l0 / h1 if h1 > 0 else inf,
                h0 / l1 if l1 > 0 else inf)
    r, lo, hi = ratio(mb, lb, hb, ma, la, ha)
    cr, clo, chi = ratio(mb, lb, hb, mc, lc, hc)
    if better == "higher":
        r, lo, hi = 1 / r, 1 / hi, 1 / lo
        cr, clo, chi = 1 / cr, 1 / chi, 1 / clo
    return {"figure": figure_text, "better": better, "margin": margin,
            "ratio": round(r, 3), "low": round(lo, 3), "high": round(hi, 3),
            "helped": lo >= 1 + margin,
            "text": "%s: %.2fx (%.2f-%.2f)" % (figure_text, r, lo, hi),
            "control": {"ratio": round(cr, 3), "low": round(clo, 3), "high": round(chi, 3),
                        "holds_one": clo <= 1 <= chi}}


# Student's t at 97.5 % for n-1 degrees of freedom: the 95 % interval of a
# mean of n runs (z's 1.96 is far too narrow for 3 to 8 runs).
T975 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}


def interval(values):
    """Mean and the 95 % interval of the mean (Student's t)."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, m, m
    s = (sum((v - m) ** 2 for v in values) / (n - 1)) ** 0.5
    h = T975.get(n, 2.0) * s / n ** 0.5
    return m, m - h, m + h


def effect_paired(figure_text, before, after, control, margin, better="lower"):
    """As effect(), from runs taken in turn (before, control, after, ...):
    the ratio of each pair, so that a load that drifts over the runs falls
    on both sides of each ratio; their geometric mean and its 95 %
    interval."""
    def ratios(a, b):
        # On the logarithms: a ratio's interval is then a factor either
        # way (a geometric mean), never below 0.
        out = [math.log(x / y) for x, y in zip(a, b) if x > 0 and y > 0]
        return [-x if better == "higher" else x for x in out]

    def exp(t):
        return tuple(math.exp(x) for x in t)
    r, lo, hi = exp(interval(ratios(before, after)))
    cr, clo, chi = exp(interval(ratios(before, control)))
    return {"figure": figure_text, "better": better, "margin": margin, "paired": True,
            "ratio": round(r, 3), "low": round(lo, 3), "high": round(hi, 3),
            "helped": lo >= 1 + margin,
            "text": "%s: %.2fx (%.2f-%.2f, %d pairs)" % (figure_text, r, lo, hi, len(before)),
            "control": {"ratio": round(cr, 3), "low": round(clo, 3), "high": round(chi, 3),
                        "holds_one": clo <= 1 <= chi}}
