/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "snmpsession.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunewatch_oids.h"
#include "util/error.h"

const oid tw_snmp_objects[TW_SNMP_OBJECTS_LEN] = { TW_MIB_ARC, TW_OID_OBJECTS };

/* ---- SNMPv3: the user's keys, derived without Net-SNMP's configuration ---- */

static int
set_v3(netsnmp_session *s, const struct tw_snmp_target *t, char *err, size_t errlen)
{
	const char *level = t->seclevel ? t->seclevel : "noAuthNoPriv";
	int auth_type, priv_type;
	size_t len;
	oid *o;

	if (t->secname == NULL || t->secname[0] == '\0') {
		snprintf(err, errlen, "SNMPv3 needs a security name (-U)");
		return TW_E_INVAL;
	}
	s->securityName = strdup(t->secname);
	s->securityNameLen = strlen(t->secname);
	if (strcmp(level, "noAuthNoPriv") == 0)
		s->securityLevel = SNMP_SEC_LEVEL_NOAUTH;
	else if (strcmp(level, "authNoPriv") == 0)
		s->securityLevel = SNMP_SEC_LEVEL_AUTHNOPRIV;
	else if (strcmp(level, "authPriv") == 0)
		s->securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
	else {
		snprintf(err, errlen, "unknown security level '%s' (-L noAuthNoPriv, authNoPriv "
		    "or authPriv)", level);
		return TW_E_INVAL;
	}
	if (s->securityLevel == SNMP_SEC_LEVEL_NOAUTH)
		return TW_OK;

	auth_type = usm_lookup_auth_type(t->authproto ? t->authproto : "SHA");
	o = auth_type > 0 ? sc_get_auth_oid(auth_type, &len) : NULL;
	if (o == NULL) {
		snprintf(err, errlen, "unknown authentication protocol '%s' (-a MD5, SHA, "
		    "SHA-224, SHA-256, SHA-384 or SHA-512)", t->authproto);
		return TW_E_INVAL;
	}
	s->securityAuthProto = snmp_duplicate_objid(o, len);
	s->securityAuthProtoLen = len;
	if (t->authpass == NULL || strlen(t->authpass) < 8) {
		snprintf(err, errlen, "SNMPv3 %s needs an authentication pass phrase of at "
		    "least 8 characters (-A)", level);
		return TW_E_INVAL;
	}
	s->securityAuthKeyLen = USM_AUTH_KU_LEN;
	if (generate_Ku(s->securityAuthProto, (u_int)s->securityAuthProtoLen,
	    (const u_char *)t->authpass, strlen(t->authpass), s->securityAuthKey,
	    &s->securityAuthKeyLen) != SNMPERR_SUCCESS) {
		snprintf(err, errlen, "cannot derive the authentication key");
		return TW_E_INVAL;
	}
	if (s->securityLevel != SNMP_SEC_LEVEL_AUTHPRIV)
		return TW_OK;

	priv_type = usm_lookup_priv_type(t->privproto ? t->privproto : "AES");
	o = priv_type > 0 ? sc_get_priv_oid(priv_type, &len) : NULL;
	if (o == NULL) {
		snprintf(err, errlen, "unknown privacy protocol '%s' (-x DES or AES)",
		    t->privproto);
		return TW_E_INVAL;
	}
	s->securityPrivProto = snmp_duplicate_objid(o, len);
	s->securityPrivProtoLen = len;
	if (t->privpass == NULL || strlen(t->privpass) < 8) {
		snprintf(err, errlen, "SNMPv3 authPriv needs a privacy pass phrase of at least 8 "
		    "characters (-X)");
		return TW_E_INVAL;
	}
	/* The privacy key is derived with the authentication hash. */
	s->securityPrivKeyLen = USM_PRIV_KU_LEN;
	if (generate_Ku(s->securityAuthProto, (u_int)s->securityAuthProtoLen,
	    (const u_char *)t->privpass, strlen(t->privpass), s->securityPrivKey,
	    &s->securityPrivKeyLen) != SNMPERR_SUCCESS) {
		snprintf(err, errlen, "cannot derive the privacy key");
		return TW_E_INVAL;
	}
	return TW_OK;
}

