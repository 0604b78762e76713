# SPDX-License-Identifier: ISC
"""Part 1: one check against its peer.

check_disklatency reading tunewatchd through snmpd, against what an
administrator would run instead against the same snmpd: monitoring-plugins'
check_snmp fetching the same values (r_await, w_await, aqu-sz and util of
every disk: one numeric OID per value, all in one call, with the same
thresholds), and for a single value snmpget -v2c of one OID against
check_disklatency limited to one device. Debian's check_snmp runs snmpget
itself: callgrind follows it (--trace-children=yes) and the counts of both
processes are summed; wait4() gives the CPU time of both too.

First on this machine's real disks (tunewatchd on /proc), then on generated
roots with more disks, to show how each side grows.

With --check-snmp3 PATH (or TW_CHECK_SNMP3=PATH), also monitoring-plugins
3.0's check_snmp, which links libnetsnmp and fetches in its own process
(no snmpget), fetching one value: the peer administrators compare a check
against now (issue 36). Its source is GPL and is never part of this tree:
build it apart (BENCHMARKS.md says how) and give its path. Without it
that row is skipped, and the table says why.
"""

import os
import subprocess
import tempfile

import mkroot
import twbench as tb

CHECK_SNMP = "/usr/lib/nagios/plugins/check_snmp"
# twDiskReadLatency, twDiskWriteLatency (microseconds), twDiskQueueDepth,
# twDiskUtil (hundredths): the four figures check_disklatency reports, by
# their mib/tunewatch_oids.h names (twtest.oid).
COLS = ("DISK_READ_LATENCY", "DISK_WRITE_LATENCY", "DISK_QUEUE_DEPTH", "DISK_UTIL")
# check_disklatency's default thresholds (ms: -w 20 -c 50 on r_await,
# 50 and 200 on w_await), in the MIB's microseconds for check_snmp.
WARN = ("20000", "50000", "", "")
CRIT = ("50000", "200000", "", "")


def commands(h, plugin, rows, check_snmp3=None):
    host = "127.0.0.1"
    port = str(h.port)
    oids = [tb.twtest.oid(col, idx) for idx, _ in rows for col in COLS]
    first_idx, first_name = rows[0]
    one = tb.twtest.oid(COLS[0], first_idx)
    cmds = {
        "all: check_disklatency": [plugin, "-H", host, "-p", port],
        "all: check_snmp": [CHECK_SNMP, "-H", host, "-p", port, "-P", "2c", "-C", "public",
                            "-o", ",".join(oids), "-w", ",".join(WARN * len(rows)),
                            "-c", ",".join(CRIT * len(rows))],
        # Every device WARNING (@0: alerts on any figure): the path that
        # reads the tunables for its advice.
        "not OK: check_disklatency -w @0:": [plugin, "-H", host, "-p", port, "-w", "@0:"],
        "one: check_disklatency --device": [plugin, "-H", host, "-p", port, "--device",
                                            "^%s$" % first_name],
        "one: snmpget -v2c": [h.snmpget_bin, "-v2c", "-c", "public", "%s:%s" % (host, port), one],
        "one: check_snmp": [CHECK_SNMP, "-H", host, "-p", port, "-P", "2c", "-C", "public",
                            "-o", one, "-w", WARN[0], "-c", CRIT[0]],
    }
    if check_snmp3:
        cmds["one: check_snmp 3.0"] = [check_snmp3, "-H", host, "-p", port, "-P", "2c", "-C",
                                       "public", "-o", one, "-w", WARN[0], "-c", CRIT[0]]
    return cmds


PAIRS = (
    ("all disks", "all: check_disklatency", "all: check_snmp", 0.5, 0.5),
    ("one value", "one: check_disklatency --device", "one: snmpget -v2c", 0.6, None),
    ("one value", "one: check_disklatency --device", "one: check_snmp", None, None),
    ("all disks, not OK", "not OK: check_disklatency -w @0:", "all: check_snmp", None, None),
    # Issue 36: a check of every disk against check_snmp 3.0 fetching one value.
    ("all disks vs one value", "all: check_disklatency", "one: check_snmp 3.0", 1.0, 0.8),
)


