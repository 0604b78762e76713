#include "config.h"

#include "snmpscalars.h"

#include <stdio.h>
#include <string.h>

#include "snmpdecode.h"
#include "util/error.h"
#include "view/columns.h"

void
tw_snmp_scalars_init(struct tw_snmp_scalars *s, unsigned what)
{
	static const uint32_t groups[] = { TW_OID_AGENT, TW_OID_BUFCACHE };
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct tw_column_group *g = tw_column_group(groups[i]);
		unsigned n;

		if (groups[i] == TW_OID_BUFCACHE && !(what & TW_FETCH_BUFCACHE))
			continue;
		for (n = g->first; n < g->ncols && s->n < TW_SNMP_MAX_SCALARS; n++) {
			if (g->cols[n].name == NULL || !g->cols[n].checks_read ||
			    (g->cols[n].checks_read == TW_COLUMN_READ_WITH_CGROUPS &&
			    !(what & TW_FETCH_CGROUPS)))
				continue;
			s->id[s->n][0] = g->id;
			s->id[s->n][1] = n;
			s->n++;
		}
	}
}

static void
got(struct tw_snmp_conn *c, struct tw_view *v, const unsigned *id,
    const netsnmp_variable_list *vb)
{
	const struct tw_column_group *g = tw_column_group(id[0]);
	void *row = id[0] == TW_OID_AGENT ? (void *)&v->agent : (void *)&v->bc;

	if (id[0] == TW_OID_AGENT && id[1] == TW_OID_AGENT_VERSION)
		c->scalars->registered = 1;
	tw_snmp_store(g, row, id[1], NULL, 0, vb, c->bad);
}

int
tw_snmp_scalars_get(struct tw_snmp_conn *c, struct tw_view *v)
{
	struct tw_snmp_scalars *s = c->scalars;
	size_t nwant = s->n, i;
	int rc;

	s->n = 0;
	/* SNMPv1 fails a whole GET on one missing instance (noSuchName with
	 * its index): drop that one and ask again, a bounded number of
	 * times. */
	for (;;) {
		netsnmp_pdu *pdu = snmp_pdu_create(SNMP_MSG_GET), *resp;
		netsnmp_variable_list *vb;
		oid name[TW_SNMP_OBJECTS_LEN + 3];

		if (pdu == NULL)
			return TW_E_NOMEM;
		memcpy(name, tw_snmp_objects, sizeof(tw_snmp_objects));
		for (i = 0; i < nwant; i++) {
			name[TW_SNMP_OBJECTS_LEN] = s->id[i][0];
			name[TW_SNMP_OBJECTS_LEN + 1] = s->id[i][1];
			name[TW_SNMP_OBJECTS_LEN + 2] = 0;
			snmp_add_null_var(pdu, name, TW_SNMP_OBJECTS_LEN + 3);
		}
		if ((rc = tw_snmp_request(c, pdu, &resp)) != TW_OK)
			return rc;
		if (resp->errstat == SNMP_ERR_NOSUCHNAME && resp->errindex >= 1 &&
		    (size_t)resp->errindex <= nwant && nwant > 1) {
			size_t drop = (size_t)resp->errindex - 1;

			memmove(s->id[drop], s->id[drop + 1], (nwant - drop - 1) * sizeof(s->id[0]));
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
			if (!tw_snmp_exception(vb))
				got(c, v, s->id[i], vb);
		}
		snmp_free_pdu(resp);
		return TW_OK;
	}
}

void
tw_snmp_scalars_add(struct tw_snmp_conn *c, netsnmp_pdu *pdu)
{
	const struct tw_snmp_scalars *s = c->scalars;
	oid name[TW_SNMP_OBJECTS_LEN + 2];
	size_t i;

	memcpy(name, tw_snmp_objects, sizeof(tw_snmp_objects));
	for (i = 0; i < s->n; i++) {
		name[TW_SNMP_OBJECTS_LEN] = s->id[i][0];
		name[TW_SNMP_OBJECTS_LEN + 1] = s->id[i][1];
		snmp_add_null_var(pdu, name, TW_SNMP_OBJECTS_LEN + 2);
	}
}

/* A scalar whose next instance is some other object is absent. */
netsnmp_variable_list *
tw_snmp_scalars_take(struct tw_snmp_conn *c, struct tw_view *v, netsnmp_variable_list *vb)
{
	struct tw_snmp_scalars *s = c->scalars;
	const size_t L = TW_SNMP_OBJECTS_LEN;
	size_t i;

	for (i = 0; i < s->n && vb != NULL; i++, vb = vb->next_variable) {
		c->stats->varbinds++;
		if (tw_snmp_exception(vb) || vb->name_length != L + 3 ||
		    snmp_oid_compare(vb->name, L, tw_snmp_objects, L) != 0 ||
		    vb->name[L] != s->id[i][0] || vb->name[L + 1] != s->id[i][1] ||
		    vb->name[L + 2] != 0)
			continue;
		got(c, v, s->id[i], vb);
	}
	s->n = 0;
	return vb;
}
