/* SPDX-License-Identifier: ISC */
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
#include "view/build.h"
#include "view/record_cgroup.h"
#include "view/mibview.h"
#include "view/view.h"
#include "view/build_priv.h"
#include "window/window.h"

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

static const struct tw_sample_cgroup *
row_of(const struct tw_sample_cgroups *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (strcmp(s->rows[i].cg.path, path) == 0)
			return &s->rows[i];
	return NULL;
}

struct reg {
	struct tw_cgroups *r;
	struct tw_sample_cgroups set;
	struct tw_buf b;
	struct tw_parse_stats ps;
	int fd;
};

static void
reg_open(struct reg *g, const char *root, size_t max_rows, unsigned rescan)
{
	memset(g, 0, sizeof(*g));
	ck_assert_int_eq(tw_cgroups_open(&g->r, max_rows, rescan), TW_OK);
	tw_sample_cgroups_init(&g->set);
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
	tw_sample_cgroups_free(&g->set);
	tw_buf_free(&g->b);
	close(g->fd);
}

START_TEST(test_qualify_and_bound)
{
	struct reg g;
	const struct tw_sample_cgroup *nginx, *slice;
	size_t i;

	/* Four qualify: system.slice, nginx and old.service by their
	 * refaults (and limits), the scope by its refaults and I/O.
	 * idle.service, workers and the two user slices have none of them. */
	reg_open(&g, copy_v2(), 0, 1);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.version, TW_CG_V2);
	ck_assert_uint_eq(g.set.qualified, 4);
	ck_assert_uint_eq(g.set.count, 4);
	ck_assert_ptr_null(row_of(&g.set, "/system.slice/idle.service"));
	ck_assert_ptr_nonnull(row_of(&g.set, "/system.slice/old.service"));
	nginx = row_of(&g.set, "/system.slice/nginx.service");
	ck_assert_ptr_nonnull(nginx);
	ck_assert_str_eq(nginx->unit, "nginx.service");
	ck_assert_uint_eq(nginx->cg.v[TW_CG_REFAULTS], 123456);
	for (i = 1; i < g.set.count; i++)
		ck_assert_uint_lt(g.set.rows[i - 1].index, g.set.rows[i].index);
	reg_close(&g);

	/* Bound to two: the two that refaulted most (the slice holds nginx's
	 * refaults and more), whatever their index. All four refaulted (at
	 * the first walk, ever), more than the bound: no limit is read. */
	reg_open(&g, v2, 2, 1);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.qualified, 4);
	ck_assert_uint_eq(g.set.count, 2);
	ck_assert_uint_eq(g.set.walked, 8);
	ck_assert_uint_eq(g.set.unpublished, 6);
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
 * Its files are opened by its raw path, which the row keeps, and the view
 * shows it (util/escape.h): a carriage return, a newline and a byte that
 * is not UTF-8 escaped, systemd's own backslash too, UTF-8 kept. Only a
 * name of unit characters where systemd puts units is a unit. */
