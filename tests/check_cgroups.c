#include "config.h"

/* Unit tests for lib/sample/cgroups.c (which cgroups a sample holds, the
 * bound, busiest first, indexes that last while a cgroup lives) and for
 * twCgroupTable's figures in the view and the MIB tree
 * (lib/view/cgview.c, mibview.c), on copies of the cgroup v2 fixture that
 * the tests change between samples. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/cgroups.h"
#include "sample/pools.h"
#include "sample/sampler.h"
#include "tw_cgroup_fixture.h"
#include "tw_check.h"
#include "util/error.h"
#include "util/escape.h"
#include "view/mibview.h"
#include "view/view.h"

static char tmp[256], v2[300];

/* The trees in a fresh directory (tw_cgroup_fixture.h); returns the v2
 * root, whose sys/ is the sys root. */
static const char *
copy_v2(void)
{
	ck_assert_int_eq(tw_cgroup_trees(tmp, sizeof(tmp)), 0);
	snprintf(v2, sizeof(v2), "%s/v2", tmp);
	return v2;
}

static void
remove_copy(void)
{
	tw_cgroup_trees_remove(tmp);
}

static void
write_file(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/fs/cgroup%s", v2, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int
open_sys(const char *root)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/sys", root);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static const struct tw_cgroup_row *
row_of(const struct tw_cgroup_set *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (strcmp(s->rows[i].cg.shown_path, path) == 0)
			return &s->rows[i];
	return NULL;
}

struct reg {
	struct tw_cgroups *r;
	struct tw_cgroup_set set;
	struct tw_buf b;
	struct tw_parse_stats ps;
	int fd;
};

static void
reg_open(struct reg *g, const char *root, size_t max_rows, unsigned rescan)
{
	memset(g, 0, sizeof(*g));
	ck_assert_int_eq(tw_cgroups_open(&g->r, max_rows, rescan), TW_OK);
	tw_cgroup_set_init(&g->set);
	tw_buf_init(&g->b);
	g->fd = open_sys(root);
}

static void
reg_sample(struct reg *g)
{
	ck_assert_int_eq(tw_cgroups_sample(g->r, g->fd, &g->b, &g->set, &g->ps), TW_OK);
}

static void
reg_close(struct reg *g)
{
	tw_cgroups_close(g->r);
	tw_cgroup_set_free(&g->set);
	tw_buf_free(&g->b);
	close(g->fd);
}

START_TEST(test_qualify_and_bound)
{
	struct reg g;
	const struct tw_cgroup_row *nginx, *slice;
	size_t i;

	/* Four qualify: system.slice and the scope by their I/O, nginx by
	 * both, old.service by its limit. idle.service, workers and the two
	 * user slices have neither. */
	reg_open(&g, copy_v2(), 0, 1);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.version, TW_CG_V2);
	ck_assert_uint_eq(g.set.qualified, 4);
	ck_assert_uint_eq(g.set.count, 4);
	ck_assert_ptr_null(row_of(&g.set, "/system.slice/idle.service"));
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/old.service"));
	nginx = row_of(&g.set, "/system.slice/nginx.service");
	ck_assert_ptr_nonnull(nginx);
	ck_assert_str_eq(nginx->shown_unit, "nginx.service");
	ck_assert_uint_eq(nginx->cg.v[TW_CG_REFAULTS], 123456);
	for (i = 1; i < g.set.count; i++)
		ck_assert_uint_lt(g.set.rows[i - 1].index, g.set.rows[i].index);
	reg_close(&g);

	/* Bound to two: the two that read most (the slice holds nginx's
	 * reads and more), whatever their index. Three did I/O, more than
	 * the bound: no limit is read, and old.service is not found. */
	reg_open(&g, v2, 2, 1);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.qualified, 3);
	ck_assert_uint_eq(g.set.count, 2);
	slice = row_of(&g.set, "/system.slice");
	ck_assert_ptr_nonnull(slice);
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/nginx.service"));
	reg_close(&g);
	remove_copy();
}
END_TEST

