#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""check_disklatency end to end against tunewatchd behind a real snmpd.

Part 1, tests/fixtures/agent changed as agent_walk.change_fixture() does:
sda does 500 reads in 25000 ms (its read ticks wrap past 2^32) and 100
writes in 1000 ms: r_await 50 ms, w_await 10 ms; sdb is new (no figures
yet); nvme0n1 is gone.

Part 2, tests/fixtures/plugins/disks, whose proc/diskstats is replaced by
next/diskstats for the second sample. Over the window:
  sdc      2000 reads of 4 KiB in 50000 ms: r_await 25 ms; 200 writes of 4 KiB
           in 1600 ms: 8 ms (a queue of both kinds); read_ahead_kb 4096,
           rotational, mq-deadline, weighted time +50000 ms (a deep queue)
  sdd      100 reads in 3000 ms: 30 ms; 1000 writes in 10000 ms: 10 ms;
           writes outnumber reads; wbt_lat_usec 75000; no queue
  sde      2 reads in 2000 ms: 1000 ms; bfq, rotational, no queue
  nvme0n1  1000 reads of 40 KiB in 30000 ms: 30 ms; 10 writes in 20 ms: 2 ms;
           solid state with mq-deadline
  sdc1     a partition: tunewatchd leaves it out
Latencies do not depend on the window's span; rates, aqu-sz and %util do,
and are worked out from twAgentWindowSpan with the agent's rounding.
"""

import os
import shutil

import agent_walk
import plugin_common as pc
import twtest

CHECK = "check_disklatency"
QUEUE_SYSFS = "Documentation/block/queue-sysfs.rst"
VM_RST = "Documentation/admin-guide/sysctl/vm.rst"


class Disk:
    """A device's figures over the window, from its counters' increases."""

    def __init__(self, span, name, reads, read_ms, writes, write_ms, io_ms, weighted_ms,
                 read_bytes, sched, nr, ra, rot):
        self.name = name
        self.r_ms = read_ms / reads if reads else 0
        self.w_ms = write_ms / writes if writes else 0
        self.q = pc.rnd(weighted_ms * 100 / span)         # hundredths
        self.util = pc.rnd(io_ms * 10000 / span)          # hundredths of a percent
        self.rops = pc.rnd(reads * 100000 / span)         # hundredths per second
        self.wops = pc.rnd(writes * 100000 / span)
        self.read_rate = pc.rnd(read_bytes * 1000 / span)  # bytes per second
        self.sched, self.nr, self.ra, self.rot = sched, nr, ra, rot

    def latency(self):
        return "r_await %s ms, w_await %s ms" % (pc.num(self.r_ms, 1), pc.num(self.w_ms, 1))

    def line(self, state):
        return ("%s: %s %s, aqu-sz %s, util %s %%, %s r/s, %s w/s (scheduler %s, nr_requests %d, "
                "read_ahead_kb %d, %s)" % (
                    self.name, state, self.latency(), pc.hundredths(self.q),
                    pc.hundredths(self.util, 1), pc.hundredths(self.rops, 1),
                    pc.hundredths(self.wops, 1), self.sched, self.nr, self.ra,
                    "rotational" if self.rot else "solid state"))

    def perf(self, rw="20", rc="50", ww="50", wc="200", uw=""):
        return " ".join([
            pc.perf(self.name + "_r_await", pc.num(self.r_ms, 3), "ms", rw, rc, "0"),
            pc.perf(self.name + "_w_await", pc.num(self.w_ms, 3), "ms", ww, wc, "0"),
            pc.perf(self.name + "_aqu-sz", pc.hundredths(self.q), "", "", "", "0"),
            # Perfdata caps %util at its max, 100.
            pc.perf(self.name + "_util", pc.hundredths(min(self.util, 10000)), "%", uw, "", "0",
                    "100")])

    # What lib/advice/evidence_disk.c makes of these figures: a queue knob needs a
    # queue (aqu-sz 2 or more), nr_requests one held near it, and with no
    # precondition shown the check says "no tunable". aqu-sz rests on the
    # window's span, so which of these hold is worked out, not assumed.
    def deep(self):
        return self.q >= 200

    def full(self):
        # Reads and writes both, each 5 % of the requests or more
        # (TW_EVIDENCE_MIXED_SHARE): one stream waits behind itself.
        mixed = min(self.rops, self.wops) >= 0.05 * (self.rops + self.wops)
        return self.deep() and mixed and self.q * 2 >= self.nr * 100

    def ticket(self, symptom, tunable="", value=None):
        """The finding under an advice line; these disks have no stable id,
        so the subject and the udev match are the kernel name."""
        return pc.ticket(symptom, self.name, tunable, value, self.name)

    def queue_lines(self, w):
        half = max(4, self.nr // 2)
        return [tune(self.name, "nr_requests %d -> %d" % (self.nr, half),
                     "%s holds %s requests on average against nr_requests %d, in the last %d s" % (
                         self.name, pc.hundredths(self.q), self.nr, w))] + \
            self.ticket("queue-full", "queue/nr_requests", str(half))

    def read_advice(self, w, verbose=False):
        r, q = pc.num(self.r_ms, 1), pc.hundredths(self.q)
        lines = []
        if self.deep() and not self.rot and self.sched != "none":
            lines.append(tune(self.name, "scheduler %s -> none" % self.sched,
                              "%s r_await %s ms at queue depth %s on a solid-state device "
                              "scheduled by %s, in the last %d s" % (self.name, r, q, self.sched,
                                                                      w)))
            lines += self.ticket("nonrot-scheduler", "queue/scheduler", "none")
            if verbose:
                lines.append("  elsewhere: FreeBSD -; SVR4 -")
        if self.deep() and self.rot:
            ev = "%s r_await %s ms at queue depth %s on a rotational disk, in the last %d s" % (
                self.name, r, q, w)
            if self.sched in ("mq-deadline", "bfq"):
                # Already satisfied: a finding, nothing to apply.
                lines.append(tune(self.name, "scheduler is already %s" % self.sched, ev))
                lines += self.ticket("read-latency-queue", "queue/scheduler")
            else:
                lines.append(tune(self.name, "scheduler %s -> mq-deadline" % self.sched, ev))
                lines += self.ticket("read-latency-queue", "queue/scheduler", "mq-deadline")
            if verbose:
                lines.append("  elsewhere: FreeBSD -; SVR4 -")
        if self.full():
            lines += self.queue_lines(w)
            if verbose:
                lines.append("  elsewhere: FreeBSD vfs.hirunningspace; SVR4 -")
        assert not (self.deep() and self.wops > self.rops), "writeback case not modelled"
        if lines:
            return lines
        # No tunable: still a finding, for a person, with the symptom
        # looked for and no tunable.
        if not self.deep():
            return ["no tunable: %s takes %s ms per read at queue depth %s: the device itself is "
                    "slow (check its health, its controller, or move load)" % (self.name, r, q)] + \
                self.ticket("read-latency-queue")
        kind = "a rotational disk" if self.rot else (
            "a solid-state device already without a scheduler" if self.sched == "none"
            else "a solid-state device")
        return ["no tunable: %s r_await %s ms at queue depth %s, on %s: no queue knob applies, "
                "the device is saturated (spread the I/O or add devices)" % (self.name, r, q, kind)
                ] + self.ticket("read-latency-queue")

    def write_advice(self, w):
        wa, q = pc.num(self.w_ms, 1), pc.hundredths(self.q)
        lines = []
        if self.deep() and self.wops >= self.rops and self.wops > 0:
            lines.append(
                "tune: vm.dirty_background_ratio 10 -> 5 (%s w_await %s ms with %s requests "
                "queued on average, mostly writes (%s/s against %s reads/s): writeback arrives "
                "in bursts, in the last %d s; %s)" % (
                    self.name, wa, q, pc.hundredths(self.wops, 1), pc.hundredths(self.rops, 1), w,
                    VM_RST))
            # A host-wide tunable, but the finding is this disk's.
            lines += self.ticket("write-latency", "vm.dirty_background_ratio", "5")
        if self.full():
            lines += self.queue_lines(w)
        if lines:
            return lines
        if not self.deep():
            return ["no tunable: %s takes %s ms per write at queue depth %s: the device itself "
                    "is slow (check its health, its controller and its write cache, or move "
                    "load)" % (self.name, wa, q)] + self.ticket("write-latency")
        return ["no tunable: %s w_await %s ms at queue depth %s, mostly reads: no writeback knob "
                "applies, the device is saturated (spread the I/O or add devices)" % (
                    self.name, wa, q)] + self.ticket("write-latency")

    def check_columns(self, h, index):
        """The agent's windowed columns are the figures worked out here."""
        oids = [pc.oid(c, index) for c in ("DISK_READ_OPS", "DISK_WRITE_OPS", "DISK_READ_RATE",
                                           "DISK_READ_LATENCY", "DISK_WRITE_LATENCY",
                                           "DISK_QUEUE_DEPTH", "DISK_UTIL")]
        got = pc.columns(h, oids)
        want = [self.rops, self.wops, self.read_rate, round(self.r_ms * 1000),
                round(self.w_ms * 1000), self.q, self.util]
        assert [got[o] for o in oids] == want, \
            (self.name, got, want)


