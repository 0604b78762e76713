/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/cgroup*.c on tests/fixtures/collectors/cgroup:
 * a cgroup v2 tree laid out as the kernel does (system.slice with
 * nginx.service bounded by memory.high, old.service of a kernel before 5.9
 * bounded by memory.max, idle.service with nothing, a session scope with
 * I/O only) and a cgroup v1 one (memory and blkio hierarchies). Expected
 * values are the fixture files' own numbers. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/cgroupread.h"
#include "tw_cgroup_fixture.h"
#include "tw_check.h"
#include "util/error.h"

/* The trees, made from collectors/cgroup.tar (see tw_cgroup_fixture.h). */
static char trees[256];

/* rel is below the fixture: "collectors/cgroup/v2/sys" is trees/v2/sys. */
static const char *
tree_path(const char *rel)
{
	static char path[512];
	const char *p = strncmp(rel, "collectors/cgroup/", 18) == 0 ? rel + 18 : NULL;

	if (p == NULL)
		return tw_fixture_path(rel);
	snprintf(path, sizeof(path), "%s/%s", trees, p);
	return path;
}

static int
open_root(const char *rel)
{
	int fd = open(tree_path(rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	return fd;
}

static void
read_cg(const char *root, enum tw_cg_version ver, const char *path, struct tw_cgroup *cg,
    struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int fd = open_root(root);

	tw_buf_init(&b);
	memset(ps, 0, sizeof(*ps));
	ck_assert_int_eq(tw_cgroup_read(fd, ver, path, TW_CG_READ_ALL, &b, cg, ps), TW_OK);
	tw_buf_free(&b);
	close(fd);
}

#define HAS(cg, f) (((cg)->present & TW_CG_BIT(f)) != 0)

START_TEST(test_detect)
{
	int v2 = open_root("collectors/cgroup/v2/sys"), v1 = open_root("collectors/cgroup/v1/sys");
	int none = open_root("collectors/blockqueue/sys");

	ck_assert_int_eq(tw_cgroup_detect(v2), TW_CG_V2);
	ck_assert_int_eq(tw_cgroup_detect(v1), TW_CG_V1);
	ck_assert_int_eq(tw_cgroup_detect(none), TW_CG_NONE);
	ck_assert_int_eq(tw_cgroup_detect(-1), TW_CG_NONE);
	close(v2);
	close(v1);
	close(none);
}
END_TEST

START_TEST(test_v2_bounded_by_high)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps;

	read_cg("collectors/cgroup/v2/sys", TW_CG_V2, "/system.slice/nginx.service", &cg, &ps);
	ck_assert_uint_eq(cg.v[TW_CG_CACHE], 62914560);
	ck_assert_uint_eq(cg.v[TW_CG_USAGE], 67092480);
	ck_assert_uint_eq(cg.v[TW_CG_HIGH], 67108864);
	ck_assert_uint_eq(cg.v[TW_CG_MAX], 134217728);
	ck_assert_uint_eq(cg.v[TW_CG_REFAULTS], 123456);
	/* memory.events: high 40 + max 2. */
	ck_assert_uint_eq(cg.v[TW_CG_LIMIT_EVENTS], 42);
	/* io.stat: two devices summed. */
	ck_assert_uint_eq(cg.v[TW_CG_READ_BYTES], 4294967296ULL + 1073741824ULL);
	ck_assert_uint_eq(cg.v[TW_CG_WRITE_BYTES], 1048576);
	ck_assert_uint_eq(cg.v[TW_CG_MEM_PSI], 1250);
	ck_assert_uint_eq(cg.v[TW_CG_IO_PSI], 2000);
	/* Every field the files give; from TW_CG_FILESET on, the sampler's. */
	ck_assert_uint_eq(cg.present, (UINT32_C(1) << TW_CG_FILESET) - 1);
	/* memory.stat's last line has no value: the one malformed line. */
	ck_assert_uint_eq(ps.malformed, 1);
}
END_TEST

START_TEST(test_v2_old_kernel_and_max)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps;

	read_cg("collectors/cgroup/v2/sys", TW_CG_V2, "/system.slice/old.service", &cg, &ps);
	ck_assert(!HAS(&cg, TW_CG_HIGH));
	ck_assert_uint_eq(cg.v[TW_CG_MAX], 268435456);
	ck_assert_uint_eq(cg.v[TW_CG_REFAULTS], 555);
	ck_assert_uint_eq(cg.v[TW_CG_LIMIT_EVENTS], 17);
	/* An empty io.stat: no I/O, which is zero, not absent. */
	ck_assert(HAS(&cg, TW_CG_READ_BYTES));
	ck_assert_uint_eq(cg.v[TW_CG_READ_BYTES], 0);
	/* No pressure files: absent. */
	ck_assert(!HAS(&cg, TW_CG_MEM_PSI));
	ck_assert(!HAS(&cg, TW_CG_IO_PSI));
	ck_assert_uint_eq(ps.malformed, 0);

	/* "max" in both files: no limit. */
	read_cg("collectors/cgroup/v2/sys", TW_CG_V2, "/system.slice/idle.service", &cg, &ps);
	ck_assert(!HAS(&cg, TW_CG_HIGH));
	ck_assert(!HAS(&cg, TW_CG_MAX));
}
END_TEST

