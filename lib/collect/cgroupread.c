#include "config.h"

#include "collect/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect/pressure.h"
#include "util/error.h"

/* v1 writes an unset limit as PAGE_COUNTER_MAX pages in bytes
 * (9223372036854771712 on 4 KiB pages): anything this large is no limit. */
#define V1_UNLIMITED (UINT64_C(1) << 62)

static void
set(struct tw_cgroup *cg, enum tw_cg_field f, uint64_t v)
{
	cg->v[f] = v;
	cg->present |= TW_CG_BIT(f);
}

/* ---- Parsers ------------------------------------------------------------ */

struct memstat_ctx {
	struct tw_cgroup *cg;
	enum tw_cg_version ver;
	int refault_file;	/* workingset_refault_file seen: it wins */
};

/* "key value" lines; keys this reader does not use are skipped. */
static int
memstat_line(void *ctx, const char *line, size_t len)
{
	struct memstat_ctx *m = ctx;
	struct tw_tokens it;
	const char *k, *v;
	size_t klen, vlen;
	uint64_t n;
	int v1 = m->ver == TW_CG_V1;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &k, &klen) || !tw_tokens_next(&it, &v, &vlen) ||
	    tw_tokens_next(&it, &v, &vlen) || tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(k, klen, v1 ? "total_cache" : "file")) {
		set(m->cg, TW_CG_CACHE, n);
	} else if (tw_token_is(k, klen, v1 ? "total_workingset_refault_file" :
	    "workingset_refault_file")) {
		set(m->cg, TW_CG_REFAULTS, n);
		m->refault_file = 1;
	} else if (!m->refault_file && tw_token_is(k, klen, v1 ? "total_workingset_refault" :
	    "workingset_refault")) {
		set(m->cg, TW_CG_REFAULTS, n);
	}
	return TW_OK;
}

int
tw_cgroup_parse_memstat(enum tw_cg_version ver, const char *text, size_t len,
    struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct memstat_ctx m = { out, ver, 0 };

	return tw_parse_lines(text, len, memstat_line, &m, ps);
}

/* "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0", one line a
 * device; summed over the devices. */
static int
iostat_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *tok;
	size_t tlen;
	uint64_t r = 0, w = 0, n;
	unsigned seen = 0;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok, &tlen) || memchr(tok, ':', tlen) == NULL)
		return TW_E_INVAL;
	while (tw_tokens_next(&it, &tok, &tlen)) {
		const char *eq = memchr(tok, '=', tlen);
		size_t klen;

		if (eq == NULL)
			return TW_E_INVAL;
		klen = (size_t)(eq - tok);
		if (tw_parse_u64(eq + 1, tlen - klen - 1, &n) != TW_OK)
			return TW_E_INVAL;
		if (tw_token_is(tok, klen, "rbytes")) {
			r = n;
			seen |= 1;
		} else if (tw_token_is(tok, klen, "wbytes")) {
			w = n;
			seen |= 2;
		}
	}
	if (seen != 3)
		return TW_E_INVAL;
	set(cg, TW_CG_READ_BYTES, cg->v[TW_CG_READ_BYTES] + r);
	set(cg, TW_CG_WRITE_BYTES, cg->v[TW_CG_WRITE_BYTES] + w);
	return TW_OK;
}

int
tw_cgroup_parse_iostat(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	/* An empty io.stat is a cgroup that did no I/O: zero, not absent. */
	if ((out->present & TW_CG_BIT(TW_CG_READ_BYTES)) == 0) {
		set(out, TW_CG_READ_BYTES, 0);
		set(out, TW_CG_WRITE_BYTES, 0);
	}
	return tw_parse_lines(text, len, iostat_line, out, ps);
}

/* "8:0 Read 4096" ... "8:0 Total 8192", then "Total 8192": the Read and
 * Write lines of each device. */
