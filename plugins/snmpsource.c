#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "snmpsource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunewatch_oids.h"
#include "tw_error.h"

static const oid objects_oid[] = { TW_MIB_ARC, TW_OID_OBJECTS };
#define OBJECTS_LEN (TW_MIB_ARC_LEN + 1)

/* snmpd answers at most 100 varbinds to a GETBULK by default
 * (maxGetbulkResponses); asking for more only makes it trim. */
#define BULK_VARBINDS 100
/* A walk that makes no progress this many times is broken, not long. */
#define MAX_ROUNDS 1000000
/* Repetitions in the disk table's first GETBULK: enough for the one or two
 * disks of most hosts, and to see where the table ends, in one round trip.
 * A longer table takes a second, fuller one. */
#define DISK_FIRST_REPS 3

/* A scalar wanted: {group, object}. */
typedef unsigned scalar_id[2];

#define MAX_SCALARS 64

struct conn {
	void *sess;
	const struct tw_snmp_target *t;
	struct tw_snmp_stats *stats;
	char *err;
	size_t errlen;
	/* Scalars still to read. With v2c and v3 they ride on the first
	 * GETBULK of a table as its non-repeaters, which saves a round trip. */
	scalar_id *scalars;
	size_t nscalars;
	int registered;		/* twAgentVersion was answered */
};

/* ---- session ------------------------------------------------------------- */

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

static int
open_session(struct conn *c)
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

static const char *
version_name(int v)
{
	return v == 1 ? "v1" : v == 3 ? "v3" : "v2c";
}

/* One round trip; *resp is the answer with no error status. */
static int
request(struct conn *c, netsnmp_pdu *pdu, netsnmp_pdu **resp)
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

/* ---- storing values into the view ----------------------------------------- */

static int
number_of(const netsnmp_variable_list *vb, uint64_t *out)
{
	switch (vb->type) {
	case ASN_COUNTER64:
		*out = ((uint64_t)vb->val.counter64->high << 32) | (vb->val.counter64->low &
		    0xffffffffu);
		return 1;
	case ASN_GAUGE:
	case ASN_COUNTER:
	case ASN_TIMETICKS:
		*out = (uint64_t)(*vb->val.integer) & 0xffffffffu;
		return 1;
	case ASN_INTEGER:
		if (*vb->val.integer < 0)
			return 0;
		*out = (uint64_t)*vb->val.integer;
		return 1;
	}
	return 0;
}

static int
string_of(const netsnmp_variable_list *vb, char *dst, size_t len)
{
	size_t n;

	if (vb->type != ASN_OCTET_STR || len == 0)
		return 0;
	n = vb->val_len < len - 1 ? vb->val_len : len - 1;
	memcpy(dst, vb->val.string, n);
	dst[n] = '\0';
	return 1;
}

static void
put_num(uint32_t *has, uint64_t *col, unsigned c, const netsnmp_variable_list *vb)
{
	if (number_of(vb, &col[c]))
		*has |= TW_VIEW_BIT(c);
}

static void
store_scalar(struct tw_view *v, unsigned group, unsigned n, const netsnmp_variable_list *vb)
{
	if (group == TW_OID_AGENT && n < TW_VIEW_AGENT_COLS) {
		if (n == TW_OID_AGENT_VERSION) {
			if (string_of(vb, v->agent.version, sizeof(v->agent.version)))
				v->agent.has |= TW_VIEW_BIT(n);
		} else if (n == TW_OID_AGENT_SYSTEM) {
			if (string_of(vb, v->agent.system, sizeof(v->agent.system)))
				v->agent.has |= TW_VIEW_BIT(n);
		} else {
			put_num(&v->agent.has, v->agent.col, n, vb);
		}
	} else if (group == TW_OID_BUFCACHE && n < TW_VIEW_BC_COLS) {
		if (n == TW_OID_BC_HIT_RATIO_METHOD) {
			if (string_of(vb, v->bc.method, sizeof(v->bc.method)))
				v->bc.has |= TW_VIEW_BIT(n);
		} else {
			put_num(&v->bc.has, v->bc.col, n, vb);
		}
	}
}

/* ---- scalars: one GET ------------------------------------------------------ */

