/* SPDX-License-Identifier: ISC */
/* Two subjects, one label (checkio/outlabel.c): perfdata labels that two
 * subjects share get a suffix of their subject's. The functions are for
 * checkio/output.c; output.h includes this for struct tw_out_label. */
#ifndef TW_CHECKIO_OUTLABEL_H
#define TW_CHECKIO_OUTLABEL_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"

/* Where an item's label is in tw_out.perf, and whose it is. */
struct tw_out_label {
	size_t start;		/* the item's first byte */
	size_t len;		/* its label's length */
	uint32_t subject;	/* a hash of its subject (or of its label) */
};

/* A subject's hash, kept with each item's label. */
uint32_t tw_out_subject_hash(const char *s);

/* Give every label of perf that two subjects share its subject's suffix;
 * labels[] has *nlabels entries, one per item of perf, in its order. When
 * perf is written again, *nlabels becomes 0: the offsets are of the old
 * text. */
int tw_out_tell_subjects_apart(struct tw_buf *perf, const struct tw_out_label *labels,
    size_t *nlabels);

#endif
