/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advise.h"

#include <stdio.h>
#include <string.h>

#include "advice/shortfall.h"
#include "advice/ticket.h"
#include "collect/blockqueue.h"
#include "finding/lookup.h"
#include "finding/observe.h"
#include "finding/ratchet.h"
#include "findings.h"
#include "plugin.h"
#include "tunables.h"
#include "util/error.h"
#include "view/record_agent.h"

/* The default lookup's context: the tunable table, through the view. */
struct table_lookup {
	const struct tw_plugin *p;
	const struct tw_view *v;
};

/* The agent's kernel release, "6.1.0-18-amd64" out of "Linux 6.1.0-18-amd64",
 * for the bounds that changed with a release. */
static const char *
osrelease(const struct tw_view *v)
{
	struct tw_agent_record agent;
	const char *sp;

	tw_view_agent_record(&v->agent, &agent);
	if (agent.system == NULL || strncmp(agent.system, "Linux ", 6) != 0)
		return NULL;
	sp = agent.system + 6;
	return *sp != '\0' ? sp : NULL;
}

/* A host-wide value: the agent's release, or a tunable from the table. */
static const char *
host_value(const struct tw_plugin *p, const struct tw_view *v, const char *name)
{
	if (strcmp(name, TW_ADVICE_OSRELEASE) == 0)
		return osrelease(v);
	return tw_tunables_get(p->tunables, v, name);
}

static const char *
table_lookup(void *ctx, const char *name)
{
	const struct table_lookup *c = ctx;

	return host_value(c->p, c->v, name);
}

void
tw_device_lookup_init(struct tw_device_lookup *c, const struct tw_plugin *p,
    const struct tw_view *v, const struct tw_view_disk *d)
{
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->v = v;
	if (d != NULL) {
		tw_view_disk_record(d, &c->rec);
		c->d = &c->rec;
	}
}

const char *
tw_plugin_device_lookup(void *ctx, const char *name)
{
	struct tw_device_lookup *c = ctx;

	if (tw_queue_attr(name) == NULL)
		return host_value(c->p, c->v, name);
	/* lib/finding's, as tunewatchd reads the row: wbt_lat_usec is signed. */
	return tw_view_queue_value(c->d, name, c->buf, sizeof(c->buf));
}

/* Format s, naming a per-device tunable by its sysfs path; s itself
 * keeps the tunable's name, for its ticket. */
static int
advice_line(const struct tw_suggestion *s, const struct tw_view_disk *disk, const char *detail,
    char *line, size_t len)
{
	struct tw_suggestion shown = *s;
	char path[160];

	if (disk != NULL && tw_ticket_queue_path(path, sizeof(path), disk->name, s->name))
		shown.name = path;
	return tw_advice_format(&shown, detail, line, len);
}

/* A tune: line and its ticket; or, where tunewatch's own advice raised the
 * knob already without gain, why not again (finding/ratchet.h), as
 * tunewatchd's finding says it. */
static int
tune_line(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, const struct tw_finding_about *about, const struct tw_suggestion *s,
    const char *detail)
{
	char line[512], why[256];

	if (tw_ratchet_held(v, s, why, sizeof(why))) {
		struct tw_suggestion held = *s;
		struct tw_finding f;

		held.proposed[0] = '\0';
		tw_out_line(out, "tune: %s %s, not raised again (%s)", s->name, s->current, why);
		tw_finding_tune(&f, p->os, sym, TW_STATE_OK, about->subject, about->disk, "", &held);
		f.no_apply = TW_RATCHET_NO_APPLY;
		tw_finding_print(out, &f);
		return 1;
	}

	if (advice_line(s, about->disk, detail, line, sizeof(line)) != TW_OK)
		return 0;
	tw_out_line(out, "tune: %s", line);
	tw_finding_lines(p, out, sym, about, s);
	return 1;
}

/* The rules lib/finding advises, as tunewatchd's findings are: the pick
 * and the rules that belong with it (rmem_default beside rmem_max). */
static int
advise_picked(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, tw_advice_lookup_fn lookup, void *ctx,
    const struct tw_finding_about *about, const char *detail)
{
	struct tw_suggestion picks[TW_OBSERVE_PICKS_MAX];
	size_t n = tw_observe_picks(sym, p->os, lookup, ctx, picks), i;
	int printed = 0;

	for (i = 0; i < n; i++)
		printed += tune_line(p, v, out, sym, about, &picks[i], detail);
	return printed;
}

int
tw_plugin_advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, tw_advice_lookup_fn lookup, void *ctx,
    const struct tw_view_disk *disk, const char *subject, const char *detail)
{
	struct tw_finding_about about = { subject, disk };
	const struct tw_advice_rule *rules;
	size_t n = tw_advice_rules(sym, &rules), i;
	int printed = 0;
	struct table_lookup table = { p, v };

	if (lookup == NULL) {
		lookup = table_lookup;
		ctx = &table;
	}
	if (p->verbose == 0)
		printed = advise_picked(p, v, out, sym, lookup, ctx, &about, detail);
	/* -v shows every rule, each with the other systems' names. */
	for (i = 0; p->verbose > 0 && i < n; i++) {
		struct tw_suggestion s;

		if (tw_advice_name(&rules[i], p->os) == NULL ||
		    tw_advice_suggest(&rules[i], p->os, lookup, ctx, &s) != TW_OK)
			continue;
		if (tune_line(p, v, out, sym, &about, &s, detail)) {
			const char *fb = tw_advice_name(&rules[i], TW_OS_FREEBSD);
			const char *sv = tw_advice_name(&rules[i], TW_OS_SVR4);

			tw_out_line(out, "  elsewhere: FreeBSD %s; SVR4 %s", fb ? fb : "-",
			    sv ? sv : "-");
			printed++;
		}
	}
	if (printed == 0 && n > 0 && p->os != TW_OS_LINUX) {
		/* Nothing to turn on this system: say so, and what Linux has. */
		const char *linux_name = tw_advice_name(&rules[0], TW_OS_LINUX);

		tw_out_line(out, "tune: %s has no tunable for this (%s; on Linux: %s)",
		    p->os == TW_OS_FREEBSD ? "FreeBSD" : "SVR4",
		    detail != NULL && detail[0] != '\0' ? detail : rules[0].reason,
		    linux_name != NULL ? linux_name : "none either");
		tw_finding_no_tunable_lines(out, sym, &about, NULL);
		printed++;
	}
	return printed;
}

int
tw_plugin_advise_pool(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, uint64_t shortfall, const char *subject, const char *detail)
{
	struct table_lookup table = { p, v };
	struct tw_shortfall_lookup sl;

	tw_shortfall_lookup_init(&sl, table_lookup, &table, shortfall);
	return tw_plugin_advise(p, v, out, sym, tw_shortfall_lookup, &sl, NULL, subject, detail);
}

int
tw_plugin_verdict(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_verdict *verdict, tw_advice_lookup_fn lookup, void *ctx,
    const struct tw_view_disk *disk, const char *subject)
{
	struct tw_finding_about about = { subject, disk };
	size_t i;
	int printed = 0;

	for (i = 0; i < verdict->nfound; i++)
		printed += tw_plugin_advise(p, v, out, verdict->found[i].sym, lookup, ctx, disk,
		    subject, verdict->found[i].evidence);
	if (verdict->nfound == 0 && verdict->no_tunable[0] != '\0') {
		tw_out_line(out, "no tunable: %s", verdict->no_tunable);
		tw_finding_no_tunable_lines(out, verdict->no_tunable_sym, &about,
		    verdict->no_apply);
		printed++;
	}
	return printed;
}
