# SPDX-License-Identifier: ISC
# lib/derive/: each group's record (lib/figures/) made from the window and
# the newest sample, in natural units; the view projects them into the MIB's
# numbers.
noinst_LIBRARIES += lib/derive/libtwderive.a
lib_derive_libtwderive_a_SOURCES = \
	lib/derive/disk.h lib/derive/disk.c lib/derive/cache.h lib/derive/cache.c \
	lib/derive/pool.h lib/derive/pool.c lib/derive/cgroup.h lib/derive/cgroup.c \
	lib/derive/socket.h lib/derive/socket.c lib/derive/probe.h lib/derive/probe.c \
	lib/derive/agent.h lib/derive/agent.c lib/derive/reqlat.h lib/derive/reqlat.c
