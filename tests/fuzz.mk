# SPDX-License-Identifier: ISC
# tests/fuzz/: libFuzzer targets for every text parser, the range parser,
# the --extra-opts ini reader, the advice, the MIB view and the shown form
# of foreign strings (see
# tests/fuzz/README.md).
#
# They are built with clang by the rules below, not by the project's
# compiler, with coverage and the sanitizers on lib/ as well.
#
#   make check   runs tests/fuzz/run-smoke.sh: each target for about 2 s on
#                its seeds (skipped without clang or the libFuzzer runtime)
#   make fuzz    runs each target for FUZZ_RUNS executions on a copy of its
#                seeds, FUZZ_JOBS at a time, and fails on any finding

FUZZ_CC = $(CLANG)
FUZZ_RUNS = 10000000
FUZZ_JOBS = 1
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer $(TW_STD_CFLAGS) $(TW_WARN_CFLAGS)
FUZZ_CPPFLAGS = -I$(top_srcdir)/lib -I$(top_srcdir)/mib -I$(top_builddir)

# lib/, compiled once with clang into an archive for each stage (beside
# the stage's own: lib/util/libtwutil.fuzz.a), linked in TW_LIBS' order as
# the programs are: each target links only the members it uses, so lib/ can
# move code between its files freely, and a stage that calls up into a
# higher one fails to link here too.
FUZZ_LIBS = $(TW_CHECKIO_LIBS:.a=.fuzz.a)
FUZZ_STAMP = tests/fuzz/libs.stamp
FUZZ_DEPS = $(FUZZ_STAMP) $(srcdir)/tests/fuzz/fuzz_check.h
FUZZ_LINK = $(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -o $@ $(srcdir)/$@.c

$(FUZZ_STAMP): $(TW_LIB_FILES) config.h
	$(AM_V_GEN)test -n "$(FUZZ_CC)" || { \
	  echo "fuzz: no clang (Debian: apt-get install clang libclang-rt-14-dev)" >&2; \
	  exit 1; }; \
	rm -rf tests/fuzz/obj && \
	for f in $(TW_LIB_FILES); do \
	  case $$f in *.c) ;; *) continue ;; esac; \
	  if test -f $$f; then src=$$f; else src=$(srcdir)/$$f; fi; \
	  stage=`echo $$f | cut -d/ -f2`; \
	  $(MKDIR_P) tests/fuzz/obj/$$stage && \
	  $(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -c $$src \
	    -o tests/fuzz/obj/$$stage/`basename $$f .c`.o || exit 1; \
	done && \
	for a in $(FUZZ_LIBS); do \
	  stage=`echo $$a | cut -d/ -f2`; \
	  $(MKDIR_P) lib/$$stage && rm -f $$a && \
	  $(AR) cr $$a tests/fuzz/obj/$$stage/*.o && $(RANLIB) $$a || exit 1; \
	done && touch $@

FUZZ_BINS = \
	tests/fuzz/fuzz_diskstats tests/fuzz/fuzz_blockqueue tests/fuzz/fuzz_blockident \
	tests/fuzz/fuzz_meminfo \
	tests/fuzz/fuzz_vmstat tests/fuzz/fuzz_pressure tests/fuzz/fuzz_procio \
	tests/fuzz/fuzz_softnet tests/fuzz/fuzz_sockstat tests/fuzz/fuzz_netstat \
	tests/fuzz/fuzz_protocols \
	tests/fuzz/fuzz_buddyinfo tests/fuzz/fuzz_sysctl tests/fuzz/fuzz_range \
	tests/fuzz/fuzz_ini tests/fuzz/fuzz_advice tests/fuzz/fuzz_mibview \
	tests/fuzz/fuzz_udpsock \
	tests/fuzz/fuzz_probeconf \
	tests/fuzz/fuzz_cgroup \
	tests/fuzz/fuzz_reqlat \
	tests/fuzz/fuzz_cgroupowner \
	tests/fuzz/fuzz_escape

tests/fuzz/fuzz_diskstats: $(srcdir)/tests/fuzz/fuzz_diskstats.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_blockqueue: $(srcdir)/tests/fuzz/fuzz_blockqueue.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_blockident: $(srcdir)/tests/fuzz/fuzz_blockident.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_meminfo: $(srcdir)/tests/fuzz/fuzz_meminfo.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_vmstat: $(srcdir)/tests/fuzz/fuzz_vmstat.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_pressure: $(srcdir)/tests/fuzz/fuzz_pressure.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_procio: $(srcdir)/tests/fuzz/fuzz_procio.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_softnet: $(srcdir)/tests/fuzz/fuzz_softnet.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_sockstat: $(srcdir)/tests/fuzz/fuzz_sockstat.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_netstat: $(srcdir)/tests/fuzz/fuzz_netstat.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_protocols: $(srcdir)/tests/fuzz/fuzz_protocols.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_buddyinfo: $(srcdir)/tests/fuzz/fuzz_buddyinfo.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_sysctl: $(srcdir)/tests/fuzz/fuzz_sysctl.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_range: $(srcdir)/tests/fuzz/fuzz_range.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_ini: $(srcdir)/tests/fuzz/fuzz_ini.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_advice: $(srcdir)/tests/fuzz/fuzz_advice.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_mibview: $(srcdir)/tests/fuzz/fuzz_mibview.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_udpsock: $(srcdir)/tests/fuzz/fuzz_udpsock.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_probeconf: $(srcdir)/tests/fuzz/fuzz_probeconf.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_cgroup: $(srcdir)/tests/fuzz/fuzz_cgroup.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_reqlat: $(srcdir)/tests/fuzz/fuzz_reqlat.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_cgroupowner: $(srcdir)/tests/fuzz/fuzz_cgroupowner.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)
tests/fuzz/fuzz_escape: $(srcdir)/tests/fuzz/fuzz_escape.c $(FUZZ_DEPS)
	$(FUZZ_LINK) $(FUZZ_LIBS) $(LIBS)

# The smoke run needs clang's path and a make to build the targets with.
AM_TESTS_ENVIRONMENT += FUZZ_CC='$(FUZZ_CC)'; export FUZZ_CC; \
	MAKE='$(MAKE)'; export MAKE;
TESTS += tests/fuzz/run-smoke.sh

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	$(AM_V_at)FUZZ_MODE=long FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_JOBS='$(FUZZ_JOBS)' \
	FUZZ_CC='$(FUZZ_CC)' top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' $(SHELL) $(srcdir)/tests/fuzz/run-smoke.sh

clean-local: clean-fuzz
clean-fuzz:
	-rm -f $(FUZZ_BINS) $(FUZZ_LIBS) $(FUZZ_STAMP)
	-rm -rf tests/fuzz/obj tests/fuzz/out

.PHONY: fuzz fuzz-build clean-fuzz

# Sources and seeds only: tests/fuzz/out in a build tree is not shipped.
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/run-smoke.sh tests/fuzz/fuzz_check.h \
	tests/fuzz/corpus tests/fuzz/dict \
	tests/fuzz/fuzz_diskstats.c tests/fuzz/fuzz_blockqueue.c tests/fuzz/fuzz_blockident.c \
	tests/fuzz/fuzz_meminfo.c \
	tests/fuzz/fuzz_vmstat.c tests/fuzz/fuzz_pressure.c tests/fuzz/fuzz_procio.c \
	tests/fuzz/fuzz_softnet.c tests/fuzz/fuzz_sockstat.c tests/fuzz/fuzz_netstat.c \
	tests/fuzz/fuzz_protocols.c \
	tests/fuzz/fuzz_buddyinfo.c tests/fuzz/fuzz_sysctl.c tests/fuzz/fuzz_range.c \
	tests/fuzz/fuzz_ini.c tests/fuzz/fuzz_advice.c tests/fuzz/fuzz_mibview.c \
	tests/fuzz/fuzz_udpsock.c \
	tests/fuzz/fuzz_probeconf.c \
	tests/fuzz/fuzz_cgroup.c \
	tests/fuzz/fuzz_reqlat.c \
	tests/fuzz/fuzz_cgroupowner.c \
	tests/fuzz/fuzz_escape.c
