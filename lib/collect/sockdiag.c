/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/sockdiag.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "collect/udpsock.h"
#include "util/array.h"
#include "util/error.h"
#include "util/sorted.h"

#ifndef IPPROTO_UDPLITE
#define IPPROTO_UDPLITE 136
#endif

/* One receive buffer: the kernel sends a dump in parts of about a page
 * each; 32 KiB takes several at once. */
#define DIAG_BUF 32768
/* A dump of a million sockets is some 4,000 buffers: more is a loop. */
#define DIAG_MAX_RECV 100000

static uint64_t
inode_key(const void *mem, size_t i)
{
	return ((const struct tw_sock_mem *)mem)[i].inode;
}

static struct tw_sock_mem *
find(struct tw_sock_mem *mem, size_t n, uint32_t inode)
{
	size_t i = tw_sorted_find(mem, n, inode_key, inode);

	return i < n ? &mem[i] : NULL;
}

static int
errno_rc(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return TW_E_ACCESS;
	case ENOENT:
	case EOPNOTSUPP:
	case EPROTONOSUPPORT:
	case EAFNOSUPPORT:
		return TW_E_ABSENT;
	}
	return TW_E_IO;
}

/* The memory counters of one socket's message, the first nv of them; 1 when
 * the kernel sent that many, 0 when it sent none or fewer. */
static int
meminfo(const struct inet_diag_msg *m, size_t len, uint32_t *v, size_t nv)
{
	const struct rtattr *rta = (const struct rtattr *)(m + 1);
	unsigned int rlen = (unsigned int)len;
	int have = 0;

	for (; RTA_OK(rta, rlen); rta = RTA_NEXT(rta, rlen))
		if (rta->rta_type == INET_DIAG_SKMEMINFO && RTA_PAYLOAD(rta) >= nv * sizeof(*v)) {
			memcpy(v, RTA_DATA(rta), nv * sizeof(*v));
			have = 1;
		}
	return have;
}

/* One socket of a dump, with the length of the attributes after it:
 * 0 to go on, or an error that ends the dump. */
typedef int sock_fn(const struct inet_diag_msg *m, size_t attr_len, void *ctx);

/* Each socket of one buffer of the kernel's answers to fn: 1 when the
 * dump is done, 0 when more buffers follow, else an error (the kernel's
 * or fn's). */
static int
each_sock(const void *buf, size_t len, sock_fn *fn, void *ctx)
{
	const struct nlmsghdr *h = buf;
	unsigned int left = (unsigned int)len;

	for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		const struct inet_diag_msg *m;
		int rc;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return TW_E_IO;
			return e->error == 0 ? 1 : errno_rc(-e->error);
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
			continue;
		m = NLMSG_DATA(h);
		if ((rc = fn(m, h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)), ctx)) != 0)
			return rc;
	}
	return 0;
}

struct query {
	struct tw_sock_mem *mem;
	size_t n;
};

static int
query_sock(const struct inet_diag_msg *m, size_t attr_len, void *ctx)
{
	struct query *q = ctx;
	struct tw_sock_mem *s = find(q->mem, q->n, m->idiag_inode);
	uint32_t v[SK_MEMINFO_RCVBUF + 1];

	if (s != NULL && meminfo(m, attr_len, v, SK_MEMINFO_RCVBUF + 1)) {
		s->rmem_alloc = v[SK_MEMINFO_RMEM_ALLOC];
		s->rcvbuf = v[SK_MEMINFO_RCVBUF];
		s->have = 1;
	}
	return 0;
}

int
tw_sockdiag_parse(const void *buf, size_t len, struct tw_sock_mem *mem, size_t n)
{
	struct query q = { mem, n };

	return each_sock(buf, len, query_sock, &q);
}

