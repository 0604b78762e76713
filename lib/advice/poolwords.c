/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/poolwords.h"

#include <stddef.h>

#include "tunewatch_oids.h"

static const struct tw_pool_words words[] = {
	{
		.id = TW_DBLOCK_SOFTNET_BACKLOG,
		.judged = 1, .symptom = TW_SYM_SOFTNET_DROPS, .graph_label = "softnet backlog",
		.evidence_before = "dropped ", .evidence_after = " packets",
	},
	{
		.id = TW_DBLOCK_SOFTNET_BUDGET,
		.judged = 1, .symptom = TW_SYM_SOFTNET_SQUEEZE, .graph_label = "softnet budget",
		.evidence_before = "ran out of budget ", .evidence_after = " times",
	},
	{
		.id = TW_DBLOCK_TCP_MEMORY,
		.judged = 1, .symptom = TW_SYM_TCP_MEM,
		.evidence_before = "TCP entered memory pressure ", .evidence_after = " times",
	},
	{
		.id = TW_DBLOCK_UDP_MEMORY,
		.judged = 1, .symptom = TW_SYM_UDP_MEM,
		.evidence_before = "",
		.evidence_after = " datagrams were dropped at the UDP memory limit",
	},
	{
		.id = TW_DBLOCK_UDP_RCVBUF,
		.judged = 1, .symptom = TW_SYM_UDP_RCVBUF,
		.evidence_before = "",
		.evidence_after = " datagrams were dropped on full receive buffers",
	},
	{
		.id = TW_DBLOCK_UDP_SNDBUF,
		.judged = 1, .symptom = TW_SYM_UDP_SNDBUF,
		/* wmem_default reaches a socket only when it is made: the lab
		 * applied the advice and nothing changed until the sender made
		 * its socket again. */
		.evidence_before = "",
		.evidence_after = " datagrams were not sent on full send buffers",
		.evidence_note = ", and a socket takes its buffer when it is made: restart the "
		    "sender after",
	},
	{
		.id = TW_DBLOCK_TCP_RCVBUF,
		.judged = 1, .symptom = TW_SYM_TCP_PRUNE,
		.evidence_before = "",
		.evidence_after = " segments were dropped or pruned from receive queues",
	},
	{
		.id = TW_DBLOCK_TCP_LISTEN,
		.judged = 1, .symptom = TW_SYM_LISTEN_OVERFLOW,
		.evidence_before = "",
		.evidence_after = " connections were dropped on full accept queues",
	},
	{
		.id = TW_DBLOCK_HIGH_ORDER,
		.judged = 1, .symptom = TW_SYM_HIGHORDER_FAIL,
		.evidence_before = "compaction failed ", .evidence_after = " times",
	},
};

/* Buddy zones count no failure of their own, and a foreign agent's class
 * has no words here. */
static const struct tw_pool_words unjudged = { .judged = 0 };

const struct tw_pool_words *
tw_pool_words_of(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (words[i].id == id)
			return &words[i];
	return &unjudged;
}
