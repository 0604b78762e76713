/* SPDX-License-Identifier: ISC */
/* A twReqLatTable row of the view decoded into its record. */
#ifndef TW_VIEW_RECORD_REQLAT_H
#define TW_VIEW_RECORD_REQLAT_H

#include "figures/reqlat_record.h"
#include "view/view.h"

/* Decode r into f through the column table; f's strings point into r. */
void tw_view_reqlat_record(const struct tw_view_reqlat *r, struct tw_reqlat_record *f);

#endif
