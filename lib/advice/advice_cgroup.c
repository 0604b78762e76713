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

void
tw_advice_cgroup_evidence_init(struct tw_advice_cgroup_evidence *e,
    const struct tw_cgroup_record *rec, double mem_total_bytes, unsigned window_s)
{
	memset(e, 0, sizeof(*e));
	e->rec = rec;
	if (rec != NULL && rec->path != NULL)
		tw_cgroup_owner(rec->path, &e->owner);
	e->mem_total_bytes = mem_total_bytes;
	e->window_s = window_s;
}

/* The record's figures as the rules read them: each absent one is asked
 * for first (has_*), and reads 0 otherwise. */

static int
version(const struct tw_advice_cgroup_evidence *e)
{
	return e->rec->version == 1 || e->rec->version == 2 ? (int)e->rec->version : 0;
}

static int
has_usage(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_has(e->rec->memory_usage_bytes);
}

static double
usage(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_or0(e->rec->memory_usage_bytes);
}

static double
cache(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_or0(e->rec->cache_bytes);
}

static double
fileset(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_or0(e->rec->fileset_bytes);
}

/* A limit is one with its file named. */
static int
has_limit(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_has(e->rec->memory_limit_bytes) && e->rec->limit_name != NULL &&
	    e->rec->limit_name[0] != '\0';
}

static double
limit(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_or0(e->rec->memory_limit_bytes);
}

static const char *
limit_name(const struct tw_advice_cgroup_evidence *e)
{
	return e->rec->limit_name != NULL ? e->rec->limit_name : "";
}

/* A unit's own cgroup, whose limit its manager sets from a property. */
static int
is_unit(const struct tw_advice_cgroup_evidence *e)
{
	return e->owner.kind == TW_CG_OWNER_SYSTEM_UNIT || e->owner.kind == TW_CG_OWNER_USER_UNIT;
}

static int
at_limit(const struct tw_advice_cgroup_evidence *e)
{
	if (!has_limit(e) || limit(e) <= 0)
		return 0;
	return (has_usage(e) && usage(e) >= limit(e) * TW_ADVICE_CGROUP_AT_LIMIT) ||
	    (tw_fig_has(e->rec->limit_events_s) && e->rec->limit_events_s > 0);
}

int
tw_advice_cgroup_bounded(const struct tw_advice_cgroup_evidence *e)
{
	return e != NULL && e->rec != NULL && at_limit(e);
}

/* What it holds besides its page cache (anonymous memory, kernel memory),
 * or -1 unknown. */
static double
anonymous(const struct tw_advice_cgroup_evidence *e)
{
	if (!has_usage(e) || !tw_fig_has(e->rec->cache_bytes) || cache(e) > usage(e))
		return -1;
	return usage(e) - cache(e);
}

/* What its anonymous memory and the file set it reads add up to, or -1
 * where either is unknown. */
static double
file_need(const struct tw_advice_cgroup_evidence *e)
{
	double anon = anonymous(e);

	if (!tw_fig_has(e->rec->fileset_bytes) || anon < 0)
		return -1;
	return anon + (fileset(e) > cache(e) ? fileset(e) : cache(e));
}

/* The need (see advice_cgroup.h), in bytes: the file set's where it shows the
 * limit short, else what it holds and read back; *from_files says which. */
static double
need(const struct tw_advice_cgroup_evidence *e, int *from_files)
{
	double files = file_need(e), held = has_usage(e) ? usage(e) : limit(e);
	double back = tw_fig_or0(e->rec->refaults_s) * TW_ADVICE_CGROUP_READBACK_S;

	*from_files = files > limit(e);
	if (*from_files)
		return files;
	return held + (back > 0 ? back * TW_ADVICE_CGROUP_PAGE : 0);
}

/* Its anonymous memory, not its limit, squeezes the cache: the file set
 * it reads fits beside that memory within the limit, which holds half the
 * limit or more. */
static int
squeezed(const struct tw_advice_cgroup_evidence *e)
{
	double files = file_need(e);

	return files >= 0 && files <= limit(e) &&
	    anonymous(e) >= limit(e) * TW_ADVICE_CGROUP_ANON_SHARE;
}

