/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/advice_cgroup.h"

#include <stdio.h>
#include <string.h>

#include "threshold/perfdata.h"
#include "util/error.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

#define RESOURCE_CONTROL "systemd.resource-control(5)"
#define CGROUP_V2_RST "Documentation/admin-guide/cgroup-v2.rst"
#define CGROUP_V1_RST "Documentation/admin-guide/cgroup-v1/memory.rst"

void
tw_advice_systemd_size(double bytes, char *buf, size_t len)
{
	static const struct {
		double unit;
		const char *suffix;
	} units[] = { { MIB * KIB, "G" }, { MIB, "M" }, { KIB, "K" } };
	unsigned long long b = bytes > 0 ? (unsigned long long)bytes : 0;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		unsigned long long u = (unsigned long long)units[i].unit;

		if (b >= u && b % u == 0) {
			snprintf(buf, len, "%llu%s", b / u, units[i].suffix);
			return;
		}
	}
	snprintf(buf, len, "%llu", b);
}

/* Numbers as the checks print them: no trailing zeros, no locale. */
static const char *
number(double v, unsigned precision, char *buf, size_t len)
{
	if (tw_perf_number(v, precision, buf, len) != TW_OK)
		snprintf(buf, len, "unknown");
	return buf;
}

static const char *
mib(double bytes, char *buf, size_t len)
{
	return number(bytes / MIB, 1, buf, len);
}

/* The systemd property that sets the limit file. */
static const char *
property(const char *limit_name)
{
	if (strcmp(limit_name, "memory.high") == 0)
		return "MemoryHigh";
	if (strcmp(limit_name, "memory.max") == 0)
		return "MemoryMax";
	return "MemoryLimit";
}

const char *
tw_advice_cgroup_tunable(const char *limit_name, int unit)
{
	return unit ? property(limit_name) : limit_name;
}

void
tw_advice_cgroup_value(int limited, double bytes, const char *limit_name, int unit, char *buf,
    size_t len)
{
	if (limited)
		tw_advice_systemd_size(bytes, buf, len);
	else
		snprintf(buf, len, "%s", unit ? "infinity" :
		    strcmp(limit_name, "memory.limit_in_bytes") == 0 ? "-1" : "max");
}

/* A unit's own cgroup, whose limit its manager sets from a property. */
static int
is_unit(const struct tw_advice_cgroup_figures *f)
{
	return f->owner.kind == TW_CG_OWNER_SYSTEM_UNIT || f->owner.kind == TW_CG_OWNER_USER_UNIT;
}

static int
at_limit(const struct tw_advice_cgroup_figures *f)
{
	if (!f->have_limit || f->limit <= 0)
		return 0;
	return (f->have_usage && f->usage >= f->limit * TW_ADVICE_CGROUP_AT_LIMIT) ||
	    (f->have_events && f->events > 0);
}

int
tw_advice_cgroup_bounded(const struct tw_advice_cgroup_figures *f)
{
	return f != NULL && at_limit(f);
}

/* What it holds besides its page cache (anonymous memory, kernel memory),
 * or -1 unknown. */
static double
anonymous(const struct tw_advice_cgroup_figures *f)
{
	if (!f->have_usage || !f->have_cache || f->cache > f->usage)
		return -1;
	return f->usage - f->cache;
}

/* What its anonymous memory and the file set it reads add up to, or -1
 * where either is unknown. */
static double
file_need(const struct tw_advice_cgroup_figures *f)
{
	double anon = anonymous(f);

	if (!f->have_fileset || anon < 0)
		return -1;
	return anon + (f->fileset > f->cache ? f->fileset : f->cache);
}

/* The need (see advice_cgroup.h), in bytes: the file set's where it shows the
 * limit short, else what it holds and read back; *from_files says which. */
static double
need(const struct tw_advice_cgroup_figures *f, int *from_files)
{
	double files = file_need(f), held = f->have_usage ? f->usage : f->limit;

	*from_files = files > f->limit;
	if (*from_files)
		return files;
	return held + (f->refaults > 0 ? f->refaults * TW_ADVICE_CGROUP_READBACK_S * TW_ADVICE_CGROUP_PAGE : 0);
}

