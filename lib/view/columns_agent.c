/* SPDX-License-Identifier: ISC */
/* The column table's entries for twAgent, the scalars about tunewatchd itself. */
#include "config.h"

#include "view/columns_rows.h"

const struct tw_column tw_columns_agent[] = {
	[TW_OID_AGENT_VERSION] = STR("twAgentVersion", struct tw_view_agent, version, READ,
	    TEXT(struct tw_agent_record, version)),
	[TW_OID_AGENT_INTERVAL] = NUM("twAgentInterval", TW_SMI_UNSIGNED32, "seconds", READ,
	    REAL(struct tw_agent_record, interval_s)),
	[TW_OID_AGENT_WINDOW] = NUM("twAgentWindow", TW_SMI_UNSIGNED32, "seconds", READ,
	    REAL(struct tw_agent_record, window_s)),
	[TW_OID_AGENT_SAMPLE_AGE] = NUM("twAgentSampleAge", TW_SMI_UNSIGNED32, "milliseconds",
	    READ, REAL(struct tw_agent_record, sample_age_ms)),
	[TW_OID_AGENT_MALFORMED] = NUM("twAgentMalformedLines", TW_SMI_COUNTER64, "lines", READ,
	    REAL(struct tw_agent_record, malformed_lines)),
	[TW_OID_AGENT_WINDOW_SAMPLES] = NUM("twAgentWindowSamples", TW_SMI_UNSIGNED32, "samples",
	    READ, REAL(struct tw_agent_record, window_samples)),
	[TW_OID_AGENT_WINDOW_SPAN] = NUM("twAgentWindowSpan", TW_SMI_UNSIGNED32, "milliseconds",
	    READ, REAL(struct tw_agent_record, window_span_ms)),
	[TW_OID_AGENT_SYSTEM] = STR("twAgentSystem", struct tw_view_agent, system, READ,
	    TEXT(struct tw_agent_record, system)),
	[TW_OID_AGENT_SAMPLES] = NUM("twAgentSamples", TW_SMI_COUNTER64, "samples", READ,
	    REAL(struct tw_agent_record, samples)),
	[TW_OID_AGENT_UNPRINTABLE_NAMES] = NUM("twAgentUnprintableNames", TW_SMI_GAUGE32, "names",
	    SKIP, REAL(struct tw_agent_record, unprintable_names)),
	[TW_OID_AGENT_CGROUPS_WALKED] = NUM("twAgentCgroupsWalked", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS, REAL(struct tw_agent_record, cgroups_walked)),
	[TW_OID_AGENT_CGROUPS_UNPUBLISHED] = NUM("twAgentCgroupsUnpublished", TW_SMI_GAUGE32,
	    "cgroups", READ_CGROUPS, REAL(struct tw_agent_record, cgroups_unpublished)),
	[TW_OID_AGENT_CGROUPS_CUT_LONG] = NUM("twAgentCgroupsCutLong", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS, REAL(struct tw_agent_record, cgroups_cut_long)),
	[TW_OID_AGENT_CGROUPS_CUT_DEEP] = NUM("twAgentCgroupsCutDeep", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS, REAL(struct tw_agent_record, cgroups_cut_deep)),
	[TW_OID_AGENT_CGROUPS_CUT_MANY] = NUM("twAgentCgroupsCutMany", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS, REAL(struct tw_agent_record, cgroups_cut_many)),
	[TW_OID_AGENT_REQLAT_STATE] = STR("twAgentReqLatState", struct tw_view_agent,
	    reqlat_state, READ, TEXT(struct tw_agent_record, reqlat_state)),
	[TW_OID_AGENT_REQLAT_REASON] = STR("twAgentReqLatStateReason", struct tw_view_agent,
	    reqlat_reason, READ, TEXT(struct tw_agent_record, reqlat_reason)),
	[TW_OID_AGENT_REQLAT_LOST] = NUM("twAgentReqLatLost", TW_SMI_COUNTER64, "requests", READ,
	    REAL(struct tw_agent_record, reqlat_lost)),
};

_Static_assert(NCOLS(tw_columns_agent) == TW_VIEW_AGENT_COLS, "twAgent and the view disagree");
