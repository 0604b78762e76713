# SPDX-License-Identifier: ISC
# tests/: the MIB against the column table and the header (everywhere, by
# reading the module's text), that check's own teeth, and smilint (against
# tests/mibs' stand-ins for the IETF base modules, and against the IETF's
# own where they are)
check_PROGRAMS += tests/mib_text
tests_mib_text_SOURCES = tests/mib_text.c tests/mib_reader.h tests/mib_reader.c
tests_mib_text_LDADD = $(TW_LIBS)
TESTS += tests/mib_smilint.sh tests/mib_text tests/mib_text_drift.sh
EXTRA_DIST += tests/mib_smilint.sh tests/mib_text_drift.sh tests/mibs

# What the checks make of an agent that is not tunewatchd (snmpsim replaying
# a walk of it with one value changed); skipped without snmpsim.
dist_noinst_SCRIPTS += tests/integration/foreign_agent.py
TESTS += tests/integration/foreign_agent.py

# The column table's values: scaled, checked, stored and loaded.
check_PROGRAMS += tests/check_columns
tests_check_columns_SOURCES = tests/check_columns.c tests/tw_check.h
tests_check_columns_CFLAGS = $(TESTS_CFLAGS)
tests_check_columns_LDADD = $(TESTS_LDADD)
TESTS += tests/check_columns
