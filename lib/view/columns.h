/* SPDX-License-Identifier: ISC */
/* Every object of TUNEWATCH-MIB described once: its group and number, its
 * name, SMI type, access, range, UNITS, the scale between the MIB's
 * number and the figure in its natural unit, and where the view keeps it.
 *
 * The agent encodes with this table (view.c scales figures into the MIB's
 * numbers, mibview.c takes the wire types), the SNMP client decodes with
 * it (one loop, and a value whose type or range is not its entry's is an
 * error, never an absence), the records of lib/figures/ are decoded
 * with it (lib/view/record_*.c: every reader takes a figure from its row's
 * record), and tests/mib_text.c holds it against the MIB text
 * and mib/tunewatch_oids.h. Adding a column is: the MIB text, the
 * header, one entry in its group's columns_GROUP.c, and the code that
 * computes the figure.
 *
 * The entries are in columns_GROUP.c, one file for each group of the MIB,
 * the list of groups in columns_groups.c and the lookups in columns.c; a
 * cell's value against its entry (scaled, checked, loaded and stored) in
 * cells.c. */
#ifndef TW_COLUMNS_H
#define TW_COLUMNS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "tunewatch_oids.h"

/* BER tags of the SMI types on the wire. */
enum tw_ber_type {
	TW_BER_INTEGER = 0x02,		/* INTEGER, Integer32, TruthValue, enums */
	TW_BER_OCTET_STRING = 0x04,	/* OCTET STRING, DisplayString */
	TW_BER_GAUGE32 = 0x42,		/* Gauge32, Unsigned32 */
	TW_BER_COUNTER64 = 0x46,	/* Counter64, CounterBasedGauge64 */
};

/* One value as it goes on or comes off the wire. An INTEGER's num is the
 * 64-bit two's complement of its value, so a negative one reads back with
 * (int64_t)num. */
struct tw_ber_value {
	enum tw_ber_type type;
	uint64_t num;		/* for every type but strings */
	const char *str;	/* for strings; not NUL-terminated */
	size_t len;
};

/* The SMI types (and textual conventions) the MIB uses, as it names
 * them. */
enum tw_smi {
	TW_SMI_DISPLAY_STRING,
	TW_SMI_UNSIGNED32,
	TW_SMI_GAUGE32,
	TW_SMI_INTEGER32,
	TW_SMI_TRUTH_VALUE,
	TW_SMI_COUNTER64,
	TW_SMI_COUNTER_BASED_GAUGE64,
	TW_SMI_HUNDREDTHS,		/* TwHundredths: Unsigned32 in 1/100 */
	TW_SMI_DBLOCK_CLASS,		/* TwDblockClassType: an enumeration */
	TW_SMI_FINDING_SEVERITY,	/* TwSeverityType: an enumeration */
	TW_SMI_ENUMERATION,		/* INTEGER { a(1), b(2) }: its range is
					 * the lowest and highest value */
};

enum tw_access {
	TW_ACCESS_NOT_ACCESSIBLE,	/* the index columns */
	TW_ACCESS_READ_ONLY,
};

#define TW_COLUMN_READ_WITH_CGROUPS 2

/* What a column is in its group's record (lib/figures/), the typed form
 * every reader takes a figure in: the view projects a record into its
 * row's cells and decodes a row's cells back into the record
 * (view/recordrow.h). */
enum tw_fig_kind {
	TW_FIG_NO_FIELD,	/* none: an index, or a group without a record */
	TW_FIG_REAL,		/* double in the figure's unit; TW_FIG_NONE: absent */
	TW_FIG_COUNT,		/* uint64_t, exact; TW_FIG_NO_COUNT: absent */
	TW_FIG_INT,		/* int64_t, the MIB's number; -1: absent */
	TW_FIG_TRUTH,		/* int: 1 true, 0 false (TruthValue 1, 2); -1: absent */
	TW_FIG_TEXT,		/* const char *, shown; NULL: absent */
	TW_FIG_NAME,		/* const char *, shown; never NULL: "" when absent */
};

/* Where the view keeps a row's values: its `has` bits and col[] array,
 * or a string field (the view's fields are shorter than a DisplayString
 * may be: a longer string is cut). */
struct tw_column {
	const char *name;	/* the MIB's descriptor; NULL: no such column */
	enum tw_smi smi;
	enum tw_access access;
	int ranged;		/* the MIB states the range itself */
	int64_t min;		/* the range: the MIB's, or else the type's */
	uint64_t max;
	const char *units;	/* the MIB's UNITS; NULL: none */
	double scale;		/* the MIB's number is the figure times this */
	const char *unit;	/* the figure's unit (its record's); NULL: none */
	int checks_read;	/* the SNMP client fetches it for the checks
				 * (TW_COLUMN_READ_WITH_CGROUPS: only for a
				 * check that reads the cgroup table) */
	size_t str_off;		/* strings: the field in the view's row */
	size_t str_size;
	enum tw_fig_kind fig;	/* the field in the group's record */
	size_t fig_off;
};