/* The scope's io.stat, and its slices', which the kernel sums up the tree
 * (cgroup v2): bytes read by the scope since the fixture was made. */
static void
scope_reads(const char *rbytes)
{
	static const char *const at[] = {
		"/user.slice/user-1000.slice/session-2.scope/io.stat",
		"/user.slice/user-1000.slice/io.stat",
		"/user.slice/io.stat",
	};
	char line[128];
	size_t i;

	snprintf(line, sizeof(line), "8:0 rbytes=%s wbytes=2000 rios=1 wios=1 dbytes=0 dios=0\n",
	    rbytes);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		write_file(at[i], line);
}

/* A cgroup is named by whoever made it: mkdir takes any byte but '/'.
 * Its files are opened by its raw path, and the row shows it
 * (util/escape.h): a carriage return, a newline and a byte that is not
 * UTF-8 escaped, systemd's own backslash too, UTF-8 kept. */
START_TEST(test_chosen_names_shown)
{
	static const struct {
		const char *raw, *path, *unit;
	} cases[] = {
		{ "/system.slice/tw\r\nBUFCACHE OK\xff.service",
		  "/system.slice/tw\\x0d\\x0aBUFCACHE OK\\xff.service",
		  "tw\\x0d\\x0aBUFCACHE OK\\xff.service" },
		{ "/system.slice/user\\x2dsvc.service", "/system.slice/user\\x5cx2dsvc.service",
		  "user\\x5cx2dsvc.service" },
		{ "/r\xc3\xa4ume", "/r\xc3\xa4ume", "" },
	};
	char path[512];
	struct reg g;
	size_t i;

	copy_v2();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s/sys/fs/cgroup%s", v2, cases[i].raw);
		ck_assert_int_eq(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/io.stat", cases[i].raw);
		write_file(path, "8:0 rbytes=99999999999 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n");
		snprintf(path, sizeof(path), "%s/memory.current", cases[i].raw);
		write_file(path, "7340032\n");
	}
	reg_open(&g, v2, 0, 1);
	reg_sample(&g);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tw_cgroup_row *row = row_of(&g.set, cases[i].path);

		ck_assert_msg(row != NULL, "no row shown as %s", cases[i].path);
		ck_assert(tw_escape_is_shown(row->cg.shown_path, strlen(row->cg.shown_path)));
		ck_assert_str_eq(row->shown_unit, cases[i].unit);
		/* Read through the raw path: its figures are there. */
		ck_assert(row->cg.present & TW_CG_BIT(TW_CG_USAGE));
		ck_assert_uint_eq(row->cg.v[TW_CG_USAGE], 7340032);
	}
	reg_close(&g);
	remove_copy();
}
END_TEST

START_TEST(test_busiest_since_last_rescan)
{
	struct reg g;
	const char *root = copy_v2();

	/* At the first rescan system.slice, which read most, is published;
	 * then the scope reads 10 GB while it reads nothing, and so do the
	 * scope's two slices, which hold its I/O: the three rank first. */
	reg_open(&g, root, 4, 1);
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice"));
	scope_reads("10000000000");
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, "/user.slice/user-1000.slice/session-2.scope"));
	ck_assert_ptr_nonnull(row_of(&g.set, "/user.slice/user-1000.slice"));
	ck_assert_ptr_nonnull(row_of(&g.set, "/user.slice"));
	/* system.slice read nothing since and has no limit: it no longer
	 * qualifies. nginx and old.service still do, by their limits alone,
	 * so they rank after the scope by index: the bound leaves room for
	 * one, and limits are read, lowest index first, until it is found. */
	ck_assert_uint_eq(g.set.count, 4);
	ck_assert_uint_eq(g.set.qualified, 4);
	ck_assert_ptr_null(row_of(&g.set, "/system.slice"));
	ck_assert((row_of(&g.set, "/system.slice/nginx.service") != NULL) !=
	    (row_of(&g.set, "/system.slice/old.service") != NULL));
	/* With room for both, both, as if every limit were read. */
	reg_close(&g);
	reg_open(&g, root, 5, 1);
	reg_sample(&g);
	scope_reads("20000000000");
	reg_sample(&g);
	ck_assert_uint_eq(g.set.count, 5);
	ck_assert_uint_eq(g.set.qualified, 5);
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/nginx.service"));
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/old.service"));
	ck_assert_str_eq(row_of(&g.set, "/system.slice/old.service")->cg.shown_path,
	    "/system.slice/old.service");
	ck_assert(row_of(&g.set, "/system.slice/old.service")->cg.present &
	    (TW_CG_BIT(TW_CG_HIGH) | TW_CG_BIT(TW_CG_MAX)));
	reg_close(&g);
	remove_copy();
}
END_TEST