static int
blkio_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *dev, *op, *v;
	size_t dlen, olen, vlen;
	uint64_t n;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &dev, &dlen))
		return TW_E_INVAL;
	if (tw_token_is(dev, dlen, "Total"))
		return tw_tokens_count(&it) == 1 ? TW_OK : TW_E_INVAL;
	if (memchr(dev, ':', dlen) == NULL || !tw_tokens_next(&it, &op, &olen) ||
	    !tw_tokens_next(&it, &v, &vlen) || tw_tokens_next(&it, &v, &vlen) ||
	    tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(op, olen, "Read"))
		set(cg, TW_CG_READ_BYTES, cg->v[TW_CG_READ_BYTES] + n);
	else if (tw_token_is(op, olen, "Write"))
		set(cg, TW_CG_WRITE_BYTES, cg->v[TW_CG_WRITE_BYTES] + n);
	return TW_OK;
}

int
tw_cgroup_parse_blkio(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	if ((out->present & TW_CG_BIT(TW_CG_READ_BYTES)) == 0) {
		set(out, TW_CG_READ_BYTES, 0);
		set(out, TW_CG_WRITE_BYTES, 0);
	}
	return tw_parse_lines(text, len, blkio_line, out, ps);
}

/* memory.events: "low 0", "high 12", "max 3", "oom 0", "oom_kill 0": the
 * times the cgroup was throttled at memory.high or reclaimed at
 * memory.max. */
static int
events_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *k, *v;
	size_t klen, vlen;
	uint64_t n;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &k, &klen) || !tw_tokens_next(&it, &v, &vlen) ||
	    tw_tokens_next(&it, &v, &vlen) || tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(k, klen, "high") || tw_token_is(k, klen, "max"))
		set(cg, TW_CG_LIMIT_EVENTS, cg->v[TW_CG_LIMIT_EVENTS] + n);
	return TW_OK;
}

int
tw_cgroup_parse_events(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, events_line, out, ps);
}

/* ---- Files -------------------------------------------------------------- */

/* The largest cgroup file read: memory.stat is about 2 KiB, io.stat a line
 * per device. */
#define FILE_MAX (1u << 20)

/* Read a small file in as few system calls as it takes. A cgroup file is
 * a seq_file whose text is made whole by one read: a read that leaves room
 * in the buffer has reached the end, so no second read is made to learn
 * so (a quarter of the calls of a read until 0). */
static int
read_small(int dirfd, const char *name, struct tw_buf *b)
{
	int fd, rc = TW_OK;

	b->len = 0;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT ? TW_E_ABSENT : TW_E_IO;
	for (;;) {
		size_t room;
		ssize_t n;

		if ((rc = tw_buf_reserve(b, b->len + 8192 + 1)) != TW_OK)
			break;
		room = b->cap - b->len - 1;
		n = read(fd, b->data + b->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = TW_E_IO;	/* EOPNOTSUPP: a pressure file with psi=0 */
			break;
		}
		b->len += (size_t)n;
		if ((size_t)n < room)
			break;
		if (b->len > FILE_MAX) {
			rc = TW_E_TOOBIG;
			break;
		}
	}
	close(fd);
	if (rc != TW_OK)
		b->len = 0;
	if (b->data != NULL)
		b->data[b->len] = '\0';
	return rc;
}

/* A one-number file ("67108864", "max"): "max" and a v1 unlimited value
 * leave the field absent. A value that does not parse is one malformed
 * line. */
static void
read_value(int dirfd, const char *name, enum tw_cg_field f, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	size_t len;
	uint64_t n;

	if (read_small(dirfd, name, b) != TW_OK)
		return;
	ps->lines++;
	len = b->len;
	while (len > 0 && (b->data[len - 1] == '\n' || b->data[len - 1] == ' '))
		len--;
	if (len == 3 && memcmp(b->data, "max", 3) == 0)
		return;
	if (tw_parse_u64(b->data, len, &n) != TW_OK) {
		ps->malformed++;
		return;
	}
	if (n < V1_UNLIMITED)
		set(cg, f, n);
}

