# lib/: collectors, one per kernel file.
lib_libtunewatch_a_SOURCES += \
	lib/diskstats.h \
	lib/blockqueue.h \
	lib/meminfo.h \
	lib/vmstat.h \
	lib/pressure.h \
	lib/procio.h \
	lib/softnet.h \
	lib/sockstat.h \
	lib/netstat.h \
	lib/buddyinfo.h \
	lib/sysctl.h
