/* SPDX-License-Identifier: ISC */
#include "config.h"

/* What every line collector owes its callers, checked from one table:
 *
 * - a read of a file that is not there is TW_E_ABSENT and leaves nothing
 *   behind (not the last parse's data, not garbage), counting no line;
 * - any corruption of a real capture parses without error or crash, every
 *   line is counted, and, for files of one record a line, each line comes
 *   out as a record or as malformed, never both or neither.
 *
 * Each collector's own test (check_<collector>.c) holds what is particular
 * to its format: its fixtures' exact values and malformed counts. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/buddyinfo.h"
#include "collect/diskstats.h"
#include "collect/meminfo.h"
#include "collect/netstat.h"
#include "collect/pressure.h"
#include "collect/protocols.h"
#include "collect/sockstat.h"
#include "collect/softnet.h"
#include "collect/vmstat.h"
#include "tw_check.h"
#include "tw_mutate.h"
#include "util/error.h"
#include "util/readfile.h"

/* What one collector fills. */
union collected {
	struct tw_disk_set disks;
	struct tw_meminfo mem;
	struct tw_vmstat vm;
	struct tw_psi psi;
	struct tw_softnet_set softnet;
	struct tw_sockstat sock;
	struct tw_netstat_set net;
	struct tw_buddy_set buddy;
	struct tw_protocols protos;
};

struct collector {
	const char *name;
	/* A real capture, <fixtures>/<dir>/<file>, the mutations' start. */
	const char *capture_dir, *capture_file;
	/* A fixture directory without the collector's file. */
	const char *absent_dir;
	const char *alphabet;		/* what mutations write */
	size_t alphabet_len;		/* NULs count */
	unsigned max_edits, rounds;
	uint32_t seed;
	/* A struct of plain fields (its size; 0 for a set) starts zeroed
	 * and holds no pointer, so a read must clear even garbage. A set has
	 * init and free, and says how many entries it keeps. */
	size_t plain_size;
	void (*init)(union collected *c);
	void (*free)(union collected *c);
	size_t (*kept)(const union collected *c);
	int one_per_line;		/* each good line is one entry */
	int (*parse)(const char *text, size_t len, union collected *c, struct tw_parse_stats *ps);
	int (*read)(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps);
	/* What holds after any parse, whatever the text. */
	void (*sound)(const union collected *c);
};

#define ALPHABET(s) (s), sizeof(s) - 1

/* diskstats */
static void disks_init(union collected *c) { tw_disk_set_init(&c->disks); }
static void disks_free(union collected *c) { tw_disk_set_free(&c->disks); }
static size_t disks_kept(const union collected *c) { return c->disks.count; }

static int
disks_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_diskstats_parse(t, n, &c->disks, ps);
}

static int
disks_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_diskstats_read(fd, b, &c->disks, ps);
}

static void
disks_sound(const union collected *c)
{
	size_t i;

	for (i = 0; i < c->disks.count; i++)
		ck_assert_uint_ne(c->disks.disks[i].present, 0);
}

/* meminfo */
static int
mem_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_meminfo_parse(t, n, &c->mem, ps);
}

static int
mem_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_meminfo_read(fd, b, &c->mem, ps);
}

static void
mem_sound(const union collected *c)
{
	ck_assert_uint_eq(c->mem.present & ~((UINT32_C(1) << TW_MEM_NFIELDS) - 1), 0);
}

/* vmstat */
static int
vm_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_vmstat_parse(t, n, &c->vm, ps);
}

static int
vm_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_vmstat_read(fd, b, &c->vm, ps);
}

static void
vm_sound(const union collected *c)
{
	ck_assert_uint_eq(c->vm.present & ~((UINT32_C(1) << TW_VM_NFIELDS) - 1), 0);
}

/* pressure */
static int
psi_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_psi_parse(t, n, &c->psi, ps);
}

static int
psi_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_psi_read(fd, "memory", b, &c->psi, ps);
}

static void
psi_sound(const union collected *c)
{
	ck_assert(c->psi.has_some == 0 || c->psi.has_some == 1);
	ck_assert(c->psi.has_full == 0 || c->psi.has_full == 1);
}

/* softnet */
static void softnet_init(union collected *c) { tw_softnet_set_init(&c->softnet); }
static void softnet_free(union collected *c) { tw_softnet_set_free(&c->softnet); }
static size_t softnet_kept(const union collected *c) { return c->softnet.count; }

static int
softnet_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_softnet_parse(t, n, &c->softnet, ps);
}

static int
softnet_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_softnet_read(fd, b, &c->softnet, ps);
}

static void
softnet_sound(const union collected *c)
{
	size_t i;

	for (i = 0; i < c->softnet.count; i++)
		ck_assert_uint_ge(c->softnet.cpus[i].ncols, 9);
}

