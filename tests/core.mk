# SPDX-License-Identifier: ISC
# tests/: counter, track, window, pools, the view and the MIB view
check_PROGRAMS += tests/check_window
tests_check_window_SOURCES = tests/check_window.c tests/tw_check.h tests/tw_sample_fixture.h
tests_check_window_CFLAGS = $(TESTS_CFLAGS)
tests_check_window_LDADD = $(TESTS_LDADD)
TESTS += tests/check_window

check_PROGRAMS += tests/check_pressureclock
tests_check_pressureclock_SOURCES = tests/check_pressureclock.c tests/tw_check.h
tests_check_pressureclock_CFLAGS = $(TESTS_CFLAGS)
tests_check_pressureclock_LDADD = $(TESTS_LDADD)
TESTS += tests/check_pressureclock

check_PROGRAMS += tests/check_pools
tests_check_pools_SOURCES = tests/check_pools.c tests/tw_check.h
tests_check_pools_CFLAGS = $(TESTS_CFLAGS)
tests_check_pools_LDADD = $(TESTS_LDADD)
TESTS += tests/check_pools

check_PROGRAMS += tests/check_pool_figures
tests_check_pool_figures_SOURCES = tests/check_pool_figures.c tests/tw_check.h
tests_check_pool_figures_CFLAGS = $(TESTS_CFLAGS)
tests_check_pool_figures_LDADD = $(TESTS_LDADD)
TESTS += tests/check_pool_figures

check_PROGRAMS += tests/check_view
tests_check_view_SOURCES = tests/check_view.c tests/tw_check.h tests/tw_sample_fixture.h
tests_check_view_CFLAGS = $(TESTS_CFLAGS)
tests_check_view_LDADD = $(TESTS_LDADD)
TESTS += tests/check_view

check_PROGRAMS += tests/check_recordrow
tests_check_recordrow_SOURCES = tests/check_recordrow.c tests/tw_check.h
tests_check_recordrow_CFLAGS = $(TESTS_CFLAGS)
tests_check_recordrow_LDADD = $(TESTS_LDADD)
TESTS += tests/check_recordrow
check_PROGRAMS += tests/check_record_cache
tests_check_record_cache_SOURCES = tests/check_record_cache.c tests/tw_check.h
tests_check_record_cache_CFLAGS = $(TESTS_CFLAGS)
tests_check_record_cache_LDADD = $(TESTS_LDADD)
TESTS += tests/check_record_cache
check_PROGRAMS += tests/check_record_agent
tests_check_record_agent_SOURCES = tests/check_record_agent.c tests/tw_check.h
tests_check_record_agent_CFLAGS = $(TESTS_CFLAGS)
tests_check_record_agent_LDADD = $(TESTS_LDADD)
TESTS += tests/check_record_agent

check_PROGRAMS += tests/check_mibview
tests_check_mibview_SOURCES = tests/check_mibview.c tests/tw_check.h
tests_check_mibview_CFLAGS = $(TESTS_CFLAGS)
tests_check_mibview_LDADD = $(TESTS_LDADD)
TESTS += tests/check_mibview

# diskfigures prints the window's disk figures between two snapshots, for
# the comparison with iostat.
check_PROGRAMS += tests/diskfigures
tests_diskfigures_SOURCES = tests/diskfigures.c
tests_diskfigures_CFLAGS = $(AM_CFLAGS)
tests_diskfigures_LDADD = $(TW_LIBS)

check_PROGRAMS += tests/check_sampler
tests_check_sampler_SOURCES = tests/check_sampler.c tests/tw_check.h
tests_check_sampler_CFLAGS = $(TESTS_CFLAGS)
tests_check_sampler_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sampler

check_PROGRAMS += tests/check_change
tests_check_change_SOURCES = tests/check_change.c tests/tw_check.h tests/tw_sample_fixture.h
tests_check_change_CFLAGS = $(TESTS_CFLAGS)
tests_check_change_LDADD = $(TESTS_LDADD)
TESTS += tests/check_change

# The active probe: its histogram, configuration lines, device names, and
# twProbeTable in the view.
check_PROGRAMS += tests/check_histogram
tests_check_histogram_SOURCES = tests/check_histogram.c tests/tw_check.h
tests_check_histogram_CFLAGS = $(TESTS_CFLAGS)
tests_check_histogram_LDADD = $(TESTS_LDADD)
TESTS += tests/check_histogram

check_PROGRAMS += tests/check_probe
tests_check_probe_SOURCES = tests/check_probe.c tests/tw_check.h
tests_check_probe_CFLAGS = $(TESTS_CFLAGS)
tests_check_probe_LDADD = $(TESTS_LDADD)
# --wrap=pthread_create lets the test refuse a reading thread, as a full
# process table does.
tests_check_probe_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=pthread_create
TESTS += tests/check_probe

