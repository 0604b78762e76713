# SPDX-License-Identifier: ISC
# tests/: plugins tests (see the folder's own files)
# The three checks end to end against tunewatchd behind a real snmpd, and
# the Icinga 2 and Nagios definitions in contrib/ run by the real daemons.
# Python 3, standard library only; the .py extension and its log compiler
# are set up in integration.mk.
EXTRA_DIST += tests/integration/plugin_common.py

PLUGIN_TESTS = \
	tests/integration/plugin_dblock.py \
	tests/integration/plugin_disklatency.py \
	tests/integration/disk_names.py \
	tests/integration/plugin_bufcache.py \
	tests/integration/plugin_cgroups.py \
	tests/integration/plugin_unknown.py \
	tests/integration/plugin_timeout.py \
	tests/integration/plugin_local.py \
	tests/integration/plugin_peer.py \
	tests/integration/plugin_extraopts.py \
	tests/integration/plugin_round_trips.py \
	tests/integration/plugin_ticket_limit.py \
	tests/integration/kernel_listen.py \
	tests/integration/kernel_refaults.py \
	tests/integration/kernel_cgroup.py \
	tests/integration/kernel_cgroup_user.py \
	tests/integration/kernel_cgroup_owner.py \
	tests/integration/kernel_cgroup_tickets.py \
	tests/integration/kernel_reaped.py \
	tests/integration/kernel_udpdrops.py \
	tests/integration/kernel_syslog.py \
	tests/integration/kernel_user_sockets.py \
	tests/integration/config_check.py \
	tests/integration/notify_ticket.py \
	tests/integration/notify_spool.py \
	tests/integration/notify_rt_answers.py \
	tests/integration/notify_change_ids.py \
	tests/integration/notify_config.py

dist_noinst_SCRIPTS += $(PLUGIN_TESTS)
TESTS += $(PLUGIN_TESTS)