/* A subtree whose io.stat sum is the last rescan's is not read below its
 * top (cgroup v2 sums descendants): a child whose own file moved while its
 * parent's did not (which the kernel never shows) is therefore not seen
 * to move; once the parent moves too, it is. This is how the test knows
 * the quiet subtree was not read: the walk's saving, not only its result. */
START_TEST(test_quiet_subtree_not_read)
{
	struct reg g;
	const char *root = copy_v2();
	const char *scope = "/user.slice/user-1000.slice/session-2.scope";

	reg_open(&g, root, 16, 1);
	reg_sample(&g);
	reg_sample(&g);
	write_file("/user.slice/user-1000.slice/session-2.scope/io.stat",
	    "8:0 rbytes=10000000000 wbytes=2000 rios=1 wios=1 dbytes=0 dios=0\n");
	reg_sample(&g);
	ck_assert_ptr_null(row_of(&g.set, scope));
	/* The slices above it move: the scope is read again, and its
	 * growth since the rescan that last read it is its score. Only the
	 * top one moving would leave user-1000.slice quiet, and the scope
	 * unread below it. */
	write_file("/user.slice/io.stat",
	    "8:0 rbytes=10000000000 wbytes=2000 rios=1 wios=1 dbytes=0 dios=0\n");
	reg_sample(&g);
	ck_assert_ptr_null(row_of(&g.set, scope));
	write_file("/user.slice/io.stat",
	    "8:0 rbytes=20000000000 wbytes=2000 rios=1 wios=1 dbytes=0 dios=0\n");
	write_file("/user.slice/user-1000.slice/io.stat",
	    "8:0 rbytes=20000000000 wbytes=2000 rios=1 wios=1 dbytes=0 dios=0\n");
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, scope));
	ck_assert_ptr_nonnull(row_of(&g.set, "/user.slice"));
	reg_close(&g);
	remove_copy();
}
END_TEST

START_TEST(test_index_lives_with_the_cgroup)
{
	struct reg g;
	const char *root = copy_v2();
	char cmd[8192], pristine[256];
	uint32_t nginx, old;

	/* Rescans every third sample, as tunewatchd does once a window. */
	reg_open(&g, root, 0, 3);
	reg_sample(&g);
	nginx = row_of(&g.set, "/system.slice/nginx.service")->index;
	old = row_of(&g.set, "/system.slice/old.service")->index;
	reg_sample(&g);
	ck_assert_uint_eq(row_of(&g.set, "/system.slice/nginx.service")->index, nginx);

	/* Removed between rescans: gone from the next sample at once. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/fs/cgroup/system.slice/nginx.service'", root);
	ck_assert_int_eq(system(cmd), 0);
	reg_sample(&g);
	ck_assert_ptr_null(row_of(&g.set, "/system.slice/nginx.service"));
	ck_assert_uint_eq(g.set.count, 3);

	/* Made again: a new cgroup, a new index, found by the next rescan;
	 * the others keep theirs. */
	ck_assert_int_eq(tw_cgroup_trees(pristine, sizeof(pristine)), 0);
	snprintf(cmd, sizeof(cmd), "cp -R '%s/v2/sys/fs/cgroup/system.slice/nginx.service' "
	    "'%s/sys/fs/cgroup/system.slice/'", pristine, root);
	ck_assert_int_eq(system(cmd), 0);
	tw_cgroup_trees_remove(pristine);
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/nginx.service"));
	ck_assert_uint_ne(row_of(&g.set, "/system.slice/nginx.service")->index, nginx);
	ck_assert_uint_eq(row_of(&g.set, "/system.slice/old.service")->index, old);
	reg_close(&g);
	remove_copy();
}
END_TEST

