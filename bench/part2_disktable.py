# SPDX-License-Identifier: ISC
"""Part 2: the agent against snmpd's own disk table.

Server CPU (snmpd plus tunewatchd, from /proc/<pid>/schedstat) per varbind
for snmpbulkwalk of twDiskTable, against snmpbulkwalk of UCD-DISKIO-MIB's
diskIOTable, which snmpd serves itself with no AgentX hop. Both cover the
same real disks: snmpd is restarted with one `diskio DEVICE` line for each
disk tunewatchd keeps. tunewatchd samples only when told (its interval is an
hour), so its sampling is not in the figures; diskio reads /proc/diskstats
when its cache has expired, inside the requests, and that is in its figure.

Rounds of walks of each table alternate; each round gives one per-varbind
figure, and the table reports their median, minimum and maximum.
"""

import twbench as tb


def server_cpu_per_varbind(h, oid, walks, reps, extra=()):
    pids = [h.snmpd.pid, h.agent.pid]
    before = [tb.schedstat_ns(p) for p in pids]
    n = 0
    for _ in range(walks):
        n += tb.bulkwalk(h, oid, reps, extra)
    after = [tb.schedstat_ns(p) for p in pids]
    d = [a - b for a, b in zip(after, before)]
    return sum(d) / n / 1000.0, d[0] / n / 1000.0, d[1] / n / 1000.0, n // walks


def measure(h, rounds, walks, reps):
    tables = {"twDiskTable": tb.DISK_ENTRY, "diskIOTable": tb.DISKIO_ENTRY}
    per = {k: [] for k in tables}
    snmpd = {k: [] for k in tables}
    agent = {k: [] for k in tables}
    width = {}
    for name, oid in tables.items():  # warm both up
        tb.bulkwalk(h, oid, reps)
    for _ in range(rounds):
        for name, oid in tables.items():
            total, s, a, n = server_cpu_per_varbind(h, oid, walks, reps)
            per[name].append(total)
            snmpd[name].append(s)
            agent[name].append(a)
            width[name] = n
    return {k: {"us_per_varbind": tb.summary(per[k]), "snmpd": tb.summary(snmpd[k]),
                "tunewatchd": tb.summary(agent[k]), "varbinds_per_walk": width[k]}
            for k in tables}


def run(ctx):
    h = tb.twtest.Harness("bench-disktable")
    results = {}
    with h:
        h.start_snmpd()
        h.start_agent(interval=3600, window=7200)
        h.sample_now()
        rows = tb.disk_rows(h)
        names = [name for _, name in rows]
        # The same disks in snmpd's diskIOTable: restart it with an accept
        # list; tunewatchd reconnects by itself.
        old = h.snmpd
        h.stop(old)
        h.start_snmpd(extra_conf="".join("diskio %s\n" % n for n in names), keep_port=True)
        h.wait_agent(timeout=20)
        dio_names = [v.text for v in h.walk(tb.DISKIO_ENTRY + ".2", bulk=True)]
        if sorted(dio_names) != sorted(names):
            raise RuntimeError("diskIOTable has %s, twDiskTable %s" % (dio_names, names))
        results["disks"] = names
        for reps in ctx.part2_reps:
            results["reps%d" % reps] = measure(h, ctx.part2_rounds, ctx.part2_walks, reps)
    ctx.report.data["part2"] = results

    rows = []
    for reps in ctx.part2_reps:
        r = results["reps%d" % reps]
        tw, dio = r["twDiskTable"], r["diskIOTable"]
        q = tb.ratio(tw["us_per_varbind"], dio["us_per_varbind"])
        target = reps == ctx.part2_reps[0]
        rows.append(["%d%s" % (reps, " (snmpbulkwalk's default)" if reps == 10 else ""),
                     "%d x %d" % (len(names), tw["varbinds_per_walk"] // max(1, len(names))),
                     tb.cell(tw["us_per_varbind"], 1),
                     "%s + %s" % (tb.fmt(tw["snmpd"]["median"], 1),
                                  tb.fmt(tw["tunewatchd"]["median"], 1)),
                     "%d x %d" % (len(names), dio["varbinds_per_walk"] // max(1, len(names))),
                     tb.cell(dio["us_per_varbind"], 1),
                     "**%.2fx**" % q,
                     ("<= 1.5x: %s" % ("met" if q <= 1.5 else "NOT met")) if target else
                     "(context)"])
    notes = [
        "Disks: %s. CPU in microseconds per varbind of the table (rows x columns), "
        "snmpd + tunewatchd from schedstat; %d rounds of %d walks of each table, "
        "alternating." % (", ".join(names), ctx.part2_rounds, ctx.part2_walks),
    ]
    ctx.report.table("2. The agent against snmpd's own disk table",
                     ["-Cr (max-repetitions)", "twDiskTable rows x cols",
                      "twDiskTable us/varbind", "of which snmpd + tunewatchd",
                      "diskIOTable rows x cols", "diskIOTable us/varbind", "ratio", "target"],
                     rows, notes)
