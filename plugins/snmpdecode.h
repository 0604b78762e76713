/* SPDX-License-Identifier: ISC */
/* Values off the wire into the view, through the column table: a value
 * whose SMI type or range is not what TUNEWATCH-MIB says is an error that
 * names the item, the object and what came back, never an absence (an
 * absence is what "not yet measured" looks like). */
#ifndef TW_SNMPDECODE_H
#define TW_SNMPDECODE_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stddef.h>
#include <stdint.h>

#include "view/columns.h"
#include "view/view.h"

/* The first bad value of a fetch, kept until the rows have their names. */
struct tw_snmp_bad {
	int set;
	uint32_t group;
	unsigned col;
	uint32_t idx[3];
	size_t idxlen;
	int rc;			/* TW_E_INVAL: wrong type; TW_E_RANGE: out of range */
	char got[96];		/* what came back */
};

/* Whether vb is noSuchObject, noSuchInstance or endOfMibView: no value. */
int tw_snmp_exception(const netsnmp_variable_list *vb);

/* Store vb as column col of row (of group g, index idx) when it is what
 * the MIB says; otherwise record it in *bad, if it is the first. */
void tw_snmp_store(const struct tw_column_group *g, void *row, unsigned col, const oid *idx,
    size_t idxlen, const netsnmp_variable_list *vb, struct tw_snmp_bad *bad);

/* "twDiskReadLatency.8.0 (disk sda) came back as OCTET STRING "fast";
 * TUNEWATCH-MIB says Unsigned32", with the row's name from v. */
void tw_snmp_bad_message(const struct tw_snmp_bad *bad, const struct tw_view *v, char *buf,
    size_t len);

#endif
