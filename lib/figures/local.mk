# SPDX-License-Identifier: ISC
# lib/figures/: typed figures, one plain record per group, in natural
# units, that the view decodes its rows into and the judges, advice and
# checks read instead of MIB cells. Plain structs that include no view,
# window or sample header. Headers only: no library of its own.
noinst_HEADERS = \
	lib/figures/fig.h lib/figures/disk.h lib/figures/probe.h lib/figures/reqlat.h \
	lib/figures/cache.h lib/figures/cgroup.h lib/figures/socket.h lib/figures/pool.h \
	lib/figures/agent.h lib/figures/change.h