START_TEST(test_chosen_names_shown)
{
	static const struct {
		const char *raw, *path, *unit;
	} cases[] = {
		{ "/system.slice/tw\r\nBUFCACHE OK\xff.service",
		  "/system.slice/tw\\x0d\\x0aBUFCACHE OK\\xff.service", "" },
		{ "/system.slice/user\\x2dsvc.service", "/system.slice/user\\x5cx2dsvc.service",
		  "user\\x5cx2dsvc.service" },
		{ "/r\xc3\xa4ume", "/r\xc3\xa4ume", "" },
	};
	char path[512];
	struct reg g;
	struct tw_window w;
	struct tw_sample s;
	struct tw_view v;
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
	/* The view of this sample alone (no window: no rates). */
	tw_sample_init(&s);
	s.cgroups = g.set;
	s.have |= TW_SRC_BIT(TW_SRC_CGROUPS);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	tw_view_init(&v);
	ck_assert_int_eq(tw_view_build_cgroups(&v, &w, &s), TW_OK);
	ck_assert_uint_eq(v.ncgroups, g.set.count);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tw_sample_cgroup *row = row_of(&g.set, cases[i].raw);
		const struct tw_view_cgroup *vc;

		ck_assert_msg(row != NULL, "no row for %s", cases[i].path);
		vc = &v.cgroups[row - g.set.rows];
		ck_assert_str_eq(vc->path, cases[i].path);
		ck_assert(tw_escape_is_shown(vc->path, strlen(vc->path)));
		ck_assert_str_eq(row->unit, cases[i].unit);
		ck_assert_str_eq(vc->unit, cases[i].unit);
		/* Read through the raw path: its figures are there. */
		ck_assert(row->cg.present & TW_CG_BIT(TW_CG_USAGE));
		ck_assert_uint_eq(row->cg.v[TW_CG_USAGE], 7340032);
	}
	tw_view_free(&v);
	tw_window_free(&w);
	reg_close(&g);	/* frees the set that s borrowed */
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
	ck_assert_str_eq(row_of(&g.set, "/system.slice/old.service")->cg.path,
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
	struct tw_cgroup_record cf;
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
	/* 5 s later: 5000 pages refaulted, 50 MiB read, 10 more events; 4
	 * MiB more memory, 4 MiB less of it cache: 8 MiB more besides. */
	write_file("/system.slice/nginx.service/memory.stat",
	    "file 58720256\nworkingset_refault_file 128456\n");
	write_file("/system.slice/nginx.service/memory.current", "71286784\n");
	write_file("/system.slice/nginx.service/io.stat",
	    "254:0 rbytes=5421137920 wbytes=1048576 rios=1 wios=1 dbytes=0 dios=0\n");
	write_file("/system.slice/nginx.service/memory.events", "high 50\nmax 2\n");
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	s.mono_ms = 6000;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);

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
	tw_view_cgroup_record(c, &cf);
	ck_assert_double_eq(cf.refaults_s, 1000.0);
	ck_assert_double_eq(cf.limit_events_s, 2.0);
	ck_assert_double_eq(cf.read_bytes_s, 10485760.0);
	ck_assert_double_eq(cf.write_bytes_s, 0.0);
	ck_assert_uint_eq(c->col[TW_OID_CGROUP_REFAULTS], 128456);
	ck_assert_double_eq(cf.memory_pressure_pct, 12.5);
	ck_assert_double_eq(cf.anon_growth_kib, 8192.0);
	ck_assert_double_eq(cf.anon_fall_kib, 0.0);

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
	oid[2] = TW_OID_CGROUP_ANON_GROWTH;
	ck_assert_int_eq(tw_mv_get(&v, 0, oid, 4, &val), TW_MV_FOUND);
	ck_assert_uint_eq(val.type, TW_BER_INTEGER);
	ck_assert_int_eq((int64_t)val.num, 8192);
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
	char rel[TW_CG_PATH_LEN + 32];
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
		snprintf(rel, sizeof(rel), "%s/memory.current", g.set.rows[i].cg.path);
		write_file(rel, "4096\n");
	}
	for (t = 0; t < every; t++) {
		unsigned fresh = 0;

		reg_sample(&g);
		ck_assert_uint_eq(g.set.count, 4);
		for (i = 0; i < g.set.count; i++) {
			const struct tw_sample_cgroup *row = &g.set.rows[i];
			int read = (row->held & TW_CG_BIT(TW_CG_LIMIT_EVENTS)) == 0;

			ck_assert_uint_eq(row->cg.v[TW_CG_USAGE], 4096);
			fresh += read;
			fresh_times[i] += read;
			/* The new count once read, now or in an earlier sample. */
			if (row->cg.present & TW_CG_BIT(TW_CG_LIMIT_EVENTS))
				ck_assert_msg((row->cg.v[TW_CG_LIMIT_EVENTS] == 1000) ==
				    (fresh_times[i] > 0), "%s: %llu, read %d", row->cg.path,
				    (unsigned long long)row->cg.v[TW_CG_LIMIT_EVENTS], read);
			/* Held figures are still there, as last read. */
			ck_assert_uint_eq(row->cg.present & TW_CG_BIT(TW_CG_LIMIT_EVENTS),
			    strcmp(row->cg.path, "/user.slice/user-1000.slice/session-2.scope") != 0
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

/* A published cgroup's limits are read in its turn too: a limit changed
 * between walks shows within TW_CGROUPS_SLOW_EVERY samples, and stays;
 * before its turn the row holds the one read last. */
START_TEST(test_limits_in_turn)
{
	const unsigned every = TW_CGROUPS_SLOW_EVERY;
	const struct tw_sample_cgroup *row;
	unsigned t, seen_at = 0;
	struct reg g;

	reg_open(&g, copy_v2(), 0, 1000);
	reg_sample(&g);
	row = row_of(&g.set, "/system.slice/nginx.service");
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(row->cg.v[TW_CG_HIGH], 67108864);
	ck_assert_uint_eq(row->cg.v[TW_CG_MAX], 134217728);
	write_file("/system.slice/nginx.service/memory.high", "268435456\n");
	write_file("/system.slice/nginx.service/memory.max", "max\n");
	for (t = 1; t <= every; t++) {
		reg_sample(&g);
		row = row_of(&g.set, "/system.slice/nginx.service");
		ck_assert_ptr_nonnull(row);
		if (row->cg.v[TW_CG_HIGH] == 268435456) {
			if (seen_at == 0)
				seen_at = t;
			/* memory.max now "max": no maximum. */
			ck_assert_uint_eq(row->cg.present & TW_CG_BIT(TW_CG_MAX), 0);
			ck_assert_uint_ne(row->cg.present & TW_CG_BIT(TW_CG_HIGH), 0);
		} else {
			ck_assert_int_eq(seen_at, 0);
			ck_assert_uint_eq(row->cg.v[TW_CG_HIGH], 67108864);
			ck_assert_uint_eq(row->cg.v[TW_CG_MAX], 134217728);
		}
	}
	ck_assert_uint_ge(seen_at, 1);
	ck_assert_uint_le(seen_at, every);
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
		const struct tw_sample_cgroup *row = NULL;
		const struct tw_view_cgroup *c = NULL;
		struct tw_cgroup_record cf;
		uint64_t events = 40 + 10 * (uint64_t)k;

		snprintf(text, sizeof(text), "high %llu\nmax 0\n", (unsigned long long)events);
		write_file("/system.slice/nginx.service/memory.events", text);
		ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
		s.mono_ms = 1000 + 5000 * (uint64_t)k;
		ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
		ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
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
		tw_view_cgroup_record(c, &cf);
		ck_assert_msg(cf.limit_events_s == 2.0, "sample %u: %g a second", k,
		    cf.limit_events_s);
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

/* ---- A host's tree made here: hundreds of idle services with limits
 * beside one that thrashes (cgroup v2 files, as the kernel writes them). */

static char host[256];

static void
host_file(const char *rel, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/fs/cgroup%s/%s", host, rel, name);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* A cgroup at rel with a memory.max of limit bytes (0: none), the given
 * refaults and limit events, and no I/O. */
static void
host_cgroup(const char *rel, uint64_t limit, uint64_t refaults, uint64_t events)
{
	char path[1024], text[128];

	snprintf(path, sizeof(path), "%s/sys/fs/cgroup%s", host, rel);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)limit);
	host_file(rel, "memory.max", limit > 0 ? text : "max\n");
	host_file(rel, "memory.high", "max\n");
	host_file(rel, "memory.current", "1000000\n");
	host_file(rel, "io.stat", "");
	snprintf(text, sizeof(text), "file 500000\nworkingset_refault_file %llu\n",
	    (unsigned long long)refaults);
	host_file(rel, "memory.stat", text);
	snprintf(text, sizeof(text), "low 0\nhigh %llu\nmax 0\noom 0\noom_kill 0\n",
	    (unsigned long long)events);
	host_file(rel, "memory.events", text);
}

static void
host_counts(const char *rel, uint64_t refaults, uint64_t events)
{
	char text[128];

	snprintf(text, sizeof(text), "file 500000\nworkingset_refault_file %llu\n",
	    (unsigned long long)refaults);
	host_file(rel, "memory.stat", text);
	snprintf(text, sizeof(text), "low 0\nhigh %llu\nmax 0\noom 0\noom_kill 0\n",
	    (unsigned long long)events);
	host_file(rel, "memory.events", text);
}

static const char *
host_root(unsigned idle)
{
	char path[1024];
	unsigned i;

	snprintf(host, sizeof(host), "/tmp/tw-cgroups-host-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(host));
	snprintf(path, sizeof(path), "%s/sys", host);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/fs", host);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup", host);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	host_file("", "cgroup.controllers", "cpu io memory pids\n");
	host_cgroup("/idle.slice", 0, 0, 0);
	for (i = 0; i < idle; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "/idle.slice/idle%03u.service", i);
		host_cgroup(rel, 64 << 20, 0, 0);
	}
	return host;
}

static void
host_remove(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", host);
	ck_assert_int_eq(system(cmd), 0);
}

/* An idle service that is not published now (indexes follow the order
 * the directory lists them in, not their names). */
static void
unpublished_idle(const struct tw_sample_cgroups *set, char *path, size_t len, unsigned from)
{
	unsigned i;

	for (i = from; i-- > 0;) {
		snprintf(path, len, "/idle.slice/idle%03u.service", i);
		if (row_of(set, path) == NULL)
			return;
	}
	ck_abort_msg("every idle service is published");
}

/* 300 idle services with limits and, made after them (so with a higher
 * index than all), one at its limit that starts to refault: it and its
 * slice, which holds its refaults, are published before any idle one,
 * at the first walk after it refaults. Before that it is one more limit,
 * ranked by its index, and left out, as is every idle one past
 * cgroupMax; the counts say so. */
START_TEST(test_symptom_outranks_limit)
{
	struct reg g;
	const char *web = "/thrash.slice/web.service";
	char events[64], quiet[64];
	size_t i, idle = 0;

	reg_open(&g, host_root(300), 16, 1);
	reg_sample(&g);
	ck_assert_uint_eq(g.set.count, 16);
	ck_assert_uint_eq(g.set.walked, 301);
	ck_assert_uint_eq(g.set.unpublished, 301 - 16);
	host_cgroup("/thrash.slice", 0, 0, 0);
	host_cgroup(web, 64 << 20, 0, 0);
	reg_sample(&g);
	ck_assert_ptr_null(row_of(&g.set, web));
	ck_assert_uint_eq(g.set.walked, 303);

	/* 400,000 pages read back since that walk, its slice's sum with it. */
	host_counts(web, 400000, 0);
	host_counts("/thrash.slice", 400000, 0);
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, web));
	ck_assert_ptr_nonnull(row_of(&g.set, "/thrash.slice"));
	ck_assert_uint_eq(row_of(&g.set, web)->cg.v[TW_CG_REFAULTS], 400000);
	for (i = 0; i < g.set.count; i++)
		idle += strncmp(g.set.rows[i].cg.path, "/idle.slice/", 12) == 0;
	ck_assert_uint_eq(idle, 14);
	ck_assert_uint_eq(g.set.count, 16);
	ck_assert_uint_eq(g.set.unpublished, 303 - 16);

	/* Limit events alone (cgroup v2's memory.events, summed up the tree
	 * as refaults are) rank before an idle limit too, after refaults:
	 * an idle service the bound left out comes in. */
	unpublished_idle(&g.set, events, sizeof(events), 300);
	host_counts(events, 0, 25);
	host_counts("/idle.slice", 0, 25);
	host_counts(web, 500000, 0);
	host_counts("/thrash.slice", 500000, 0);
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, events));
	ck_assert_ptr_nonnull(row_of(&g.set, web));
	ck_assert_ptr_nonnull(row_of(&g.set, "/idle.slice"));

	/* A service whose own count moved while its slice's sum did not
	 * (which the kernel never shows) is not read below the quiet slice:
	 * the walk's saving, seen in what it publishes. */
	reg_sample(&g);
	unpublished_idle(&g.set, quiet, sizeof(quiet), 300);
	host_counts(quiet, 900000, 0);
	reg_sample(&g);
	ck_assert_ptr_null(row_of(&g.set, quiet));
	/* Once the slice's sum moves too, it is. */
	host_counts("/idle.slice", 900000, 25);
	reg_sample(&g);
	ck_assert_ptr_nonnull(row_of(&g.set, quiet));
	reg_close(&g);
	host_remove();
}
END_TEST

