# SPDX-License-Identifier: ISC
# lib/threshold/: the Monitoring Plugins' vocabulary that the judges, the
# advice, tunewatchd and the checks all speak: states, threshold ranges and
# thresholds, and perfdata items with their numbers.
noinst_LIBRARIES += lib/threshold/libtwthreshold.a
lib_threshold_libtwthreshold_a_SOURCES = \
	lib/threshold/state.h lib/threshold/state.c \
	lib/threshold/range.h lib/threshold/range.c \
	lib/threshold/threshold.h lib/threshold/threshold.c \
	lib/threshold/perfdata.h lib/threshold/perfdata.c
