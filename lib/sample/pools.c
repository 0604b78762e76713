/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/pools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

void
tw_pool_set_init(struct tw_pool_set *ps)
{
	memset(ps, 0, sizeof(*ps));
}

void
tw_pool_set_free(struct tw_pool_set *ps)
{
	free(ps->pools);
	memset(ps, 0, sizeof(*ps));
}

/* "cpu1 backlog", written out by hand: this runs for two pools of every
 * CPU on every sample, where snprintf would cost more than the rest of
 * building the pool. A name too long for out (none can be) is empty. */
static void
name_cpu_pool(char *out, size_t len, uint32_t cpu, const char *word)
{
	char digits[10];
	size_t nd = 0, n = 3, wlen = strlen(word);

	do {
		digits[nd++] = (char)('0' + cpu % 10);
		cpu /= 10;
	} while (cpu > 0);
	if (n + nd + 1 + wlen >= len) {
		out[0] = '\0';
		return;
	}
	memcpy(out, "cpu", n);
	while (nd > 0)
		out[n++] = digits[--nd];
	out[n++] = ' ';
	memcpy(out + n, word, wlen + 1);
}

/* A new pool of class c, named and sized as its row says; the caller
 * fills in what it read. */
static struct tw_pool *
add(struct tw_pool_set *ps, const struct tw_sample *s, const struct tw_pool_class *c,
    uint32_t instance)
{
	struct tw_pool *p;
	void *grown;

	if (tw_array_grow(ps->pools, &ps->cap, ps->count + 1, sizeof(*p), &grown) != TW_OK)
		return NULL;
	ps->pools = grown;
	p = &ps->pools[ps->count++];
	memset(p, 0, sizeof(*p));
	p->cls = c->id;
	p->instance = instance;
	p->cpu = c->per == TW_POOL_PER_CPU ? (int32_t)instance : -1;
	p->tunable = tw_sysctl_name(c->tunable);
	p->event = c->event;
	p->failure_bits = c->failure_bits;
	if (c->per == TW_POOL_PER_HOST)
		snprintf(p->name, sizeof(p->name), "%s", c->name);
	else if (c->per == TW_POOL_PER_CPU)
		name_cpu_pool(p->name, sizeof(p->name), instance, c->name);
	if (c->size_pages > 0) {
		p->size = (uint64_t)s->page_size * c->size_pages;
		p->has |= TW_POOL_HAS_SIZE;
	}
	return p;
}

/* The limit from the class's tunable, and free as the limit minus what is
 * in use when the kernel gives no free count: set in_use first. */
static void
set_limit(struct tw_pool *p, const struct tw_sample *s, const struct tw_pool_class *c)
{
	const struct tw_sysctl_value *v = &s->sysctl.v[c->tunable];
	int64_t limit;

	if (c->limit_field == TW_POOL_NO_LIMIT || v->rc != TW_OK ||
	    tw_sysctl_field(v->text, (unsigned)c->limit_field, &limit) != TW_OK || limit < 0)
		return;
	p->limit = (uint64_t)limit;
	p->has |= TW_POOL_HAS_LIMIT;
	if ((p->has & TW_POOL_HAS_IN_USE) && p->limit >= p->in_use) {
		p->free = p->limit - p->in_use;
		p->has |= TW_POOL_HAS_FREE;
	}
}

static void
set_failures(struct tw_pool *p, uint64_t v)
{
	p->failures = v;
	p->has |= TW_POOL_HAS_FAILURES;
}

/* Sum of the named counters of one protocol; 0 when none exists. */
static int
net_sum(const struct tw_sample *s, const char *proto, const char *const *names, uint64_t *sum)
{
	int found = 0;

	*sum = 0;
	for (; *names != NULL; names++) {
		uint64_t v;

		if (tw_netstat_get(&s->net, proto, *names, &v) == TW_OK) {
			*sum += v;
			found = 1;
		}
	}
	return found;
}

/* Every CPU's backlog, then every CPU's budget: in the order of their
 * keys, so that the set needs no sorting when softnet_stat's rows are in
 * CPU order, as the kernel writes them. */
static int
add_softnet(const struct tw_sample *s, struct tw_pool_set *ps)
{
	const struct tw_pool_class *backlog = tw_pool_class_find(TW_DBLOCK_SOFTNET_BACKLOG);
	const struct tw_pool_class *budget = tw_pool_class_find(TW_DBLOCK_SOFTNET_BUDGET);
	size_t i;

	if (backlog == NULL || budget == NULL)
		return TW_E_INVAL;
	for (i = 0; i < s->softnet.count; i++) {
		const struct tw_softnet_cpu *c = &s->softnet.cpus[i];
		struct tw_pool *p;

		if ((p = add(ps, s, backlog, c->cpu)) == NULL)
			return TW_E_NOMEM;
		if (c->has_backlog) {
			p->in_use = c->backlog_len;
			p->has |= TW_POOL_HAS_IN_USE;
		}
		set_limit(p, s, backlog);
		set_failures(p, c->dropped);
	}
	for (i = 0; i < s->softnet.count; i++) {
		const struct tw_softnet_cpu *c = &s->softnet.cpus[i];
		struct tw_pool *p;

		if ((p = add(ps, s, budget, c->cpu)) == NULL)
			return TW_E_NOMEM;
		set_limit(p, s, budget);
		set_failures(p, c->time_squeeze);
	}
	return TW_OK;
}

