# SPDX-License-Identifier: ISC
# tests/: what other tools expect: the Zabbix template against the MIB and
# the checks' defaults, and every check's perfdata against a strict parser of
# the Monitoring Plugins grammar.
FORMAT_TESTS = tests/zabbix_template.py tests/integration/perfdata_grammar.py
dist_noinst_SCRIPTS += $(FORMAT_TESTS)
TESTS += $(FORMAT_TESTS)
