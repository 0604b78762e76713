/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "threshold/threshold.h"

#include <stddef.h>

#include "util/error.h"

int
tw_threshold_parse(struct tw_threshold *t, const char *text)
{
	int rc = tw_range_parse(text, &t->range);

	if (rc == TW_OK)
		t->set = 1;
	return rc;
}

const struct tw_range *
tw_threshold_range(const struct tw_threshold *t)
{
	return t != NULL && t->set ? &t->range : NULL;
}

enum tw_state
tw_threshold_state(double v, const struct tw_threshold *warn, const struct tw_threshold *crit)
{
	return tw_range_state(v, tw_threshold_range(warn), tw_threshold_range(crit));
}
