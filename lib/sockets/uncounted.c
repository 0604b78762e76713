/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/uncounted.h"

#include <string.h>

#include "collect/sockstat.h"
#include "sockets/dropgate.h"
#include "util/error.h"

void
tw_uncounted_init(struct tw_uncounted *u)
{
	memset(u, 0, sizeof(*u));
	tw_netstat_set_init(&u->net);
}

void
tw_uncounted_free(struct tw_uncounted *u)
{
	tw_netstat_set_free(&u->net);
	memset(u, 0, sizeof(*u));
}

void
tw_uncounted_forget(struct tw_uncounted *u)
{
	u->before_valid = 0;
	u->had_near = 0;
	u->seen_near = 0;
	u->near_left = 0;
}

/* InErrors' sum now, from net/snmp and snmp6 under proc_fd. */
static int
gate_now(struct tw_uncounted *u, int proc_fd, struct tw_buf *scratch, uint64_t *sum)
{
	struct tw_parse_stats ps = { 0, 0 };
	int rc = tw_read_file_at(proc_fd, "net/snmp", scratch);

	if (rc != TW_OK)
		return rc;
	u->net.count = 0;
	if ((rc = tw_netstat_parse(scratch->data, scratch->len, &u->net, &ps)) != TW_OK)
		return rc;
	return tw_dropgate_sum(proc_fd, scratch, &u->net, sum);
}

/* Whether in_use pages are near limit (uncounted.h). */
static int
near(uint64_t in_use, uint64_t limit)
{
	return limit > 0 && in_use >= limit / 2;
}

/* Whether UDP memory is near its limit now: as the sample read it, or as
 * sockstat says right after the socket files. */
static int
near_now(int proc_fd, struct tw_buf *scratch, const struct tw_udp_memory *mem)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockstat st;

	if (mem == NULL || !mem->have_limit)
		return 0;
	if (mem->have_in_use && near(mem->in_use, mem->limit))
		return 1;
	memset(&st, 0, sizeof(st));
	return tw_sockstat_read(proc_fd, scratch, &st, &ps) == TW_OK &&
	    ((st.present >> TW_SOCK_UDP_MEM) & 1) && near(st.v[TW_SOCK_UDP_MEM], mem->limit);
}

void
tw_uncounted_look(struct tw_uncounted *u, int proc_fd, struct tw_buf *scratch,
    const struct tw_udp_memory *mem)
{
	struct tw_udp_memory limit_only;

	/* One look near is enough for the interval. */
	if (mem == NULL || u->seen_near)
		return;
	/* The sample's figure is old by now: read it again. */
	limit_only = *mem;
	limit_only.have_in_use = 0;
	if (near_now(proc_fd, scratch, &limit_only))
		u->seen_near = 1;
}

int
tw_uncounted_after_read(struct tw_uncounted *u, int proc_fd, struct tw_buf *scratch,
    int first, int before_valid, uint64_t before, uint64_t grown,
    const struct tw_udp_memory *mem)
{
	uint64_t after = 0;
	int rc = gate_now(u, proc_fd, scratch, &after), is_near, found = 0;

	if (rc == TW_E_NOMEM)
		return rc;
	is_near = near_now(proc_fd, scratch, mem);
	if (is_near || u->had_near || u->seen_near)
		u->near_left = u->window > 0 ? u->window : 1;
	/* A counter that went back (a reset) tells nothing. */
	if (!first && rc == TW_OK && u->before_valid && after >= u->before) {
		uint64_t counted = after - u->before;

		u->known = 1;
		if (grown > counted && u->near_left > 0)
			u->count += grown - counted;
		else if (grown > counted)
			u->far += grown - counted;
		found = grown > counted;
	}
	u->before_valid = before_valid;
	u->before = before;
	u->had_near = is_near;
	u->seen_near = 0;
	if (u->near_left > 0)
		u->near_left--;
	return found;
}