/* sockstat */
static int
sock_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_sockstat_parse(t, n, &c->sock, ps);
}

static int
sock_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_sockstat_read(fd, b, &c->sock, ps);
}

static void
sock_sound(const union collected *c)
{
	ck_assert_uint_eq(c->sock.present & ~((UINT32_C(1) << TW_SOCK_NFIELDS) - 1), 0);
}

/* protocols */
static int
protos_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_protocols_parse(t, n, &c->protos, ps);
}

static int
protos_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_protocols_read(fd, b, &c->protos, ps);
}

static void
protos_sound(const union collected *c)
{
	size_t i;

	ck_assert_uint_le(c->protos.count, TW_PROTOCOLS_MAX);
	for (i = 0; i < c->protos.count; i++) {
		ck_assert_uint_lt(strlen(c->protos.p[i].name), TW_PROTO_NAME_LEN);
		ck_assert_int_ge(c->protos.p[i].memory, -1);
		ck_assert(c->protos.p[i].pressure >= TW_PROTO_PRESSURE_NI &&
		    c->protos.p[i].pressure <= TW_PROTO_PRESSURE_YES);
	}
}

/* netstat */
static void net_init(union collected *c) { tw_netstat_set_init(&c->net); }
static void net_free(union collected *c) { tw_netstat_set_free(&c->net); }
static size_t net_kept(const union collected *c) { return c->net.count; }

static int
net_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_netstat_parse(t, n, &c->net, ps);
}

static int
net_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_netstat_read(fd, b, &c->net, ps);
}

static void
net_sound(const union collected *c)
{
	size_t i;

	for (i = 0; i < c->net.count; i++) {
		ck_assert_uint_lt(strlen(c->net.entries[i].proto), TW_NETSTAT_PROTO_LEN);
		ck_assert_uint_gt(strlen(c->net.entries[i].name), 0);
	}
}

/* buddyinfo */
static void buddy_init(union collected *c) { tw_buddy_set_init(&c->buddy); }
static void buddy_free(union collected *c) { tw_buddy_set_free(&c->buddy); }
static size_t buddy_kept(const union collected *c) { return c->buddy.count; }

static int
buddy_parse(const char *t, size_t n, union collected *c, struct tw_parse_stats *ps)
{
	return tw_buddyinfo_parse(t, n, &c->buddy, ps);
}

static int
buddy_read(int fd, struct tw_buf *b, union collected *c, struct tw_parse_stats *ps)
{
	return tw_buddyinfo_read(fd, b, &c->buddy, ps);
}

static void
buddy_sound(const union collected *c)
{
	size_t i;

	for (i = 0; i < c->buddy.count; i++) {
		ck_assert_uint_ge(c->buddy.zones[i].norders, 1);
		ck_assert_uint_le(c->buddy.zones[i].norders, TW_BUDDY_MAX_ORDERS);
	}
}

#define SET(p) 0, p##_init, p##_free, p##_kept
#define PLAIN(type) sizeof(type), NULL, NULL, NULL, 0

static const struct collector collectors[] = {
	{ "diskstats", "debian12-vm/proc", "diskstats", "collectors/diskstats",
	  ALPHABET("0123456789 \t\n\r\0-xa[]:,=."), 8, 2000, 12345,
	  SET(disks), 1, disks_parse, disks_read, disks_sound },
	{ "meminfo", "debian12-vm/proc", "meminfo", "collectors/meminfo",
	  ALPHABET("0123456789 \t\n\r\0-:kBx"), 8, 2000, 777,
	  PLAIN(struct tw_meminfo), mem_parse, mem_read, mem_sound },
	{ "vmstat", "debian12-vm/proc", "vmstat", "collectors/vmstat",
	  ALPHABET("0123456789 \t\n\r\0_-x"), 16, 1000, 4242,
	  PLAIN(struct tw_vmstat), vm_parse, vm_read, vm_sound },
	{ "pressure", "debian12-vm/proc/pressure", "memory", "collectors/pressure",
	  ALPHABET("0123456789 \t\n\r\0=.sfomeulavgtx"), 8, 2000, 1618,
	  PLAIN(struct tw_psi), psi_parse, psi_read, psi_sound },
	{ "softnet", "collectors/softnet", "cols13.txt", "collectors/softnet",
	  ALPHABET("0123456789abcdefg \t\n\r\0-x"), 8, 2000, 99,
	  SET(softnet), 1, softnet_parse, softnet_read, softnet_sound },
	{ "sockstat", "debian12-vm/proc/net", "sockstat", "collectors/sockstat",
	  ALPHABET("0123456789 \t\n\r\0:TCPUDmex"), 8, 2000, 5150,
	  PLAIN(struct tw_sockstat), sock_parse, sock_read, sock_sound },
	/* Pairs of lines, and a bad value drops one counter, not a line. */
	{ "netstat", "debian12-vm/proc/net", "snmp", "collectors/netstat",
	  ALPHABET("0123456789 \t\n\r\0-:Ux"), 8, 2000, 31337,
	  SET(net), 0, net_parse, net_read, net_sound },
	/* A header, then a line per protocol: not one record a line. */
	{ "protocols", "debian12-vm/proc/net", "protocols", "collectors/protocols",
	  ALPHABET("0123456789 \t\n\r\0-:TCPUDNIyesnopr"), 8, 2000, 6180,
	  PLAIN(struct tw_protocols), protos_parse, protos_read, protos_sound },
	{ "buddyinfo", "collectors/buddyinfo", "numa.txt", "collectors/buddyinfo",
	  ALPHABET("0123456789 \t\n\r\0,-Nx"), 8, 2000, 2024,
	  SET(buddy), 1, buddy_parse, buddy_read, buddy_sound },
};

