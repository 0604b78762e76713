/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/proof.h"

#include <stdio.h>
#include <string.h>

#include "collect/blockqueue.h"

/* Copied from doc/LAB.json's effect of each scenario at the commit that
 * doc/LAB.md names; tests/proof_lab.py holds them to it and says what to
 * write when a new whole run changes them. */
static const struct tw_proof proofs[] = {
	{ TW_SYM_LISTEN_OVERFLOW, "net.core.somaxconn", "net-listen",
	  "the share of connections established at the first SYN", "1.46 (1.46-1.46)" },
	{ TW_SYM_SOFTNET_DROPS, "net.core.netdev_max_backlog", "net-softnet",
	  "the share of datagrams delivered", "5.88 (5.88-5.88)" },
	{ TW_SYM_SOCKET_RCVBUF, "net.core.rmem_max", "net-udp-max",
	  "the share of datagrams delivered", "1.37 (1.37-1.37)" },
	{ TW_SYM_UDP_SNDBUF, "net.core.wmem_default", "net-udp-sndbuf",
	  "the share of datagrams sent", "2.75 (2.73-2.75)" },
	{ TW_SYM_UDP_SNDBUF, "net.core.wmem_max", "net-udp-wmem-max",
	  "the share of datagrams sent", "1.81 (1.80-1.82)" },
	{ TW_SYM_CGROUP_CACHE_BOUNDED, "limit", "cache-cgroup",
	  "the job's time (3 passes of 256 MiB, reads throttled to 100 MiB/s)",
	  "0.037 (0.031-0.042)" },
};

/* Tried on a kernel and not shown, from doc/LAB-GUEST.json (the guest
 * lab's whole run that doc/LAB-GUEST.md names): what was measured, and
 * why it shows nothing about the rule either way, as
 * doc/ADVICE-REFERENCE.md says at the rule. tests/proof_lab.py holds
 * them to that run. */
static const struct tw_proof_tried tried[] = {
	{ TW_SYM_READ_LATENCY_QUEUE, "queue/scheduler", "guest-disk-hdd-scheduler",
	  "the reader's clat p50 (ms): 0.92x (0.77-1.09, 5 pairs)",
	  "no effect beyond noise, on a file-backed disk that does not seek and a queue "
	  "mostly of reads" },
	{ TW_SYM_QUEUE_FULL, "queue/nr_requests", "guest-disk-virtio-nr-requests", "",
	  "no advice, as written: the queue held reads only, and the rule needs reads and "
	  "writes both" },
};

size_t
tw_proofs_tried(const struct tw_proof_tried **rows)
{
	*rows = tried;
	return sizeof(tried) / sizeof(tried[0]);
}

size_t
tw_proofs(const struct tw_proof **rows)
{
	*rows = proofs;
	return sizeof(proofs) / sizeof(proofs[0]);
}

/* A cgroup's limit, by whichever file or property the ticket names. */
static int
is_limit(const char *t)
{
	static const char *const names[] = { "MemoryHigh", "MemoryMax", "MemoryLimit",
	    "memory.high", "memory.max", "memory.limit_in_bytes" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(t, names[i]) == 0)
			return 1;
	return 0;
}

static int
matches(const char *knob, const char *t)
{
	size_t n = strlen(t), k = strlen(knob);

	if (strcmp(knob, "limit") == 0)
		return is_limit(t);
	if (strcmp(t, knob) == 0)
		return 1;
	/* "queue/read_ahead_kb" of any device: "/sys/block/sda/queue/..." */
	return tw_queue_attr(knob) != NULL && n > k && t[n - k - 1] == '/' &&
	    strcmp(t + n - k, knob) == 0;
}

const struct tw_proof *
tw_proof_find(enum tw_symptom sym, const char *tunable)
{
	size_t i;

	if (tunable == NULL || tunable[0] == '\0')
		return NULL;
	for (i = 0; i < sizeof(proofs) / sizeof(proofs[0]); i++)
		if (proofs[i].sym == sym && matches(proofs[i].knob, tunable))
			return &proofs[i];
	return NULL;
}

const struct tw_proof_tried *
tw_proof_tried_find(enum tw_symptom sym, const char *tunable)
{
	size_t i;

	if (tunable == NULL || tunable[0] == '\0')
		return NULL;
	for (i = 0; i < sizeof(tried) / sizeof(tried[0]); i++)
		if (tried[i].sym == sym && matches(tried[i].knob, tunable))
			return &tried[i];
	return NULL;
}

void
tw_proof_text(enum tw_symptom sym, const char *tunable, char *buf, size_t len)
{
	const struct tw_proof *p = tw_proof_find(sym, tunable);
	const struct tw_proof_tried *t;

	if (p == NULL && (t = tw_proof_tried_find(sym, tunable)) != NULL)
		snprintf(buf, len, "not yet shown on a kernel; tried in the guest lab's %s: %s%s%s "
		    "(doc/LAB-GUEST.md)", t->scenario, t->effect, t->effect[0] != '\0' ? ", " : "",
		    t->why);
	else if (p == NULL)
		snprintf(buf, len, "not yet shown on a kernel");
	else
		snprintf(buf, len, "lab scenario %s: %s at the new value over the old, %s "
		    "(95 %% interval), beyond its margin with a no-change control (doc/LAB.md)",
		    p->scenario, p->figure, p->effect);
}
