/* SPDX-License-Identifier: ISC */
/* The cgroup fixture trees for the unit tests.
 *
 * tests/fixtures/collectors/cgroup.tar holds a cgroup v2 tree (v2/sys/fs/
 * cgroup/...) and a v1 one (v1/sys/fs/cgroup/{memory,blkio}/...) laid out
 * as the kernel lays them out. They are kept as an archive because their
 * paths, under the kernel's own names, are longer than the 99 characters
 * that `make dist` (tar's v7 format, automake's default) keeps: the tree
 * itself would not survive `make distcheck`. Each test program makes the
 * trees in a directory of its own and removes it at the end. */
#ifndef TW_CGROUP_FIXTURE_H
#define TW_CGROUP_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "tw_check.h"

/* Make the trees in a new directory, whose path goes to dir; 0 or -1. */
static inline int
tw_cgroup_trees(char *dir, size_t len)
{
	char cmd[8192];

	snprintf(dir, len, "/tmp/tw-cgroup-trees-XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(cmd, sizeof(cmd), "tar -xf '%s' -C '%s' && chmod -R u+w '%s'",
	    tw_fixture_path("collectors/cgroup.tar"), dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static inline void
tw_cgroup_trees_remove(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

#endif
