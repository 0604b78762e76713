# lib/: collectors, one per kernel file.
lib_libtunewatch_a_SOURCES += \
	lib/diskstats.h lib/diskstats.c \
	lib/blockqueue.h lib/blockqueue.c \
	lib/meminfo.h lib/meminfo.c \
	lib/vmstat.h lib/vmstat.c \
	lib/pressure.h lib/pressure.c \
	lib/procio.h lib/procio.c \
	lib/softnet.h lib/softnet.c \
	lib/sockstat.h lib/sockstat.c \
	lib/netstat.h lib/netstat.c \
	lib/buddyinfo.h lib/buddyinfo.c \
	lib/sysctl.h lib/sysctl.c
