/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probeset.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probereader.h"
#include "util/error.h"
#include "util/printf.h"

struct entry {
	struct tw_probe_spec spec;
	struct tw_probe *probe;		/* NULL until the device is found */
	struct tw_probedev dev;		/* the device the probe reads */
	int vanished;
	int idle;
	/* Own I/O: the device's completed I/O less the probe's reads since
	 * the first look, and the highest that has been; a rise is I/O of
	 * the device's own. (A read still in flight is in the probe's count
	 * and not yet in the device's: the difference dips, then returns.) */
	int have_base;
	uint64_t base_ios, base_reads;
	int64_t own_max;
	uint64_t own_io_ms;
	enum tw_probe_state told;	/* the state last logged */
	int told_any;
	int told_missing;
};

struct tw_probeset {
	struct tw_probeset_config cfg;
	int sys_fd;
	struct entry *e;
	size_t n;
	int running;
	struct tw_probe_readers *readers;	/* NULL before run */
	char readers_err[TW_PROBE_REASON_LEN];	/* why there are none after run */
	struct tw_probe_row *rows;
};

static void
say(struct tw_probeset *ps, int warning, const char *fmt, ...) TW_PRINTF(3, 4);

static void
say(struct tw_probeset *ps, int warning, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (ps->cfg.log == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ps->cfg.log(ps->cfg.log_ctx, warning, line);
}

static void
run_probe(struct tw_probeset *ps, struct tw_probe *p)
{
	if (p == NULL)
		return;
	if (ps->readers != NULL)
		tw_probe_run(p, ps->readers);
	else
		tw_probe_fail(p, ps->readers_err);
}

static void
start(struct tw_probeset *ps, struct entry *e, const struct tw_probedev *dev)
{
	char path[TW_PROBEDEV_NAME_LEN + 256];
	struct tw_probe_params pp;

	snprintf(path, sizeof(path), "%s/%s", ps->cfg.dev_root ? ps->cfg.dev_root : "/dev",
	    dev->name);
	memset(&pp, 0, sizeof(pp));
	pp.name = dev->name;
	pp.path = path;
	pp.rate = e->spec.rate;
	pp.timeout_ms = ps->cfg.timeout_ms;
	pp.intervals = ps->cfg.intervals;
	e->dev = *dev;
	e->probe = tw_probe_open(&pp);
	if (ps->running)
		run_probe(ps, e->probe);
	e->vanished = 0;
	e->idle = 0;
	e->have_base = 0;
	e->told_any = 0;
	if (e->probe == NULL)
		say(ps, 1, "probe %s: cannot start: out of memory or threads", e->spec.device);
}

static int
taken(const struct tw_probeset *ps, const struct entry *self, const struct tw_probedev *d)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (&ps->e[i] != self && ps->e[i].probe != NULL &&
		    ps->e[i].dev.major == d->major && ps->e[i].dev.minor == d->minor)
			return 1;
	return 0;
}

/* Find the line's device, if it was not there before. */
static void
find(struct tw_probeset *ps, struct entry *e)
{
	struct tw_probedev d;

	if (tw_probedev_resolve(ps->sys_fd, e->spec.device, &d) != TW_OK) {
		if (!e->told_missing)
			say(ps, 1, "probe %s: no such block device (a kernel name, a /dev path "
			    "or a device alias); looking again at every sample", e->spec.device);
		e->told_missing = 1;
		return;
	}
	if (taken(ps, e, &d)) {
		if (!e->told_missing)
			say(ps, 1, "probe %s: %s is probed already; this line is ignored",
			    e->spec.device, d.name);
		e->told_missing = 1;
		return;
	}
	start(ps, e, &d);
}

