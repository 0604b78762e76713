# SPDX-License-Identifier: ISC
# lib/derive/: each group's record (lib/figures/) made from the window and
# the newest sample, in natural units; the view projects them into the MIB's
# numbers.
noinst_LIBRARIES += lib/derive/libtwderive.a
lib_derive_libtwderive_a_SOURCES = \
	lib/derive/derive_disk.h lib/derive/derive_disk.c lib/derive/derive_cache.h lib/derive/derive_cache.c \
	lib/derive/derive_pool.h lib/derive/derive_pool.c lib/derive/derive_cgroup.h lib/derive/derive_cgroup.c \
	lib/derive/derive_socket.h lib/derive/derive_socket.c lib/derive/derive_probe.h lib/derive/derive_probe.c \
	lib/derive/derive_agent.h lib/derive/derive_agent.c lib/derive/derive_reqlat.h lib/derive/derive_reqlat.c
