/* SPDX-License-Identifier: ISC */
/* --local --probe: a short probe of this host's devices, for NRPE, where
 * no tunewatchd runs. The same probe as tunewatchd's (lib/probe), at the
 * top rate (10 reads a second) so that a check of N reads takes N/10 s;
 * every device is probed at once, each from its own thread. */
#include "config.h"

#include "probecheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/blockident.h"
#include "probe/probeset.h"
#include "util/clock.h"
#include "util/error.h"
#include "view/build.h"

/* The most devices one check probes at once (threads and open files). */
#define MAX_LOCAL 256

static int
in_view(const struct tw_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->ndisks; i++)
		if (strcmp(v->disks[i].name, name) == 0)
			return 1;
	return 0;
}

/* The devices to probe: block/ entries that --device names, or, without
 * an inclusion, the disks the view holds (the default filter's choice). */
static size_t
choose(const struct tw_plugin *p, const struct tw_view *v, const struct tw_namefilter *f,
    struct tw_probe_spec *specs)
{
	char root[4096];
	struct tw_blockident id;
	struct dirent *e;
	size_t n = 0;
	int sys_fd;
	DIR *d;

	snprintf(root, sizeof(root), "%s/block", p->sys_root != NULL ? p->sys_root : "/sys");
	if ((d = opendir(root)) == NULL)
		return 0;
	sys_fd = open(p->sys_root != NULL ? p->sys_root : "/sys", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC);
	while ((e = readdir(d)) != NULL && n < MAX_LOCAL) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(specs[n].device))
			continue;
		if (tw_ident_read(sys_fd, e->d_name, &id) != TW_OK)
			tw_ident_init(&id);
		if (!tw_namefilter_keep_either(f, e->d_name, id.alias))
			continue;
		if (!f->has_include && !in_view(v, e->d_name))
			continue;
		snprintf(specs[n].device, sizeof(specs[n].device), "%s", e->d_name);
		specs[n].rate = TW_PROBE_MAX_RATE;
		n++;
	}
	if (sys_fd >= 0)
		close(sys_fd);
	closedir(d);
	return n;
}

static int
done(const struct tw_probe_row *rows, size_t n, unsigned count)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct tw_probe_report *r = &rows[i].r;

		if ((r->state == TW_PROBE_PROBING || r->state == TW_PROBE_ERRORS) &&
		    r->hist.count + r->timeouts + r->errors < count)
			return 0;
	}
	return 1;
}

int
tw_probe_local(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_namefilter *devices, unsigned count, struct tw_view *pv, char *err,
    size_t errlen)
{
	struct tw_probe_spec *specs = calloc(MAX_LOCAL, sizeof(*specs));
	struct tw_probeset_config cfg;
	struct tw_probeset *ps = NULL;
	const struct tw_probe_row *rows;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	unsigned long waited_ms = 0, limit_ms;
	size_t n;
	int rc;

	if (specs == NULL) {
		snprintf(err, errlen, "out of memory");
		return TW_E_NOMEM;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.specs = specs;
	cfg.nspecs = choose(p, v, devices, specs);
	cfg.sys_root = p->sys_root;
	cfg.intervals = 1;
	/* Asked for by name: probe even an idle rotational disk. */
	cfg.idle_s = 0;
	if (cfg.nspecs == 0) {
		free(specs);
		snprintf(err, errlen, "no device to probe (check --device and --exclude-device)");
		return TW_E_ABSENT;
	}
	if ((rc = tw_probeset_open(&ps, &cfg)) != TW_OK) {
		free(specs);
		snprintf(err, errlen, "cannot set up the probe: %s", tw_strerror(rc));
		return rc;
	}
	tw_probeset_run(ps);
	/* count reads at 10 a second, and the last one's timeout. */
	limit_ms = (unsigned long)count * 1000 / TW_PROBE_MAX_RATE + TW_PROBE_DEFAULT_TIMEOUT_MS +
	    1000;
	for (;;) {
		rows = tw_probeset_rows(ps, tw_clock_ms(), &n);
		if (done(rows, n, count) || waited_ms >= limit_ms)
			break;
		while (nanosleep(&tick, NULL) != 0 && errno == EINTR)
			;
		waited_ms += 20;
	}
	rc = tw_view_build(pv, &(struct tw_view_sources){ .probing = 1, .probes = rows,
	    .nprobes = n });
	tw_probeset_close(ps);
	free(specs);
	if (rc != TW_OK)
		snprintf(err, errlen, "out of memory");
	return rc;
}
