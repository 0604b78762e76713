# SPDX-License-Identifier: ISC
# tests/: reliability and security (issue 6): SNMPv3 end to end, load,
# memcheck. The fault tests of tunewatchd itself are in integration.mk.
RELIABILITY_TESTS = \
	tests/integration/security_snmpv3.py \
	tests/integration/load_bulkwalk.py \
	tests/integration/memcheck.py

EXTRA_DIST += tests/valgrind.supp
dist_noinst_SCRIPTS += $(RELIABILITY_TESTS)
TESTS += $(RELIABILITY_TESTS)
