/* SPDX-License-Identifier: ISC */
#ifndef TW_BENCH_CGROUP_IO_GROW_H
#define TW_BENCH_CGROUP_IO_GROW_H

/* Rewrite every io.stat under sys_root/fs/cgroup as if each cgroup had read
 * tick * 4096 bytes, summed up the tree as the kernel does; 0 or -1. */
int cgroup_io_grow(const char *sys_root, unsigned long tick);

#endif
