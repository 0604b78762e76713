# SPDX-License-Identifier: ISC
# bench/: benchmarks, run with make bench (not part of make check)
#
# `make bench` builds what the benchmarks run and then bench/run, which
# starts its own snmpd on 127.0.0.1 (as the integration tests do), measures
# and stops everything. BENCH_ARGS passes options to bench/run, e.g.
#   make bench BENCH_ARGS='--parts 1,2 --live-seconds 60'
# bench/sample_cost is an EXTRA_PROGRAM: only `make bench` builds it.
EXTRA_PROGRAMS = bench/sample_cost bench/sockowner_cost
bench_sample_cost_SOURCES = bench/sample_cost.c bench/cgroup_io_grow.c bench/cgroup_io_grow.h
bench_sample_cost_LDADD = $(TW_LIBS)
bench_sockowner_cost_SOURCES = bench/sockowner_cost.c
bench_sockowner_cost_LDADD = $(TW_LIBS)

# The active probe's cost (bench/probe_cost.py, run by make bench-probe: it
# needs root and loop devices, so it is not a part of make bench).
EXTRA_PROGRAMS += bench/probe_memory
bench_probe_memory_SOURCES = bench/probe_memory.c
bench_probe_memory_LDADD = $(TW_LIBS)
EXTRA_DIST += bench/probe_cost.py

.PHONY: bench-probe
bench-probe: bench/probe_memory$(EXEEXT) agentx/tunewatchd$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(PYTHON3) -B $(srcdir)/bench/probe_cost.py --builddir '$(abs_top_builddir)' $(BENCH_ARGS)

# What timing every request costs (bench/reqlat_cost.py, run by make
# bench-reqlat: root, BTF, fio and bpftrace).
EXTRA_PROGRAMS += bench/reqlat_memory
bench_reqlat_memory_SOURCES = bench/reqlat_memory.c
bench_reqlat_memory_LDADD = $(TW_LIBS)
EXTRA_DIST += bench/reqlat_cost.py bench/reqlat_floor.bpf.c
if HAVE_BPF
# Two programs that do nothing, for the floor of the kernel's statistics.
EXTRA_PROGRAMS += bench/reqlat_floor
bench_reqlat_floor_SOURCES = bench/reqlat_floor.c
nodist_bench_reqlat_floor_SOURCES = bench/reqlat_floor.skel.h
CLEANFILES += bench/reqlat_floor.bpf.o bench/reqlat_floor.skel.h
bench/reqlat_floor.$(OBJEXT): bench/reqlat_floor.skel.h
bench/reqlat_floor.skel.h: $(srcdir)/bench/reqlat_floor.bpf.c $(srcdir)/lib/reqlat/reqlat_kernel.h
	$(AM_V_GEN)$(MKDIR_P) bench && \
	$(BPF_CLANG) -g -O2 -target bpf -mcpu=v3 $(TW_BPF_WARN_CFLAGS) -I$(srcdir)/lib/reqlat \
		-c $(srcdir)/bench/reqlat_floor.bpf.c -o bench/reqlat_floor.bpf.o && \
	$(BPFTOOL) gen skeleton bench/reqlat_floor.bpf.o name tw_floor_bpf > $@.tmp && mv $@.tmp $@
REQLAT_BENCH_FLOOR = bench/reqlat_floor$(EXEEXT)
endif

.PHONY: bench-reqlat
bench-reqlat: bench/reqlat_memory$(EXEEXT) agentx/tunewatchd$(EXEEXT) $(REQLAT_BENCH_FLOOR)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(PYTHON3) -B $(srcdir)/bench/reqlat_cost.py --builddir '$(abs_top_builddir)' $(BENCH_ARGS)

# What Zabbix's SNMP pollers ask of snmpd for contrib/zabbix's template on a
# host of 100 disks and 500 services (bench/zabbix_polls.py, run by make
# bench-zabbix: Debian's Zabbix 6.0 server, PostgreSQL 15 and PHP).
EXTRA_DIST += bench/zabbix_polls.py

.PHONY: bench-zabbix
bench-zabbix: agentx/tunewatchd$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(PYTHON3) -B $(srcdir)/bench/zabbix_polls.py --builddir '$(abs_top_builddir)' $(BENCH_ARGS)

dist_noinst_SCRIPTS += bench/run
EXTRA_DIST += BENCHMARKS.md bench/twbench.py bench/mkroot.py bench/part1_checks.py \
	bench/part2_disktable.py bench/part3_scale.py bench/part4_live.py \
	bench/part5_changes.py bench/part6_findings.py bench/part7_cgroups.py bench/sockets.py \
	bench/compare_sample_cost.py bench/compare_commits.py \
	bench/cgroups_compare.py bench/flood_walk_compare.py bench/names_compare.py \
	bench/flood_users.py bench/flood_dumps.py

BENCH_ARGS =
CLEANFILES += bench-results/results.md bench-results/results.json
BENCH_NEEDS = bench/sample_cost$(EXEEXT) agentx/tunewatchd$(EXEEXT) \
	plugins/check_disklatency$(EXEEXT)

.PHONY: bench
bench: $(BENCH_NEEDS)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' SNMPD='$(SNMPD)' \
	    $(PYTHON3) -B $(srcdir)/bench/run --builddir '$(abs_top_builddir)' $(BENCH_ARGS)
