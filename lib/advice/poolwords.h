/* SPDX-License-Identifier: ISC */
/* What is said of a class of message-buffer pool (sample/poolclass.h) when
 * its failures are judged: whether they are, the symptom advice starts
 * from, the perfdata label of a per-CPU class and the words of the
 * evidence line. check_dblock and tunewatchd's findings both read this one
 * table, so they say the same; the sampler, which only counts, never does.
 * Rows are in increasing class order, one for each judged class. */
#ifndef TW_POOLWORDS_H
#define TW_POOLWORDS_H

#include <stdint.h>

#include "advice/advice.h"

struct tw_pool_words {
	uint32_t id;			/* TW_DBLOCK_* */
	int judged;			/* its failures are thresholded */
	enum tw_symptom symptom;	/* where advice starts when they are */
	const char *graph_label;	/* per-CPU classes: one perfdata figure,
					 * the sum over CPUs */
	/* Evidence: "[who ]before<count>after", who being the failing CPUs
	 * of a per-CPU class: "cpu1 dropped 152 packets". */
	const char *evidence_before;
	const char *evidence_after;
	/* Said after the window, where the knob needs more than its value
	 * (a socket made again); NULL: nothing. */
	const char *evidence_note;
};

/* The words of class id; for a class that is not judged (a buddy zone, a
 * foreign agent's value) a row with judged 0 and no words. Never NULL. */
const struct tw_pool_words *tw_pool_words_of(uint32_t id);

#endif
