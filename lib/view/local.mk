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
	lib/view/record_cache.h lib/view/record_cache.c lib/view/record_cgroup.h lib/view/record_cgroup.c \
	lib/view/record_socket.h lib/view/record_socket.c lib/view/record_pool.h lib/view/record_pool.c \
	lib/view/record_disk.h lib/view/record_disk.c lib/view/record_probe.h lib/view/record_probe.c \
	lib/view/record_reqlat.h lib/view/record_reqlat.c lib/view/record_agent.h lib/view/record_agent.c \
	lib/view/record_change.h lib/view/record_change.c lib/view/recordrow.h lib/view/recordrow.c