/* How much its memory besides the cache rose (fell: 1) within the window,
 * bytes (the record's are KiB). */
static double
growth(const struct tw_advice_cgroup_evidence *e, int fell)
{
	return tw_fig_or0(fell ? e->rec->anon_fall_kib : e->rec->anon_growth_kib) * KIB;
}

/* Its memory besides the cache grew (or fell) by TW_ADVICE_CGROUP_LEAK_SHARE
 * of the limit or more within the window. */
static int
leaking(const struct tw_advice_cgroup_evidence *e)
{
	return tw_fig_has(e->rec->anon_growth_kib) &&
	    (growth(e, 0) >= limit(e) * TW_ADVICE_CGROUP_LEAK_SHARE ||
	    growth(e, 1) >= limit(e) * TW_ADVICE_CGROUP_LEAK_SHARE);
}

/* The need with headroom, in whole MiB: between a quarter more than the
 * limit and TW_ADVICE_CGROUP_SIZE_CAP times it, never past the host's memory; 0
 * when the limit is already there. */
static double
proposed(const struct tw_advice_cgroup_evidence *e)
{
	int from_files;
	double want = need(e, &from_files) * TW_ADVICE_CGROUP_HEADROOM, p;
	double host = tw_fig_or0(e->mem_total_bytes);

	if (want < limit(e) * TW_ADVICE_CGROUP_HEADROOM)
		want = limit(e) * TW_ADVICE_CGROUP_HEADROOM;
	if (want > limit(e) * TW_ADVICE_CGROUP_SIZE_CAP)
		want = limit(e) * TW_ADVICE_CGROUP_SIZE_CAP;
	p = (double)(unsigned long long)((want + MIB - 1) / MIB) * MIB;
	if (host > 0 && p > host)
		p = (double)(unsigned long long)(host / MIB) * MIB;
	return p > limit(e) ? p : 0;
}

/* "while memory.current 63.9 MiB sits at memory.high 64 MiB" and the
 * limit events, the evidence of every line. */
static void
evidence(const struct tw_advice_cgroup_evidence *e, const char *where, char *buf, size_t len)
{
	char r[32], u[48], l[32], ev[32];
	int events = tw_fig_has(e->rec->limit_events_s);

	number(tw_fig_or0(e->rec->refaults_s), 2, r, sizeof(r));
	number(tw_fig_or0(e->rec->limit_events_s), 2, ev, sizeof(ev));
	if (has_usage(e))
		snprintf(u, sizeof(u), "%s MiB", mib(usage(e), l, sizeof(l)));
	else
		snprintf(u, sizeof(u), "unknown");
	snprintf(buf, len, "%s refaults/s while %s %s %s %s %s MiB%s%s%s, in the last %u s", r,
	    version(e) == 1 ? "memory.usage_in_bytes" : "memory.current", u, where, limit_name(e),
	    mib(limit(e), l, sizeof(l)), events ? ", " : "", events ? ev : "",
	    events ? " limit events/s" : "", e->window_s);
}

/* How the need was told: "it reads a file set of 256 MiB beside 8.5 MiB
 * of other memory", or what it read back in TW_ADVICE_CGROUP_READBACK_S. */
