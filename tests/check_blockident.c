#include "config.h"

/* Unit tests for lib/collect/blockident.c, against tests/fixtures/names:
 * an LVM volume, a multipath head and its two paths, a plain and a named
 * md array, NVMe namespaces with a wwid and with only an NGUID. */
#include <fcntl.h>
#include <unistd.h>

#include "collect/blockident.h"
#include "tw_check.h"
#include "util/error.h"

static void
assert_value(const char *text, int rc, const char *want)
{
	char out[16];

	memcpy(out, "junk", 5);
	ck_assert_msg(tw_ident_parse_value(text, strlen(text), out, sizeof(out)) == rc,
	    "\"%s\": rc %d", text, tw_ident_parse_value(text, strlen(text), out, sizeof(out)));
	ck_assert_str_eq(out, want);
}

START_TEST(test_parse_value)
{
	char out[8];

	assert_value("vg0-root\n", TW_OK, "vg0-root");
	assert_value("  t10.ATA  QEMU \n", TW_OK, "t10.ATA  QEMU");
	assert_value("\n", TW_E_INVAL, "");
	assert_value("", TW_E_INVAL, "");
	/* What a name holds beside blanks is shown: escaped, or kept when
	 * it is UTF-8; a shown form that does not fit whole is none. */
	assert_value("a\tb", TW_OK, "a\\x09b");
	assert_value("caf\xc3\xa9", TW_OK, "caf\xc3\xa9");
	assert_value("a\x01", TW_OK, "a\\x01");
	assert_value("vg0\nroot: OK\n", TW_OK, "vg0\\x0aroot: OK");
	assert_value("\xff\xfe", TW_OK, "\\xff\\xfe");
	assert_value("0123456789ab\n\n", TW_OK, "0123456789ab");
	assert_value("0123456789ab\x01", TW_E_TOOBIG, "");
	assert_value("0123456789abcdef", TW_E_TOOBIG, "");
	assert_value("0123456789abcde", TW_OK, "0123456789abcde");
	/* The length bounds the text: no terminator needed. */
	ck_assert_int_eq(tw_ident_parse_value("abcdef", 3, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "abc");
	ck_assert_int_eq(tw_ident_parse_value(NULL, 0, out, sizeof(out)), TW_E_INVAL);
	ck_assert_int_eq(tw_ident_parse_value("x", 1, out, 0), TW_E_INVAL);
}
END_TEST

START_TEST(test_classify)
{
	ck_assert_int_eq(tw_ident_classify("dm-0", 1, 1, 0, "mpath-3600"), TW_DISK_TYPE_MULTIPATH);
	ck_assert_int_eq(tw_ident_classify("dm-1", 1, 1, 0, "LVM-abc"), TW_DISK_TYPE_DM);
	ck_assert_int_eq(tw_ident_classify("dm-1", 1, 1, 0, NULL), TW_DISK_TYPE_DM);
	ck_assert_int_eq(tw_ident_classify("md127", 1, 0, 1, NULL), TW_DISK_TYPE_MD);
	ck_assert_int_eq(tw_ident_classify("nvme0n1", 1, 0, 0, NULL), TW_DISK_TYPE_NVME);
	ck_assert_int_eq(tw_ident_classify("nvme10n12", 1, 0, 0, NULL), TW_DISK_TYPE_NVME);
	ck_assert_int_eq(tw_ident_classify("nvme0", 1, 0, 0, NULL), TW_DISK_TYPE_DISK);
	ck_assert_int_eq(tw_ident_classify("nvme0n", 1, 0, 0, NULL), TW_DISK_TYPE_DISK);
	ck_assert_int_eq(tw_ident_classify("loop3", 1, 0, 0, NULL), TW_DISK_TYPE_LOOP);
	ck_assert_int_eq(tw_ident_classify("loop", 1, 0, 0, NULL), TW_DISK_TYPE_DISK);
	ck_assert_int_eq(tw_ident_classify("ram0", 1, 0, 0, NULL), TW_DISK_TYPE_RAM);
	ck_assert_int_eq(tw_ident_classify("zram0", 0, 0, 0, NULL), TW_DISK_TYPE_ZRAM);
	ck_assert_int_eq(tw_ident_classify("sda", 1, 0, 0, NULL), TW_DISK_TYPE_DISK);
	ck_assert_int_eq(tw_ident_classify("sda1", 0, 0, 0, NULL), TW_DISK_TYPE_UNKNOWN);
	ck_assert_str_eq(tw_disk_type_name(TW_DISK_TYPE_MULTIPATH), "multipath");
	ck_assert_str_eq(tw_disk_type_name((enum tw_disk_type)99), "unknown");
}
END_TEST

static void
assert_ident(int fd, const char *dev, int rc, const char *alias, const char *id,
    enum tw_disk_type type)
{
	struct tw_blockident b;

	ck_assert_msg(tw_ident_read(fd, dev, &b) == rc, "%s: rc", dev);
	ck_assert_msg(strcmp(b.alias, alias) == 0, "%s: alias \"%s\"", dev, b.alias);
	ck_assert_msg(strcmp(b.stable_id, id) == 0, "%s: id \"%s\"", dev, b.stable_id);
	ck_assert_msg(b.type == type, "%s: type %s", dev, tw_disk_type_name(b.type));
}

START_TEST(test_read_fixture)
{
	int fd = open(tw_fixture_path("names/sys"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	assert_ident(fd, "dm-1", TW_OK, "vg0-root",
	    "LVM-Xq3vT0c1bN2mW8pK4rY6sD9fG1hJ5kL7zQ0wE2tR4uI6oP8aS0dF3gH5jK7lZ9x", TW_DISK_TYPE_DM);
	assert_ident(fd, "dm-0", TW_OK, "mpatha", "mpath-3600a0b80001234560000abcd",
	    TW_DISK_TYPE_MULTIPATH);
	assert_ident(fd, "sda", TW_OK, "", "naa.5000c500a1b2c3d4", TW_DISK_TYPE_DISK);
	assert_ident(fd, "sdb", TW_OK, "", "naa.600a0b80001234560000abcd", TW_DISK_TYPE_DISK);
	assert_ident(fd, "md127", TW_OK, "", "", TW_DISK_TYPE_MD);
	assert_ident(fd, "md_home", TW_OK, "home", "", TW_DISK_TYPE_MD);
	/* The kernel's wwid wins over the EUI it is made of. */
	assert_ident(fd, "nvme0n1", TW_OK, "", "eui.0025388b71b1c2d4", TW_DISK_TYPE_NVME);
	/* An all-zero EUI is none: the NGUID names the namespace. */
	assert_ident(fd, "nvme1n1", TW_OK, "", "nguid.6479a72e-1f1c-4c9b-8a2e-2b7a1d0c9e11",
	    TW_DISK_TYPE_NVME);
	assert_ident(fd, "loop0", TW_OK, "", "", TW_DISK_TYPE_LOOP);
	/* A partition is not in /sys/block itself. */
	assert_ident(fd, "sda2", TW_E_ABSENT, "", "", TW_DISK_TYPE_UNKNOWN);
	assert_ident(fd, "..", TW_E_INVAL, "", "", TW_DISK_TYPE_UNKNOWN);
	assert_ident(-1, "sda", TW_E_ABSENT, "", "", TW_DISK_TYPE_UNKNOWN);
	assert_ident(-1, "loop1", TW_E_ABSENT, "", "", TW_DISK_TYPE_LOOP);
	close(fd);
}
END_TEST

/* A name someone chose is read shown, and the rest of the device with it. */
START_TEST(test_read_chosen_name)
{
	char dir[] = "/tmp/tw-ident-XXXXXX", path[256];
	struct tw_blockident b;
	FILE *f;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "mkdir -p %s/block/dm-7/dm", dir);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/block/dm-7/dm/name", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("bad\x01name\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/block/dm-7/dm/uuid", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("mpath-36001\n", f);
	fclose(f);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(tw_ident_read(fd, "dm-7", &b), TW_OK);
	ck_assert_str_eq(b.alias, "bad\\x01name");
	ck_assert_str_eq(b.stable_id, "mpath-36001");
	ck_assert_int_eq(b.type, TW_DISK_TYPE_MULTIPATH);
	close(fd);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

static void
collect(const char *name, void *ctx)
{
	char *acc = ctx;

	/* readdir's order is the file system's: keep a sorted list. */
	if (acc[0] != '\0' && strcmp(name, acc) < 0) {
		char tmp[64];

		snprintf(tmp, sizeof(tmp), "%s %s", name, acc);
		strcpy(acc, tmp);
	} else {
		strcat(acc, acc[0] != '\0' ? " " : "");
		strcat(acc, name);
	}
}

START_TEST(test_slaves)
{
	int fd = open(tw_fixture_path("names/sys"), O_RDONLY | O_DIRECTORY);
	char acc[64] = "";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(tw_ident_slaves(fd, "dm-0", collect, acc), TW_OK);
	ck_assert_str_eq(acc, "sdb sdc");
	acc[0] = '\0';
	ck_assert_int_eq(tw_ident_slaves(fd, "sda", collect, acc), TW_E_ABSENT);
	ck_assert_str_eq(acc, "");
	ck_assert_int_eq(tw_ident_slaves(fd, "..", collect, acc), TW_E_INVAL);
	close(fd);
}
END_TEST

static Suite *
blockident_suite(void)
{
	Suite *s = suite_create("blockident");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_value);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_read_fixture);
	tcase_add_test(tc, test_read_chosen_name);
	tcase_add_test(tc, test_slaves);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(blockident_suite());
}