START_TEST(test_no_controllers)
{
	struct reg g;

	reg_open(&g, tw_fixture_path("collectors/blockqueue"), 0, 1);
	ck_assert_int_eq(tw_cgroups_sample(g.r, g.fd, &g.b, &g.set, &g.ps), TW_E_ABSENT);
	ck_assert_uint_eq(g.set.count, 0);
	reg_close(&g);
}
END_TEST

/* Two samples 5 s apart, by their stamps, into a window and a view. */
START_TEST(test_view_rates)
{
	static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_window w;
	struct tw_view v;
	struct tw_ber_value val;
	const struct tw_view_cgroup *c = NULL;
	char proc[4096], sys[512], err[256];
	uint32_t oid[4];
	size_t i;

	snprintf(proc, sizeof(proc), "%s", tw_fixture_path("agent/proc"));
	snprintf(sys, sizeof(sys), "%s/sys", copy_v2());
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	/* As tunewatchd: one walk a window, so both samples hold the four. */
	cfg.cgroup_rescan = 12;
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);

	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	s.mono_ms = 1000;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	/* 5 s later: 5000 pages refaulted, 50 MiB read, 10 more events. */
	write_file("/system.slice/nginx.service/memory.stat",
	    "file 62914560\nworkingset_refault_file 128456\n");
	write_file("/system.slice/nginx.service/io.stat",
	    "254:0 rbytes=5421137920 wbytes=1048576 rios=1 wios=1 dbytes=0 dios=0\n");
	write_file("/system.slice/nginx.service/memory.events", "high 50\nmax 2\n");
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	s.mono_ms = 6000;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &settings, &w, &s, &pools), TW_OK);

	ck_assert_uint_eq(v.ncgroups, 4);
	for (i = 0; i < v.ncgroups; i++)
		if (strcmp(v.cgroups[i].path, "/system.slice/nginx.service") == 0)
			c = &v.cgroups[i];
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->unit, "nginx.service");
	/* memory.high (64 MiB) is below memory.max (128 MiB): it bounds. */
	ck_assert_str_eq(c->limit_name, "memory.high");
	ck_assert_uint_eq(c->col[TW_OID_CGROUP_MEMORY_LIMIT], 67108864);
	ck_assert_uint_eq(c->col[TW_OID_CGROUP_VERSION], 2);
	ck_assert_double_eq(tw_view_num(c, TW_OID_CGROUP_REFAULT_RATE), 1000.0);
	ck_assert_double_eq(tw_view_num(c, TW_OID_CGROUP_LIMIT_EVENT_RATE), 2.0);
	ck_assert_double_eq(tw_view_num(c, TW_OID_CGROUP_READ_RATE), 10485760.0);
	ck_assert_double_eq(tw_view_num(c, TW_OID_CGROUP_WRITE_RATE), 0.0);
	ck_assert_uint_eq(c->col[TW_OID_CGROUP_REFAULTS], 128456);
	ck_assert_double_eq(tw_view_num(c, TW_OID_CGROUP_MEMORY_PRESSURE), 12.5);

	/* The MIB tree: twCgroupRefaultRate.<index> in hundredths. */
	oid[0] = TW_OID_CGROUP_TABLE;
	oid[1] = TW_OID_CGROUP_ENTRY;
	oid[2] = TW_OID_CGROUP_REFAULT_RATE;
	oid[3] = c->index;
	ck_assert_int_eq(tw_mv_get(&v, 0, oid, 4, &val), TW_MV_FOUND);
	ck_assert_uint_eq(val.type, TW_BER_GAUGE32);
	ck_assert_uint_eq(val.num, 100000);
	oid[2] = TW_OID_CGROUP_PATH;
	ck_assert_int_eq(tw_mv_get(&v, 0, oid, 4, &val), TW_MV_FOUND);
	ck_assert_uint_eq(val.len, strlen("/system.slice/nginx.service"));
	/* old.service has no pressure files: no instance. */
	for (i = 0; i < v.ncgroups; i++)
		if (strcmp(v.cgroups[i].path, "/system.slice/old.service") == 0)
			oid[3] = v.cgroups[i].index;
	oid[2] = TW_OID_CGROUP_MEMORY_PRESSURE;
	ck_assert_int_eq(tw_mv_get(&v, 0, oid, 4, &val), TW_MV_NO_SUCH_INSTANCE);
	oid[2] = TW_OID_CGROUP_LIMIT_NAME;
	ck_assert_int_eq(tw_mv_get(&v, 0, oid, 4, &val), TW_MV_FOUND);
	ck_assert_int_eq(memcmp(val.str, "memory.max", val.len), 0);

	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
	tw_sampler_close(sp);
	remove_copy();
}
END_TEST

