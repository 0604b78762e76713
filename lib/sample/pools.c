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

static struct tw_pool *
add(struct tw_pool_set *ps, uint32_t cls, uint32_t instance, const char *tunable,
    const char *event)
{
	struct tw_pool *p;
	void *grown;

	if (tw_array_grow(ps->pools, &ps->cap, ps->count + 1, sizeof(*p), &grown) != TW_OK)
		return NULL;
	ps->pools = grown;
	p = &ps->pools[ps->count++];
	memset(p, 0, sizeof(*p));
	p->cls = cls;
	p->instance = instance;
	p->tunable = tunable;
	p->event = event;
	p->failure_bits = 64;
	return p;
}

static void
set_limit_from(struct tw_pool *p, const struct tw_sample *s, enum tw_sysctl_id id, unsigned field)
{
	const struct tw_sysctl_value *v = &s->sysctl.v[id];
	int64_t limit;

	if (v->rc != TW_OK || tw_sysctl_field(v->text, field, &limit) != TW_OK || limit < 0)
		return;
	p->limit = (uint64_t)limit;
	p->has |= TW_POOL_HAS_LIMIT;
	if ((p->has & TW_POOL_HAS_IN_USE) && p->limit >= p->in_use) {
		p->free = p->limit - p->in_use;
		p->has |= TW_POOL_HAS_FREE;
	}
}

