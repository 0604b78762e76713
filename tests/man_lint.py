#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The manual pages are clean under mandoc -Tlint, style messages included.
Two kinds of message depend on the machine, not on the pages, and are left
out: "referenced manual not found" (whether snmpd(8) or the pages' own
siblings are installed here) and mandoc.db notes."""

import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))
import twtest  # noqa: E402

MACHINE = ("referenced manual not found", "mandoc.db")


def test():
    mandoc = twtest.which("mandoc")
    if not mandoc:
        raise twtest.Skip("mandoc checks the pages (Debian: apt-get install mandoc)")
    pages = sorted(glob.glob(os.path.join(twtest.TOP_SRCDIR, "man", "*.[1-8]")))
    assert len(pages) == 6, "expected six pages, found %s" % pages
    r = subprocess.run([mandoc, "-Tlint"] + pages, capture_output=True, text=True, timeout=60)
    lines = [l for l in (r.stdout + r.stderr).splitlines()
             if l and not any(m in l for m in MACHINE)]
    assert not lines, "mandoc -Tlint:\n" + "\n".join(lines)
    print("%d pages clean under mandoc -Tlint" % len(pages))


if __name__ == "__main__":
    twtest.main(test)
