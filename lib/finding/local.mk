# SPDX-License-Identifier: ISC
# lib/finding/: the judgement the checks and tunewatchd share (a figure
# against its thresholds, and which evidence applies) and the finding,
# built once, that the checks print and tunewatchd tracks.
noinst_LIBRARIES += lib/finding/libtwfinding.a
lib_finding_libtwfinding_a_SOURCES = \
	lib/finding/finding.h lib/finding/finding.c \
	lib/finding/judge.h lib/finding/judge.c lib/finding/judge_cache.c \
	lib/finding/judge_pool.c lib/finding/judge_disk.c \
	lib/finding/judge_socket.c lib/finding/judge_cgroup.c lib/finding/ticket_cgroup.c \
	lib/finding/judge_probe.c lib/finding/judge_reqlat.h lib/finding/judge_reqlat.c \
	lib/finding/lookup.h lib/finding/lookup.c lib/finding/observe.h lib/finding/observe.c \
	lib/finding/observe_priv.h lib/finding/observe_pick.h lib/finding/observe_pick.c \
	lib/finding/observe_verdict.h lib/finding/observe_verdict.c \
	lib/finding/judge_disk_row.h lib/finding/judge_disk_row.c \
	lib/finding/observe_disk.c lib/finding/observe_cgroup.c lib/finding/observe_socket.c \
	lib/finding/ratchet.h lib/finding/ratchet.c \
	lib/finding/tracker.h lib/finding/tracker.c
