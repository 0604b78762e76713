# SPDX-License-Identifier: ISC
# lib/view/: the figures the MIB publishes, the table that describes each
# of its objects, and the MIB tree over them.
lib_libtunewatch_a_SOURCES += \
	lib/view/columns.h lib/view/columns.c lib/view/cells.c \
	lib/view/view.h lib/view/view.c lib/view/build.h lib/view/build.c lib/view/viewbuild.h \
	lib/view/viewcache.c lib/view/viewdisk.c lib/view/viewpool.c \
	lib/view/viewfinding.c lib/view/changerow.c lib/view/viewprobe.c \
	lib/view/cgview.c lib/view/viewreqlat.c lib/view/notice.h lib/view/notice.c \
	lib/view/mibview.h lib/view/mibview.c
# twSocketDropTable's rows, from lib/sockets/.
lib_libtunewatch_a_SOURCES += \
	lib/view/sockview.h lib/view/sockview.c
