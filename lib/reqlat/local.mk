# SPDX-License-Identifier: ISC
# lib/reqlat/: the request-latency source, a BPF program on the block
# tracepoints (reqlat.bpf.c, our own source), built here with clang and
# bpftool into a skeleton that the loader compiles in; no prebuilt object.
# Without libbpf (configure --without-bpf, or none found) a stub stands in
# and says so in its state.
noinst_LIBRARIES += lib/reqlat/libtwreqlat.a
lib_reqlat_libtwreqlat_a_SOURCES = \
	lib/reqlat/reqlat_abi.h lib/reqlat/reqlat_bucket.h \
	lib/reqlat/reqseries.h lib/reqlat/reqlat.h lib/reqlat/reqlat.c \
	lib/reqlat/reqslots.h lib/reqlat/reqslots.c \
	lib/reqlat/reqdecode.h lib/reqlat/reqdecode.c \
	lib/reqlat/reqlatconf.h lib/reqlat/reqlatconf.c \
	lib/reqlat/reqwin.h lib/reqlat/reqwin.c
EXTRA_DIST += lib/reqlat/reqlat.bpf.c lib/reqlat/reqlat_kernel.h

if HAVE_BPF
lib_reqlat_libtwreqlat_a_SOURCES += lib/reqlat/reqlat_bpf.c
nodist_lib_reqlat_libtwreqlat_a_SOURCES = lib/reqlat/reqlat.skel.h
BUILT_SOURCES += lib/reqlat/reqlat.skel.h
CLEANFILES += lib/reqlat/reqlat.bpf.o lib/reqlat/reqlat.skel.h

# -g: the object must carry BTF for libbpf's relocations; bpftool gen
# object then drops the DWARF, which the skeleton would only carry along.
lib/reqlat/reqlat.bpf.o: $(srcdir)/lib/reqlat/reqlat.bpf.c $(srcdir)/lib/reqlat/reqlat_abi.h \
		$(srcdir)/lib/reqlat/reqlat_bucket.h $(srcdir)/lib/reqlat/reqlat_kernel.h
	$(AM_V_GEN)$(MKDIR_P) lib/reqlat && \
	$(BPF_CLANG) -g -O2 -target bpf -mcpu=v3 $(TW_BPF_WARN_CFLAGS) -I$(srcdir)/lib/reqlat \
		-c $(srcdir)/lib/reqlat/reqlat.bpf.c -o $@.tmp.o && \
	$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

lib/reqlat/reqlat.skel.h: lib/reqlat/reqlat.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton lib/reqlat/reqlat.bpf.o name tw_reqlat_bpf > $@.tmp && \
	mv $@.tmp $@
else
lib_reqlat_libtwreqlat_a_SOURCES += lib/reqlat/reqlat_none.c
endif
