# SPDX-License-Identifier: ISC
# lib/plugin/: what only the checks share: the plugin output, the ini
# reader and --extra-opts. tunewatchd does not link it.
noinst_LIBRARIES += lib/plugin/libtwplugin.a
lib_plugin_libtwplugin_a_SOURCES = \
	lib/plugin/output.h lib/plugin/output.c lib/plugin/outlabel.h lib/plugin/outlabel.c \
	lib/plugin/ini.h lib/plugin/ini.c \
	lib/plugin/extraopts.h lib/plugin/extraopts.c
