/* SPDX-License-Identifier: ISC */
/* Reading TUNEWATCH-MIB from an agent into a view, with numeric OIDs and
 * no MIB file: the session (snmpsession.c), the scalars (snmpscalars.c),
 * the tables (snmpwalk.c), each value checked against the column table
 * (snmpdecode.c). Tables come in GETBULK requests (GETNEXT for v1) that
 * walk every column the checks read at once. */
#ifndef TW_SNMPSOURCE_H
#define TW_SNMPSOURCE_H

#include <stddef.h>

#include "snmptarget.h"
#include "view/view.h"

/* Fill v from the agent. Returns TW_OK; TW_E_ABSENT when the agent
 * answers but tunewatchd is not registered with it; TW_E_TIMEOUT when the
 * agent does not answer; TW_E_IO when it refuses (err says why, naming host
 * and port); TW_E_INVAL for settings Net-SNMP rejects, or for a value
 * whose type or range is not what the MIB says (err names the item, the
 * object and what came back); TW_E_NOMEM. A row without a name is named
 * by its index. */
int tw_snmp_fetch(const struct tw_snmp_target *t, unsigned what, struct tw_view *v,
    struct tw_snmp_stats *stats, char *err, size_t errlen);

#endif
