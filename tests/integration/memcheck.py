#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Memory safety: tunewatchd and each plugin under valgrind memcheck, through
their main paths (samples, walks, GETBULK, a cgroup limit changed and recorded,
a master restart, a burst of notifications that fills the queue to the master,
a clean stop with it full;
SNMP v2c and v3 authPriv, --local, --cgroup over SNMP and with --local on a
cgroup v2 fixture, and an UNKNOWN exit), with no invalid
access and no leak; then, as root, tunewatchd probing a loop device over a
FUSE file of tests/fusedelay (its reading thread through reads, EIO and
back, and a stop with a read of 3 s outstanding, which is left behind) and
check_disklatency --local --probe. Skipped in sanitizer builds (ASan and
valgrind do not mix) and where valgrind is not installed; the probe part
without root, losetup or tests/fusedelay."""

import os
import re
import shutil
import subprocess
import tarfile
import time

import agent_notify_flood
import probe_common as pc
import twtest

# tests/valgrind.supp names the few leaks inside Net-SNMP itself.
VALGRIND = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect",
            "--errors-for-leak-kinds=definite,indirect", "--track-origins=yes",
            "--suppressions=" + os.path.join(twtest.TOP_SRCDIR, "tests", "valgrind.supp")]
USER, AUTH, PRIV = "twmemcheck", "memcheck-auth-pass", "memcheck-priv-pass"


def summary_ok(text, who):
    errors = re.findall(r"ERROR SUMMARY: (\d+) errors", text)
    assert errors and int(errors[-1]) == 0, "%s: valgrind found errors:\n%s" % (who, text[-4000:])
    for kind in ("definitely lost", "indirectly lost"):
        m = re.search(kind + r": ([\d,]+) bytes", text)
        assert m is None or m.group(1) == "0", "%s: %s %s bytes" % (who, kind, m.group(1))


def plugin(h, name, args, expect):
    log = os.path.join(h.dir, "vg-%s-%d.log" % (name, len(os.listdir(h.dir))))
    r = subprocess.run(VALGRIND + ["--log-file=" + log, os.path.join(twtest.TOP_BUILDDIR,
                                   "plugins", name)] + args,
                       capture_output=True, text=True, timeout=120, env=h.client_env())
    with open(log) as fh:
        summary_ok(fh.read(), "%s %s" % (name, " ".join(args)))
    assert r.returncode in expect, "%s %s: exit %d: %s" % (name, args, r.returncode, r.stdout)
    assert r.stdout.count("\n") >= 1, r.stdout


def part_probe(h):
    try:
        pc.need_root_tools()
        pc.need_fusedelay()
    except twtest.Skip as e:
        print("note: the probe not run under valgrind: %s" % e)
        return
    with pc.FuseDelay(0, mib=16, prefix=pc.NAME_PREFIX) as fd:
        conf = pc.write_conf(h, ["probe %s 10" % fd.name, "probe no-such-disk-here",
                                 "probeTimeout 1", "probeIdleTime 0"])
        vglog = os.path.join(h.dir, "vg-tunewatchd-probe.log")
        h.start_snmpd()
        h.agent = subprocess.Popen(VALGRIND + ["--log-file=" + vglog, h.agent_bin, "-f", "-Lo",
                                               "-C", "-c", conf, "-x", h.socket, "--interval",
                                               "1", "--window", "5"],
                                   stdout=h.log("tunewatchd-probe"), stderr=subprocess.STDOUT)
        h.procs.append(h.agent)
        h.wait_agent(timeout=300)     # under valgrind: a hang detector (load 31 passed 120 s)
        idx = fd.loop.index()
        pc.wait_state(h, idx, "probing", timeout=60)
        twtest.wait_for("probe reads", lambda: pc.probe_row(h, idx).get("COUNT") and
                        pc.probe_row(h, idx)["COUNT"].num >= 10, timeout=60, step=1)
        fd.set_errors(True)
        pc.wait_state(h, idx, "errors", timeout=60)
        fd.set_errors(False)
        pc.wait_state(h, idx, "probing", timeout=60)
        h.walk()
        fd.set_delay(3000000)
        time.sleep(1.5)               # a read of 3 s is now outstanding
        h.stop(h.agent, timeout=60)
        with open(vglog) as fh:
            summary_ok(fh.read(), "tunewatchd probing")
        h.stop_all()
        fd.set_delay(0)
        plugin(h, "check_disklatency", ["--local", "--delay", "1", "--probe", "--probe-count",
                                        "5", "--percentile", "50", "--device",
                                        "^%s$" % fd.name, "-t", "30"],
               (0, 1, 2))


def test():
    if os.environ.get("TW_SANITIZERS") == "yes":
        raise twtest.Skip("a sanitizer build: valgrind cannot run ASan binaries")
    if not shutil.which("valgrind"):
        raise twtest.Skip("valgrind is not installed (Debian: apt-get install valgrind)")
    with twtest.Harness("memcheck") as h:
        root = h.copy_fixture("agent")
        # The cgroup v2 tree too, so that twCgroupTable is built and walked.
        with tarfile.open(os.path.join(twtest.FIXTURES, "collectors", "cgroup.tar")) as tf:
            tf.extractall(os.path.join(h.dir, "cgroup"))
        shutil.copytree(os.path.join(h.dir, "cgroup", "v2", "sys", "fs"),
                        os.path.join(root, "sys", "fs"))
        h.start_snmpd('createUser %s SHA "%s" AES "%s"\nrouser %s priv\n' %
                      (USER, AUTH, PRIV, USER))
        vglog = os.path.join(h.dir, "vg-tunewatchd.log")
        # Findings raised and cleared at once, so that their table and
        # notifications run under valgrind too.
        conf = os.path.join(h.dir, "findings.conf")
        with open(conf, "w") as fh:
            fh.write("findingRaiseAfter 1\nfindingClearAfter 1\nnotificationsPerMinute 0\n")
        cmd = VALGRIND + ["--log-file=" + vglog, h.agent_bin, "-f", "-Lo", "-C", "-c", conf,
                          "-x", h.socket, "--interval", "60", "--window", "60",
                          "--proc-root", os.path.join(root, "proc"),
                          "--sys-root", os.path.join(root, "sys")]
        h.agent = subprocess.Popen(cmd, stdout=h.log("tunewatchd"),
                                   stderr=subprocess.STDOUT)
        h.procs.append(h.agent)
        h.wait_agent(timeout=300)     # under valgrind: a hang detector (load 31 passed 120 s)
        h.sample_now()
        softnet = os.path.join(root, "proc", "net", "softnet_stat")
        with open(softnet) as fh:
            rows = fh.read().split("\n")
        cols = rows[1].split()
        cols[1] = "%08x" % (int(cols[1], 16) + 152)
        rows[1] = " ".join(cols)
        with open(softnet, "w") as fh:
            fh.write("\n".join(rows))
        h.sample_now()
        findings = "%s.%d.%d" % (twtest.OBJECTS, twtest._H["TW_OID_FINDINGS"][0],
                                 twtest._H["TW_OID_FINDING_TABLE"][0])
        assert any("tw-" in v.text for v in h.walk(findings)), "no finding raised"
        h.walk()
        h.walk(bulk=True)
        h.sample_now()
        assert not any("tw-" in v.text for v in h.walk(findings)), "the finding stayed"
        # A cgroup's limit changed: the change watch records it, in the
        # cgroup's turn (every fourth sample).
        with open(os.path.join(root, "sys", "fs", "cgroup", "system.slice", "nginx.service",
                               "memory.high"), "w") as fh:
            fh.write("134217728\n")
        for _ in range(5):
            h.sample_now()
        assert any("MemoryHigh" in v.text for v in h.walk(twtest.oid("CHANGE_TUNABLE", None)[:-2])), \
            "no change of nginx.service's MemoryHigh recorded"

        port = str(h.port)
        for name in ("check_disklatency", "check_dblock", "check_bufcache"):
            plugin(h, name, ["-H", "127.0.0.1", "-p", port, "-t", "30"], (0, 1, 2))
        plugin(h, "check_dblock", ["-H", "127.0.0.1", "-p", port, "-t", "30", "-P", "3",
                                   "-L", "authPriv", "-U", USER, "-a", "SHA", "-A", AUTH,
                                   "-x", "AES", "-X", PRIV], (0, 1, 2))
        plugin(h, "check_disklatency", ["--local", "--delay", "1", "--proc-root",
                                        os.path.join(root, "proc"), "--sys-root",
                                        os.path.join(root, "sys"), "-t", "30"], (0, 1, 2))
        plugin(h, "check_bufcache", ["-H", "127.0.0.1", "-p", port, "-t", "30", "--cgroup",
                                     "nginx", "--cgroup", "/user.slice/*"], (0, 1, 2))
        plugin(h, "check_bufcache", ["--local", "--delay", "1", "--proc-root",
                                     os.path.join(root, "proc"), "--sys-root",
                                     os.path.join(root, "sys"), "-t", "30", "--cgroup", "*"],
               (0, 1, 2))
        plugin(h, "check_bufcache", ["-w", "not-a-range"], (3,))

        # The master goes and comes back under the agent.
        h.stop(h.snmpd)
        h.start_snmpd(keep_port=True)
        twtest.wait_for("tunewatchd back", lambda: h.agent_samples(), timeout=30)
        # A burst of findings (agent_notify_flood.py's 2,000 dropping
        # sockets): notifications in flight, queued and dropped; the agent
        # stops with the queue still full, which it frees.
        agent_notify_flood.write_drops(root, 0)
        h.sample_now()
        agent_notify_flood.write_drops(root, 1)
        h.sample_now()
        dropped = h.get(["%s.%d.%d.0" % (twtest.OBJECTS, twtest._H["TW_OID_FINDINGS"][0],
                                          twtest._H["TW_OID_FINDING_DROPPED"][0])])
        assert dropped[0].num > 0, dropped
        h.stop(h.agent, timeout=60)
        with open(vglog) as fh:
            summary_ok(fh.read(), "tunewatchd")
        h.stop_all()
        part_probe(h)


if __name__ == "__main__":
    twtest.main(test)
