# SPDX-License-Identifier: ISC
# lib/probe/: the active latency probe: a histogram of fixed size, a
# reading thread for each device, its configuration lines and the set of
# probed devices that tunewatchd keeps.
noinst_LIBRARIES += lib/probe/libtwprobe.a
lib_probe_libtwprobe_a_SOURCES = \
	lib/probe/histogram.h lib/probe/histogram.c \
	lib/probe/probestate.h lib/probe/probestate.c \
	lib/probe/probe.h lib/probe/probe.c \
	lib/probe/probeio.h lib/probe/probeio.c \
	lib/probe/probereader.h lib/probe/probereader.c \
	lib/probe/probeopen.h lib/probe/probeopen.c \
	lib/probe/probeconf.h lib/probe/probeconf.c \
	lib/probe/probedev.h lib/probe/probedev.c \
	lib/probe/probeset.h lib/probe/probeset.c
