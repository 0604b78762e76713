/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_reqlat.h"

#include "view/recordrow.h"

void
tw_view_reqlat_record(const struct tw_view_reqlat *r, struct tw_reqlat_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_REQLAT_TABLE), r, f);
	f->major = r->major;
	f->minor = r->minor;
	f->dir = r->dir;
}
