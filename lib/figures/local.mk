# SPDX-License-Identifier: ISC
# lib/figures/: the records, one plain struct per group, in natural
# units: lib/derive/ makes them, the view projects them into its rows and
# decodes its rows back into them, and the judges, advice and checks read
# them instead of MIB cells. Plain structs that include no view,
# window or sample header. Headers only: no library of its own.
noinst_HEADERS = \
	lib/figures/fig.h lib/figures/disk_record.h lib/figures/probe_record.h lib/figures/reqlat_record.h \
	lib/figures/cache_record.h lib/figures/cgroup_record.h lib/figures/socket_record.h lib/figures/pool_record.h \
	lib/figures/agent_record.h lib/figures/change_record.h
