#!/usr/bin/env python3
"""Every option a program's --help prints is in its manual page, and every
long option the page names is one --help prints: the two cannot drift
apart. The page is read as mandoc renders it, so that mdoc's `Fl -window`
counts as --window."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))
import twtest  # noqa: E402

PROGRAMS = {
    "agentx/tunewatchd": "man/tunewatchd.8",
    "plugins/check_bufcache": "man/check_bufcache.1",
    "plugins/check_dblock": "man/check_dblock.1",
    "plugins/check_disklatency": "man/check_disklatency.1",
}

LONG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9])")
# An option line of --help: indented, starting with a short option.
SHORT = re.compile(r"^\s+(-[A-Za-z])(?=[\s,\[=]|$)")


def help_options(prog):
    r = subprocess.run([prog, "--help"], capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, MIBS=""))
    # The checks exit UNKNOWN (3) after --help, as the Monitoring Plugins do.
    assert r.returncode in (0, 3), "%s --help exited %d: %s" % (prog, r.returncode, r.stderr)
    text = r.stdout
    longs = set(LONG.findall(text))
    shorts = set()
    for line in text.splitlines():
        m = SHORT.match(line)
        if m:
            shorts.add(m.group(1))
    assert longs, "no long options found in %s --help" % prog
    return longs, shorts


def page_text(mandoc, page):
    r = subprocess.run([mandoc, "-Tascii", "-Owidth=400", page], capture_output=True,
                       timeout=30)
    assert r.returncode == 0, "mandoc %s: %s" % (page, r.stderr)
    # Drop the backspace overstrike of bold and underlined text.
    return re.sub(r".\x08", "", r.stdout.decode())


def test():
    mandoc = twtest.which("mandoc")
    if not mandoc:
        raise twtest.Skip("mandoc renders the pages (Debian: apt-get install mandoc)")
    problems = []
    for prog, page in PROGRAMS.items():
        longs, shorts = help_options(os.path.join(twtest.TOP_BUILDDIR, prog))
        text = page_text(mandoc, os.path.join(twtest.TOP_SRCDIR, page))
        in_page = set(LONG.findall(text))
        for o in sorted(longs - in_page):
            problems.append("%s: %s --help prints %s" % (page, os.path.basename(prog), o))
        for o in sorted(in_page - longs):
            problems.append("%s names %s, which %s --help does not" % (page, o,
                                                                        os.path.basename(prog)))
        for o in sorted(shorts):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), text):
                problems.append("%s: %s --help prints %s" % (page, os.path.basename(prog), o))
        print("%s: %d long and %d short options, all in %s" % (
            os.path.basename(prog), len(longs), len(shorts), page))
    assert not problems, "\n".join(problems)


if __name__ == "__main__":
    twtest.main(test)