def breakdown(argv, env, workdir):
    """Where one run's instructions go: the dynamic loader, main()."""
    d = tempfile.mkdtemp(prefix="cga-", dir=workdir)
    out = os.path.join(d, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, timeout=300)
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                         capture_output=True, text=True).stdout
    total = None
    parts = {}
    for line in ann.splitlines():
        f = line.split()
        if not f or not f[0].replace(",", "").isdigit():
            continue
        n = int(f[0].replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = n
        for key, pat in (("loader", "rtld.c:_dl_start "), ("main", ":main "),
                         ("init_snmp", ":init_snmp "), ("usm", "init_usm_post_config"),
                         ("read_configs", ":read_configs ")):
            if pat in line + " " and key not in parts:
                parts[key] = n
    return total, parts


def measure(ctx, h, rows, cg_runs, wall_runs):
    plugin = os.path.join(ctx.builddir, "plugins", "check_disklatency")
    env = tb.client_env(h)
    cmds = commands(h, plugin, rows, ctx.check_snmp3)
    # Every command must do its job, not fail fast.
    wall, cpu, codes = tb.time_commands(cmds, env, runs=3, warmup=0)
    for k, c in codes.items():
        if any(x not in (0, 1, 2) for x in c):
            raise RuntimeError("%s exited %s (UNKNOWN or error): %s" % (
                k, c, " ".join(cmds[k])[:300]))
    instr = {}
    procs = {}
    for k, argv in cmds.items():
        instr[k], procs[k] = tb.callgrind(argv, env, cg_runs, ctx.workdir)
    wall, cpu, codes = tb.time_commands(cmds, env, runs=wall_runs)
    return {"disks": len(rows), "instr": instr, "processes": procs, "wall_ms": wall,
            "cpu_ms": cpu, "exit_codes": codes, "commands": cmds}


def table_rows(label, res):
    out = []
    for what, ours, peer, t_instr, t_wall in PAIRS:
        if peer not in res["instr"]:
            continue
        ri = tb.ratio(res["instr"][ours], res["instr"][peer])
        rw = tb.ratio(res["wall_ms"][ours], res["wall_ms"][peer])
        rc = tb.ratio(res["cpu_ms"][ours], res["cpu_ms"][peer])
        verdict = []
        if t_instr is not None:
            verdict.append("instr <= %.1fx: %s" % (t_instr, "met" if ri <= t_instr else "NOT met"))
        if t_wall is not None:
            verdict.append("wall <= %.1fx: %s" % (t_wall, "met" if rw <= t_wall else "NOT met"))
        out.append([label, what, "`%s` vs `%s`" % (ours.split(": ", 1)[1], peer.split(": ", 1)[1]),
                    tb.cell(res["instr"][ours], 2, 1e-6), tb.cell(res["instr"][peer], 2, 1e-6),
                    "**%.2fx**" % ri,
                    tb.cell(res["wall_ms"][ours]), tb.cell(res["wall_ms"][peer]), "**%.2fx**" % rw,
                    "%.2fx" % rc, "; ".join(verdict) or "(context)"])
    return out


HEADER = ["disks", "what", "ours vs peer", "ours M instr", "peer M instr", "instr ratio",
          "ours wall ms", "peer wall ms", "wall ratio", "CPU ratio", "target"]


def run(ctx):
    h = tb.twtest.Harness("bench-checks")
    report = ctx.report
    results = {}
    with h:
        h.start_snmpd()
        h.start_agent(interval=3600, window=7200)
        h.sample_now()  # two samples: the window's figures exist
        rows = tb.disk_rows(h)
        if not rows:
            raise RuntimeError("tunewatchd sees no disk on this machine")
        results["real"] = measure(ctx, h, rows, ctx.cg_runs, ctx.wall_runs)
        env = tb.client_env(h)
        results["breakdown"] = {
            "check_disklatency": breakdown(results["real"]["commands"]["all: check_disklatency"],
                                           env, ctx.workdir),
            "snmpget": breakdown(results["real"]["commands"]["one: snmpget -v2c"], env,
                                 ctx.workdir),
        }
        if ctx.check_snmp3:
            results["breakdown"]["check_snmp 3.0"] = breakdown(
                results["real"]["commands"]["one: check_snmp 3.0"], env, ctx.workdir)
        h.stop(h.agent)
        for n in ctx.part1_disks:
            root = mkroot.make_root(os.path.join(h.dir, "root%d" % n), n, 4, tb.fixtures())
            h.start_agent(proc_root=os.path.join(root, "proc"),
                          sys_root=os.path.join(root, "sys"), interval=3600, window=7200)
            h.sample_now()
            rows = tb.disk_rows(h)
            results["fixture%d" % n] = measure(ctx, h, rows, max(1, ctx.cg_runs // 2),
                                               max(10, ctx.wall_runs // 4))
            h.stop(h.agent)
    ctx.report.data["part1"] = results

    rows = table_rows("%d (this machine)" % results["real"]["disks"], results["real"])
    for n in ctx.part1_disks:
        rows += table_rows("%d (generated root)" % n, results["fixture%d" % n])
    r = results["real"]
    notes = [
        "Instructions: callgrind, every process of the command summed (check_snmp runs "
        "snmpget), %d runs each, median (min-max), millions. Wall: %d interleaved runs each, "
        "ms, spawned with posix_spawn and reaped with wait4; CPU ratio from wait4's rusage "
        "(the program and the children it reaped)." % (ctx.cg_runs, ctx.wall_runs),
        "Processes counted for check_snmp: %s." % ", ".join(
            "%s %s" % (p, tb.fmt(n)) for p, n in r["processes"]["all: check_snmp"]),
    ]
    if ctx.check_snmp3:
        notes.append("check_snmp 3.0: %s (%s), which links libnetsnmp: one process." % (
            ctx.check_snmp3, ctx.check_snmp3_version))
    else:
        notes.append("No check_snmp 3.0 row: %s" % ctx.check_snmp3_why)
    for name, (total, parts) in results["breakdown"].items():
        if total:
            notes.append("Where `%s`'s %s instructions go: %s." % (
                name, tb.fmt(total), ", ".join("%s %.0f %%" % (k, 100.0 * v / total)
                                               for k, v in sorted(parts.items()))))
    report.table("1. One check against its peer", HEADER, rows, notes)
