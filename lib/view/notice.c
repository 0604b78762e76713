/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/notice.h"

#include <string.h>

#include "view/build_priv.h"

/* The finding's objects: the last is the raised time, or for a severity
 * change the changed time. */
static const unsigned finding_objects[] = {
	TW_OID_FINDING_ID, TW_OID_FINDING_SYMPTOM, TW_OID_FINDING_SUBJECT,
	TW_OID_FINDING_SEVERITY, TW_OID_FINDING_EVIDENCE, TW_OID_FINDING_TUNABLE,
	TW_OID_FINDING_CURRENT, TW_OID_FINDING_SUGGESTED, TW_OID_FINDING_APPLY,
	TW_OID_FINDING_PERSIST, TW_OID_FINDING_DOCUMENTATION, TW_OID_FINDING_RAISED,
};

/* twTunableChanged's; twTunableChangeEvaluated adds the figure after and
 * the finding the change answers. */
static const unsigned change_objects[] = {
	TW_OID_CHANGE_TUNABLE, TW_OID_CHANGE_SUBJECT, TW_OID_CHANGE_OLD_VALUE,
	TW_OID_CHANGE_NEW_VALUE, TW_OID_CHANGE_TIME, TW_OID_CHANGE_FIGURE,
	TW_OID_CHANGE_FIGURE_UNIT, TW_OID_CHANGE_BEFORE, TW_OID_CHANGE_AFTER,
	TW_OID_CHANGE_FINDING_ID,
};

#define NOBJECTS(a) (sizeof(a) / sizeof((a)[0]))

void
tw_notice_finding(struct tw_notice *out, unsigned notification,
    const struct tw_view_finding_in *f)
{
	const struct tw_column_group *g = tw_column_subgroup(TW_OID_FINDINGS,
	    TW_OID_FINDING_TABLE);
	size_t i;

	out->notification = notification;
	out->cls = f->cls >= TW_FINDING_CLASS_HOST && f->cls <= TW_FINDING_CLASS_USER ?
	    (unsigned)f->cls : TW_FINDING_CLASS_HOST;
	out->entry[0] = TW_OID_FINDINGS;
	out->entry[1] = TW_OID_FINDING_TABLE;
	out->entry[2] = TW_OID_FINDING_ENTRY;
	out->entry_len = 3;
	out->index = f->index;
	out->n = 0;
	tw_view_finding_row(f, &out->row.finding);
	for (i = 0; i < NOBJECTS(finding_objects); i++) {
		struct tw_notice_object *o = &out->obj[out->n];

		o->col = finding_objects[i];
		if (o->col == TW_OID_FINDING_RAISED && notification == TW_NOTIFY_FINDING_SEVERITY)
			o->col = TW_OID_FINDING_CHANGED;
		/* Every object of OBJECTS goes, in order, even when the row has
		 * no instance of it (no tunable): receivers such as snmptt
		 * number the varbinds, and a missing one shifts the rest. */
		if (!tw_column_load(g, &out->row.finding, o->col, &o->val)) {
			if (o->col >= g->ncols ||
			    tw_column_ber(&g->cols[o->col]) != TW_BER_OCTET_STRING)
				continue;
			o->val.type = TW_BER_OCTET_STRING;
			o->val.str = "";
			o->val.len = 0;
			o->val.num = 0;
		}
		out->n++;
	}
}

void
tw_notice_change(struct tw_notice *out, int evaluated, const struct tw_change_record *c)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CHANGE_TABLE);
	size_t i, n = NOBJECTS(change_objects) - (evaluated ? 0 : 2);

	out->notification = evaluated ? TW_NOTIFY_TUNABLE_CHANGE_EVALUATED :
	    TW_NOTIFY_TUNABLE_CHANGED;
	out->cls = TW_FINDING_CLASS_HOST;
	out->entry[0] = TW_OID_CHANGE_TABLE;
	out->entry[1] = TW_OID_CHANGE_ENTRY;
	out->entry_len = 2;
	out->index = c->index;
	out->n = 0;
	tw_view_build_change_row(c, &out->row.change);
	/* A figure that cannot be given is left out, as in the table. No
	 * column of twChangeTable is a Counter64. */
	for (i = 0; i < n; i++) {
		struct tw_notice_object *o = &out->obj[out->n];

		o->col = change_objects[i];
		if (tw_column_load(g, &out->row.change, o->col, &o->val) &&
		    o->val.type != TW_BER_COUNTER64)
			out->n++;
	}
}

/* The MIB's arc, under which both names lie. */
static const uint32_t mib_arc[TW_MIB_ARC_LEN] = { TW_MIB_ARC };

size_t
tw_notice_trap_name(unsigned notification, uint32_t name[TW_NOTICE_NAME_MAX])
{
	size_t len = TW_MIB_ARC_LEN;

	memcpy(name, mib_arc, sizeof(mib_arc));
	name[len++] = TW_OID_NOTIFICATIONS;
	name[len++] = notification;
	return len;
}

size_t
tw_notice_object_name(const struct tw_notice *n, const struct tw_notice_object *o,
    uint32_t name[TW_NOTICE_NAME_MAX])
{
	size_t i, len = TW_MIB_ARC_LEN;

	memcpy(name, mib_arc, sizeof(mib_arc));
	name[len++] = TW_OID_OBJECTS;
	for (i = 0; i < n->entry_len; i++)
		name[len++] = n->entry[i];
	name[len++] = o->col;
	name[len++] = n->index;
	return len;
}