int
tw_probeset_open(struct tw_probeset **out, const struct tw_probeset_config *cfg)
{
	struct tw_probeset *ps = calloc(1, sizeof(*ps));
	size_t i;

	*out = NULL;
	if (ps == NULL)
		return TW_E_NOMEM;
	ps->cfg = *cfg;
	ps->e = calloc(cfg->nspecs > 0 ? cfg->nspecs : 1, sizeof(*ps->e));
	ps->rows = calloc(cfg->nspecs > 0 ? cfg->nspecs : 1, sizeof(*ps->rows));
	if (ps->e == NULL || ps->rows == NULL) {
		free(ps->e);
		free(ps->rows);
		free(ps);
		return TW_E_NOMEM;
	}
	ps->sys_fd = open(cfg->sys_root != NULL ? cfg->sys_root : "/sys",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ps->n = cfg->nspecs;
	for (i = 0; i < ps->n; i++) {
		ps->e[i].spec = cfg->specs[i];
		find(ps, &ps->e[i]);
	}
	*out = ps;
	return TW_OK;
}

void
tw_probeset_run(struct tw_probeset *ps)
{
	size_t i;

	int err;

	ps->running = 1;
	err = tw_probe_readers_start(&ps->readers);
	if (err != 0)
		snprintf(ps->readers_err, sizeof(ps->readers_err), "cannot start the reads: %s",
		    strerror(err));
	for (i = 0; i < ps->n; i++)
		run_probe(ps, ps->e[i].probe);
}

void
tw_probeset_close(struct tw_probeset *ps)
{
	size_t i;

	if (ps == NULL)
		return;
	for (i = 0; i < ps->n; i++)
		tw_probe_stop(ps->e[i].probe);
	tw_probe_readers_stop(ps->readers);
	if (ps->sys_fd >= 0)
		close(ps->sys_fd);
	free(ps->e);
	free(ps->rows);
	free(ps);
}

/* Whether d is another device than the one e probes. */
static int
replaced(const struct entry *e, const struct tw_probedev *d)
{
	return d->major != e->dev.major || d->minor != e->dev.minor ||
	    (d->diskseq != 0 && e->dev.diskseq != 0 && d->diskseq != e->dev.diskseq);
}

static void
watch_idle(struct tw_probeset *ps, struct entry *e, const struct tw_probedev *d,
    uint64_t now_ms)
{
	uint64_t reads = tw_probe_reads(e->probe);
	int64_t own;

	if (!d->has_ios)
		return;
	if (!e->have_base) {
		e->have_base = 1;
		e->base_ios = d->ios;
		e->base_reads = reads;
		e->own_max = 0;
		e->own_io_ms = now_ms;
	}
	own = (int64_t)(d->ios - e->base_ios) - (int64_t)(reads - e->base_reads);
	if (own > e->own_max) {
		e->own_max = own;
		e->own_io_ms = now_ms;
	}
	if (d->rotational == 1 && ps->cfg.idle_s > 0 &&
	    now_ms - e->own_io_ms >= (uint64_t)ps->cfg.idle_s * 1000) {
		if (!e->idle) {
			char why[96];

			snprintf(why, sizeof(why), "no I/O of its own for %u s; not probed so that "
			    "it can spin down", ps->cfg.idle_s);
			tw_probe_pause(e->probe, TW_PROBE_IDLE_SKIPPED, why);
			e->idle = 1;
		}
	} else if (e->idle) {
		tw_probe_resume(e->probe);
		e->idle = 0;
	}
}

static void
tick_one(struct tw_probeset *ps, struct entry *e, uint64_t now_ms)
{
	struct tw_probedev d;

	if (e->probe == NULL) {
		find(ps, e);
		return;
	}
	tw_probe_rotate(e->probe, now_ms);
	if (tw_probedev_resolve(ps->sys_fd, e->spec.device, &d) != TW_OK) {
		if (!e->vanished) {
			char why[TW_PROBE_SPEC_LEN + 32];

			snprintf(why, sizeof(why), "no device answers to %s", e->spec.device);
			tw_probe_pause(e->probe, TW_PROBE_VANISHED, why);
			e->vanished = 1;
		}
		return;
	}
	if (replaced(e, &d)) {
		say(ps, 1, "probe %s: %s (%u:%u) was replaced by %s (%u:%u); opening it again",
		    e->spec.device, e->dev.name, e->dev.major, e->dev.minor, d.name, d.major,
		    d.minor);
		tw_probe_stop(e->probe);
		e->probe = NULL;
		if (taken(ps, e, &d)) {
			say(ps, 1, "probe %s: %s is probed already; this line is ignored",
			    e->spec.device, d.name);
			return;
		}
		start(ps, e, &d);
		return;
	}
	if (e->vanished) {
		tw_probe_resume(e->probe);
		e->vanished = 0;
		e->idle = 0;
	}
	e->dev.rotational = d.rotational;
	watch_idle(ps, e, &d, now_ms);
}

void
tw_probeset_tick(struct tw_probeset *ps, uint64_t now_ms)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		struct entry *e = &ps->e[i];
		struct tw_probe_report r;

		tick_one(ps, e, now_ms);
		if (e->probe == NULL)
			continue;
		/* Tell each change of state once, with its reason. */
		tw_probe_report(e->probe, now_ms, &r);
		if (e->told_any && r.state == e->told)
			continue;
		if (r.state == TW_PROBE_PROBING)
			say(ps, 0, "probe %s: probing %s (%u:%u), %u read%s a second of %u bytes",
			    e->spec.device, e->dev.name, e->dev.major, e->dev.minor, r.rate,
			    r.rate == 1 ? "" : "s", r.read_size);
		else
			say(ps, r.state != TW_PROBE_IDLE_SKIPPED, "probe %s: %s: %s", e->spec.device,
			    tw_probe_state_name(r.state), r.reason);
		e->told = r.state;
		e->told_any = 1;
	}
}

static int
row_cmp(const void *a, const void *b)
{
	const struct tw_probe_row *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return x->minor < y->minor ? -1 : x->minor > y->minor;
}

const struct tw_probe_row *
tw_probeset_rows(struct tw_probeset *ps, uint64_t now_ms, size_t *n)
{
	size_t i, k = 0;

	for (i = 0; i < ps->n; i++) {
		const struct entry *e = &ps->e[i];

		if (e->probe == NULL)
			continue;
		ps->rows[k].major = e->dev.major;
		ps->rows[k].minor = e->dev.minor;
		snprintf(ps->rows[k].name, sizeof(ps->rows[k].name), "%s", e->dev.name);
		tw_probe_report(e->probe, now_ms, &ps->rows[k].r);
		k++;
	}
	if (k > 1)
		qsort(ps->rows, k, sizeof(*ps->rows), row_cmp);
	*n = k;
	return ps->rows;
}
