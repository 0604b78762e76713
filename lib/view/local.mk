# lib/view/: the figures the MIB publishes, and the MIB tree over them.
lib_libtunewatch_a_SOURCES += \
	lib/view/view.h lib/view/view.c \
	lib/view/mibview.h lib/view/mibview.c