/* Its anonymous memory, not its limit, squeezes the cache: the file set
 * it reads fits beside that memory within the limit, which holds half the
 * limit or more. */
static int
squeezed(const struct tw_advice_cgroup_figures *f)
{
	double files = file_need(f);

	return files >= 0 && files <= f->limit &&
	    anonymous(f) >= f->limit * TW_ADVICE_CGROUP_ANON_SHARE;
}

/* Its memory besides the cache grew by TW_ADVICE_CGROUP_LEAK_SHARE of the limit
 * or more within the window. */
static int
leaking(const struct tw_advice_cgroup_figures *f)
{
	return f->have_growth && (f->growth >= f->limit * TW_ADVICE_CGROUP_LEAK_SHARE ||
	    f->fall >= f->limit * TW_ADVICE_CGROUP_LEAK_SHARE);
}

/* The need with headroom, in whole MiB: between a quarter more than the
 * limit and TW_ADVICE_CGROUP_SIZE_CAP times it, never past the host's memory; 0
 * when the limit is already there. */
static double
proposed(const struct tw_advice_cgroup_figures *f)
{
	int from_files;
	double want = need(f, &from_files) * TW_ADVICE_CGROUP_HEADROOM, p;

	if (want < f->limit * TW_ADVICE_CGROUP_HEADROOM)
		want = f->limit * TW_ADVICE_CGROUP_HEADROOM;
	if (want > f->limit * TW_ADVICE_CGROUP_SIZE_CAP)
		want = f->limit * TW_ADVICE_CGROUP_SIZE_CAP;
	p = (double)(unsigned long long)((want + MIB - 1) / MIB) * MIB;
	if (f->mem_total > 0 && p > f->mem_total)
		p = (double)(unsigned long long)(f->mem_total / MIB) * MIB;
	return p > f->limit ? p : 0;
}

/* "while memory.current 63.9 MiB sits at memory.high 64 MiB" and the
 * limit events, the evidence of every line. */
static void
evidence(const struct tw_advice_cgroup_figures *f, const char *where, char *buf, size_t len)
{
	char r[32], u[48], l[32], e[32];

	number(f->refaults, 2, r, sizeof(r));
	number(f->events, 2, e, sizeof(e));
	if (f->have_usage)
		snprintf(u, sizeof(u), "%s MiB", mib(f->usage, l, sizeof(l)));
	else
		snprintf(u, sizeof(u), "unknown");
	snprintf(buf, len, "%s refaults/s while %s %s %s %s %s MiB%s%s%s, in the last %u s", r,
	    f->version == 1 ? "memory.usage_in_bytes" : "memory.current", u, where, f->limit_name,
	    mib(f->limit, l, sizeof(l)), f->have_events ? ", " : "", f->have_events ? e : "",
	    f->have_events ? " limit events/s" : "", f->window_s);
}

/* How the need was told: "it reads a file set of 256 MiB beside 8.5 MiB
 * of other memory", or what it read back in TW_ADVICE_CGROUP_READBACK_S. */
static void
sizing(const struct tw_advice_cgroup_figures *f, char *buf, size_t len)
{
	char a[32], b[32];
	int from_files;
	double n = need(f, &from_files);

	if (from_files)
		snprintf(buf, len, "it reads a file set of %s MiB beside %s MiB of other memory",
		    mib(f->fileset > f->cache ? f->fileset : f->cache, a, sizeof(a)),
		    mib(anonymous(f), b, sizeof(b)));
	else if (file_need(f) >= 0)
		snprintf(buf, len, "sized from what it holds and read back in %.0f s, %s MiB "
		    "(the files it holds open, %s MiB, fit: an upper bound)", TW_ADVICE_CGROUP_READBACK_S,
		    mib(n, a, sizeof(a)), mib(f->fileset, b, sizeof(b)));
	else
		snprintf(buf, len, "sized from what it holds and read back in %.0f s, %s MiB "
		    "(its file set unknown: an upper bound)", TW_ADVICE_CGROUP_READBACK_S,
		    mib(n, a, sizeof(a)));
}

