# SPDX-License-Identifier: ISC
"""Which scenario shows each Linux action of lib/advice on a kernel, and
why none does yet where none does: issue 33's "every rule has a row".

The rules are the product's own: tests/advice_rules (tests/advice_rules.c)
prints every Linux action from lib/advice's tables (rules.c's rules, each
ratio/bytes twin, a service's memory limit in each form its ticket lines
write) and the proof row lib/advice/proof.c has for it. This file says,
for each, which problem scenarios show it (META names: tests/lab's, run on
this machine's kernel, or tests/guest's, in the Debian guest), or why it is
not yet shown. tests/guest_coverage.py (make check) fails when a rule has
no entry here, an entry no rule, or an entry names a scenario that is not
a problem scenario about that tunable. guestreport.py puts the table in
doc/LAB-GUEST.md with each scenario's latest result: the guest's from the
run that writes the report, the lab's from doc/LAB.json (or doc/LAB.md's
table where no LAB.json is committed).
"""

import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))

GUEST_NOT_YET = "a guest scenario for it is issue 33's plan, not built yet"
RATIOS = ("the stock host's ratio path (dirty_bytes and dirty_background_bytes reading 0): "
          "cache-dirty sets bytes on this host; no scenario starts from the ratios yet")

# (symptom token, tunable, where it is turned) -> the scenarios that show
# it, or why none does.
SHOWN = {
    ("softnet-drops", "net.core.netdev_max_backlog", "sysctl"): ["net-softnet"],
    ("udp-sndbuf", "net.core.wmem_default", "sysctl"): ["net-udp-sndbuf"],
    ("udp-sndbuf", "net.core.wmem_max", "sysctl"): ["net-udp-wmem-max"],
    ("udp-mem", "net.ipv4.udp_mem", "sysctl"): ["net-udp-mem"],
    ("tcp-mem", "net.ipv4.tcp_mem", "sysctl"): ["net-tcp-mem"],
    ("listen-overflow", "net.core.somaxconn", "sysctl"): ["net-listen"],
    ("low-hit-sequential", "queue/read_ahead_kb", "per device"):
        ["cache-readahead", "guest-readahead-lvm-crypt", "guest-readahead-md"],
    ("dirty-limited", "vm.dirty_bytes", "sysctl"): ["cache-dirty"],
    ("read-latency-queue", "queue/scheduler", "per device"): ["guest-disk-hdd-scheduler"],
    ("nonrot-scheduler", "queue/scheduler", "per device"): ["guest-disk-nvme-scheduler"],
    ("queue-full", "queue/nr_requests", "per device"): ["guest-disk-virtio-nr-requests"],
    ("socket-rcvbuf", "net.core.rmem_max", "sysctl"): ["net-udp-max"],
    ("socket-rcvbuf-default", "net.core.rmem_default", "sysctl"): ["net-udp-default"],
    ("cgroup-cache-bounded", "MemoryMax", "system unit"): ["guest-cgroup-memorymax"],
    ("cgroup-cache-bounded", "MemoryHigh", "system unit"): ["guest-cgroup-memoryhigh"],
    ("cgroup-cache-bounded", "MemoryMax", "user unit"): ["guest-cgroup-user"],
    # Advised as the unit's property; the host has no systemd, so the lab
    # wrote the cgroup v1 file that the property sets.
    ("cgroup-cache-bounded", "MemoryLimit", "system unit"): ["cache-cgroup"],
}