static int
is_exception(const netsnmp_variable_list *vb)
{
	return vb->type == SNMP_NOSUCHOBJECT || vb->type == SNMP_NOSUCHINSTANCE ||
	    vb->type == SNMP_ENDOFMIBVIEW;
}

/* The scalars to read: the agent group always, the buffer cache group when
 * asked for. */
static size_t
scalar_list(unsigned what, scalar_id *want)
{
	static const struct {
		unsigned group, last;
	} groups[] = {
		{ TW_OID_AGENT, TW_OID_AGENT_SAMPLES },
		{ TW_OID_BUFCACHE, TW_OID_BC_SWAP_FREE },
	};
	size_t nwant = 0, g;

	for (g = 0; g < 2; g++) {
		unsigned n;

		if (groups[g].group == TW_OID_BUFCACHE && !(what & TW_FETCH_BUFCACHE))
			continue;
		for (n = 1; n <= groups[g].last && nwant < MAX_SCALARS; n++) {
			want[nwant][0] = groups[g].group;
			want[nwant][1] = n;
			nwant++;
		}
	}
	return nwant;
}

static void
got_scalar(struct conn *c, struct tw_view *v, const scalar_id id,
    const netsnmp_variable_list *vb)
{
	if (id[0] == TW_OID_AGENT && id[1] == TW_OID_AGENT_VERSION)
		c->registered = 1;
	store_scalar(v, id[0], id[1], vb);
}

/* The scalars in one GET (v1, or nothing else to read). */
static int
fetch_scalars(struct conn *c, struct tw_view *v)
{
	scalar_id *want = c->scalars;
	size_t nwant = c->nscalars, i;
	int rc;

	c->nscalars = 0;
	/* SNMPv1 fails a whole GET on one missing instance (noSuchName with
	 * its index): drop that one and ask again, a bounded number of
	 * times. */
	for (;;) {
		netsnmp_pdu *pdu = snmp_pdu_create(SNMP_MSG_GET), *resp;
		netsnmp_variable_list *vb;
		oid name[OBJECTS_LEN + 3];

		if (pdu == NULL)
			return TW_E_NOMEM;
		memcpy(name, objects_oid, sizeof(objects_oid));
		for (i = 0; i < nwant; i++) {
			name[OBJECTS_LEN] = want[i][0];
			name[OBJECTS_LEN + 1] = want[i][1];
			name[OBJECTS_LEN + 2] = 0;
			snmp_add_null_var(pdu, name, OBJECTS_LEN + 3);
		}
		if ((rc = request(c, pdu, &resp)) != TW_OK)
			return rc;
		if (resp->errstat == SNMP_ERR_NOSUCHNAME && resp->errindex >= 1 &&
		    (size_t)resp->errindex <= nwant && nwant > 1) {
			size_t drop = (size_t)resp->errindex - 1;

			memmove(want[drop], want[drop + 1], (nwant - drop - 1) * sizeof(want[0]));
			nwant--;
			snmp_free_pdu(resp);
			continue;
		}
		if (resp->errstat == SNMP_ERR_NOSUCHNAME) {
			snmp_free_pdu(resp);
			return TW_OK;
		}
		if (resp->errstat != SNMP_ERR_NOERROR) {
			snprintf(c->err, c->errlen, "%s:%u answered %s", c->t->host, c->t->port,
			    snmp_errstring((int)resp->errstat));
			snmp_free_pdu(resp);
			return TW_E_IO;
		}
		for (vb = resp->variables, i = 0; vb != NULL && i < nwant; vb = vb->next_variable, i++) {
			c->stats->varbinds++;
			if (!is_exception(vb))
				got_scalar(c, v, want[i], vb);
		}
		snmp_free_pdu(resp);
		return TW_OK;
	}
}

/* Ask for the scalars as GETBULK non-repeaters: a GETNEXT of each object's
 * OID (without the .0) answers its instance when it exists. */
static void
add_scalar_nexts(struct conn *c, netsnmp_pdu *pdu)
{
	oid name[OBJECTS_LEN + 2];
	size_t i;

	memcpy(name, objects_oid, sizeof(objects_oid));
	for (i = 0; i < c->nscalars; i++) {
		name[OBJECTS_LEN] = c->scalars[i][0];
		name[OBJECTS_LEN + 1] = c->scalars[i][1];
		snmp_add_null_var(pdu, name, OBJECTS_LEN + 2);
	}
}