static void
sizing(const struct tw_advice_cgroup_evidence *e, char *buf, size_t len)
{
	char a[32], b[32];
	int from_files;
	double n = need(e, &from_files);

	if (from_files)
		snprintf(buf, len, "it reads a file set of %s MiB beside %s MiB of other memory",
		    mib(fileset(e) > cache(e) ? fileset(e) : cache(e), a, sizeof(a)),
		    mib(anonymous(e), b, sizeof(b)));
	else if (file_need(e) >= 0)
		snprintf(buf, len, "sized from what it holds and read back in %.0f s, %s MiB "
		    "(the files it holds open, %s MiB, fit: an upper bound)",
		    TW_ADVICE_CGROUP_READBACK_S, mib(n, a, sizeof(a)), mib(fileset(e), b, sizeof(b)));
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
tw_advice_cgroup(const struct tw_advice_cgroup_evidence *e, int *tune, char *line, size_t len)
{
	const char *doc, *path;
	char name[TW_CG_UNIT_NAME_MAX + 32], ev[300], how[256], cur[32], next[32], a[32], b[32];
	char c[32];
	double p;
	int n;

	if (e == NULL || e->rec == NULL || tune == NULL || line == NULL || len == 0 ||
	    e->rec->path == NULL)
		return TW_E_INVAL;
	path = e->rec->path;
	line[0] = '\0';
	*tune = 0;
	tw_cgroup_owner_name(&e->owner, path, name, sizeof(name));
	if (!has_limit(e)) {
		n = snprintf(line, len, "%s refaults %s pages/s and has no memory limit of its own: "
		    "its cache is bounded by the host's memory, not by a setting of the service "
		    "(see the host's figures)", name,
		    number(tw_fig_or0(e->rec->refaults_s), 2, ev, sizeof(ev)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (!at_limit(e)) {
		evidence(e, "well below", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, so its own limit does not bound its cache, the host's "
		    "memory does (see the host's figures)", name, ev);
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (leaking(e)) {
		evidence(e, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, while its memory besides the page cache rose by %s MiB "
		    "and fell by %s MiB in that time (now %s MiB): what it allocates squeezes its "
		    "cache, and a larger limit would fill the same way (find what grows)", name, ev,
		    mib(growth(e, 0), a, sizeof(a)), mib(growth(e, 1), c, sizeof(c)),
		    mib(anonymous(e) >= 0 ? anonymous(e) : usage(e), b, sizeof(b)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	if (squeezed(e)) {
		evidence(e, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, with %s MiB of it not page cache, and the file set "
		    "it reads (%s MiB) fits beside that within the limit: what it allocates squeezes "
		    "its cache, not its limit, and a larger limit would fill the same way if that "
		    "memory grows (find what does)", name, ev, mib(anonymous(e), a, sizeof(a)),
		    mib(fileset(e), b, sizeof(b)));
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	p = proposed(e);
	if (p == 0) {
		evidence(e, "sits at", ev, sizeof(ev));
		n = snprintf(line, len, "%s: %s, and the limit is already the host's memory: add "
		    "memory or reduce the service's working set", name, ev);
		return fits(n, len) ? TW_OK : (line[0] = '\0', TW_E_TOOBIG);
	}
	evidence(e, "sits at", ev, sizeof(ev));
	sizing(e, how, sizeof(how));
	tw_advice_systemd_size(limit(e), cur, sizeof(cur));
	tw_advice_systemd_size(p, next, sizeof(next));
	doc = version(e) == 1 ? CGROUP_V1_RST : CGROUP_V2_RST;
	*tune = 1;
	/* No command here: the ticket's apply and persist lines, printed
	 * under this one, are decided in one place (tw_judge_cgroup_finding),
	 * with the unit's name checked, so the two cannot disagree. */
	if (!is_unit(e))
		n = snprintf(line, len, "%s %s %s -> %s (%s; %s; %s)", path, limit_name(e), cur,
		    next, ev, how, doc);
	else
		n = snprintf(line, len, "%s %s=%s -> %s (%s; %s; %s, %s)", name,
		    property(limit_name(e)), cur, next, ev, how, RESOURCE_CONTROL, doc);
	if (!fits(n, len)) {
		line[0] = '\0';
		*tune = 0;
		return TW_E_TOOBIG;
	}
	return TW_OK;
}

int
tw_advice_cgroup_knob(const struct tw_advice_cgroup_evidence *e, char *name, size_t nlen,
    char *cur, char *next, size_t vlen, uint64_t *bytes)
{
	double p;

	if (e == NULL || e->rec == NULL || e->rec->path == NULL || !at_limit(e) || leaking(e) ||
	    squeezed(e) || (p = proposed(e)) == 0)
		return TW_E_ABSENT;
	/* As tw_advice_cgroup's line: systemd's property for a unit's own
	 * cgroup, the file itself otherwise. */
	snprintf(name, nlen, "%s", is_unit(e) ? property(limit_name(e)) : limit_name(e));
	tw_advice_systemd_size(limit(e), cur, vlen);
	tw_advice_systemd_size(p, next, vlen);
	if (bytes != NULL)
		*bytes = (uint64_t)p;
	return TW_OK;
}