/* A hidden service is walked and published like any other; a path too
 * long for a DisplayString is published with its head cut, and what the
 * walk could not reach is counted in the set and the twAgent scalars. */
START_TEST(test_hidden_long_and_cut)
{
	static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_window w;
	struct tw_view v;
	char proc[4096], sys[512], err[256], rel[1024], deep[400];
	const char *hidden = "/.hidden/.web.service";
	const struct tw_view_cgroup *long_row = NULL, *hidden_row = NULL;
	unsigned i;

	host_root(0);
	host_cgroup("/.hidden", 0, 0, 0);
	host_cgroup(hidden, 64 << 20, 1000, 0);
	/* Three components of 100 bytes: a 311-byte path that refaults. */
	snprintf(rel, sizeof(rel), "/long");
	host_cgroup(rel, 0, 2000, 0);
	for (i = 0; i < 3; i++) {
		size_t n = strlen(rel);

		rel[n] = '/';
		memset(rel + n + 1, 'a' + (char)i, 100);
		rel[n + 101] = '\0';
		host_cgroup(rel, 0, 2000, 0);
	}
	ck_assert_uint_eq(strlen(rel), 308);
	/* 130 levels: the last two are past TW_CG_DEPTH_MAX, the first of
	 * them counted. */
	snprintf(deep, sizeof(deep), "%s", "");
	{
		char path[2048];

		snprintf(path, sizeof(path), "/deep");
		host_cgroup(path, 0, 0, 0);
		for (i = 1; i < 130; i++) {
			strcat(path, "/d");
			host_cgroup(path, 0, 0, 0);
		}
	}

	snprintf(proc, sizeof(proc), "%s", tw_fixture_path("agent/proc"));
	snprintf(sys, sizeof(sys), "%s/sys", host);
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	cfg.cgroup_rescan = 12;
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	s.mono_ms = 1000;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	ck_assert_uint_eq(s.cgroups.cuts.too_deep, 1);
	ck_assert_uint_eq(s.cgroups.cuts.too_long + s.cgroups.cuts.too_many, 0);
	/* idle.slice, .hidden and its service, long and its 3, deep's 128 */
	ck_assert_uint_eq(s.cgroups.walked, 1 + 2 + 4 + TW_CG_DEPTH_MAX);
	ck_assert_uint_eq(v.agent.col[TW_OID_AGENT_CGROUPS_WALKED], s.cgroups.walked);
	ck_assert_uint_eq(v.agent.col[TW_OID_AGENT_CGROUPS_CUT_DEEP], 1);
	ck_assert_uint_eq(v.agent.col[TW_OID_AGENT_CGROUPS_CUT_LONG], 0);
	ck_assert_uint_eq(v.agent.col[TW_OID_AGENT_CGROUPS_UNPUBLISHED],
	    s.cgroups.walked - s.cgroups.count);
	ck_assert(v.agent.has & TW_VIEW_BIT(TW_OID_AGENT_CGROUPS_CUT_MANY));
	for (i = 0; i < v.ncgroups; i++) {
		if (strcmp(v.cgroups[i].path, hidden) == 0)
			hidden_row = &v.cgroups[i];
		if (strncmp(v.cgroups[i].path, ".../", 4) == 0)
			long_row = &v.cgroups[i];
	}
	ck_assert_ptr_nonnull(hidden_row);
	/* Not where systemd puts a unit (no slice holds it): a plain cgroup,
	 * published like any other, with no unit's name. */
	ck_assert_str_eq(hidden_row->unit, "");
	/* "..." and the last two components: the three would not fit. */
	ck_assert_ptr_nonnull(long_row);
	ck_assert_uint_le(strlen(long_row->path), 255);
	ck_assert_str_eq(long_row->path + 3, rel + strlen(rel) - 202);
	ck_assert_ptr_nonnull(row_of(&s.cgroups, rel));
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
	tw_sampler_close(sp);
	host_remove();
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
	tcase_add_test(tc, test_limits_in_turn);
	tcase_add_test(tc, test_events_rate_between_reads);
	tcase_add_test(tc, test_symptom_outranks_limit);
	tcase_add_test(tc, test_hidden_long_and_cut);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(cgroups_suite());
}
