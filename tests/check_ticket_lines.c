/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/ticket_lines.c, ticket_unit.c and
 * ticket_cgfile.c (a user's unit, a plain cgroup's file): a disk's queue
 * attribute's sysfs path, the apply and persist lines on each system and
 * for a systemd unit, nothing to apply where nothing takes effect now, and
 * unsafe input refused, never quoted. */

#include "advice/ticket.h"
#include "util/error.h"
#include "view/view.h"

#include "tw_check.h"

static char line[TW_TICKET_LINE_LEN];

START_TEST(test_linux_sysctl)
{
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "vm.swappiness",
	    NULL, "60"), TW_OK);
	ck_assert_str_eq(line, "sysctl -w vm.swappiness=60");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_LINUX, "vm.swappiness",
	    NULL, "60"), TW_OK);
	ck_assert_str_eq(line, "/etc/sysctl.d/90-tunewatch.conf: vm.swappiness = 60");
	/* A device beside a sysctl is ignored. */
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX,
	    "net.core.netdev_max_backlog", "sda", "2000"), TW_OK);
	ck_assert_str_eq(line, "sysctl -w net.core.netdev_max_backlog=2000");
}
END_TEST

START_TEST(test_linux_vector)
{
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "net.ipv4.tcp_rmem",
	    NULL, "4096 131072 6291456"), TW_OK);
	ck_assert_str_eq(line, "sysctl -w net.ipv4.tcp_rmem='4096 131072 6291456'");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_LINUX,
	    "net.ipv4.tcp_rmem", NULL, "4096 131072 6291456"), TW_OK);
	ck_assert_str_eq(line,
	    "/etc/sysctl.d/90-tunewatch.conf: net.ipv4.tcp_rmem = 4096 131072 6291456");
}
END_TEST

START_TEST(test_linux_queue)
{
	struct tw_view_disk d;

	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "queue/nr_requests",
	    "sda", "64"), TW_OK);
	ck_assert_str_eq(line, "echo 64 > /sys/block/sda/queue/nr_requests");
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "queue/wbt_lat_usec",
	    "sdb", "-1"), TW_OK);
	ck_assert_str_eq(line, "echo -1 > /sys/block/sdb/queue/wbt_lat_usec");
	/* "!" is "/" in a kernel name; quoted so no shell expands it. */
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "queue/scheduler",
	    "cciss!c0d0", "mq-deadline"), TW_OK);
	ck_assert_str_eq(line, "echo mq-deadline > '/sys/block/cciss!c0d0/queue/scheduler'");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_LINUX, "queue/scheduler",
	    "sda", "mq-deadline"), TW_OK);
	ck_assert_str_eq(line, "/etc/udev/rules.d/60-tunewatch.rules: ACTION!=\"remove\", "
	    "SUBSYSTEM==\"block\", KERNEL==\"sda\", ATTR{queue/scheduler}=\"mq-deadline\"");
	/* Plugin output turns a '|' into '/': a line must not need one. */
	ck_assert_ptr_null(strchr(line, '|'));

	/* Matched by what survives a reboot when the disk has it. */
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "sda");
	ck_assert_int_eq(tw_ticket_persist_disk(line, sizeof(line), TW_OS_LINUX,
	    "queue/nr_requests", &d, "64"), TW_OK);
	ck_assert_ptr_nonnull(strstr(line, "KERNEL==\"sda\""));
	snprintf(d.stable_id, sizeof(d.stable_id), "naa.5000c500a1b2c3d4");
	ck_assert_int_eq(tw_ticket_persist_disk(line, sizeof(line), TW_OS_LINUX,
	    "queue/nr_requests", &d, "64"), TW_OK);
	ck_assert_str_eq(line, "/etc/udev/rules.d/60-tunewatch.rules: ACTION!=\"remove\", "
	    "SUBSYSTEM==\"block\", ATTRS{wwid}==\"naa.5000c500a1b2c3d4\", "
	    "ATTR{queue/nr_requests}=\"64\"");
	snprintf(d.stable_id, sizeof(d.stable_id), "LVM-Xy12abCD");
	ck_assert_int_eq(tw_ticket_persist_disk(line, sizeof(line), TW_OS_LINUX,
	    "queue/nr_requests", &d, "64"), TW_OK);
	ck_assert_ptr_nonnull(strstr(line, "ENV{DM_UUID}==\"LVM-Xy12abCD\""));
	/* A wwid with blanks (t10. ids) is not safe to quote: the kernel name. */
	snprintf(d.stable_id, sizeof(d.stable_id), "t10.ATA     QEMU HARDDISK");
	ck_assert_int_eq(tw_ticket_persist_disk(line, sizeof(line), TW_OS_LINUX,
	    "queue/nr_requests", &d, "64"), TW_OK);
	ck_assert_ptr_nonnull(strstr(line, "KERNEL==\"sda\""));
	ck_assert_int_eq(tw_ticket_persist_disk(line, sizeof(line), TW_OS_LINUX,
	    "queue/nr_requests", NULL, "64"), TW_E_INVAL);
}
END_TEST

