# SPDX-License-Identifier: ISC
# lib/window/: counter histories over the last samples, safe against wraps,
# resets and devices that come and go.
noinst_LIBRARIES += lib/window/libtwwindow.a
lib_window_libtwwindow_a_SOURCES = \
	lib/window/counter.h lib/window/counter.c \
	lib/window/track.h lib/window/track.c \
	lib/window/window.h lib/window/window.c lib/window/cgtrack.c \
	lib/window/procreads.c
