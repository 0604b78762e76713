# SPDX-License-Identifier: ISC
# agentx/: tunewatchd, the AgentX subagent.
sbin_PROGRAMS += agentx/tunewatchd
agentx_tunewatchd_SOURCES = \
	agentx/tunewatchd.c \
	agentx/options.h agentx/options_priv.h agentx/options.c agentx/options_conf.c \
	agentx/privdrop.h agentx/privdrop.c \
	agentx/mibhandler.h agentx/mibhandler.c \
	agentx/notify.h agentx/notify.c \
	agentx/changenotify.h agentx/changenotify.c \
	agentx/probes.h agentx/probes.c \
	agentx/reqlathooks.h agentx/reqlathooks.c \
	agentx/findconf.h agentx/findconf.c \
	agentx/findnotify.h agentx/findnotify.c
agentx_tunewatchd_CPPFLAGS = $(AM_CPPFLAGS) $(NETSNMP_CFLAGS)
agentx_tunewatchd_LDADD = $(TW_LIBS) $(NETSNMP_AGENT_LIBS)
