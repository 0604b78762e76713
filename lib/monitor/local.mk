# SPDX-License-Identifier: ISC
# lib/monitor/: sampler, window and view run together (tunewatchd's timer,
# a plugin's --local mode).
lib_libtunewatch_a_SOURCES += \
	lib/monitor/monitor.h lib/monitor/monitor.c
