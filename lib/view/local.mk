# SPDX-License-Identifier: ISC
# lib/view/: the figures the MIB publishes, the table that describes each
# of its objects, and the MIB tree over them.
noinst_LIBRARIES += lib/view/libtwview.a
lib_view_libtwview_a_SOURCES = \
	lib/view/columns.h lib/view/columns.c lib/view/cells.c \
	lib/view/columns_rows.h lib/view/columns_groups.c \
	lib/view/columns_agent.c lib/view/columns_cache.c lib/view/columns_pool.c \
	lib/view/columns_disk.c lib/view/columns_change.c lib/view/columns_sock.c \
	lib/view/columns_probe.c lib/view/columns_reqlat.c lib/view/columns_finding.c \
	lib/view/columns_cgroup.c \
	lib/view/view.h lib/view/view.c lib/view/build.h lib/view/build.c lib/view/build_priv.h \
	lib/view/viewcache.c lib/view/viewdisk.c lib/view/viewpool.c \
	lib/view/viewfinding.c lib/view/changerow.c lib/view/viewprobe.c \
	lib/view/cgview.c lib/view/viewreqlat.c lib/view/notice.h lib/view/notice.c \
	lib/view/mibview.h lib/view/mibview.c lib/view/mibrows.h lib/view/mibrows.c
# twSocketDropTable's rows, from lib/sockets/.
lib_view_libtwview_a_SOURCES += \
	lib/view/sockview.h lib/view/sockview.c
# The typed records (lib/figures/) each group's cells decode into.
lib_view_libtwview_a_SOURCES += \
	lib/view/fig_cache.h lib/view/fig_cache.c lib/view/fig_cgroup.h lib/view/fig_cgroup.c \
	lib/view/fig_socket.h lib/view/fig_socket.c lib/view/fig_pool.h lib/view/fig_pool.c \
	lib/view/fig_disk.h lib/view/fig_disk.c lib/view/fig_probe.h lib/view/fig_probe.c \
	lib/view/fig_reqlat.h lib/view/fig_reqlat.c lib/view/fig_agent.h lib/view/fig_agent.c \
	lib/view/fig_change.h lib/view/fig_change.c lib/view/figrow.h lib/view/figrow.c
