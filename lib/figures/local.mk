# SPDX-License-Identifier: ISC
# lib/figures/: typed figures, one plain record per group, in natural
# units; what judges, advice and checks read instead of MIB cells. Plain
# structs that include no view, window or sample header.
lib_libtunewatch_a_SOURCES += \
	lib/figures/fig.h lib/figures/cache.h lib/figures/cgroup.h lib/figures/socket.h \
	lib/figures/pool.h
