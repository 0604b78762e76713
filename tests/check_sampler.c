/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/sample/sampler.c's device registry against
 * tests/fixtures/names: the names and types it reads with the queue, the
 * multipath paths the default filter hides, and what the view publishes
 * of them (twDiskAlias, twDiskStableId, twDiskType). */
#include <stdint.h>
#include <sys/stat.h>

#include "sample/pools.h"
#include "sample/sampler.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/build.h"
#include "view/view.h"
#include "window/window.h"

static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };

static void
take(const char *exclude, struct tw_sample *s)
{
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	char proc[4096], err[256];

	snprintf(proc, sizeof(proc), "%s", tw_fixture_path("names/proc"));
	cfg.proc_root = proc;
	cfg.sys_root = tw_fixture_path("names/sys");
	cfg.disk_exclude = exclude;
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(tw_sampler_take(sp, s), TW_OK);
	tw_sampler_close(sp);
}

/* The kept devices' names, in (major, minor) order. */
static void
names(const struct tw_sample *s, char *out, size_t len)
{
	size_t i, off = 0;

	out[0] = '\0';
	for (i = 0; i < s->disks.count && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i ? " " : "",
		    s->disks.disks[i].name);
}

static const struct tw_blockident *
ident(const struct tw_sample *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->disks.count; i++)
		if (strcmp(s->disks.disks[i].name, name) == 0)
			return &s->idents[i];
	ck_abort_msg("%s not kept", name);
	return NULL;
}

START_TEST(test_default_hides_paths)
{
	struct tw_sample s;
	char got[512];

	tw_sample_init(&s);
	take(NULL, &s);
	names(&s, got, sizeof(got));
	/* loop0 and the partition sda2 as before; sdb and sdc are dm-0's paths. */
	ck_assert_str_eq(got, "sda md_home md127 dm-0 dm-1 nvme0n1 nvme1n1");
	ck_assert_str_eq(ident(&s, "dm-0")->alias, "mpatha");
	ck_assert_int_eq(ident(&s, "dm-0")->type, TW_DISK_TYPE_MULTIPATH);
	ck_assert_str_eq(ident(&s, "dm-1")->alias, "vg0-root");
	ck_assert_int_eq(ident(&s, "dm-1")->type, TW_DISK_TYPE_DM);
	ck_assert_str_eq(ident(&s, "md_home")->alias, "home");
	ck_assert_int_eq(ident(&s, "md127")->type, TW_DISK_TYPE_MD);
	ck_assert_str_eq(ident(&s, "sda")->stable_id, "naa.5000c500a1b2c3d4");
	ck_assert_str_eq(ident(&s, "nvme0n1")->stable_id, "eui.0025388b71b1c2d4");
	ck_assert_int_eq(ident(&s, "nvme1n1")->type, TW_DISK_TYPE_NVME);
	/* The queue is still read beside the names. */
	ck_assert_str_eq(s.queues[0].scheduler, "bfq");
	tw_sample_free(&s);
}
END_TEST

/* An exclusion of one's own is taken as it is: paths are shown. */
START_TEST(test_own_exclusion_shows_paths)
{
	struct tw_sample s;
	char got[512];

	tw_sample_init(&s);
	take("^loop", &s);
	names(&s, got, sizeof(got));
	ck_assert_str_eq(got, "sda sda2 sdb sdc md_home md127 dm-0 dm-1 nvme0n1 nvme1n1");
	ck_assert_str_eq(ident(&s, "sdb")->stable_id, "naa.600a0b80001234560000abcd");
	ck_assert_int_eq(ident(&s, "sdb")->type, TW_DISK_TYPE_DISK);
	/* A partition has no /sys/block directory of its own. */
	ck_assert_int_eq(ident(&s, "sda2")->type, TW_DISK_TYPE_UNKNOWN);
	tw_sample_free(&s);
}
END_TEST

/* A device whose kernel name would need escaping: its queue and names
 * are read from its sysfs directory by that name, and it is shown. */