#define NCOLLECTORS (sizeof(collectors) / sizeof(collectors[0]))

static void
start(const struct collector *k, union collected *c)
{
	memset(c, 0, sizeof(*c));
	if (k->init != NULL)
		k->init(c);
}

static void
finish(const struct collector *k, union collected *c)
{
	if (k->free != NULL)
		k->free(c);
}

/* Nothing of an earlier parse is left: no entry, no field, no flag. */
static int
is_empty(const struct collector *k, const union collected *c)
{
	static const union collected zero;

	if (k->plain_size > 0)
		return memcmp(c, &zero, k->plain_size) == 0;
	return k->kept(c) == 0;
}

START_TEST(test_read_absent)
{
	const struct collector *k = &collectors[_i];
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_mutator m;
	union collected c;
	struct tw_buf b;
	int fd = open(tw_fixture_path(k->absent_dir), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	/* First something a read has to clear: the real capture. */
	tw_mutator_init(&m, k->capture_dir, k->capture_file, k->alphabet, k->alphabet_len,
	    k->max_edits, k->seed);
	start(k, &c);
	ck_assert_int_eq(k->parse(m.orig.data, m.orig.len, &c, &ps), TW_OK);
	ck_assert_msg(!is_empty(k, &c), "%s: the capture gave nothing", k->name);

	ps.lines = ps.malformed = 0;
	ck_assert_int_eq(k->read(fd, &b, &c, &ps), TW_E_ABSENT);
	ck_assert_msg(is_empty(k, &c), "%s: a failed read kept data", k->name);
	ck_assert_uint_eq(ps.lines, 0);
	ck_assert_uint_eq(ps.malformed, 0);
	/* No directory at all is the same. */
	ck_assert_int_eq(k->parse(m.orig.data, m.orig.len, &c, &ps), TW_OK);
	ck_assert_int_eq(k->read(-1, &b, &c, &ps), TW_E_ABSENT);
	ck_assert_msg(is_empty(k, &c), "%s: a read without a root kept data", k->name);
	/* A struct of plain fields is cleared whatever it held. */
	if (k->plain_size > 0) {
		memset(&c, 0xff, sizeof(c));
		ck_assert_int_eq(k->read(fd, &b, &c, &ps), TW_E_ABSENT);
		ck_assert_msg(is_empty(k, &c), "%s: a failed read kept garbage", k->name);
	}
	finish(k, &c);
	tw_mutator_free(&m);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

/* Corrupt the real capture byte by byte; the sanitizer build checks the
 * reads. */
START_TEST(test_mutations)
{
	const struct collector *k = &collectors[_i];
	struct tw_mutator m;
	unsigned round;

	tw_mutator_init(&m, k->capture_dir, k->capture_file, k->alphabet, k->alphabet_len,
	    k->max_edits, k->seed);
	for (round = 0; round < k->rounds; round++) {
		struct tw_parse_stats ps = { 0, 0 };
		union collected c;
		uint64_t lines;
		size_t len = tw_mutator_next(&m, round, &lines);

		start(k, &c);
		ck_assert_int_eq(k->parse(m.text.data, len, &c, &ps), TW_OK);
		ck_assert_uint_eq(ps.lines, lines);
		if (k->one_per_line)
			ck_assert_msg(k->kept(&c) + ps.malformed == ps.lines,
			    "%s round %u: %zu kept and %llu malformed of %llu lines", k->name,
			    round, k->kept(&c), (unsigned long long)ps.malformed,
			    (unsigned long long)ps.lines);
		else
			ck_assert_uint_le(ps.malformed, ps.lines);
		k->sound(&c);
		finish(k, &c);
	}
	tw_mutator_free(&m);
}
END_TEST

static Suite *
collectors_suite(void)
{
	Suite *s = suite_create("collectors");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_read_absent, 0, NCOLLECTORS);
	tcase_add_loop_test(tc, test_mutations, 0, NCOLLECTORS);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(collectors_suite());
}
