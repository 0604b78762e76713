# SPDX-License-Identifier: ISC
# lib/: the core, with no Net-SNMP in it, in one folder per stage of the
# data flow, each folder its own static library. Lowest first:
#
#   util -> collect -> sample -> window -> sockets -> probe -> reqlat
#   -> figures -> derive -> view -> threshold -> advice -> finding -> change
#   -> monitor
#
# and plugin, the checks' own helpers, on top. A stage includes and calls
# only its own and lower stages (tests/layers.py reads the includes). The
# programs link TW_LIBS, which lists the stages highest first: the linker
# reads an archive once, so a lower stage that calls up into a higher one
# fails to link.

include lib/util/local.mk
include lib/collect/local.mk
include lib/sample/local.mk
include lib/window/local.mk
include lib/sockets/local.mk
include lib/probe/local.mk
include lib/reqlat/local.mk
# lib/figures/ (the typed records, headers only) has its place here: it
# needs no library, so TW_LIBS has no entry for it.
include lib/figures/local.mk
include lib/derive/local.mk
include lib/view/local.mk
include lib/threshold/local.mk
include lib/advice/local.mk
include lib/finding/local.mk
include lib/change/local.mk
include lib/monitor/local.mk
include lib/checkio/local.mk

# What tunewatchd and every program of the core link, highest stage first.
TW_LIBS = \
	lib/monitor/libtwmonitor.a \
	lib/change/libtwchange.a \
	lib/finding/libtwfinding.a \
	lib/advice/libtwadvice.a \
	lib/threshold/libtwthreshold.a \
	lib/view/libtwview.a \
	lib/derive/libtwderive.a \
	lib/reqlat/libtwreqlat.a \
	lib/probe/libtwprobe.a \
	lib/sockets/libtwsockets.a \
	lib/window/libtwwindow.a \
	lib/sample/libtwsample.a \
	lib/collect/libtwcollect.a \
	lib/util/libtwutil.a

# The checks link their helpers above the core.
TW_CHECKIO_LIBS = lib/checkio/libtwcheckio.a $(TW_LIBS)

# Every source of lib/, for the fuzz targets' archive (tests/fuzz.mk).
TW_LIB_FILES = \
	$(lib_util_libtwutil_a_SOURCES) $(lib_collect_libtwcollect_a_SOURCES) \
	$(lib_sample_libtwsample_a_SOURCES) $(lib_window_libtwwindow_a_SOURCES) \
	$(lib_sockets_libtwsockets_a_SOURCES) $(lib_probe_libtwprobe_a_SOURCES) \
	$(lib_reqlat_libtwreqlat_a_SOURCES) $(lib_derive_libtwderive_a_SOURCES) \
	$(lib_view_libtwview_a_SOURCES) \
	$(lib_threshold_libtwthreshold_a_SOURCES) $(lib_advice_libtwadvice_a_SOURCES) \
	$(lib_finding_libtwfinding_a_SOURCES) $(lib_change_libtwchange_a_SOURCES) \
	$(lib_monitor_libtwmonitor_a_SOURCES) $(lib_checkio_libtwcheckio_a_SOURCES)
