/* SPDX-License-Identifier: ISC */
/* Walking one table of TUNEWATCH-MIB into the view: GETBULK (GETNEXT for
 * v1) over every column the checks read at once, the rows found by index
 * as their cells arrive column by column. */
#ifndef TW_SNMPWALK_H
#define TW_SNMPWALK_H

#include <stddef.h>
#include <stdint.h>

#include "snmpsession.h"
#include "view/view.h"

/* Walk table (TW_OID_DISK_TABLE ...) into v's rows, in walk order. With
 * first_reps > 0 the first GETBULK asks for at most that many
 * repetitions; 0: as many as fit. The first request also carries the
 * scalars still to read. TW_E_ABSENT when the scalars show tunewatchd is
 * not registered. */
int tw_snmp_walk(struct tw_snmp_conn *c, struct tw_view *v, uint32_t table, size_t first_reps);

#endif
