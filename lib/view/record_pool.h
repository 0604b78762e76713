/* SPDX-License-Identifier: ISC */
/* A pool's figures (figures/pool_record.h) out of the view's twDblockTable row:
 * the one place that reads the row's cells, so that the SNMP client, the
 * agent and --local hand every reader the same record. */
#ifndef TW_VIEW_RECORD_POOL_H
#define TW_VIEW_RECORD_POOL_H

#include <stdint.h>

#include "figures/pool_record.h"
#include "view/view.h"

/* The figures of row p. The record's strings point into p. */
void tw_view_pool_record(const struct tw_view_pool *p, struct tw_pool_record *f);

/* The pools of class cls in v taken together: the sums the checks and the
 * agent's findings both read, and the pool a change is measured on. The
 * busiest's strings point into v. */
void tw_view_pool_class_record(const struct tw_view *v, uint32_t cls,
    struct tw_pool_class_record *out);

#endif
