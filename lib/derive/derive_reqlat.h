/* SPDX-License-Identifier: ISC */
/* A disk's reads or writes as the request-latency source timed them
 * (figures/reqlat_record.h), from their histograms over the window. A percentile
 * the window has too few requests for is absent (probe/histogram.h says
 * how many each needs), and so are max and mean without requests: never a
 * made-up zero. */
#ifndef TW_DERIVE_REQLAT_H
#define TW_DERIVE_REQLAT_H

#include "figures/reqlat_record.h"
#include "probe/histogram.h"

/* service and queue are the window's histograms of the disk (its shown
 * name device) in direction dir (TW_REQLAT_DIR_READ or _WRITE); cov_ms
 * the time they cover, total the requests since timing began. f->device
 * points at device. */
void tw_derive_reqlat(uint32_t major, uint32_t minor, const char *device, uint32_t dir,
    const struct tw_hist *service, const struct tw_hist *queue, uint64_t cov_ms,
    uint64_t total, struct tw_reqlat_record *f);

#endif
