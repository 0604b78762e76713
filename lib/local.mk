# lib/: the core, with no Net-SNMP in it.
noinst_LIBRARIES += lib/libtunewatch.a
lib_libtunewatch_a_SOURCES = \
	lib/tw_error.h lib/error.c \
	lib/readfile.h lib/readfile.c \
	lib/scan.h lib/scan.c

include lib/collectors.mk
include lib/plugincore.mk
include lib/core.mk