typedef int file_parser(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

static void
read_parsed(int dirfd, const char *name, file_parser *parse, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	if (read_small(dirfd, name, b) == TW_OK)
		(void)parse(b->data, b->len, cg, ps);
}

static void
read_memstat(int dirfd, enum tw_cg_version ver, struct tw_buf *b, struct tw_cgroup *cg,
    struct tw_parse_stats *ps)
{
	if (read_small(dirfd, "memory.stat", b) == TW_OK)
		(void)tw_cgroup_parse_memstat(ver, b->data, b->len, cg, ps);
}

static void
read_psi(int dirfd, const char *name, enum tw_cg_field f, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	struct tw_psi psi;

	memset(&psi, 0, sizeof(psi));
	if (read_small(dirfd, name, b) == TW_OK &&
	    tw_psi_parse(b->data, b->len, &psi, ps) == TW_OK && psi.has_some)
		set(cg, f, psi.some.avg10);
}

/* Open the cgroup's directory under one hierarchy ("fs/cgroup/memory"). */
static int
open_dir(int sys_fd, const char *hier, const char *path)
{
	char rel[TW_CG_PATH_LEN + 32];

	if (snprintf(rel, sizeof(rel), "%s%s", hier, path) >= (int)sizeof(rel))
		return -1;
	return openat(sys_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void
read_v1_io(int sys_fd, const char *path, struct tw_buf *b, struct tw_cgroup *cg,
    struct tw_parse_stats *ps)
{
	int io;

	/* The blkio hierarchy mirrors the memory one under systemd; where it
	 * does not, the cgroup simply has no I/O figures. */
	if ((io = open_dir(sys_fd, "fs/cgroup/blkio", path)) < 0)
		return;
	if (read_small(io, "blkio.throttle.io_service_bytes_recursive", b) == TW_OK ||
	    read_small(io, "blkio.throttle.io_service_bytes", b) == TW_OK)
		(void)tw_cgroup_parse_blkio(b->data, b->len, cg, ps);
	close(io);
}

int
tw_cgroup_read_at(int dirfd, int sys_fd, enum tw_cg_version ver, const char *path,
    unsigned what, struct tw_buf *b, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	out->present = 0;
	memset(out->v, 0, sizeof(out->v));
	if (ver == TW_CG_V2) {
		if (what & TW_CG_READ_LIMITS) {
			read_value(dirfd, "memory.high", TW_CG_HIGH, b, out, ps);
			read_value(dirfd, "memory.max", TW_CG_MAX, b, out, ps);
		}
		if (what & TW_CG_READ_IO)
			read_parsed(dirfd, "io.stat", tw_cgroup_parse_iostat, b, out, ps);
		if (what & TW_CG_READ_MEMORY) {
			read_value(dirfd, "memory.current", TW_CG_USAGE, b, out, ps);
			read_memstat(dirfd, ver, b, out, ps);
			read_parsed(dirfd, "memory.events", tw_cgroup_parse_events, b, out, ps);
		}
		if (what & TW_CG_READ_PSI) {
			read_psi(dirfd, "memory.pressure", TW_CG_MEM_PSI, b, out, ps);
			read_psi(dirfd, "io.pressure", TW_CG_IO_PSI, b, out, ps);
		}
		return TW_OK;
	}
	if (ver != TW_CG_V1)
		return TW_E_INVAL;
	if (what & TW_CG_READ_LIMITS)
		read_value(dirfd, "memory.limit_in_bytes", TW_CG_MAX, b, out, ps);
	if (what & TW_CG_READ_MEMORY) {
		read_value(dirfd, "memory.usage_in_bytes", TW_CG_USAGE, b, out, ps);
		read_value(dirfd, "memory.failcnt", TW_CG_LIMIT_EVENTS, b, out, ps);
		read_memstat(dirfd, ver, b, out, ps);
	}
	if (what & TW_CG_READ_IO)
		read_v1_io(sys_fd, path, b, out, ps);
	return TW_OK;
}

int
tw_cgroup_read(int sys_fd, enum tw_cg_version ver, const char *path, unsigned what,
    struct tw_buf *b, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	int fd, rc;

	if (ver != TW_CG_V1 && ver != TW_CG_V2)
		return TW_E_INVAL;
	fd = open_dir(sys_fd, ver == TW_CG_V1 ? "fs/cgroup/memory" : "fs/cgroup", path);
	if (fd < 0)
		return TW_E_ABSENT;
	rc = tw_cgroup_read_at(fd, sys_fd, ver, path, what, b, out, ps);
	close(fd);
	return rc;
}