/* One pool for each socket class whose counters or sockstat field this
 * sample has. */
static int
add_socket_pools(const struct tw_sample *s, struct tw_pool_set *ps)
{
	size_t k;

	for (k = 0; k < tw_pool_nclasses; k++) {
		const struct tw_pool_class *c = &tw_pool_classes[k];
		struct tw_pool *p;
		uint64_t v;
		int found, have_in_use;

		if (c->proto == NULL)
			continue;
		found = net_sum(s, c->proto, c->counters, &v);
		if (c->udp_uncounted && s->have_udp_uncounted) {
			v += s->udp_uncounted;
			found = 1;
		}
		have_in_use = c->sock_in_use >= 0 && ((s->sock.present >> c->sock_in_use) & 1);
		if (!found && !have_in_use && !(c->tcp_pressure && s->have_tcp_pressure))
			continue;
		if ((p = add(ps, s, c, 0)) == NULL)
			return TW_E_NOMEM;
		if (have_in_use) {
			p->in_use = s->sock.v[c->sock_in_use];
			p->has |= TW_POOL_HAS_IN_USE;
		}
		set_limit(p, s, c);
		if (found)
			set_failures(p, v);
		if (c->tcp_pressure && s->have_tcp_pressure) {
			p->pressure_ms = s->tcp_pressure_ms;
			p->has |= TW_POOL_HAS_PRESSURE;
		}
	}
	return TW_OK;
}

unsigned
tw_pool_zone_number(const char *zone)
{
	static const char *const zones[] = {
		"DMA", "DMA32", "Normal", "HighMem", "Movable", "Device"
	};
	unsigned i;

	for (i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (strcmp(zone, zones[i]) == 0)
			return i;
	return 255;
}

/* Free blocks of order 3 and above, counted in order-3 blocks (32 KiB with
 * 4 KiB pages): what a jumbo frame or a large socket buffer needs. */
static uint64_t
high_order_free(const struct tw_buddy_zone *z)
{
	uint64_t sum = 0;
	uint32_t o;

	for (o = 3; o < z->norders && o < TW_BUDDY_MAX_ORDERS; o++) {
		uint64_t blocks = z->free[o];
		unsigned shift = o - 3;

		if (shift >= 64 || blocks > (UINT64_MAX >> shift))
			return UINT64_MAX;
		blocks <<= shift;
		if (sum > UINT64_MAX - blocks)
			return UINT64_MAX;
		sum += blocks;
	}
	return sum;
}

static int
add_memory_pools(const struct tw_sample *s, struct tw_pool_set *ps)
{
	const struct tw_pool_class *zone = tw_pool_class_find(TW_DBLOCK_BUDDY_ZONE);
	const struct tw_pool_class *high = tw_pool_class_find(TW_DBLOCK_HIGH_ORDER);
	int have_fail = (s->vm.present >> TW_VM_COMPACT_FAIL) & 1;
	uint64_t total = 0;
	size_t i;
	struct tw_pool *p;

	if (zone == NULL || high == NULL)
		return TW_E_INVAL;
	for (i = 0; i < s->buddy.count; i++) {
		const struct tw_buddy_zone *z = &s->buddy.zones[i];
		uint64_t f = high_order_free(z);

		if ((p = add(ps, s, zone, z->node * 256 + tw_pool_zone_number(z->zone))) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "node%u %s", (unsigned)z->node, z->zone);
		p->free = f;
		p->has |= TW_POOL_HAS_FREE;
		total = total > UINT64_MAX - f ? UINT64_MAX : total + f;
	}
	if (s->buddy.count > 0 || have_fail) {
		if ((p = add(ps, s, high, 0)) == NULL)
			return TW_E_NOMEM;
		if (s->buddy.count > 0) {
			p->free = total;
			p->has |= TW_POOL_HAS_FREE;
		}
		if (have_fail)
			set_failures(p, s->vm.v[TW_VM_COMPACT_FAIL]);
	}
	return TW_OK;
}

static int
cmp_pool(const void *a, const void *b)
{
	const struct tw_pool *pa = a, *pb = b;
	uint64_t ka = tw_pool_key(pa), kb = tw_pool_key(pb);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return strcmp(pa->name, pb->name);
}

int
tw_pools_build(const struct tw_sample *s, struct tw_pool_set *out)
{
	size_t i, n = 0;
	int rc;

	out->count = 0;
	if ((rc = add_softnet(s, out)) != TW_OK || (rc = add_socket_pools(s, out)) != TW_OK ||
	    (rc = add_memory_pools(s, out)) != TW_OK)
		return rc;
	/* They come in order but for softnet_stat rows out of CPU order (a
	 * damaged CPU column): a thousand CPUs' pools are checked, not
	 * sorted, each sample. */
	for (i = 1; i < out->count; i++)
		if (cmp_pool(&out->pools[i - 1], &out->pools[i]) > 0)
			break;
	if (i < out->count)
		qsort(out->pools, out->count, sizeof(out->pools[0]), cmp_pool);
	/* Two softnet rows naming one CPU, or two zones of one name on a
	 * node, would collide: keep one, the same one every time. */
	for (i = 0; i < out->count; i++) {
		if (n > 0 && tw_pool_key(&out->pools[n - 1]) == tw_pool_key(&out->pools[i]))
			continue;
		if (n != i)
			out->pools[n] = out->pools[i];
		n++;
	}
	out->count = n;
	return TW_OK;
}
