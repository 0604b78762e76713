/* SPDX-License-Identifier: ISC */
/* A build without libbpf: the source exists and says so, once, in its
 * state. */
#include "config.h"

#include "reqlat/reqlat.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/error.h"

struct tw_reqlat {
	enum tw_reqlat_state state;
	char reason[TW_REQLAT_REASON_LEN];
};

struct tw_reqlat *
tw_reqlat_open(const struct tw_reqlat_config *c)
{
	struct tw_reqlat *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	if (c != NULL && c->off) {
		r->state = TW_REQLAT_OFF;
		snprintf(r->reason, sizeof(r->reason), "%s",
		    c->off_reason != NULL ? c->off_reason : "turned off");
	} else {
		r->state = TW_REQLAT_NOT_BUILT;
		snprintf(r->reason, sizeof(r->reason), "built without libbpf (configure "
		    "--with-bpf needs libbpf-dev, clang and bpftool)");
	}
	return r;
}

void
tw_reqlat_close(struct tw_reqlat *r)
{
	free(r);
}

enum tw_reqlat_state
tw_reqlat_state(const struct tw_reqlat *r, const char **reason)
{
	if (reason != NULL)
		*reason = r->reason;
	return r->state;
}

int
tw_reqlat_sample(struct tw_reqlat *r, const struct tw_reqlat_want *want, size_t n,
    struct tw_reqlat_reading *out)
{
	(void)r;
	(void)want;
	(void)n;
	out->count = 0;
	out->unslotted = 0;
	out->lost = 0;
	return TW_E_ABSENT;
}
