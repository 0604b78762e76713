# SPDX-License-Identifier: ISC
# lib/collect/: the collectors, one per kernel file.
noinst_LIBRARIES += lib/collect/libtwcollect.a
lib_collect_libtwcollect_a_SOURCES = \
	lib/collect/diskstats.h lib/collect/diskstats.c \
	lib/collect/blockqueue.h lib/collect/blockqueue.c \
	lib/collect/blockident.h lib/collect/blockident.c \
	lib/collect/meminfo.h lib/collect/meminfo.c \
	lib/collect/vmstat.h lib/collect/vmstat.c \
	lib/collect/pressure.h lib/collect/pressure.c \
	lib/collect/procio.h lib/collect/procio.c \
	lib/collect/softnet.h lib/collect/softnet.c \
	lib/collect/sockstat.h lib/collect/sockstat.c \
	lib/collect/netstat.h lib/collect/netstat.c \
	lib/collect/protocols.h lib/collect/protocols.c \
	lib/collect/buddyinfo.h lib/collect/buddyinfo.c \
	lib/collect/sysctl.h lib/collect/sysctl.c \
	lib/collect/cgroupread.h lib/collect/cgroupread.c lib/collect/cgroupscan.c \
	lib/collect/cgroupparse.c \
	lib/collect/cgroupowner.h lib/collect/cgroupowner.c \
	lib/collect/cgfiles.h lib/collect/cgfiles.c
# UDP sockets that drop: the socket files, owners through /proc/[pid]/fd,
# receive buffers through sock_diag.
lib_collect_libtwcollect_a_SOURCES += \
	lib/collect/udpsock.h lib/collect/udpsock.c lib/collect/udpsort.c \
	lib/collect/sockowner.h lib/collect/sockowner.c lib/collect/dents.h lib/collect/dents.c \
	lib/collect/sockdiag.h lib/collect/sockdiag.c
