# SPDX-License-Identifier: ISC
# tests/: the active probe end to end, on loop devices of the tests' own
# (root, losetup; each skips with its reason where something is missing):
#   probe_loop.py      what the probe adds to its own reads (bpftrace's kernel
#                      times of the same reads) against what ioping -D adds,
#                      reading between the probe's reads, over 3 rounds of 40 s
#   probe_many.py      eight devices at once: what the probe adds to its own
#                      reads (bpftrace's kernel times of the same reads)
#                      against what ioping adds to its own
#   probe_known.py     a device whose every read takes 2 ms, then 20 ms
#                      (tests/fusedelay): p50 and p90 against the reference
#   probe_faults.py    a device that vanishes, is replaced, idles (spun-down
#                      rule), fails with EIO (dm error target; a FUSE file),
#                      is slow enough to miss slots and time out, or cannot
#                      be opened again after root was given up
EXTRA_DIST += tests/integration/probe_common.py

PROBE_TESTS = \
	tests/integration/probe_loop.py \
	tests/integration/probe_many.py \
	tests/integration/probe_known.py \
	tests/integration/probe_faults.py

dist_noinst_SCRIPTS += $(PROBE_TESTS)
TESTS += $(PROBE_TESTS)

# A FUSE file whose every read takes a known time (tests/fusedelay.c): the
# probe's reference device. Built only when configure found libfuse3.
EXTRA_DIST += tests/fusedelay.c
if HAVE_FUSE3
check_PROGRAMS += tests/fusedelay
tests_fusedelay_SOURCES = tests/fusedelay.c
tests_fusedelay_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
tests_fusedelay_LDADD = $(FUSE3_LIBS)
endif

# One after the other: every tunewatchd puts its first probed device's reads
# at whole tenths of a second (lib/probe/probereader.h), so two of these
# tests at once would read at the same instants and queue behind each
# other, which their comparisons with ioping would count as the probe's.
# (Measured: probe_loop.py beside probe_known.py in make -j2 check read its
# probe 1.16 times ioping's median, alone 0.97 to 1.02.) Two more tests
# probe, and come after them: agent_owner_findings.py (a loop device at 10
# reads a second: beside it in a whole make -j2 check, probe_loop.py's
# probe read at 0.80 and 0.82 times ioping's median in two of its rounds,
# its reads at the instants of the other's, whose wake-up warmed the CPU
# for them) and memcheck.py, under valgrind.
tests/integration/probe_many.log: tests/integration/probe_loop.log
tests/integration/probe_known.log: tests/integration/probe_many.log
tests/integration/probe_faults.log: tests/integration/probe_known.log
tests/integration/agent_owner_findings.log: tests/integration/probe_faults.log
tests/integration/memcheck.log: tests/integration/agent_owner_findings.log
# probe_loop.py, probe_many.py and reqlat_reference.py each mount tracefs
# when nothing has and unmount it when done: at once, one could take it from
# under another (probe_loop.py comes before probe_many.py, above).
tests/integration/reqlat_reference.log: tests/integration/probe_many.log
