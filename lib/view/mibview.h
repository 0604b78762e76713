/* TUNEWATCH-MIB served from a view: GET and GETNEXT over the instances of
 * twObjects, with no Net-SNMP in it, so the tree can be walked in unit
 * tests without a master agent (as lldpd's tests do).
 *
 * OIDs here are suffixes below twObjects (tunewatchMIB.1): scalars are
 * {group, object, 0}, table cells {table, 1, column, index...}. The order
 * is the MIB's lexicographic order; a GETNEXT finds its row by binary
 * search, so a walk costs O(log n) a step, never O(n). */
#ifndef TW_MIBVIEW_H
#define TW_MIBVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "view/view.h"

/* BER tags of the SMI types used by the MIB. */
enum tw_mv_type {
	TW_MV_INTEGER = 0x02,	/* INTEGER, Integer32, TruthValue, enums */
	TW_MV_STRING = 0x04,	/* OCTET STRING, DisplayString */
	TW_MV_GAUGE = 0x42,	/* Gauge32, Unsigned32 */
	TW_MV_COUNTER64 = 0x46,	/* Counter64, CounterBasedGauge64 */
};

#define TW_MV_OID_MAX 16

struct tw_mv_value {
	enum tw_mv_type type;
	uint64_t num;		/* for every type but strings */
	const char *str;	/* for strings; not NUL-terminated as sent */
	size_t len;
};

enum tw_mv_result {
	TW_MV_FOUND,
	TW_MV_NO_SUCH_OBJECT,	/* no such scalar or column */
	TW_MV_NO_SUCH_INSTANCE,	/* the object exists, this instance does not */
	TW_MV_END,		/* GETNEXT: nothing after it below twObjects */
};

/* now_ms is the monotonic time of the request, for twAgentSampleAge. */
enum tw_mv_result tw_mv_get(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid,
    size_t len, struct tw_mv_value *out);

/* The first instance after oid (at or after it when inclusive), written to
 * next[*nextlen] (TW_MV_OID_MAX entries). oid may be any OID suffix,
 * including ones between or beyond objects. */
enum tw_mv_result tw_mv_next(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid,
    size_t len, int inclusive, uint32_t *next, size_t *nextlen, struct tw_mv_value *out);

#endif
