/* SPDX-License-Identifier: ISC */
/* twProbeTable in the view: each probed device's record
 * (lib/derive/derive_probe.c) projected into the MIB's numbers. */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_probe.h"
#include "util/error.h"
#include "view/recordrow.h"

int
tw_view_build_probes(struct tw_view *v, const struct tw_probe_row *rows, size_t n)
{
	size_t i;
	int rc;

	if ((rc = tw_view_reserve_probes(v, n)) != TW_OK)
		return rc;
	for (i = 0; i < n; i++) {
		struct tw_view_probe *vp = &v->probes[i];
		struct tw_probe_record f;

		tw_derive_probe(&rows[i], &f);
		memset(vp, 0, sizeof(*vp));
		vp->major = f.major;
		vp->minor = f.minor;
		tw_recordrow_project(tw_vb_group(TW_OID_PROBE_TABLE), &f, vp);
	}
	v->nprobes = n;
	return TW_OK;
}

