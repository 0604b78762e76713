/* SPDX-License-Identifier: ISC */
/* The groups of the column table, in twObjects' order: where each
 * group's rows are and where the view keeps its values. */
#include "config.h"

#include "view/columns_rows.h"

/* Tunable rows have every column: no `has`. */
const struct tw_column_group tw_column_groups[] = {
	{ TW_OID_AGENT, "twAgent", NULL, 0, tw_columns_agent, TW_VIEW_AGENT_COLS, 1,
	    offsetof(struct tw_view_agent, has), offsetof(struct tw_view_agent, col) },
	{ TW_OID_BUFCACHE, "twBufferCache", NULL, 0, tw_columns_bc, TW_VIEW_BC_COLS, 1,
	    offsetof(struct tw_view_bufcache, has), offsetof(struct tw_view_bufcache, col) },
	{ TW_OID_DBLOCK_TABLE, "twDblockTable", "twDblockEntry", 2, tw_columns_pool, TW_VIEW_POOL_COLS,
	    TW_OID_DBLOCK_NAME, offsetof(struct tw_view_pool, has),
	    offsetof(struct tw_view_pool, col) },
	{ TW_OID_DISK_TABLE, "twDiskTable", "twDiskEntry", 2, tw_columns_disk, TW_VIEW_DISK_COLS,
	    TW_OID_DISK_NAME, offsetof(struct tw_view_disk, has),
	    offsetof(struct tw_view_disk, col) },
	{ TW_OID_TUNABLE_TABLE, "twTunableTable", "twTunableEntry", 1, tw_columns_tunable,
	    (TW_OID_TUNABLE_VALUE + 1), TW_OID_TUNABLE_NAME, SIZE_MAX, SIZE_MAX },
	{ TW_OID_FINDINGS, "twFindings", NULL, 0, tw_columns_findsum, TW_VIEW_FINDSUM_COLS, 1,
	    offsetof(struct tw_view_findsum, has), offsetof(struct tw_view_findsum, col) },
	{ TW_OID_CHANGE_TABLE, "twChangeTable", "twChangeEntry", 1, tw_columns_change,
	    TW_VIEW_CHANGE_COLS, TW_OID_CHANGE_TUNABLE, offsetof(struct tw_view_change, has),
	    offsetof(struct tw_view_change, col) },
	{ TW_OID_PROBE_TABLE, "twProbeTable", "twProbeEntry", 2, tw_columns_probe, TW_VIEW_PROBE_COLS,
	    TW_OID_PROBE_DEVICE, offsetof(struct tw_view_probe, has),
	    offsetof(struct tw_view_probe, col) },
	{ TW_OID_CGROUP_TABLE, "twCgroupTable", "twCgroupEntry", 1, tw_columns_cgroup,
	    TW_VIEW_CGROUP_COLS, TW_OID_CGROUP_PATH, offsetof(struct tw_view_cgroup, has),
	    offsetof(struct tw_view_cgroup, col) },
	{ TW_OID_SOCKDROP_TABLE, "twSocketDropTable", "twSocketDropEntry", 2, tw_columns_sock,
	    TW_VIEW_SOCK_COLS, TW_OID_SOCKDROP_PROTOCOL_NAME, offsetof(struct tw_view_sock, has),
	    offsetof(struct tw_view_sock, col) },
	{ TW_OID_REQLAT_TABLE, "twReqLatTable", "twReqLatEntry", 3, tw_columns_reqlat,
	    TW_VIEW_REQLAT_COLS, TW_OID_REQLAT_DEVICE, offsetof(struct tw_view_reqlat, has),
	    offsetof(struct tw_view_reqlat, col) },
	{ TW_OID_REQHIST_TABLE, "twReqHistTable", "twReqHistEntry", 4, tw_columns_reqhist,
	    TW_VIEW_REQHIST_COLS, TW_OID_REQHIST_COUNT, offsetof(struct tw_view_reqhist, has),
	    offsetof(struct tw_view_reqhist, col) },
};

const struct tw_column_subgroup tw_column_subgroups[] = {
	{ TW_OID_FINDING_TABLE, { TW_OID_FINDINGS, "twFindingTable", "twFindingEntry", 1,
	    tw_columns_finding, TW_VIEW_FINDING_COLS, TW_OID_FINDING_ID,
	    offsetof(struct tw_view_finding, has), offsetof(struct tw_view_finding, col) } },
};

const size_t tw_column_nsubgroups = sizeof(tw_column_subgroups) /
    sizeof(tw_column_subgroups[0]);

const size_t tw_column_ngroups = sizeof(tw_column_groups) / sizeof(tw_column_groups[0]);

/* The view keeps each row's numbers in an array of the group's width and
 * says which it has in one 32-bit word. */
_Static_assert(TW_VIEW_PROBE_COLS <= 32, "has is 32 bits");
_Static_assert(TW_VIEW_CGROUP_COLS <= 32, "has is 32 bits");
_Static_assert(TW_VIEW_DISK_COLS <= 32 && TW_VIEW_BC_COLS <= 32, "has is 32 bits");
_Static_assert(TW_VIEW_REQLAT_COLS <= 32 && TW_VIEW_AGENT_COLS <= 32, "has is 32 bits");
