/* SPDX-License-Identifier: ISC */
/* sockowner_cost: the CPU time of the socket owner search, and of the
 * socket watcher's sample when no drops grew, on a proc root made by
 * bench/mkroot.py (add_sockets, add_processes).
 *
 * Each search is for one socket no process holds, so every fd of every
 * process is read: the worst case, what a search costs when the owner is
 * the last process read or not found at all.
 * "search": the whole search in one run, without a budget (as before the
 * budget; comparable with the older builds' "search").
 * "run": the first run of a search under the budget (--budget, default
 * sockOwnerBudget's): what one sample pays while a search is under way.
 * "budgeted_search": the whole search under the budget, run after run,
 * as the samples would; "runs_per_search" says how many it took.
 * "quiet": tw_sockwatch_step on the root's net/udp, unchanged between
 * steps, with the default limits: the search must not run;
 * "quiet_read": the same with no counters to say nothing dropped, so the
 * socket files are read every step (the gate of sockets/dropgate.h off).
 * --limit is sockOwnerProcesses. Each is timed --runs times with the
 * thread's CPU clock; one JSON object for the caller. Not part of make
 * check: built by `make bench`. */
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

#define ABSENT 1	/* no fd links to socket:[1] */

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

/* A search for the absent socket from the start of /proc, run after run
 * under lim until it settles: the CPU of the first run and of them all. */
static int
search(int fd, const struct tw_owner_limits *lim, uint64_t *first, uint64_t *all,
    uint64_t *runs, struct tw_owner_scan *whole)
{
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_want w;
	struct tw_owner_scan scan;
	uint64_t t0, t;
	int rc = TW_OK;

	memset(whole, 0, sizeof(*whole));
	*all = *runs = 0;
	tw_sockowner_join(&c, ABSENT, &w);
	while (rc == TW_OK && w.state == TW_OWNER_SEARCHING) {
		t0 = cpu_ns();
		rc = tw_sockowner_run(fd, &c, &w, 1, lim, &scan);
		t = cpu_ns() - t0;
		if (*runs == 0)
			*first = t;
		*all += t;
		(*runs)++;
		whole->procs += scan.procs;
		whole->fds += scan.fds;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc-root", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'n' },
		{ "limit", required_argument, NULL, 'l' },
		{ "budget", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	struct tw_sockwatch_config cfg = { .intervals = 12,
	    .owner_procs = TW_SOCK_OWNER_PROCS_DEFAULT,
	    .owner_budget_us = TW_SOCK_OWNER_BUDGET_MS_DEFAULT * 1000u, .diag = 0 };
	struct tw_owner_limits whole = { .budget_ns = 0,
	    .max_procs = TW_SOCK_OWNER_PROCS_DEFAULT };
	struct tw_owner_limits sliced = { .budget_ns = TW_SOCK_OWNER_BUDGET_MS_DEFAULT * 1000000ull,
	    .max_procs = TW_SOCK_OWNER_PROCS_DEFAULT };
	struct tw_owner_scan scan, bscan;
	struct tw_sockwatch w;
	struct tw_parse_stats ps = { 0, 0 };
	const char *root = NULL;
	uint64_t *full, *first, *budgeted, *quiet, *quiet_read, t0, runs = 0, ignored;
	struct tw_netstat_set net;
	struct tw_buf scratch;
	long nruns = 10, i;
	int c, fd, rc = TW_OK;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'p')
			root = optarg;
		else if (c == 'n')
			nruns = strtol(optarg, NULL, 10);
		else if (c == 'l')
			whole.max_procs = sliced.max_procs = (unsigned)strtoul(optarg, NULL, 10);
		else if (c == 'b')
			sliced.budget_ns = strtoull(optarg, NULL, 10) * 1000000ull;
		else
			return 64;
	}
	if (root == NULL || nruns < 1 || nruns > 10000 || whole.max_procs < 1) {
		fprintf(stderr, "usage: sockowner_cost --proc-root DIR [--runs N] [--limit PROCS] "
		    "[--budget MS]\n");
		return 64;
	}
	if ((fd = open(root, O_RDONLY | O_DIRECTORY)) < 0) {
		perror(root);
		return 71;
	}
	full = calloc((size_t)nruns, sizeof(*full));
	first = calloc((size_t)nruns, sizeof(*first));
	budgeted = calloc((size_t)nruns, sizeof(*budgeted));
	quiet = calloc((size_t)nruns, sizeof(*quiet));
	quiet_read = calloc((size_t)nruns, sizeof(*quiet_read));
	if (full == NULL || first == NULL || budgeted == NULL || quiet == NULL ||
	    quiet_read == NULL || tw_sockwatch_init(&w, &cfg) != TW_OK)
		return 71;
	tw_buf_init(&scratch);
	tw_netstat_set_init(&net);
	if (tw_netstat_read(fd, &scratch, &net, &ps) != TW_OK)
		fprintf(stderr, "sockowner_cost: no net/snmp: every step reads the socket files\n");
	/* Alternated, so that a change in the machine's load falls on both. */
	for (i = 0; rc == TW_OK && i < nruns; i++) {
		rc = search(fd, &whole, &full[i], &ignored, &ignored, &scan);
		if (rc == TW_OK)
			rc = search(fd, &sliced, &first[i], &budgeted[i], &runs, &bscan);
	}
	/* The first step only reads; the next ones are what every later
	 * sample costs while drop counts stay put. */
	if (rc == TW_OK)
		rc = tw_sockwatch_step(&w, fd, &net, NULL, &ps);
	for (i = 0; rc == TW_OK && i < nruns; i++) {
		t0 = cpu_ns();
		rc = tw_sockwatch_step(&w, fd, &net, NULL, &ps);
		quiet[i] = cpu_ns() - t0;
	}
	for (i = 0; rc == TW_OK && i < nruns; i++) {
		t0 = cpu_ns();
		rc = tw_sockwatch_step(&w, fd, NULL, NULL, &ps);
		quiet_read[i] = cpu_ns() - t0;
	}
	if (rc != TW_OK) {
		fprintf(stderr, "sockowner_cost: %s\n", tw_strerror(rc));
		return 71;
	}
	printf("{\"procs\": %u, \"fds\": %llu, \"budget_ms\": %llu, \"runs_per_search\": %llu, "
	    "\"budgeted_procs\": %u, \"budgeted_fds\": %llu, \"sockets_seen\": %llu, "
	    "\"dropping\": %zu, \"searches_when_quiet\": %llu, ", scan.procs,
	    (unsigned long long)scan.fds, (unsigned long long)(sliced.budget_ns / 1000000),
	    (unsigned long long)runs, bscan.procs, (unsigned long long)bscan.fds,
	    (unsigned long long)w.cur.seen, w.nrows, (unsigned long long)w.owner_runs);
	print_list("search_ns", full, nruns);
	printf(", ");
	print_list("run_ns", first, nruns);
	printf(", ");
	print_list("budgeted_search_ns", budgeted, nruns);
	printf(", ");
	print_list("quiet_step_ns", quiet, nruns);
	printf(", ");
	print_list("quiet_read_step_ns", quiet_read, nruns);
	printf("}\n");
	tw_netstat_set_free(&net);
	tw_buf_free(&scratch);
	tw_sockwatch_free(&w);
	free(quiet_read);
	free(quiet);
	free(budgeted);
	free(first);
	free(full);
	close(fd);
	return 0;
}
