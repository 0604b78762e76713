/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "cgroupcheck.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice_cgroup.h"
#include "advice/ticket.h"
#include "changes.h"
#include "findings.h"
#include "plugin.h"
#include "report.h"
#include "util/error.h"
#include "view/record_agent.h"
#include "view/record_cgroup.h"

#define MIB (1024.0 * 1024.0)

/* A unit name or glob matches the unit's own cgroup, not the cgroups
 * below it: those a path glob reaches ("/system.slice/nginx.service/?*"). */
int
tw_cgroup_check_matches(const char *expr, const struct tw_cgroup_record *c)
{
	const char *unit = tw_judge_cgroup_unit(c->path), *slash = strrchr(c->path, '/');
	char service[TW_VIEW_STR + 16];

	if (strchr(expr, '/') != NULL)
		return fnmatch(expr, c->path, 0) == 0;
	if (fnmatch(expr, slash != NULL ? slash + 1 : c->path, 0) == 0)
		return 1;
	/* "nginx" is nginx.service, as systemctl reads it. */
	if (strchr(expr, '.') == NULL && unit != NULL) {
		snprintf(service, sizeof(service), "%s.service", expr);
		return fnmatch(service, unit, 0) == 0;
	}
	return 0;
}

/* What a row is printed and labelled by. */
#define NAME_LEN (TW_CG_UNIT_NAME_MAX + 32)

struct row_name {
	char name[NAME_LEN];
};

static int
cmp_name(const void *a, const void *b)
{
	return strcmp((*(const struct row_name *const *)a)->name,
	    (*(const struct row_name *const *)b)->name);
}

/* Each row's name (tw_judge_cgroup_name), in the rows' order, but its
 * path where another row has the same name: a unit's name at two places
 * (/system.slice/x.service and /x.slice/x.service, one of them made by
 * hand), so that no two rows share a perfdata label. A path is unique,
 * and never a unit's name (it starts with '/'). NULL when out of memory. */
static struct row_name *
row_names(const struct tw_view *v)
{
	size_t i, j, n = v->ncgroups;
	struct row_name *names = calloc(n > 0 ? n : 1, sizeof(*names));
	struct row_name **by_name = calloc(n > 0 ? n : 1, sizeof(*by_name));

	if (names == NULL || by_name == NULL) {
		free(names);
		free(by_name);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		tw_judge_cgroup_name(v->cgroups[i].path, names[i].name, sizeof(names[i].name));
		by_name[i] = &names[i];
	}
	qsort(by_name, n, sizeof(*by_name), cmp_name);
	for (i = 0; i < n; i = j) {
		size_t k;

		for (j = i + 1; j < n && strcmp(by_name[i]->name, by_name[j]->name) == 0; j++)
			;
		for (k = i; j - i > 1 && k < j; k++)
			snprintf(by_name[k]->name, NAME_LEN, "%s",
			    v->cgroups[by_name[k] - names].path);
	}
	free(by_name);
	return names;
}

/* The name of row i, c, or its path when row_names had no memory. */
static const char *
name_of(const struct row_name *names, size_t i, const struct tw_cgroup_record *c)
{
	return names != NULL ? names[i].name : c->path;
}

static int
selected(const struct tw_cgroup_check *cc, const struct tw_cgroup_record *c)
{
	size_t i;

	for (i = 0; i < cc->nexprs; i++)
		if (tw_cgroup_check_matches(cc->exprs[i], c))
			return 1;
	return 0;
}

int
tw_cgroup_check_change_selected(const struct tw_cgroup_check *cc, const struct tw_view *v,
    const struct tw_change_record *c)
{
	char dir[TW_TICKET_SUBJECT_CGROUP_LEN];
	size_t i;

	if (c->subject == NULL || !tw_plugin_change_is_cgroup(c))
		return 0;
	for (i = 0; i < v->ncgroups; i++) {
		struct tw_cgroup_record g;

		tw_view_cgroup_record(&v->cgroups[i], &g);
		if (!selected(cc, &g) || tw_ticket_subject_cgroup(dir, sizeof(dir),
		    g.version > 0 ? (int)g.version : 2, g.path) != TW_OK)
			continue;
		/* The record keeps a DisplayString's 255 characters of it. */
		dir[TW_VIEW_SUBJECT - 1] = '\0';
		if (strcmp(dir, c->subject) == 0)
			return 1;
	}
	return 0;
}