NOT_YET = {
    ("softnet-squeeze", "net.core.netdev_budget", "sysctl"):
        "net-squeeze (lab, healthy) held the budget at 8: 200 squeezes/s, nothing lost, a "
        "burst's latency unchanged beyond noise; no workload here loses by the budget alone",
    ("softnet-squeeze", "net.core.netdev_budget_usecs", "sysctl"):
        "as netdev_budget: squeezes provoked on loopback cost nothing measurable",
    ("udp-rcvbuf", "net.core.rmem_max", "sysctl"):
        "the host-wide pool rule: the lab's receive-buffer drops are one socket's, shown "
        "under socket-rcvbuf (net-udp-max); drops spread over many sockets not provoked yet",
    ("udp-rcvbuf", "net.core.rmem_default", "sysctl"):
        "as rmem_max: shown per socket under socket-rcvbuf-default (net-udp-default) only",
    ("tcp-prune", "net.ipv4.tcp_rmem", "sysctl"):
        "receive queues pruned without TCP memory pressure are not provoked yet",
    ("highorder-fail", "vm.watermark_scale_factor", "sysctl"):
        "net-highorder is not provoked on the shared host (fragmenting its memory would "
        "stall every process: doc/LAB.md); " + GUEST_NOT_YET,
    ("highorder-fail", "vm.min_free_kbytes", "sysctl"):
        "as watermark_scale_factor: " + GUEST_NOT_YET,
    ("low-hit-refaults", "vm.swappiness", "sysctl"):
        "needs swap: the host has none (kernel_refaults.py: no tunable there); a guest with "
        "zram or a swap file is not built yet",
    ("metadata-churn", "vm.vfs_cache_pressure", "sysctl"):
        "no workload found that raises metadata-churn (issue 33: nothing can raise it yet)",
    ("dirty-limited", "vm.dirty_ratio", "sysctl, instead of vm.dirty_bytes when it reads 0"):
        RATIOS,
    ("dirty-limited", "vm.dirty_background_bytes", "sysctl"):
        "advised beside dirty_bytes; cache-dirty applies dirty_bytes alone",
    ("dirty-limited", "vm.dirty_background_ratio",
     "sysctl, instead of vm.dirty_background_bytes when it reads 0"): RATIOS,
    ("dirty-burst", "vm.dirty_background_ratio", "sysctl"):
        "no workload found that raises dirty-burst (issue 33: nothing can raise it yet)",
    ("dirty-burst", "vm.dirty_background_bytes",
     "sysctl, instead of vm.dirty_background_ratio when vm.dirty_background_bytes is set"):
        "as dirty_background_ratio: dirty-burst not raised yet",
    ("dirty-burst", "vm.dirty_ratio", "sysctl"):
        "no workload found that raises dirty-burst (issue 33: nothing can raise it yet)",
    ("dirty-burst", "vm.dirty_bytes", "sysctl, instead of vm.dirty_ratio when vm.dirty_bytes "
     "is set"): "as dirty_ratio: dirty-burst not raised yet",
    ("memory-pressure", "vm.watermark_scale_factor", "sysctl"):
        "memory pressure would stall the other engineers' work on the shared host; "
        + GUEST_NOT_YET,
    ("memory-pressure", "vm.min_free_kbytes", "sysctl"):
        "as watermark_scale_factor: " + GUEST_NOT_YET,
    ("read-latency-writeback", "queue/wbt_lat_usec", "per device"):
        "reads behind writeback in the guest (guest-disk-hdd-scheduler) are advised the "
        "scheduler first; writeback throttling on its own is not provoked yet",
    ("read-latency-writeback", "vm.dirty_background_bytes", "sysctl"):
        "not provoked apart from the scheduler's rule yet",
    ("read-latency-writeback", "vm.dirty_background_ratio",
     "sysctl, instead of vm.dirty_background_bytes when it reads 0"):
        "not provoked apart from the scheduler's rule yet",
    ("write-latency", "vm.dirty_background_ratio", "sysctl"):
        "disk-write-latency (lab, negative): a committer's O_DSYNC writes on a slow device "
        "rightly get no tunable; buffered writes waiting behind a dirty backlog not provoked yet",
    ("write-latency", "vm.dirty_background_bytes",
     "sysctl, instead of vm.dirty_background_ratio when vm.dirty_background_bytes is set"):
        "as dirty_background_ratio for write-latency",
    ("write-latency", "vm.dirty_ratio", "sysctl"):
        "as dirty_background_ratio for write-latency",
    ("write-latency", "vm.dirty_bytes",
     "sysctl, instead of vm.dirty_ratio when vm.dirty_bytes is set"):
        "as dirty_background_ratio for write-latency",
    ("random-readahead", "queue/read_ahead_kb", "per device"):
        "no check raises it (rules.c: no figure tells random reads from a stream); "
        "neg-random-ra16 holds that no advice raises read-ahead for them",
    ("cgroup-cache-bounded", "MemoryHigh", "user unit"):
        "guest-cgroup-user runs a user unit's MemoryMax= line; its MemoryHigh= twin not yet",
    ("cgroup-cache-bounded", "memory.high", "cgroup v2 file"):
        "a plain cgroup v2 (no unit) at its memory.high: no scenario yet",
    ("cgroup-cache-bounded", "memory.max", "cgroup v2 file"):
        "a plain cgroup v2 (no unit) at its memory.max: no scenario yet",
    ("cgroup-cache-bounded", "memory.limit_in_bytes", "cgroup v1 file"):
        "cache-cgroup wrote this file, but for a cgroup named as a unit, whose advice was its "
        "MemoryLimit= line; a plain v1 cgroup's own echo line is not run yet",
}

FIELDS = ("symptom", "tunable", "scope", "action", "proof_scenario", "proof_effect")


def rules(builddir):
    """The product's Linux actions, from tests/advice_rules."""
    prog = os.path.join(builddir, "tests", "advice_rules")
    out = subprocess.run([prog], capture_output=True, text=True, timeout=30,
                         check=True).stdout
    return [dict(zip(FIELDS, line.split("\t"))) for line in out.splitlines()]


def key(rule):
    return (rule["symptom"], rule["tunable"], rule["scope"])


def problems():
    """{META name: (where, kind, file, text with the modules it imports)}
    of tests/lab's and tests/guest's scenarios."""
    meta = re.compile(r'META = \{"name": "([^"]+)", "kind": "([^"]+)"')
    found = {}
    for where, folder in (("lab", "lab"), ("guest", "guest")):
        base = os.path.join(TOP, "tests", folder)
        for name in sorted(os.listdir(base)):
            if not (name.startswith("scenario_") and name.endswith(".py")):
                continue
            with open(os.path.join(base, name)) as fh:
                text = fh.read()
            m = meta.search(text)
            if not m:
                continue
            # What it imports from its own folder says the rest.
            for mod in re.findall(r"^import (\w+)", text, re.M):
                p = os.path.join(base, mod + ".py")
                if os.path.exists(p):
                    with open(p) as fh:
                        text += fh.read()
            found[m.group(1)] = (where, m.group(2), "tests/%s/%s" % (folder, name), text)
    return found