/* The one sysfs path of a disk's queue attribute: the agent's finding,
 * a check's tune line and the apply line all take it from here. */
START_TEST(test_queue_path)
{
	char path[64] = "untouched";

	ck_assert_int_eq(tw_ticket_queue_path(path, sizeof(path), "sda", "queue/nr_requests"), 1);
	ck_assert_str_eq(path, "/sys/block/sda/queue/nr_requests");
	/* A sysctl, or no disk: no path, and the buffer is left alone. */
	ck_assert_int_eq(tw_ticket_queue_path(path, sizeof(path), "sda", "vm.swappiness"), 0);
	ck_assert_int_eq(tw_ticket_queue_path(path, sizeof(path), NULL, "queue/nr_requests"), 0);
	ck_assert_str_eq(path, "/sys/block/sda/queue/nr_requests");
	/* Cut to the buffer, never past it. */
	ck_assert_int_eq(tw_ticket_queue_path(path, 12, "sda", "queue/nr_requests"), 1);
	ck_assert_str_eq(path, "/sys/block/");
}
END_TEST

START_TEST(test_freebsd)
{
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_FREEBSD,
	    "kern.ipc.nmbclusters", NULL, "524288"), TW_OK);
	ck_assert_str_eq(line, "sysctl kern.ipc.nmbclusters=524288");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_FREEBSD,
	    "kern.ipc.nmbclusters", NULL, "524288"), TW_OK);
	ck_assert_str_eq(line, "/etc/sysctl.conf: kern.ipc.nmbclusters=524288");
	/* Loader tunables (TW_ADV_BOOT): nothing now, loader.conf for boot. */
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_FREEBSD,
	    "net.isr.defaultqlimit", NULL, "512"), TW_E_ABSENT);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_FREEBSD,
	    "net.isr.defaultqlimit", NULL, "512"), TW_OK);
	ck_assert_str_eq(line, "/boot/loader.conf: net.isr.defaultqlimit=\"512\"");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_FREEBSD, "kern.hz", NULL,
	    "1000"), TW_OK);
	ck_assert_str_eq(line, "/boot/loader.conf: kern.hz=\"1000\"");
}
END_TEST

START_TEST(test_svr4)
{
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_SVR4, "NBUF", NULL, "1000"),
	    TW_E_ABSENT);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_SVR4, "NBUF", NULL,
	    "1000"), TW_OK);
	ck_assert_str_eq(line, "/etc/conf/bin/idtune -f NBUF 1000 && /etc/conf/bin/idbuild -B"
	    "  # relinks the kernel: takes effect at the next reboot");
}
END_TEST

/* Nothing proposed (at a limit, unknown current value): nothing to apply. */
START_TEST(test_nothing_to_apply)
{
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "vm.swappiness", NULL,
	    ""), TW_E_ABSENT);
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "vm.swappiness", NULL,
	    NULL), TW_E_ABSENT);
	ck_assert_int_eq(tw_ticket_persist(line, sizeof(line), TW_OS_LINUX, "vm.swappiness",
	    NULL, ""), TW_E_ABSENT);
	ck_assert_str_eq(line, "");
}
END_TEST