static void
set_failures(struct tw_pool *p, uint64_t v, uint8_t bits)
{
	p->failures = v;
	p->failure_bits = bits;
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

static int
add_softnet(const struct tw_sample *s, struct tw_pool_set *ps)
{
	size_t i;

	for (i = 0; i < s->softnet.count; i++) {
		const struct tw_softnet_cpu *c = &s->softnet.cpus[i];
		struct tw_pool *p;

		p = add(ps, TW_POOL_SOFTNET_BACKLOG, c->cpu, "net.core.netdev_max_backlog",
		    "packet dropped: the CPU's input queue was full");
		if (p == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "cpu%u backlog", (unsigned)c->cpu);
		if (c->has_backlog) {
			p->in_use = c->backlog_len;
			p->has |= TW_POOL_HAS_IN_USE;
		}
		set_limit_from(p, s, TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG, 0);
		set_failures(p, c->dropped, 32);

		p = add(ps, TW_POOL_SOFTNET_BUDGET, c->cpu, "net.core.netdev_budget",
		    "receive softirq ran out of budget with packets left (time_squeeze)");
		if (p == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "cpu%u budget", (unsigned)c->cpu);
		set_limit_from(p, s, TW_SYSCTL_NET_CORE_NETDEV_BUDGET, 0);
		set_failures(p, c->time_squeeze, 32);
	}
	return TW_OK;
}

static int
add_socket_pools(const struct tw_sample *s, struct tw_pool_set *ps)
{
	static const char *const tcp_mem[] = { "TCPMemoryPressures", NULL };
	static const char *const udp_mem[] = { "MemErrors", NULL };
	static const char *const udp_rcv[] = { "RcvbufErrors", NULL };
	static const char *const udp_snd[] = { "SndbufErrors", NULL };
	static const char *const tcp_rcv[] = {
		"RcvPruned", "OfoPruned", "TCPRcvQDrop", "TCPBacklogDrop", NULL
	};
	static const char *const listen[] = { "ListenOverflows", NULL };
	struct tw_pool *p;
	uint64_t v;
	int have_tcp_mem = (s->sock.present >> TW_SOCK_TCP_MEM) & 1;
	int have_udp_mem = (s->sock.present >> TW_SOCK_UDP_MEM) & 1;
	int found;

	found = net_sum(s, "TcpExt", tcp_mem, &v);
	if (found || have_tcp_mem) {
		if ((p = add(ps, TW_POOL_TCP_MEMORY, 0, "net.ipv4.tcp_mem",
		    "TCP entered memory pressure and shrank socket buffers")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "tcp memory");
		p->size = s->page_size;
		p->has |= TW_POOL_HAS_SIZE;
		if (have_tcp_mem) {
			p->in_use = s->sock.v[TW_SOCK_TCP_MEM];
			p->has |= TW_POOL_HAS_IN_USE;
		}
		set_limit_from(p, s, TW_SYSCTL_NET_IPV4_TCP_MEM, 2);
		if (found)
			set_failures(p, v, 64);
	}
	found = net_sum(s, "Udp", udp_mem, &v);
	if (found || have_udp_mem) {
		if ((p = add(ps, TW_POOL_UDP_MEMORY, 0, "net.ipv4.udp_mem",
		    "datagram dropped: UDP memory limit reached")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "udp memory");
		p->size = s->page_size;
		p->has |= TW_POOL_HAS_SIZE;
		if (have_udp_mem) {
			p->in_use = s->sock.v[TW_SOCK_UDP_MEM];
			p->has |= TW_POOL_HAS_IN_USE;
		}
		set_limit_from(p, s, TW_SYSCTL_NET_IPV4_UDP_MEM, 2);
		if (found)
			set_failures(p, v, 64);
	}
	if (net_sum(s, "Udp", udp_rcv, &v)) {
		if ((p = add(ps, TW_POOL_UDP_RCVBUF, 0, "net.core.rmem_max",
		    "datagram dropped: socket receive buffer full")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "udp receive buffer");
		set_limit_from(p, s, TW_SYSCTL_NET_CORE_RMEM_MAX, 0);
		set_failures(p, v, 64);
	}
	if (net_sum(s, "Udp", udp_snd, &v)) {
		if ((p = add(ps, TW_POOL_UDP_SNDBUF, 0, "net.core.wmem_max",
		    "datagram not sent: socket send buffer full")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "udp send buffer");
		set_limit_from(p, s, TW_SYSCTL_NET_CORE_WMEM_MAX, 0);
		set_failures(p, v, 64);
	}
	if (net_sum(s, "TcpExt", tcp_rcv, &v)) {
		if ((p = add(ps, TW_POOL_TCP_RCVBUF, 0, "net.ipv4.tcp_rmem",
		    "segment dropped: receive queue over its buffer")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "tcp receive buffer");
		set_limit_from(p, s, TW_SYSCTL_NET_IPV4_TCP_RMEM, 2);
		set_failures(p, v, 64);
	}
	if (net_sum(s, "TcpExt", listen, &v)) {
		if ((p = add(ps, TW_POOL_TCP_LISTEN, 0, "net.core.somaxconn",
		    "connection dropped: accept queue full")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "tcp listen queue");
		set_limit_from(p, s, TW_SYSCTL_NET_CORE_SOMAXCONN, 0);
		set_failures(p, v, 64);
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
	uint64_t total = 0;
	size_t i;
	struct tw_pool *p;

	for (i = 0; i < s->buddy.count; i++) {
		const struct tw_buddy_zone *z = &s->buddy.zones[i];
		uint64_t f = high_order_free(z);

		if ((p = add(ps, TW_POOL_BUDDY_ZONE,
		    z->node * 256 + tw_pool_zone_number(z->zone), "vm.min_free_kbytes",
		    "")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "node%u %s", (unsigned)z->node, z->zone);
		p->size = (uint64_t)s->page_size << 3;
		p->free = f;
		p->has |= TW_POOL_HAS_SIZE | TW_POOL_HAS_FREE;
		total = total > UINT64_MAX - f ? UINT64_MAX : total + f;
	}
	if (s->buddy.count > 0 || ((s->vm.present >> TW_VM_COMPACT_FAIL) & 1)) {
		if ((p = add(ps, TW_POOL_HIGH_ORDER, 0, "vm.min_free_kbytes",
		    "compaction failed to make a high-order block")) == NULL)
			return TW_E_NOMEM;
		snprintf(p->name, sizeof(p->name), "high-order pages");
		p->size = (uint64_t)s->page_size << 3;
		p->has |= TW_POOL_HAS_SIZE;
		if (s->buddy.count > 0) {
			p->free = total;
			p->has |= TW_POOL_HAS_FREE;
		}
		if ((s->vm.present >> TW_VM_COMPACT_FAIL) & 1)
			set_failures(p, s->vm.v[TW_VM_COMPACT_FAIL], 64);
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
	if (out->count > 1)
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
