#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""check_bufcache end to end: tunewatchd on tests/fixtures/agent behind a
real snmpd, changed as agent_walk.change_fixture() does, then once more.

Over the first two samples (worked out by hand from the fixture):
  hit ratio   processes 100 and 200 read 1000000 + 1000000 bytes (rchar), of
              which 100000 from storage (read_bytes): 1 - 0.05 = 95.00 %
  refaults    workingset_refault_file +500 pages, pgmajfault +100,
              pgpgin +2000 KiB, all per second over the span
  pressure    memory "some avg10" 1.50 %, io 12.34 %
  meminfo     Cached 3000000 kB, Dirty 4096 kB, Writeback 0, swap 500000 of
              2000000 kB in use
  tunables    vm.swappiness 60, vm.watermark_scale_factor 10
Refaults are 500 * 4 KiB = 2000 KiB against 2000 KiB paged in: 100 % of what
was read from storage, so a low hit ratio is blamed on a cache too small; with
swap in use, swappiness goes up (to 120: this kernel takes up to 200).

The defaults judge the host's refaults (100 and 1000 a second), not the hit
ratio: a low ratio alone hurts no one. The fixture refaults 500 pages within
a span of a few milliseconds, far over 1000 a second, so the defaults say
CRITICAL with that advice; -w and -c are the hit ratio's only when given,
and the refault ranges are then given out of reach to see them alone.

A third sample adds reads that miss without refaults (process 100 reads
1000000 bytes more, 800000 of them from storage; pgpgin +100000 KiB):
over the window, 1 - 900000 / 3000000 = 70.00 %, refaults 2000 KiB of
102000 KiB paged in (2 %): data read once. With -w 90: -c 80: given, the
disk that read most (sda) reads 40 KiB a request, not the size of its
read_ahead_kb of 128, so a larger read-ahead would go unused: no tunable.
At the defaults, with the refaults out of reach, a ratio of 70 % is OK.

A fourth sample has the host's own reclaim in /proc/vmstat (pgsteal_kswapd
and pgsteal_direct, which grew by nothing): the refaults are then a
cgroup's at its own limit, not the host's, and the defaults say OK.
"""

import os

import agent_walk
import plugin_common as pc
import twtest

CHECK = "check_bufcache"
VM_RST = "Documentation/admin-guide/sysctl/vm.rst"
# 500000 of 2000000 kB in MiB, as the check prints them.
SWAP = "488.3 of 1953.1 MiB of swap in use"


def check_one_sample(h):
    out = pc.run(CHECK, [], h.port)
    pc.expect(out, 3, ["BUFCACHE UNKNOWN - tunewatchd's window holds 1 sample; figures come "
                       "with the next sample (every 60 s)"])


class Figures:
    def __init__(self, h, hit, refaults, majflt, pagein):
        span = pc.agent_span(h)
        self.w = pc.window_s(span)
        self.hit = hit
        self.ref = pc.rnd(refaults * 100000 / span)
        self.maj = pc.rnd(majflt * 100000 / span)
        self.pgin = pc.rnd(pagein * 100000 / span)
        oids = [pc.oid(c) for c in ("BC_READ_HIT_RATIO", "BC_REFAULT_RATE",
                                    "BC_MAJOR_FAULT_RATE", "BC_PAGE_IN_RATE",
                                    "BC_MEMORY_PRESSURE", "BC_IO_PRESSURE")]
        cols = pc.columns(h, oids)
        assert [cols[o] for o in oids] == [
            hit, self.ref, self.maj, self.pgin, 150, 1234], cols
        # What the plugin works out: refaulted KiB against KiB paged in.
        self.share = pc.num(self.ref / 100.0 * 4.0 / (self.pgin / 100.0) * 100, 0)

    def summary(self):
        return "read hit ratio %s %% in the last %d s, %s refaults/s, memory pressure 1.5 %%" % (
            pc.hundredths(self.hit), self.w, pc.hundredths(self.ref))

    def state(self):
        """What the default refault ranges, 100 and 1000, make of them."""
        r = self.ref / 100.0
        return (2, "CRITICAL") if r > 1000 else (1, "WARNING") if r > 100 else (0, "OK")

    def perf(self, warn="", crit="", rw="100", rc="1000", pw="", v1=False, reclaim=None):
        items = [pc.perf("hit_ratio", pc.hundredths(self.hit), "%", warn, crit, "0", "100"),
                 pc.perf("refaults", pc.hundredths(self.ref), "", rw, rc, "0"),
                 pc.perf("major_faults", pc.hundredths(self.maj), "", "", "", "0"),
                 pc.perf("page_in_kib", pc.hundredths(self.pgin), "", "", "", "0"),
                 pc.perf("memory_pressure", "1.5", "%", pw, "", "0", "100"),
                 pc.perf("io_pressure", "12.34", "%", "", "", "0", "100")]
        if not v1:
            items += [pc.perf("cached", 3072000000, "B", "", "", "0"),
                      pc.perf("dirty", 4194304, "B", "", "", "0"),
                      pc.perf("writeback", 0, "B", "", "", "0")]
        if reclaim is not None:
            items.append(pc.perf("host_reclaim", reclaim, "", "", "", "0"))
        return " ".join(items)

    def long(self, v1=False, reclaim=None):
        """The long output after the hit ratio's method line."""
        lines = [] if v1 else ["page cache 2929.7 MiB, dirty 4 MiB, writeback 0 MiB"]
        lines += ["%s refaults/s, %s major faults/s, %s KiB/s paged in, io pressure "
                  "12.34 %%" % (pc.hundredths(self.ref), pc.hundredths(self.maj),
                                pc.hundredths(self.pgin))]
        if reclaim is not None:
            lines.append("host-wide reclaim %s pages/s: %s of the %s refaults/s are the host's "
                         "own, the rest cgroups' at their own limits (--cgroup)" % (
                             reclaim, reclaim, pc.hundredths(self.ref)))
        return lines

    def refault_detail(self, hit=True):
        return "%s%s refaults/s, %s %% of page-ins, %s, in the last %d s" % (
            "hit ratio %s %% with " % pc.hundredths(self.hit) if hit else "",
            pc.hundredths(self.ref), self.share, SWAP, self.w)


