/* SPDX-License-Identifier: ISC */
/* Reading TUNEWATCH-MIB from an agent into a view, with numeric OIDs and
 * no MIB file: the session (snmpsession.c), the scalars (snmpscalars.c),
 * the tables (snmpwalk.c), each value checked against the column table
 * (snmpdecode.c). Tables come in GETBULK requests (GETNEXT for v1) that
 * walk every column the checks read at once. */
#ifndef TW_SNMPSOURCE_H
#define TW_SNMPSOURCE_H

#include <stddef.h>

#include "view/view.h"

struct tw_snmp_target {
	const char *host;
	unsigned port;
	int version;			/* 1, 2 (v2c) or 3 */
	const char *community;
	const char *seclevel;		/* noAuthNoPriv, authNoPriv, authPriv */
	const char *secname;
	const char *authproto;		/* MD5, SHA, SHA-224 ... SHA-512 */
	const char *authpass;
	const char *privproto;		/* DES, AES */
	const char *privpass;
	unsigned timeout_ms;		/* per try */
	int retries;
};

/* What to read besides the agent group. */
#define TW_FETCH_BUFCACHE	0x1u
#define TW_FETCH_DISKS		0x2u
#define TW_FETCH_POOLS		0x4u
#define TW_FETCH_TUNABLES	0x8u
#define TW_FETCH_CHANGES	0x10u	/* the newest rows of twChangeTable,
					   in one request */
#define TW_FETCH_SOCKS		0x20u	/* twSocketDropTable */
#define TW_FETCH_PROBES		0x40u	/* twProbeTable */
#define TW_FETCH_CGROUPS	0x80u	/* twCgroupTable */
#define TW_FETCH_REQLATS	0x100u	/* twReqLatTable */

struct tw_snmp_stats {
	unsigned requests;	/* round trips */
	unsigned varbinds;	/* values received */
};

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
