/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_probe.h"

#include "view/recordrow.h"

void
tw_view_probe_record(const struct tw_view_probe *pr, struct tw_probe_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_PROBE_TABLE), pr, f);
	f->major = pr->major;
	f->minor = pr->minor;
}