def tune(device, what, detail, source=QUEUE_SYSFS):
    return "tune: /sys/block/%s/queue/%s (%s; per device; %s)" % (device, what, detail, source)


# ---- part 1: the agent fixture --------------------------------------------------


def part_agent_fixture():
    with twtest.Harness("plugin-disklatency") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        for args in ([], ["-P", "1"]):
            out = pc.run(CHECK, args, h.port)
            pc.expect(out, 3, ["DISKLATENCY UNKNOWN - tunewatchd's window holds 1 sample; "
                               "figures come with the next sample (every 60 s)"])
        agent_walk.change_fixture(root)
        h.sample_now()
        span = pc.agent_span(h)
        w = pc.window_s(span)
        sda = Disk(span, "sda", 500, 25000, 100, 1000, 900, 1800, 40000 * 512, "bfq", 64, 128,
                   True)
        sda.check_columns(h, "8.0")
        # A rotational disk already on bfq: the scheduler rule says so, and
        # nr_requests is named only when the queue is held near it.
        queue = sda.read_advice(w)
        # sdb came with the change: not yet measured, and said so, never OK.
        young = "sdb: no figures yet (first seen in the newest sample)"

        want = ["DISKLATENCY WARNING - sda WARNING %s | %s" % (sda.latency(), sda.perf()),
                sda.line("WARNING")] + queue + [young]
        pc.expect(pc.run(CHECK, [], h.port), 1, want)
        # SNMPv1 has no Counter64: the read rate is missing, which only the
        # random-read advice needs; sda's reads are 40 KiB, so no difference.
        pc.expect(pc.run(CHECK, ["-P", "1"], h.port), 1, want)
        pc.expect(pc.run(CHECK, ["-P", "2c"], h.port), 1, want)

        pc.expect(pc.run(CHECK, ["-w", "10", "-c", "20"], h.port), 2, [
            "DISKLATENCY CRITICAL - sda CRITICAL %s | %s" % (sda.latency(), sda.perf("10", "20")),
            sda.line("CRITICAL")] + queue + [young])
        pc.expect(pc.run(CHECK, ["-w", "100", "-c", "200"], h.port), 0, [
            "DISKLATENCY OK - 1 device OK in the last %d s; highest r_await 50 ms (sda), "
            "w_await 10 ms (sda) | %s" % (w, sda.perf("100", "200")),
            sda.line("OK"), young])
        # Write latency: sda's writes are a fifth of its reads, so the
        # host-wide dirty-data tunables are not named for it (they were
        # before issue 14, with no gate at all).
        pc.expect(pc.run(CHECK, ["-w", "100", "-c", "200", "--write-warning", "5",
                                 "--write-critical", "8"], h.port), 2, [
            "DISKLATENCY CRITICAL - sda CRITICAL %s | %s" % (
                sda.latency(), sda.perf("100", "200", "5", "8")),
            sda.line("CRITICAL")] + sda.write_advice(w) + [young])
        # -v: every rule (bfq is already a deadline scheduler), the other
        # systems' names, and the device too new to judge. read_expire is
        # no longer named: bfq has none, and nothing shows reads past it.
        pc.expect(pc.run(CHECK, ["-v"], h.port), 1, [
            "DISKLATENCY WARNING - sda WARNING %s | %s" % (sda.latency(), sda.perf()),
            sda.line("WARNING")] + sda.read_advice(w, verbose=True) + [young])
        # Only the new device: nothing to judge yet.
        pc.expect(pc.run(CHECK, ["--device", "^sdb$"], h.port), 3, [
            "DISKLATENCY UNKNOWN - no device to judge yet: every device was first seen in the "
            "newest sample", young])


