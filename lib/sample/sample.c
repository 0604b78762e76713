/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/sample.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

void
tw_sample_init(struct tw_sample *s)
{
	memset(s, 0, sizeof(*s));
	tw_disk_set_init(&s->disks);
	tw_proc_io_set_init(&s->procs);
	tw_softnet_set_init(&s->softnet);
	tw_netstat_set_init(&s->net);
	tw_buddy_set_init(&s->buddy);
	tw_sample_cgroups_init(&s->cgroups);
	s->page_size = 4096;
}

void
tw_sample_free(struct tw_sample *s)
{
	tw_disk_set_free(&s->disks);
	free(s->queues);
	free(s->idents);
	tw_proc_io_set_free(&s->procs);
	tw_softnet_set_free(&s->softnet);
	tw_netstat_set_free(&s->net);
	tw_buddy_set_free(&s->buddy);
	tw_sample_cgroups_free(&s->cgroups);
	memset(s, 0, sizeof(*s));
}

void
tw_sample_clear(struct tw_sample *s)
{
	int i;

	s->mono_ms = 0;
	s->have = 0;
	for (i = 0; i < TW_SRC_COUNT; i++)
		s->err[i] = TW_E_ABSENT;
	s->disks.count = 0;
	memset(&s->mem, 0, sizeof(s->mem));
	memset(&s->vm, 0, sizeof(s->vm));
	memset(&s->psi_memory, 0, sizeof(s->psi_memory));
	memset(&s->psi_io, 0, sizeof(s->psi_io));
	s->procs.count = 0;
	s->procs.unreadable = 0;
	s->softnet.count = 0;
	memset(&s->sock, 0, sizeof(s->sock));
	s->net.count = 0;
	memset(&s->protos, 0, sizeof(s->protos));
	s->have_tcp_pressure = 0;
	s->tcp_pressure_ms = 0;
	s->have_udp_uncounted = 0;
	s->udp_uncounted = 0;
	s->buddy.count = 0;
	s->cgroups.count = 0;
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		s->sysctl.v[i].rc = TW_E_ABSENT;
		s->sysctl.v[i].text[0] = '\0';
	}
	s->parse.lines = 0;
	s->parse.malformed = 0;
}

int
tw_sample_reserve_queues(struct tw_sample *s, size_t n)
{
	void *p;
	size_t i;
	int rc = tw_array_grow(s->queues, &s->queues_cap, n, sizeof(*s->queues), &p);

	s->queues = p;
	if (rc != TW_OK)
		return rc;
	rc = tw_array_grow(s->idents, &s->idents_cap, n, sizeof(*s->idents), &p);
	s->idents = p;
	if (rc != TW_OK)
		return rc;
	for (i = 0; i < n; i++)
		tw_ident_init(&s->idents[i]);
	return TW_OK;
}
