# SPDX-License-Identifier: ISC
# tests/: tunewatch in the systems that run fleets, with Debian's own
# software started on 127.0.0.1: snmp_exporter, Prometheus and Alertmanager
# (contrib/prometheus), an Icinga 2 master and satellite (contrib/icinga2),
# Request Tracker (contrib/notify/tunewatch-rt), and a Zabbix 6.0 server
# with PostgreSQL 15 and its frontend (contrib/zabbix). Each skips, saying
# why, where its package is missing; contrib/install-deps installs them.
EXTRA_DIST += tests/integration/promtest.py tests/integration/rttest.py \
	tests/integration/zbxtest.py \
	tests/prometheus/tunewatch.rules.test.yml

FLEET_TESTS = \
	tests/prometheus_rules.py \
	tests/integration/prometheus_snmp.py \
	tests/integration/prometheus_alerts.py \
	tests/integration/icinga_cluster.py \
	tests/integration/notify_rt.py \
	tests/integration/zabbix_server.py

dist_noinst_SCRIPTS += $(FLEET_TESTS)
TESTS += $(FLEET_TESTS)
