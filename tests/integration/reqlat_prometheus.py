#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""twReqHistTable as a Prometheus histogram: tunewatchd times fio's reads
of a loop device of the test's own; snmp_exporter walks it with
contrib/prometheus/snmp.yml; Prometheus scrapes the exporter with the
relabelling of contrib/prometheus/prometheus.yml; and
histogram_quantile(0.99) of the bucket series must fall in the ladder's
bucket that holds tunewatchd's own twReqLatP99, with the +Inf bucket the
row's count. Where the IETF base MIB modules are (../shared/mibs), the
committed snmp.yml must also be what prometheus-snmp-generator makes of
contrib/prometheus/generator.yml.

Everything listens on 127.0.0.1 only. Skips without root, BTF, fio,
prometheus or prometheus-snmp-exporter."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reqlat_common as rc  # noqa: E402
import twtest  # noqa: E402

CONTRIB = os.path.join(twtest.TOP_SRCDIR, "contrib", "prometheus")


def http(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def generated_matches():
    """The committed snmp.yml against the generator's, when it can run."""
    base = twtest.base_mib_dirs()
    gen = twtest.which("prometheus-snmp-generator")
    if not base or not gen or not os.path.isdir("/usr/share/snmp/mibs"):
        print("no IETF base modules or generator here: snmp.yml not regenerated")
        return
    d = tempfile.mkdtemp(prefix="tw-reqlat-gen-")
    try:
        shutil.copy(os.path.join(CONTRIB, "generator.yml"), d)
        env = dict(os.environ, MIBDIRS="%s:/usr/share/snmp/mibs:%s" % (
            base, os.path.abspath(os.path.join(twtest.TOP_SRCDIR, "mib"))))
        r = subprocess.run([gen, "generate"], cwd=d, env=env, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr[-1000:]
        with open(os.path.join(d, "snmp.yml")) as a, open(os.path.join(CONTRIB, "snmp.yml")) as b:
            assert a.read() == b.read(), "contrib/prometheus/snmp.yml is not what generator.yml makes"
        print("snmp.yml is what the generator makes of generator.yml")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test():
    rc.need("fio", "prometheus", "prometheus-snmp-exporter")
    generated_matches()
    with rc.Loop(rc.backing_path("prom"), mib=32) as loop:
        with twtest.Harness("reqlat-prometheus") as h:
            conf = rc.agent_conf(h, loop.name)
            h.start_snmpd()
            # A long interval: the figures stay as they are while
            # Prometheus scrapes them, until the sample the test asks for.
            h.start_agent(args=["-c", conf], interval=60, window=600)
            rc.need_timing(h)
            h.sample_now()
            rc.fio(loop.dev, 3)
            h.sample_now()
            twtest.wait_for("rows for %s" % loop.name,
                            lambda: "P99" in rc.reqlat_row(h, loop.index()), timeout=20, step=0.5)
            row = rc.reqlat_row(h, loop.index())
            p99, count = row["P99"].num, row["COUNT"].num
            hist = rc.reqhist_rows(h, loop.index())
            eport, pport = twtest.free_port(), twtest.free_port()
            exporter = subprocess.Popen(
                [twtest.which("prometheus-snmp-exporter"),
                 "--config.file=" + os.path.join(CONTRIB, "snmp.yml"),
                 "--web.listen-address=127.0.0.1:%d" % eport],
                stdout=h.log("snmp_exporter"), stderr=subprocess.STDOUT)
            h.procs.append(exporter)
            target = "127.0.0.1:%d" % h.port
            scrape = "http://127.0.0.1:%d/snmp?module=tunewatch&target=%s" % (eport, target)
            text = twtest.wait_for("snmp_exporter to answer", lambda: _try(scrape), timeout=20,
                                   step=0.3)
            lines = [l for l in text.splitlines() if l.startswith("twReqHistCount{")]
            assert lines, text[-1000:]
            assert any('twDiskName="%s"' % loop.name in l for l in lines), lines[:3]
            with open(os.path.join(CONTRIB, "prometheus.yml")) as fh:
                job = fh.read().replace("TARGET", target).replace(
                    "EXPORTER", "127.0.0.1:%d" % eport)
            cfg = os.path.join(h.dir, "prometheus.yml")
            with open(cfg, "w") as fh:
                fh.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + job)
            prom = subprocess.Popen(
                [twtest.which("prometheus"), "--config.file=" + cfg,
                 "--storage.tsdb.path=" + os.path.join(h.dir, "tsdb"),
                 "--web.listen-address=127.0.0.1:%d" % pport],
                stdout=h.log("prometheus"), stderr=subprocess.STDOUT)
            h.procs.append(prom)
            q = ('histogram_quantile(0.99, tunewatch_request_latency_microseconds_bucket'
                 '{twDiskName="%s",twReqHistDirection="read"})' % loop.name)
            url = "http://127.0.0.1:%d/api/v1/query?query=%s" % (pport, urllib.parse.quote(q))
            try:
                result = twtest.wait_for("Prometheus to answer the quantile",
                                         lambda: _quantile(url), timeout=60, step=0.5)
            except AssertionError:
                series = _try("http://127.0.0.1:%d/api/v1/series?match[]=%s" % (
                    pport, urllib.parse.quote("tunewatch_request_latency_microseconds_bucket")))
                raise AssertionError("no quantile from Prometheus; the exporter's lines: %r; "
                                     "the series: %s" % (lines[:3], (series or "")[:1500]))
            inf = _quantile("http://127.0.0.1:%d/api/v1/query?query=%s" % (pport, urllib.parse.quote(
                'tunewatch_request_latency_microseconds_bucket{twDiskName="%s",'
                'twReqHistDirection="read",le="+Inf"}' % loop.name)))
    lo = max([b for b, n in hist if b <= p99] or [0])
    hi = min([b for b, n in hist if b > p99])
    print("twReqLatP99 %d us (ladder %d..%d); Prometheus histogram_quantile(0.99) %.1f us; "
          "+Inf bucket %s, twReqLatCount %d" % (p99, lo, hi, result, inf, count))
    assert lo <= result <= hi, "histogram_quantile(0.99) %.1f us is not in [%d, %d]" % (
        result, lo, hi)
    assert inf == count, (inf, count)


def _try(url):
    try:
        return http(url)
    except OSError:
        return None


def _quantile(url):
    """The single value of an instant query, or None until there is one."""
    try:
        j = json.loads(http(url))
    except (OSError, ValueError):
        return None
    res = j.get("data", {}).get("result", [])
    if len(res) != 1:
        return None
    v = float(res[0]["value"][1])
    return v if v == v else None


if __name__ == "__main__":
    twtest.main(test)
