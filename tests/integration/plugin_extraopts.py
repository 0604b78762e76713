#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""--extra-opts against a real agent: options come from an ini file section
(by default the plugin's own name), and the command line, which comes after
them, wins. A missing file or section, or a malformed line, is UNKNOWN with
one line naming the file (and line), never quoting the file's contents:
the file is where SNMPv3 pass phrases are kept.

snmpd accepts the communities "public" and "tw-s3cret"; tunewatchd runs on
tests/fixtures/agent changed as agent_walk does, so check_dblock finds 170
failures (152 of them cpu1's backlog drops)."""

import os

import agent_walk
import plugin_common as pc
import twtest

SECRETS = ("tw-s3cret", "not-the-community", "s3cr3t-pass-phrase")


def write_ini(h):
    path = os.path.join(h.dir, "plugins.ini")
    with open(path, "w") as fh:
        fh.write(
            "# tunewatch test options\n"
            "[check_dblock]\n"
            "hostname = 127.0.0.1\n"
            "port = %d\n"
            "community = tw-s3cret\n"
            "w = 200\n"
            "critical = 300\n"
            "\n"
            "[check_disklatency]\n"
            "hostname=127.0.0.1\n"
            "port=%d\n"
            "community=tw-s3cret\n"
            "warning=100\n"
            "c=200\n"
            "\n"
            "[wrong community]\n"
            "hostname = 127.0.0.1\n"
            "port = %d\n"
            "community = not-the-community\n"
            # 2 s a try, twice: the plugin's own 5 s alarm keeps a second
            # for its start and the rest on a busy machine (at 1 s, 200 ms).
            "timeout = 5\n"
            "\n"
            "[broken]\n"
            "community = tw-s3cret\n"
            "= s3cr3t-pass-phrase\n" % (h.port, h.port, h.port))
    return path


def no_secrets(out):
    for s in SECRETS:
        assert s not in out.stdout, "the output quotes the file: %r" % out


def test():
    with twtest.Harness("plugin-extraopts") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd(extra_conf="rocommunity tw-s3cret 127.0.0.1\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        agent_walk.change_fixture(root)
        h.sample_now()
        ini = write_ini(h)

        # Host, port, community and both thresholds from [check_dblock].
        out = pc.run("check_dblock", ["--extra-opts=@" + ini])
        assert out.rc == 0 and out.summary.startswith("167 failures in 11 pools"), out
        assert {(p.warn, p.crit) for p in out.perf} == {("200", "300")}, out
        no_secrets(out)
        # The command line comes after the file's options and wins.
        out = pc.run("check_dblock", ["--extra-opts=@" + ini, "-w", "100"])
        assert out.rc == 1 and out.summary.startswith("cpu1 backlog 152 failures in the"), out
        assert {(p.warn, p.crit) for p in out.perf} == {("100", "300")}, out
        # The same file found through MP_CONFIG_FILE, with a bare --extra-opts.
        out = pc.run("check_dblock", ["--extra-opts"], env={"MP_CONFIG_FILE": ini})
        assert out.rc == 0 and {(p.warn, p.crit) for p in out.perf} == {("200", "300")}, out
        # Long option names in the file: warning=100 and c=200 for sda's 50 ms.
        out = pc.run("check_disklatency", ["--extra-opts=@" + ini])
        assert out.rc == 0, out
        assert out.perf_map()["sda_r_await"].text == "sda_r_await=50ms;100;200;0", out

        # The file's community is the one used: a wrong one gets no answer...
        out = pc.run("check_dblock", ["--extra-opts=wrong community@" + ini])
        pc.expect(out, 3, ["DBLOCK UNKNOWN - no answer from 127.0.0.1:%d (SNMP v2c, 2000 ms x 2 "
                           "tries; is the community right?)" % h.port])
        no_secrets(out)
        # ... and -C on the command line overrides it.
        out = pc.run("check_dblock", ["--extra-opts=wrong community@" + ini, "-C", "public"])
        assert out.rc == 1, out

        # Errors: one line, naming the file, quoting nothing of it.
        out = pc.run("check_dblock", ["--extra-opts=nosuch@" + ini])
        pc.expect(out, 3, ["DBLOCK UNKNOWN - extra-opts: section [nosuch] not found in %s" % ini])
        missing = os.path.join(h.dir, "missing.ini")
        out = pc.run("check_bufcache", ["--extra-opts=@" + missing])
        pc.expect(out, 3, ["BUFCACHE UNKNOWN - extra-opts: cannot read %s: no such file" % missing])
        out = pc.run("check_disklatency", ["--extra-opts=broken@" + ini])
        pc.expect(out, 3, ["DISKLATENCY UNKNOWN - extra-opts: %s line 24: not a [section], "
                           "comment or key[=value] line" % ini])
        no_secrets(out)
        # No file anywhere: MP_CONFIG_FILE names one that is not there.
        out = pc.run("check_dblock", ["--extra-opts"], env={"MP_CONFIG_FILE": missing})
        pc.expect(out, 3, ["DBLOCK UNKNOWN - extra-opts: cannot read %s: no such file" % missing])


if __name__ == "__main__":
    twtest.main(test)
