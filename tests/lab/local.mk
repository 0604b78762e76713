# SPDX-License-Identifier: ISC
# tests/lab/: the tuning lab (tests/lab/README.md). Not part of make check:
# it runs as root, changes kernel settings (and restores them) and takes
# minutes. `make lab` runs every scenario and writes doc/LAB.md; it says
# why and does nothing where it is not root. LAB_FLAGS passes options to
# the runner (LAB_FLAGS='--only net_listen'). Then the guest lab
# (tests/guest/local.mk) where qemu is installed.
LAB_FILES = \
	tests/lab/README.md \
	tests/lab/run.py \
	tests/lab/labcore.py \
	tests/lab/labjournal.py \
	tests/lab/labproblem.py \
	tests/lab/labreport.py \
	tests/lab/labstats.py \
	tests/lab/labsweep.py \
	tests/lab/labproof.py \
	tests/lab/labplot.py \
	tests/lab/labmachine.py \
	tests/lab/labcache.py \
	tests/lab/labdisk.py \
	tests/lab/labneg.py \
	tests/lab/labknobs.py \
	tests/lab/labsndbuf.py \
	tests/lab/scenario_cache_cgroup.py \
	tests/lab/scenario_cache_dirty.py \
	tests/lab/scenario_cache_readahead.py \
	tests/lab/scenario_disk_write_latency.py \
	tests/lab/scenario_healthy_backup.py \
	tests/lab/scenario_healthy_dbread.py \
	tests/lab/scenario_healthy_dpkg.py \
	tests/lab/scenario_healthy_gitclone.py \
	tests/lab/scenario_healthy_gzip.py \
	tests/lab/scenario_healthy_odirect_copy.py \
	tests/lab/scenario_healthy_compile.py \
	tests/lab/scenario_healthy_fork.py \
	tests/lab/scenario_healthy_reread.py \
	tests/lab/scenario_healthy_udp.py \
	tests/lab/scenario_healthy_write.py \
	tests/lab/scenario_lab_restore.py \
	tests/lab/scenario_neg_anon_leak.py \
	tests/lab/scenario_neg_disk_throughput.py \
	tests/lab/scenario_neg_odirect_ra64.py \
	tests/lab/scenario_neg_random_ra16.py \
	tests/lab/scenario_neg_udp_cpu.py \
	tests/lab/scenario_neg_writer_faster.py \
	tests/lab/scenario_net_busypoll.py \
	tests/lab/scenario_net_highorder.py \
	tests/lab/scenario_net_listen.py \
	tests/lab/scenario_net_softnet.py \
	tests/lab/scenario_net_squeeze.py \
	tests/lab/scenario_net_tcp_mem.py \
	tests/lab/scenario_net_udp_default.py \
	tests/lab/scenario_net_udp_max.py \
	tests/lab/scenario_net_udp_mem.py \
	tests/lab/scenario_net_syslog.py \
	tests/lab/scenario_net_udp_sndbuf.py \
	tests/lab/scenario_net_udp_wmem_max.py \
	tests/lab/scenario_net_udp_sorcvbuf.py

EXTRA_DIST += $(LAB_FILES) doc/LAB.md

# The disk scenarios' device of a known latency is a check program: build
# it here too, or a tree where make check never ran skips them.
if HAVE_FUSE3
lab_programs = tests/fusedelay$(EXEEXT)
endif
lab: all $(lab_programs)
	@rc=0; top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(PYTHON3) -B $(abs_top_srcdir)/tests/lab/run.py $(LAB_FLAGS) || rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "lab: skipped (see above)"; rc=0; fi; \
	grc=0; case ' $(LAB_FLAGS) ' in \
	*' --only'*) echo "lab: the guest scenarios skipped: --only chose host scenarios" \
	    "(make lab-guest runs the guest's)" ;; \
	*) $(MAKE) --no-print-directory lab-guest-if-qemu || grc=$$?; ;; \
	esac; \
	[ $$rc -ne 0 ] || rc=$$grc; \
	exit $$rc
.PHONY: lab
