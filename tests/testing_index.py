#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""TESTING.md against the tests there are: every test file (tests/check_*.c,
tests/integration/*.py, the lab's tests/lab/*.py, the guest lab's
tests/guest/*.py, and the scripts
tests/*.py and tests/*.sh) is named in it, and every .c, .py or .sh file it
names exists.

A name counts as written in TESTING.md: with its folders (then it must be
at that path in the source tree) or bare (then some file under tests/ has
it), and a brace list names each of its members
(`check_{range,state}.c`). A pattern (`plugin_*.py`, `check_<collector>.c`)
names no file. Reads the source tree only, so it runs in make distcheck's
tree as well (TESTING.md is in EXTRA_DIST)."""

import glob
import os
import re
import sys

TOP = os.environ.get("top_srcdir",
                     os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
NAME = re.compile(r"[A-Za-z0-9_./{},<>*-]+\.(?:c|py|sh)\b")
TEST_FILES = ("tests/check_*.c", "tests/integration/*.py", "tests/lab/*.py", "tests/guest/*.py",
              "tests/*.py", "tests/*.sh")


def expand(token):
    """The names a token stands for: one, or one a member of its brace list."""
    m = re.match(r"^(.*)\{([^{}]*)\}(.*)$", token)
    if not m:
        return [token]
    return [n for part in m.group(2).split(",")
            for n in expand(m.group(1) + part + m.group(3))]


def names_in(text):
    """The file names the text writes, patterns left out."""
    names = set()
    for token in NAME.findall(text):
        for name in expand(token.lstrip("./")):
            if not re.search(r"[*<>{},]", name):
                names.add(name)
    return names


def under_tests():
    """Basenames of the files under tests/."""
    found = set()
    for d, _, files in os.walk(os.path.join(TOP, "tests")):
        found.update(files)
    return found


def main():
    with open(os.path.join(TOP, "TESTING.md"), encoding="utf-8") as fh:
        names = names_in(fh.read())
    bare = {os.path.basename(n) for n in names}
    present = under_tests()
    problems = []
    for pattern in TEST_FILES:
        for path in sorted(glob.glob(os.path.join(TOP, pattern))):
            if os.path.basename(path) not in bare:
                problems.append("%s is not named in TESTING.md"
                                % os.path.relpath(path, TOP))
    for name in sorted(names):
        if "/" in name:
            if not os.path.exists(os.path.join(TOP, name)):
                problems.append("TESTING.md names %s, which does not exist" % name)
        elif name not in present:
            problems.append("TESTING.md names %s, and no file under tests/ has that name"
                            % name)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("PASS: %d test files named, %d names checked" % (
        sum(len(glob.glob(os.path.join(TOP, p))) for p in TEST_FILES), len(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
