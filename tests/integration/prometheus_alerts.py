#!/usr/bin/env python3
"""An alert end to end through Debian's Prometheus and Alertmanager.

tunewatchd samples a fixture every second (window 4 s) behind snmpd;
snmp_exporter (promtest.snmp_yml's snmp.yml) serves it to a Prometheus that
scrapes every second, evaluates contrib/prometheus/tunewatch.rules.yml every
second and sends its alerts to an Alertmanager, whose webhook is
contrib/notify/tunewatch-alertmanager, spooling tunewatch-ticket's documents.
Everything on 127.0.0.1, in the test's directory.

1. CPU 1's input queue drops packets: through Prometheus' HTTP API,
   TunewatchFindingWarning fires, labelled with the finding id that
   check_dblock prints for it, its apply and persist annotations the
   check's lines; the spool gets a PROBLEM with that ticket key.
2. The knob is turned (1000 -> 2000) and the drops stop: the alert
   resolves (gone from /api/v1/alerts) and the spool gets a RECOVERY that
   names the key; TunewatchChangeEvaluated fires with the figures, and the
   spool gets its change: line, which tunewatch-rt reads as a change that
   helped.
Every wait is bounded."""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import time

import notify_rt
import plugin_common as pc
import promtest
import twtest

NOTIFY = os.path.join(os.path.abspath(twtest.TOP_SRCDIR), "contrib", "notify")