static const struct tw_threshold *
or_default(const struct tw_threshold *t, struct tw_threshold *def, const char *text)
{
	if (t->set)
		return t;
	(void)tw_threshold_parse(def, text);
	return def;
}

/* "nginx.service (/system.slice/nginx.service): CRITICAL, 1000 refaults/s,
 * page cache 60 MiB, memory 64 of 64 MiB (memory.high), ..." */
static void
describe(struct tw_out *out, const struct tw_cgroup_record *c, const char *name, enum tw_state st)
{
	char a[32], b[32], d[32], e[32], f[32], g[32], limit[96], psi[96];

	if (tw_fig_has(c->memory_limit_bytes))
		snprintf(limit, sizeof(limit), " of %s MiB (%s)",
		    tw_plugin_num(a, sizeof(a), c->memory_limit_bytes / MIB, 1),
		    c->limit_name != NULL ? c->limit_name : "");
	else
		snprintf(limit, sizeof(limit), ", no limit of its own");
	if (tw_fig_has(c->memory_pressure_pct))
		snprintf(psi, sizeof(psi), ", memory pressure %s %%, io pressure %s %%",
		    tw_plugin_num(a, sizeof(a), c->memory_pressure_pct, 2),
		    tw_plugin_num(b, sizeof(b), tw_fig_or0(c->io_pressure_pct), 2));
	else
		psi[0] = '\0';
	tw_out_line(out, "%s (%s, cgroup v%u): %s, %s refaults/s, page cache %s MiB, memory %s "
	    "MiB%s, read %s MiB/s, written %s MiB/s%s", name, c->path,
	    c->version > 0 ? (unsigned)c->version : 0, tw_state_name(st),
	    tw_fig_has(c->refaults_s) ? tw_plugin_num(b, sizeof(b), c->refaults_s, 2) : "no",
	    tw_plugin_num(d, sizeof(d), tw_fig_or0(c->cache_bytes) / MIB, 1),
	    tw_plugin_num(e, sizeof(e), tw_fig_or0(c->memory_usage_bytes) / MIB, 1), limit,
	    tw_plugin_num(f, sizeof(f), tw_fig_or0(c->read_bytes_s) / MIB, 2),
	    tw_plugin_num(g, sizeof(g), tw_fig_or0(c->write_bytes_s) / MIB, 2), psi);
}

static void
advise(const struct tw_plugin *p, const struct tw_view *v, const struct tw_cgroup_record *c,
    struct tw_out *out)
{
	struct tw_advice_cgroup_evidence e;
	struct tw_finding t;
	char line[1024];
	int tune;

	tw_judge_cgroup_evidence(v, c, p->window_s, &e);
	if (tw_advice_cgroup(&e, &tune, line, sizeof(line)) != TW_OK)
		return;
	tw_out_line(out, "%s: %s", tune ? "tune" : "no tunable", line);
	/* tunewatchd's finding for this cgroup, with the same id. */
	tw_judge_cgroup_finding(&e, &t);
	tw_finding_print(out, &t);
}

/* What the agent's last walk left out, for an UNKNOWN that names its
 * cause: ", the last walk found 320: 304 not published (past cgroupMax or
 * idle), 1 cut too deep (over 128 levels)". Nothing from an agent that
 * does not say. */
static void
summary_cuts(const struct tw_view *v, struct tw_out *out)
{
	static const char *const why[] = {
		"with a path too long (over 4031 bytes)",
		"too deep (over 128 levels)",
		"past the walk's 8192",
	};
	struct tw_agent_record a;
	double cut[3];
	size_t i;

	tw_view_agent_record(&v->agent, &a);
	cut[0] = a.cgroups_cut_long;
	cut[1] = a.cgroups_cut_deep;
	cut[2] = a.cgroups_cut_many;
	if (!tw_fig_has(a.cgroups_walked))
		return;
	tw_out_printf(out, "; the last walk found %llu", (unsigned long long)a.cgroups_walked);
	if (tw_fig_has(a.cgroups_unpublished))
		tw_out_printf(out, ", %llu not published (past cgroupMax, or with no refaults, "
		    "limit events, I/O or limit)", (unsigned long long)a.cgroups_unpublished);
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		if (tw_fig_has(cut[i]) && cut[i] > 0)
			tw_out_printf(out, ", %llu not walked: %s",
			    (unsigned long long)cut[i], why[i]);
}