/* Take the non-repeaters' answers off the front of a GETBULK response; a
 * scalar whose next instance is some other object is absent. Returns the
 * first repeater's varbind. */
static netsnmp_variable_list *
take_scalar_nexts(struct conn *c, struct tw_view *v, netsnmp_variable_list *vb)
{
	size_t i;

	for (i = 0; i < c->nscalars && vb != NULL; i++, vb = vb->next_variable) {
		c->stats->varbinds++;
		if (is_exception(vb) || vb->name_length != OBJECTS_LEN + 3 ||
		    snmp_oid_compare(vb->name, OBJECTS_LEN, objects_oid, OBJECTS_LEN) != 0 ||
		    vb->name[OBJECTS_LEN] != c->scalars[i][0] ||
		    vb->name[OBJECTS_LEN + 1] != c->scalars[i][1] || vb->name[OBJECTS_LEN + 2] != 0)
			continue;
		got_scalar(c, v, c->scalars[i], vb);
	}
	c->nscalars = 0;
	return vb;
}

/* ---- tables: GETBULK over every wanted column at once ----------------------- */

/* Rows met so far, found by index through a small open-addressing map. */
struct rowmap {
	uint64_t *keys;
	size_t *rows;
	size_t cap;
	size_t used;
};

static int
rowmap_grow(struct rowmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *keys = malloc(cap * sizeof(*keys));
	size_t *rows = malloc(cap * sizeof(*rows));

	if (keys == NULL || rows == NULL) {
		free(keys);
		free(rows);
		return TW_E_NOMEM;
	}
	for (i = 0; i < cap; i++)
		rows[i] = SIZE_MAX;
	for (i = 0; i < m->cap; i++) {
		size_t h;

		if (m->rows[i] == SIZE_MAX)
			continue;
		h = (size_t)((m->keys[i] * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (cap - 1);
		while (rows[h] != SIZE_MAX)
			h = (h + 1) & (cap - 1);
		keys[h] = m->keys[i];
		rows[h] = m->rows[i];
	}
	free(m->keys);
	free(m->rows);
	m->keys = keys;
	m->rows = rows;
	m->cap = cap;
	return TW_OK;
}

/* The row of key; *fresh says it was just made as row number next. */
static int
rowmap_find(struct rowmap *m, uint64_t key, size_t next, size_t *row, int *fresh)
{
	size_t h;

	if ((m->used + 1) * 2 > m->cap && rowmap_grow(m) != TW_OK)
		return TW_E_NOMEM;
	h = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (m->cap - 1);
	while (m->rows[h] != SIZE_MAX) {
		if (m->keys[h] == key) {
			*row = m->rows[h];
			*fresh = 0;
			return TW_OK;
		}
		h = (h + 1) & (m->cap - 1);
	}
	m->keys[h] = key;
	m->rows[h] = next;
	m->used++;
	*row = next;
	*fresh = 1;
	return TW_OK;
}

static void
rowmap_free(struct rowmap *m)
{
	free(m->keys);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}

struct table_req {
	unsigned table;
	size_t index_len;
	const unsigned *cols;
	size_t ncols;
	size_t first_reps;	/* at most this many repetitions in the first
				 * request; 0: as many as fit */
};

/* Make room for and find the row with this index in table t of v. */
static int
table_row(struct tw_view *v, struct rowmap *m, unsigned table, const oid *idx, size_t *row)
{
	uint64_t key;
	size_t n;
	int fresh, rc;

	switch (table) {
	case TW_OID_DISK_TABLE:
		key = (uint64_t)(idx[0] & 0xffffffffu) << 32 | (idx[1] & 0xffffffffu);
		n = v->ndisks;
		break;
	case TW_OID_DBLOCK_TABLE:
		key = (uint64_t)(idx[0] & 0xffffffffu) << 32 | (idx[1] & 0xffffffffu);
		n = v->npools;
		break;
	default:
		key = idx[0] & 0xffffffffu;
		n = v->ntunables;
		break;
	}
	if ((rc = rowmap_find(m, key, n, row, &fresh)) != TW_OK)
		return rc;
	if (!fresh)
		return TW_OK;
	switch (table) {
	case TW_OID_DISK_TABLE:
		if ((rc = tw_view_reserve_disks(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->disks[n], 0, sizeof(v->disks[n]));
		v->disks[n].major = (uint32_t)idx[0];
		v->disks[n].minor = (uint32_t)idx[1];
		v->ndisks++;
		break;
	case TW_OID_DBLOCK_TABLE:
		if ((rc = tw_view_reserve_pools(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->pools[n], 0, sizeof(v->pools[n]));
		v->pools[n].cls = (uint32_t)idx[0];
		v->pools[n].instance = (uint32_t)idx[1];
		v->npools++;
		break;
	default:
		if ((rc = tw_view_reserve_tunables(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->tunables[n], 0, sizeof(v->tunables[n]));
		v->tunables[n].index = (uint32_t)idx[0];
		v->ntunables++;
		break;
	}
	return TW_OK;
}

static void
store_cell(struct tw_view *v, unsigned table, size_t row, unsigned col,
    const netsnmp_variable_list *vb)
{
	switch (table) {
	case TW_OID_DISK_TABLE: {
		struct tw_view_disk *d = &v->disks[row];

		if (col == TW_OID_DISK_NAME) {
			if (string_of(vb, d->name, sizeof(d->name)))
				d->has |= TW_VIEW_BIT(col);
		} else if (col == TW_OID_DISK_SCHEDULER) {
			if (string_of(vb, d->scheduler, sizeof(d->scheduler)))
				d->has |= TW_VIEW_BIT(col);
		} else if (col < TW_VIEW_DISK_COLS) {
			put_num(&d->has, d->col, col, vb);
		}
		break;
	}
	case TW_OID_DBLOCK_TABLE: {
		struct tw_view_pool *p = &v->pools[row];

		if (col == TW_OID_DBLOCK_NAME) {
			if (string_of(vb, p->name, sizeof(p->name)))
				p->has |= TW_VIEW_BIT(col);
		} else if (col == TW_OID_DBLOCK_TUNABLE) {
			if (string_of(vb, p->tunable, sizeof(p->tunable)))
				p->has |= TW_VIEW_BIT(col);
		} else if (col == TW_OID_DBLOCK_FAILURE_EVENT) {
			if (string_of(vb, p->event, sizeof(p->event)))
				p->has |= TW_VIEW_BIT(col);
		} else if (col < TW_VIEW_POOL_COLS) {
			put_num(&p->has, p->col, col, vb);
		}
		break;
	}
	default: {
		struct tw_view_tunable *tu = &v->tunables[row];

		if (col == TW_OID_TUNABLE_NAME)
			string_of(vb, tu->name, sizeof(tu->name));
		else if (col == TW_OID_TUNABLE_VALUE)
			string_of(vb, tu->value, sizeof(tu->value));
		break;
	}
	}
}

#define MAX_COLS 16

static int
fetch_table(struct conn *c, struct tw_view *v, const struct table_req *tr)
{
	const size_t base_len = OBJECTS_LEN + 3;
	oid cur[MAX_COLS][MAX_OID_LEN];
	size_t curlen[MAX_COLS], active[MAX_COLS], nactive, i, rounds = 0;
	int done[MAX_COLS] = { 0 };
	struct rowmap map;
	int rc = TW_OK;

	memset(&map, 0, sizeof(map));
	for (i = 0; i < tr->ncols && i < MAX_COLS; i++) {
		memcpy(cur[i], objects_oid, sizeof(objects_oid));
		cur[i][OBJECTS_LEN] = tr->table;
		cur[i][OBJECTS_LEN + 1] = 1;
		cur[i][OBJECTS_LEN + 2] = tr->cols[i];
		curlen[i] = base_len;
	}
	for (;;) {
		netsnmp_pdu *pdu, *resp;
		netsnmp_variable_list *vb;
		int progress = 0;

		nactive = 0;
		for (i = 0; i < tr->ncols && i < MAX_COLS; i++)
			if (!done[i])
				active[nactive++] = i;
		if (nactive == 0 || ++rounds > MAX_ROUNDS)
			break;
		pdu = snmp_pdu_create(c->t->version == 1 ? SNMP_MSG_GETNEXT : SNMP_MSG_GETBULK);
		if (pdu == NULL) {
			rc = TW_E_NOMEM;
			break;
		}
		if (c->t->version != 1) {
			/* snmpd's BULK_VARBINDS are shared: scalars first. */
			size_t room = c->nscalars < BULK_VARBINDS ? BULK_VARBINDS - c->nscalars : 0;
			size_t reps = room / nactive;

			/* Each repetition is a round trip from snmpd to tunewatchd
			 * over AgentX, whether or not the table is that long. */
			if (rounds == 1 && tr->first_reps > 0 && reps > tr->first_reps)
				reps = tr->first_reps;
			pdu->non_repeaters = (long)c->nscalars;
			pdu->max_repetitions = (long)(reps > 0 ? reps : 1);
			add_scalar_nexts(c, pdu);
		}
		for (i = 0; i < nactive; i++)
			snmp_add_null_var(pdu, cur[active[i]], curlen[active[i]]);
		if ((rc = request(c, pdu, &resp)) != TW_OK)
			break;
		if (resp->errstat == SNMP_ERR_NOSUCHNAME && c->t->version == 1) {
			/* v1's end of the MIB: every column still open is done. */
			for (i = 0; i < nactive; i++)
				done[active[i]] = 1;
			snmp_free_pdu(resp);
			continue;
		}
		if (resp->errstat != SNMP_ERR_NOERROR) {
			snprintf(c->err, c->errlen, "%s:%u answered %s", c->t->host, c->t->port,
			    snmp_errstring((int)resp->errstat));
			snmp_free_pdu(resp);
			rc = TW_E_IO;
			break;
		}
		vb = resp->variables;
		if (c->nscalars > 0) {
			vb = take_scalar_nexts(c, v, vb);
			if (!c->registered) {
				snmp_free_pdu(resp);
				rc = TW_E_ABSENT;
				break;
			}
		}
		/* Varbinds come column by column within each repetition; a
		 * trimmed answer simply has fewer repetitions. */
		for (i = 0; vb != NULL; vb = vb->next_variable, i++) {
			size_t k = active[i % nactive], row;

			c->stats->varbinds++;
			if (done[k])
				continue;
			if (is_exception(vb) || vb->name_length != base_len + tr->index_len ||
			    snmp_oid_ncompare(vb->name, vb->name_length, cur[k], base_len,
			    base_len) != 0 ||
			    snmp_oid_compare(vb->name, vb->name_length, cur[k], curlen[k]) <= 0) {
				done[k] = 1;
				continue;
			}
			rc = table_row(v, &map, tr->table, vb->name + base_len, &row);
			if (rc != TW_OK)
				break;
			store_cell(v, tr->table, row, tr->cols[k], vb);
			memcpy(cur[k], vb->name, vb->name_length * sizeof(oid));
			curlen[k] = vb->name_length;
			progress = 1;
		}
		snmp_free_pdu(resp);
		if (rc != TW_OK)
			break;
		if (!progress)
			for (i = 0; i < nactive; i++)
				done[active[i]] = 1;
	}
	rowmap_free(&map);
	return rc;
}

static int
cmp_disk(const void *a, const void *b)
{
	const struct tw_view_disk *x = a, *y = b;
	uint64_t ka = (uint64_t)x->major << 32 | x->minor, kb = (uint64_t)y->major << 32 | y->minor;

	return ka < kb ? -1 : ka > kb;
}

static int
cmp_pool(const void *a, const void *b)
{
	const struct tw_view_pool *x = a, *y = b;
	uint64_t ka = (uint64_t)x->cls << 32 | x->instance, kb = (uint64_t)y->cls << 32 | y->instance;

	return ka < kb ? -1 : ka > kb;
}

static int
cmp_tunable(const void *a, const void *b)
{
	const struct tw_view_tunable *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int
tw_snmp_fetch(const struct tw_snmp_target *t, unsigned what, struct tw_view *v,
    struct tw_snmp_stats *stats, char *err, size_t errlen)
{
	/* Only the columns the checks read. */
	static const unsigned disk_cols[] = {
		TW_OID_DISK_NAME, TW_OID_DISK_READ_OPS, TW_OID_DISK_WRITE_OPS,
		TW_OID_DISK_READ_RATE, TW_OID_DISK_READ_LATENCY, TW_OID_DISK_WRITE_LATENCY,
		TW_OID_DISK_QUEUE_DEPTH, TW_OID_DISK_UTIL, TW_OID_DISK_SCHEDULER,
		TW_OID_DISK_NR_REQUESTS, TW_OID_DISK_READ_AHEAD_KB, TW_OID_DISK_WBT_LATENCY,
		TW_OID_DISK_ROTATIONAL,
	};
	static const unsigned pool_cols[] = {
		TW_OID_DBLOCK_NAME, TW_OID_DBLOCK_SIZE, TW_OID_DBLOCK_IN_USE, TW_OID_DBLOCK_LIMIT,
		TW_OID_DBLOCK_FAILURES, TW_OID_DBLOCK_RECENT_FAILURES, TW_OID_DBLOCK_TUNABLE,
		TW_OID_DBLOCK_FAILURE_EVENT,
	};
	static const unsigned tunable_cols[] = { TW_OID_TUNABLE_NAME, TW_OID_TUNABLE_VALUE };
	const unsigned tables = TW_FETCH_DISKS | TW_FETCH_POOLS | TW_FETCH_TUNABLES;
	scalar_id want[MAX_SCALARS];
	struct tw_snmp_stats dummy;
	struct conn c;
	int rc = TW_OK;

	memset(&c, 0, sizeof(c));
	c.t = t;
	c.stats = stats != NULL ? stats : &dummy;
	memset(c.stats, 0, sizeof(*c.stats));
	c.err = err;
	c.errlen = errlen;
	c.scalars = want;
	c.nscalars = scalar_list(what, want);
	v->ndisks = v->npools = v->ntunables = 0;
	memset(&v->agent, 0, sizeof(v->agent));
	memset(&v->bc, 0, sizeof(v->bc));

	if ((rc = open_session(&c)) != TW_OK)
		return rc;
	/* v1 has no GETBULK: there the scalars take a GET of their own, as
	 * they do when no table is wanted; otherwise the first table's first
	 * request carries them. */
	if (t->version == 1 || !(what & tables)) {
		rc = fetch_scalars(&c, v);
		if (rc == TW_OK && !c.registered)
			rc = TW_E_ABSENT;
	}
	if (rc == TW_OK && (what & TW_FETCH_DISKS)) {
		struct table_req d = { TW_OID_DISK_TABLE, 2, disk_cols,
		    sizeof(disk_cols) / sizeof(disk_cols[0]), DISK_FIRST_REPS };

		rc = fetch_table(&c, v, &d);
	}
	if (rc == TW_OK && (what & TW_FETCH_POOLS)) {
		struct table_req p = { TW_OID_DBLOCK_TABLE, 2, pool_cols, 8, 0 };

		rc = fetch_table(&c, v, &p);
	}
	if (rc == TW_OK && (what & TW_FETCH_TUNABLES)) {
		struct table_req tu = { TW_OID_TUNABLE_TABLE, 1, tunable_cols, 2, 0 };

		rc = fetch_table(&c, v, &tu);
	}
	snmp_sess_close(c.sess);
	if (rc == TW_E_ABSENT && !c.registered)
		snprintf(err, errlen, "tunewatchd is not registered with the SNMP agent at %s:%u "
		    "(no twAgentVersion)", t->host, t->port);
	if (rc != TW_OK)
		return rc;
	/* Rows come in walk order, column by column; the view wants them by
	 * index. (qsort must not see the NULL of an empty table.) */
	if (v->ndisks > 1)
		qsort(v->disks, v->ndisks, sizeof(*v->disks), cmp_disk);
	if (v->npools > 1)
		qsort(v->pools, v->npools, sizeof(*v->pools), cmp_pool);
	if (v->ntunables > 1)
		qsort(v->tunables, v->ntunables, sizeof(*v->tunables), cmp_tunable);
	return TW_OK;
}
