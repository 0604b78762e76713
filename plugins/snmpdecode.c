/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "snmpdecode.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

/* The varbind as a BER value; types the MIB never uses keep their tag, so
 * that the message can say what they were. */
static void
ber_of(const netsnmp_variable_list *vb, struct tw_ber_value *out)
{
	memset(out, 0, sizeof(*out));
	out->type = (enum tw_ber_type)vb->type;
	switch (vb->type) {
	case ASN_COUNTER64:
		out->num = ((uint64_t)vb->val.counter64->high << 32) |
		    (vb->val.counter64->low & 0xffffffffu);
		break;
	case ASN_GAUGE:
	case ASN_COUNTER:
	case ASN_TIMETICKS:
		out->num = (uint64_t)*vb->val.integer & 0xffffffffu;
		break;
	case ASN_INTEGER:
		out->num = (uint64_t)(int64_t)*vb->val.integer;
		break;
	case ASN_OCTET_STR:
		out->str = (const char *)vb->val.string;
		out->len = vb->val_len;
		break;
	}
}

int
tw_snmp_exception(const netsnmp_variable_list *vb)
{
	return vb->type == SNMP_NOSUCHOBJECT || vb->type == SNMP_NOSUCHINSTANCE ||
	    vb->type == SNMP_ENDOFMIBVIEW;
}

void
tw_snmp_store(const struct tw_column_group *g, void *row, unsigned col, const oid *idx,
    size_t idxlen, const netsnmp_variable_list *vb, struct tw_snmp_bad *bad)
{
	const struct tw_column *c = &g->cols[col];
	struct tw_ber_value val;
	size_t i;
	int rc;

	ber_of(vb, &val);
	if ((rc = tw_column_check(c, &val)) == TW_OK) {
		tw_column_store(g, row, col, &val);
		return;
	}
	if (bad->set)
		return;
	bad->set = 1;
	bad->group = g->id;
	bad->col = col;
	bad->rc = rc;
	bad->idxlen = idxlen < 3 ? idxlen : 3;
	for (i = 0; i < bad->idxlen; i++)
		bad->idx[i] = (uint32_t)idx[i];
	tw_ber_describe(&val, bad->got, sizeof(bad->got));
}

/* The row's kind and name, found by its index; "" when it has none. */
static const char *
row_name(const struct tw_snmp_bad *bad, const struct tw_view *v, const char **kind)
{
	size_t i;

	*kind = "";
	switch (bad->group) {
	case TW_OID_DISK_TABLE:
		*kind = "disk";
		for (i = 0; i < v->ndisks; i++)
			if (v->disks[i].major == bad->idx[0] && v->disks[i].minor == bad->idx[1])
				return v->disks[i].name;
		break;
	case TW_OID_DBLOCK_TABLE:
		*kind = "pool";
		for (i = 0; i < v->npools; i++)
			if (v->pools[i].cls == bad->idx[0] && v->pools[i].instance == bad->idx[1])
				return v->pools[i].name;
		break;
	case TW_OID_TUNABLE_TABLE:
		*kind = "tunable";
		for (i = 0; i < v->ntunables; i++)
			if (v->tunables[i].index == bad->idx[0])
				return v->tunables[i].name;
		break;
	case TW_OID_PROBE_TABLE:
		*kind = "probe";
		for (i = 0; i < v->nprobes; i++)
			if (v->probes[i].major == bad->idx[0] && v->probes[i].minor == bad->idx[1])
				return v->probes[i].device;
		break;
	case TW_OID_REQLAT_TABLE:
		*kind = bad->idx[2] == TW_REQLAT_DIR_WRITE ? "writes of" : "reads of";
		for (i = 0; i < v->nreqlats; i++)
			if (v->reqlats[i].major == bad->idx[0] && v->reqlats[i].minor == bad->idx[1])
				return v->reqlats[i].device;
		break;
	case TW_OID_CGROUP_TABLE:
		*kind = "cgroup";
		for (i = 0; i < v->ncgroups; i++)
			if (v->cgroups[i].index == bad->idx[0])
				return v->cgroups[i].path;
		break;
	}
	return "";
}

void
tw_snmp_bad_message(const struct tw_snmp_bad *bad, const struct tw_view *v, char *buf,
    size_t len)
{
	const struct tw_column *c = tw_column(bad->group, bad->col);
	const char *kind, *name = row_name(bad, v, &kind);
	char inst[64], item[320] = "", range[64] = "";
	int64_t min;
	uint64_t max;

	if (bad->idxlen == 0)
		snprintf(inst, sizeof(inst), ".0");
	else if (bad->idxlen == 1)
		snprintf(inst, sizeof(inst), ".%u", bad->idx[0]);
	else if (bad->idxlen == 2)
		snprintf(inst, sizeof(inst), ".%u.%u", bad->idx[0], bad->idx[1]);
	else
		snprintf(inst, sizeof(inst), ".%u.%u.%u", bad->idx[0], bad->idx[1], bad->idx[2]);
	if (kind[0] != '\0')
		snprintf(item, sizeof(item), " (%s %s)", kind, name[0] != '\0' ? name : inst + 1);
	if (bad->rc == TW_E_RANGE) {
		tw_column_range(c, &min, &max);
		snprintf(range, sizeof(range), c->smi == TW_SMI_DISPLAY_STRING ?
		    " (SIZE (%lld..%llu))" : " (%lld..%llu)", (long long)min,
		    (unsigned long long)max);
	}
	snprintf(buf, len, "%s%s%s came back as %s; TUNEWATCH-MIB says %s%s", c->name, inst, item,
	    bad->got, tw_smi_name(c->smi), range);
}
