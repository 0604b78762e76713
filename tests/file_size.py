#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""No source file of the product is over 400 lines.

A file that grows past a screenful of screenfuls holds more than one
concept, and a reader who wants one of them must read them all. The
product's sources are the C of lib/, plugins/ and agentx/ (and the MIB's
header) and the notification programs of contrib/notify/ with their Python
modules; the tests and the benchmarks are not held to it. The limit is
counted in lines as wc -l counts them. Each file over it is named with its count.
"""

import os
import sys

LIMIT = 400
TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..")
DIRS = ("lib", "plugins", "agentx", "mib")
PROGRAM_DIRS = ("contrib/notify",)


def product_sources():
    """Every .c and .h under the product's folders and every program of
    PROGRAM_DIRS, as paths from the top."""
    for d in DIRS:
        for root, dirs, files in os.walk(os.path.join(TOP, d)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".c", ".h")) and not name.endswith(".skel.h"):
                    yield os.path.relpath(os.path.join(root, name), TOP)
    for d in PROGRAM_DIRS:
        if not os.path.isdir(os.path.join(TOP, d)):
            continue
        for name in sorted(os.listdir(os.path.join(TOP, d))):
            path = os.path.join(TOP, d, name)
            if os.path.isfile(path) and (os.access(path, os.X_OK) or name.endswith(".py")):
                yield os.path.relpath(path, TOP)


def main():
    over = []
    seen = 0
    for path in product_sources():
        seen += 1
        with open(os.path.join(TOP, path), "rb") as fh:
            n = fh.read().count(b"\n")
        if n > LIMIT:
            over.append((n, path))
    if seen == 0:
        print("file_size: no C source found under %s" % TOP)
        return 1
    for n, path in sorted(over, reverse=True):
        print("%s: %d lines, over %d" % (path, n, LIMIT))
    print("file_size: %d sources, %d over %d lines" % (seen, len(over), LIMIT))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
