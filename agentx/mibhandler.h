/* SPDX-License-Identifier: ISC */
/* The Net-SNMP side of TUNEWATCH-MIB: one handler registered on
 * twObjects that answers GET and GETNEXT from a view (see mibview.h).
 * GETBULK reaches it as repeated GETNEXTs; SETs are refused by the agent
 * because the registration is read-only. */
#ifndef TW_MIBHANDLER_H
#define TW_MIBHANDLER_H

#include "view/view.h"

/* Register the handler; requests are answered from *view, which the
 * caller keeps up to date. Returns 0, or -1 when Net-SNMP refuses. */
int tw_mibhandler_register(const struct tw_view *view);

/* Answer AgentX GET and GETNEXT requests for twObjects as they arrive on
 * the session to the master (the server argument of
 * SNMPD_CALLBACK_INDEX_START), rather than through Net-SNMP's internal
 * agent; everything else still goes that way. Call on each connection. */
void tw_mibhandler_direct(void *master_session);

#endif
