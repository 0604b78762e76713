# SPDX-License-Identifier: ISC
# lib/util/: errors, reading files, scanning text, growing arrays, the clock
# the name filter, the bounded string writer, the shown (escaped) form of
# foreign strings, the rate limit, the send queue and the one binary search.
noinst_LIBRARIES += lib/util/libtwutil.a
lib_util_libtwutil_a_SOURCES = \
	lib/util/error.h lib/util/error.c \
	lib/util/readfile.h lib/util/readfile.c \
	lib/util/scan.h lib/util/scan.c \
	lib/util/array.h lib/util/array.c \
	lib/util/clock.h lib/util/clock.c \
	lib/util/namefilter.h lib/util/namefilter.c \
	lib/util/printf.h \
	lib/util/uid.h \
	lib/util/sorted.h \
	lib/util/strwriter.h lib/util/strwriter.c \
	lib/util/escape.h lib/util/escape.c \
	lib/util/ratelimit.h lib/util/ratelimit.c \
	lib/util/sendq.h lib/util/sendq.c
