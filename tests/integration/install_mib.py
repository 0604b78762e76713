#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The installed TUNEWATCH-MIB is found by name by Net-SNMP's tools from
the installed MIB directory: snmptranslate -M <mibdir> -m TUNEWATCH-MIB.

TUNEWATCH-MIB imports SNMPv2-SMI, SNMPv2-TC, SNMPv2-CONF and HCNUM-TC,
which Debian ships only in non-free (snmp-mibs-downloader). The test
resolves them with the stand-ins of tests/mibs (written for the tests:
tests/mibs/README.md), which every machine has, and again with the IETF's
own modules where they are here too (../shared/mibs on a development
machine, /usr/share/snmp/mibs/ietf); tests/mib_smilint.sh holds the
stand-ins to the IETF's."""

import os
import subprocess

import twinstall
import twtest

# name -> OID, from mib/tunewatch_oids.h's numbers.
OBJECTS = {
    "TUNEWATCH-MIB::twAgentVersion.0": "." + twtest.OBJECTS + ".1.1.0",
    "TUNEWATCH-MIB::tunewatchMIB": "." + twtest.ARC,
}


def test():
    if not os.environ.get("TW_DIR_mibdir"):
        raise twtest.Skip("TW_DIR_* not set: run through make check (tests/install.mk)")
    tool = twtest.which("snmptranslate")
    if not tool:
        raise twtest.Skip("snmptranslate is needed (Debian: apt-get install snmp)")
    bases = [twtest.standin_mib_dir()]
    if twtest.base_mib_dirs():
        bases.append(twtest.base_mib_dirs())
    else:
        print("the IETF's base modules are not on this machine: the stand-ins alone")
    d = twinstall.dirs()
    with twtest.Harness("install-mib") as h:
        dest = os.path.join(h.dir, "destdir")
        twinstall.make(dest)
        mibdir = twinstall.path(dest, d["mibdir"])
        for base in bases:
            found(tool, mibdir, base)
            print("found by name from %s with the base modules of %s" % (mibdir, base))


def found(tool, mibdir, base):
    """The installed module, and only it, gives the names their numbers."""
    # The installed directory first, so that it, not the checkout's mib/,
    # is what is found; NET-SNMP-MIB (netSnmpPlaypen) from the system.
    mibdirs = "%s:%s:/usr/share/snmp/mibs" % (mibdir, base)
    env = dict(os.environ, MIBS="", MIBDIRS="")
    for name, oid in OBJECTS.items():
        r = subprocess.run([tool, "-M", mibdirs, "-m", "TUNEWATCH-MIB", "-On", name],
                           capture_output=True, text=True, env=env, timeout=30)
        assert r.returncode == 0, "snmptranslate %s: %s" % (name, r.stderr)
        assert r.stdout.strip() == oid, "%s is %r, not %s" % (name, r.stdout, oid)
        assert "Cannot" not in r.stderr, r.stderr
    # And the other way round, names from the installed module.
    r = subprocess.run([tool, "-M", mibdirs, "-m", "TUNEWATCH-MIB", "-Tp", "-IR",
                        "twDiskTable"], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0 and "twDiskEntry" in r.stdout, r.stdout + r.stderr
    assert "Cannot" not in r.stderr and "Did not find" not in r.stderr, r.stderr
    # Without the installed directory the module is not found: the test
    # above really read the installed file.
    r = subprocess.run([tool, "-M", "%s:/usr/share/snmp/mibs" % base, "-m", "TUNEWATCH-MIB",
                        "-On", "TUNEWATCH-MIB::twAgentVersion.0"], capture_output=True,
                       text=True, env=env, timeout=30)
    assert r.returncode != 0, "TUNEWATCH-MIB found without the installed directory"


if __name__ == "__main__":
    twtest.main(test)
