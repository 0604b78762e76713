# SPDX-License-Identifier: ISC
# tests/: the distribution of every request end to end, on the real
# kernel, on loop devices of the tests' own (root, BTF, losetup; each skips
# with its reason where something is missing):
#   reqlat_reference.py  tunewatchd against bpftrace on the same device in
#                        the same window: counts within 1 %, p50 and p99
#                        within 10 % or a bucket of the reference
#   reqlat_agent.py      devices that come and go, one slot for two
#                        devices, a slow tail as a finding and in the
#                        check, no permission, --user, off
#   reqlat_prometheus.py twReqHistTable through snmp_exporter and
#                        Prometheus: histogram_quantile(0.99) in the
#                        ladder's bucket of twReqLatP99
#   reqlat_memcheck.py   tunewatchd and the check timing requests under
#                        valgrind memcheck
EXTRA_DIST += tests/integration/reqlat_common.py tests/integration/tracing.py

REQLAT_TESTS = \
	tests/integration/reqlat_reference.py \
	tests/integration/reqlat_agent.py \
	tests/integration/reqlat_prometheus.py \
	tests/integration/reqlat_memcheck.py

dist_noinst_SCRIPTS += $(REQLAT_TESTS)
TESTS += $(REQLAT_TESTS)
