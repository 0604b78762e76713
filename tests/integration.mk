# tests/: integration tests against a real snmpd on 127.0.0.1 (Python 3, no
# modules beyond the standard library).
TEST_EXTENSIONS += .py
PY_LOG_COMPILER = $(PYTHON3)
AM_PY_LOG_FLAGS = -B

EXTRA_DIST += tests/integration/twtest.py
dist_noinst_SCRIPTS += \
	tests/integration/agent_walk.py

TESTS += \
	tests/integration/agent_walk.py
