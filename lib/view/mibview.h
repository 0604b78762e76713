/* SPDX-License-Identifier: ISC */
/* TUNEWATCH-MIB served from a view: GET and GETNEXT over the instances of
 * twObjects, with no Net-SNMP in it, so the tree can be walked in unit
 * tests without a master agent (as lldpd's tests do).
 *
 * What each object is, and where the view keeps it, is the column table's
 * (view/columns.h); this file only orders and finds instances.
 *
 * OIDs here are suffixes below twObjects (tunewatchMIB.1): scalars are
 * {group, object, 0}, table cells {table, 1, column, index...}. The order
 * is the MIB's lexicographic order; a GETNEXT finds its row by binary
 * search, so a walk costs O(log n) a step, never O(n). */
#ifndef TW_MIBVIEW_H
#define TW_MIBVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "view/columns.h"
#include "view/view.h"

#define TW_MV_OID_MAX 16

enum tw_mv_result {
	TW_MV_FOUND,
	TW_MV_NO_SUCH_OBJECT,	/* no such scalar or column */
	TW_MV_NO_SUCH_INSTANCE,	/* the object exists, this instance does not */
	TW_MV_END,		/* GETNEXT: nothing after it below twObjects */
};

/* now_ms is the monotonic time of the request, for twAgentSampleAge. */
enum tw_mv_result tw_mv_get(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid,
    size_t len, struct tw_ber_value *out);

/* The first instance after oid (at or after it when inclusive), written to
 * next[*nextlen] (TW_MV_OID_MAX entries). oid may be any OID suffix,
 * including ones between or beyond objects. */
enum tw_mv_result tw_mv_next(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid,
    size_t len, int inclusive, uint32_t *next, size_t *nextlen, struct tw_ber_value *out);

/* OIDs in SNMP's order: -1, 0 or 1 as a comes before, is, or comes after
 * b (a prefix comes first). */
int tw_oid_cmp(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen);

#endif
