#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Every check's performance data, in every state and mode, against a strict
parser of the Monitoring Plugins guidelines' grammar, written here apart
from plugin_common's (so that the two would have to be wrong the same way):

    'label'=value[UOM];[warn];[crit];[min];[max]

- items one blank apart, nothing before the first or after the last;
- a label in single quotes ('' for a quote), the quotes needed only with a
  blank, never '=' in it; unique within its first 19 characters, which is
  what an RRD data source keeps (PNP4Nagios). The parser takes quoted labels
  as the guidelines allow them; the checks write none (below);
- value: a decimal number (class [-0-9.]) or U; UOM one of none, s, ms, us,
  %, B, KB, MB, TB, c;
- warn and crit: ranges ([@][start:][end], start ~ for minus infinity,
  start <= end), with no unit; min and max: numbers, value within them;
- at most four semicolons; trailing empty fields may be dropped.

And labels as graphers store them: Icinga 2's GraphiteWriter replaces
blanks, '/' and '\\' in a label with '_' and '::' with '.', and takes a '.' for
a level of its tree; PNP4Nagios wants file-name characters. So every label
is of one alphabet, letters, digits, '_' and '-' (lib/threshold/perfdata.h),
and so needs no quotes and has none; one outside it fails."""

import re
import time

import agent_walk
import plugin_common as pc
import twtest

UOMS = {"", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c"}
NUMBER = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")
GRAPHITE_RENAMES = re.compile(r"[ /\\.]|::")
ALPHABET = re.compile(r"^[A-Za-z0-9_-]+$")


def parse_label(text, pos):
    if text[pos] == "'":
        label, pos = [], pos + 1
        while True:
            assert pos < len(text), "unterminated label in %r" % text
            if text[pos] == "'":
                if text[pos + 1:pos + 2] == "'":
                    label.append("'")
                    pos += 2
                    continue
                return "".join(label), pos + 1
            label.append(text[pos])
            pos += 1
    end = text.index("=", pos) if "=" in text[pos:] else len(text)
    label = text[pos:end]
    assert " " not in label and "'" not in label, "unquoted label %r needs quotes" % label
    return label, end


def parse_range(r):
    """None when r is not a range of the guidelines."""
    m = re.match(r"^(@?)(?:(~|-?[0-9.]+):)?(-?[0-9.]+)?$", r)
    if not m or r in ("", "@"):
        return None
    start, end = m.group(2), m.group(3)
    for n in (start, end):
        if n not in (None, "~") and not NUMBER.match(n):
            return None
    if start not in (None, "~") and end is not None and float(start) > float(end):
        return None
    if start is None and end is None:
        return None
    return (m.group(1), start, end)


def parse(text):
    """Items of a perfdata string: (label, value, uom, [fields])."""
    assert text == text.strip(), "blanks around the perfdata: %r" % text
    items, pos = [], 0
    while pos < len(text):
        label, pos = parse_label(text, pos)
        assert label, "empty label in %r" % text
        assert "=" not in label, "'=' in label %r" % label
        assert text[pos:pos + 1] == "=", "no '=' after label %r in %r" % (label, text)
        pos += 1
        end = text.find(" ", pos)
        end = len(text) if end < 0 else end
        fields = text[pos:end].split(";")
        assert len(fields) <= 5, "more than four ';' in %r" % text[pos:end]
        m = re.match(r"^([-0-9.]+|U)([A-Za-z%]*)$", fields[0])
        assert m, "bad value %r of %r" % (fields[0], label)
        value, uom = m.group(1), m.group(2)
        assert value == "U" or NUMBER.match(value), "value %r of %r" % (value, label)
        assert uom in UOMS, "unit %r of %r is not one of the guidelines'" % (uom, label)
        rest = fields[1:] + [""] * (4 - len(fields[1:]))
        for i, r in enumerate(rest[:2]):
            assert r == "" or parse_range(r), "%s %r of %r is not a range" % (
                ("warn", "crit")[i], r, label)
        lo, hi = rest[2], rest[3]
        for n in (lo, hi):
            assert n == "" or NUMBER.match(n), "min/max %r of %r is not a number" % (n, label)
        if value != "U":
            assert lo == "" or float(value) >= float(lo), "%r below its min: %s" % (label, text)
            assert hi == "" or float(value) <= float(hi), "%r above its max: %s" % (label, text)
        items.append((label, value, uom, rest))
        pos = end
        if pos < len(text):
            assert text[pos] == " " and text[pos + 1:pos + 2] not in ("", " "), \
                "items must be one blank apart: %r" % text
            pos += 1
    return items


def check_output(out, seen):
    first = out.stdout.split("\n")[0]
    assert first.count(" | ") <= 1, "more than one ' | ' in %r" % first
    perf = first.partition(" | ")[2]
    if out.state != "UNKNOWN":
        assert perf, "no perfdata in %r" % out
    items = parse(perf)
    labels = [i[0] for i in items]
    rrd = [l[:19] for l in labels]
    assert len(set(rrd)) == len(rrd), "labels not unique in 19 characters: %s" % labels
    for l in labels:
        assert not GRAPHITE_RENAMES.search(l), "Graphite would store %r under another name" % l
        assert ALPHABET.match(l), "label %r is not of the labels' alphabet" % l
    assert "'" not in perf, "a quoted label: %r" % perf
    # A label keeps its unit whatever the state.
    for label, _, uom, _ in items:
        assert seen.setdefault(label, uom) == uom, \
            "%r changes unit: %r, was %r" % (label, uom, seen[label])
    return len(items)


RUNS = {
    "check_bufcache": [[], ["-v"], ["-P", "1"], ["-w", "99.99:", "-c", "99.999:"],
                       ["--refault-warning", "1", "--refault-critical", "1000000000"],
                       ["-w", "99.99:", "-c", "0:"],
                       ["-w", "99:", "--refault-warning", "1", "--refault-critical", "2",
                        "--pressure-warning", "1", "--pressure-critical", "@0:100"],
                       # OK on the fixture whatever its figures: the state OK must
                       # not rest on --local, whose figures are this machine's (a
                       # lab's refaults beside the test made it WARNING).
                       ["-w", "0:", "-c", "0:", "--refault-warning", "~:", "--refault-critical",
                        "~:", "--pressure-warning", "~:", "--pressure-critical", "~:"]],
    "check_dblock": [[], ["-v"], ["-P", "1"], ["-w", "1000"], ["-w", "0", "-c", "0"],
                     ["-c", "@0:10"], ["--pool", "^udp"]],
    "check_disklatency": [[], ["-v"], ["-P", "1"], ["-w", "0.001", "-c", "0.002"],
                          ["--queue-warning", "0", "--util-warning", "~:0",
                           "--util-critical", "@0:100"],
                          ["--write-warning", "10:20", "--write-critical", "~:1000"]],
}


def check_parser():
    """The parser itself: what it must take and what it must refuse."""
    good = {"'a'=1": 1, "a=1%;80:;90:;0;100": 1, "'it''s'=U": 1, "'a b'=1ms;@10:20;~:30": 1,
            "'a'=0.5s;;;0 'b'=2KB;5;10": 2}
    bad = ["'a'=1;2;3;4;5;6", "'a'=1xB", "a b=1", "'a'=1 'b'=2 ", "'a'=1  'b'=2", "'a'=1;5:2",
           "'a'=--1", "'a'=1;;;0;0.5", "'a'=1;10ms", "'a'=1;;;x", "'a=1", " 'a'=1", "'a'=",
           "''=1", "'a'=1;@"]
    for text, n in good.items():
        assert len(parse(text)) == n, text
    for text in bad:
        try:
            parse(text)
        except (AssertionError, ValueError):
            continue
        raise AssertionError("the parser took %r" % text)


def test():
    check_parser()
    with twtest.Harness("perfdata") as h:
        agent_walk.start_changed(h)
        states, items, seen = {}, 0, {}
        for check, runs in RUNS.items():
            for args in runs:
                out = pc.run(check, args, h.port)
                items += check_output(out, seen)
                states.setdefault(check, set()).add(out.state)
        # And --local, on this machine's /proc, which has whatever figures.
        for check in RUNS:
            out = pc.run(check, ["--local", "--delay", "1"])
            items += check_output(out, seen)
            states[check].add(out.state)
        for check, s in states.items():
            assert {"OK", "WARNING", "CRITICAL"} <= s, "%s was only %s" % (check, sorted(s))
        print("%d perfdata items of %d runs parsed strictly; states %s" % (
            items, sum(len(r) + 1 for r in RUNS.values()),
            {c: sorted(s) for c, s in states.items()}))


if __name__ == "__main__":
    twtest.main(test)