/* What an agent might send to get a command run as root: all refused. */
START_TEST(test_unsafe_refused)
{
	static const char *const values[] = {
		"60; rm -rf /", "$(reboot)", "`id`", "1|2", "1&", "a>b", "'x'", "\"x\"", "x\\y",
		"-n", "-e", "--", "60\n", "4096  131072", " 60", "60 ", "a*", "a?", "%k", "a\tb",
	};
	static const char *const tunables[] = {
		"vm.swappiness;id", "vm/../../etc", "-w", ".hidden", "vm swappiness", "",
	};
	static const char *const devices[] = {
		"sda/../../etc", "../sda", "sda;id", "sd a", "-sda", "", "$(id)",
	};
	size_t i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		ck_assert_msg(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "vm.swappiness",
		    NULL, values[i]) == TW_E_INVAL, "value \"%s\" accepted", values[i]);
		ck_assert_str_eq(line, "");
		ck_assert_msg(tw_ticket_persist(line, sizeof(line), TW_OS_LINUX,
		    "queue/scheduler", "sda", values[i]) == TW_E_INVAL, "value \"%s\"", values[i]);
		ck_assert_msg(tw_ticket_persist(line, sizeof(line), TW_OS_SVR4, "NBUF", NULL,
		    values[i]) == TW_E_INVAL, "value \"%s\"", values[i]);
	}
	for (i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++)
		ck_assert_msg(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, tunables[i], NULL,
		    "1") == TW_E_INVAL, "tunable \"%s\" accepted", tunables[i]);
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "queue/../../x",
	    "sda", "1"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_FREEBSD, "kern/ipc", NULL,
	    "1"), TW_E_INVAL);
	for (i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		ck_assert_msg(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX,
		    "queue/nr_requests", devices[i], "64") == TW_E_INVAL,
		    "device \"%s\" accepted", devices[i]);
	/* A queue attribute needs its device. */
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, "queue/nr_requests",
	    NULL, "64"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_LINUX, NULL, NULL, "64"),
	    TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply(line, sizeof(line), TW_OS_COUNT, "vm.swappiness", NULL,
	    "64"), TW_E_INVAL);
}
END_TEST

/* A buffer too small gets nothing, never half a command. */
/* A service's own limit (ticket_unit.c): systemctl at once, a drop-in to
 * keep it; systemd's "\\xNN" escapes quoted for the shell. */
START_TEST(test_unit)
{
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    "128M"), TW_OK);
	ck_assert_str_eq(line, "systemctl set-property --runtime nginx.service MemoryHigh=128M");
	ck_assert_int_eq(tw_ticket_persist_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    "128M"), TW_OK);
	ck_assert_str_eq(line,
	    "/etc/systemd/system/nginx.service.d/90-tunewatch.conf: [Service] MemoryHigh=128M");
	ck_assert_int_eq(tw_ticket_persist_unit(line, sizeof(line), "batch.slice", "MemoryMax",
	    "1G"), TW_OK);
	ck_assert_str_eq(line,
	    "/etc/systemd/system/batch.slice.d/90-tunewatch.conf: [Slice] MemoryMax=1G");
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "getty@tty1.service",
	    "MemoryLimit", "infinity"), TW_OK);
	ck_assert_str_eq(line,
	    "systemctl set-property --runtime getty@tty1.service MemoryLimit=infinity");
	/* systemd escapes a "-" inside a name's part as \x2d. */
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "my\\x2dapp.service",
	    "MemoryHigh", "128M"), TW_OK);
	ck_assert_str_eq(line,
	    "systemctl set-property --runtime 'my\\x2dapp.service' MemoryHigh=128M");
	ck_assert_int_eq(tw_ticket_persist_unit(line, sizeof(line), "my\\x2dapp.service",
	    "MemoryHigh", "128M"), TW_OK);
	ck_assert_str_eq(line, "/etc/systemd/system/my\\x2dapp.service.d/90-tunewatch.conf: "
	    "[Service] MemoryHigh=128M");
	/* A scope has no unit file: apply, but nothing to persist in. */
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "session-2.scope",
	    "MemoryHigh", "128M"), TW_OK);
	ck_assert_int_eq(tw_ticket_persist_unit(line, sizeof(line), "session-2.scope",
	    "MemoryHigh", "128M"), TW_E_ABSENT);
	ck_assert_str_eq(line, "");
	/* Nothing proposed: nothing to apply. */
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    ""), TW_E_ABSENT);
}
END_TEST

