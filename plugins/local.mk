# SPDX-License-Identifier: ISC
# plugins/: the Nagios/Icinga checks. libcheck.a is their common program
# (options, the SNMP client that fills a view, the report and its advice),
# the part that links Net-SNMP; lib/checkio/ is what they share below it.
noinst_LIBRARIES += plugins/libcheck.a
plugins_libcheck_a_SOURCES = \
	plugins/plugin.h plugins/plugin.c plugins/check.h \
	plugins/cmdline.h plugins/cmdline.c \
	plugins/help.h plugins/help.c \
	plugins/report.h plugins/report.c \
	plugins/local.h plugins/local.c \
	plugins/tunables.h plugins/tunables.c \
	plugins/advise.h plugins/advise.c \
	plugins/findings.h plugins/findings.c \
	plugins/changes.h plugins/changes.c \
	plugins/snmpsource.h plugins/snmpsource.c plugins/snmptarget.h \
	plugins/snmpsession.h plugins/snmpsession.c \
	plugins/snmpscalars.h plugins/snmpscalars.c \
	plugins/snmpwalk.h plugins/snmpwalk.c \
	plugins/rowmap.h plugins/rowmap.c \
	plugins/snmpdecode.h plugins/snmpdecode.c
plugins_libcheck_a_CPPFLAGS = $(AM_CPPFLAGS) $(NETSNMP_CFLAGS)

PLUGIN_LDADD = plugins/libcheck.a $(TW_CHECKIO_LIBS) $(NETSNMP_LIBS)

plugin_PROGRAMS += plugins/check_disklatency
plugins_check_disklatency_SOURCES = plugins/check_disklatency.c \
	plugins/probecheck.h plugins/probecheck.c plugins/probelocal.c \
	plugins/reqlatcheck.h plugins/reqlatcheck.c
plugins_check_disklatency_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins
plugins_check_disklatency_LDADD = $(PLUGIN_LDADD)

plugin_PROGRAMS += plugins/check_dblock
plugins_check_dblock_SOURCES = plugins/check_dblock.c plugins/sockdrops.h plugins/sockdrops.c
plugins_check_dblock_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins
plugins_check_dblock_LDADD = $(PLUGIN_LDADD)

plugin_PROGRAMS += plugins/check_bufcache
plugins_check_bufcache_SOURCES = plugins/check_bufcache.c plugins/cgroupcheck.h plugins/cgroupcheck.c
plugins_check_bufcache_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins
plugins_check_bufcache_LDADD = $(PLUGIN_LDADD)
