# SPDX-License-Identifier: ISC
# tests/: collector unit tests, one program per module, and check_realproc,
# which reads this machine's real /proc and /sys.
check_PROGRAMS += tests/check_diskstats
tests_check_diskstats_SOURCES = tests/check_diskstats.c tests/tw_check.h
tests_check_diskstats_CFLAGS = $(TESTS_CFLAGS)
tests_check_diskstats_LDADD = $(TESTS_LDADD)
TESTS += tests/check_diskstats

check_PROGRAMS += tests/check_blockqueue
tests_check_blockqueue_SOURCES = tests/check_blockqueue.c tests/tw_check.h
tests_check_blockqueue_CFLAGS = $(TESTS_CFLAGS)
tests_check_blockqueue_LDADD = $(TESTS_LDADD)
TESTS += tests/check_blockqueue

check_PROGRAMS += tests/check_blockident
tests_check_blockident_SOURCES = tests/check_blockident.c tests/tw_check.h
tests_check_blockident_CFLAGS = $(TESTS_CFLAGS)
tests_check_blockident_LDADD = $(TESTS_LDADD)
TESTS += tests/check_blockident

check_PROGRAMS += tests/check_meminfo
tests_check_meminfo_SOURCES = tests/check_meminfo.c tests/tw_check.h
tests_check_meminfo_CFLAGS = $(TESTS_CFLAGS)
tests_check_meminfo_LDADD = $(TESTS_LDADD)
TESTS += tests/check_meminfo

check_PROGRAMS += tests/check_vmstat
tests_check_vmstat_SOURCES = tests/check_vmstat.c tests/tw_check.h
tests_check_vmstat_CFLAGS = $(TESTS_CFLAGS)
tests_check_vmstat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_vmstat

# --wrap=read lets the test fail a read with EOPNOTSUPP, as psi=0 does.
check_PROGRAMS += tests/check_pressure
tests_check_pressure_SOURCES = tests/check_pressure.c tests/tw_check.h
tests_check_pressure_CFLAGS = $(TESTS_CFLAGS)
tests_check_pressure_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=read
tests_check_pressure_LDADD = $(TESTS_LDADD)
TESTS += tests/check_pressure

# --wrap=read lets the test fail reads with EACCES and ESRCH, as /proc does.
check_PROGRAMS += tests/check_procio
tests_check_procio_SOURCES = tests/check_procio.c tests/tw_check.h
tests_check_procio_CFLAGS = $(TESTS_CFLAGS)
tests_check_procio_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=read
tests_check_procio_LDADD = $(TESTS_LDADD)
TESTS += tests/check_procio

check_PROGRAMS += tests/check_softnet
tests_check_softnet_SOURCES = tests/check_softnet.c tests/tw_check.h
tests_check_softnet_CFLAGS = $(TESTS_CFLAGS)
tests_check_softnet_LDADD = $(TESTS_LDADD)
TESTS += tests/check_softnet

check_PROGRAMS += tests/check_sockstat
tests_check_sockstat_SOURCES = tests/check_sockstat.c tests/tw_check.h
tests_check_sockstat_CFLAGS = $(TESTS_CFLAGS)
tests_check_sockstat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sockstat

check_PROGRAMS += tests/check_protocols
tests_check_protocols_SOURCES = tests/check_protocols.c tests/tw_check.h
tests_check_protocols_CFLAGS = $(TESTS_CFLAGS)
tests_check_protocols_LDADD = $(TESTS_LDADD)
TESTS += tests/check_protocols

check_PROGRAMS += tests/check_netstat
tests_check_netstat_SOURCES = tests/check_netstat.c tests/tw_check.h
tests_check_netstat_CFLAGS = $(TESTS_CFLAGS)
tests_check_netstat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_netstat

check_PROGRAMS += tests/check_buddyinfo
tests_check_buddyinfo_SOURCES = tests/check_buddyinfo.c tests/tw_check.h
tests_check_buddyinfo_CFLAGS = $(TESTS_CFLAGS)
tests_check_buddyinfo_LDADD = $(TESTS_LDADD)
TESTS += tests/check_buddyinfo

check_PROGRAMS += tests/check_sysctl
tests_check_sysctl_SOURCES = tests/check_sysctl.c tests/tw_check.h
tests_check_sysctl_CFLAGS = $(TESTS_CFLAGS)
tests_check_sysctl_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sysctl

# What every line collector owes its callers, from one table: absent files
# and corrupted captures.
check_PROGRAMS += tests/check_collectors
tests_check_collectors_SOURCES = tests/check_collectors.c tests/tw_check.h tests/tw_mutate.h
tests_check_collectors_CFLAGS = $(TESTS_CFLAGS)
tests_check_collectors_LDADD = $(TESTS_LDADD)
TESTS += tests/check_collectors

check_PROGRAMS += tests/check_realproc
tests_check_realproc_SOURCES = tests/check_realproc.c tests/tw_check.h
tests_check_realproc_CFLAGS = $(TESTS_CFLAGS)
tests_check_realproc_LDADD = $(TESTS_LDADD)
TESTS += tests/check_realproc

check_PROGRAMS += tests/check_udpsock
tests_check_udpsock_SOURCES = tests/check_udpsock.c tests/tw_check.h
tests_check_udpsock_CFLAGS = $(TESTS_CFLAGS)
tests_check_udpsock_LDADD = $(TESTS_LDADD)
TESTS += tests/check_udpsock

# --wrap=socket lets the test have the kernel refuse NETLINK_SOCK_DIAG.
check_PROGRAMS += tests/check_sockwatch
tests_check_sockwatch_SOURCES = tests/check_sockwatch.c tests/tw_check.h tests/tw_fakeproc.h
tests_check_sockwatch_CFLAGS = $(TESTS_CFLAGS)
tests_check_sockwatch_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=socket
tests_check_sockwatch_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sockwatch

check_PROGRAMS += tests/check_sockbusy
tests_check_sockbusy_SOURCES = tests/check_sockbusy.c tests/tw_check.h tests/tw_fakeproc.h
tests_check_sockbusy_CFLAGS = $(TESTS_CFLAGS)
tests_check_sockbusy_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sockbusy

check_PROGRAMS += tests/check_sockowner
tests_check_sockowner_SOURCES = tests/check_sockowner.c tests/tw_check.h tests/tw_fakeproc.h
tests_check_sockowner_CFLAGS = $(TESTS_CFLAGS)
tests_check_sockowner_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sockowner

check_PROGRAMS += tests/check_cgroup
tests_check_cgroup_SOURCES = tests/check_cgroup.c tests/tw_check.h tests/tw_cgroup_fixture.h
tests_check_cgroup_CFLAGS = $(TESTS_CFLAGS)
tests_check_cgroup_LDADD = $(TESTS_LDADD)
TESTS += tests/check_cgroup

check_PROGRAMS += tests/check_cgfiles
tests_check_cgfiles_SOURCES = tests/check_cgfiles.c tests/tw_check.h
tests_check_cgfiles_CFLAGS = $(TESTS_CFLAGS)
tests_check_cgfiles_LDADD = $(TESTS_LDADD)
TESTS += tests/check_cgfiles

check_PROGRAMS += tests/check_cgroup_owner
tests_check_cgroup_owner_SOURCES = tests/check_cgroup_owner.c tests/tw_check.h
tests_check_cgroup_owner_CFLAGS = $(TESTS_CFLAGS)
tests_check_cgroup_owner_LDADD = $(TESTS_LDADD)
TESTS += tests/check_cgroup_owner