def load_rt():
    """contrib/notify/tunewatch-rt as a module, for its change: line reader."""
    loader = importlib.machinery.SourceFileLoader("tunewatch_rt",
                                                  os.path.join(NOTIFY, "tunewatch-rt"))
    spec = importlib.util.spec_from_loader("tunewatch_rt", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def alerts(prom, name):
    return [a for a in prom.api("alerts")["alerts"] if a["labels"].get("alertname") == name]


def spooled(path):
    try:
        with open(path) as fh:
            return [json.loads(l) for l in fh if l.strip()]
    except FileNotFoundError:
        return []


def test():
    for b, pkg in (("prometheus", "prometheus"), ("prometheus-alertmanager",
                                                 "prometheus-alertmanager"),
                   ("prometheus-snmp-exporter", "prometheus-snmp-exporter")):
        promtest.binary(b, pkg)
    with twtest.Harness("prom-alerts") as h:
        config, how = promtest.snmp_yml(h)
        promtest.say("snmp.yml: " + how)
        root = pc.writable(h.copy_fixture("agent"))
        drops = notify_rt.Drops(root)
        drops.start()
        try:
            run(h, config, root, drops)
        finally:
            drops.stop.set()


def run(h, config, root, drops):
    h.start_snmpd()
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=1, window=4)
    exporter = promtest.Exporter(h, config).start()

    hook_port = promtest.free_tcp_port()
    spool = os.path.join(h.dir, "tickets.json")
    hook = subprocess.Popen([sys.executable, os.path.join(NOTIFY, "tunewatch-alertmanager"),
                             "--listen", "127.0.0.1:%d" % hook_port, "--append", spool],
                            stdout=h.log("tunewatch-alertmanager"), stderr=subprocess.STDOUT)
    h.procs.append(hook)
    twtest.wait_for("tunewatch-alertmanager listening", lambda: hook.poll() is not None or
                    "listening" in open(os.path.join(h.dir, "tunewatch-alertmanager.log")).read())
    assert hook.poll() is None, "tunewatch-alertmanager exited"

    am = promtest.Alertmanager(h)
    am.write("route:\n  receiver: tickets\n  group_by: [alertname, instance, twFindingId, "
             "twChangeIndex]\n  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 1h\n"
             "receivers:\n  - name: tickets\n    webhook_configs:\n"
             "      - url: http://127.0.0.1:%d/\n        send_resolved: true\n" % hook_port)
    am.start()
    prom = promtest.Prometheus(h)
    prom.write(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
        "rule_files: [%s]\n"
        "alerting:\n  alertmanagers:\n    - static_configs:\n"
        "        - targets: ['127.0.0.1:%d']\n"
        "scrape_configs:\n  - job_name: tunewatch\n    metrics_path: /snmp\n"
        "    params: {module: [tunewatch]}\n"
        "    static_configs: [{targets: ['127.0.0.1:%d']}]\n"
        "    relabel_configs:\n"
        "      - {source_labels: [__address__], target_label: __param_target}\n"
        "      - {source_labels: [__param_target], target_label: instance}\n"
        "      - {target_label: __address__, replacement: '127.0.0.1:%d'}\n"
        % (json.dumps(promtest.RULES), am.port, h.port, exporter.port))
    prom.start()
    promtest.listeners_on_loopback(h, [exporter.proc, am.proc, prom.proc, hook])
    instance = "127.0.0.1:%d" % h.port

    # 1. Drops: the finding's alert fires with the check's id and lines.
    drops.rate = 20
    t0 = time.monotonic()
    firing = twtest.wait_for("TunewatchFindingWarning firing", lambda: [
        a for a in alerts(prom, "TunewatchFindingWarning") if a["state"] == "firing" and
        a["labels"].get("twFindingSymptom") == "softnet-drops"], timeout=60, step=0.5)
    fired_s = time.monotonic() - t0
    a = firing[0]
    out = pc.run("check_dblock", ["-p", str(h.port)])
    i = next(k for k, l in enumerate(out.long)
             if l.startswith("tune: net.core.netdev_max_backlog "))
    fid = out.long[i + 1].split()[1]
    assert a["labels"]["twFindingId"] == fid, (a, out)
    assert a["labels"]["instance"] == instance and a["labels"]["severity"] == "warning", a
    assert "  apply: " + a["annotations"]["apply"] == out.long[i + 2], (a, out.long[i + 2])
    assert "  persist: " + a["annotations"]["persist"] == out.long[i + 3], a
    assert a["annotations"]["suggestion"] == "net.core.netdev_max_backlog 1000 -> 2000", a
    assert "cpu1 dropped" in a["annotations"]["evidence"], a
    key = "%s!tunewatch!%s" % (instance, fid)
    doc = twtest.wait_for("a PROBLEM in the spool", lambda: [
        d for d in spooled(spool) if d["notification_type"] == "PROBLEM" and
        [t["key"] for t in d["tickets"]] == [key]], timeout=30, step=0.5)[0]
    t = doc["tickets"][0]
    assert t["apply"] == a["annotations"]["apply"] and t["persist"] == a["annotations"]["persist"]
    assert t["advice"].startswith("tune: net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped")
    assert t["close_on_recovery"] is False, t
    promtest.say("1. TunewatchFindingWarning fired %.1f s after the drops began, %s; spooled "
                 "as %s" % (fired_s, fid, key))

    # 2. The knob turned, the drops stopped: resolved, and the change
    # evaluated with both figures.
    with open(os.path.join(root, "proc", "sys", "net", "core", "netdev_max_backlog"), "w") as fh:
        fh.write("2000\n")
    drops.rate = 0
    t0 = time.monotonic()
    twtest.wait_for("TunewatchFindingWarning resolved", lambda: not [
        a for a in alerts(prom, "TunewatchFindingWarning")
        if a["labels"].get("twFindingId") == fid], timeout=60, step=0.5)
    resolved_s = time.monotonic() - t0
    twtest.wait_for("a RECOVERY in the spool", lambda: [
        d for d in spooled(spool) if d["notification_type"] == "RECOVERY" and
        d.get("recovered") == [key]], timeout=30, step=0.5)
    ev = twtest.wait_for("TunewatchChangeEvaluated firing", lambda: [
        a for a in alerts(prom, "TunewatchChangeEvaluated") if a["state"] == "firing" and
        a["labels"].get("twChangeTunable") == "net.core.netdev_max_backlog"], timeout=60,
        step=0.5)[0]
    assert ev["labels"]["twChangeOldValue"] == "1000" and \
        ev["labels"]["twChangeNewValue"] == "2000", ev
    assert float(ev["annotations"]["before"]) > 0 and ev["annotations"]["after"] == "0.00", ev
    assert not [a for a in alerts(prom, "TunewatchChangeDidNotHelp")
                if a["labels"].get("twChangeTunable") == "net.core.netdev_max_backlog"]
    line = twtest.wait_for("the change in the spool", lambda: [
        c for d in spooled(spool) for c in d.get("changes", [])], timeout=30, step=0.5)[0]
    rt = load_rt()
    change = rt.parse_change_line(line)
    assert change and change["what"] == "net.core.netdev_max_backlog" and change["after"] == 0, \
        line
    assert rt.helped(change, 10.0), change
    promtest.say("2. resolved %.1f s after the drops stopped; TunewatchChangeEvaluated: %s -> %s "
                 "%s; spooled %r" % (resolved_s, ev["annotations"]["before"],
                                     ev["annotations"]["after"], ev["annotations"]["unit"], line))


if __name__ == "__main__":
    twtest.main(test)