/* A dump of one protocol's sockets, each handed to fn. */
static int
dump_req(unsigned family, unsigned protocol, uint32_t states, unsigned ext, sock_fn *fn,
    void *ctx)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct timeval tv = { 1, 0 };
	unsigned i;
	char *buf;
	int fd, rc = TW_E_IO;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = 1;
	req.r.sdiag_family = (uint8_t)family;
	req.r.sdiag_protocol = (uint8_t)protocol;
	req.r.idiag_states = states;
	req.r.idiag_ext = (uint8_t)ext;

	if ((fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG)) < 0)
		return errno_rc(errno);
	/* A kernel that never answers must not hold up the sample. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if ((buf = malloc(DIAG_BUF)) == NULL) {
		close(fd);
		return TW_E_NOMEM;
	}
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&nl, sizeof(nl)) < 0) {
		rc = errno_rc(errno);
		goto out;
	}
	for (i = 0; i < DIAG_MAX_RECV; i++) {
		ssize_t got = recv(fd, buf, DIAG_BUF, 0);
		int r;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got < 0 ? errno_rc(errno) : TW_E_IO;
			break;
		}
		if ((r = each_sock(buf, (size_t)got, fn, ctx)) != 0) {
			rc = r == 1 ? TW_OK : r;
			break;
		}
	}
out:
	free(buf);
	close(fd);
	return rc;
}

static int
dump(unsigned proto, sock_fn *fn, void *ctx)
{
	if (tw_udp_proto_file(proto) == NULL)
		return TW_E_INVAL;
	return dump_req(proto == TW_UDP_UDP6 || proto == TW_UDP_LITE6 ? AF_INET6 : AF_INET,
	    proto == TW_UDP_LITE || proto == TW_UDP_LITE6 ? IPPROTO_UDPLITE : IPPROTO_UDP, ~0u,
	    1u << (INET_DIAG_SKMEMINFO - 1), fn, ctx);
}

int
tw_sockdiag_query(unsigned proto, struct tw_sock_mem *mem, size_t n)
{
	struct query q = { mem, n };

	if (tw_udp_proto_file(proto) == NULL)
		return TW_E_INVAL;
	if (n == 0)
		return TW_OK;
	return dump(proto, query_sock, &q);
}

/* The sockets that dropped, from one buffer of a dump (tw_sockdiag_read). */
struct reading {
	unsigned proto;
	struct tw_udp_set *out;
};

static int
read_sock(const struct inet_diag_msg *m, size_t attr_len, void *ctx)
{
	struct reading *rd = ctx;
	uint32_t v[SK_MEMINFO_DROPS + 1];
	struct tw_udp_sock s;
	void *grown;

	/* A kernel that gives no drops count: the files must say. */
	if (!meminfo(m, attr_len, v, SK_MEMINFO_DROPS + 1))
		return TW_E_ABSENT;
	rd->out->seen++;
	if (v[SK_MEMINFO_DROPS] == 0)
		return 0;
	memset(&s, 0, sizeof(s));
	s.proto = (uint8_t)rd->proto;
	s.inode = m->idiag_inode;
	s.drops = v[SK_MEMINFO_DROPS];
	s.uid = m->idiag_uid;
	s.rx_queue = m->idiag_rqueue;
	s.port = ntohs(m->id.idiag_sport);
	memcpy(s.addr, m->id.idiag_src, m->idiag_family == AF_INET6 ? 16 : 4);
	s.have_mem = 1;
	s.rcvbuf = v[SK_MEMINFO_RCVBUF];
	s.rmem_alloc = v[SK_MEMINFO_RMEM_ALLOC];
	if (tw_array_grow(rd->out->socks, &rd->out->cap, rd->out->count + 1, sizeof(s),
	    &grown) != TW_OK)
		return TW_E_NOMEM;
	rd->out->socks = grown;
	rd->out->socks[rd->out->count++] = s;
	return 0;
}

int
tw_sockdiag_read(unsigned proto, struct tw_udp_set *out)
{
	struct reading rd = { proto, out };

	return dump(proto, read_sock, &rd);
}

int
tw_sockdiag_read_all(struct tw_udp_set *out)
{
	unsigned proto;
	int rc;

	out->count = 0;
	out->seen = 0;
	for (proto = 1; proto <= TW_UDP_NPROTO; proto++) {
		rc = tw_sockdiag_read(proto, out);
		if (rc == TW_E_NOMEM || (rc != TW_OK && proto == TW_UDP_UDP))
			return rc;
		/* No IPv6, no UDP-Lite: none of those sockets. */
	}
	tw_udp_set_sort(out);
	return TW_OK;
}

/* TCP listeners, from one buffer of a dump (tw_sockdiag_listeners). */
struct listeners {
	tw_listener_fn *fn;
	void *ctx;
};

static int
listener_sock(const struct inet_diag_msg *m, size_t attr_len, void *ctx)
{
	struct listeners *l = ctx;

	(void)attr_len;
	/* A listener's rqueue is its accept queue, wqueue its backlog
	 * (inet_diag's own convention for LISTEN). */
	l->fn(l->ctx, m->idiag_uid, ntohs(m->id.idiag_sport), m->idiag_rqueue, m->idiag_wqueue);
	return 0;
}

int
tw_sockdiag_listeners(tw_listener_fn *fn, void *ctx)
{
	struct listeners l = { fn, ctx };
	int rc = dump_req(AF_INET, IPPROTO_TCP, 1u << 10, 0, listener_sock, &l);

	if (rc != TW_OK)
		return rc;
	rc = dump_req(AF_INET6, IPPROTO_TCP, 1u << 10, 0, listener_sock, &l);
	return rc == TW_E_ABSENT ? TW_OK : rc;
}