START_TEST(test_unit_unsafe_refused)
{
	static const char *const units[] = {
		"my app.service",		/* a space */
		"my'app.service",		/* quotes */
		"my\"app.service",
		"a;reboot.service",
		"../../etc/x.service",		/* slashes, and a way up */
		"system.slice/nginx.service",
		"nginx..service",
		"nginx.service\nreboot",	/* a newline */
		"nginx.service\n",
		"$(reboot).service",
		"`reboot`.service",
		"-nginx.service",		/* an option */
		".nginx.service",
		"nginx",			/* no type */
		"my\\x2.service",		/* a half escape */
		"my\\xzzapp.service",
		"my\\napp.service",		/* a backslash that is no \x escape */
		"my\\",
		"",
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		ck_assert_msg(tw_ticket_apply_unit(line, sizeof(line), units[i], "MemoryHigh",
		    "128M") == TW_E_INVAL, "apply accepted %s", units[i]);
		ck_assert_str_eq(line, "");
		ck_assert_msg(tw_ticket_persist_unit(line, sizeof(line), units[i], "MemoryHigh",
		    "128M") == TW_E_INVAL, "persist accepted %s", units[i]);
		ck_assert(!tw_ticket_safe_unit(units[i]));
	}
	ck_assert(!tw_ticket_safe_unit(NULL));
	/* The property and the value are checked too. */
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service",
	    "MemoryHigh=1 Foo", "128M"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service",
	    "memoryHigh", "128M"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    "128M; reboot"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    "-1"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_unit(line, sizeof(line), "nginx.service", "MemoryHigh",
	    "128MB"), TW_E_INVAL);
	/* Too small a buffer: nothing, never half a command. */
	ck_assert_int_eq(tw_ticket_apply_unit(line, 20, "nginx.service", "MemoryHigh", "128M"),
	    TW_E_TOOBIG);
	ck_assert_str_eq(line, "");
}
END_TEST

/* A unit of a user's manager: that user's systemctl, reached with -M
 * UID@, and the user's own drop-in; the same names refused. */
START_TEST(test_user_unit)
{
	ck_assert_int_eq(tw_ticket_apply_user_unit(line, sizeof(line), 1000, "web.service",
	    "MemoryHigh", "128M"), TW_OK);
	ck_assert_str_eq(line,
	    "systemctl --user -M 1000@ set-property --runtime web.service MemoryHigh=128M");
	ck_assert_int_eq(tw_ticket_persist_user_unit(line, sizeof(line), 1000, "web.service",
	    "MemoryHigh", "128M"), TW_OK);
	ck_assert_str_eq(line, "~/.config/systemd/user/web.service.d/90-tunewatch.conf (in the "
	    "home of user 1000): [Service] MemoryHigh=128M");
	ck_assert_int_eq(tw_ticket_apply_user_unit(line, sizeof(line), 0, "app-x\\x2dy.scope",
	    "MemoryMax", "1G"), TW_OK);
	ck_assert_str_eq(line,
	    "systemctl --user -M 0@ set-property --runtime 'app-x\\x2dy.scope' MemoryMax=1G");
	ck_assert_int_eq(tw_ticket_persist_user_unit(line, sizeof(line), 0, "app-x\\x2dy.scope",
	    "MemoryMax", "1G"), TW_E_ABSENT);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(tw_ticket_apply_user_unit(line, sizeof(line), 1000, "a;reboot.service",
	    "MemoryHigh", "128M"), TW_E_INVAL);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(tw_ticket_persist_user_unit(line, sizeof(line), 1000, "../x.service",
	    "MemoryHigh", "128M"), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_user_unit(line, 40, 1000, "web.service", "MemoryHigh",
	    "128M"), TW_E_TOOBIG);
	ck_assert_str_eq(line, "");
}
END_TEST

/* A plain cgroup's limit file, under the mount of its hierarchy; a path
 * with a byte a shell reads, or a way up, gets no command at all. */