/* A group of scalars ({group, n, 0}) or a table ({table, 1, column,
 * index...}) below twObjects. */
struct tw_column_group {
	uint32_t id;			/* TW_OID_AGENT ... TW_OID_TUNABLE_TABLE */
	const char *name;		/* "twAgent", "twDiskTable" */
	const char *entry;		/* "twDiskEntry"; NULL for scalars */
	size_t index_len;		/* index columns; 0 for scalars */
	const struct tw_column *cols;	/* by column number */
	unsigned ncols;			/* the last column + 1 */
	unsigned first;			/* the first accessible column */
	size_t has_off;			/* the row's `has` in the view */
	size_t col_off;			/* its col[]; SIZE_MAX: none */
};

extern const struct tw_column_group tw_column_groups[];
extern const size_t tw_column_ngroups;

/* The group with this twObjects number, or NULL. */
const struct tw_column_group *tw_column_group(uint32_t id);

/* A table one level below a scalar group: twFindingTable, at
 * twObjects.6.8 (group.id 6, sub 8), its cells {6, 8, 1, column, index}. */
struct tw_column_subgroup {
	uint32_t sub;
	struct tw_column_group group;
};

extern const struct tw_column_subgroup tw_column_subgroups[];
extern const size_t tw_column_nsubgroups;

/* The table at twObjects.id.sub, or NULL. */
const struct tw_column_group *tw_column_subgroup(uint32_t id, uint32_t sub);

/* The object col of group, or NULL when there is none. */
const struct tw_column *tw_column(uint32_t group, unsigned col);

/* The range of c's values (c->min and c->max): the MIB's own where it
 * states one, else the type's. */
void tw_column_range(const struct tw_column *c, int64_t *min, uint64_t *max);

/* The type c takes on the wire. */
enum tw_ber_type tw_column_ber(const struct tw_column *c);

/* The MIB's name of an SMI type ("Unsigned32"), and of a BER tag (NULL
 * for a tag SNMP does not use). */
const char *tw_smi_name(enum tw_smi smi);
const char *tw_ber_name(enum tw_ber_type type);

/* The MIB's number for a figure in its natural unit: scaled, rounded to
 * the nearest integer and clamped to the column's range. Not for
 * strings. Inline: every disk's figures are projected each sample. */
static inline uint64_t
tw_column_encode(const struct tw_column *c, double figure)
{
	double x = figure * c->scale;
	uint64_t lo = c->min > 0 ? (uint64_t)c->min : 0;

	if (!(x > (double)lo))
		return lo;
	if (x >= (double)c->max)
		return c->max;
	/* llround stops at 2^63; a Counter64 figure may not. */
	return x < 9.2e18 ? (uint64_t)llround(x) : (uint64_t)(x + 0.5);
}

/* Whether c's number is an INTEGER on the wire, and so signed: the
 * SMI types tw_column_ber maps to TW_BER_INTEGER (tests/check_columns.c
 * holds the two together). */
static inline int
tw_column_signed(const struct tw_column *c)
{
	return c->smi == TW_SMI_INTEGER32 || c->smi == TW_SMI_TRUTH_VALUE ||
	    c->smi == TW_SMI_DBLOCK_CLASS || c->smi == TW_SMI_FINDING_SEVERITY ||
	    c->smi == TW_SMI_ENUMERATION;
}

/* The figure in its natural unit for the MIB's number n. Inline: every
 * judged disk's figures are decoded each sample, 90,000 of them at
 * 10,000 disks. */
static inline double
tw_column_decode(const struct tw_column *c, uint64_t n)
{
	return (tw_column_signed(c) ? (double)(int64_t)n : (double)n) / c->scale;
}

/* Whether val is what the MIB says c holds: TW_OK; TW_E_INVAL for the
 * wrong type; TW_E_RANGE for a number or string length out of range. */
int tw_column_check(const struct tw_column *c, const struct tw_ber_value *val);

/* Describe val for an error message: "Gauge32 20000", "OCTET STRING
 * \"fast\"", "INTEGER -5". */
void tw_ber_describe(const struct tw_ber_value *val, char *buf, size_t len);

/* Read the value of column col of a view's row (&v->agent, &v->disks[i],
 * ...) of group g into out; 0 when the row has none. Strings point into
 * the row. */
int tw_column_load(const struct tw_column_group *g, const void *row, unsigned col,
    struct tw_ber_value *out);

/* Store val, already checked, as column col of the row. */
void tw_column_store(const struct tw_column_group *g, void *row, unsigned col,
    const struct tw_ber_value *val);

#endif