/* ---- the session -------------------------------------------------------- */

static void
init_v3_library(void)
{
	/* USM needs the library initialised, but nothing it would read or
	 * write: no configuration files, no persistent state. */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	/* Numeric OIDs only: no MIB is loaded, so none is missing. */
	setenv("MIBS", "", 1);
	init_snmp("tunewatch-plugin");
}

int
tw_snmp_open(struct tw_snmp_conn *c)
{
	const struct tw_snmp_target *t = c->t;
	netsnmp_session s;
	char peer[300];
	int rc;

	if (t->version == 3)
		init_v3_library();
	snmp_sess_init(&s);
	/* An IPv6 literal needs brackets before the port. */
	if (strchr(t->host, ':') != NULL)
		snprintf(peer, sizeof(peer), "udp6:[%s]:%u", t->host, t->port);
	else
		snprintf(peer, sizeof(peer), "udp:%s:%u", t->host, t->port);
	s.peername = peer;
	s.timeout = (long)t->timeout_ms * 1000;
	s.retries = t->retries;
	switch (t->version) {
	case 1:
	case 2:
		s.version = t->version == 1 ? SNMP_VERSION_1 : SNMP_VERSION_2c;
		s.community = (u_char *)(t->community ? t->community : "public");
		s.community_len = strlen((const char *)s.community);
		break;
	case 3:
		s.version = SNMP_VERSION_3;
		rc = set_v3(&s, t, c->err, c->errlen);
		if (rc != TW_OK) {
			free(s.securityName);
			free(s.securityAuthProto);
			free(s.securityPrivProto);
			return rc;
		}
		break;
	default:
		snprintf(c->err, c->errlen, "unknown SNMP version %d", t->version);
		return TW_E_INVAL;
	}
	c->sess = snmp_sess_open(&s);
	if (t->version == 3) {
		free(s.securityName);
		free(s.securityAuthProto);
		free(s.securityPrivProto);
	}
	if (c->sess == NULL) {
		int liberr, syserr;
		char *msg = NULL;

		snmp_error(&s, &liberr, &syserr, &msg);
		snprintf(c->err, c->errlen, "cannot reach %s:%u: %s", t->host, t->port,
		    msg ? msg : "unknown error");
		free(msg);
		return TW_E_IO;
	}
	return TW_OK;
}

void
tw_snmp_close(struct tw_snmp_conn *c)
{
	if (c->sess != NULL)
		snmp_sess_close(c->sess);
	c->sess = NULL;
}

static const char *
version_name(int v)
{
	return v == 1 ? "v1" : v == 3 ? "v3" : "v2c";
}

int
tw_snmp_request(struct tw_snmp_conn *c, netsnmp_pdu *pdu, netsnmp_pdu **resp)
{
	const struct tw_snmp_target *t = c->t;
	int status;

	*resp = NULL;
	c->stats->requests++;
	status = snmp_sess_synch_response(c->sess, pdu, resp);
	if (status == STAT_SUCCESS && *resp != NULL)
		return TW_OK;
	if (status == STAT_TIMEOUT) {
		/* An agent drops what it cannot read, so a wrong community or
		 * privacy pass phrase looks like silence. */
		snprintf(c->err, c->errlen, "no answer from %s:%u (SNMP %s, %u ms x %d tries%s)",
		    t->host, t->port, version_name(t->version), t->timeout_ms, t->retries + 1,
		    t->version != 3 ? "; is the community right?" :
		    t->seclevel != NULL && strcmp(t->seclevel, "authPriv") == 0 ?
		    "; is the privacy pass phrase right?" : "");
		return TW_E_TIMEOUT;
	} else {
		int liberr, syserr;
		char *msg = NULL;

		snmp_sess_error(c->sess, &liberr, &syserr, &msg);
		snprintf(c->err, c->errlen, "SNMP %s request to %s:%u failed: %s",
		    version_name(t->version), t->host, t->port, msg ? msg : "unknown error");
		free(msg);
	}
	if (*resp != NULL) {
		snmp_free_pdu(*resp);
		*resp = NULL;
	}
	return TW_E_IO;
}