/* memory.events and the pressure files are read in turns: each published
 * cgroup every TW_CGROUPS_SLOW_EVERY-th sample, a share of them in each
 * sample, and held in between; memory.current is read every sample. */
START_TEST(test_slow_files_in_turn)
{
	static const char *const with_events[] = { "/system.slice", "/system.slice/nginx.service",
		"/system.slice/old.service" };
	const unsigned every = TW_CGROUPS_SLOW_EVERY;
	unsigned fresh_times[4] = { 0 }, t;
	struct reg g;
	char rel[TW_CG_SHOWN_PATH_LEN + 32];
	size_t i;

	reg_open(&g, copy_v2(), 0, 1000);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.count, 4);
	for (i = 0; i < g.set.count; i++)
		ck_assert_uint_eq(g.set.rows[i].held, 0);
	for (i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "%s/memory.events", with_events[i]);
		write_file(rel, "low 0\nhigh 1000\nmax 0\noom 0\noom_kill 0\n");
	}
	for (i = 0; i < g.set.count; i++) {
		snprintf(rel, sizeof(rel), "%s/memory.current", g.set.rows[i].cg.shown_path);
		write_file(rel, "4096\n");
	}
	for (t = 0; t < every; t++) {
		unsigned fresh = 0;

		reg_sample(&g);
		ck_assert_uint_eq(g.set.count, 4);
		for (i = 0; i < g.set.count; i++) {
			const struct tw_cgroup_row *row = &g.set.rows[i];
			int read = (row->held & TW_CG_BIT(TW_CG_LIMIT_EVENTS)) == 0;

			ck_assert_uint_eq(row->cg.v[TW_CG_USAGE], 4096);
			fresh += read;
			fresh_times[i] += read;
			/* The new count once read, now or in an earlier sample. */
			if (row->cg.present & TW_CG_BIT(TW_CG_LIMIT_EVENTS))
				ck_assert_msg((row->cg.v[TW_CG_LIMIT_EVENTS] == 1000) ==
				    (fresh_times[i] > 0), "%s: %llu, read %d", row->cg.shown_path,
				    (unsigned long long)row->cg.v[TW_CG_LIMIT_EVENTS], read);
			/* Held figures are still there, as last read. */
			ck_assert_uint_eq(row->cg.present & TW_CG_BIT(TW_CG_LIMIT_EVENTS),
			    strcmp(row->cg.shown_path, "/user.slice/user-1000.slice/session-2.scope") != 0
			    ? TW_CG_BIT(TW_CG_LIMIT_EVENTS) : 0);
		}
		/* A similar share in every sample. */
		ck_assert_uint_ge(fresh, 4 / every);
		ck_assert_uint_le(fresh, (4 + every - 1) / every);
	}
	/* Each read once in `every` samples. */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(fresh_times[i], 1);
	reg_close(&g);
	remove_copy();
}
END_TEST

