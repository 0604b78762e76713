#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Every source file of the tree says its licence in an SPDX line.

tunewatch is under the ISC licence (LICENSE). Each file of code, build
rules, manual page and the MIB names it near its top, as
"SPDX-License-Identifier: ISC" in the file's own comment syntax, so that a
file copied out of the tree still says what it may be used under. Test
data (tests/fixtures/, the fuzz corpora) and configuration examples are
not sources and carry none.

The files are the repository's own (git ls-files): without a git checkout
(a release tarball) the test is skipped. With --add it writes the line
where it is missing, for contributors; the test itself changes nothing.
"""

import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: ISC"
TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..")
SKIP_DIRS = ("tests/fixtures/", "tests/fuzz/corpus/")
HASH = "# " + TAG


def comment_for(path, first):
    """The SPDX line in path's comment syntax, or None for no source."""
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    if ext in (".c", ".h"):
        return "/* " + TAG + " */"
    if ext in (".py", ".sh", ".mk", ".am") or base == "rules" or first.startswith("#!"):
        return HASH
    if base == "configure.ac":
        return "dnl " + TAG
    if ext in (".1", ".5", ".7", ".8"):
        return '.\\" ' + TAG
    if path.startswith("mib/") and ext == ".txt":
        return "-- " + TAG
    return None


def sources():
    """(path, SPDX line) of every source the repository tracks."""
    r = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], capture_output=True)
    if r.returncode != 0:
        return None
    out = []
    for path in r.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not path or path.startswith(SKIP_DIRS):
            continue
        full = os.path.join(TOP, path)
        if not os.path.isfile(full) or os.path.islink(full):
            continue
        with open(full, "rb") as fh:
            first = fh.readline().decode("utf-8", "replace")
        line = comment_for(path, first)
        if line is not None:
            out.append((path, line))
    return out


def has_tag(full):
    """The tag within the first three lines (after a shebang, a Makefile's
    or a man page's first comment)."""
    with open(full, encoding="utf-8", errors="replace") as fh:
        return any(TAG in fh.readline() for _ in range(3))


def add_tag(full, line):
    with open(full, encoding="utf-8", errors="surrogateescape") as fh:
        lines = fh.readlines()
    at = 1 if lines and lines[0].startswith("#!") else 0
    lines.insert(at, line + "\n")
    with open(full, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.writelines(lines)


def main():
    files = sources()
    if files is None:
        print("SKIP: not a git checkout, so the tree's own files are not known")
        return 77
    missing = [(p, l) for p, l in files if not has_tag(os.path.join(TOP, p))]
    if "--add" in sys.argv[1:]:
        for path, line in missing:
            add_tag(os.path.join(TOP, path), line)
        print("added the SPDX line to %d files" % len(missing))
        return 0
    for path, line in missing:
        print("FAIL: %s has no %r in its first three lines" % (path, line))
    if not os.path.isfile(os.path.join(TOP, "LICENSE")):
        print("FAIL: no LICENSE at the top of the tree")
        return 1
    print("%d sources, %d without the SPDX line" % (len(files), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
