# SPDX-License-Identifier: ISC
# tests/: libcheck unit tests, fixture trees and integration scripts.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	TW_FIXTURES='$(abs_top_srcdir)/tests/fixtures'; export TW_FIXTURES; \
	SNMPD='$(SNMPD)'; export SNMPD; \
	TW_SANITIZERS='$(enable_sanitizers)'; export TW_SANITIZERS; \
	CK_DEFAULT_TIMEOUT=300; export CK_DEFAULT_TIMEOUT;

# CK_DEFAULT_TIMEOUT: how long a libcheck test may run before it counts as
# hung. A hang detector, not a speed target (those are bench/'s): 60 s was
# passed on a busy machine (load average 21 on 2 CPUs, make -j2 and fio
# beside) by check_cgroup's test_walk_too_many (8,200 cgroups made with
# mkdirat) and test_iostat_reference (200,000 files parsed twice).

# Every test's log and result are written under names of the run's own,
# then put where automake reads them (tests/logdriver.sh): the same test
# run twice at once in this tree leaves two whole logs.
TW_LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/logdriver.sh '$(SHELL)' \
	$(top_srcdir)/build-aux/test-driver
LOG_DRIVER = $(TW_LOG_DRIVER)
SH_LOG_DRIVER = $(TW_LOG_DRIVER)
PY_LOG_DRIVER = $(TW_LOG_DRIVER)
EXTRA_DIST += tests/logdriver.sh build-aux/test-driver

clean-local: clean-test-runs
clean-test-runs:
	-test ! -d tests || find tests \( -name '*.run-[0-9]*.log' -o -name '*.run-[0-9]*.trs' \
	    -o -name '*.log.tmp-[0-9]*' \) -exec rm -f {} +
.PHONY: clean-test-runs

