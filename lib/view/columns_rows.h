/* SPDX-License-Identifier: ISC */
/* How the rows of the column table (columns.h) are written, for the files
 * that hold them: one for each group of TUNEWATCH-MIB (columns_GROUP.c)
 * and the list of the groups (columns_groups.c). The rows say where the
 * view keeps each value, so these files see view.h; the lookups
 * (columns.c), which the view itself calls, do not. */
#ifndef TW_COLUMNS_ROWS_H
#define TW_COLUMNS_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "figures/agent_record.h"
#include "figures/cache_record.h"
#include "figures/cgroup_record.h"
#include "figures/change_record.h"
#include "figures/disk_record.h"
#include "figures/pool_record.h"
#include "figures/probe_record.h"
#include "figures/reqlat_record.h"
#include "figures/socket_record.h"
#include "tunewatch_oids.h"
#include "view/columns.h"
#include "view/view.h"

/* ---- The table ---------------------------------------------------------
 * One row per object, in the MIB's order. READ: the SNMP client fetches
 * the column for the checks (a column they never read costs a varbind a
 * row for nothing); every scalar is read, those that explain the cgroup
 * table (READ_CGROUPS) only with it. */

#define READ 1
#define SKIP 0
#define READ_CGROUPS TW_COLUMN_READ_WITH_CGROUPS

/* Each SMI type's own range, which a row keeps unless the MIB narrows it
 * (constant expressions, so that the rows can hold them). */
#define TYPE_MIN(t) \
	((t) == TW_SMI_INTEGER32 ? INT32_MIN : (t) == TW_SMI_TRUTH_VALUE ? 1 : \
	 (t) == TW_SMI_DBLOCK_CLASS ? TW_DBLOCK_SOFTNET_BACKLOG : \
	 (t) == TW_SMI_FINDING_SEVERITY ? TW_FINDING_WARNING : 0)
#define TYPE_MAX(t) \
	((t) == TW_SMI_COUNTER64 || (t) == TW_SMI_COUNTER_BASED_GAUGE64 ? UINT64_MAX : \
	 (t) == TW_SMI_INTEGER32 ? (uint64_t)INT32_MAX : (t) == TW_SMI_TRUTH_VALUE ? 2 : \
	 (t) == TW_SMI_DBLOCK_CLASS ? (uint64_t)TW_DBLOCK_HIGH_ORDER : \
	 (t) == TW_SMI_FINDING_SEVERITY ? (uint64_t)TW_FINDING_CRITICAL : \
	 (t) == TW_SMI_DISPLAY_STRING ? 255 : (uint64_t)UINT32_MAX)

/* The last argument of a row: where its figure is in the group's record,
 * checked against the field's type, or NO_FIG. */
#define FIG_AT(kind, type, field, ctype) \
	.fig = (kind), .fig_off = offsetof(type, field) + \
	    0 * sizeof(_Generic(((type *)0)->field, ctype: 1))
#define REAL(type, field) FIG_AT(TW_FIG_REAL, type, field, double)
#define COUNT(type, field) FIG_AT(TW_FIG_COUNT, type, field, uint64_t)
#define INT(type, field) FIG_AT(TW_FIG_INT, type, field, int64_t)
#define TRUTH(type, field) FIG_AT(TW_FIG_TRUTH, type, field, int)
#define TEXT(type, field) FIG_AT(TW_FIG_TEXT, type, field, const char *)
#define NAME(type, field) FIG_AT(TW_FIG_NAME, type, field, const char *)
#define NO_FIG .fig = TW_FIG_NO_FIELD

#define NUM(n, t, u, read, fig) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .units = (u), .scale = 1, .checks_read = (read), fig }
/* A number the MIB keeps scaled: the figure times s, in the unit f. */
#define SCALED(n, t, u, s, f, read, fig) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .units = (u), .scale = (s), .unit = (f), .checks_read = (read), \
	  fig }
#define PERCENT(n, fig) \
	{ .name = (n), .smi = TW_SMI_HUNDREDTHS, .access = TW_ACCESS_READ_ONLY, .ranged = 1, \
	  .min = 0, .max = 10000, .units = "percent", .scale = 100, .unit = "%", \
	  .checks_read = READ, fig }
#define STR(n, type, field, read, fig) \
	{ .name = (n), .smi = TW_SMI_DISPLAY_STRING, .access = TW_ACCESS_READ_ONLY, \
	  .max = TYPE_MAX(TW_SMI_DISPLAY_STRING), .scale = 1, .checks_read = (read), \
	  .str_off = offsetof(type, field), .str_size = sizeof(((type *)0)->field), fig }
/* The MIB states an index's range even where it is the type's. */
#define INDEX(n, lo) \
	{ .name = (n), .smi = TW_SMI_UNSIGNED32, .access = TW_ACCESS_NOT_ACCESSIBLE, .ranged = 1, \
	  .min = (lo), .max = UINT32_MAX, .scale = 1 }
/* A number whose range the MIB narrows. */
#define RANGED(n, t, lo, hi, read, fig) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = (lo), \
	  .max = (hi), .scale = 1, .checks_read = (read), fig }
#define INDEX_ENUM(n, t) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_NOT_ACCESSIBLE, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .scale = 1 }
/* A number whose range the MIB states, with its UNITS. */
#define RANGED_UNITS(n, t, lo, hi, u, read, fig) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = (lo), \
	  .max = (hi), .units = (u), .scale = 1, .checks_read = (read), fig }

#define NCOLS(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* Each group's rows, by column number (columns_GROUP.c). */
extern const struct tw_column tw_columns_agent[];
extern const struct tw_column tw_columns_bc[];
extern const struct tw_column tw_columns_pool[];
extern const struct tw_column tw_columns_disk[];
extern const struct tw_column tw_columns_tunable[];
extern const struct tw_column tw_columns_change[];
extern const struct tw_column tw_columns_sock[];
extern const struct tw_column tw_columns_probe[];
extern const struct tw_column tw_columns_reqlat[];
extern const struct tw_column tw_columns_reqhist[];
extern const struct tw_column tw_columns_findsum[];
extern const struct tw_column tw_columns_finding[];
extern const struct tw_column tw_columns_cgroup[];

#endif
