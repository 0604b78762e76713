#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A plugin reads tunewatchd through an snmpd that knows an SNMPv3 user,
end to end with SHA authentication and AES privacy; the pass phrases can come
from an --extra-opts file instead of the command line (where every local user
sees them in ps). A wrong pass phrase, user or level is UNKNOWN with one clear
line."""

import os
import subprocess

import twtest

USER, AUTH, PRIV = "twv3user", "tw-auth-passphrase", "tw-priv-passphrase"


def check(h, *args):
    r = subprocess.run([os.path.join(twtest.TOP_BUILDDIR, "plugins", "check_dblock"),
                        "-H", "127.0.0.1", "-p", str(h.port), "-t", "4"] + list(args),
                       capture_output=True, text=True, timeout=30)
    # v3 initialises the whole library; it must still load no MIB file.
    assert "Cannot" not in r.stderr and "MIB" not in r.stderr, r.stderr
    return r.returncode, r.stdout


def test():
    with twtest.Harness("snmpv3") as h:
        root = h.copy_fixture("agent")
        # v3 only: the community is not accepted for this test's user view.
        h.start_snmpd('createUser %s SHA "%s" AES "%s"\nrouser %s priv\n' %
                      (USER, AUTH, PRIV, USER))
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        h.sample_now()
        v3 = ["-P", "3", "-L", "authPriv", "-U", USER, "-a", "SHA", "-x", "AES"]

        code, out = check(h, *(v3 + ["-A", AUTH, "-X", PRIV]))
        assert code == 0 and out.startswith("DBLOCK OK - no failures in"), out

        # The same from an ini file: nothing secret on the command line.
        ini = os.path.join(h.dir, "plugins.ini")
        with open(ini, "w") as fh:
            fh.write("[v3]\nprotocol=3\nseclevel=authPriv\nsecname=%s\nauthproto=SHA\n"
                     "authpasswd=%s\nprivproto=AES\nprivpasswd=%s\n" % (USER, AUTH, PRIV))
        os.chmod(ini, 0o600)
        code, out = check(h, "--extra-opts=v3@" + ini)
        assert code == 0 and out.startswith("DBLOCK OK - "), out

        # Wrong authentication pass phrase.
        code, out = check(h, *(v3 + ["-A", "not-the-passphrase", "-X", PRIV]))
        assert code == 3 and out.count("\n") == 1, out
        assert out.startswith("DBLOCK UNKNOWN - SNMP v3 request to 127.0.0.1:%d failed: "
                              % h.port), out
        assert "uthentication" in out and "not-the-passphrase" not in out, out

        # Unknown user.
        code, out = check(h, "-P", "3", "-L", "authPriv", "-U", "nobody-here", "-A", AUTH,
                          "-X", PRIV)
        assert code == 3 and "nknown user" in out and out.count("\n") == 1, out

        # A level below what the user is allowed: the agent refuses the
        # request; the answer says so.
        code, out = check(h, "-P", "3", "-L", "authNoPriv", "-U", USER, "-a", "SHA", "-A", AUTH)
        assert code == 3 and out.count("\n") == 1, out
        assert "127.0.0.1:%d" % h.port in out, out

        # A pass phrase too short for USM, and a bad level, are argument errors.
        code, out = check(h, *(v3 + ["-A", "short", "-X", PRIV]))
        assert code == 3 and "at least 8 characters" in out, out
        code, out = check(h, "-P", "3", "-L", "authpriv")
        assert code == 3 and "not a security level" in out, out

        # --help says why secrets belong in a file.
        r = subprocess.run([os.path.join(twtest.TOP_BUILDDIR, "plugins", "check_dblock"),
                            "--help"], capture_output=True, text=True)
        assert "process list" in r.stdout, r.stdout


if __name__ == "__main__":
    twtest.main(test)
