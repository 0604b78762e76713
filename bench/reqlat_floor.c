/* SPDX-License-Identifier: ISC */
/* Load bench/reqlat_floor.bpf.c, attach it, say "ready" and hold it until
 * SIGINT or SIGTERM: for bench/reqlat_cost.py. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bench/reqlat_floor.skel.h"

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(void)
{
	struct tw_floor_bpf *skel = tw_floor_bpf__open_and_load();

	if (skel == NULL || tw_floor_bpf__attach(skel) != 0) {
		fprintf(stderr, "reqlat_floor: cannot load or attach the programs\n");
		tw_floor_bpf__destroy(skel);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("ready\n");
	fflush(stdout);
	while (!stop)
		pause();
	tw_floor_bpf__destroy(skel);
	return 0;
}
