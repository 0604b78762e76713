/* sockowner_cost: the CPU time of the socket owner search, and of the
 * socket watcher's sample when no drops grew, on a proc root made by
 * bench/mkroot.py (add_sockets, add_processes).
 *
 * "search": tw_sockowner_find for one socket no process holds, so every
 * fd of every process is read: the worst case, what a search costs when
 * the owner is the last process read or not found at all.
 * "quiet": tw_sockwatch_step on the root's net/udp, unchanged between
 * steps, with the default limit of processes: the search must not run;
 * "quiet_read": the same with no counters to say nothing dropped, so the
 * socket files are read every step (the gate of sockets/dropgate.h off).
 * --limit stops the search as sockOwnerProcesses does. Each is timed --runs times with the thread's CPU clock; one JSON object
 * for the caller. Not part of make check: built by `make bench`. */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/netstat.h"
#include "collect/sockowner.h"
#include "sockets/sockwatch.h"
#include "util/error.h"

static uint64_t
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
print_list(const char *name, const uint64_t *ns, long n)
{
	long i;

	printf("\"%s\": [", name);
	for (i = 0; i < n; i++)
		printf("%s%llu", i > 0 ? ", " : "", (unsigned long long)ns[i]);
	printf("]");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc-root", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'n' },
		{ "limit", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct tw_sockwatch_config cfg = { .intervals = 12,
	    .owner_procs = TW_SOCK_OWNER_PROCS_DEFAULT, .diag = 0 };
	const uint32_t absent = 1;	/* no fd links to socket:[1] */
	struct tw_sock_owner owner;
	struct tw_owner_scan scan;
	struct tw_sockwatch w;
	struct tw_parse_stats ps = { 0, 0 };
	const char *root = NULL;
	uint64_t *search, *quiet, *quiet_read, t0;
	struct tw_netstat_set net;
	struct tw_buf scratch;
	long runs = 10, i;
	unsigned limit = TW_SOCK_OWNER_PROCS_DEFAULT;
	int c, fd, rc = TW_OK;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'p')
			root = optarg;
		else if (c == 'n')
			runs = strtol(optarg, NULL, 10);
		else if (c == 'l')
			limit = (unsigned)strtoul(optarg, NULL, 10);
		else
			return 64;
	}
	if (root == NULL || runs < 1 || runs > 10000) {
		fprintf(stderr, "usage: sockowner_cost --proc-root DIR [--runs N] [--limit PROCS]\n");
		return 64;
	}
	if ((fd = open(root, O_RDONLY | O_DIRECTORY)) < 0) {
		perror(root);
		return 71;
	}
	search = calloc((size_t)runs, sizeof(*search));
	quiet = calloc((size_t)runs, sizeof(*quiet));
	quiet_read = calloc((size_t)runs, sizeof(*quiet_read));
	if (search == NULL || quiet == NULL || quiet_read == NULL ||
	    tw_sockwatch_init(&w, &cfg) != TW_OK)
		return 71;
	tw_buf_init(&scratch);
	tw_netstat_set_init(&net);
	if (tw_netstat_read(fd, &scratch, &net, &ps) != TW_OK)
		fprintf(stderr, "sockowner_cost: no net/snmp: every step reads the socket files\n");
	for (i = 0; rc == TW_OK && i < runs; i++) {
		t0 = cpu_ns();
		rc = tw_sockowner_find(fd, &absent, 1, limit, &owner, &scan);
		search[i] = cpu_ns() - t0;
	}
	/* The first step only reads; the next ones are what every later
	 * sample costs while drop counts stay put. */
	if (rc == TW_OK)
		rc = tw_sockwatch_step(&w, fd, &net, &ps);
	for (i = 0; rc == TW_OK && i < runs; i++) {
		t0 = cpu_ns();
		rc = tw_sockwatch_step(&w, fd, &net, &ps);
		quiet[i] = cpu_ns() - t0;
	}
	for (i = 0; rc == TW_OK && i < runs; i++) {
		t0 = cpu_ns();
		rc = tw_sockwatch_step(&w, fd, NULL, &ps);
		quiet_read[i] = cpu_ns() - t0;
	}
	if (rc != TW_OK) {
		fprintf(stderr, "sockowner_cost: %s\n", tw_strerror(rc));
		return 71;
	}
	printf("{\"procs\": %u, \"fds\": %llu, \"cut\": %d, \"sockets_seen\": %llu, "
	    "\"dropping\": %zu, \"searches_when_quiet\": %llu, ", scan.procs,
	    (unsigned long long)scan.fds, scan.cut, (unsigned long long)w.cur.seen, w.nrows,
	    (unsigned long long)w.owner_searches);
	print_list("search_ns", search, runs);
	printf(", ");
	print_list("quiet_step_ns", quiet, runs);
	printf(", ");
	print_list("quiet_read_step_ns", quiet_read, runs);
	printf("}\n");
	tw_netstat_set_free(&net);
	tw_buf_free(&scratch);
	free(quiet_read);
	tw_sockwatch_free(&w);
	free(search);
	free(quiet);
	close(fd);
	return 0;
}