def expect(out, rc, state, f, perf, tune=(), v1=False, reclaim=None):
    """The whole output; the method line (its wording about unreadable
    processes is not this test's business) only by its start."""
    method = "hit ratio: an estimate (proc-pid-io: 1 - sum(read_bytes)/sum(rchar) of " \
             "processes alive across or born within each interval) over 2 processes"
    lines = out.stdout.split("\n")[:-1]
    assert len(lines) > 1 and lines[1].startswith(method), out
    got = pc.Output(out.argv, out.rc, "\n".join(lines[:1] + lines[2:]) + "\n", "", out.elapsed)
    pc.expect(got, rc, ["BUFCACHE %s - %s | %s" % (state, f.summary(), perf)] +
              f.long(v1, reclaim) + list(tune))


def test():
    with twtest.Harness("plugin-bufcache") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        check_one_sample(h)
        agent_walk.change_fixture(root)
        h.sample_now()
        f = Figures(h, 9500, 500, 100, 2000)
        assert f.share == "100", f.share

        # Up, not down (issue 14): vm.rst's higher swappiness is cheaper swap,
        # so idle anonymous pages go to swap rather than the cache being cut.
        # Its ticket: the cache is the subject, whatever disk read most.
        swappiness = ["tune: vm.swappiness 60 -> 120 (%s; %s)" % (f.refault_detail(), VM_RST)] + \
            pc.ticket("low-hit-refaults", "cache", "vm.swappiness", "120")
        # The defaults: the host's refaults, over 1000 a second (CRITICAL)
        # when the two samples are under 0.5 s apart, as on a quiet machine;
        # a busy one took 2,175 ms to write the fixture and sample again
        # (230 a second: WARNING). Either way the check must give the
        # figures' state with its ticket, which needs a state that is not
        # OK: the 500 refaults within 5 s.
        rc, state = f.state()
        span = pc.agent_span(h)
        print("the fixture's 500 refaults over %d ms: %s" % (span, state))
        assert rc >= 1, "the fixture's 500 refaults took %d ms" % span
        expect(pc.run(CHECK, [], h.port), rc, state, f, f.perf(), swappiness)
        # SNMPv1: the CounterBasedGauge64 sizes (cached, dirty, writeback,
        # swap) cannot be carried; the check still works without them, and
        # without swap's figures names no swappiness.
        expect(pc.run(CHECK, ["-P", "1"], h.port), rc, state, f, f.perf(v1=True), [
            "no tunable: the working set does not fit in memory (hit ratio %s %% with %s "
            "refaults/s, swap not reported by the agent), so add memory, raise the memory limit "
            "of its cgroup if the load runs in one, or reduce load" % (
                pc.hundredths(f.hit), pc.hundredths(f.ref))] +
            pc.ticket("low-hit-refaults", "cache"), v1=True)

        # The hit ratio when asked, with the refaults out of reach.
        far = ["--refault-warning", "1000000000", "--refault-critical", "1000000000"]
        expect(pc.run(CHECK, ["-w", "90:", "-c", "80:"] + far, h.port), 0, "OK", f,
               f.perf("90:", "80:", "1000000000", "1000000000"))
        expect(pc.run(CHECK, ["-w", "96:"] + far, h.port), 1, "WARNING", f,
               f.perf("96:", "", "1000000000", "1000000000"), swappiness)
        expect(pc.run(CHECK, ["-w", "99:", "-c", "98:"] + far, h.port), 2, "CRITICAL", f,
               f.perf("99:", "98:", "1000000000", "1000000000"), swappiness)
        # Refaults alone (over 1/s whatever the span), the ratio being fine.
        expect(pc.run(CHECK, ["--refault-warning", "1", "--refault-critical", "1000000000"],
                      h.port), 1, "WARNING", f, f.perf(rw="1", rc="1000000000"),
               swappiness)
        # Memory pressure 1.5 % over 1, with refaults making up all that is
        # read: thrashing, which no watermark helps.
        expect(pc.run(CHECK, ["--pressure-warning", "1"] + far, h.port), 1, "WARNING", f,
               f.perf(rw="1000000000", rc="1000000000", pw="1"),
               ["no tunable: tasks stall on memory (pressure 1.5 %%) while %s pages/s are read "
                "back: the working set does not fit (%s), so add memory or reduce load" % (
                    pc.hundredths(f.ref), SWAP)] + pc.ticket("memory-pressure", "cache"))
        # FreeBSD leaves its cache to the VM system (tuning(7)): nothing to
        # turn there, and the line says what Linux would turn.
        expect(pc.run(CHECK, ["-w", "96:", "--os", "freebsd"] + far, h.port), 1, "WARNING", f,
               f.perf("96:", "", "1000000000", "1000000000"),
               ["tune: FreeBSD has no tunable for this (%s; on Linux: vm.swappiness)" %
                f.refault_detail()] + pc.ticket("low-hit-refaults", "cache"))

        # A third sample: reads that miss without refaults.
        p = os.path.join(root, "proc")
        with open(os.path.join(p, "100", "io"), "w") as fh:
            fh.write("rchar: 3000000\nwchar: 500\nsyscr: 200\nsyscw: 10\nread_bytes: 1000000\n"
                     "write_bytes: 0\ncancelled_write_bytes: 0\n")
        with open(os.path.join(p, "vmstat")) as fh:
            vm = fh.read()
        with open(os.path.join(p, "vmstat"), "w") as fh:
            fh.write(vm.replace("pgpgin 1002000", "pgpgin 1102000"))
        h.sample_now()
        f = Figures(h, 7000, 500, 100, 102000)
        assert f.share == "2", f.share
        expect(pc.run(CHECK, ["-w", "90:", "-c", "80:"] + far, h.port), 2, "CRITICAL", f,
               f.perf("90:", "80:", "1000000000", "1000000000"), [
                   "no tunable: hit ratio 70 % with few refaults: data is read once, in device "
                   "reads of 40 KiB on sda, not the size of its read-ahead window (read_ahead_kb "
                   "128): the reader sets their size, so another window would not change them, "
                   "and more cache would not help"] +
               pc.ticket("low-hit-sequential", "cache"))
        # A low ratio alone, at the defaults: OK.
        expect(pc.run(CHECK, far, h.port), 0, "OK", f,
               f.perf("", "", "1000000000", "1000000000"))

        # The host's own reclaim, which reclaimed nothing: the refaults are a
        # cgroup's at its limit, and the defaults say OK.
        with open(os.path.join(p, "vmstat"), "a") as fh:
            fh.write("pgsteal_kswapd 0\npgsteal_direct 0\n")
        h.sample_now()
        f = Figures(h, 7000, 500, 100, 102000)
        expect(pc.run(CHECK, [], h.port), 0, "OK", f, f.perf(reclaim="0"), reclaim="0")


if __name__ == "__main__":
    twtest.main(test)