START_TEST(test_v2_malformed_io)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps;

	/* io.stat: one good line; "rbytes=5" has no device; "rbytes=x" is
	 * not a number. */
	read_cg("collectors/cgroup/v2/sys", TW_CG_V2, "/user.slice/user-1000.slice/session-2.scope",
	    &cg, &ps);
	ck_assert_uint_eq(cg.v[TW_CG_READ_BYTES], 1000);
	ck_assert_uint_eq(cg.v[TW_CG_WRITE_BYTES], 2000);
	ck_assert_uint_eq(ps.malformed, 2);
}
END_TEST

START_TEST(test_v1)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps;

	read_cg("collectors/cgroup/v1/sys", TW_CG_V1, "/system.slice/foo.service", &cg, &ps);
	/* The total_ lines, not the cgroup's own. */
	ck_assert_uint_eq(cg.v[TW_CG_CACHE], 61000000);
	ck_assert_uint_eq(cg.v[TW_CG_REFAULTS], 98765);
	ck_assert_uint_eq(cg.v[TW_CG_MAX], 67108864);
	ck_assert(!HAS(&cg, TW_CG_HIGH));
	ck_assert_uint_eq(cg.v[TW_CG_USAGE], 67100000);
	ck_assert_uint_eq(cg.v[TW_CG_LIMIT_EVENTS], 1234);
	/* blkio: the Read and Write lines of both devices. */
	ck_assert_uint_eq(cg.v[TW_CG_READ_BYTES], 2097152);
	ck_assert_uint_eq(cg.v[TW_CG_WRITE_BYTES], 4096);
	ck_assert(!HAS(&cg, TW_CG_MEM_PSI));
	ck_assert_uint_eq(ps.malformed, 0);

	/* PAGE_COUNTER_MAX is no limit; no blkio directory, no I/O. */
	read_cg("collectors/cgroup/v1/sys", TW_CG_V1, "/unlimited", &cg, &ps);
	ck_assert(!HAS(&cg, TW_CG_MAX));
	ck_assert(!HAS(&cg, TW_CG_READ_BYTES));
	/* total_workingset_refault before 5.9. */
	read_cg("collectors/cgroup/v1/sys", TW_CG_V1, "/system.slice", &cg, &ps);
	ck_assert_uint_eq(cg.v[TW_CG_REFAULTS], 5);
}
END_TEST

START_TEST(test_gone)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buf b;
	int fd = open_root("collectors/cgroup/v2/sys");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_cgroup_read(fd, TW_CG_V2, "/nonesuch.service", TW_CG_READ_ALL, &b, &cg,
	    &ps), TW_E_ABSENT);
	ck_assert_int_eq(tw_cgroup_read(fd, TW_CG_NONE, "/system.slice", TW_CG_READ_ALL, &b, &cg,
	    &ps),
	    TW_E_INVAL);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

struct seen {
	char paths[16][TW_CG_PATH_LEN];
	int quiet[16];		/* what the walk said of each one's parent */
	const char *hush;	/* the cgroup note says is quiet, or NULL */
	size_t n;
};

static int
note(void *ctx, int parent_fd, const char *name, const char *path, uint64_t ino, int *quiet)
{
	struct seen *s = ctx;
	size_t plen = strlen(path), nlen = strlen(name);

	ck_assert_uint_ne(ino, 0);
	ck_assert_int_ge(parent_fd, 0);
	/* name is the last component of path, and a directory in parent_fd. */
	ck_assert_uint_gt(plen, nlen);
	ck_assert_str_eq(path + plen - nlen, name);
	ck_assert_int_eq(path[plen - nlen - 1], '/');
	ck_assert_int_eq(faccessat(parent_fd, name, F_OK, 0), 0);
	ck_assert_uint_lt(s->n, 16);
	s->quiet[s->n] = *quiet;
	snprintf(s->paths[s->n++], TW_CG_PATH_LEN, "%s", path);
	if (s->hush != NULL && strcmp(path, s->hush) == 0)
		*quiet = 1;
	return TW_OK;
}

