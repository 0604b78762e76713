# SPDX-License-Identifier: ISC
# lib/checkio/: what only the checks share: the plugin output, the ini
# reader and --extra-opts. tunewatchd does not link it.
noinst_LIBRARIES += lib/checkio/libtwcheckio.a
lib_checkio_libtwcheckio_a_SOURCES = \
	lib/checkio/output.h lib/checkio/output.c lib/checkio/outlabel.h lib/checkio/outlabel.c \
	lib/checkio/ini.h lib/checkio/ini.c \
	lib/checkio/extraopts.h lib/checkio/extraopts.c
