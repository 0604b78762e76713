#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""make install into a DESTDIR puts each part where its ecosystem looks, and
the installed programs work: tunewatchd from sbin behind a real snmpd on
127.0.0.1, the three checks from the plugin directory against it. A second
install keeps an administrator's tunewatchd.conf; uninstall removes
everything but that file."""

import os
import stat
import subprocess
import time

import plugin_common as pc
import twinstall
import twtest

CHECKS = ("check_bufcache", "check_dblock", "check_disklatency")


def executable(p):
    st = os.stat(p)
    return stat.S_ISREG(st.st_mode) and st.st_mode & 0o111 == 0o111


def test_layout(dest, d):
    agent = twinstall.path(dest, d["sbindir"], "tunewatchd")
    assert executable(agent), "no executable tunewatchd in sbindir: %s" % agent
    for c in CHECKS:
        p = twinstall.path(dest, d["plugindir"], c)
        assert executable(p), "no executable %s in the plugin directory: %s" % (c, p)
    mib = twinstall.path(dest, d["mibdir"], "TUNEWATCH-MIB.txt")
    with open(mib) as fh:
        # The module's first line past its comments (the SPDX line).
        first = next(l for l in fh if not l.startswith("--"))
        assert first.startswith("TUNEWATCH-MIB DEFINITIONS ::= BEGIN"), mib
    conf = twinstall.path(dest, d["sysconfdir"], "snmp", "tunewatchd.conf")
    with open(conf) as fh, open(os.path.join(twtest.TOP_SRCDIR, "contrib",
                                             "tunewatchd.conf")) as ours:
        assert fh.read() == ours.read(), "the installed example is not contrib/tunewatchd.conf"
    for rel in (("icinga2", "tunewatch.conf"), ("nagios", "tunewatch.cfg"),
                ("snmptt", "tunewatch.conf"), ("snmptrapd", "snmptrapd.conf"),
                ("notify", "tunewatch-ticket.conf"), ("notify", "tunewatch-ticket.cfg"),
                ("prometheus", "generator.yml"), ("prometheus", "snmp.yml"),
                ("prometheus", "prometheus.yml"), ("prometheus", "tunewatch.rules.yml"),
                ("notify", "tunewatch-rt.conf"), ("notify", "tunewatch-rt.initialdata"),
                ("zabbix", "tunewatch_template.yaml"), ("zabbix", "tunewatch-snmptt.conf")):
        p = twinstall.path(dest, d["pkgdatadir"], *rel)
        assert os.path.isfile(p), "no %s under pkgdatadir: %s" % ("/".join(rel), p)
    # Where the notification definitions look for it by default.
    notify = twinstall.path(dest, d["pkgdatadir"], "notify", "tunewatch-ticket")
    assert executable(notify), "no executable tunewatch-ticket: %s" % notify
    rt = twinstall.path(dest, d["pkgdatadir"], "notify", "tunewatch-rt")
    assert executable(rt), "no executable tunewatch-rt beside it: %s" % rt
    am = twinstall.path(dest, d["pkgdatadir"], "notify", "tunewatch-alertmanager")
    assert executable(am), "no executable tunewatch-alertmanager beside it: %s" % am
    assert os.path.isfile(twinstall.path(dest, d["docdir"], "MIB-README"))
    for page in ("man8/tunewatchd.8", "man5/tunewatchd.conf.5", "man7/TUNEWATCH-MIB.7",
                 "man1/check_bufcache.1", "man1/check_dblock.1", "man1/check_disklatency.1"):
        p = twinstall.path(dest, d["mandir"], page)
        assert os.path.isfile(p), "manual page not installed: %s" % p
    if d["systemdsystemunitdir"]:
        unit = twinstall.path(dest, d["systemdsystemunitdir"], "tunewatchd.service")
        with open(unit) as fh:
            text = fh.read()
        want = "ExecStart=%s -f -Lsd\n" % os.path.join(d["sbindir"], "tunewatchd")
        assert want in text, "the unit does not start the installed tunewatchd: %r" % text
        doc = "file:%s\n" % os.path.join(d["docdir"], "MIB-README")
        assert doc in text, "the unit's Documentation= is not the installed MIB-README: %r" % text
        assert "@" not in text, "an unsubstituted variable in the unit: %r" % text


def test_programs(h, dest, d):
    h.start_snmpd()
    h.agent_bin = twinstall.path(dest, d["sbindir"], "tunewatchd")
    # This machine's own /proc and /sys: what an installed agent reads.
    h.start_agent(interval=1, window=10)
    h.sample_now()
    time.sleep(0.2)
    h.sample_now()
    for c in CHECKS:
        argv = [twinstall.path(dest, d["plugindir"], c), "-H", "127.0.0.1", "-p", str(h.port)]
        started = time.monotonic()
        r = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                           env=pc.plugin_env())
        out = pc.Output(argv, r.returncode, r.stdout, r.stderr, time.monotonic() - started)
        out.check(pc.SERVICE[c])
        assert out.state != "UNKNOWN", "the installed %s could not read the agent: %r" % (c, out)
        assert out.perf, "no perfdata: %r" % out


def test_reinstall_keeps_conf(dest, d):
    conf = twinstall.path(dest, d["sysconfdir"], "snmp", "tunewatchd.conf")
    mine = "# an administrator's own\ninterval 10\n"
    with open(conf, "w") as fh:
        fh.write(mine)
    out = twinstall.make(dest)
    with open(conf) as fh:
        assert fh.read() == mine, "make install replaced an existing tunewatchd.conf"
    assert "keeping" in out, out
    twinstall.make(dest, "uninstall")
    left = twinstall.files_under(dest)
    assert left == [os.path.relpath(conf, dest)], "uninstall left %s" % left


def test():
    if not os.environ.get("TW_DIR_sbindir"):
        raise twtest.Skip("TW_DIR_* not set: run through make check (tests/install.mk)")
    d = twinstall.dirs()
    with twtest.Harness("install") as h:
        dest = os.path.join(h.dir, "destdir")
        twinstall.make(dest)
        test_layout(dest, d)
        test_programs(h, dest, d)
        h.stop_all()
        test_reinstall_keeps_conf(dest, d)


if __name__ == "__main__":
    twtest.main(test)