static void
summary_none(const struct tw_view *v, const struct tw_cgroup_check *cc, struct tw_out *out)
{
	size_t i;

	tw_out_printf(out, "no cgroup matches ");
	for (i = 0; i < cc->nexprs; i++)
		tw_out_printf(out, "%s%s", i > 0 ? " or " : "", cc->exprs[i]);
	tw_out_printf(out, " among the %zu cgroups tunewatchd publishes (those that refault or "
	    "meet their limit first, then I/O, then a limit, up to its cgroupMax)", v->ncgroups);
	summary_cuts(v, out);
}

enum tw_state
tw_cgroup_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_cgroup_check *cc, struct tw_out *out)
{
	struct tw_threshold defw, defc;
	const struct tw_threshold *fw = or_default(&cc->fwarn, &defw, TW_CGROUP_CHECK_REFAULT_WARN);
	const struct tw_threshold *fc = or_default(&cc->fcrit, &defc, TW_CGROUP_CHECK_REFAULT_CRIT);
	struct tw_cgroup_record worst = { 0 }, busiest = { 0 };
	size_t worst_i = 0, busiest_i = 0;
	enum tw_state st = TW_STATE_OK, wst = TW_STATE_OK;
	size_t i, matched = 0, bad = 0;
	struct row_name *names = row_names(v);
	char a[32], b[32];

	/* Each matching cgroup in the table's order: its figures, then its
	 * advice. A refault rate the row lacks compares as 0. */
	for (i = 0; i < v->ncgroups; i++) {
		struct tw_cgroup_record c;
		enum tw_state cs = TW_STATE_OK;
		double r;

		tw_view_cgroup_record(&v->cgroups[i], &c);
		if (!selected(cc, &c))
			continue;
		r = tw_fig_or0(c.refaults_s);
		cs = tw_judge_cgroup(fw, fc, &cc->pwarn, &cc->pcrit, &c);
		/* Labelled by its unit or path; two cgroups whose labels read
		 * alike told apart by their paths. */
		if (tw_fig_has(c.refaults_s))
			tw_out_figure(out, name_of(names, i, &c), c.path, "refaults", r, "", 0,
			    tw_threshold_range(fw), tw_threshold_range(fc), 0);
		tw_out_figure(out, name_of(names, i, &c), c.path, "cache",
		    tw_fig_or0(c.cache_bytes), "B", 0, NULL, NULL, 0);
		describe(out, &c, name_of(names, i, &c), cs);
		if (cs != TW_STATE_OK) {
			bad++;
			advise(p, v, &c, out);
		}
		if (matched == 0 || r > tw_fig_or0(busiest.refaults_s)) {
			busiest = c;
			busiest_i = i;
		}
		if (matched == 0 || tw_state_worst(cs, wst) != wst ||
		    (cs == wst && r > tw_fig_or0(worst.refaults_s))) {
			worst = c;
			worst_i = i;
			wst = cs;
		}
		matched++;
		st = tw_state_worst(st, cs);
	}
	if (matched == 0) {
		free(names);
		summary_none(v, cc, out);
		return TW_STATE_UNKNOWN;
	}
	if (bad > 0) {
		tw_out_printf(out, "%s %s refaults/s", name_of(names, worst_i, &worst),
		    tw_plugin_num(a, sizeof(a), tw_fig_or0(worst.refaults_s), 2));
		if (tw_fig_has(worst.memory_limit_bytes))
			tw_out_printf(out, ", memory %s of its %s %s MiB",
			    tw_plugin_num(a, sizeof(a),
			    tw_fig_or0(worst.memory_usage_bytes) / MIB, 1),
			    worst.limit_name != NULL ? worst.limit_name : "",
			    tw_plugin_num(b, sizeof(b), worst.memory_limit_bytes / MIB, 1));
		tw_out_printf(out, " in the last %u s", p->window_s);
		if (bad > 1)
			tw_out_printf(out, "; %zu more cgroups not OK", bad - 1);
	} else {
		tw_out_printf(out, "%zu cgroup%s, at most %s refaults/s (%s) in the last %u s",
		    matched, matched == 1 ? "" : "s", tw_plugin_num(a, sizeof(a),
		    tw_fig_or0(busiest.refaults_s), 2),
		    name_of(names, busiest_i, &busiest), p->window_s);
	}
	free(names);
	return st;
}
