/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_reqlat.h"

/* A histogram's figure in ms from its microseconds. */
static double
ms(uint64_t us)
{
	return (double)us / 1000.0;
}

static void
percentiles(const struct tw_hist *h, double *p50, double *p90, double *p99)
{
	uint64_t us;

	if (tw_hist_percentile(h, 50, &us))
		*p50 = ms(us);
	if (tw_hist_percentile(h, 90, &us))
		*p90 = ms(us);
	if (tw_hist_percentile(h, 99, &us))
		*p99 = ms(us);
}

void
tw_derive_reqlat(uint32_t major, uint32_t minor, const char *device, uint32_t dir,
    const struct tw_hist *service, const struct tw_hist *queue, uint64_t cov_ms,
    uint64_t total, struct tw_reqlat_record *f)
{
	tw_reqlat_record_init(f);
	f->major = major;
	f->minor = minor;
	f->dir = dir;
	f->device = device;
	f->window_ms = (double)cov_ms;
	f->requests = (double)service->count;
	f->queued = (double)queue->count;
	f->total = (double)total;
	if (service->count > 0) {
		f->max_ms = ms(service->max_us);
		/* The mean is rounded to a microsecond, as the MIB keeps it. */
		f->mean_ms = ms((service->sum_us + service->count / 2) / service->count);
		percentiles(service, &f->p50_ms, &f->p90_ms, &f->p99_ms);
	}
	if (queue->count > 0) {
		f->queue_max_ms = ms(queue->max_us);
		percentiles(queue, &f->queue_p50_ms, &f->queue_p90_ms, &f->queue_p99_ms);
	}
}
