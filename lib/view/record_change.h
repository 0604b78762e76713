/* SPDX-License-Identifier: ISC */
/* A change's record (figures/change_record.h) from a row of the view's
 * twChangeTable: the one place its cells are decoded. */
#ifndef TW_VIEW_RECORD_CHANGE_H
#define TW_VIEW_RECORD_CHANGE_H

#include "figures/change_record.h"

struct tw_view_change;

/* Fill f from row c; its strings point into c. */
void tw_view_change_record(const struct tw_view_change *c, struct tw_change_record *f);

#endif