# ---- part 2: what each kind of slow device is told ----------------------------------


def part_disks_fixture():
    with twtest.Harness("plugin-disklatency2") as h:
        root = pc.writable(h.copy_fixture(os.path.join("plugins", "disks")))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        shutil.copyfile(os.path.join(root, "next", "diskstats"),
                        os.path.join(root, "proc", "diskstats"))
        h.sample_now()
        span = pc.agent_span(h)
        w = pc.window_s(span)
        # Every aqu-sz below rests on the span being well under sdc's 50 s
        # of queue time; it is a fraction of a second here.
        assert span < 50000, span
        sdc = Disk(span, "sdc", 2000, 50000, 200, 1600, 1000, 50000, 16000 * 512, "mq-deadline",
                   64, 4096, True)
        sdd = Disk(span, "sdd", 100, 3000, 1000, 10000, 500, 0, 800 * 512, "mq-deadline", 64, 128,
                   True)
        sde = Disk(span, "sde", 2, 2000, 0, 0, 20, 0, 16 * 512, "bfq", 64, 128, True)
        nvme = Disk(span, "nvme0n1", 1000, 30000, 10, 20, 500, 30020, 80000 * 512, "mq-deadline",
                    1023, 128, False)
        for d, index in ((sdc, "8.32"), (sdd, "8.48"), (sde, "8.64"), (nvme, "259.0")):
            d.check_columns(h, index)
        names = [v.text for v in h.walk(pc.oid("DISK_NAME", None))]
        assert names == ["sdc", "sdd", "sde", "nvme0n1"], names

        # A deep queue on a rotational disk whose scheduler is already a
        # deadline one, held near nr_requests: nr_requests halved. Its 4 KiB
        # reads are not read-ahead's doing (mm/readahead.c reads a small
        # random read as it is), so read_ahead_kb is left alone.
        assert sdc.full()
        sdc_tune = sdc.read_advice(w)
        # No queue behind sdd's and sde's slow reads: the device itself.
        assert not sdd.deep() and not sde.deep()
        sdd_tune = sdd.read_advice(w)
        sde_tune = sde.read_advice(w)
        # Solid state behind a software scheduler, with a queue for it.
        assert nvme.deep()
        nvme_tune = nvme.read_advice(w)
        disks = [sdc, sdd, sde, nvme]

        # The defaults (-w 20 -c 50): three warn, sde is critical. The
        # summary names three, the worst first, and counts the rest.
        out = pc.run(CHECK, [], h.port)
        pc.expect(out, 2, [
            "DISKLATENCY CRITICAL - sde CRITICAL %s; sdc WARNING %s; sdd WARNING %s; and 1 more "
            "| %s" % (sde.latency(), sdc.latency(), sdd.latency(),
                      " ".join(d.perf() for d in disks)),
            sdc.line("WARNING")] + sdc_tune + [sdd.line("WARNING")] + sdd_tune +
            [sde.line("CRITICAL")] + sde_tune + [nvme.line("WARNING")] + nvme_tune)

        # SNMPv1: no read rate (Counter64), which the disk advice does not use.
        v1 = pc.run(CHECK, ["-P", "1"], h.port)
        pc.expect(v1, 2, out.stdout.splitlines())

        pc.expect(pc.run(CHECK, ["--device", "^nvme"], h.port), 1, [
            "DISKLATENCY WARNING - nvme0n1 WARNING %s | %s" % (nvme.latency(), nvme.perf()),
            nvme.line("WARNING")] + nvme_tune)
        pc.expect(pc.run(CHECK, ["--exclude-device", "^sd[ce]$"], h.port), 1, [
            "DISKLATENCY WARNING - sdd WARNING %s; nvme0n1 WARNING %s | %s %s" % (
                sdd.latency(), nvme.latency(), sdd.perf(), nvme.perf()),
            sdd.line("WARNING")] + sdd_tune + [nvme.line("WARNING")] + nvme_tune)

        # --min-ops between sde's 2 reads and the next busiest device's
        # 1010 operations over the window: sde's 1000 ms is not judged.
        min_ops = pc.num((sde.rops + sde.wops) * 10 / 100.0, 2)
        pc.expect(pc.run(CHECK, ["--min-ops", min_ops], h.port), 1, [
            "DISKLATENCY WARNING - sdc WARNING %s; sdd WARNING %s; nvme0n1 WARNING %s | %s" % (
                sdc.latency(), sdd.latency(), nvme.latency(),
                " ".join(d.perf() for d in disks)),
            sdc.line("WARNING")] + sdc_tune + [sdd.line("WARNING")] + sdd_tune +
            [sde.line("OK"), nvme.line("WARNING")] + nvme_tune)

        # Utilisation alone: no tunable adds capacity. The threshold is
        # half of sde's, whatever the span. No symptom of the advice table
        # is shown, so no finding: the threshold is the user's own.
        half = pc.hundredths(sde.util // 2)
        pc.expect(pc.run(CHECK, ["--device", "^sde$", "-w", "2000", "-c", "3000",
                                 "--util-warning", half], h.port), 1, [
            "DISKLATENCY WARNING - sde WARNING %s | %s" % (
                sde.latency(), sde.perf("2000", "3000", uw=half)),
            sde.line("WARNING"),
            "no tunable: sde is busy %s %% of the time; no tunable adds capacity (spread the I/O "
            "or add devices)" % pc.hundredths(sde.util, 1)])

        # Write latency on sdd: the first dirty-data rule.
        pc.expect(pc.run(CHECK, ["--device", "^sdd$", "-w", "100", "--write-warning", "5"],
                         h.port), 1, [
            "DISKLATENCY WARNING - sdd WARNING %s | %s" % (
                sdd.latency(), sdd.perf("100", "50", "5")),
            sdd.line("WARNING")] + sdd.write_advice(w))

        pc.expect(pc.run(CHECK, ["-w", "2000", "-c", "3000"], h.port), 0, [
            "DISKLATENCY OK - 4 devices OK in the last %d s; highest r_await 1000 ms (sde), "
            "w_await 10 ms (sdd) | %s" % (w, " ".join(d.perf("2000", "3000") for d in disks))] +
            [d.line("OK") for d in disks])
        pc.expect(pc.run(CHECK, ["--device", "nomatch"], h.port), 3, [
            "DISKLATENCY UNKNOWN - no device to judge (check --device and --exclude-device)"])


def test():
    part_agent_fixture()
    part_disks_fixture()


if __name__ == "__main__":
    twtest.main(test)
