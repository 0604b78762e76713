# SPDX-License-Identifier: ISC
# lib/figures/: typed figures, one plain record per group, in natural
# units: lib/derive/ makes them, the view projects them into its rows and
# decodes its rows back into them, and the judges, advice and checks read
# them instead of MIB cells. Plain structs that include no view,
# window or sample header. Headers only: no library of its own.
noinst_HEADERS = \
	lib/figures/fig.h lib/figures/disk.h lib/figures/probe.h lib/figures/reqlat.h \
	lib/figures/cache.h lib/figures/cgroup.h lib/figures/socket.h lib/figures/pool.h \
	lib/figures/agent.h lib/figures/change.h
