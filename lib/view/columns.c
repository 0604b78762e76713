/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/columns.h"

/* ---- Lookups ------------------------------------------------------------ */

/* The groups are in twObjects' order, the first ones at their number
 * less one: the view's builder and the agent look one up for every cell,
 * so by position first; groups past a gap in the numbers are searched. */
const struct tw_column_group *
tw_column_group(uint32_t id)
{
	size_t i;

	if (id >= 1 && id <= tw_column_ngroups && tw_column_groups[id - 1].id == id)
		return &tw_column_groups[id - 1];
	for (i = 0; i < tw_column_ngroups; i++)
		if (tw_column_groups[i].id == id)
			return &tw_column_groups[i];
	return NULL;
}

const struct tw_column_group *
tw_column_subgroup(uint32_t id, uint32_t sub)
{
	size_t i;

	for (i = 0; i < tw_column_nsubgroups; i++)
		if (tw_column_subgroups[i].group.id == id && tw_column_subgroups[i].sub == sub)
			return &tw_column_subgroups[i].group;
	return NULL;
}

const struct tw_column *
tw_column(uint32_t group, unsigned col)
{
	const struct tw_column_group *g = tw_column_group(group);

	if (g == NULL || col >= g->ncols || g->cols[col].name == NULL)
		return NULL;
	return &g->cols[col];
}

/* ---- Types ---------------------------------------------------------------- */

static const struct {
	const char *name;
	enum tw_ber_type ber;
} smi_types[] = {
	[TW_SMI_DISPLAY_STRING] = { "DisplayString", TW_BER_OCTET_STRING },
	[TW_SMI_UNSIGNED32] = { "Unsigned32", TW_BER_GAUGE32 },
	[TW_SMI_GAUGE32] = { "Gauge32", TW_BER_GAUGE32 },
	[TW_SMI_INTEGER32] = { "Integer32", TW_BER_INTEGER },
	[TW_SMI_TRUTH_VALUE] = { "TruthValue", TW_BER_INTEGER },
	[TW_SMI_COUNTER64] = { "Counter64", TW_BER_COUNTER64 },
	[TW_SMI_COUNTER_BASED_GAUGE64] = { "CounterBasedGauge64", TW_BER_COUNTER64 },
	[TW_SMI_HUNDREDTHS] = { "TwHundredths", TW_BER_GAUGE32 },
	[TW_SMI_DBLOCK_CLASS] = { "TwDblockClassType", TW_BER_INTEGER },
	[TW_SMI_FINDING_SEVERITY] = { "TwSeverityType", TW_BER_INTEGER },
	[TW_SMI_ENUMERATION] = { "INTEGER", TW_BER_INTEGER },
};

const char *
tw_smi_name(enum tw_smi smi)
{
	return smi_types[smi].name;
}

enum tw_ber_type
tw_column_ber(const struct tw_column *c)
{
	return smi_types[c->smi].ber;
}

/* Tags the MIB never uses are named too: they are what a foreign agent
 * may send. */
const char *
tw_ber_name(enum tw_ber_type type)
{
	switch ((int)type) {
	case TW_BER_INTEGER:
		return "INTEGER";
	case TW_BER_OCTET_STRING:
		return "OCTET STRING";
	case 0x05:
		return "NULL";
	case 0x06:
		return "OBJECT IDENTIFIER";
	case 0x40:
		return "IpAddress";
	case 0x41:
		return "Counter32";
	case TW_BER_GAUGE32:
		return "Gauge32";
	case 0x43:
		return "TimeTicks";
	case 0x44:
		return "Opaque";
	case TW_BER_COUNTER64:
		return "Counter64";
	}
	return NULL;
}

void
tw_column_range(const struct tw_column *c, int64_t *min, uint64_t *max)
{
	*min = c->min;
	*max = c->max;
}
