/* SPDX-License-Identifier: ISC */
/* The agent a check asks (as its options set it), what it asks for
 * (TW_FETCH_*) and what asking cost: the terms of tw_snmp_fetch
 * (snmpsource.h), in a header of their own so that the session and the
 * scalars' reader it is built on (snmpsession.h, snmpscalars.h) need not
 * include it. */
#ifndef TW_SNMPTARGET_H
#define TW_SNMPTARGET_H

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

/* Counted by the session over one check's reads. */
struct tw_snmp_stats {
	unsigned requests;	/* round trips */
	unsigned varbinds;	/* values received */
};

#endif
