# SPDX-License-Identifier: ISC
# lib/figures/: typed figures, one header per group, in natural units;
# plain structs that include no view, window or sample header.
lib_libtunewatch_a_SOURCES += \
	lib/figures/fig.h lib/figures/pool.h
