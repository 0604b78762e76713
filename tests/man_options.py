#!/usr/bin/env python3
"""Every option a program's --help prints is in its manual page, and every
option the page names is one --help prints: the two cannot drift apart.

A program's options are, in --help, those on its option lines (a line that
starts, after at most two blanks, with '-') and, in the page, those in the
item tags of its OPTIONS section (`.It Fl -window Ar seconds`): the two sets
must be equal. Prose may name another program's option (`systemctl
set-property --runtime`), so a --word elsewhere in either text must be one
of the program's options or one of FOREIGN, each said whose it is; a prose
reference to an option that is gone still fails. The page's prose is read
as mandoc renders it, so that mdoc's `Fl -window` counts as --window."""

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

# Other programs' options that the texts name, and whose they are.
FOREIGN = {
    "--runtime": "systemctl set-property, in the apply line of a unit's ticket",
    "--user": "systemctl --user -M UID@, in the apply line of a user's unit's ticket "
              "(tunewatchd's own --user is another)",
}

LONG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9])")
SHORT = re.compile(r"(?<![\w-])(-[A-Za-z])(?=[\s,\[=]|$)")
# An option line of --help: the plugins indent it by one blank, tunewatchd
# by two; descriptions are indented further, or follow the option after a
# gap of two blanks or more, which is cut off.
OPTION_LINE = re.compile(r"^ {1,2}(-\S.*?)(?: {2,}.*)?$")
# An mdoc flag: `Fl -window` is --window, `Fl w` is -w.
FL = re.compile(r"\bFl\s+(-?)([A-Za-z0-9][A-Za-z0-9-]*)")


def help_options(prog):
    r = subprocess.run([prog, "--help"], capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, MIBS=""))
    # The checks exit UNKNOWN (3) after --help, as the Monitoring Plugins do.
    assert r.returncode in (0, 3), "%s --help exited %d: %s" % (prog, r.returncode, r.stderr)
    text = r.stdout
    opts = set()
    for line in text.splitlines():
        m = OPTION_LINE.match(line)
        if m:
            opts |= set(LONG.findall(m.group(1))) | set(SHORT.findall(m.group(1)))
    assert any(o.startswith("--") for o in opts), "no long options found in %s --help" % prog
    return opts, text


def page_options(page):
    """The options in the item tags of the page's OPTIONS section."""
    opts = set()
    section = None
    with open(page) as f:
        for line in f:
            if line.startswith(".Sh "):
                section = line[4:].strip()
            elif section == "OPTIONS" and line.startswith(".It "):
                for dash, word in FL.findall(line):
                    if dash or len(word) == 1:
                        opts.add("-" + dash + word)
    assert opts, "no options in the OPTIONS section of %s" % page
    return opts


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
        name = os.path.basename(prog)
        in_help, help_text = help_options(os.path.join(twtest.TOP_BUILDDIR, prog))
        path = os.path.join(twtest.TOP_SRCDIR, page)
        in_page = page_options(path)
        for o in sorted(in_help - in_page):
            problems.append("%s: %s --help prints %s, the page's OPTIONS does not" % (
                page, name, o))
        for o in sorted(in_page - in_help):
            problems.append("%s: OPTIONS has %s, which %s --help does not" % (page, o, name))
        for where, text in (("%s --help" % name, help_text),
                            (page, page_text(mandoc, path))):
            for o in sorted(set(LONG.findall(text)) - in_help - in_page - set(FOREIGN)):
                problems.append("%s names %s, which is not an option of %s" % (where, o, name))
        print("%s: %d long and %d short options, the same in --help and in %s's OPTIONS" % (
            name, sum(o.startswith("--") for o in in_help),
            sum(not o.startswith("--") for o in in_help), page))
    assert not problems, "\n".join(problems)


if __name__ == "__main__":
    twtest.main(test)
