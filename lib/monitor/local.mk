# SPDX-License-Identifier: ISC
# lib/monitor/: sampler, window and view run together (tunewatchd's timer,
# a plugin's --local mode).
noinst_LIBRARIES += lib/monitor/libtwmonitor.a
lib_monitor_libtwmonitor_a_SOURCES = \
	lib/monitor/monitor.h lib/monitor/monitor.c lib/monitor/monitor_priv.h lib/monitor/monitor_read.c
