# agentx/: tunewatchd, the AgentX subagent.
sbin_PROGRAMS += agentx/tunewatchd
agentx_tunewatchd_SOURCES = \
	agentx/tunewatchd.c \
	agentx/options.h agentx/options.c \
	agentx/privdrop.h agentx/privdrop.c \
	agentx/mibhandler.h agentx/mibhandler.c \
	agentx/mibview.h agentx/mibview.c
agentx_tunewatchd_CPPFLAGS = $(AM_CPPFLAGS) $(NETSNMP_CFLAGS)
agentx_tunewatchd_LDADD = lib/libtunewatch.a $(NETSNMP_AGENT_LIBS)

check_PROGRAMS += tests/check_mibview
tests_check_mibview_SOURCES = tests/check_mibview.c tests/tw_check.h \
	agentx/mibview.h agentx/mibview.c
tests_check_mibview_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agentx
tests_check_mibview_CFLAGS = $(TESTS_CFLAGS)
tests_check_mibview_LDADD = $(TESTS_LDADD)
TESTS += tests/check_mibview
