#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The stages of lib/ include downwards only, and no files include in a circle.

lib/ is one folder per stage of the data flow, and each stage is its own
static library, linked highest first (TW_LIBS in lib/local.mk). A header of
a higher stage included from a lower one is an arrow the link line does not
allow and a reader does not expect, so this test reads every
#include "..." in lib/, plugins/ and agentx/ and fails on each such
include, naming the file and the line. It fails too on an include circle:
foo.c and foo.h are one module, and modules that reach each other through
their includes cannot be read, tested or moved one at a time. A .c with no
header of its own (cells.c) is a part of the module whose header declares
most of the functions it defines (columns.h), as that module's callers
reach it through that header. A header foo_priv.h is the private half of
module foo, what the files of a split foo.c share and no caller sees, so
it counts as part of foo: their includes of each other are inside one
module, not a circle.

STAGES is the order, lowest first, the same as TW_LIBS read backwards; a
new folder of lib/ must be placed in it (the test fails on a folder it does
not know). It fails as well on a header name that stands in two folders
of lib/, plugins/ and agentx/: a reader, and any tool that pairs a header
with its .c by name, takes lib/x/foo.h for the header of lib/y/foo.c (or
of agentx/foo.c), so each header's name says which module it is
(derive/derive_disk.h, figures/disk_record.h, agentx/reqlathooks.h).
With --root DIR it reads another tree, to show it on a copy.
"""

import argparse
import os
import re
import sys

# Lowest first. mib/ is the table of OIDs, which depends on nothing;
# figures is headers only (plain records, no library). plugins/ and agentx/
# are the programs on top: neither includes the other's files.
STAGES = ["mib", "util", "collect", "sample", "window", "sockets", "probe", "reqlat",
          "figures", "derive", "view", "threshold", "advice", "finding", "change", "monitor",
          "checkio"]
TOP_FOLDERS = ["plugins", "agentx"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# A function defined in the tree's style: its name at the start of a line,
# the return type on the line before it.
DEFINED = re.compile(r'^(tw_\w+)\(', re.M)
DECLARED = re.compile(r'\b(tw_\w+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/', re.S)


def stage_of(path):
    """The stage (or top folder) a file of the tree belongs to."""
    parts = path.split("/")
    if parts[0] == "lib" and len(parts) > 2:
        return parts[1]
    return parts[0]


def rank_of(stage):
    if stage in STAGES:
        return STAGES.index(stage)
    if stage in TOP_FOLDERS:
        return len(STAGES)
    return None


def sources(root):
    for top in ["lib", "plugins", "agentx"]:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h")) and not name.endswith(".bpf.c"):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def resolve(root, path, target):
    """The included file as a path of the tree, or None for one the build
    writes (config.h, a BPF skeleton) or the system's."""
    for cand in (os.path.join(os.path.dirname(path), target), os.path.join("lib", target),
                 os.path.join("mib", target)):
        cand = os.path.normpath(cand)
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as src:
        return src.read()


PRIVATE = "_priv"


def own_module(path):
    """The module a file's name makes it part of: foo.c, foo.h and the
    private header foo_priv.h are lib/x/foo."""
    own = os.path.splitext(path)[0]
    if path.endswith(PRIVATE + ".h"):
        own = own[:-len(PRIVATE)]
    return own


def modules(root, paths):
    """Each file's module: foo.c, foo.h and foo_priv.h are lib/x/foo; a .c
    without a header of its own joins the header that declares most of
    what it defines."""
    declared = {}
    for path in paths:
        if path.endswith(".h"):
            for name in DECLARED.findall(COMMENT.sub("", read(root, path))):
                declared.setdefault(name, set()).add(own_module(path))
    module = {}
    for path in paths:
        own = own_module(path)
        module[path] = own
        if path.endswith(".c") and not os.path.isfile(os.path.join(root, own + ".h")):
            votes = {}
            for name in DEFINED.findall(read(root, path)):
                for header in declared.get(name, ()):
                    votes[header] = votes.get(header, 0) + 1
            if votes:
                module[path] = sorted(votes, key=lambda h: (-votes[h], h))[0]
    return module


def module_of(path, module):
    return module.get(path, own_module(path))


def circles(edges):
    """The strongly connected components of more than one module (Tarjan,
    without recursion so that a deep chain cannot overflow the stack)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def cycle_in(comp, edges):
    """One circle through the component's first module, as a list of
    modules that ends where it began."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(edges.get(node, ())):
            if child == start:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if child in members and child not in prev:
                prev[child] = node
                queue.append(child)
    return comp + [start]


def same_names(paths):
    """Each header name that more than one folder of lib/, plugins/ and
    agentx/ holds, with the paths that hold it."""
    holders = {}
    for path in paths:
        if path.endswith(".h"):
            holders.setdefault(os.path.basename(path), []).append(path)
    return [(name, sorted(held)) for name, held in sorted(holders.items()) if len(held) > 1]


def check(root):
    problems = []
    edges = {}
    where = {}
    paths = list(sources(root))
    module = modules(root, paths)
    for name, held in same_names(paths):
        problems.append(f"header name {name} stands {len(held)} times: "
                        + ", ".join(held))
    for path in paths:
        stage = stage_of(path)
        rank = rank_of(stage)
        if rank is None:
            problems.append(f"{path}: folder {stage} is no stage this test knows "
                            "(add it to STAGES in tests/layers.py and TW_LIBS)")
            continue
        for lineno, line in enumerate(read(root, path).splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = resolve(root, path, m.group(1))
            if target is None:
                continue
            tstage = stage_of(target)
            trank = rank_of(tstage)
            if trank is None:
                problems.append(f"{path}:{lineno}: includes {target}, of folder {tstage} "
                                "that is no stage this test knows")
            elif trank > rank or (trank == rank and tstage != stage):
                problems.append(f"{path}:{lineno}: stage {stage} includes {target} of "
                                f"stage {tstage}, which is not below it")
            a, b = module_of(path, module), module_of(target, module)
            if a != b:
                edges.setdefault(a, set()).add(b)
                where.setdefault((a, b), f"{path}:{lineno}")
    for comp in circles(edges):
        cycle = cycle_in(comp, edges)
        steps = ", ".join(where[(cycle[i], cycle[i + 1])] + " -> " + cycle[i + 1]
                          for i in range(len(cycle) - 1))
        problems.append(f"include circle among {' '.join(comp)}: {steps}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("top_srcdir") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    parser.add_argument("--root", default=default, help="the tree to read")
    args = parser.parse_args()
    problems = check(args.root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"FAIL: {len(problems)} include(s) or header name(s) against the stages")
        return 1
    print("ok: every include is of its own stage or a lower one, none is circular, "
          "and no header name stands twice in lib/, plugins/ and agentx/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
