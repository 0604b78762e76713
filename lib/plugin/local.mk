# SPDX-License-Identifier: ISC
# lib/plugin/: what every check shares: states, threshold ranges and
# thresholds, perfdata, the plugin output, the ini reader and --extra-opts.
lib_libtunewatch_a_SOURCES += \
	lib/plugin/state.h lib/plugin/state.c \
	lib/plugin/range.h lib/plugin/range.c \
	lib/plugin/threshold.h lib/plugin/threshold.c \
	lib/plugin/perfdata.h lib/plugin/perfdata.c \
	lib/plugin/output.h lib/plugin/output.c lib/plugin/outlabel.h lib/plugin/outlabel.c \
	lib/plugin/ini.h lib/plugin/ini.c \
	lib/plugin/extraopts.h lib/plugin/extraopts.c