static int
seen_has(const struct seen *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->paths[i], path) == 0)
			return (int)i;
	return -1;
}

/* A published cgroup's kept files on this machine's cgroup filesystem
 * (v1 memory controller): removed, it is gone at the next read, told by
 * the files' ENODEV alone (no fstat a sample there: its directory keeps
 * its links). Needs root and the v1 memory hierarchy; passes without. */
START_TEST(test_kept_removed_on_cgroupfs)
{
	struct tw_cgroup cg;
	struct tw_parse_stats ps = { 0 };
	struct tw_cg_keep k;
	struct tw_buf b;
	char path[64], dir[128];
	int sys_fd;

	if (geteuid() != 0 || access("/sys/fs/cgroup/memory/cgroup.procs", W_OK) != 0) {
		fprintf(stderr, "check_cgroup: no writable v1 memory hierarchy: "
		    "test_kept_removed_on_cgroupfs not run\n");
		return;
	}
	snprintf(path, sizeof(path), "/tw-check-%ld", (long)getpid());
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/memory%s", path);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	sys_fd = open("/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(sys_fd, 0);
	tw_buf_init(&b);
	tw_cg_keep_init(&k);
	ck_assert_int_eq(tw_cgroup_read_kept(sys_fd, TW_CG_V1, path, TW_CG_READ_MEMORY, &k, &b,
	    &cg, &ps), TW_OK);
	ck_assert(cg.present & TW_CG_BIT(TW_CG_USAGE));
	ck_assert_int_eq(k.check_links, 0);
	ck_assert_int_eq(tw_cgroup_read_kept(sys_fd, TW_CG_V1, path, TW_CG_READ_MEMORY, &k, &b,
	    &cg, &ps), TW_OK);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(tw_cgroup_read_kept(sys_fd, TW_CG_V1, path, TW_CG_READ_MEMORY, &k, &b,
	    &cg, &ps), TW_E_ABSENT);
	ck_assert_int_eq(k.dir, -1);
	tw_buf_free(&b);
	close(sys_fd);
}
END_TEST

static int
no_cuts(const struct tw_cg_cuts *c)
{
	return c->too_long == 0 && c->too_deep == 0 && c->too_many == 0;
}

START_TEST(test_walk)
{
	static struct seen s;
	struct tw_cg_cuts cuts = { 0, 0, 0 };
	size_t visited;
	int fd = open_root("collectors/cgroup/v2/sys");

	ck_assert_int_eq(tw_cgroup_walk(fd, TW_CG_V2, note, &s, &cuts, &visited), TW_OK);
	/* Every directory but the root; parents before children. */
	ck_assert_uint_eq(s.n, 8);
	ck_assert_uint_eq(visited, 8);
	ck_assert(no_cuts(&cuts));
	ck_assert_int_ge(seen_has(&s, "/system.slice/nginx.service/workers"), 0);
	ck_assert_int_lt(seen_has(&s, "/system.slice"), seen_has(&s, "/system.slice/old.service"));
	ck_assert_int_lt(seen_has(&s, "/user.slice/user-1000.slice"),
	    seen_has(&s, "/user.slice/user-1000.slice/session-2.scope"));
	/* Nothing said quiet: no cgroup is visited as quiet. */
	for (size_t i = 0; i < s.n; i++)
		ck_assert_int_eq(s.quiet[i], 0);
	ck_assert_int_eq(tw_cgroup_walk(fd, TW_CG_NONE, note, &s, &cuts, &visited), TW_E_ABSENT);
	ck_assert_uint_eq(visited, 0);

	/* What visit says of a cgroup reaches its whole subtree, and no
	 * sibling or parent: nginx.service's child and grandchild. */
	memset(&s, 0, sizeof(s));
	s.hush = "/system.slice/nginx.service";
	ck_assert_int_eq(tw_cgroup_walk(fd, TW_CG_V2, note, &s, &cuts, &visited), TW_OK);
	ck_assert_uint_eq(s.n, 8);
	for (size_t i = 0; i < s.n; i++)
		ck_assert_int_eq(s.quiet[i],
		    strncmp(s.paths[i], "/system.slice/nginx.service/", 28) == 0);
	ck_assert_int_eq(s.quiet[seen_has(&s, "/system.slice/nginx.service/workers")], 1);
	ck_assert_int_eq(s.quiet[seen_has(&s, "/system.slice/old.service")], 0);
	close(fd);

	/* v1 walks the memory hierarchy. */
	s.n = 0;
	fd = open_root("collectors/cgroup/v1/sys");
	ck_assert_int_eq(tw_cgroup_walk(fd, TW_CG_V1, note, &s, &cuts, &visited), TW_OK);
	ck_assert_uint_eq(s.n, 3);
	ck_assert(no_cuts(&cuts));
	ck_assert_int_ge(seen_has(&s, "/system.slice/foo.service"), 0);
	close(fd);
}
END_TEST

