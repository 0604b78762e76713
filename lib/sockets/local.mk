# SPDX-License-Identifier: ISC
# lib/sockets/: UDP sockets that drop, followed over the window beside the
# sampler (see sockwatch.h).
lib_libtunewatch_a_SOURCES += \
	lib/sockets/sockwatch.h lib/sockets/sockwatch.c \
	lib/sockets/dropgate.h lib/sockets/dropgate.c