# The request-latency source without a kernel: buckets, slots, map values,
# configuration lines, states.
check_PROGRAMS += tests/check_reqlat
tests_check_reqlat_SOURCES = tests/check_reqlat.c tests/tw_check.h
tests_check_reqlat_CFLAGS = $(TESTS_CFLAGS)
tests_check_reqlat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_reqlat

check_PROGRAMS += tests/check_reqwin
tests_check_reqwin_SOURCES = tests/check_reqwin.c tests/tw_check.h
tests_check_reqwin_CFLAGS = $(TESTS_CFLAGS)
tests_check_reqwin_LDADD = $(TESTS_LDADD)
TESTS += tests/check_reqwin

check_PROGRAMS += tests/check_viewreqlat
tests_check_viewreqlat_SOURCES = tests/check_viewreqlat.c tests/tw_check.h
tests_check_viewreqlat_CFLAGS = $(TESTS_CFLAGS)
tests_check_viewreqlat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_viewreqlat

check_PROGRAMS += tests/check_proof
tests_check_proof_SOURCES = tests/check_proof.c tests/tw_check.h
tests_check_proof_CFLAGS = $(TESTS_CFLAGS)
tests_check_proof_LDADD = $(TESTS_LDADD)
TESTS += tests/check_proof

check_PROGRAMS += tests/check_judge_writes
tests_check_judge_writes_SOURCES = tests/check_judge_writes.c tests/tw_check.h
tests_check_judge_writes_CFLAGS = $(TESTS_CFLAGS)
tests_check_judge_writes_LDADD = $(TESTS_LDADD)
TESTS += tests/check_judge_writes

check_PROGRAMS += tests/check_finding
tests_check_finding_SOURCES = tests/check_finding.c tests/tw_check.h
tests_check_finding_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding
check_PROGRAMS += tests/check_finding_socket
tests_check_finding_socket_SOURCES = tests/check_finding_socket.c tests/tw_check.h tests/tw_findings.h \
	tests/tw_sockview.h
tests_check_finding_socket_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_socket_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding_socket
check_PROGRAMS += tests/check_monitor_ratchet
tests_check_monitor_ratchet_SOURCES = tests/check_monitor_ratchet.c tests/tw_check.h
tests_check_monitor_ratchet_CFLAGS = $(TESTS_CFLAGS)
tests_check_monitor_ratchet_LDADD = $(TESTS_LDADD)
TESTS += tests/check_monitor_ratchet
check_PROGRAMS += tests/check_monitor_cgroup
tests_check_monitor_cgroup_SOURCES = tests/check_monitor_cgroup.c tests/tw_check.h \
	tests/tw_cgroup_fixture.h
tests_check_monitor_cgroup_CFLAGS = $(TESTS_CFLAGS)
tests_check_monitor_cgroup_LDADD = $(TESTS_LDADD)
TESTS += tests/check_monitor_cgroup
check_PROGRAMS += tests/check_finding_sockcpu
tests_check_finding_sockcpu_SOURCES = tests/check_finding_sockcpu.c tests/tw_check.h \
	tests/tw_findings.h tests/tw_sockview.h
tests_check_finding_sockcpu_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_sockcpu_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding_sockcpu
check_PROGRAMS += tests/check_finding_cgroup
tests_check_finding_cgroup_SOURCES = tests/check_finding_cgroup.c tests/tw_check.h tests/tw_findings.h
tests_check_finding_cgroup_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_cgroup_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding_cgroup
check_PROGRAMS += tests/check_finding_probe
tests_check_finding_probe_SOURCES = tests/check_finding_probe.c tests/tw_check.h tests/tw_findings.h
tests_check_finding_probe_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_probe_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding_probe
check_PROGRAMS += tests/check_figures_disk
tests_check_figures_disk_SOURCES = tests/check_figures_disk.c tests/tw_check.h
tests_check_figures_disk_CFLAGS = $(TESTS_CFLAGS)
tests_check_figures_disk_LDADD = $(TESTS_LDADD)
TESTS += tests/check_figures_disk

check_PROGRAMS += tests/check_finding_reqlat
tests_check_finding_reqlat_SOURCES = tests/check_finding_reqlat.c tests/tw_check.h \
	tests/tw_findings.h
tests_check_finding_reqlat_CFLAGS = $(TESTS_CFLAGS)
tests_check_finding_reqlat_LDADD = $(TESTS_LDADD)
TESTS += tests/check_finding_reqlat

check_PROGRAMS += tests/check_cgroups
tests_check_cgroups_SOURCES = tests/check_cgroups.c tests/tw_check.h tests/tw_cgroup_fixture.h
tests_check_cgroups_CFLAGS = $(TESTS_CFLAGS)
tests_check_cgroups_LDADD = $(TESTS_LDADD)
TESTS += tests/check_cgroups