static int
fits(int n, size_t len)
{
	return n >= 0 && (size_t)n < len;
}

int
tw_advice_cgroup(const struct tw_advice_cgroup_figures *f, int *tune, char *line, size_t len)
{
	const char *doc;
	char name[TW_CG_UNIT_NAME_MAX + 32], ev[300], how[256], cur[32], next[32], a[32], b[32];
	char c[32];
	double p;
	int n;

	if (f == NULL || tune == NULL || line == NULL || len == 0 || f->path == NULL)
		return TW_E_INVAL;
	line[0] = '\0';
	*tune = 0;
	tw_cgroup_owner_name(&f->owner, f->path, name, sizeof(name));
	if (!f->have_limit) {
		n = snprintf(line, len, "%s refaults %s pages/s and has no memory limit of its own: "
		    "its cache is bounded by the host's memory, not by a setting of the service "
		    "(see the host's figures)", name, number(f->refaults, 2, ev, sizeof(ev)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (!at_limit(f)) {
		evidence(f, "well below", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, so its own limit does not bound its cache, the host's "
		    "memory does (see the host's figures)", name, ev);
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (leaking(f)) {
		evidence(f, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, while its memory besides the page cache rose by %s MiB "
		    "and fell by %s MiB in that time (now %s MiB): what it allocates squeezes its "
		    "cache, and a larger limit would fill the same way (find what grows)", name, ev,
		    mib(f->growth, a, sizeof(a)), mib(f->fall, c, sizeof(c)),
		    mib(anonymous(f) >= 0 ? anonymous(f) : f->usage, b, sizeof(b)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (squeezed(f)) {
		evidence(f, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, with %s MiB of it not page cache, and the file set "
		    "it reads (%s MiB) fits beside that within the limit: what it allocates squeezes "
		    "its cache, not its limit, and a larger limit would fill the same way if that "
		    "memory grows (find what does)", name, ev, mib(anonymous(f), a, sizeof(a)),
		    mib(f->fileset, b, sizeof(b)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	p = proposed(f);
	if (p == 0) {
		evidence(f, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, and the limit is already the host's memory: add "
		    "memory or reduce the service's working set", name, ev);
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	evidence(f, "sits at", ev, sizeof(ev));
	sizing(f, how, sizeof(how));
	tw_advice_systemd_size(f->limit, cur, sizeof(cur));
	tw_advice_systemd_size(p, next, sizeof(next));
	doc = f->version == 1 ? CGROUP_V1_RST : CGROUP_V2_RST;
	*tune = 1;
	/* No command here: the ticket's apply and persist lines, printed
	 * under this one, are decided in one place (tw_judge_cgroup_finding),
	 * with the unit's name checked, so the two cannot disagree. */
	if (!is_unit(f))
		n = snprintf(line, len, "%s %s %s -> %s (%s; %s; %s)", f->path, f->limit_name, cur,
		    next, ev, how, doc);
	else
		n = snprintf(line, len, "%s %s=%s -> %s (%s; %s; %s, %s)", name,
		    property(f->limit_name), cur, next, ev, how, RESOURCE_CONTROL, doc);
	if (!fits(n, len)) {
		line[0] = '\0';
		*tune = 0;
		return TW_E_TOOBIG;
	}
	return TW_OK;
}

int
tw_advice_cgroup_knob(const struct tw_advice_cgroup_figures *f, char *name, size_t nlen, char *cur,
    char *next, size_t vlen, uint64_t *bytes)
{
	double p;

	if (f == NULL || f->path == NULL || f->limit_name == NULL || !at_limit(f) ||
	    leaking(f) || squeezed(f) || (p = proposed(f)) == 0)
		return TW_E_ABSENT;
	/* As tw_advice_cgroup's line: systemd's property for a unit's own
	 * cgroup, the file itself otherwise. */
	snprintf(name, nlen, "%s", is_unit(f) ? property(f->limit_name) : f->limit_name);
	tw_advice_systemd_size(f->limit, cur, vlen);
	tw_advice_systemd_size(p, next, vlen);
	if (bytes != NULL)
		*bytes = (uint64_t)p;
	return TW_OK;
}