def gaps(table, scenarios):
    """What is wrong between the rules, the entries and the scenarios: one
    line each; empty when every rule has its row."""
    bad = []
    keys = [key(r) for r in table]
    for k in sorted(set(k for k in keys if keys.count(k) > 1)):
        bad.append("%s %s (%s): printed twice; the table cannot tell them apart" % k)
    for k in keys:
        if k not in SHOWN and k not in NOT_YET:
            bad.append("%s %s (%s): no row: name the scenario that shows it in SHOWN, or "
                       "say why none does in NOT_YET (tests/guest/coverage.py)" % k)
        if k in SHOWN and k in NOT_YET:
            bad.append("%s %s (%s): both shown and not yet" % k)
    for k in list(SHOWN) + list(NOT_YET):
        if k not in keys:
            bad.append("%s %s (%s): an entry for no rule of lib/advice" % k)
    for k, names in SHOWN.items():
        word = k[1].split("/")[-1]
        for n in names:
            s = scenarios.get(n)
            if s is None:
                bad.append("%s %s: no scenario is named %s" % (k[0], k[1], n))
            elif s[1] != "problem":
                bad.append("%s %s: %s (%s) is a %s scenario" % (k[0], k[1], n, s[2], s[1]))
            elif word not in s[3]:
                bad.append("%s %s: %s (%s) never names %s" % (k[0], k[1], n, s[2], word))
    for k, why in NOT_YET.items():
        if not why.strip():
            bad.append("%s %s (%s): no reason given" % k)
    return bad


def lab_results(top=TOP):
    """{name: {"status", "figure"}} of the lab's latest whole run on this
    machine's kernel: doc/LAB.json, else doc/LAB.md's problem table."""
    path = os.path.join(top, "doc", "LAB.json")
    out = {}
    if os.path.exists(path):
        with open(path) as fh:
            doc = json.load(fh)
        for s in doc.get("scenarios", []):
            e = s.get("effect") or {}
            out[s.get("name")] = {"status": s.get("status", ""),
                                  "figure": e.get("text", ""), "source": "doc/LAB.json"}
        return out
    path = os.path.join(top, "doc", "LAB.md")
    if not os.path.exists(path):
        return out
    head = None
    with open(path) as fh:
        for line in fh:
            if not line.startswith("|"):
                head = None
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if head is None:
                head = cells
                continue
            if "scenario" not in head or "result" not in head or set(cells[0]) <= set("-"):
                continue
            row = dict(zip(head, cells))
            fig = next((row[h] for h in head if h.startswith("workload before")), "")
            out.setdefault(row["scenario"], {"status": row["result"].split(" ")[0],
                                             "figure": fig, "source": "doc/LAB.md"})
    return out


def guest_figure(r):
    e = r.get("effect") or {}
    if e.get("text"):
        return e["text"]
    try:
        return "%s -> %s" % (r["before"]["workload"]["text"], r["after"]["workload"]["text"])
    except (KeyError, TypeError):
        return ""


def rows(table, guest, lab):
    """The report's rows and the counts: guest, this run's results (a
    list); lab, lab_results()."""
    by = {r["name"]: r for r in guest}
    out = []
    counts = {"shown": 0, "tried, not shown": 0, "not yet shown on a kernel": 0}
    for rule in table:
        k = key(rule)
        proof = ("%s %s" % (rule["proof_scenario"], rule["proof_effect"])
                 if rule["proof_scenario"] else "")
        if k in NOT_YET or k not in SHOWN:
            state = "not yet shown on a kernel"
            where = NOT_YET.get(k, "no row in tests/guest/coverage.py")
        else:
            shown, parts = False, []
            for n in SHOWN[k]:
                if n.startswith("guest-"):
                    g = by.get(n)
                    if g is None:
                        parts.append("%s (guest: not run in this report)" % n)
                        continue
                    ok = g.get("status") == "pass"
                    parts.append("%s (guest: %s%s)" % (
                        n, g.get("status"), ", " + guest_figure(g) if ok else
                        ": " + (g.get("reason") or "").split("\n")[0][:160]))
                else:
                    h = lab.get(n)
                    if h is None:
                        parts.append("%s (lab: no result in doc/LAB.json or doc/LAB.md)" % n)
                        continue
                    ok = h["status"] == "pass"
                    parts.append("%s (lab, %s: %s%s)" % (n, h["source"], h["status"], ", " +
                                                        h["figure"] if h["figure"] else ""))
                shown = shown or ok
            state = "shown" if shown else "tried, not shown"
            where = "; ".join(parts)
        counts[state] += 1
        out.append([rule["symptom"], rule["tunable"], rule["scope"], rule["action"], state,
                    where, proof])
    return out, counts
