#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Every reason a check cannot do its job gives UNKNOWN (exit 3) and one
line that says why, the same way in all three plugins:
  - no agent at the address (a UDP port where nothing listens): the line
    names host and port;
  - snmpd answers but tunewatchd is not registered with it (noSuchObject in
    v2c, noSuchName in v1);
  - a bad argument: not a range, not an SNMP version, an unknown option, a
    missing option argument, a stray word, and the checks' own options;
  - --extra-opts naming a section the file does not have.
(The window with one sample only is in plugin_<check>.py.)"""

import os

import plugin_common as pc
import twtest


def unknown(check, why):
    return ["%s UNKNOWN - %s" % (pc.SERVICE[check], why)]


def check_nobody_listens():
    port = pc.dead_port()
    slack = 2 * pc.startup_s(2)
    # All at once: each waits for its own timeout. -t 5 gives two tries of
    # 2 s and a second to spare: at -t 1 (0.2 s to spare) six checks
    # starting at once on a busy machine met their alarm first.
    runs = [(check, version, pc.start(check, ["-t", "5", "-P", version], port))
            for check in pc.CHECKS for version in ("1", "2c")]
    for check, version, started in runs:
        out = pc.finish(check, started)
        pc.expect(out, 3, unknown(check, "no answer from 127.0.0.1:%d (SNMP v%s, 2000 ms x 2 "
                                         "tries; is the community right?)" % (port, version)))
        # Bounded by -t, with room to start and print.
        assert out.elapsed < 5.5 + slack, (out, "start-up here: %.2f s" % (slack / 2))


def check_not_registered(h):
    for check in pc.CHECKS:
        for version in ("1", "2c"):
            out = pc.run(check, ["-P", version], h.port)
            pc.expect(out, 3, unknown(check, "tunewatchd is not registered with the SNMP agent "
                                             "at 127.0.0.1:%d (no twAgentVersion)" % h.port))


def check_bad_arguments(h):
    common = [
        (["-w", "abc"], "-w 'abc' is not a range (N, N:, ~:N, N:M or @N:M)"),
        (["-c", "1:x"], "-c '1:x' is not a range (N, N:, ~:N, N:M or @N:M)"),
        (["-P", "4"], "-P '4' is not an SNMP version (1, 2c or 3)"),
        (["--bogus"], "unknown option '--bogus' (try --help)"),
        (["-Z"], "unknown option '-Z' (try --help)"),
        (["-t"], "option '-t' needs an argument"),
        (["-t", "0"], "-t '0' is not a timeout (1 to 3600 seconds)"),
        (["-p", "65536"], "-p '65536' is not a port (1 to 65535)"),
        (["-L", "authAndMore"], "-L 'authAndMore' is not a security level (noAuthNoPriv, "
                                "authNoPriv or authPriv)"),
        (["--timeout-result", "MAYBE"], "--timeout-result 'MAYBE' is not a state (OK, WARNING, "
                                        "CRITICAL or UNKNOWN)"),
        (["--os", "hpux"], "--os 'hpux' is not linux, freebsd or svr4"),
        (["--local", "--delay", "10", "-t", "10"], "--delay (10 s) must be shorter than -t (10 s)"),
        (["stray"], "unexpected argument 'stray' (try --help)"),
    ]
    own = {
        "check_disklatency": [
            (["--device", "("], None),
            (["--min-ops", "x"], "--min-ops 'x' is not a rate (operations per second)"),
            (["--write-warning", "abc"], "--write-warning 'abc' is not a range (N, N:, ~:N, N:M "
                                         "or @N:M)"),
            (["--pool", "x"], "unknown option '--pool' (try --help)"),
        ],
        "check_dblock": [
            (["--pool", "["], None),
            (["--device", "x"], "unknown option '--device' (try --help)"),
        ],
        "check_bufcache": [
            (["--refault-warning", "abc"], "--refault-warning 'abc' is not a range (N, N:, ~:N, "
                                           "N:M or @N:M)"),
            (["--pressure-critical", "@"], "--pressure-critical '@' is not a range (N, N:, ~:N, "
                                           "N:M or @N:M)"),
        ],
    }
    for check in pc.CHECKS:
        for args, why in common + own[check]:
            out = pc.run(check, args, h.port)
            if why is None:
                # A regular expression that does not compile: the C
                # library words the reason.
                opt = args[0]
                assert out.rc == 3 and len(out.lines) == 2, out
                assert out.first.startswith("%s UNKNOWN - %s '%s' is not a regular expression: "
                                            % (pc.SERVICE[check], opt, args[1])), out
            else:
                pc.expect(out, 3, unknown(check, why))


def check_extra_opts_section(h):
    ini = os.path.join(h.dir, "plugins.ini")
    with open(ini, "w") as fh:
        fh.write("[check_dblock]\ncommunity = not-to-be-shown\n")
    for check in pc.CHECKS:
        out = pc.run(check, ["--extra-opts=nosuch@" + ini], h.port)
        pc.expect(out, 3, unknown(check, "extra-opts: section [nosuch] not found in %s" % ini))


def test():
    check_nobody_listens()
    with twtest.Harness("plugin-unknown") as h:
        h.start_snmpd()
        check_not_registered(h)
        check_bad_arguments(h)
        check_extra_opts_section(h)


if __name__ == "__main__":
    twtest.main(test)
