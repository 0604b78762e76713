# SPDX-License-Identifier: ISC
# lib/sockets/: UDP sockets that drop, followed over the window beside the
# sampler (see sockwatch.h).
noinst_LIBRARIES += lib/sockets/libtwsockets.a
lib_sockets_libtwsockets_a_SOURCES = \
	lib/sockets/sockwatch.h lib/sockets/sockwatch.c lib/sockets/sockrows.h lib/sockets/sockrows.c \
	lib/sockets/sockbusy.h lib/sockets/sockbusy.c \
	lib/sockets/dropgate.h lib/sockets/dropgate.c \
	lib/sockets/uncounted.h lib/sockets/uncounted.c \
	lib/sockets/listenwatch.h lib/sockets/listenwatch.c
