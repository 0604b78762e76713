#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/prometheus/tunewatch.rules.yml: `promtool check rules` accepts
it, `promtool test rules` passes tests/prometheus/tunewatch.rules.test.yml
(series that raise and then clear every alert of the file, with the labels
and annotations each must carry), every alert of the file is raised by
that test, and the thresholds of the figure alerts are the defaults that
each check's --help prints."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))
import twtest  # noqa: E402
import zabbix_template  # noqa: E402  (its reader of the checks' --help defaults)

RULES = os.path.join(twtest.TOP_SRCDIR, "contrib", "prometheus", "tunewatch.rules.yml")
UNIT = os.path.join(twtest.TOP_SRCDIR, "tests", "prometheus", "tunewatch.rules.test.yml")


def promtool(*args, cwd=None):
    r = subprocess.run([twtest.which("promtool")] + list(args), capture_output=True, text=True,
                       timeout=120, cwd=cwd)
    return r.returncode, r.stdout + r.stderr


def test():
    if not twtest.which("promtool"):
        raise twtest.Skip("promtool is needed (Debian: apt-get install prometheus)")
    try:
        import yaml
    except ImportError:
        raise twtest.Skip("PyYAML reads the rules (Debian: apt-get install python3-yaml)")
    rc, out = promtool("check", "rules", RULES)
    assert rc == 0 and "SUCCESS" in out, out
    # promtool resolves rule_files from the test file's directory; a
    # read-only source tree (make distcheck) is fine, it writes nothing.
    rc, out = promtool("test", "rules", os.path.basename(UNIT), cwd=os.path.dirname(UNIT))
    assert rc == 0 and "SUCCESS" in out, out

    with open(RULES) as fh:
        rules = yaml.safe_load(fh)
    with open(UNIT) as fh:
        unit = yaml.safe_load(fh)
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"] if "alert" in r}
    raised, cleared = set(), set()
    for t in unit["tests"]:
        for case in t.get("alert_rule_test", []):
            (raised if case["exp_alerts"] else cleared).add(case["alertname"])
    assert set(alerts) <= raised, "never raised by the unit tests: %s" % (set(alerts) - raised)
    assert set(alerts) <= cleared, "never seen clear: %s" % (set(alerts) - cleared)
    for name, r in alerts.items():
        assert r["labels"]["severity"] in ("warning", "critical", "info"), name

    # The figure alerts' thresholds are the checks' defaults.
    d = zabbix_template.check_defaults()

    def bound(name, op):
        m = re.search(re.escape(op) + r"\s*([0-9.]+)", alerts[name]["expr"])
        assert m, (name, op, alerts[name]["expr"])
        return float(m.group(1))
    ms = 1000.0
    assert bound("TunewatchPoolFailures", ">") == float(d["{$TW.FAILURES.WARN}"])
    assert bound("TunewatchDiskReadLatencyWarning", ">") * ms == float(d["{$TW.R_AWAIT.WARN}"])
    assert bound("TunewatchDiskReadLatencyWarning", "<=") * ms == float(d["{$TW.R_AWAIT.CRIT}"])
    assert bound("TunewatchDiskReadLatencyCritical", ">") * ms == float(d["{$TW.R_AWAIT.CRIT}"])
    assert bound("TunewatchDiskWriteLatencyWarning", ">") * ms == float(d["{$TW.W_AWAIT.WARN}"])
    assert bound("TunewatchDiskWriteLatencyWarning", "<=") * ms == float(d["{$TW.W_AWAIT.CRIT}"])
    assert bound("TunewatchDiskWriteLatencyCritical", ">") * ms == float(d["{$TW.W_AWAIT.CRIT}"])
    assert bound("TunewatchHostRefaultsWarning", ">") == float(d["{$TW.REFAULT.WARN}"])
    assert bound("TunewatchHostRefaultsWarning", "<=") == float(d["{$TW.REFAULT.CRIT}"])
    assert bound("TunewatchHostRefaultsCritical", ">") == float(d["{$TW.REFAULT.CRIT}"])
    print("%d alerts, each raised and cleared by promtool's unit tests; figure thresholds equal "
          "the checks' defaults" % len(alerts))


if __name__ == "__main__":
    twtest.main(test)
