# SPDX-License-Identifier: ISC
# lib/figures/: the typed figures, plain structs in natural units, that the
# view decodes its rows into and the judges, advice and checks read.
lib_libtunewatch_a_SOURCES += \
	lib/figures/fig.h lib/figures/disk.h lib/figures/probe.h lib/figures/reqlat.h
