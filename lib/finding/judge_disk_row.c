/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge_disk_row.h"

#include "view/record_disk.h"

int
tw_judge_disk_row(const struct tw_judge_config *c, const struct tw_view_disk *row,
    double held, unsigned window_s, int whole, struct tw_disk_record *f,
    struct tw_disk_judgement *j, struct tw_disk_verdicts *verdicts)
{
	if (whole)
		tw_view_disk_record(row, f);
	else
		tw_view_disk_judged(row, f);
	verdicts->has_read = verdicts->has_write = verdicts->util_only = 0;
	if (!tw_judge_disk(c, f, tw_judge_write_bound(f, held), j))
		return 0;
	j->writers_held = tw_fig_has(held) && held > 0;
	if (j->worst == TW_STATE_OK)
		return 1;
	if (!whole)
		tw_view_disk_record(row, f);
	tw_judge_disk_verdicts(f, j, window_s, verdicts);
	return 1;
}
