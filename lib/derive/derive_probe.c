/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_probe.h"

void
tw_derive_probe(const struct tw_probe_row *row, struct tw_probe_record *f)
{
	const struct tw_probe_report *r = &row->r;
	const struct tw_hist *h = &r->hist;
	uint64_t us;

	tw_probe_record_init(f);
	f->major = row->major;
	f->minor = row->minor;
	f->device = row->name;
	f->state = tw_probe_state_name(r->state);
	f->reason = r->reason;
	f->rate_reads_s = (double)r->rate;
	if (r->read_size > 0)
		f->read_size_bytes = (double)r->read_size;
	f->window_ms = (double)r->window_ms;
	f->reads = (double)h->count;
	f->timeouts = (double)r->timeouts;
	f->missed = (double)r->missed;
	f->errors = (double)r->errors;
	if (h->count == 0)
		return;
	/* The histogram keeps microseconds; the mean is rounded to one. */
	f->min_ms = (double)h->min_us / 1000.0;
	f->max_ms = (double)h->max_us / 1000.0;
	f->mean_ms = (double)((h->sum_us + h->count / 2) / h->count) / 1000.0;
	if (tw_hist_percentile(h, 50, &us))
		f->p50_ms = (double)us / 1000.0;
	if (tw_hist_percentile(h, 90, &us))
		f->p90_ms = (double)us / 1000.0;
	if (tw_hist_percentile(h, 99, &us))
		f->p99_ms = (double)us / 1000.0;
}
