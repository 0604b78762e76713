/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "snmpwalk.h"

#include <stdio.h>
#include <string.h>

#include "rowmap.h"
#include "snmpdecode.h"
#include "snmpscalars.h"
#include "collect/diskstats.h"
#include "util/error.h"
#include "view/columns.h"

/* snmpd answers at most 100 varbinds to a GETBULK by default
 * (maxGetbulkResponses); asking for more only makes it trim. */
#define BULK_VARBINDS 100
/* A walk that makes no progress this many times is broken, not long. */
#define MAX_ROUNDS 1000000
/* A row says which columns it has in 32 bits. */
#define MAX_COLS 32

/* Make room for, and find, the row of table with index idx: its number in
 * *row. */
static int
table_row(struct tw_view *v, struct tw_rowmap *m, uint32_t table, const oid *idx, size_t *row)
{
	uint64_t key;
	size_t n;
	int fresh, rc;

	switch (table) {
	case TW_OID_DISK_TABLE:
		key = tw_disk_key((uint32_t)idx[0], (uint32_t)idx[1]);
		n = v->ndisks;
		break;
	case TW_OID_DBLOCK_TABLE:
		key = (uint64_t)(idx[0] & 0xffffffffu) << 32 | (idx[1] & 0xffffffffu);
		n = v->npools;
		break;
	case TW_OID_CHANGE_TABLE:
		key = idx[0] & 0xffffffffu;
		n = v->nchanges;
		break;
	case TW_OID_SOCKDROP_TABLE:
		key = (uint64_t)(idx[0] & 0xffffffffu) << 32 | (idx[1] & 0xffffffffu);
		n = v->nsocks;
		break;
	case TW_OID_PROBE_TABLE:
		key = tw_disk_key((uint32_t)idx[0], (uint32_t)idx[1]);
		n = v->nprobes;
		break;
	case TW_OID_CGROUP_TABLE:
		key = idx[0] & 0xffffffffu;
		n = v->ncgroups;
		break;
	case TW_OID_REQLAT_TABLE:
		/* Majors fit in 12 bits, minors in 20 (a dev_t's): room for the
		 * direction's bit. */
		key = (uint64_t)(idx[0] & 0x7fffffffu) << 33 | (uint64_t)(idx[1] & 0xffffffffu) << 1 |
		    (idx[2] & 1);
		n = v->nreqlats;
		break;
	default:
		key = idx[0] & 0xffffffffu;
		n = v->ntunables;
		break;
	}
	if ((rc = tw_rowmap_find(m, key, n, row, &fresh)) != TW_OK)
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
	case TW_OID_CHANGE_TABLE:
		/* The view holds the newest TW_VIEW_CHANGES; more is not the
		 * MIB's twChangeTable. */
		if (n >= TW_VIEW_CHANGES)
			return TW_E_RANGE;
		memset(&v->changes[n], 0, sizeof(v->changes[n]));
		v->changes[n].index = (uint32_t)idx[0];
		v->nchanges++;
		break;
	case TW_OID_SOCKDROP_TABLE:
		if ((rc = tw_view_reserve_socks(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->socks[n], 0, sizeof(v->socks[n]));
		v->socks[n].proto = (uint32_t)idx[0];
		v->socks[n].inode = (uint32_t)idx[1];
		v->nsocks++;
		break;
	case TW_OID_PROBE_TABLE:
		if ((rc = tw_view_reserve_probes(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->probes[n], 0, sizeof(v->probes[n]));
		v->probes[n].major = (uint32_t)idx[0];
		v->probes[n].minor = (uint32_t)idx[1];
		v->nprobes++;
		break;
	case TW_OID_CGROUP_TABLE:
		if ((rc = tw_view_reserve_cgroups(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->cgroups[n], 0, sizeof(v->cgroups[n]));
		v->cgroups[n].index = (uint32_t)idx[0];
		v->ncgroups++;
		break;
	case TW_OID_REQLAT_TABLE:
		if ((rc = tw_view_reserve_reqlats(v, n + 1)) != TW_OK)
			return rc;
		memset(&v->reqlats[n], 0, sizeof(v->reqlats[n]));
		v->reqlats[n].major = (uint32_t)idx[0];
		v->reqlats[n].minor = (uint32_t)idx[1];
		v->reqlats[n].dir = (uint32_t)idx[2];
		v->nreqlats++;
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

static void *
row_at(struct tw_view *v, uint32_t table, size_t row)
{
	switch (table) {
	case TW_OID_DISK_TABLE:
		return &v->disks[row];
	case TW_OID_DBLOCK_TABLE:
		return &v->pools[row];
	case TW_OID_CHANGE_TABLE:
		return &v->changes[row];
	case TW_OID_SOCKDROP_TABLE:
		return &v->socks[row];
	case TW_OID_PROBE_TABLE:
		return &v->probes[row];
	case TW_OID_CGROUP_TABLE:
		return &v->cgroups[row];
	case TW_OID_REQLAT_TABLE:
		return &v->reqlats[row];
	default:
		return &v->tunables[row];
	}
}

/* Where each column's walk stands. */
struct walk {
	const struct tw_column_group *g;
	unsigned cols[MAX_COLS];
	size_t ncols;
	oid cur[MAX_COLS][MAX_OID_LEN];
	size_t curlen[MAX_COLS];
	int done[MAX_COLS];
	size_t active[MAX_COLS];
	size_t nactive;
};

static void
walk_start(struct walk *w, const struct tw_column_group *g)
{
	const size_t L = TW_SNMP_OBJECTS_LEN;
	unsigned col;

	memset(w, 0, sizeof(*w));
	w->g = g;
	for (col = g->first; col < g->ncols && w->ncols < MAX_COLS; col++) {
		if (g->cols[col].name == NULL || !g->cols[col].checks_read)
			continue;
		memcpy(w->cur[w->ncols], tw_snmp_objects, sizeof(tw_snmp_objects));
		w->cur[w->ncols][L] = g->id;
		w->cur[w->ncols][L + 1] = 1;
		w->cur[w->ncols][L + 2] = col;
		w->curlen[w->ncols] = L + 3;
		w->cols[w->ncols++] = col;
	}
}

/* The request for the columns still open; NULL when out of memory. */
static netsnmp_pdu *
walk_request(struct tw_snmp_conn *c, const struct walk *w, size_t rounds, size_t first_reps)
{
	netsnmp_pdu *pdu;
	size_t i;

	pdu = snmp_pdu_create(c->t->version == 1 ? SNMP_MSG_GETNEXT : SNMP_MSG_GETBULK);
	if (pdu == NULL)
		return NULL;
	if (c->t->version != 1) {
		/* snmpd's BULK_VARBINDS are shared: scalars first. */
		size_t n = c->scalars->n;
		size_t room = n < BULK_VARBINDS ? BULK_VARBINDS - n : 0;
		size_t reps = room / w->nactive;

		/* Each repetition is a round trip from snmpd to tunewatchd
		 * over AgentX, whether or not the table is that long. */
		if (rounds == 1 && first_reps > 0 && reps > first_reps)
			reps = first_reps;
		pdu->non_repeaters = (long)n;
		pdu->max_repetitions = (long)(reps > 0 ? reps : 1);
		tw_snmp_scalars_add(c, pdu);
	}
	for (i = 0; i < w->nactive; i++)
		snmp_add_null_var(pdu, w->cur[w->active[i]], w->curlen[w->active[i]]);
	return pdu;
}

/* Store a response's varbinds; *progress says whether any column moved. */
static int
walk_answer(struct tw_snmp_conn *c, struct tw_view *v, struct walk *w, struct tw_rowmap *map,
    netsnmp_variable_list *vb, int *progress)
{
	const size_t base_len = TW_SNMP_OBJECTS_LEN + 3, index_len = w->g->index_len;
	size_t i;
	int rc;

	/* Varbinds come column by column within each repetition; a trimmed
	 * answer simply has fewer repetitions. */
	for (i = 0; vb != NULL; vb = vb->next_variable, i++) {
		size_t k = w->active[i % w->nactive], row;

		c->stats->varbinds++;
		if (w->done[k])
			continue;
		if (tw_snmp_exception(vb) || vb->name_length != base_len + index_len ||
		    snmp_oid_ncompare(vb->name, vb->name_length, w->cur[k], base_len,
		    base_len) != 0 ||
		    snmp_oid_compare(vb->name, vb->name_length, w->cur[k], w->curlen[k]) <= 0) {
			w->done[k] = 1;
			continue;
		}
		rc = table_row(v, map, w->g->id, vb->name + base_len, &row);
		if (rc == TW_E_RANGE) {
			w->done[k] = 1;	/* more changes than the view keeps */
			continue;
		}
		if (rc != TW_OK)
			return rc;
		tw_snmp_store(w->g, row_at(v, w->g->id, row), w->cols[k], vb->name + base_len,
		    index_len, vb, c->bad);
		memcpy(w->cur[k], vb->name, vb->name_length * sizeof(oid));
		w->curlen[k] = vb->name_length;
		*progress = 1;
	}
	return TW_OK;
}

int
tw_snmp_walk(struct tw_snmp_conn *c, struct tw_view *v, uint32_t table, size_t first_reps)
{
	struct walk w;
	struct tw_rowmap map;
	size_t i, rounds = 0;
	int rc = TW_OK;

	walk_start(&w, tw_column_group(table));
	memset(&map, 0, sizeof(map));
	for (;;) {
		netsnmp_pdu *pdu, *resp;
		netsnmp_variable_list *vb;
		int progress = 0;

		w.nactive = 0;
		for (i = 0; i < w.ncols; i++)
			if (!w.done[i])
				w.active[w.nactive++] = i;
		if (w.nactive == 0 || ++rounds > MAX_ROUNDS)
			break;
		if ((pdu = walk_request(c, &w, rounds, first_reps)) == NULL) {
			rc = TW_E_NOMEM;
			break;
		}
		if ((rc = tw_snmp_request(c, pdu, &resp)) != TW_OK)
			break;
		if (resp->errstat == SNMP_ERR_NOSUCHNAME && c->t->version == 1) {
			/* v1's end of the MIB: every column still open is done. */
			for (i = 0; i < w.nactive; i++)
				w.done[w.active[i]] = 1;
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
		if (c->scalars->n > 0) {
			vb = tw_snmp_scalars_take(c, v, vb);
			if (!c->scalars->registered) {
				snmp_free_pdu(resp);
				rc = TW_E_ABSENT;
				break;
			}
		}
		rc = walk_answer(c, v, &w, &map, vb, &progress);
		snmp_free_pdu(resp);
		if (rc != TW_OK)
			break;
		/* twChangeTable lists the newest change first: the checks want
		 * the recent ones, and one request brings those. */
		if (table == TW_OID_CHANGE_TABLE)
			break;
		if (!progress)
			for (i = 0; i < w.nactive; i++)
				w.done[w.active[i]] = 1;
	}
	tw_rowmap_free(&map);
	return rc;
}