START_TEST(test_odd_name_read_by_raw_name)
{
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	struct tw_sample s;
	char dir[] = "/tmp/tw-sampler-XXXXXX", path[512], proc[512], sys[512], err[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	ck_assert_int_eq(mkdir(proc, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/diskstats", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("9 0 md_\x01\xff 1 2 3 4 5 6 7 8 0 10 11\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "mkdir -p '%s/sys/block/md_\x01\xff/queue' "
	    "'%s/sys/block/md_\x01\xff/md' && printf '[mq-deadline] none\\n' > "
	    "'%s/sys/block/md_\x01\xff/queue/scheduler'", dir, dir, dir);
	ck_assert_int_eq(system(path), 0);
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	tw_sample_init(&s);
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	ck_assert_uint_eq(s.disks.count, 1);
	ck_assert_str_eq(s.disks.disks[0].name, "md_\\x01\\xff");
	ck_assert_str_eq(s.queues[0].scheduler, "mq-deadline");
	ck_assert_int_eq(s.idents[0].type, TW_DISK_TYPE_MD);
	tw_sampler_close(sp);
	tw_sample_free(&s);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/* The paths come back when their head goes: the decision is not made once
 * for all, as the filter's is, but whenever the device set changes. */
START_TEST(test_paths_return_without_head)
{
	struct tw_sampler_config cfg = { 0 };
	struct tw_sampler *sp;
	struct tw_sample s;
	char dir[] = "/tmp/tw-sampler-XXXXXX", cmd[8192], proc[512], sys[512], err[256];
	char got[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* make distcheck's sources are read-only, and cp keeps that. */
	snprintf(cmd, sizeof(cmd), "cp -R '%s' %s/names && chmod -R u+w %s/names",
	    tw_fixture_path("names"), dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(proc, sizeof(proc), "%s/names/proc", dir);
	snprintf(sys, sizeof(sys), "%s/names/sys", dir);
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	tw_sample_init(&s);
	ck_assert_int_eq(tw_sampler_open(&sp, &cfg, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	names(&s, got, sizeof(got));
	ck_assert_str_eq(got, "sda md_home md127 dm-0 dm-1 nvme0n1 nvme1n1");

	/* multipathd flushed the map: dm-0 leaves diskstats. */
	snprintf(cmd, sizeof(cmd), "sed -i '/ dm-0 /d' %s/diskstats", proc);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(tw_sampler_take(sp, &s), TW_OK);
	names(&s, got, sizeof(got));
	ck_assert_str_eq(got, "sda sdb sdc md_home md127 dm-1 nvme0n1 nvme1n1");

	tw_sampler_close(sp);
	tw_sample_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_view_columns)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;
	size_t i;
	int seen = 0;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	take(NULL, &s);
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	for (i = 0; i < v.ndisks; i++) {
		const struct tw_view_disk *d = &v.disks[i];

		ck_assert(tw_view_has(d, TW_OID_DISK_TYPE));
		if (strcmp(d->name, "dm-1") == 0) {
			ck_assert(tw_view_has(d, TW_OID_DISK_ALIAS));
			ck_assert_str_eq(d->alias, "vg0-root");
			ck_assert_str_eq(d->type, "dm");
			ck_assert(tw_view_has(d, TW_OID_DISK_STABLE_ID));
			ck_assert_uint_eq(strncmp(d->stable_id, "LVM-", 4), 0);
			seen++;
		} else if (strcmp(d->name, "nvme1n1") == 0) {
			/* No alias: absent, not an empty string. */
			ck_assert(!tw_view_has(d, TW_OID_DISK_ALIAS));
			ck_assert_str_eq(d->type, "nvme");
			ck_assert_str_eq(d->stable_id, "nguid.6479a72e-1f1c-4c9b-8a2e-2b7a1d0c9e11");
			seen++;
		} else if (strcmp(d->name, "md127") == 0) {
			ck_assert(!tw_view_has(d, TW_OID_DISK_ALIAS));
			ck_assert(!tw_view_has(d, TW_OID_DISK_STABLE_ID));
			ck_assert_str_eq(d->type, "md");
			seen++;
		}
	}
	ck_assert_int_eq(seen, 3);
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

static Suite *
sampler_suite(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_default_hides_paths);
	tcase_add_test(tc, test_own_exclusion_shows_paths);
	tcase_add_test(tc, test_odd_name_read_by_raw_name);
	tcase_add_test(tc, test_paths_return_without_head);
	tcase_add_test(tc, test_view_columns);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(sampler_suite());
}
