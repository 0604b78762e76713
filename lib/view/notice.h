/* SPDX-License-Identifier: ISC */
/* What a notification of TUNEWATCH-MIB carries: the objects of its
 * OBJECTS clause, in that order, for one row of twFindingTable or
 * twChangeTable, each named by its column and typed by the column table.
 * The agent only puts them on the wire (agentx/notify.h); the MIB's
 * numbering stays here, with the view. */
#ifndef TW_VIEW_NOTICE_H
#define TW_VIEW_NOTICE_H

#include <stddef.h>
#include <stdint.h>

#include "view/columns.h"
#include "view/build.h"
#include "view/view.h"

/* The most objects a notification carries (twTunableChangeEvaluated's). */
#define TW_NOTICE_MAX 12

struct tw_notice_object {
	unsigned col;		/* the column of the row's table */
	struct tw_ber_value val;
};

/* A notification's objects; the strings point into the row kept here. */
struct tw_notice {
	unsigned notification;		/* twNotifications.N: TW_NOTIFY_* */
	unsigned cls;			/* the finding's class, TW_FINDING_CLASS_*;
					 * a change's is the host's */
	uint32_t entry[3];		/* the table's entry below twObjects */
	size_t entry_len;
	uint32_t index;			/* the row's */
	struct tw_notice_object obj[TW_NOTICE_MAX];
	size_t n;
	union {
		struct tw_view_finding finding;
		struct tw_view_change change;
	} row;
};

/* The longest OID the names below give: the MIB's arc, twObjects, the
 * table's entry, the column and the index. */
#define TW_NOTICE_NAME_MAX (TW_MIB_ARC_LEN + 1 + 3 + 2)

/* The OID of notification N (TW_NOTIFY_*), snmpTrapOID's value, into
 * name; its length. */
size_t tw_notice_trap_name(unsigned notification, uint32_t name[TW_NOTICE_NAME_MAX]);

/* The OID of object o of n, the cell of the row it names, into name; its
 * length. */
size_t tw_notice_object_name(const struct tw_notice *n, const struct tw_notice_object *o,
    uint32_t name[TW_NOTICE_NAME_MAX]);

/* twFindingRaised, twFindingCleared or twFindingSeverityChanged
 * (notification, TW_NOTIFY_FINDING_*) about f. */
void tw_notice_finding(struct tw_notice *out, unsigned notification,
    const struct tw_view_finding_in *f);

/* twTunableChanged, or with evaluated twTunableChangeEvaluated, about c. */
void tw_notice_change(struct tw_notice *out, int evaluated, const struct tw_change_record *c);

#endif
