# SPDX-License-Identifier: ISC
# lib/change/: the record of a change: which published tunables changed
# between samples, and the watched figure before and after.
noinst_LIBRARIES += lib/change/libtwchange.a
lib_change_libtwchange_a_SOURCES = \
	lib/change/cglimits.c \
	lib/change/figure.h lib/change/figure.c \
	lib/change/history.h lib/change/history.c \
	lib/change/watch.h lib/change/watch.c
