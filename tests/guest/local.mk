# SPDX-License-Identifier: ISC
# tests/guest/: the lab on a real system, a Debian guest under qemu
# (tests/guest/README.md). Not part of make check: it runs as root, builds
# the Debian packages and a guest image, and takes minutes. `make lab-guest`
# runs it alone; `make lab` runs it after the lab's scenarios where
# qemu-system-x86_64 is installed and says why it does not where it is not.
# GUEST_FLAGS passes options to the runner (GUEST_FLAGS='--only package').
GUEST_FILES = \
	tests/guest/README.md \
	tests/guest/packages.txt \
	tests/guest/image.py \
	tests/guest/guest_agent.py \
	tests/guest/vm.py \
	tests/guest/run.py \
	tests/guest/guestlab.py \
	tests/guest/guestreport.py \
	tests/guest/coverage.py \
	tests/guest/inguest.py \
	tests/guest/guestcgroup.py \
	tests/guest/guestdisks.py \
	tests/guest/guestproblem.py \
	tests/guest/guestreadahead.py \
	tests/guest/scenario_cgroup_high.py \
	tests/guest/scenario_cgroup_max.py \
	tests/guest/scenario_cgroup_user.py \
	tests/guest/scenario_disk_hdd.py \
	tests/guest/scenario_disk_names.py \
	tests/guest/scenario_disk_nvme.py \
	tests/guest/scenario_disk_virtio.py \
	tests/guest/scenario_package.py \
	tests/guest/scenario_readahead_lv.py \
	tests/guest/scenario_readahead_md.py \
	tests/guest/scenario_readahead_below.py \
	tests/guest/scenario_zz_purge.py \
	tests/guest/scenario_zzz_faults.py

EXTRA_DIST += $(GUEST_FILES)
GUEST_RESULTS = $(abs_top_builddir)/guest-results

# tests/advice_rules prints lib/advice's rules for the report's coverage
# table (tests/guest/coverage.py).
lab-guest: tests/advice_rules$(EXEEXT)
	@rc=0; top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(PYTHON3) -B $(abs_top_srcdir)/tests/guest/run.py --results '$(GUEST_RESULTS)' \
	    $(GUEST_FLAGS) || rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "lab-guest: skipped (see above)"; rc=0; fi; \
	exit $$rc

# Run from make lab, after the lab's own scenarios.
lab-guest-if-qemu:
	@if command -v qemu-system-x86_64 >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory lab-guest; \
	else \
	    echo "lab: the guest scenarios (tests/guest, doc/LAB-GUEST.md) skipped:" \
	        "qemu-system-x86_64 is not installed (contrib/install-deps --debian installs it)"; \
	fi
.PHONY: lab-guest lab-guest-if-qemu
