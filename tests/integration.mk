# SPDX-License-Identifier: ISC
# tests/: integration tests against a real snmpd on 127.0.0.1 (Python 3, no
# modules beyond the standard library).
TEST_EXTENSIONS += .py
PY_LOG_COMPILER = $(PYTHON3)
AM_PY_LOG_FLAGS = -B

EXTRA_DIST += tests/integration/twtest.py tests/integration/trapsink.py \
	tests/integration/monitoring.py

AGENT_TESTS = \
	tests/integration/agent_walk.py \
	tests/integration/agent_restart.py \
	tests/integration/agent_inputs.py \
	tests/integration/agent_config.py \
	tests/integration/agent_changes.py \
	tests/integration/agent_findings.py \
	tests/integration/agent_notify_flood.py \
	tests/integration/agent_flood_users.py \
	tests/integration/agent_owner_findings.py \
	tests/integration/names_forged.py \
	tests/integration/iostat_compare.py

dist_noinst_SCRIPTS += $(AGENT_TESTS)
TESTS += $(AGENT_TESTS)