START_TEST(test_cgroup_file)
{
	static const char *const unsafe[] = {
		"/twhostile/a b", "/twhostile/a;reboot", "/twhostile/$(reboot)", "/x/`id`",
		"/x/a'b", "/x/a\"b", "/x/a\\x2db", "/x/a\nb", "/x/a\rb", "/x/a|b", "/x/a>b",
		"/x/a&b", "/x/*", "/x/a?b", "/x/~", "/x/a=b", "/x/\xc3\xa9",
		"/x/..", "/x/../../etc", "/x/.", "/x//y", "/x/", "/", "x", "",
	};
	size_t i;

	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 1,
	    "/twhostile/system.slice", "memory.limit_in_bytes", 134217728), TW_OK);
	ck_assert_str_eq(line,
	    "echo 134217728 > /sys/fs/cgroup/memory/twhostile/system.slice/memory.limit_in_bytes");
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 2, "/docker/0123abcd",
	    "memory.max", 1073741824), TW_OK);
	ck_assert_str_eq(line, "echo 1073741824 > /sys/fs/cgroup/docker/0123abcd/memory.max");
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 2,
	    "/a-b/c_d.e:f@g+h/-x", "memory.high", 1), TW_OK);
	ck_assert_str_eq(line, "echo 1 > /sys/fs/cgroup/a-b/c_d.e:f@g+h/-x/memory.high");
	for (i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++) {
		ck_assert_msg(tw_ticket_apply_cgroup_file(line, sizeof(line), 2, unsafe[i],
		    "memory.max", 134217728) == TW_E_INVAL, "accepted %s", unsafe[i]);
		ck_assert_str_eq(line, "");
		ck_assert(!tw_ticket_safe_cgroup_path(unsafe[i]));
	}
	ck_assert(!tw_ticket_safe_cgroup_path(NULL));
	/* Only the limit files of the version, and a value. */
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 1, "/x", "memory.max",
	    1), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 2, "/x",
	    "cgroup.procs", 1), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 3, "/x", "memory.max",
	    1), TW_E_INVAL);
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, sizeof(line), 2, "/x", "memory.max",
	    0), TW_E_ABSENT);
	ck_assert_int_eq(tw_ticket_apply_cgroup_file(line, 30, 2, "/x", "memory.max", 1),
	    TW_E_TOOBIG);
	ck_assert_str_eq(line, "");
}
END_TEST

/* A cgroup's subject is its directory under its hierarchy's mount. */
START_TEST(test_cgroup_subject)
{
	char subject[TW_TICKET_SUBJECT_CGROUP_LEN], big[300];

	ck_assert_int_eq(tw_ticket_subject_cgroup(subject, sizeof(subject), 1,
	    "/twvictim/web.service"), TW_OK);
	ck_assert_str_eq(subject, "/sys/fs/cgroup/memory/twvictim/web.service");
	ck_assert_int_eq(tw_ticket_subject_cgroup(subject, sizeof(subject), 2,
	    "/system.slice/nginx.service"), TW_OK);
	ck_assert_str_eq(subject, "/sys/fs/cgroup/system.slice/nginx.service");
	ck_assert_int_eq(tw_ticket_subject_cgroup(subject, sizeof(subject), 2, "/"), TW_OK);
	ck_assert_str_eq(subject, "/sys/fs/cgroup");
	ck_assert_int_eq(tw_ticket_subject_cgroup(subject, sizeof(subject), 2, "x"), TW_E_INVAL);
	/* The longest path a cgroup row holds fits whole. */
	memset(big, 'a', 255);
	big[0] = '/';
	big[255] = '\0';
	ck_assert_int_eq(tw_ticket_subject_cgroup(subject, sizeof(subject), 1, big), TW_OK);
	ck_assert_uint_eq(strlen(subject), 21 + 255);
}
END_TEST

START_TEST(test_too_small)
{
	char small[16];

	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(tw_ticket_apply(small, sizeof(small), TW_OS_LINUX, "vm.swappiness",
	    NULL, "60"), TW_E_TOOBIG);
	ck_assert_str_eq(small, "");
	ck_assert_int_eq(tw_ticket_apply(small, 0, TW_OS_LINUX, "vm.swappiness", NULL, "60"),
	    TW_E_TOOBIG);
	/* Exactly enough: 26 characters and the NUL. */
	ck_assert_int_eq(tw_ticket_apply(line, 27, TW_OS_LINUX, "vm.swappiness", NULL, "60"),
	    TW_OK);
	ck_assert_int_eq(tw_ticket_apply(line, 26, TW_OS_LINUX, "vm.swappiness", NULL, "60"),
	    TW_E_TOOBIG);
}
END_TEST

static Suite *
ticket_lines_suite(void)
{
	Suite *s = suite_create("ticket_lines");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_linux_sysctl);
	tcase_add_test(tc, test_linux_vector);
	tcase_add_test(tc, test_linux_queue);
	tcase_add_test(tc, test_queue_path);
	tcase_add_test(tc, test_freebsd);
	tcase_add_test(tc, test_svr4);
	tcase_add_test(tc, test_nothing_to_apply);
	tcase_add_test(tc, test_unsafe_refused);
	tcase_add_test(tc, test_unit);
	tcase_add_test(tc, test_unit_unsafe_refused);
	tcase_add_test(tc, test_user_unit);
	tcase_add_test(tc, test_cgroup_file);
	tcase_add_test(tc, test_cgroup_subject);
	tcase_add_test(tc, test_too_small);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(ticket_lines_suite());
}
