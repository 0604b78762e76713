/* SPDX-License-Identifier: ISC */
#include "config.h"

/* A finding's identity: the symptom's token, its subject and the tunable,
 * hashed into the id a ticket system deduplicates on. The tokens and the
 * hash are a contract with every ticket already open: change neither. */

#include "advice/ticket.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "advice/poolwords.h"
#include "collect/blockqueue.h"
#include "sample/poolclass.h"
#include "view/view.h"

static const char *const symptom_tokens[TW_SYM_COUNT] = {
	[TW_SYM_SOFTNET_DROPS] = "softnet-drops",
	[TW_SYM_SOFTNET_SQUEEZE] = "softnet-squeeze",
	[TW_SYM_UDP_RCVBUF] = "udp-rcvbuf",
	[TW_SYM_UDP_SNDBUF] = "udp-sndbuf",
	[TW_SYM_UDP_MEM] = "udp-mem",
	[TW_SYM_TCP_MEM] = "tcp-mem",
	[TW_SYM_TCP_PRUNE] = "tcp-prune",
	[TW_SYM_LISTEN_OVERFLOW] = "listen-overflow",
	[TW_SYM_HIGHORDER_FAIL] = "highorder-fail",
	[TW_SYM_MBUF_DENIED] = "mbuf-denied",
	[TW_SYM_LOW_HIT_REFAULTS] = "low-hit-refaults",
	[TW_SYM_LOW_HIT_SEQUENTIAL] = "low-hit-sequential",
	[TW_SYM_METADATA_CHURN] = "metadata-churn",
	[TW_SYM_DIRTY_BURST] = "dirty-burst",
	[TW_SYM_MEMORY_PRESSURE] = "memory-pressure",
	[TW_SYM_READ_LATENCY_QUEUE] = "read-latency-queue",
	[TW_SYM_READ_LATENCY_WRITEBACK] = "read-latency-writeback",
	[TW_SYM_WRITE_LATENCY] = "write-latency",
	[TW_SYM_NONROT_SCHEDULER] = "nonrot-scheduler",
	[TW_SYM_RANDOM_READAHEAD] = "random-readahead",
	[TW_SYM_INTERRUPT_LOAD] = "interrupt-load",
	[TW_SYM_QUEUE_FULL] = "queue-full",
	[TW_SYM_SOCKET_RCVBUF] = "socket-rcvbuf",
	[TW_SYM_CGROUP_CACHE_BOUNDED] = "cgroup-cache-bounded",
	[TW_SYM_SOCKET_RCVBUF_DEFAULT] = "socket-rcvbuf-default",
	[TW_SYM_DIRTY_LIMITED] = "dirty-limited",
};

const char *
tw_symptom_name(enum tw_symptom sym)
{
	if ((int)sym < 0 || sym >= TW_SYM_COUNT)
		return NULL;
	return symptom_tokens[sym];
}

#define FNV64_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV64_PRIME UINT64_C(0x100000001b3)

/* FNV-1a over s and, when more follows, the NUL that ends it: the NUL
 * keeps ("ab", "c") and ("a", "bc") apart. */
static uint64_t
fnv1a(uint64_t h, const char *s, int with_nul)
{
	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= FNV64_PRIME;
	}
	if (with_nul)
		h *= FNV64_PRIME;	/* h ^= 0 changes nothing */
	return h;
}

void
tw_ticket_id(char out[TW_TICKET_ID_LEN], enum tw_symptom sym, const char *subject,
    const char *tunable)
{
	const char *token = tw_symptom_name(sym);
	uint64_t h = FNV64_OFFSET;

	h = fnv1a(h, token != NULL ? token : "", 1);
	h = fnv1a(h, subject != NULL ? subject : "", 1);
	h = fnv1a(h, tunable != NULL ? tunable : "", 0);
	/* The first 12 of 16 hex digits: the top 48 bits. */
	snprintf(out, TW_TICKET_ID_LEN, "tw-%012llx", (unsigned long long)(h >> 16));
}

const char *
tw_ticket_subject_disk(const struct tw_view_disk *d)
{
	if (d == NULL)
		return "";
	return d->stable_id[0] != '\0' ? d->stable_id : d->name;
}

const char *
tw_ticket_subject_pool(const struct tw_pool_class *c)
{
	const char *s;

	if (c == NULL)
		return "";
	s = c->per == TW_POOL_PER_CPU ? tw_pool_words_of(c->id)->graph_label : c->name;
	return s != NULL ? s : "";
}

const char *
tw_ticket_subject(const char *subject, const struct tw_view_disk *disk, const char *tunable)
{
	/* A queue tunable belongs to its disk, whatever the check: the
	 * read-ahead of sda and of sdb are two tickets. */
	if (disk != NULL && (subject == NULL ||
	    (tunable != NULL && tw_queue_attr(tunable) != NULL)))
		return tw_ticket_subject_disk(disk);
	return subject != NULL ? subject : "";
}