/* A counter read every few samples: its rate is taken between the samples
 * it was read in, so it comes out right whichever sample the view is built
 * from, while its total is the one last read. nginx's memory.events grows
 * by 10 every 5 s: 2 a second. */
START_TEST(test_events_rate_between_reads)
{
	static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_window w;
	struct tw_view v;
	char proc[4096], sys[512], err[256], text[64];
	uint64_t last_read = 0, reads = 0, held_with_rate = 0;
	unsigned k;
	size_t i;

	snprintf(proc, sizeof(proc), "%s", tw_fixture_path("agent/proc"));
	snprintf(sys, sizeof(sys), "%s/sys", copy_v2());
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	cfg.cgroup_rescan = 1000;
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	for (k = 0; k < 3 * TW_CGROUPS_SLOW_EVERY; k++) {
		const struct tw_cgroup_row *row = NULL;
		const struct tw_view_cgroup *c = NULL;
		uint64_t events = 40 + 10 * (uint64_t)k;

		snprintf(text, sizeof(text), "high %llu\nmax 0\n", (unsigned long long)events);
		write_file("/system.slice/nginx.service/memory.events", text);
		ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
		s.mono_ms = 1000 + 5000 * (uint64_t)k;
		ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
		ck_assert_int_eq(tw_view_build(&v, &settings, &w, &s, &pools), TW_OK);
		row = row_of(&s.cgroups, "/system.slice/nginx.service");
		ck_assert_ptr_nonnull(row);
		for (i = 0; i < v.ncgroups; i++)
			if (v.cgroups[i].index == row->index)
				c = &v.cgroups[i];
		ck_assert_ptr_nonnull(c);
		if (!(row->held & TW_CG_BIT(TW_CG_LIMIT_EVENTS))) {
			last_read = events;
			reads++;
		}
		ck_assert_uint_eq(c->col[TW_OID_CGROUP_LIMIT_EVENTS], last_read);
		if (reads < 2) {
			ck_assert(!(c->has & TW_VIEW_BIT(TW_OID_CGROUP_LIMIT_EVENT_RATE)));
			continue;
		}
		ck_assert_msg(tw_view_num(c, TW_OID_CGROUP_LIMIT_EVENT_RATE) == 2.0,
		    "sample %u: %g a second", k, tw_view_num(c, TW_OID_CGROUP_LIMIT_EVENT_RATE));
		held_with_rate += (row->held & TW_CG_BIT(TW_CG_LIMIT_EVENTS)) != 0;
	}
	/* Read once at the start, then once in each SLOW_EVERY samples. */
	ck_assert_uint_ge(reads, 3);
	ck_assert_uint_le(reads, 4);
	ck_assert_uint_gt(held_with_rate, 0);
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
	tw_sampler_close(sp);
	remove_copy();
}
END_TEST

static Suite *
cgroups_suite(void)
{
	Suite *s = suite_create("cgroups");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_qualify_and_bound);
	tcase_add_test(tc, test_chosen_names_shown);
	tcase_add_test(tc, test_busiest_since_last_rescan);
	tcase_add_test(tc, test_quiet_subtree_not_read);
	tcase_add_test(tc, test_index_lives_with_the_cgroup);
	tcase_add_test(tc, test_no_controllers);
	tcase_add_test(tc, test_view_rates);
	tcase_add_test(tc, test_slow_files_in_turn);
	tcase_add_test(tc, test_events_rate_between_reads);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(cgroups_suite());
}
