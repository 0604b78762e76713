/* SPDX-License-Identifier: ISC */
/* A disk's row of the view judged, the one way tunewatchd's findings and
 * check_disklatency judge it: decoded (view/record_disk.h), judged against
 * the thresholds with its writes bounded (judge.h), and where it is not
 * OK, its verdicts. The two differ only in what they do with the result. */
#ifndef TW_FINDING_JUDGE_DISK_ROW_H
#define TW_FINDING_JUDGE_DISK_ROW_H

#include "figures/disk_record.h"
#include "finding/judge.h"
#include "view/view.h"

/* Judge row against c, its writes bounded by held (tw_judge_dirty_limited
 * of the view), over window_s. f is the row's record: whole when whole is
 * set or the disk is not OK, else only what is judged
 * (tw_view_disk_judged: every disk is judged each sample, few are decoded
 * whole). verdicts is made where j->worst is not OK, and says nothing
 * found otherwise. Returns 0 when the disk has no figures yet (first seen
 * in the newest sample), 1 when judged. */
int tw_judge_disk_row(const struct tw_judge_config *c, const struct tw_view_disk *row,
    double held, unsigned window_s, int whole, struct tw_disk_record *f,
    struct tw_disk_judgement *j, struct tw_disk_verdicts *verdicts);

#endif