/* ---- The walk's bounds, on trees made here (mkdirat below an open
 * directory, so that a path may be longer than PATH_MAX from "/"). */

static char bounds[256];

/* A chain of n directories called name below fd; the descriptor of the
 * last one (the caller closes it). */
static int
chain(int fd, const char *name, unsigned n)
{
	int cur = dup(fd);
	unsigned i;

	ck_assert_int_ge(cur, 0);
	for (i = 0; i < n; i++) {
		int next;

		ck_assert_int_eq(mkdirat(cur, name, 0755), 0);
		next = openat(cur, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ck_assert_int_ge(next, 0);
		close(cur);
		cur = next;
	}
	return cur;
}

/* A v2 sys root: bounds/sys, its hierarchy fs/cgroup open in *top. */
static int
bounds_root(int *top)
{
	char path[512], cmd[600];
	FILE *f;
	int sys_fd;

	snprintf(bounds, sizeof(bounds), "/tmp/tw-cgroup-bounds-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(bounds));
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/fs/cgroup'", bounds);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/cgroup.controllers", bounds);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("cpu io memory pids\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sys", bounds);
	sys_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(sys_fd, 0);
	*top = openat(sys_fd, "fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(*top, 0);
	return sys_fd;
}

static void
bounds_remove(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", bounds);
	ck_assert_int_eq(system(cmd), 0);
}

/* What a walk met: how many, the deepest and the longest path, and
 * whether it met the ones a test looks for. */
struct met {
	size_t n, deepest, longest;
	int hidden, hidden_child, p300;
	char want300[400];
};

static int
meet(void *ctx, int parent_fd, const char *name, const char *path, uint64_t ino, int *quiet)
{
	struct met *m = ctx;
	size_t len = strlen(path), depth = 0;
	const char *c;

	(void)parent_fd;
	(void)name;
	(void)ino;
	(void)quiet;
	for (c = path; *c != '\0'; c++)
		depth += *c == '/';
	m->n++;
	if (depth > m->deepest)
		m->deepest = depth;
	if (len > m->longest)
		m->longest = len;
	m->hidden |= strcmp(path, "/.hidden") == 0;
	m->hidden_child |= strcmp(path, "/.hidden/.child") == 0;
	m->p300 |= strcmp(path, m->want300) == 0;
	return TW_OK;
}

/* Hidden names are walked; a 304-byte path is walked whole; a chain of
 * 140 levels is walked to the 128th, and the 129th is cut as too deep;
 * a chain of 250-byte names is walked while its path fits and cut, once,
 * where it would not. Nothing is left out without being counted. */
START_TEST(test_walk_bounds)
{
	struct met m;
	struct tw_cg_cuts cuts = { 0, 0, 0 };
	char a150[151], b150[151], n250[251];
	size_t visited;
	int top, sys_fd = bounds_root(&top), fd, fd2;

	memset(&m, 0, sizeof(m));
	fd = chain(top, ".hidden", 1);
	close(chain(fd, ".child", 1));
	close(fd);
	memset(a150, 'a', 150);
	a150[150] = '\0';
	memset(b150, 'b', 150);
	b150[150] = '\0';
	fd = chain(top, "p", 1);
	fd2 = chain(fd, a150, 1);
	close(chain(fd2, b150, 1));
	close(fd2);
	close(fd);
	snprintf(m.want300, sizeof(m.want300), "/p/%s/%s", a150, b150);
	ck_assert_uint_eq(strlen(m.want300), 304);
	fd = chain(top, "deep", 1);
	close(chain(fd, "d", 139));
	close(fd);
	/* "/l" and 17 of "/" + 250 bytes: the 16th ends at 4018 bytes, in
	 * TW_CG_PATH_LEN (4032 with the NUL); the 17th would be 4269. */
	memset(n250, 'n', 250);
	n250[250] = '\0';
	fd = chain(top, "l", 1);
	close(chain(fd, n250, 18));
	close(fd);

	ck_assert_int_eq(tw_cgroup_walk(sys_fd, TW_CG_V2, meet, &m, &cuts, &visited), TW_OK);
	ck_assert(m.hidden && m.hidden_child);
	ck_assert(m.p300);
	ck_assert_uint_eq(cuts.too_deep, 1);
	ck_assert_uint_eq(cuts.too_long, 1);
	ck_assert_uint_eq(cuts.too_many, 0);
	ck_assert_uint_eq(m.deepest, TW_CG_DEPTH_MAX);
	ck_assert_uint_eq(m.longest, 2 + 16 * 251);
	/* .hidden 2, p 3, deep 128, l 17 */
	ck_assert_uint_eq(m.n, 2 + 3 + TW_CG_DEPTH_MAX + 17);
	ck_assert_uint_eq(visited, m.n);
	close(top);
	close(sys_fd);
	bounds_remove();
}
END_TEST

/* Past TW_CG_SCAN_MAX cgroups the walk stops, and counts each it did not
 * visit. */
START_TEST(test_walk_too_many)
{
	struct met m;
	struct tw_cg_cuts cuts = { 0, 0, 0 };
	char name[16];
	size_t visited;
	int top, sys_fd = bounds_root(&top), fd;
	unsigned i;

	memset(&m, 0, sizeof(m));
	fd = chain(top, "many", 1);
	for (i = 0; i < TW_CG_SCAN_MAX + 8; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ck_assert_int_eq(mkdirat(fd, name, 0755), 0);
	}
	close(fd);
	ck_assert_int_eq(tw_cgroup_walk(sys_fd, TW_CG_V2, meet, &m, &cuts, &visited), TW_OK);
	ck_assert_uint_eq(m.n, TW_CG_SCAN_MAX);
	ck_assert_uint_eq(visited, TW_CG_SCAN_MAX);
	/* "many" and 8191 of its 8200 children visited: 9 cut. */
	ck_assert_uint_eq(cuts.too_many, 9);
	ck_assert_uint_eq(cuts.too_deep + cuts.too_long, 0);
	close(top);
	close(sys_fd);
	bounds_remove();
}
END_TEST

/* Whatever a corrupted file holds, every parser reads it to the end,
 * counting each line, and keeps no more malformed lines than lines. */
typedef int parser(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

static int
memstat_v2(const char *text, size_t len, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	return tw_cgroup_parse_memstat(TW_CG_V2, text, len, out, ps);
}

START_TEST(test_corruptions)
{
	static const struct {
		const char *file;
		parser *parse;
	} cases[] = {
		{ "collectors/cgroup/v2/sys/fs/cgroup/system.slice/nginx.service/memory.stat",
		    memstat_v2 },
		{ "collectors/cgroup/v2/sys/fs/cgroup/system.slice/nginx.service/io.stat",
		    tw_cgroup_parse_iostat },
		{ "collectors/cgroup/v2/sys/fs/cgroup/system.slice/nginx.service/memory.events",
		    tw_cgroup_parse_events },
		{ "collectors/cgroup/v1/sys/fs/cgroup/blkio/system.slice/foo.service/"
		    "blkio.throttle.io_service_bytes_recursive", tw_cgroup_parse_blkio },
	};
	static const char junk[] = " \t\n=:x9-";
	char text[4096];
	size_t i, k;

	srand(15);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(tree_path(cases[i].file), "r");
		size_t len;

		ck_assert_ptr_nonnull(f);
		len = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		for (k = 0; k < 1000; k++) {
			char bad[4096];
			size_t n = (size_t)rand() % (len + 1), j, lines = 0;
			struct tw_parse_stats ps = { 0, 0 };
			struct tw_cgroup cg;

			memcpy(bad, text, len);
			for (j = 0; j < 3; j++)
				bad[(size_t)rand() % len] = junk[rand() % (int)(sizeof(junk) - 1)];
			memset(&cg, 0, sizeof(cg));
			ck_assert_int_eq(cases[i].parse(bad, n, &cg, &ps), TW_OK);
			for (j = 0; j < n; j++)
				lines += bad[j] == '\n';
			if (n > 0 && bad[n - 1] != '\n')
				lines++;	/* the last, cut short */
			ck_assert_uint_eq(ps.lines, lines);
			ck_assert_uint_le(ps.malformed, ps.lines);
		}
	}
}
END_TEST

/* ---- The parsers against plain references ---------------------------- */

/* What memory.stat's parser must give, written the obvious way: each
 * line tokenised; a line whose first token is not a wanted key is counted
 * and not checked; a wanted one must be exactly two tokens, the second a
 * 64-bit decimal; a last line without its newline is malformed. */
static void
ref_memstat(int v1, const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	struct tw_lines it;
	const char *line;
	size_t llen;
	int complete, refault_file = 0;

	tw_lines_init(&it, text, len);
	while (tw_lines_next(&it, &line, &llen, &complete)) {
		struct tw_tokens tk;
		const char *key, *v, *extra;
		size_t klen, vlen, xlen;
		uint64_t n;
		int want;

		ps->lines++;
		if (!complete) {
			ps->malformed++;
			break;
		}
		tw_tokens_init(&tk, line, llen);
		if (!tw_tokens_next(&tk, &key, &klen)) {
			ps->malformed++;
			continue;
		}
		if (v1 && klen > 6 && strncmp(key, "total_", 6) == 0) {
			key += 6;
			klen -= 6;
		} else if (v1) {
			continue;
		}
		want = tw_token_is(key, klen, v1 ? "cache" : "file") ? 1 :
		    tw_token_is(key, klen, "workingset_refault_file") ? 2 :
		    tw_token_is(key, klen, "workingset_refault") ? 3 : 0;
		if (want == 0)
			continue;
		if (!tw_tokens_next(&tk, &v, &vlen) || tw_tokens_next(&tk, &extra, &xlen) ||
		    tw_parse_u64(v, vlen, &n) != TW_OK) {
			ps->malformed++;
			continue;
		}
		if (want == 1) {
			out->v[TW_CG_CACHE] = n;
			out->present |= TW_CG_BIT(TW_CG_CACHE);
		} else if (want == 2 || !refault_file) {
			out->v[TW_CG_REFAULTS] = n;
			out->present |= TW_CG_BIT(TW_CG_REFAULTS);
			refault_file |= want == 2;
		}
	}
}

/* A line of memory.stat or io.stat made of pieces that come close to the
 * wanted ones and miss them in every way the parsers tell apart. */
static size_t
piece(char *dst, const char *const *set, size_t n)
{
	const char *s = set[(size_t)rand() % n];
	size_t len = strlen(s);

	memcpy(dst, s, len);
	return len;
}

#define PIECE(dst, set) piece((dst), (set), sizeof(set) / sizeof((set)[0]))

static size_t
random_digits(char *dst)
{
	static const char *const special[] = { "18446744073709551615", "18446744073709551616",
		"00000000000000000000000042", "0", "" };
	size_t i, n;

	if (rand() % 8 == 0)
		return PIECE(dst, special);
	n = 1 + (size_t)rand() % 21;
	for (i = 0; i < n; i++)
		dst[i] = (char)('0' + rand() % 10);
	return n;
}

static size_t
random_memstat(char *text, size_t cap)
{
	static const char *const keys[] = { "file", "file_mapped", "fil", "workingset_refault",
		"workingset_refault_file", "workingset_refault_anon", "workingset_refaul",
		"total_cache", "total_cache_x", "total_workingset_refault",
		"total_workingset_refault_file", "total_", "anon", "t", "w", "f", "", "x9" };
	static const char *const blanks[] = { " ", " ", " ", "  ", "\t", " \t", "" };
	static const char *const tails[] = { "", "", "", "", " ", "\t", " 5", "x" };
	size_t len = 0, lines = (size_t)rand() % 12, i;

	for (i = 0; i < lines && len + 160 < cap; i++) {
		if (rand() % 10 == 0)
			len += PIECE(text + len, blanks);
		len += PIECE(text + len, keys);
		len += PIECE(text + len, blanks);
		len += random_digits(text + len);
		len += PIECE(text + len, tails);
		text[len++] = '\n';
	}
	if (len > 0 && rand() % 5 == 0)
		text[(size_t)rand() % len] = " \t\nx0"[rand() % 5];
	if (len > 0 && rand() % 5 == 0)
		len -= (size_t)rand() % len;	/* cut short */
	return len;
}

static void
assert_same(const struct tw_cgroup *got, const struct tw_parse_stats *gps,
    const struct tw_cgroup *want, const struct tw_parse_stats *wps, const char *text,
    size_t len)
{
	size_t f;

	ck_assert_msg(got->present == want->present && gps->lines == wps->lines &&
	    gps->malformed == wps->malformed, "present %x/%x lines %llu/%llu malformed "
	    "%llu/%llu on \"%.*s\"", (unsigned)got->present, (unsigned)want->present,
	    (unsigned long long)gps->lines, (unsigned long long)wps->lines,
	    (unsigned long long)gps->malformed, (unsigned long long)wps->malformed,
	    (int)len, text);
	for (f = 0; f < TW_CG_NFIELDS; f++)
		if (want->present & TW_CG_BIT(f))
			ck_assert_msg(got->v[f] == want->v[f], "field %zu on \"%.*s\"", f,
			    (int)len, text);
}

#define DIFF_FILES 200000

START_TEST(test_memstat_reference)
{
	char text[4096];
	size_t k;

	srand(1515);
	for (k = 0; k < DIFF_FILES; k++) {
		int v1 = (int)(k & 1);
		size_t len = random_memstat(text, sizeof(text));
		struct tw_parse_stats gps = { 0, 0 }, wps = { 0, 0 };
		struct tw_cgroup got, want;

		memset(&got, 0, sizeof(got));
		memset(&want, 0, sizeof(want));
		ck_assert_int_eq(tw_cgroup_parse_memstat(v1 ? TW_CG_V1 : TW_CG_V2, text, len, &got,
		    &gps), TW_OK);
		ref_memstat(v1, text, len, &want, &wps);
		assert_same(&got, &gps, &want, &wps, text, len);
	}
}
END_TEST

/* What io.stat's parser must give: a line is a device (a token with
 * ':'), then key=decimal tokens, rbytes and wbytes among them, summed over
 * the lines; any other line, and a last one without its newline, is
 * malformed. */
static void
ref_iostat(const char *text, size_t len, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct tw_lines it;
	const char *line;
	size_t llen;
	int complete;

	out->present |= TW_CG_BIT(TW_CG_READ_BYTES) | TW_CG_BIT(TW_CG_WRITE_BYTES);
	tw_lines_init(&it, text, len);
	while (tw_lines_next(&it, &line, &llen, &complete)) {
		struct tw_tokens tk;
		const char *tok;
		size_t tlen;
		uint64_t r = 0, w = 0, n;
		unsigned seen = 0;
		int ok;

		ps->lines++;
		if (!complete) {
			ps->malformed++;
			break;
		}
		tw_tokens_init(&tk, line, llen);
		ok = tw_tokens_next(&tk, &tok, &tlen) && memchr(tok, ':', tlen) != NULL;
		while (ok && tw_tokens_next(&tk, &tok, &tlen)) {
			const char *eq = memchr(tok, '=', tlen);
			size_t klen = eq != NULL ? (size_t)(eq - tok) : 0;

			ok = eq != NULL && tw_parse_u64(eq + 1, tlen - klen - 1, &n) == TW_OK;
			if (ok && tw_token_is(tok, klen, "rbytes")) {
				r = n;
				seen |= 1;
			} else if (ok && tw_token_is(tok, klen, "wbytes")) {
				w = n;
				seen |= 2;
			}
		}
		if (!ok || seen != 3) {
			ps->malformed++;
			continue;
		}
		out->v[TW_CG_READ_BYTES] += r;
		out->v[TW_CG_WRITE_BYTES] += w;
	}
}

static size_t
random_iostat(char *text, size_t cap)
{
	static const char *const devs[] = { "8:0", "254:0", "259:12", "8", "", "a:b", ":" };
	static const char *const keys[] = { "rbytes=", "wbytes=", "rios=", "wios=", "dbytes=",
		"dios=", "rbyte=", "=", "cost.vrate=", "rbytes" };
	static const char *const order[] = { "rbytes=", "wbytes=", "rios=", "wios=", "dbytes=",
		"dios=" };
	static const char *const gaps[] = { " ", " ", " ", "  ", "\t", "" };
	size_t len = 0, lines = (size_t)rand() % 4, i, j;

	for (i = 0; i < lines && len + 400 < cap; i++) {
		size_t fields = rand() % 4 == 0 ? (size_t)rand() % 9 : 6;

		if (rand() % 10 == 0)
			len += PIECE(text + len, gaps);
		len += PIECE(text + len, devs);
		for (j = 0; j < fields; j++) {
			len += rand() % 5 == 0 ? PIECE(text + len, gaps) :
			    (size_t)(text[len] = ' ', 1);
			if (rand() % 6 == 0 || j >= 6)
				len += PIECE(text + len, keys);
			else
				len += (size_t)(memcpy(text + len, order[j], strlen(order[j])),
				    strlen(order[j]));
			len += random_digits(text + len);
		}
		if (rand() % 8 == 0)
			len += PIECE(text + len, gaps);
		text[len++] = '\n';
	}
	if (len > 0 && rand() % 5 == 0)
		text[(size_t)rand() % len] = " \t\n=:x0"[rand() % 7];
	if (len > 0 && rand() % 5 == 0)
		len -= (size_t)rand() % len;
	return len;
}

START_TEST(test_iostat_reference)
{
	char text[4096];
	size_t k;

	srand(1516);
	for (k = 0; k < DIFF_FILES; k++) {
		size_t len = random_iostat(text, sizeof(text));
		struct tw_parse_stats gps = { 0, 0 }, wps = { 0, 0 };
		struct tw_cgroup got, want;

		memset(&got, 0, sizeof(got));
		memset(&want, 0, sizeof(want));
		ck_assert_int_eq(tw_cgroup_parse_iostat(text, len, &got, &gps), TW_OK);
		ref_iostat(text, len, &want, &wps);
		assert_same(&got, &gps, &want, &wps, text, len);
	}
}
END_TEST

/* What memory.events' parser must give: lines of exactly two tokens, the
 * second a 64-bit decimal, high's and max's summed. */
static void
ref_events(const char *text, size_t len, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct tw_lines it;
	const char *line;
	size_t llen;
	int complete;

	tw_lines_init(&it, text, len);
	while (tw_lines_next(&it, &line, &llen, &complete)) {
		struct tw_tokens tk;
		const char *key, *v, *extra;
		size_t klen, vlen, xlen;
		uint64_t n;

		ps->lines++;
		tw_tokens_init(&tk, line, llen);
		if (!complete || !tw_tokens_next(&tk, &key, &klen) ||
		    !tw_tokens_next(&tk, &v, &vlen) || tw_tokens_next(&tk, &extra, &xlen) ||
		    tw_parse_u64(v, vlen, &n) != TW_OK) {
			ps->malformed++;
			continue;
		}
		if (tw_token_is(key, klen, "high") || tw_token_is(key, klen, "max")) {
			out->v[TW_CG_LIMIT_EVENTS] += n;
			out->present |= TW_CG_BIT(TW_CG_LIMIT_EVENTS);
		}
	}
}

START_TEST(test_events_reference)
{
	static const char *const keys[] = { "low", "high", "max", "oom", "oom_kill", "hig",
		"maxx", "", "x9" };
	static const char *const blanks[] = { " ", " ", " ", "  ", "\t", " \t", "" };
	static const char *const tails[] = { "", "", "", "", " ", "\t", " 5", "x" };
	char text[4096];
	size_t k;

	srand(1517);
	for (k = 0; k < DIFF_FILES; k++) {
		size_t len = 0, lines = (size_t)rand() % 7, i;
		struct tw_parse_stats gps = { 0, 0 }, wps = { 0, 0 };
		struct tw_cgroup got, want;

		for (i = 0; i < lines; i++) {
			if (rand() % 10 == 0)
				len += PIECE(text + len, blanks);
			len += PIECE(text + len, keys);
			len += PIECE(text + len, blanks);
			len += random_digits(text + len);
			len += PIECE(text + len, tails);
			text[len++] = '\n';
		}
		if (len > 0 && rand() % 5 == 0)
			text[(size_t)rand() % len] = " \t\nx0"[rand() % 5];
		if (len > 0 && rand() % 5 == 0)
			len -= (size_t)rand() % len;
		memset(&got, 0, sizeof(got));
		memset(&want, 0, sizeof(want));
		ck_assert_int_eq(tw_cgroup_parse_events(text, len, &got, &gps), TW_OK);
		ref_events(text, len, &want, &wps);
		assert_same(&got, &gps, &want, &wps, text, len);
	}
}
END_TEST

static Suite *
cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_v2_bounded_by_high);
	tcase_add_test(tc, test_v2_old_kernel_and_max);
	tcase_add_test(tc, test_v2_malformed_io);
	tcase_add_test(tc, test_v1);
	tcase_add_test(tc, test_gone);
	tcase_add_test(tc, test_kept_removed_on_cgroupfs);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_walk_bounds);
	tcase_add_test(tc, test_walk_too_many);
	tcase_add_test(tc, test_corruptions);
	tcase_add_test(tc, test_memstat_reference);
	tcase_add_test(tc, test_iostat_reference);
	tcase_add_test(tc, test_events_reference);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	int rc;

	if (tw_cgroup_trees(trees, sizeof(trees)) != 0)
		return 99;
	rc = tw_run_suite(cgroup_suite());
	tw_cgroup_trees_remove(trees);
	return rc;
}
