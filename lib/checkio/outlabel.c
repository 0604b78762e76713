/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "checkio/outlabel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/readfile.h"

/* ---- Two subjects, one label -------------------------------------------- */

/* FNV-1a, 32 bits: stable from run to run and from host to host, so a
 * suffix names its series for good. */
uint32_t
tw_out_subject_hash(const char *s)
{
	uint32_t h = UINT32_C(2166136261);

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= UINT32_C(16777619);
	}
	return h;
}

/* An item in the sort by label and subject. */
struct sorted {
	const char *label;	/* in perf; len bytes */
	size_t len;
	uint32_t subject;
	size_t item;
};

static int
cmp_label(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->label, y->label, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->subject > y->subject) - (x->subject < y->subject);
}

static int
same_label(const struct sorted *x, const struct sorted *y)
{
	return x->len == y->len && memcmp(x->label, y->label, x->len) == 0;
}

/* Give every label that two subjects share its subject's suffix: the
 * items sorted by label and subject, a run of one label with more than
 * one subject in it is marked, and perf is written again with the marked
 * labels' suffixes in place. */
int
tw_out_tell_subjects_apart(struct tw_buf *perf, const struct tw_out_label *labels,
    size_t *nlabels)
{
	struct sorted *order;
	unsigned char *mark;
	struct tw_buf again;
	size_t n = *nlabels, i, j, k, marked = 0;
	int rc;

	if (n < 2)
		return TW_OK;
	order = malloc(n * sizeof(*order));
	mark = calloc(n, 1);
	if (order == NULL || mark == NULL) {
		free(order);
		free(mark);
		return TW_E_NOMEM;
	}
	for (i = 0; i < n; i++) {
		order[i].label = perf->data + labels[i].start;
		order[i].len = labels[i].len;
		order[i].subject = labels[i].subject;
		order[i].item = i;
	}
	qsort(order, n, sizeof(*order), cmp_label);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_label(&order[i], &order[j]); j++)
			;
		/* Sorted by subject within the label: first and last differ
		 * when more than one subject has it. */
		if (order[j - 1].subject == order[i].subject)
			continue;
		for (k = i; k < j; k++)
			mark[order[k].item] = 1;
		marked += j - i;
	}
	free(order);
	rc = TW_OK;
	if (marked > 0) {
		tw_buf_init(&again);
		rc = tw_buf_reserve(&again, perf->len + 7 * marked + 1);
		for (i = 0; rc == TW_OK && i < n; i++) {
			const struct tw_out_label *l = &labels[i];
			size_t end = i + 1 < n ? labels[i + 1].start : perf->len;

			memcpy(again.data + again.len, perf->data + l->start, l->len);
			again.len += l->len;
			if (mark[i])
				again.len += (size_t)snprintf(again.data + again.len, 8, "_%06x",
				    (unsigned)(l->subject & 0xffffffu));
			memcpy(again.data + again.len, perf->data + l->start + l->len,
			    end - l->start - l->len);
			again.len += end - l->start - l->len;
		}
		if (rc == TW_OK) {
			again.data[again.len] = '\0';
			tw_buf_free(perf);
			*perf = again;
			*nlabels = 0;		/* the offsets are of the old text */
		} else {
			tw_buf_free(&again);
		}
	}
	free(mark);
	return rc;
}