# The tests that are not integration tests, for make distcheck in
# contrib/run-tests: by then the whole suite has run in this tree, and the
# tarball needs only to build and to pass what shows that it is whole.
print-unit-tests:
	@for t in $(TESTS); do case $$t in tests/integration/*) ;; *) echo $$t ;; esac; done
.PHONY: print-unit-tests

# The tests a Debian package build runs (debian/rules), as Debian's builders
# run a package's tests: as a plain user, with no network. The tests above
# and the integration tests that need no root, no daemon (no snmpd, no
# tunewatchd) and no network namespace. The rest stay in make check and CI.
BUILD_TIME_TESTS = tests/integration/install_mib.py tests/integration/plugin_local.py \
	tests/integration/iostat_compare.py
print-build-tests: print-unit-tests
	@for t in $(BUILD_TIME_TESTS); do echo $$t; done
.PHONY: print-build-tests

# The tests the sanitizer build of contrib/run-tests runs: all but those
# that would show the sanitizers nothing, each named here with why
# (TESTING.md, "What runs where"). They all run in its -Werror build.
#  - they run no program built from our C: the text and layout checks, the
#    manual pages' lint, promtool, smilint, the MIB's installed copy;
#  - valgrind cannot run a program built with ASan: the memchecks skip;
#  - the fuzz smoke's targets are built with ASan and UBSan in every build;
#  - the references in time (the probe against ioping and bpftrace, the
#    request latency against bpftrace): their assertions are about time,
#    which instrumented code distorts; their C runs under the sanitizers in
#    probe_faults.py, reqlat_agent.py, check_probe and check_reqlat.
SANITIZER_SKIPS = tests/testing_index.py tests/spdx_headers.py tests/file_size.py \
	tests/layers.py tests/man_lint.py tests/prometheus_rules.py tests/mib_smilint.sh \
	tests/integration/install_mib.py tests/integration/memcheck.py \
	tests/integration/reqlat_memcheck.py tests/fuzz/run-smoke.sh \
	tests/integration/probe_loop.py tests/integration/probe_many.py \
	tests/integration/probe_known.py tests/integration/reqlat_reference.py
print-sanitizer-tests:
	@for t in $(TESTS); do case " $(SANITIZER_SKIPS) " in *" $$t "*) ;; *) echo $$t ;; esac; done
.PHONY: print-sanitizer-tests

TESTS_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TESTS_LDADD = $(TW_CHECKIO_LIBS) $(CHECK_LIBS)

EXTRA_DIST += tests/fixtures

# TESTING.md names every test file, and every file it names exists.
EXTRA_DIST += TESTING.md
dist_noinst_SCRIPTS += tests/testing_index.py
TESTS += tests/testing_index.py

# Every source says its licence (LICENSE) in an SPDX line.
dist_noinst_SCRIPTS += tests/spdx_headers.py
TESTS += tests/spdx_headers.py

# No C file of the product is over 400 lines.
dist_noinst_SCRIPTS += tests/file_size.py
TESTS += tests/file_size.py

# The lab's statistics (tests/lab/labstats.py, labsweep.py) on known samples.
dist_noinst_SCRIPTS += tests/lab_stats.py
TESTS += tests/lab_stats.py
# LAB.md and the sweep's SVG from made-up results: a report that cannot be
# written fails here, not at the end of an hour's lab.
dist_noinst_SCRIPTS += tests/lab_report.py
TESTS += tests/lab_report.py
# The lab's one rule for knobs (tests/lab/labknobs.py): a wrong knob of any
# subject fails a scenario of every kind; the machine's findings are listed.
dist_noinst_SCRIPTS += tests/lab_knobs.py
TESTS += tests/lab_knobs.py

# How each tune line is proven (lib/advice/proof.c), held to the lab: its
# scenarios, and the committed results of a whole run (doc/LAB.json).
check_PROGRAMS += tests/proof_table
tests_proof_table_SOURCES = tests/proof_table.c
tests_proof_table_CFLAGS = $(TESTS_CFLAGS)
tests_proof_table_LDADD = $(TESTS_LDADD)
dist_noinst_SCRIPTS += tests/proof_lab.py
TESTS += tests/proof_lab.py

# Every Linux action of lib/advice has its row in the guest lab's coverage
# table (tests/guest/coverage.py): the scenario that shows it, or why none
# does yet.
check_PROGRAMS += tests/advice_rules
tests_advice_rules_SOURCES = tests/advice_rules.c
tests_advice_rules_CFLAGS = $(TESTS_CFLAGS)
tests_advice_rules_LDADD = $(TESTS_LDADD)
dist_noinst_SCRIPTS += tests/guest_coverage.py
TESTS += tests/guest_coverage.py

# Each stage of lib/ includes only its own and lower stages, and no files
# include each other in a circle.
dist_noinst_SCRIPTS += tests/layers.py
TESTS += tests/layers.py

check_PROGRAMS += tests/check_scan
tests_check_scan_SOURCES = tests/check_scan.c tests/tw_check.h
tests_check_scan_CFLAGS = $(TESTS_CFLAGS)
tests_check_scan_LDADD = $(TESTS_LDADD)
TESTS += tests/check_scan

check_PROGRAMS += tests/check_sorted
tests_check_sorted_SOURCES = tests/check_sorted.c tests/tw_check.h
tests_check_sorted_CFLAGS = $(TESTS_CFLAGS)
tests_check_sorted_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sorted

check_PROGRAMS += tests/check_namefilter
tests_check_namefilter_SOURCES = tests/check_namefilter.c tests/tw_check.h
tests_check_namefilter_CFLAGS = $(TESTS_CFLAGS)
tests_check_namefilter_LDADD = $(TESTS_LDADD)
TESTS += tests/check_namefilter

include tests/collectors.mk
include tests/plugincore.mk
include tests/mib.mk
include tests/core.mk
include tests/integration.mk
include tests/plugins.mk
include tests/probe.mk
include tests/reqlat.mk
include tests/fuzz.mk
include tests/faults.mk
include tests/install.mk
include tests/man.mk
include tests/formats.mk
include tests/fleet.mk
