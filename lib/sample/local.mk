# SPDX-License-Identifier: ISC
# lib/sample/: one snapshot of every collector, the sampler that takes it,
# the classes of message-buffer pool and the pools derived from a sample.
noinst_LIBRARIES += lib/sample/libtwsample.a
lib_sample_libtwsample_a_SOURCES = \
	lib/sample/sample.h lib/sample/sample.c \
	lib/sample/sampler.h lib/sample/sampler_priv.h lib/sample/sampler.c \
	lib/sample/sampler_disks.c \
	lib/sample/poolclass.h lib/sample/poolclass.c \
	lib/sample/pools.h lib/sample/pools.c \
	lib/sample/pressureclock.h lib/sample/pressureclock.c \
	lib/sample/cgroups.h lib/sample/cgroups_priv.h lib/sample/cgroups.c \
	lib/sample/cgroups_rescan.c
